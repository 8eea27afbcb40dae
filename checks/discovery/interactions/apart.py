"""The Z3 proof that rules never meet: no lead, overwrite or add on any central pile the compiled
model allows makes them all apply at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ....engine.state import TrickEndReason
from ....spec import Ruleset, SpecError
from ....spec.model import Rule
from ...oracles import z3model as zm

_ACTIONS = {"lead": zm.LEAD, "overwrite": zm.OVERWRITE, "add": zm.ADD}
_KINDS = {name: kind for kind, name in zm.KIND_NAMES.items()}


def proved_apart(
    ruleset: Ruleset, candidates: Sequence[tuple[str, Sequence[Rule], Sequence[str]]], rlimit: int
) -> frozenset[str]:
    """The candidates (topic, rules, moments) the compiled model proves never to meet: `rules` never
    all apply to one lead, overwrite or add at any of `moments`, for every central pile and every
    play the rules allow (the model's bounds: every pile up to the longest one a trick can hold),
    under the ruleset's readings. Left out where one rule's applying cannot be said in the model
    (going out, a pass, a reason it lacks) or the solver does not answer unsat within its resource
    limit. One symbolic play serves them all, each asked under assumptions of its own (building the
    model is most of the cost)."""
    try:
        maxk, maxn = zm.loop_bounds(ruleset)
        m = zm.Model(zm.Z3Alg(), zm.Params.of(ruleset), zm.Readings.of_ruleset(ruleset), maxk, maxn)
    except (ValueError, SpecError):
        return frozenset()
    sit = zm.SymSituation.fresh("apart.", maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    solver = m.solver(rlimit)
    solver.add(*sit.domain(m), zm.as_bool(out.legal))
    return frozenset(
        topic for topic, rules, moments in candidates if _apart(sit, out, solver, rules, moments)
    )


def _apart(sit: Any, out: Any, solver: Any, rules: Sequence[Rule], moments: Sequence[str]) -> bool:
    reasons = {name for name, _ in out.ends}
    for moment in moments:
        if moment in _ACTIONS:
            at: list[Any] = [sit.action == _ACTIONS[moment]]
        elif moment == "trick_end":
            # A pass ends a trick too, which the model does not decide: only rules a pass cannot
            # all meet at (one about a pile, or a reason a pass never gives) are asked of plays.
            if all(r.kind is None and r.reason in (None, TrickEndReason.ALL_PASSED.value) for r in rules):
                return False
            at = [z3.Or(*(zm.as_bool(holds) for _, holds in out.ends))] if out.ends else [z3.BoolVal(False)]
        else:
            return False  # a pass or the end of a round: not a play the model decides
        for rule in rules:
            if moment not in rule.when:
                at.append(z3.BoolVal(False))
            elif rule.kind is not None:
                at.append(out.kind == _KINDS[rule.kind])
            elif "trick_ends" in rule.decides:
                if rule.reason not in reasons:
                    return False
                at.append(zm.as_bool(out.end(rule.reason or "")))
            elif "round_ends" in rule.decides:
                return False
        if solver.check(*at) != z3.unsat:
            return False
    return True
