"""The text against itself: the texts' own examples and numbers as Z3 constraints, checked against
every reading of the points they touch and against the spec's parameters.

Every constraint is asserted with `assert_and_track` under a label: a clause id for what a text says
("pile.run", "trick.end.set@es" where the two texts differ), `parameters.<name>` for a value of the
spec, `reading:<point>=<reading>` for a chosen reading. An unsat result is a contradiction, reported
with its (minimised) unsat core, and the core's labels are mapped to the clause ids they cite. The
parameters are symbolic and pinned by tracked equalities, so a user's spec whose entries contradict
each other (a closing size above the copies, points that do not make the 8 worth the most, ...) is
reported the same way, naming the spec entries in conflict.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ...spec.words import words_of
from ...spec.words_model import Words
from ..findings import (
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    point_status,
    profile_status,
    readings_of,
)
from ..impact.alternatives import readings_alternative
from ..oracles.z3model import (
    ADD,
    EIGHT,
    LISTED_EIGHT_RUNS,
    OVERWRITE,
    RUN,
    SET,
    SINGLE,
    CheckedSolver,
    Model,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
    loop_bounds,
    memo_check,
)
from .labels import Label, ParameterPin, ReadingPin, Stated, names, readings_in

NAME = "text_examples"


@dataclass
class Tracked:
    """A solver over a model whose parameters and readings are pinned by labelled assumptions.

    Every constraint sits behind a label literal (`label -> constraint`), and a check names the labels
    it assumes, so one solver answers for every reading combination and the unsat core is a set of
    labels (labels.py): the text examples it states, the parameters and the readings it pins. A
    core's literals are mapped back to their labels by their Z3 ids, never by their names.
    """

    spec: Spec
    ruleset: Ruleset
    rlimit: int  # Z3's resource limit on each query
    solver: z3.Solver = field(init=False)
    model: Model = field(init=False)
    labels: dict[Label, z3.BoolRef] = field(init=False, default_factory=dict)
    _by_id: dict[int, Label] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        rs = self.ruleset
        self.solver = CheckedSolver(self.rlimit)
        self.solver.set("core.minimize", True)
        ints = {
            name: z3.Int(f"param.{name}")
            for name in (
                "copies_small",
                "copies_large",
                "set_close_small",
                "set_close_large",
                "run_close",
                "max_cards",
                "min_set",
                "min_run",
                "match_end",
                "players_min",
                "players_max",
            )
        }
        points = {r: z3.Int(f"param.points.{r}") for r in rs.ranks}
        params = Params.of(rs).with_values(
            copies={"small_game": ints["copies_small"], "large_game": ints["copies_large"]},
            set_closing_size={"small_game": ints["set_close_small"], "large_game": ints["set_close_large"]},
            run_closing_size=ints["run_close"],
            max_cards_per_turn=ints["max_cards"],
            min_set_size=ints["min_set"],
            min_run_size=ints["min_run"],
            match_end_score=ints["match_end"],
            points=points,
        )
        self.ints = ints
        self.points = points
        names = {p: tuple(vp.readings) for p, vp in self.spec.variation_points.items()}
        choice: dict[str, Any] = {p: z3.Int(f"reading.{p}") for p in names}
        self.readings = Readings(choice, names)
        maxk, maxn = loop_bounds(rs)
        self.model = Model(Z3Alg(), params, self.readings, maxk, maxn)
        self.solver.add(*self.model.axioms())
        self.solver.add(*self.readings.domain())
        pins = {
            ParameterPin("copies"): z3.And(
                ints["copies_small"] == rs.copies_small, ints["copies_large"] == rs.copies_large
            ),
            ParameterPin("set_closing_size"): z3.And(
                ints["set_close_small"] == rs.set_closing_small,
                ints["set_close_large"] == rs.set_closing_large,
            ),
            ParameterPin("run_closing_size"): ints["run_close"] == rs.run_closing_size,
            ParameterPin("max_cards_per_turn"): ints["max_cards"] == rs.max_cards_per_turn,
            ParameterPin("min_set_size"): ints["min_set"] == rs.min_set_size,
            ParameterPin("min_run_size"): ints["min_run"] == rs.min_run_size,
            ParameterPin("match_end_score"): ints["match_end"] == rs.match_end_score,
            ParameterPin("players"): z3.And(
                ints["players_min"] == rs.players_min, ints["players_max"] == rs.players_max
            ),
            ParameterPin("points"): z3.And([points[r] == v for r, v in rs.point_items]),
        }
        self.parameter_labels: list[Label] = list(pins)
        for label, formula in pins.items():
            self.track(label, formula)
        for point, readings in names.items():
            for i, value in enumerate(readings):
                self.track(ReadingPin(point, value), choice[point] == i)

    def track(self, label: Label | str, formula: Any) -> None:
        """Hold `formula` behind the literal of `label` (an id of the caller's own: `Stated`)."""
        label = Stated(label) if isinstance(label, str) else label
        flag = z3.Bool(str(label))
        self.labels[label] = flag
        self._by_id[flag.get_id()] = label
        self.solver.add(z3.Implies(flag, as_bool(formula)))

    def check(
        self, labels: Iterable[Label | str], combo: Mapping[str, str] | None
    ) -> tuple[bool, tuple[Label, ...]]:
        """Assume `labels`, the parameters and (unless combo is None: readings free) the ruleset's
        readings with `combo` over them. Returns (unsat, the core's labels in the order of their
        names)."""
        assumed = [Stated(a) if isinstance(a, str) else a for a in labels]
        if combo is not None:
            assumed += self.parameter_labels
            readings = dict(self.ruleset.reading_items) | dict(combo)
            pins = (ReadingPin(p, r) for p, r in sorted(readings.items()))
            assumed += [pin for pin in pins if pin in self.labels]
        if self.solver.check(*[self.labels[a] for a in assumed]) == z3.unsat:
            core = [self._by_id[x.get_id()] for x in self.solver.unsat_core()]
            return True, tuple(sorted(core, key=str))
        return False, ()

    def index(self, rank: int) -> int | None:
        return self.model.values.index(rank) if rank in self.model.values else None


@dataclass(frozen=True)
class Example:
    """One thing a text says, as constraints over a tracked model."""

    id: str  # the label: a clause id, with @de/@es when only one text says it
    clause: str
    quote: str
    points: tuple[str, ...]  # the variation points whose readings it is checked against
    build: Callable[[Tracked], Any]


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
    Example("pile.single", "pile.single", "(1 < 7 < 14)", ("eight_rank",), _single_order),
    Example("pile.set", "pile.set", "(1,1,1 < 14,14,14)", ("eight_rank",), _set_order),
    Example("pile.run", "pile.run", "(1,2,3 > 11,12,13)", ("run_order", "run_gaps", "run_wrap"), _run_order),
    Example(
        "eight.trigger.single",
        "eight.trigger",
        "eine einzelne 8",
        ("eight_forms",),
        _some_play_triggers((8,), OVERWRITE),
    ),
    Example(
        "eight.trigger.set",
        "eight.trigger",
        "ein Satz 8",
        ("eight_forms",),
        _some_play_triggers((8, 8), OVERWRITE),
    ),
    Example(
        "eight.trigger.run78",
        "eight.trigger",
        "ein Lauf mit 7,8",
        ("eight_forms", "run_order"),
        _some_play_triggers((7, 8), OVERWRITE),
    ),
    Example(
        "eight.trigger.run789",
        "eight.trigger",
        "ein Lauf mit ... 7,8,9",
        ("eight_forms", "run_order"),
        _some_play_triggers((7, 8, 9), OVERWRITE),
    ),
    Example(
        "eight.trigger.any",
        "eight.trigger",
        "Wird eine Karte des Ranges 8 in einem Stich gespielt (a run 8,9 holds one)",
        ("eight_forms", "run_gaps"),
        _some_play_triggers((8, 9), OVERWRITE),
    ),
    Example(
        "eight.trigger.added",
        "eight.trigger",
        "Wird eine Karte des Ranges 8 in einem Stich gespielt (an added 8 is played too)",
        ("eight_on_add", "eight_forms"),
        _some_add_triggers,
    ),
    Example("eight.trigger.list", "eight.trigger", "ein Lauf mit 7,8 oder 7,8,9", (), _listed_forms),
    Example(
        "eight.exemption",
        "eight.exemption",
        "funktioniert nur dann nicht, wenn eine 8 im Eröffnungsstapel eines Stichs enthalten ist",
        ("eight_exemption",),
        _exemption_works,
    ),
    Example(
        "trick.end.set@de",
        "trick.end.set",
        "die vierte Karte ... (oder die fünfte in einem Spiel mit 5+ Spielern)",
        ("five_player_set_close", "five_player_copies"),
        _set_close(5),
    ),
    Example(
        "trick.end.set@es",
        "trick.end.set",
        "la cuarta carta ... (o la quinta en una partida de más de 5 jugadores)",
        ("five_player_set_close", "five_player_copies"),
        _set_close(6),
    ),
    Example(
        "deck.copies@de",
        "deck.copies",
        "4 pro Karte bei 2-4 Spielern / 5 pro Karte bei 5+ Spielern",
        ("five_player_copies",),
        _copies(4, 5),
    ),
    Example(
        "deck.copies@es",
        "deck.copies",
        "4 de cada una con 2-4 jugadores / 5 de cada una con más de 5 jugadores",
        ("five_player_copies",),
        _copies(4, 6),
    ),
    Example(
        "trick.end.run",
        "trick.end.run",
        "Ein Spieler legt die fünfte Karte eines Laufs",
        ("run_gaps", "run_wrap"),
        _run_close,
    ),
    Example(
        "trick.end.set.reachable",
        "trick.end.set",
        "Ein Spieler legt die vierte Karte zu einem aktiven Satz (the closing card can be placed)",
        ("five_player_set_close", "five_player_copies"),
        _set_close_reachable,
    ),
    Example(
        "trick.end.run.reachable",
        "trick.end.run",
        "Ein Spieler legt die fünfte Karte eines Laufs (the closing card can be placed)",
        ("run_gaps", "run_wrap"),
        _run_close_reachable,
    ),
    Example("turn.cards", "turn.cards", "eine, zwei oder drei Karten", (), _turn_cards),
    Example(
        "eight.value",
        "eight.value",
        "Alle Karten des Ranges 8 im Deck sind die wertvollsten im Spiel",
        ("eight_rank",),
        _eight_value,
    ),
    Example(
        "match.end",
        "match.end",
        "bis ein Spieler 20 oder mehr Punkte erreicht hat",
        (),
        _match_end,
    ),
    Example(
        "game.players",
        "game.players",
        "für 2 bis 6 Spieler",
        (),
        _players,
    ),
    Example(
        "pile.set.size",
        "pile.set",
        "Zwei oder mehr Karten desselben Ranges",
        (),
        lambda t: t.ints["min_set"] == 2,
    ),
    Example(
        "pile.run.size",
        "pile.run",
        "Zwei oder mehr Karten aufeinanderfolgender Ränge",
        (),
        lambda t: t.ints["min_run"] == 2,
    ),
    Example(
        "deck.ranks",
        "deck.ranks",
        "Nummern 1 bis 15, wobei die Karten der Ränge 6 und 10 fehlen",
        (),
        _ranks,
    ),
)

