"""An "unknown" from Z3 (a timeout, a cancelled query) never counts as a proof or as "no finding"."""

from __future__ import annotations

from typing import Any

import pytest
import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
from five35.checks import runner
from five35.checks.findings import SolverUnknown
from five35.checks.oracles import z3model
from five35.checks.runner import run_checks
from five35.checks.text.text_examples import Tracked
from five35.spec import load_spec

SPEC = load_spec()
BASE = SPEC.ruleset()


def hard_question(solver: z3.Solver) -> None:
    # Factoring a 64-bit semiprime by bit-vector multiplication: far more than a millisecond's work.
    x, y = z3.BitVecs("x y", 64)
    solver.add(x * y == 18446744030759878681, z3.UGT(x, 1), z3.UGT(y, 1), z3.ULT(x, y))


def test_a_timed_out_query_raises_instead_of_answering_unknown() -> None:
    solver = z3model.CheckedSolver()
    solver.set("timeout", 1)
    hard_question(solver)
    with pytest.raises(SolverUnknown) as err:
        solver.check()
    assert err.value.reason in ("timeout", "canceled")
    assert "no answer" in str(err.value)


def test_the_checks_solvers_are_checked_solvers() -> None:
    assert isinstance(Tracked(SPEC, BASE).solver, z3model.CheckedSolver)


@pytest.mark.parametrize("name", ["proofs", "text_examples", "dead_clauses", "divergence"])
def test_an_unknown_answer_is_a_failure_of_the_check_that_asked(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query answers "unknown" (as after a Ctrl-C Z3 took for itself): each Z3 check fails,
    naming the reason, instead of passing with no proof or no finding."""

    def cancelled(self: z3.Solver, *assumptions: Any) -> Any:
        return z3.unknown

    monkeypatch.setattr(z3.Solver, "check", cancelled)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "canceled")
    monkeypatch.setattr(z3model, "_MEMO", {})  # earlier tests' answers are not this question's
    run = run_checks(SPEC, BASE, level="ci", seed=535, only=[name])
    assert not run.ok
    [result] = run.results
    assert result.error is None and not result.findings
    [failure] = result.failures
    assert failure.check == name and "canceled" in failure.message and "unknown" in failure.message
    assert runner.CHECKS  # the registry is untouched by the patch
