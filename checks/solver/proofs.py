"""Proofs within the bounds, over every reading combination at once (readings are Z3 variables).

Each property is asked as its negation: a satisfying assignment is a counterexample, which names the
reading combination (the points the property depends on) and a concrete witness. That combination is
then blocked and the question asked again, so every failing combination is listed. A property that
fails under some combination is a finding; one that holds is a proof.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ...spec.words_model import Words
from ..findings import (
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    Witness,
    profile_status,
    readings_of,
)
from ..impact.alternatives import first_readings, readings_alternative
from ..oracles.z3model import (
    ADD,
    KIND_NAMES,
    LEAD,
    MODEL_VOCABULARY,
    NONE,
    RUN,
    SET,
    SINGLE,
    Model,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
    decision_points,
    loop_bounds,
    memo_check,
)

NAME = "proofs"


@dataclass
class Setup:
    spec: Spec
    ruleset: Ruleset
    readings: Readings
    model: Model
    solver: z3.Solver


def setup(spec: Spec, ruleset: Ruleset, rlimit: int, all_readings: bool = True) -> Setup:
    free = list(decision_points(spec)) if all_readings else []
    readings = Readings.symbolic(spec, "", fixed=dict(ruleset.reading_items), free=free)
    maxk, maxn = loop_bounds(ruleset)
    model = Model(Z3Alg(), Params.of(ruleset), readings, maxk, maxn)
    solver = model.solver(rlimit)
    solver.add(*readings.domain())
    return Setup(spec, ruleset, readings, model, solver)


@dataclass(frozen=True)
class Property:
    id: str
    # Its title: the words file's sentence `says` of the check, with `blanks` (named, not written,
    # so that a memoised proof holds no words).
    says: str
    clauses: tuple[str, ...]
    points: tuple[str, ...]  # the points whose readings a counterexample is reported with
    kind: str  # finding kind when it fails
    # Builds the negation (a counterexample) and a reader that turns a Z3 model into witness data.
    counterexample: Callable[[Setup], tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]]
    blanks: Mapping[str, str | int] = field(default_factory=dict)


def _pile_vars(prefix: str) -> tuple[z3.ArithRef, z3.ArithRef]:
    return z3.Int(f"{prefix}.low"), z3.Int(f"{prefix}.size")


def _ev(model: z3.ModelRef, x: Any) -> Any:
    v = model.eval(x, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()


def _order(kind: int, shape: str) -> Callable[[Setup], tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]]:
    """Pile comparison within one kind and size is a strict total order."""

    def build(s: Setup) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
        m = s.model
        n = z3.Int(f"order.{kind}.{shape}.size")
        players = z3.Int(f"order.{kind}.{shape}.players")
        lows = [z3.Int(f"order.{kind}.{shape}.{c}") for c in "abc"]
        valid = [as_bool(m.valid_pile(kind, x, n, players)) for x in lows]
        beats = {
            (i, j): as_bool(m.beats(kind, lows[i], lows[j], n, players)) for i in range(3) for j in range(3)
        }
        base = [players >= m.p.players_min, players <= m.p.players_max, n >= 1, n <= m.maxn]
        if shape == "irreflexive":
            bad = z3.And(*base, valid[0], beats[(0, 0)])
        elif shape == "asymmetric":
            bad = z3.And(*base, valid[0], valid[1], beats[(0, 1)], beats[(1, 0)])
        elif shape == "transitive":
            bad = z3.And(*base, *valid, beats[(0, 1)], beats[(1, 2)], z3.Not(beats[(0, 2)]))
        else:  # total
            bad = z3.And(
                *base, valid[0], valid[1], lows[0] != lows[1], z3.Not(beats[(0, 1)]), z3.Not(beats[(1, 0)])
            )

        def read(model: z3.ModelRef) -> dict[str, Any]:
            size = _ev(model, n)
            piles = [list(m_concrete_cards(s, kind, _ev(model, x), size)) for x in lows]
            used = {"irreflexive": 1, "asymmetric": 2, "transitive": 3, "total": 2}[shape]
            return {"kind": m.kind_names[kind], "size": size, "piles": piles[:used]}

        return bad, read

    return build


def m_concrete_cards(s: Setup, kind: int, low: int, n: int) -> tuple[int, ...]:
    r = len(s.ruleset.ranks)
    if not s.model.same_kind(kind):
        return tuple(s.ruleset.ranks[(low + t) % r] for t in range(n))
    return (s.ruleset.ranks[low % r],) * n


def _leader_has_play(s: Setup) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
    """Whoever leads holds at least one card, and every single card is a legal lead."""
    m = s.model
    card = z3.Int("lead.card")
    players = z3.Int("lead.players")
    legal, _, _, _ = m.lead(1, [card] * m.maxk, players)
    bad = z3.And(
        card >= 0, card < m.R, players >= m.p.players_min, players <= m.p.players_max, z3.Not(as_bool(legal))
    )

    def read(model: z3.ModelRef) -> dict[str, Any]:
        return {"players": _ev(model, players), "hand": [s.ruleset.ranks[_ev(model, card)]]}

    return bad, read


def _add_window(s: Setup) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
    """Every legal add places cards of the pile's rank or a block touching the pile's ends (the
    conformance check's candidate adds rely on this)."""
    m = s.model
    sit = SymSituation.fresh("window.", m.maxk)
    out = m.decide(ADD, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    outside = []
    for t in range(m.maxk):
        near = [sit.p[t] == sit.low]
        near += [sit.p[t] == m.idx(sit.low - d) for d in range(1, m.maxk + 1)]
        near += [sit.p[t] == m.idx(sit.low + sit.n - 1 + d) for d in range(1, m.maxk + 1)]
        outside.append(z3.And(t < sit.k, z3.Not(z3.Or(near))))
    bad = z3.And(
        *[as_bool(c) for c in sit.domain(m)],
        sit.action == ADD,
        sit.kind != NONE,
        as_bool(out.legal),
        z3.Or(outside),
    )
    return bad, lambda model: _situation(s, sit, model)


def _overwrite_never_closes(s: Setup) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
    """An overwrite never ends a trick by size: it has the central pile's size, which is below closing."""
    m = s.model
    sit = SymSituation.fresh("overclose.", m.maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    bad = z3.And(
        *[as_bool(c) for c in sit.domain(m)],
        sit.action == 1,
        as_bool(out.legal),
        z3.Or(as_bool(out.set_closed), as_bool(out.run_closed)),
    )
    return bad, lambda model: _situation(s, sit, model)


def _opening_never_triggers(s: Setup) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
    """The opening play never is the Rule of 8 (eight.exemption: an 8 in the opening pile)."""
    m = s.model
    sit = SymSituation.fresh("opening.", m.maxk)
    out = m.decide(LEAD, sit.pile, sit.k, sit.p, sit.players, False)
    bad = z3.And(*[as_bool(c) for c in sit.domain(m)], sit.action == LEAD, as_bool(out.rule_of_8))
    return bad, lambda model: _situation(s, sit, model)


def _situation(s: Setup, sit: SymSituation, model: z3.ModelRef) -> dict[str, Any]:
    got = sit.read(model)
    pile = None
    if got["kind"] != NONE:
        pile = {
            "kind": s.model.kind_names[got["kind"]],
            "cards": list(m_concrete_cards(s, got["kind"], got["low"], got["n"])),
        }
    return {
        "players": got["players"],
        "pile": pile,
        "opening_has_eight": got["opening8"],
        "hand": [s.ruleset.ranks[i] for i in got["p"]],
        "action": {0: "lead", 1: "overwrite", 2: "add"}.get(got["action"], "?"),
    }


PROPERTIES: tuple[Property, ...] = (
    *(
        Property(
            id=f"order.{KIND_NAMES[kind]}.{shape}",
            says="order",
            clauses=(f"pile.{KIND_NAMES[kind]}", "action.overwrite"),
            points=("eight_rank",) if kind != RUN else ("run_order", "run_gaps", "run_wrap"),
            kind="gap",
            counterexample=_order(kind, shape),
            blanks={"kind": KIND_NAMES[kind], "shape": shape},
        )
        for kind in (SINGLE, SET, RUN)
        for shape in ("irreflexive", "asymmetric", "transitive", "total")
    ),
    Property(
        "lead.always",
        "lead_always",
        ("lead.no_pass", "turn.cards"),
        (),
        "contradiction",
        _leader_has_play,
    ),
    Property(
        "add.window",
        "add_window",
        ("action.add",),
        ("add_to_single", "add_run_ends", "run_gaps", "run_wrap"),
        "gap",
        _add_window,
    ),
    Property(
        "overwrite.never_closes",
        "overwrite_never_closes",
        ("action.overwrite", "trick.end.set", "trick.end.run"),
        ("five_player_copies", "five_player_set_close"),
        "gap",
        _overwrite_never_closes,
    ),
    Property(
        "lead.never_rule_of_8",
        "lead_never_rule_of_8",
        ("eight.exemption",),
        ("eight_forms",),
        "contradiction",
        _opening_never_triggers,
    ),
)


def _size_reachable(s: Setup, kind: int, players: int) -> tuple[Any, Callable[[z3.ModelRef], dict[str, Any]]]:
    """The closing size of `kind` (a size bound) can be reached by some legal play at `players`."""
    m = s.model
    sit = SymSituation.fresh(f"reach.{kind}.{players}.", m.maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, players, sit.opening8)
    closed = out.set_closed if kind == SET else out.run_closed
    reach = z3.And(*[as_bool(c) for c in sit.domain(m)], sit.players == players, as_bool(closed))
    return reach, lambda model: _situation(s, sit, model)


def _combination(s: Setup, model: z3.ModelRef, points: tuple[str, ...]) -> dict[str, str]:
    chosen = s.readings.concrete(model)
    return {p: chosen[p] for p in points if p in chosen}


def _block(s: Setup, combo: Mapping[str, str]) -> Any:
    terms = []
    for point, reading in combo.items():
        value = s.readings.choice[point]
        if not isinstance(value, str):
            terms.append(value == s.readings.names[point].index(reading))
    return z3.Not(z3.And(terms)) if terms else z3.BoolVal(False)


@dataclass(frozen=True)
class Result:
    property: str
    says: str  # as Property's
    clauses: tuple[str, ...]
    kind: str
    failing: tuple[tuple[dict[str, str], dict[str, Any]], ...]
    blanks: Mapping[str, str | int] = field(default_factory=dict)
    #: The player count a reachability result is about (prove_reachable); None for a property.
    players: int | None = None


def prove(s: Setup, prop: Property, limit: int) -> tuple[Result, int]:
    bad, read = prop.counterexample(s)
    s.solver.push()
    s.solver.add(bad)
    failing: list[tuple[dict[str, str], dict[str, Any]]] = []
    queries = 0
    while len(failing) < limit:
        queries += 1
        if s.solver.check() != z3.sat:
            break
        model = s.solver.model()
        combo = _combination(s, model, prop.points)
        failing.append((combo, read(model)))
        if not combo:
            break
        s.solver.add(_block(s, combo))
    s.solver.pop()
    return Result(prop.id, prop.says, prop.clauses, prop.kind, tuple(failing), prop.blanks), queries


def prove_reachable(s: Setup, kind: int, limit: int, all_readings: bool = True) -> tuple[list[Result], int]:
    """Per player class and per combination of the points that set the bound: is it reachable?"""
    points: tuple[str, ...] = (
        ("five_player_copies", "five_player_set_close", "add_past_closing")
        if kind == SET
        else ("run_gaps", "run_wrap", "add_run_ends", "add_to_single")
    )
    points = tuple(p for p in points if p in s.spec.variation_points and all_readings)
    results = []
    queries = 0
    classes = sorted(
        {s.ruleset.players_min, *(p for p in (5, 6) if s.ruleset.players_min < p <= s.ruleset.players_max)}
    )
    for players in classes:
        reach, _ = _size_reachable(s, kind, players)
        failing: list[tuple[dict[str, str], dict[str, Any]]] = []
        for values in itertools.product(*[s.spec.variation_points[p].readings for p in points]):
            combo = dict(zip(points, values, strict=True))
            pins = [
                s.readings.choice[p] == s.readings.names[p].index(r)
                for p, r in combo.items()
                if not isinstance(s.readings.choice[p], str)
            ]
            queries += 1
            if s.solver.check(reach, *pins) == z3.unsat:
                failing.append((combo, {"players": players}))
        name = KIND_NAMES[kind]
        results.append(
            Result(
                f"reach.{name}_close.players-{players}",
                "reach_close",
                ("trick.end.set", "deck.copies")
                if kind == SET
                else ("trick.end.run", "pile.run", "deck.ranks"),
                "contradiction",
                tuple(failing[:limit]),
                {"kind": name, "players": players},
                players,
            )
        )
    return results, queries


def to_finding(spec: Spec, ruleset: Ruleset, r: Result, words: Words) -> Finding:
    say = words.check(NAME)
    combos = [c for c, _ in r.failing]
    chosen = dict(ruleset.reading_items)
    under_ruleset = any(all(chosen.get(p) == v for p, v in c.items()) for c in combos)
    first_combo, first_witness = r.failing[0]
    every = say("every_reading")
    listed = "; ".join(", ".join(f"{p}={v}" for p, v in sorted(c.items())) or every for c in combos)
    title = say(r.says, **r.blanks)
    reach_players = r.players
    return Finding(
        id=f"proof.{r.property}",
        kind=FindingKind(r.kind),
        title=say("fails", property=title),
        clauses=r.clauses,
        detail=say("fails_detail", property=title, combos=listed),
        check=NAME,
        severity=Severity.HIGH if under_ruleset else Severity.MEDIUM,
        variation_point=next(iter(first_combo), None) if len(first_combo) == 1 else None,
        players=reach_players,
        # The first combination's readings against the rules as played (a finding of one point
        # shares the point's impact instead).
        alternative=readings_alternative(
            spec,
            ruleset,
            first_readings((p, v) for c in combos for p, v in sorted(c.items())),
            players=(reach_players,) if reach_players is not None else (),
            scene=words.scene_for(NAME, r.property),
        )
        if len(first_combo) != 1 and r.kind == FindingKind.CONTRADICTION
        else None,
        readings=readings_of(spec, ((p, v) for c in combos for p, v in sorted(c.items()))),
        witness=Witness(
            summary=say(
                "under", readings=", ".join(f"{p}={v}" for p, v in sorted(first_combo.items())) or every
            ),
            situation=first_witness,
            outcomes={"property": "fails"},
            cards=len(first_witness.get("hand", []))
            + len((first_witness.get("pile") or {}).get("cards", [])),
        ),
        status=profile_status(ruleset, sorted(first_combo), under_ruleset),
    )


def run_proofs(spec: Spec, ruleset: Ruleset, level: str, rlimit: int) -> tuple[list[Result], int]:
    """Every property, over every reading combination (only the ruleset's own at level quick), each
    query under Z3's resource limit `rlimit`."""
    limit = {"quick": 1, "ci": 8, "deep": 32}[level]
    s = setup(spec, ruleset, rlimit, all_readings=level != "quick")
    results: list[Result] = []
    queries = 0
    for prop in PROPERTIES:
        result, asked = prove(s, prop, limit)
        results.append(result)
        queries += asked
    for kind in (SET, RUN):
        got, asked = prove_reachable(s, kind, limit, all_readings=level != "quick")
        results.extend(got)
        queries += asked
    return results, queries


def check_proofs(ctx: CheckContext) -> CheckResult:
    # Refused whole, at every level: a reading the model has no hook for is never proved about.
    MODEL_VOCABULARY.require_ruleset(ctx.ruleset)
    MODEL_VOCABULARY.require_spec(ctx.spec)
    start = time.perf_counter()
    results, queries = memo_check(
        "proofs", ctx, lambda: run_proofs(ctx.spec, ctx.ruleset, ctx.level, ctx.solver_rlimit)
    )
    words = ctx.words
    say = words.check(NAME)
    held = [r for r in results if not r.failing]
    findings = [to_finding(ctx.spec, ctx.ruleset, r, words) for r in results if r.failing]
    return CheckResult.noted(
        NAME,
        say.title,
        start,
        say(
            "read",
            held=len(held),
            total=len(results),
            scope=say("scope_ruleset" if ctx.level == "quick" else "scope_every"),
            names=", ".join(r.property for r in held),
        ),
        proofs=queries,
        findings=findings,
    )