# Pairs of texts checked against each other, whatever the readings.
TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    ("trick.end.set@de", "trick.end.set@es"),
    ("deck.copies@de", "deck.copies@es"),
)

# A proven German/Spanish conflict is a mismatch between the two texts: the words file's mismatch
# whose `pair` is the clause says which variation point carries it and the sentence that would
# settle it, and its id is the text audit's for the same mismatch (text_audit.py), so that a
# run that makes both keeps one section: the runner keeps the first finding of an id, and this proof
# (with its unsat core) runs first.


def clauses_of(spec: Spec, labels: Iterable[Label]) -> tuple[str, ...]:
    """The clause ids a core's labels stand for."""
    out: set[str] = set()
    by_id = {e.id: e for e in EXAMPLES}
    for label in labels:
        if isinstance(label, ParameterPin):
            if label.name in spec.parameters:
                out.update(spec.parameters[label.name].cites)
        elif isinstance(label, ReadingPin):
            if label.point in spec.variation_points:
                out.update(spec.variation_points[label.point].cites)
        elif label.id in by_id:
            out.add(by_id[label.id].clause)
        elif label.id in spec.clauses:
            out.add(label.id)
    return tuple(sorted(c for c in out if c in spec.clauses))


def combos(spec: Spec, points: Iterable[str]) -> list[dict[str, str]]:
    known = [p for p in points if p in spec.variation_points]
    choices = [list(spec.variation_points[p].readings) for p in known]
    return [dict(zip(known, c, strict=True)) for c in itertools.product(*choices)]


