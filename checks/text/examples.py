"""The texts' own examples and numbers, each as constraints over a tracked model (`Example`,
`EXAMPLES`), and the pairs of texts checked against each other (`TEXT_PAIRS`); what a text says is
quoted from the words file (`checks.sentences.text_examples`, `quote.<id>`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ..oracles.z3model import (
    ADD,
    EIGHT,
    LISTED_EIGHT_RUNS,
    OVERWRITE,
    RUN,
    SET,
    SINGLE,
    SymSituation,
    as_bool,
)
from .tracked import Tracked


@dataclass(frozen=True)
class Example:
    """One thing a text says, as constraints over a tracked model."""

    id: str  # the label: a clause id, with @de/@es when only one text says it
    clause: str
    points: tuple[str, ...]  # the variation points whose readings it is checked against
    build: Callable[[Tracked], Any]
    #: The one text that says it ("de", "es"), where the texts say it differently; None: both do.
    language: str | None = None


def _rank(t: Tracked, *ranks: int) -> list[int] | None:
    out = [t.index(r) for r in ranks]
    return None if any(i is None for i in out) else [i for i in out if i is not None]


def _single_order(t: Tracked) -> Any:
    idx = _rank(t, 1, 7, 14)
    if idx is None:
        return False
    m = t.model
    return z3.And(as_bool(m.beats(SINGLE, idx[1], idx[0])), as_bool(m.beats(SINGLE, idx[2], idx[1])))


def _set_order(t: Tracked) -> Any:
    idx = _rank(t, 1, 14)
    if idx is None:
        return False
    m = t.model
    valid = [as_bool(m.valid_pile(SET, i, 3, p)) for i in idx for p in (t.ruleset.players_min,)]
    return z3.And(*valid, as_bool(m.beats(SET, idx[1], idx[0], 3)))


def _run_order(t: Tracked) -> Any:
    idx = _rank(t, 1, 11)
    if idx is None:
        return False
    m = t.model
    return z3.And(
        as_bool(m.run_ok(idx[0], 3)), as_bool(m.run_ok(idx[1], 3)), as_bool(m.beats(RUN, idx[0], idx[1], 3))
    )


def _some_play_triggers(cards: tuple[int, ...], action: int) -> Callable[[Tracked], Any]:
    """Some central pile (with no 8 in the opening pile) on which `cards` can be played this way,
    and doing so is the Rule of 8."""

    def build(t: Tracked) -> Any:
        idx = _rank(t, *cards)
        if idx is None:
            return False
        m = t.model
        sit = SymSituation.fresh(f"ex.{'.'.join(map(str, cards))}.{action}.", m.maxk)
        p = idx + [idx[-1]] * (m.maxk - len(idx))
        players = t.ruleset.players_min
        out = m.decide(action, sit.pile, len(cards), p, players, False)
        return z3.And(
            sit.kind >= SINGLE,
            sit.kind <= RUN,
            sit.n >= 1,
            sit.n <= m.maxn,
            as_bool(m.central_ok(sit.kind, sit.low, sit.n, players, False)),
            as_bool(out.legal),
            as_bool(out.rule_of_8),
        )

    return build


def _some_add_triggers(t: Tracked) -> Any:
    """An 8 added to a central pile is the Rule of 8 in some situation ("eine Karte des Ranges 8 ...
    gespielt", however placed)."""
    m = t.model
    sit = SymSituation.fresh("ex.add8.", m.maxk)
    players = t.ruleset.players_min
    out = m.decide(ADD, sit.pile, sit.k, sit.p, players, False)
    cons = [c for c in sit.domain(m) if not z3.is_true(c)]
    return z3.And(
        *[as_bool(c) for c in cons],
        sit.players == players,
        sit.action == ADD,
        as_bool(m.has_eight(sit.k, sit.p)),
        as_bool(out.legal),
        as_bool(out.rule_of_8),
    )


def _exemption_works(t: Tracked) -> Any:
    """With an 8 in the opening pile, some later legal play of an 8 does not end the trick."""
    m = t.model
    sit = SymSituation.fresh("ex.exempt.", m.maxk)
    players = t.ruleset.players_min
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, players, True)
    return z3.And(
        *[as_bool(c) for c in sit.domain(m)],
        sit.players == players,
        sit.opening8,
        sit.action != 0,
        as_bool(m.has_eight(sit.k, sit.p)),
        as_bool(out.legal),
        z3.Not(as_bool(out.rule_of_8)),
    )


