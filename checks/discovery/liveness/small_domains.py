"""The properties searched whole over a small domain: every turn_order reading at every table size
up to the schema's 12, every reading of the deal at every player count, and every central pile legal
play builds on the way to a closing size."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from ....engine.engines import make_engine
from ....spec import Ruleset, Spec, SpecError
from ...findings import ModelLimit
from ...oracles.z3model import ADD, EIGHT, LEAD, NONE, Model
from .outcome import SCHEMA_PLAYERS, Outcome, players_text


def turn_order(spec: Spec, ruleset: Ruleset) -> Outcome:
    """The engine's next_seat, for every turn_order reading and table size up to the schema's 12."""
    wide = replace(ruleset, players_min=SCHEMA_PLAYERS[0], players_max=SCHEMA_PLAYERS[1])
    readings = spec.variation_points["turn_order"].readings if "turn_order" in spec.variation_points else {}
    cases = 0
    counter: dict[str, Any] | None = None
    for reading in readings or (ruleset.reading("turn_order"),):
        rs = replace(wide, reading_items=tuple(sorted({**wide.readings, "turn_order": reading}.items())))
        for n in range(SCHEMA_PLAYERS[0], SCHEMA_PLAYERS[1] + 1):
            game = make_engine(rs, n)
            for seat in range(n):
                cases += 1
                seen = [seat]
                while len(seen) <= n:
                    nxt = game.next_seat(seen[-1])
                    if nxt == seat or not 0 <= nxt < n:
                        break
                    seen.append(nxt)
                if sorted(seen) != list(range(n)) and counter is None:
                    counter = {"turn_order": reading, "players": n, "from_seat": seat, "visits": seen}
    return Outcome(
        "turn.reaches_every_seat",
        "exhaustive",
        {"players": players_text(*SCHEMA_PLAYERS)},
        ("action.choice", "action.pass.out"),
        counter,
        cases=cases,
        points=_present(spec, ("turn_order",)),
    )


def _present(spec: Spec, points: tuple[str, ...]) -> tuple[str, ...]:
    """The points of `points` the spec declares: those whose readings a search goes through."""
    return tuple(p for p in points if p in spec.variation_points)


def _combos(spec: Spec, points: tuple[str, ...]) -> Iterator[dict[str, str]]:
    present = _present(spec, points)
    for values in itertools.product(*(spec.variation_points[p].playable for p in present)):
        yield dict(zip(present, values, strict=True))


def deal(spec: Spec, ruleset: Ruleset) -> Outcome:
    cases = 0
    counter: dict[str, Any] | None = None
    for n in range(ruleset.players_min, ruleset.players_max + 1):
        for combo in _combos(spec, ("deal", "five_player_copies")):
            rs = spec.with_readings(ruleset, combo)
            cases += 1
            # The deal as the rules state it (the `deck` and `deal` rules), and as the engine makes
            # it (Ruleset.hand_size): a deal it refuses is one that cannot give every player a card.
            model = Model.concrete(rs)
            deck = int(model.copies(n)) * model.R
            try:
                size: int | None = int(model.ask("deal", "hand_size", n, deck_size=deck))
            except ModelLimit:  # a table without an entry for this player count
                size = None
            try:
                rs.hand_size(n)
                refused = False
            except SpecError:
                refused = True
            fits = size is not None and size >= 1 and size * n <= deck
            if (refused or not fits) and counter is None:
                counter = {
                    "players": n,
                    "readings": combo,
                    "deck": deck,
                    "hand_size": size,
                    "cards_needed": size * n if size is not None else None,
                }
    return Outcome(
        "deal.every_player_gets_a_card",
        "exhaustive",
        {"cases": f"{cases:,}", "players": players_text(ruleset.players_min, ruleset.players_max)},
        ("game.players", "deck.copies"),
        counter,
        cases=cases,
        points=_present(spec, ("deal", "five_player_copies")),
    )


Pile = tuple[int, int, int]  # (kind, low, size) as the rules model holds it


def _grow(
    model: Model, players: int, starts: list[tuple[int, list[int]]], adds: Callable[[Pile], list[list[int]]]
) -> tuple[bool, int, int]:
    """Breadth first over the central piles legal play makes from the leads `starts` (k, cards) by
    adds: (whether one reaches its closing size, the largest pile seen, piles visited)."""
    none: Pile = (NONE, 0, 0)
    queue: deque[tuple[Pile, bool]] = deque()
    seen: set[tuple[Pile, bool]] = set()
    largest = 0

    def visit(out: Any, opening8: bool) -> bool:
        nonlocal largest
        if not out.legal:
            return False
        largest = max(largest, out.size)
        if out.set_closed or out.run_closed:
            return True
        if out.rule_of_8:
            return False  # the trick ends here, short of the closing size
        key = ((out.kind, out.low, out.size), opening8)
        if key not in seen:
            seen.add(key)
            queue.append(key)
        return False

    for k, cards in starts:
        opening8 = any(model.values[c] == EIGHT for c in cards)
        if visit(model.decide(LEAD, none, k, _padded(model, cards), players, False), opening8):
            return True, largest, len(seen)
    while queue:
        pile, opening8 = queue.popleft()
        for cards in adds(pile):
            if visit(model.decide(ADD, pile, len(cards), _padded(model, cards), players, opening8), opening8):
                return True, largest, len(seen)
    return False, largest, len(seen)


def _padded(model: Model, cards: list[int]) -> list[int]:
    """The model's shape of a play: maxk positions, the unused ones repeating the last card."""
    return cards + [cards[-1]] * (model.maxk - len(cards))


