"""One statement, two executions: the spec interpreter (engine/interpreter.py, the rules compiled
to closures by spec/lang) and the Z3 model compiled from the same rules (checks/oracles/z3model.py)
give the same answers on every situation of the bounded domain the conformance check sweeps, under
every profile and every single-reading change of one.

Two legs:

- The model evaluated in Python against the interpreter: the conformance check's own comparison
  (`run_config`: every central pile of each sweep, with and without an 8 in the opening pile, every
  candidate move and every move the engine lists, the passes), with the interpreter as the engine
  under check. Legal or not, the pile left, the trick endings, the winner, who moves next and whether
  the round ends must agree.
- The model's Z3 interpretation against its Python one, for every placing move those comparisons
  asked the model about: one formula per player count, opening-pile flag and action, over a
  symbolic situation and a symbolic reading of every point (the encoding the proofs and searches
  use), asked whether any ruleset the situation was swept under gets another answer there. Every
  question must be unsat.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import z3  # type: ignore[import-untyped]
from five35.checks.findings import DEFAULT_SOLVER_RLIMIT, CheckContext
from five35.checks.oracles.z3model import (
    Model,
    Outcome,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
)
from five35.checks.play.conformance import SWEEPS, Tally, run_config
from five35.engine.interpreter import SpecEngine
from five35.spec import Ruleset, Spec, load_spec

SPEC = load_spec()

Asked = tuple[int, bool, int, tuple[int, int, int], int, tuple[int, ...]]  # players, flag, action, pile, k, p


def rulesets(spec: Spec, changed: Sequence[str]) -> list[Ruleset]:
    """Every playable profile, and every single-reading change of each profile in `changed` (each
    ruleset once)."""
    out: list[Ruleset] = []
    for profile in spec.playable_profiles:
        base = spec.ruleset(profile)
        changes = (
            (
                spec.with_readings(base, {point: reading})
                for point, vp in spec.variation_points.items()
                for reading in vp.readings
            )
            if profile in changed
            else ()
        )
        for candidate in (base, *changes):
            if candidate not in out:
                out.append(candidate)
    return out


#: The whole domain (`-m slow`): every single-reading change of every profile, 51 rulesets. The
#: default run changes the default profile's readings only, so every reading of every point is still
#: played, beside the other profiles as they are.
RULESETS = {
    "whole": rulesets(SPEC, SPEC.playable_profiles),
    "sample": rulesets(SPEC, [SPEC.default_profile]),
}
_ENGINES: dict[tuple[Ruleset, int], SpecEngine] = {}


def interpreter(ruleset: Ruleset, players: int) -> SpecEngine:
    """The interpreter for a ruleset and player count, built once: the sweeps face the same piles,
    whose moves it works out once."""
    key = (ruleset, players)
    if key not in _ENGINES:
        _ENGINES[key] = SpecEngine(ruleset, players)
    return _ENGINES[key]


Swept = tuple[str, int, dict[Asked, list[tuple[Ruleset, Outcome[Any]]]]]


@pytest.fixture(scope="module", params=["sample", pytest.param("whole", marks=pytest.mark.slow)])
def swept(request: pytest.FixtureRequest) -> Swept:
    """The interpreter against the concrete model over the domain (`request.param`: which
    rulesets): the pairs compared, and every placing move the model was asked about with its answer
    under each ruleset."""
    size: str = request.param
    asked: dict[Asked, list[tuple[Ruleset, Outcome[Any]]]] = {}
    decide = Model.decide
    current: list[Ruleset] = []

    def recording(
        self: Model, action: Any, pile: Any, k: Any, p: Any, players: Any, opening8: Any, **trick: Any
    ) -> Any:
        out = decide(self, action, pile, k, p, players, opening8, **trick)
        key = (players, bool(opening8), action, tuple(pile), k, tuple(p))
        answers = asked.setdefault(key, [])
        if not answers or answers[-1][0] != current[0]:
            answers.append((current[0], out))
        return out

    patch = pytest.MonkeyPatch()
    patch.setattr(Model, "decide", recording)
    tally = Tally()
    disagreements = []
    undealt = set()
    try:
        for ruleset in RULESETS[size]:
            current[:] = [ruleset]
            ctx = CheckContext(SPEC, ruleset, level="ci", engine=interpreter)
            for sweep in SWEEPS:
                for players in sweep.players:
                    if not ruleset.can_deal(players):
                        undealt.add((ruleset, players))
                        continue
                    disagreements.extend(run_config(ctx, ruleset, players, sweep, (), tally))
    finally:
        patch.undo()
        _ENGINES.clear()
    assert disagreements == []
    # Five players, 4 copies (five_player_copies=five_is_small) and hands of 12 (deal=table): 60
    # cards from a deck of 52, under each profile that deals by the table.
    assert {(rs.reading("five_player_copies"), rs.reading("deal"), n) for rs, n in undealt} == {
        ("five_is_small", "table", 5)
    }
    return size, tally.compared, asked


def test_the_interpreter_and_the_concrete_model_agree_on_the_whole_domain(swept: Swept) -> None:
    size, compared, asked = swept
    played = {(p, rs.reading(p)) for rs in RULESETS[size] for p in rs.readings}
    # Every reading of every point is played, whichever size.
    assert played == {(p, r) for p, vp in SPEC.variation_points.items() for r in vp.readings}
    if size == "whole":
        # 3 profiles with every single-reading change: 51 distinct rulesets of the embedded spec.
        assert len(RULESETS[size]) == 51
        # Every (situation, move) pair of every sweep under every ruleset: 161,135 on the embedded
        # spec (3,172 under the published rules alone); the placing moves among them are 119,507
        # decisions of the model (a situation and a ruleset), in about 3,000 distinct situations.
        assert compared > 150_000
        assert sum(len(v) for v in asked.values()) > 100_000
    else:
        # The default profile with each of its readings changed, and the other two profiles: 19
        # rulesets, 60,314 pairs, 44,841 decisions of the model in the same ~2,800 situations.
        assert compared > 50_000
        assert sum(len(v) for v in asked.values()) > 40_000


def _groups(
    asked: dict[Asked, list[tuple[Ruleset, Outcome[Any]]]],
) -> Iterator[tuple[tuple[int, bool, int], list[tuple[Asked, list[tuple[Ruleset, Outcome[Any]]]]]]]:
    by: dict[tuple[int, bool, int], list[tuple[Asked, list[tuple[Ruleset, Outcome[Any]]]]]] = {}
    for key, answers in asked.items():
        by.setdefault((key[0], key[1], key[2]), []).append((key, answers))
    yield from sorted(by.items())


def test_the_z3_model_agrees_with_the_concrete_model_on_every_decision_swept(swept: Swept) -> None:
    size, _, asked = swept
    base = SPEC.ruleset()
    readings = Readings.symbolic(SPEC, "agree.")
    # The loops reach as far as any swept ruleset's moves do (one add of four under add_count).
    concrete = [Model.concrete(rs) for rs in RULESETS[size]]
    maxk, maxn = max(m.maxk for m in concrete), max(m.maxn for m in concrete)
    model = Model(Z3Alg(), Params.of(base), readings, maxk, maxn)
    sit = SymSituation.fresh("agree.", model.maxk)
    solver = model.solver(DEFAULT_SOLVER_RLIMIT)
    solver.add(*readings.domain())
    pins = {
        rs: z3.And([readings.choice[p] == readings.names[p].index(r) for p, r in rs.readings.items()])
        for rs in RULESETS[size]
    }
    questions = 0
    for (players, flag, action), situations in _groups(asked):
        out = model.decide(action, sit.pile, sit.k, sit.p, players, flag)
        reasons = out.reasons
        terms = [as_bool(out.legal), z3.IntVal(0) + out.kind, z3.IntVal(0) + out.low, z3.IntVal(0) + out.size]
        terms += [as_bool(out.end(r)) for r in reasons]
        for (_, _, _, pile, k, p), answers in situations:
            at = [(sit.kind, pile[0]), (sit.low, pile[1]), (sit.n, pile[2]), (sit.k, k)]
            # A ruleset whose moves place fewer cards fills the unused places as the domain does.
            full = (*p, *(p[-1:] * (model.maxk - len(p))))
            at += list(zip(sit.p, full, strict=True))
            here = [z3.substitute(t, *((v, z3.IntVal(x)) for v, x in at)) for t in terms]
            # The rulesets that got one answer, and the answer: some ruleset of each where Z3 says
            # otherwise would make the question sat.
            by_answer: dict[tuple[Any, ...], tuple[Outcome[Any], list[Any]]] = {}
            for rs, o in answers:
                shown = (bool(o.legal), o.kind, o.low, o.size, o.ends) if o.legal else (False,)
                by_answer.setdefault(shown, (o, []))[1].append(pins[rs])
            differs = []
            for o, under in by_answer.values():
                same = [here[0] == bool(o.legal)]
                if o.legal:
                    same += [here[1] == o.kind, here[2] == o.low, here[3] == o.size]
                    same += [here[4 + i] == bool(o.end(r)) for i, r in enumerate(reasons)]
                differs.append(z3.And(z3.Or(under), z3.Not(z3.And(same))))
            solver.push()
            solver.add(z3.Or(differs))
            answer = solver.check()
            solver.pop()
            questions += 1
            assert answer == z3.unsat, (players, flag, action, pile, k, p)
    # Every placing situation the sweeps reach, under any of the rulesets swept, asked once (the
    # sample reaches the same situations as the whole domain).
    assert questions == len(asked) > 2_500