@dataclass(frozen=True)
class Conflict:
    labels: tuple[str, ...]  # what was checked
    combo: tuple[tuple[str, str], ...]
    core: tuple[Label, ...]


def check_pair(spec: Spec, ruleset: Ruleset, a: Example, b: Example, rlimit: int) -> Conflict | None:
    """Two texts against each other, with the readings and the parameters left free."""
    t = Tracked(spec, ruleset, rlimit)
    for ex in (a, b):
        t.track(ex.id, ex.build(t))
    unsat, core = t.check([a.id, b.id], None)
    return Conflict((a.id, b.id), (), core) if unsat else None


def to_finding(spec: Spec, ruleset: Ruleset, conflict: Conflict, words: Words) -> Finding:
    say = words.check(NAME)
    by_id = {e.id: e for e in EXAMPLES}
    examples = [by_id[label] for label in conflict.labels]
    readings_text = ", ".join(f"{p}={r}" for p, r in conflict.combo)
    chosen = dict(ruleset.reading_items)
    under_ruleset = all(chosen.get(p) == r for p, r in conflict.combo)
    said = "; ".join(say("quoted", example=e.id, quote=e.quote) for e in examples)
    core = ", ".join(names(conflict.core))
    if len(examples) == 2:
        title = say("contradict", first=examples[0].id, second=examples[1].id)
        detail = say("contradict_detail", said=said, core=core)
        suffix = "-".join(e.id.split("@")[-1] for e in examples)
        pair = next((m for m in words.mismatches if m.pair == examples[0].clause), None)
        fid = f"mismatch.{pair.key}" if pair else f"text.{examples[0].clause}.{suffix}"
        point, wording = (pair.variation_point, pair.wording) if pair else (None, None)
    else:
        point, wording = None, None
        against = (
            say("against_reading", readings=readings_text) if conflict.combo else say("against_parameters")
        )
        title = say("conflicts", example=examples[0].id, against=against)
        detail = say("conflict_detail", said=said, under=readings_text or say("as_written"), core=core)
        fid = f"text.{examples[0].id}" + (
            f".{'.'.join(f'{p}={r}' for p, r in conflict.combo)}" if conflict.combo else ""
        )
    points = sorted({point for point, _ in readings_in(conflict.core)})
    variation_point = point or (points[0] if len(points) == 1 else None)
    kind = FindingKind.MISMATCH if len(examples) == 2 else FindingKind.CONTRADICTION
    return Finding(
        id=fid,
        kind=kind,
        title=title,
        clauses=clauses_of(spec, conflict.core),
        detail=detail,
        check=NAME,
        severity=Severity.HIGH
        if (under_ruleset and conflict.combo) or not conflict.combo
        else Severity.MEDIUM,
        variation_point=variation_point,
        proposed_wording=wording,
        readings=readings_of(spec, conflict.combo),
        # A contradiction of one point shares the point's impact; one of several readings is
        # measured against the rules as played.
        alternative=readings_alternative(
            spec, ruleset, dict(conflict.combo), scene=words.scene_for(NAME, examples[0].id)
        )
        if kind is FindingKind.CONTRADICTION and variation_point is None
        else None,
        status=(
            point_status(spec, ruleset, point)
            if len(examples) == 2
            else profile_status(ruleset, [p for p, _ in conflict.combo], under_ruleset)
        ),
        unsat_core=names(conflict.core),
    )