def _set_close(large_from: int) -> Callable[[Tracked], Any]:
    """trick.end.set: the 4th card of a set ends the trick, the 5th in a large game (large from
    `large_from` players), and that card can be placed (the deck has that many copies)."""

    def build(t: Tracked) -> Any:
        m = t.model
        cons = []
        for players in range(t.ruleset.players_min, t.ruleset.players_max + 1):
            close = 5 if players >= large_from else 4
            cons.append(m.set_close(players) == close)
            cons.append(m.copies(players) >= m.set_close(players))
        return z3.And(cons)

    return build


def _copies(small_to: int, large_from: int) -> Callable[[Tracked], Any]:
    """4 copies up to `small_to` players and 5 from `large_from`: a count between the two brackets
    is one the text does not give (the Spanish 'más de 5' leaves 5 players in neither)."""

    def build(t: Tracked) -> Any:
        m = t.model
        players = range(t.ruleset.players_min, t.ruleset.players_max + 1)
        return z3.And(
            [m.copies(p) == 4 for p in players if p <= small_to]
            + [m.copies(p) == 5 for p in players if p >= large_from]
        )

    return build


def _run_close(t: Tracked) -> Any:
    """trick.end.run: the 5th card of a run ends the trick -- so a run of five can be placed."""
    m = t.model
    low = z3.Int("ex.run_close.low")
    close = m.closes_at(RUN, t.ruleset.players_min)
    return z3.And(close == 5, low >= 0, low < m.R, as_bool(m.run_ok(low, close)))


def _set_close_reachable(t: Tracked) -> Any:
    """The closing card of a set can be placed: the deck has enough copies for every player count."""
    m = t.model
    return z3.And(
        [m.copies(p) >= m.set_close(p) for p in range(t.ruleset.players_min, t.ruleset.players_max + 1)]
    )


def _run_close_reachable(t: Tracked) -> Any:
    """The closing card of a run can be placed: some run is as long as the closing size."""
    m = t.model
    low = z3.Int("ex.run_reach.low")
    return z3.And(low >= 0, low < m.R, as_bool(m.run_ok(low, m.closes_at(RUN, t.ruleset.players_min))))


def _turn_cards(t: Tracked) -> Any:
    """turn.cards: a turn places one, two or three cards, and each number can be led."""
    m = t.model
    players = t.ruleset.players_min
    leads = []
    for k in (1, 2, 3):
        if k > m.maxk:
            return False
        p = [z3.Int(f"ex.turn.{k}.{i}") for i in range(m.maxk)]
        legal, _, _, _ = m.lead(k, p, players)
        leads.append(z3.And(*[z3.And(x >= 0, x < m.R) for x in p], as_bool(legal)))
    return z3.And(m.p.max_cards == 3, *leads)


def _eight_value(t: Tracked) -> Any:
    """eight.value: the 8s are the most valuable cards -- in strength (the `ranks` rule's strength
    puts them above every other rank) or, where they are not the strongest, in points."""
    if EIGHT not in t.points:
        return False
    m = t.model
    eight = t.points[EIGHT]
    by_points = z3.And([eight > v for r, v in t.points.items() if r != EIGHT])
    eight_index = m.values.index(EIGHT)
    by_strength = z3.And(
        [as_bool(m.strength(eight_index) > m.strength(i)) for i in range(m.R) if i != eight_index]
    )
    return z3.Or(by_strength, by_points)


def clause_numbers(t: Tracked, clause: str) -> list[int]:
    """The numbers the German text of a clause states (the Spanish when there is no German)."""
    c = t.spec.clauses.get(clause)
    text = (c.de or c.es or "") if c else ""
    return [int(n) for n in re.findall(r"\d+", text)]


def _listed_forms(t: Tracked) -> Any:
    """The runs the model takes as the Rule of 8's list are the runs the clause lists."""
    c = t.spec.clauses.get("eight.trigger")
    text = (c.de or c.es or "") if c else ""
    listed = tuple(tuple(int(n) for n in run.split(",")) for run in re.findall(r"\d+(?:,\d+)+", text))
    return z3.BoolVal(not listed or listed == LISTED_EIGHT_RUNS)