def set_reachable(spec: Spec, ruleset: Ruleset) -> Outcome:
    points = ("five_player_copies", "five_player_set_close", "add_to_single", "add_past_closing")
    cases = 0
    counter: dict[str, Any] | None = None
    # One rank stands for all (sets of every rank grow alike); not the 8, whose adds may end the trick.
    rank = next(i for i, r in enumerate(ruleset.ranks) if r != EIGHT)
    for n in range(ruleset.players_min, ruleset.players_max + 1):
        for combo in _combos(spec, points):
            rs = spec.with_readings(ruleset, combo)
            model = Model.concrete(rs)
            maxk = model.maxk
            starts = [(k, [rank] * k) for k in range(1, maxk + 1)]

            def adds(pile: Pile, maxk: int = maxk) -> list[list[int]]:
                return [[pile[1]] * k for k in range(1, maxk + 1)]

            ok, largest, visited = _grow(model, n, starts, adds)
            cases += 1 + visited
            if not ok and counter is None:
                counter = {
                    "players": n,
                    "readings": combo,
                    "set_closing_size": rs.set_closing_size(n),
                    "copies": rs.copies(n),
                    "largest_pile": largest,
                }
    return Outcome(
        "close.set_reachable",
        "exhaustive",
        {"cases": f"{cases:,}", "players": players_text(ruleset.players_min, ruleset.players_max)},
        ("trick.end.set", "deck.copies", "action.add"),
        counter,
        cases=cases,
        points=_present(spec, points),
    )


def run_reachable(spec: Spec, ruleset: Ruleset) -> Outcome:
    points = ("run_gaps", "run_wrap", "add_run_ends", "add_to_single", "add_past_closing")
    cases = 0
    counter: dict[str, Any] | None = None
    players = ruleset.players_min
    for combo in _combos(spec, points):
        rs = spec.with_readings(ruleset, combo)
        model = Model.concrete(rs)
        maxk, r = model.maxk, model.R

        def adds(pile: Pile, maxk: int = maxk, r: int = r) -> list[list[int]]:
            _, low, size = pile
            out = []
            for k in range(1, maxk + 1):
                for below in range(k + 1):
                    cards = [(low - below + t) % r for t in range(below)]
                    cards += [(low + size + t) % r for t in range(k - below)]
                    if len(set(cards)) == k:
                        out.append(sorted(cards))
            return out

        starts = [
            (k, sorted((low + t) % r for t in range(k)))
            for low in range(r)
            for k in range(1, min(maxk, r) + 1)
        ]
        ok, largest, visited = _grow(model, players, starts, adds)
        cases += 1 + visited
        if not ok and counter is None:
            counter = {"readings": combo, "run_closing_size": rs.run_closing_size, "longest_run": largest}
    return Outcome(
        "close.run_reachable",
        "exhaustive",
        {"cases": f"{cases:,}"},
        ("trick.end.run", "pile.run", "deck.ranks", "action.add"),
        counter,
        cases=cases,
        points=_present(spec, points),
    )
