"""Shared helpers for the scenario and property tests.

- `make_game`, `mv`, `moves`, `play`: build hand-made positions in a line each
  (`play(game, hands, leader, "lead 5", "overwrite 7", "pass")`).
- `ENGINES`, `engine_path`: the three ways a step can be played (Game's fast path with its own hooks
  written out; the fast path calling overridden hooks, as a variant's or mutant's engine does; the
  plain path, as an engine overriding a private step method does). The scenario and property tests
  run under each, so a bug in a path they would otherwise never take fails them too.
- `cites`: every scenario test names the clauses and readings it exercises; the coverage test
  (test_scenarios_coverage.py) then proves every clause that governs play and every reading of
  every variation point has a scenario.
- `RulesOracle`: a second, deliberately naive statement of the rules (legal moves and trick endings)
  written from the rule texts and the readings' explanations, not from the engine. It enumerates
  sub-multisets of the hand and classifies them, where the engine precomputes option tables and
  tests packed integers, so the property tests can compare the two at every step of random play.
"""

from __future__ import annotations

import itertools
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from five35.engine import Event, Game, Move, Pile, Play, State, TrickEnd, TrickEndReason
from five35.engine.options import Option
from five35.spec import Ruleset, Spec, load_spec
from five35.spec.vocabulary import Vocabulary
from hypothesis.configuration import set_hypothesis_home_dir

# Hypothesis caches the constants of the code under test in ./.hypothesis even with database=None,
# and its pytest plugin does so while collecting, before any fixture could run; every test module
# here imports this one, so redirecting at import keeps the checkout clean.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "five35-hypothesis")

F = TypeVar("F", bound=Callable[..., Any])


@cache
def spec() -> Spec:
    return load_spec()


def ruleset(profile: str = "published", **readings: str) -> Ruleset:
    return spec().ruleset(profile, readings)


# ---- the paths a step can take ---------------------------------------------------------------------


class HookedGame(Game):
    """Game with every public hook overridden by a call of Game's own: its steps take the fast path
    but call rule_of_8 and trick_winner (and the deal its hooks) through Python, as the engine of a
    variant or a mutant does, instead of the answers Game writes out again for itself."""

    def follows(self, a: int, b: int) -> bool:
        return super().follows(a, b)

    def strength(self, rank: int) -> int:
        return super().strength(rank)

    def beats(self, new: Pile, old: Pile) -> bool:
        return super().beats(new, old)

    def closing_size(self, kind: str) -> int | None:
        return super().closing_size(kind)

    def closes(self, pile: Pile, action: str) -> TrickEndReason | None:
        return super().closes(pile, action)

    def add_limit(self, pile: Pile, kind: str) -> int | None:
        return super().add_limit(pile, kind)

    def add_options(self, pile: Pile) -> list[tuple[tuple[int, ...], Pile]]:
        return super().add_options(pile)

    def rule_of_8(self, option: Option, state: State) -> bool:
        return super().rule_of_8(option, state)

    def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        return super().trick_winner(trick, reasons)

    def next_seat(self, seat: int) -> int:
        return super().next_seat(seat)

    def penalty(self, hand: int) -> int:
        return super().penalty(hand)

    def deck_copies(self) -> int:
        return super().deck_copies()

    def hand_size(self) -> int:
        return super().hand_size()

    def first_leader(self, draw: int) -> int:
        return super().first_leader(draw)

    def round_leader(self, state: State) -> int:
        return super().round_leader(state)


