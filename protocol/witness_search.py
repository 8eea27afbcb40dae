"""The search for the smallest position that shows a variation point's reading: where changing
that reading alone changes the answer to one move (legal or refused, its events, the state after
it), within a lead and at most one play onto it, at every player count.

Sized as the divergence check sizes its witnesses (cards, then players, then ranks, then pile). It
is searched on the engine rather than taken from the check's Z3 model: no solver is needed, the
search sees every answer the protocol compares (the state's `aside` too, which the model does not
hold), and only positions play reaches are candidates (tests/protocol/test_vectors.py checks that
where the check's witness is reachable the two are the same size).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine import PASS, Move, Pile, Position, State
from ..engine.engines import Engine, make_engine
from ..spec import Ruleset, Spec
from .server import ReferenceEngine, state_json


class Engines:
    """One reference engine per ruleset, reused across conversations (each starts with new_round)."""

    def __init__(self) -> None:
        self._engines: dict[Ruleset, ReferenceEngine] = {}
        self._games: dict[tuple[Ruleset, int], Engine] = {}

    def engine(self, ruleset: Ruleset) -> ReferenceEngine:
        found = self._engines.get(ruleset)
        if found is None:
            found = self._engines[ruleset] = ReferenceEngine(ruleset)
        return found

    def game(self, ruleset: Ruleset, players: int) -> Engine:
        found = self._games.get((ruleset, players))
        if found is None:
            found = self._games[(ruleset, players)] = make_engine(ruleset, players)
        return found


def alternatives(spec: Spec, ruleset: Ruleset, point: str) -> list[Ruleset]:
    """`ruleset` with each other playable reading of `point` in turn."""
    mine = ruleset.reading(point)
    return [
        spec.with_readings(ruleset, {point: r}) for r in spec.variation_points[point].playable if r != mine
    ]


def _spares(ruleset: Ruleset, used: set[int], count: int) -> list[int]:
    # A card per seat that nobody plays keeps every hand non-empty after its plays; never an 8.
    free = [r for r in reversed(ruleset.ranks) if r not in used and r != 8]
    free = free or [r for r in reversed(ruleset.ranks) if r != 8] or list(ruleset.ranks)
    return [free[i % len(free)] for i in range(count)]


def _responses_to(games: Sequence[Engine], pile: Pile) -> list[Move]:
    """Every overwrite and add onto `pile` under any of `games`, and pass: the union, in one order."""
    found: dict[Move, None] = {}
    for game in games:
        for move in game.placing_moves(pile):
            found[move] = None
    found[PASS] = None
    return sorted(found, key=lambda m: (len(m.cards), m.cards, m.action))


def _leads(games: Sequence[Engine]) -> list[Move]:
    found = {Move("lead", tuple(sorted(p.cards))): None for g in games for p in g.placeable_piles()}
    return sorted(found, key=lambda m: (len(m.cards), m.cards))


def _position(
    ruleset: Ruleset, players: int, plays: Sequence[tuple[int, Move]], asked: tuple[int, Move] | None
) -> Position:
    """A deal in which every seat holds the cards it places (the setup `plays`, then the `asked`
    move) and one spare card, seat 0 leading."""
    placed = [*plays, *([asked] if asked else [])]
    used = {c for _, m in placed for c in m.cards}
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, m in placed:
        hands[seat].extend(m.cards)
    for seat, spare in enumerate(_spares(ruleset, used, players)):
        hands[seat].append(spare)
    return Position(tuple(tuple(sorted(h)) for h in hands), 0, None, tuple(m for _, m in plays))


def _outcome(game: Engine, position: Position, move: Move) -> Any:
    """What playing `move` in `position` does: refused, or its events and the state after it. Only
    the move is judged (as the divergence check judges one play), not the mover's other options,
    which the spare cards of a searched deal would widen."""
    try:
        state = game.play_from(position)
    except ValueError as exc:  # the deal or a setup move refused
        return ("refused", type(exc).__name__)
    try:
        after, events = game.apply(state, move)
    except ValueError:
        return "illegal"
    return (events, json.dumps(state_json(game, after), sort_keys=True))


def _differs_at(mine: Engine, theirs: Sequence[Engine], position: Position, move: Move) -> bool:
    expected = _outcome(mine, position, move)
    return any(_outcome(g, position, move) != expected for g in theirs)


def search(
    spec: Spec, ruleset: Ruleset, point: str, engines: Engines | None = None
) -> tuple[Position, Move] | None:
    """The smallest position (a lead and at most one play onto it, at every player count) where
    changing `point`'s reading alone changes the answer to one move: legal or refused, its events,
    the state after it. Smallest as the divergence check measures its witnesses: fewest cards on the
    pile and in the play, then the fewest players, then the lowest sum of their ranks, then the
    smallest pile; remaining ties go to the first in a fixed order, so the answer never varies."""
    engines = engines or Engines()
    others = alternatives(spec, ruleset, point)
    tables = [
        _Table(ruleset, n, engines.game(ruleset, n), [engines.game(o, n) for o in others])
        for n in range(ruleset.players_min, ruleset.players_max + 1)
    ]
    # Candidates are tried size by size (cards on the pile and in the play), so the replies to a
    # lead are listed only once a size needs them: the answer is the one a sort of every
    # candidate would give first, without building every pile's options for every reading.
    largest_lead = max((len(m.cards) for t in tables for m in t.leads), default=0)
    size = 1
    while size <= largest_lead or any(size <= t.largest_reply_seen() for t in tables):
        candidates: list[tuple[tuple[int, int, int, int, str], Engine, list[Engine], Position, Move]] = []
        for t in tables:
            for lead in t.leads:
                if len(lead.cards) == size:
                    position = _position(ruleset, t.players, (), (0, lead))
                    key = (size, t.players, sum(lead.cards), 0, str(lead))
                    candidates.append((key, t.mine, t.theirs, position, lead))
            for lead, state, pile in t.opened(size):
                for reply in t.replies(pile, size - len(lead.cards)):
                    position = _position(ruleset, t.players, [(0, lead)], (state.to_move, reply))
                    total = sum(lead.cards) + sum(reply.cards)
                    key = (size, t.players, total, len(lead.cards), f"{lead}/{reply}")
                    candidates.append((key, t.mine, t.theirs, position, reply))
        candidates.sort(key=lambda c: c[0])
        for _, mine, theirs, position, move in candidates:
            if _differs_at(mine, theirs, position, move):
                return position, move
        size += 1
    return None


class _Table:
    """One player count of a search: the engines, the leads, and the replies listed as needed."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        mine: Engine,
        theirs: list[Engine],
    ) -> None:
        self.ruleset, self.players, self.mine, self.theirs = ruleset, players, mine, theirs
        self.every = [mine, *theirs]
        self.leads = _leads(self.every)
        self._opened: list[tuple[Move, State, Pile]] | None = None
        self._replies: dict[Pile, list[Move]] = {}

    def opened(self, size: int) -> list[tuple[Move, State, Pile]]:
        """My leads shorter than `size` that leave a pile, with the state after each and its pile."""
        if self._opened is None:
            self._opened = []
            for lead in _leads([self.mine]):
                try:
                    state = self.mine.play_from(_position(self.ruleset, self.players, [(0, lead)], None))
                except ValueError:
                    continue
                if state.pile is not None:  # else the lead ended the trick (or the round)
                    self._opened.append((lead, state, state.pile))
        return [(lead, state, pile) for lead, state, pile in self._opened if len(lead.cards) < size]

    def replies(self, pile: Pile, size: int) -> list[Move]:
        if pile not in self._replies:
            self._replies[pile] = _responses_to(self.every, pile)
        return [m for m in self._replies[pile] if len(m.cards) == size]

    def largest_reply_seen(self) -> int:
        """The longest lead and reply together among the piles listed so far (every lead's pile is
        listed once the sizes pass the longest lead)."""
        sizes = [
            len(lead.cards) + len(m.cards)
            for lead, _state, pile in self._opened or ()
            for m in self._replies.get(pile, ())
        ]
        return max(sizes, default=0)
