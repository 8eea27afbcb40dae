"""The runner: selection, totals, deduplication, baselines, crash handling, determinism."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from five35.checks import runner
from five35.checks.findings import CheckContext, CheckResult, Finding
from five35.checks.runner import (
    BaselineError,
    CheckRun,
    load_baseline,
    run_checks,
    save_baseline,
    select_checks,
)
from five35.spec import dumps, load_spec

SPEC = load_spec()
BASE = SPEC.ruleset()


def finding(ident: str) -> Finding:
    return Finding(
        id=ident, kind="ambiguity", title=f"title {ident}", clauses=("pile.run",), detail="d", check="test"
    )


def fake_run(*results: CheckResult) -> CheckRun:
    return CheckRun(
        spec_path=str(SPEC.path), ruleset=BASE, level="quick", seed=1, engine="e", results=results
    )


def test_select_checks_by_module_function_or_full_name() -> None:
    names = [n for n, _ in select_checks(None)]
    assert "invariants.matches" in names and "graphs.endgames" in names
    assert [n for n, _ in select_checks(["graphs"])] == [n for n in names if n.startswith("graphs.")]
    assert [n for n, _ in select_checks(["beats"])] == ["graphs.beats"]
    with pytest.raises(ValueError, match="no check called 'nope'"):
        select_checks(["nope"])


def test_findings_are_deduplicated_by_id_and_totals_add_up() -> None:
    a = CheckResult("a", "A", 0.1, exhaustive=3, generated=4, proofs=1, findings=(finding("x"), finding("y")))
    b = CheckResult("b", "B", 0.2, exhaustive=5, findings=(finding("x"),))
    run = fake_run(a, b)
    assert [f.id for f in run.findings] == ["x", "y"]
    assert run.totals() == {
        "checks": 2,
        "exhaustive": 8,
        "generated": 4,
        "proofs": 1,
        "findings": 2,
        "failures": 0,
    }
    assert run.ok and run.passed() and not run.passed(strict=True)
    assert run.passed(strict=True, baseline=frozenset({"x", "y"}))
    assert [f.id for f in run.new_findings(frozenset({"x"}))] == ["y"]


def test_baseline_round_trip(tmp_path: Path) -> None:
    run = fake_run(CheckResult("a", "A", 0.0, findings=(finding("b.2"), finding("a.1"))))
    path = tmp_path / "baseline.json"
    save_baseline(run, path)
    assert load_baseline(path) == frozenset({"a.1", "b.2"})
    assert json.loads(path.read_text())["findings"][0]["id"] == "a.1"
    assert not list(tmp_path.glob(".baseline.json.*"))  # the temp file was renamed, not left behind


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"findings": []}', "not a five35 baseline"),
        ('{"format": "five35-baseline/1", "findings": {}}', "must be a list"),
        ('{"format": "five35-baseline/1", "findings": [{"kind": "x"}]}', "findings[0] has no id"),
    ],
)
def test_bad_baselines_are_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(content)
    with pytest.raises(BaselineError, match=re.escape(message)) as err:
        load_baseline(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)
    with pytest.raises(BaselineError, match="cannot read"):
        load_baseline(tmp_path / "missing.json")


def test_a_check_that_raises_becomes_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def check_boom(ctx: CheckContext) -> CheckResult:
        """Falls over."""
        raise RuntimeError("boom")

    monkeypatch.setattr(runner, "all_checks", lambda: [("test.boom", check_boom)])
    run = run_checks(SPEC, BASE, level="quick", seed=1)
    assert not run.ok
    assert run.failures[0].check == "test.boom" and "RuntimeError: boom" in run.failures[0].message


def test_same_seed_same_json_and_the_seed_matters() -> None:
    first = run_checks(SPEC, BASE, level="quick", seed=11, only=["invariants"])
    second = run_checks(SPEC, BASE, level="quick", seed=11, only=["invariants"])
    other = run_checks(SPEC, BASE, level="quick", seed=12, only=["invariants"])
    assert dumps(first.to_json()) == dumps(second.to_json())
    assert first.ok and other.ok
    assert first.results[0].notes != other.results[0].notes or first.totals() != other.totals()
    assert "seconds" not in dumps(first.to_json())


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        run_checks(SPEC, BASE, level="fast", seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [n for n, _ in runner.all_checks()])
def test_every_check_holds_on_the_reference_engine_at_level_quick(name: str) -> None:
    # The runner's checks, collected one by one, so the project's own test suite runs them too.
    check = dict(runner.all_checks())[name]
    result = check(CheckContext(SPEC, BASE, level="quick", seed=535))
    assert result.ok, [f.message for f in result.failures]
    # A check either examined something or says why it did not at this level.
    assert result.exhaustive + result.generated + result.proofs > 0 or result.notes