class PlainGame(HookedGame):
    """HookedGame that also overrides a private step method (as tests/planted's FirstPlacerWins
    does): every step takes the plain path, which calls each hook and step method as it goes."""

    def _end_trick(
        self, state: State, trick: tuple[Play, ...], winner: int, reasons: tuple[TrickEndReason, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        return super()._end_trick(state, trick, winner, reasons)


#: The engine classes the scenario and property tests play under, by the path their steps take.
ENGINES: dict[str, type[Game]] = {"fast": Game, "hooked": HookedGame, "plain": PlainGame}
_engine: list[type[Game]] = [Game]


@contextmanager
def engine_path(cls: type[Game]) -> Iterator[None]:
    """`make_game` builds a `cls` inside the block (tests/engine/conftest.py's engine fixture)."""
    _engine.append(cls)
    try:
        yield
    finally:
        _engine.pop()


def engine() -> type[Game]:
    """The engine class of the path under test (Game outside any engine_path block)."""
    return _engine[-1]


def make_game(players: int = 4, profile: str = "published", **readings: str) -> Game:
    return engine()(ruleset(profile, **readings), players)


# ---- moves ----------------------------------------------------------------------------------------

_ACTIONS = {"lead": "lead", "overwrite": "overwrite", "over": "overwrite", "add": "add", "pass": "pass"}


def mv(text: str) -> Move:
    """`"lead 1,2,3"`, `"overwrite 7"` (or `"over 7"`), `"add 5,5"`, `"pass"`."""
    action, _, cards = text.strip().partition(" ")
    ranks = tuple(sorted(int(c) for c in cards.split(",") if c.strip()))
    return Move(_ACTIONS[action], ranks)  # type: ignore[arg-type]


def moves(*texts: str) -> frozenset[Move]:
    return frozenset(mv(t) for t in texts)


def legal(game: Game, state: State) -> frozenset[Move]:
    found = game.legal_moves(state)
    assert len(found) == len(set(found)), f"duplicate legal moves: {found}"
    return frozenset(found)


def play(
    game: Game, hands: list[list[int]], leader: int, *texts: str, scores: Iterable[int] | None = None
) -> tuple[State, list[Event]]:
    """Deal `hands` (the rest of the deck aside), `leader` to lead, then apply the moves in order.

    Returns the final state and the events of the LAST move only, the one a scenario is about.
    """
    state = game.start_round(hands, leader, tuple(scores) if scores is not None else None)
    events: tuple[Event, ...] = ()
    for text in texts:
        state, events = game.apply(state, mv(text))
    return state, list(events)


def trick_end(events: list[Event]) -> TrickEnd | None:
    ends = [e for e in events if isinstance(e, TrickEnd)]
    assert len(ends) <= 1, events
    return ends[0] if ends else None


# ---- coverage registry --------------------------------------------------------------------------

COVERED_CLAUSES: set[str] = set()
COVERED_READINGS: set[tuple[str, str]] = set()


def cites(*clause_ids: str, **readings: str | tuple[str, ...]) -> Callable[[F], F]:
    """Record which clauses and readings a scenario test exercises (checked against the spec now, so
    a misspelt id fails at import rather than quietly covering nothing)."""
    s = spec()
    for cid in clause_ids:
        if cid not in s.clauses:
            raise KeyError(f"scenario cites unknown clause {cid!r}")
    for point, chosen in readings.items():
        names = (chosen,) if isinstance(chosen, str) else chosen
        for name in names:
            if name not in s.variation_points[point].readings:
                raise KeyError(f"scenario cites unknown reading {point}={name}")
            COVERED_READINGS.add((point, name))
    COVERED_CLAUSES.update(clause_ids)

    def mark(func: F) -> F:
        func.__doc__ = f"{func.__doc__ or ''}\n\nCites: {', '.join(clause_ids)}"
        return func

    return mark


# ---- an independent statement of the rules -------------------------------------------------------


class RulesOracle:
    """Legal moves and trick endings, from the rule texts and the readings, by brute force.

    Piles are (kind, cards) with a run's cards in playing order (15,1 under wrap).
    It states each reading itself (it is the tests' independent view), so it lists the readings it
    states and refuses any other, rather than play a new reading like an old one.
    """

    KNOWN: Mapping[str, tuple[str, ...]] = {
        "run_gaps": ("gaps_break", "gaps_skipped"),
        "run_wrap": ("no_wrap", "wrap"),
        "run_order": ("lower_beats", "higher_beats"),
        "five_player_copies": ("five_is_large", "five_is_small"),
        "five_player_set_close": ("five_is_large", "five_is_small"),
        "add_to_single": ("allowed", "not_allowed"),
        "add_run_ends": ("either_end", "top_end"),
        "add_past_closing": ("capped", "overflow"),
        "add_count": ("turn_limit", "any_number"),
        "eight_forms": ("any_eight", "listed_forms"),
        "eight_on_add": ("adds_trigger", "plays_only"),
        "eight_exemption": ("whole_trick", "opening_play"),
        "eight_rank": ("by_number", "strongest"),
        "deal": ("table", "deal_all"),
        "first_leader": ("drawn", "seat_0"),
        "round_leader": ("went_out", "next_seat"),
        "turn_order": ("ascending_seats", "descending_seats"),
    }

    def __init__(self, rules: Ruleset, players: int) -> None:
        Vocabulary(self.KNOWN, ()).require("the scenario tests' RulesOracle", rules.readings)
        r = rules.readings
        self.readings: Mapping[str, str] = r
        self.ranks = list(rules.ranks)
        self.players = players
        # deck.copies / trick.end.set: 2-4 players small, 6 large, 5 as each five_player_* reading says.
        large_deck = players >= 6 or (players == 5 and r["five_player_copies"] == "five_is_large")
        large_close = players >= 6 or (players == 5 and r["five_player_set_close"] == "five_is_large")
        self.copies = rules.copies_large if large_deck else rules.copies_small
        self.set_close = rules.set_closing_large if large_close else rules.set_closing_small
        self.run_close = rules.run_closing_size
        self.max_cards = rules.max_cards_per_turn
        # add_count: one add places up to a turn's cards, or up to one fewer than the largest
        # closing size (what a pile takes before it ends the trick), whichever is more.
        largest = max(rules.run_closing_size, rules.set_closing_large)
        any_number = r["add_count"] == "any_number"
        self.add_max = max(self.max_cards, largest - 1) if any_number else self.max_cards
        self.min_set = rules.min_set_size
        self.min_run = rules.min_run_size

    def successor(self, rank: int) -> int | None:
        """The rank that continues a run after `rank`, if any."""
        if rank == self.ranks[-1]:
            return self.ranks[0] if self.readings["run_wrap"] == "wrap" else None
        if self.readings["run_gaps"] == "gaps_skipped":
            return self.ranks[self.ranks.index(rank) + 1]
        return rank + 1 if rank + 1 in self.ranks else None

    def as_run(self, cards: Iterable[int]) -> tuple[int, ...] | None:
        """The cards in playing order if they form one run, else None."""
        distinct = sorted(cards)
        if len(set(distinct)) != len(distinct) or len(distinct) < self.min_run:
            return None
        for start in distinct:
            order = [start]
            while len(order) < len(distinct):
                nxt = self.successor(order[-1])
                if nxt is None or nxt not in distinct or nxt in order:
                    break
                order.append(nxt)
            if len(order) == len(distinct):
                return tuple(order)
        return None

    def classify(self, cards: tuple[int, ...]) -> tuple[str, tuple[int, ...]] | None:
        if len(cards) == 1:
            return ("single", cards)
        if len(set(cards)) == 1 and len(cards) >= self.min_set:
            return ("set", cards)
        run = self.as_run(cards)
        return ("run", run) if run is not None else None

    def strength(self, rank: int) -> int:
        if rank == 8 and self.readings["eight_rank"] == "strongest":
            return 99
        return rank

    def beats(self, new: tuple[str, tuple[int, ...]], old: tuple[str, tuple[int, ...]]) -> bool:
        if new[0] != old[0] or len(new[1]) != len(old[1]):
            return False
        if new[0] == "run":
            # Runs compare by their first card's place in the rank order (15 first under wrap is last).
            a, b = self.ranks.index(new[1][0]), self.ranks.index(old[1][0])
            return a < b if self.readings["run_order"] == "lower_beats" else a > b
        return self.strength(new[1][0]) > self.strength(old[1][0])

    def placements(self, hand: Counter[int]) -> set[tuple[int, ...]]:
        """Every multiset of 1 to the most cards a move places (a lead's or an add's) the hand holds."""
        out: set[tuple[int, ...]] = set()
        pool = sorted(hand.elements())
        for size in range(1, self.add_max + 1):  # never fewer than a turn places
            out.update(itertools.combinations(pool, size))
        return out

    def legal(self, hand: Counter[int], pile: tuple[str, tuple[int, ...]] | None) -> frozenset[Move]:
        found: set[Move] = set()
        for cards in self.placements(hand):
            shape = self.classify(cards) if len(cards) <= self.max_cards else None
            if pile is None:
                if shape is not None:
                    found.add(Move("lead", cards))
                continue
            if shape is not None and self.beats(shape, pile):
                found.add(Move("overwrite", cards))
            if len(cards) <= self.add_max and self.add_result(pile, cards) is not None:
                found.add(Move("add", cards))
        if pile is not None:
            found.add(Move("pass"))
        return frozenset(found)

    def add_result(
        self, pile: tuple[str, tuple[int, ...]], cards: tuple[int, ...]
    ) -> tuple[str, tuple[int, ...]] | None:
        kind, old = pile
        if kind == "single" and self.readings["add_to_single"] == "not_allowed":
            return None
        combined = tuple(sorted((*old, *cards)))
        capped = self.readings["add_past_closing"] == "capped"
        if kind in ("single", "set") and len(set(combined)) == 1:
            if capped and len(combined) > self.set_close:
                return None
            return ("set", combined)
        if kind in ("single", "run"):
            run = self.as_run(combined)
            if run is None:
                return None
            if self.readings["add_run_ends"] == "top_end" and run[: len(old)] != old:
                return None
            if capped and len(run) > self.run_close:
                return None
            return ("run", run)
        return None

    def trick_end_reasons(
        self, pile: tuple[str, tuple[int, ...]] | None, opening_has_eight: bool, move: Move
    ) -> set[str]:
        """Why placing `move` onto `pile` ends the trick (empty: it does not)."""
        if pile is None:
            new = self.classify(move.cards)
        elif move.action == "add":
            new = self.add_result(pile, move.cards)
        else:
            new = self.classify(move.cards)
        assert new is not None
        reasons: set[str] = set()
        if new[0] == "set" and len(new[1]) >= self.set_close:
            reasons.add("set_closed")
        if new[0] == "run" and len(new[1]) >= self.run_close:
            reasons.add("run_closed")
        if pile is not None and 8 in move.cards:
            exempt = opening_has_eight and self.readings["eight_exemption"] == "whole_trick"
            by_add_ok = move.action != "add" or self.readings["eight_on_add"] == "adds_trigger"
            listed = (new[0] in ("single", "set") and new[1][0] == 8) or new[1] in ((7, 8), (7, 8, 9))
            form_ok = self.readings["eight_forms"] == "any_eight" or listed
            if not exempt and by_add_ok and form_ok:
                reasons.add("rule_of_8")
        return reasons


def all_reading_names() -> list[tuple[str, str]]:
    return [(p, r) for p, vp in spec().variation_points.items() for r in vp.readings]


def deck_counter(rules: Ruleset, copies: int) -> Counter[int]:
    return Counter({r: copies for r in rules.ranks})


def respond(game: Game, lead: str, hand: list[int], *, responder_moves: tuple[str, ...] = ()) -> State:
    """Seat 0 leads `lead` (keeping one spare card); seat 1 holds `hand` and is to move. The other
    seats hold one spare card each. Spares are ranks nobody else uses, so no rank runs out."""
    led = list(mv(lead).cards)
    used = Counter(led) + Counter(hand)
    spares = [r for r in reversed(game.ruleset.ranks) if r not in used and r != 8]
    hands = [[*led, spares[0]], list(hand)] + [[spares[1]] for _ in range(game.players - 2)]
    state, _ = play(game, hands, 0, lead, *responder_moves)
    return state
