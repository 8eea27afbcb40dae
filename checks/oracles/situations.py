"""Bounded domains of situations, and engine States built for them through the engine's public API.

A situation is what one decision depends on: the player count, the central pile (or none: the mover
leads), whether the trick's opening pile held an 8, and the mover's hand. `build_state` turns it into
an engine `State` with `Game.start_round` (every hand dealt from the deck the engine builds) and the
trick-so-far laid on the table, so the engine under check answers exactly that situation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from ...engine import Move, Pile, Play, Position, State
from ...engine.engines import Engine
from ...spec import Ruleset
from .z3model import EIGHT, NONE, Model

PileKey = tuple[int, int, int]  # (kind, low, size) in the model's representation; NONE_PILE = no pile
NONE_PILE: PileKey = (NONE, 0, 0)


@dataclass(frozen=True)
class Situation:
    """One decision point: the mover (seat `to_move`) holds `hand` and faces `pile`."""

    players: int
    pile: Pile | None
    opening_has_eight: bool
    hand: tuple[int, ...]
    to_move: int = 0
    last_player: int = -1
    passed: tuple[int, ...] = ()
    others: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def leading(self) -> bool:
        return self.pile is None

    def trick(self) -> list[dict[str, Any]]:
        """The plays of the trick so far, as a table would show them."""
        if self.pile is None:
            return []
        last = self.last_player
        plays = []
        opening = opening_cards(self.pile, self.opening_has_eight)
        if opening is not None:
            plays.append({"player": last, "action": "lead", "cards": list(opening)})
            plays.append({"player": last, "action": "overwrite", "cards": sorted(self.pile.cards)})
        else:
            plays.append({"player": last, "action": "lead", "cards": sorted(self.pile.cards)})
        plays.extend({"player": p, "action": "pass", "cards": []} for p in self.passed)
        return plays

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "to_move": self.to_move,
            "leading": self.leading,
            "hand": list(self.hand),
            "pile": self.pile.to_json() if self.pile else None,
            "opening_has_eight": self.opening_has_eight,
            "last_player": self.last_player,
            "passed": list(self.passed),
            "trick": self.trick(),
        }

    def cards(self) -> int:
        """Witness size: the cards on the table and in the mover's hand."""
        return (self.pile.size if self.pile else 0) + len(self.hand)

    def position(self, ruleset: Ruleset) -> Position | None:
        """The position that sets this situation up by play: the round's hands, and the central pile
        led by the player who placed last. None when no such opening exists: an opening pile other
        than the central pile (it is only the model's bounded domain that holds it), players who
        passed, or a deck without a card for every other player."""
        if self.passed or (self.pile is not None and opening_cards(self.pile, self.opening_has_eight)):
            return None
        try:
            others = iter(other_hands(ruleset, self))
            hands = [
                list(self.hand) if seat == self.to_move else next(others) for seat in range(self.players)
            ]
        except ValueError:
            return None
        if self.pile is None:
            return Position(tuple(tuple(sorted(h)) for h in hands), leader=self.to_move)
        hands[self.last_player] = [*self.pile.cards, *hands[self.last_player]]
        return Position(
            tuple(tuple(sorted(h)) for h in hands),
            leader=self.last_player,
            moves=(Move("lead", tuple(sorted(self.pile.cards))),),
        )


def opening_cards(pile: Pile, opening_has_eight: bool) -> tuple[int, ...] | None:
    """An opening pile that differs from the central pile in holding an 8, or None when the
    central pile itself can be the opening pile."""
    if opening_has_eight == (EIGHT in pile.cards):
        return None
    if opening_has_eight:
        if pile.kind == "run":
            return (7, 8) if pile.size <= 2 else (7, 8, 9)
        return (EIGHT,) * min(pile.size, 3)
    # The central pile holds an 8 but the opening did not: some 8-free pile opened the trick.
    return (1,) if pile.kind != "run" else (1, 2)


def all_plays(ranks: Sequence[int], max_cards: int) -> list[tuple[int, ...]]:
    """Every multiset of 1..max_cards cards, as sorted rank values."""
    out: list[tuple[int, ...]] = []
    for k in range(1, max_cards + 1):
        out.extend(combinations_with_replacement(ranks, k))
    return out


@cache
def shaped_plays(ranks: tuple[int, ...], max_cards: int) -> list[tuple[int, ...]]:
    """Plays that can form a pile on their own under some reading: one card, k equal cards, or k
    distinct ranks consecutive in the rank list (cyclically, for runs that wrap). The model's
    succession only steps from one rank to the next in the list, so every lead or overwrite the
    model allows is among these."""
    r = len(ranks)
    out: set[tuple[int, ...]] = set()
    for i in range(r):
        out.add((ranks[i],))
        for k in range(2, max_cards + 1):
            out.add((ranks[i],) * k)
            if k <= r:
                out.add(tuple(sorted(ranks[(i + t) % r] for t in range(k))))
    return sorted(out, key=lambda p: (len(p), p))