def _match_end(t: Tracked) -> Any:
    numbers = clause_numbers(t, "match.end")  # "bis ein Spieler 20 oder mehr Punkte erreicht hat"
    return t.ints["match_end"] == numbers[0] if numbers else True


def _players(t: Tracked) -> Any:
    numbers = clause_numbers(t, "game.players")  # "535 ist ... für 2 bis 6 Spieler"
    if len(numbers) < 2:
        return True
    return z3.And(t.ints["players_min"] == numbers[-2], t.ints["players_max"] == numbers[-1])


def _ranks(t: Tracked) -> Any:
    numbers = clause_numbers(t, "deck.ranks")  # "1 bis 15, wobei die Karten der Ränge 6 und 10 fehlen"
    if len(numbers) < 2:
        return True
    low, high, *missing = numbers
    stated = tuple(r for r in range(low, high + 1) if r not in missing)
    return z3.BoolVal(tuple(t.ruleset.ranks) == stated)


EXAMPLES: tuple[Example, ...] = (
    Example("pile.single", "pile.single", ("eight_rank",), _single_order),
    Example("pile.set", "pile.set", ("eight_rank",), _set_order),
    Example("pile.run", "pile.run", ("run_order", "run_gaps", "run_wrap"), _run_order),
    Example(
        "eight.trigger.single",
        "eight.trigger",
        ("eight_forms",),
        _some_play_triggers((8,), OVERWRITE),
    ),
    Example(
        "eight.trigger.set",
        "eight.trigger",
        ("eight_forms",),
        _some_play_triggers((8, 8), OVERWRITE),
    ),
    Example(
        "eight.trigger.run78",
        "eight.trigger",
        ("eight_forms", "run_order"),
        _some_play_triggers((7, 8), OVERWRITE),
    ),
    Example(
        "eight.trigger.run789",
        "eight.trigger",
        ("eight_forms", "run_order"),
        _some_play_triggers((7, 8, 9), OVERWRITE),
    ),
    Example(
        "eight.trigger.any",
        "eight.trigger",
        ("eight_forms", "run_gaps"),
        _some_play_triggers((8, 9), OVERWRITE),
    ),
    Example(
        "eight.trigger.added",
        "eight.trigger",
        ("eight_on_add", "eight_forms"),
        _some_add_triggers,
    ),
    Example("eight.trigger.list", "eight.trigger", (), _listed_forms),
    Example(
        "eight.exemption",
        "eight.exemption",
        ("eight_exemption",),
        _exemption_works,
    ),
    Example(
        "trick.end.set@de",
        "trick.end.set",
        ("five_player_set_close", "five_player_copies"),
        _set_close(5),
        language="de",
    ),
    Example(
        "trick.end.set@es",
        "trick.end.set",
        ("five_player_set_close", "five_player_copies"),
        _set_close(6),
        language="es",
    ),
    Example("deck.copies@de", "deck.copies", ("five_player_copies",), _copies(4, 5), language="de"),
    Example("deck.copies@es", "deck.copies", ("five_player_copies",), _copies(4, 6), language="es"),
    Example(
        "trick.end.run",
        "trick.end.run",
        ("run_gaps", "run_wrap"),
        _run_close,
    ),
    Example(
        "trick.end.set.reachable",
        "trick.end.set",
        ("five_player_set_close", "five_player_copies"),
        _set_close_reachable,
    ),
    Example(
        "trick.end.run.reachable",
        "trick.end.run",
        ("run_gaps", "run_wrap"),
        _run_close_reachable,
    ),
    Example("turn.cards", "turn.cards", (), _turn_cards),
    Example(
        "eight.value",
        "eight.value",
        ("eight_rank",),
        _eight_value,
    ),
    Example(
        "match.end",
        "match.end",
        (),
        _match_end,
    ),
    Example(
        "game.players",
        "game.players",
        (),
        _players,
    ),
    Example(
        "pile.set.size",
        "pile.set",
        (),
        lambda t: t.ints["min_set"] == 2,
    ),
    Example(
        "pile.run.size",
        "pile.run",
        (),
        lambda t: t.ints["min_run"] == 2,
    ),
    Example(
        "deck.ranks",
        "deck.ranks",
        (),
        _ranks,
    ),
)

# Pairs of texts checked against each other, whatever the readings.
TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    ("trick.end.set@de", "trick.end.set@es"),
    ("deck.copies@de", "deck.copies@es"),
)
