"""Z3 answers under a resource limit, never a timeout; an "unknown" (the limit reached, a cancelled
query) never counts as a proof or as "no finding", and its failure names the limit and how to
raise it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
from five35.checks import runner
from five35.checks.findings import DEFAULT_SOLVER_RLIMIT, MAX_SOLVER_RLIMIT, SolverUnknown
from five35.checks.oracles import z3model
from five35.checks.runner import run_checks
from five35.checks.text.tracked import Tracked
from five35.spec import dumps, load_spec

SPEC = load_spec()
BASE = SPEC.ruleset()
PACKAGE = Path(__file__).resolve().parents[3]
Z3_CHECKS = ["proofs", "text_examples", "dead_clauses", "divergence", "discovery.liveness"]


def hard_question(solver: z3.Solver) -> None:
    # The pigeonhole principle, 8 pigeons in 7 holes: far more than a thousand of Z3's steps.
    holes = [[z3.Bool(f"pigeon{i}.hole{j}") for j in range(7)] for i in range(8)]
    solver.add(*(z3.Or(row) for row in holes))
    for j in range(7):
        for i in range(8):
            for k in range(i + 1, 8):
                solver.add(z3.Or(z3.Not(holes[i][j]), z3.Not(holes[k][j])))


def test_a_query_past_its_resource_limit_raises_instead_of_answering_unknown() -> None:
    solver = z3model.CheckedSolver(1_000)
    hard_question(solver)
    with pytest.raises(SolverUnknown) as err:
        solver.check()
    assert "resource limit" in err.value.reason
    assert err.value.rlimit == 1_000
    assert "no answer" in str(err.value)


def test_the_limit_is_counted_per_query_not_per_solver() -> None:
    """Z3's rlimit counts from where the context's count stands when a query starts: a solver that
    answered many queries gets the whole limit again for the next one."""
    solver = z3model.CheckedSolver(300_000)
    hard_question(solver)
    for _ in range(3):
        assert solver.check() == z3.unsat


def test_the_largest_limit_is_the_largest_z3_takes() -> None:
    # Z3 reads the limit as a 32-bit unsigned number: one more would wrap round to 0 (no limit).
    assert MAX_SOLVER_RLIMIT == 2**32 - 1
    with pytest.raises(ValueError, match="solver_rlimit must be between 1 and 4,294,967,295"):
        run_checks(SPEC, BASE, level="quick", only=["graphs.succession"], solver_rlimit=MAX_SOLVER_RLIMIT + 1)


def test_the_checks_solvers_are_checked_solvers_under_the_limit() -> None:
    tracked = Tracked(SPEC, BASE, 12_345)
    assert isinstance(tracked.solver, z3model.CheckedSolver) and tracked.solver.rlimit == 12_345


def test_no_wall_clock_limit_is_left_on_any_solver() -> None:
    """Every Z3 limit of the package is a resource count: a timeout answers differently on a loaded
    machine. And every solver is a CheckedSolver, which always has one."""
    timeouts = re.compile(r"""(set(_param)?\(\s*["'](\w+\.)?timeout["']|Z3_solver_set_timeout|\btry_for\b)""")
    bare = re.compile(r"\bz3\.(Solver|SolverFor|SimpleSolver|Optimize|Tactic|Then)\(")
    offenders = []
    for folder in ("checks", "cli", "engine", "reports", "spec", "protocol"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if timeouts.search(line) or bare.search(line):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert offenders == []


@pytest.mark.parametrize("name", Z3_CHECKS)
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


def test_a_limit_too_small_fails_the_check_naming_the_limit_and_how_to_raise_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(z3model, "_MEMO", {})
    run = run_checks(SPEC, BASE, level="quick", seed=535, only=["proofs"], solver_rlimit=1_000)
    [result] = run.results
    assert result.error is None and not result.findings
    [failure] = result.failures
    assert "Z3 answered unknown (max. resource limit exceeded)" in failure.message
    assert "resource limit of 1,000 steps per query" in failure.message
    assert "--solver-rlimit N" in failure.message and "solver-rlimit = N in [tool.five35]" in failure.message


def test_a_limit_changes_nothing_but_whether_a_query_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit only stops Z3, it does not steer it: any limit the queries fit under gives the same
    bytes, so the limit need not be part of the output."""
    outputs = []
    for rlimit in (DEFAULT_SOLVER_RLIMIT, MAX_SOLVER_RLIMIT, 3_000_000):
        monkeypatch.setattr(z3model, "_MEMO", {})
        run = run_checks(
            SPEC, BASE, level="quick", seed=535, only=["proofs", "text_examples"], solver_rlimit=rlimit
        )
        assert run.ok, run.failures
        outputs.append(dumps(run.to_json()))
    assert outputs[0] == outputs[1] == outputs[2]