def add_candidates(model: Model, pile: PileKey, max_cards: int) -> list[tuple[int, ...]]:
    """Plays that can be an add onto `pile` under some reading: k cards of the pile's rank (onto a
    pile of one rank), or a block of `below` ranks under the pile's first card with a block of
    k-below ranks over its last (onto a chain or a single card). The model's add is exactly one of
    these forms (see Model.add), so every add it allows is here."""
    ranks = model.values
    kind, low, n = pile
    r = len(ranks)
    same = bool(model.same_kind(kind))
    out: set[tuple[int, ...]] = set()
    for k in range(1, max_cards + 1):
        if same:
            out.add((ranks[low],) * k)
        if (not same or n == 1) and n + k <= r:
            for below in range(k + 1):
                idx = [(low - below + t) % r for t in range(below)]
                idx += [(low + n + t) % r for t in range(k - below)]
                out.add(tuple(sorted(ranks[i] for i in idx)))
    return sorted(out, key=lambda p: (len(p), p))


def pile_key(model: Model, pile: Pile | None) -> PileKey:
    if pile is None:
        return NONE_PILE
    index = model.values.index
    code = model.code(pile.kind)
    if code is None:
        raise ValueError(f"{pile}: the rules state no kind {pile.kind!r}")
    return (code, index(pile.cards[0]), pile.size)


def to_pile(model: Model, key: PileKey) -> Pile | None:
    kind, low, n = key
    if kind == NONE:
        return None
    return Pile(model.kind_names[kind], model.pile_cards(kind, low, n))  # type: ignore[arg-type]


def central_piles(model: Model, players: int, opening8: bool) -> list[PileKey]:
    """Every central pile a trick can hold (model.central_ok), smallest first."""
    return list(
        model._memo(("central_piles", players, opening8), lambda: _central_piles(model, players, opening8))
    )


def _central_piles(model: Model, players: int, opening8: bool) -> list[PileKey]:
    out: list[PileKey] = []
    for n in range(1, model.maxn + 1):
        for kind in sorted(model.kind_names):
            for low in range(model.R):
                if model.central_ok(kind, low, n, players, opening8):
                    out.append((kind, low, n))
    return out


def full_hand(ruleset: Ruleset, players: int, table: Sequence[int]) -> tuple[int, ...]:
    """The richest hand for the mover: up to max_cards cards of every rank, leaving one card for every
    other player and never more copies than the deck has."""
    copies = ruleset.copies(players)
    left = Counter({r: copies for r in ruleset.ranks})
    left.subtract(Counter(table))
    reserve = players - 1
    for rank in sorted(ruleset.ranks, reverse=True):
        while reserve and left[rank] > 0 and left[rank] > ruleset.max_cards_per_turn - 1:
            left[rank] -= 1
            reserve -= 1
    hand: list[int] = []
    for rank in ruleset.ranks:
        hand.extend([rank] * max(0, min(ruleset.max_cards_per_turn, left[rank])))
    return tuple(hand)


def table_cards(sit: Situation) -> list[int]:
    cards: list[int] = []
    for play in sit.trick():
        cards.extend(play["cards"])
    return cards


def other_hands(ruleset: Ruleset, sit: Situation) -> list[list[int]]:
    """One card for every other player, from what the deck has left, highest ranks first."""
    if sit.others:
        return [list(h) for h in sit.others]
    copies = ruleset.copies(sit.players)
    left = Counter({r: copies for r in ruleset.ranks})
    left.subtract(Counter(table_cards(sit)))
    left.subtract(Counter(sit.hand))
    hands: list[list[int]] = []
    pool = [r for r in sorted(ruleset.ranks, reverse=True) for _ in range(max(0, left[r]))]
    for _ in range(sit.players - 1):
        if not pool:
            raise ValueError("the deck has no card left for every other player")
        hands.append([pool.pop(0)])
    return hands


def build_state(game: Engine, sit: Situation) -> State:
    """The engine's State for `sit`: hands dealt with start_round, the trick so far on the table."""
    others = iter(other_hands(game.ruleset, sit))
    hands = [list(sit.hand) if seat == sit.to_move else next(others) for seat in range(sit.players)]
    state = game.start_round(hands, sit.to_move)
    if sit.pile is None:
        return state
    trick = tuple(Play(p["player"], Move(p["action"], tuple(p["cards"]))) for p in sit.trick())
    on_table = game.codec.pack(table_cards(sit))
    passed = 0
    for seat in sit.passed:
        passed |= 1 << seat
    return replace(
        state,
        pile=sit.pile,
        last_player=sit.last_player,
        passed=passed,
        opening_has_eight=sit.opening_has_eight,
        trick=trick,
        aside=state.aside - on_table,
    )


def seat_before(model: Model, players: int, seat: int) -> int:
    """The seat whose turn comes just before `seat`'s (the `turn` rule's `next`)."""
    return next(s for s in range(players) if model.next_seat(s, players) % players == seat)