def text_conflicts(
    spec: Spec, ruleset: Ruleset, rlimit: int, every_reading: bool = True
) -> tuple[list[Conflict], int]:
    conflicts: list[Conflict] = []
    seen: set[tuple[tuple[str, ...], tuple[Label, ...]]] = set()
    queries = 0
    for example in EXAMPLES:
        t = Tracked(spec, ruleset, rlimit)
        t.track(example.id, example.build(t))
        for combo in combos(spec, example.points) if every_reading else [{}]:
            queries += 1
            unsat, core = t.check([example.id], combo)
            got = Conflict((example.id,), tuple(sorted(combo.items())), core) if unsat else None
            if got is None or (got.labels, got.core) in seen:
                continue
            seen.add((got.labels, got.core))
            # Name the conflict by the readings its core needs, not every reading that was swept.
            conflicts.append(Conflict(got.labels, readings_in(got.core), got.core))
    by_id = {e.id: e for e in EXAMPLES}
    for a, b in TEXT_PAIRS:
        queries += 1
        got = check_pair(spec, ruleset, by_id[a], by_id[b], rlimit)
        if got is not None:
            conflicts.append(got)
    return conflicts, queries


def check_text_examples(ctx: CheckContext) -> CheckResult:
    start = time.perf_counter()
    conflicts, queries = memo_check(
        "text_examples",
        ctx,
        lambda: text_conflicts(ctx.spec, ctx.ruleset, ctx.solver_rlimit, ctx.level != "quick"),
    )
    words = words_of(ctx.spec)
    say = words.check(NAME)
    return CheckResult.noted(
        NAME,
        say.title,
        start,
        say(
            "read",
            examples=len(EXAMPLES),
            scope=say("scope_ruleset" if ctx.level == "quick" else "scope_every"),
            pairs=len(TEXT_PAIRS),
            conflicts=len(conflicts),
        ),
        proofs=queries,
        findings=(to_finding(ctx.spec, ctx.ruleset, c, words) for c in conflicts),
    )
