"""The runner: selection, totals, deduplication, baselines, crash handling, determinism."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from five35.checks import runner
from five35.checks.findings import Check, CheckContext, CheckResult, Finding, FindingKind
from five35.checks.runner import (
    BaselineError,
    CheckRun,
    load_baseline,
    run_checks,
    save_baseline,
    select_checks,
)
from five35.engine import Game
from five35.spec import dumps, load_spec
from spec_copies import write_spec_copy

SPEC = load_spec()
BASE = SPEC.ruleset()


def finding(ident: str) -> Finding:
    return Finding(
        id=ident,
        kind=FindingKind.AMBIGUITY,
        title=f"title {ident}",
        clauses=("pile.run",),
        detail="d",
        check="test",
    )


def fake_run(*results: CheckResult) -> CheckRun:
    return CheckRun(
        spec_path=str(SPEC.path), ruleset=BASE, level="quick", seed=1, engine="e", results=results
    )


def test_select_checks_by_module_function_or_full_name() -> None:
    names = [c.name for c in select_checks(None)]
    assert "invariants.matches" in names and "graphs.endgames" in names
    assert [c.name for c in select_checks(["graphs"])] == [n for n in names if n.startswith("graphs.")]
    assert [c.name for c in select_checks(["beats"])] == ["graphs.beats"]
    assert [c.name for c in select_checks(["text_audit"])] == ["text_audit"]
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
        "errors": 0,
        "skipped": 0,
        "warnings": 0,
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
        ('{"format": "five35-baseline/1", "findings": {}}', "findings: expected a list"),
        ('{"format": "five35-baseline/1", "findings": [{"kind": "x"}]}', "findings[0]: expected an entry"),
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

    monkeypatch.setattr(runner, "all_checks", lambda: (Check("test.boom", check_boom, title="Falls over"),))
    run = run_checks(SPEC, BASE, level="quick", seed=1)
    assert not run.ok
    assert run.failures[0].check == "test.boom" and "RuntimeError: boom" in run.failures[0].message
    assert run.results[0].name == "test.boom" and run.results[0].title == "Falls over"
    # An error, not only a failure: the traceback's last line, and not the engine's doing.
    error = run.results[0].error
    assert error is not None and error.message == "RuntimeError: boom" and not error.in_engine
    assert "check_boom" in error.traceback and not run.engine_crashed
    assert run.totals()["errors"] == 1


class CrashingEngine(Game):
    """The engine under check raising on every legal-move question."""

    def legal_moves(self, state: Any) -> Any:
        raise RuntimeError("engine fell over")


def test_an_engine_crash_is_an_error_in_the_engine_and_spares_checks_that_do_not_use_it() -> None:
    run = run_checks(
        SPEC, BASE, level="quick", seed=1, engine=CrashingEngine, only=["invariants", "text_audit", "proofs"]
    )
    by_name = {r.name: r for r in run.results}
    # The invariants catch the crash themselves, with its witness: a failure under engine.raised.
    crashed = by_name["invariants.matches"]
    assert crashed.failures and all(runner.is_engine_crash(f) for f in crashed.failures)
    assert "engine fell over" in crashed.failures[0].message
    assert by_name["text_audit"].ok and by_name["text_audit"].findings
    assert by_name["proofs"].ok and by_name["proofs"].proofs > 0
    assert run.engine_crashed and not run.ok


class UnstartableEngine(Game):
    """An engine that cannot even be built: checks that build it stop, and say it was the engine."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("cannot start")


def test_a_check_that_stops_in_the_engine_is_an_error_in_the_engine() -> None:
    run = run_checks(SPEC, BASE, level="quick", seed=1, engine=UnstartableEngine, only=["graphs.beats"])
    [result] = run.results
    assert result.error is not None and result.error.in_engine
    assert result.error.message == "RuntimeError: cannot start"
    assert run.engine_crashed and run.errors == (result,)


def test_a_check_not_registered_for_the_level_is_skipped_not_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []

    def check_slow(ctx: CheckContext) -> CheckResult:
        called.append(ctx.level)
        return CheckResult("slow", "Slow", 0.0, proofs=1)

    monkeypatch.setattr(
        runner, "all_checks", lambda: (Check("slow", check_slow, title="Slow", levels=("ci", "deep")),)
    )
    quick = run_checks(SPEC, BASE, level="quick", seed=1)
    assert called == [] and quick.results[0].skipped and "level quick" in quick.results[0].skipped
    assert quick.ok and quick.totals()["skipped"] == 1
    assert quick.to_json()["checks"][0]["skipped"] == quick.results[0].skipped
    ci = run_checks(SPEC, BASE, level="ci", seed=1)
    assert called == ["ci"] and ci.results[0].skipped is None


def test_an_empty_check_name_is_refused_not_taken_for_every_check() -> None:
    for empty in ("", " "):
        with pytest.raises(ValueError, match="expected a check name, got an empty string"):
            select_checks([empty])
        with pytest.raises(ValueError, match="empty string"):
            select_checks(["graphs", empty])


def test_a_check_is_known_by_its_registered_name_whatever_it_calls_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def check_modest(ctx: CheckContext) -> CheckResult:
        return CheckResult("something.else", "Another title", 0.0, exhaustive=1, findings=(finding("f"),))

    monkeypatch.setattr(
        runner, "all_checks", lambda: (Check("registered", check_modest, title="The registered title"),)
    )
    seen: list[str] = []
    run = run_checks(SPEC, BASE, level="quick", seed=1, progress=lambda name, result: seen.append(name))
    assert seen == ["registered"]
    assert [r.name for r in run.results] == ["registered"]
    assert run.to_json()["checks"][0]["name"] == "registered"
    assert run.results[0].title == "The registered title"


def test_the_runner_times_every_check_whatever_the_check_says_it_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def check_slow(ctx: CheckContext) -> CheckResult:
        spent = time.process_time()
        while time.process_time() - spent < 0.05:
            pass
        return CheckResult("slow", "", 0.0, exhaustive=1)

    monkeypatch.setattr(runner, "all_checks", lambda: (Check("slow", check_slow, title="A slow check"),))
    run = run_checks(SPEC, BASE, level="quick", seed=1)
    assert run.results[0].seconds >= 0.05


def test_every_check_in_the_registry_names_its_own_results() -> None:
    names = [c.name for c in runner.CHECKS]
    assert len(set(names)) == len(names)
    assert {c.name for c in runner.CHECKS if not c.uses_engine} == {
        "proofs",
        "text_examples",
        "dead_clauses",
        "text_audit",
        "discovery.mutants",
        "discovery.rules",
        "discovery.liveness",
        "discovery.interactions",
    }


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


@pytest.mark.parametrize("name", [c.name for c in runner.all_checks()])
def test_every_check_holds_on_the_reference_engine_at_level_quick(name: str) -> None:
    # The runner's checks, collected one by one, so the project's own test suite runs them too.
    check = {c.name: c for c in runner.all_checks()}[name]
    result = check.run(CheckContext(SPEC, BASE, level="quick", seed=535))
    assert result.ok, [f.message for f in result.failures]
    # A check either examined something or says why it did not at this level.
    assert result.exhaustive + result.generated + result.proofs > 0 or result.notes


def test_the_report_runs_every_check_whose_result_it_renders() -> None:
    from five35.checks.job import run as report_job

    for level in ("ci", "deep"):
        names = [args[4] for _, args, _ in report_job.check_units(SPEC, BASE, level, 0)]
        assert names == [c.name for c in runner.CHECKS if level in c.report_levels]
    # The mutants of the rules are in the report at level deep only, where all are classified.
    assert [c.name for c in runner.CHECKS if "ci" not in c.report_levels] == ["discovery.rules"]
    assert "discovery.rules" in [args[4] for _, args, _ in report_job.check_units(SPEC, BASE, "deep", 0)]


#: A reading a spec copy adds to a point the reference engine knows: only the missing 10 skipped.
TEN_SKIPPED = (
    (
        '        rules: {ranks: {gap: "true"}}\n    default: gaps_break',
        '        rules: {ranks: {gap: "true"}}\n'
        "      ten_skipped:\n"
        '        explain: "Only the missing 10 is skipped: 9,11 is a run, 5,7 is not."\n'
        '        rules: {ranks: {gap: "b == a + 1 or (a == 9 and b == 11)"}}\n'
        "    default: gaps_break",
    ),
)


def test_a_reading_a_spec_copy_adds_is_left_out_of_the_checks_that_cannot_play_it_and_said_so(
    tmp_path: Path,
) -> None:
    # The checks that sweep every reading with a hand-written component (the reference engine, the
    # conformance sweeps, the graphs) once stopped on the whole spec for a reading the ruleset
    # under check does not even play; invariants.matches stopped as flaky data generation.
    spec = load_spec(write_spec_copy(tmp_path / "house.yaml", TEN_SKIPPED))
    only = ["conformance", "graphs.beats", "invariants.matches", "discovery.decisions", "proofs"]
    run = run_checks(spec, spec.ruleset(), level="quick", only=only)
    assert not run.failures, [f.message for f in run.failures]
    warned = {r.name for r in run.results if any("run_gaps=ten_skipped is left out" in w for w in r.warnings)}
    assert warned == {"conformance", "graphs.beats", "invariants.matches", "discovery.decisions"}
    # The Z3 model is compiled from the rules: it states the new reading and leaves nothing out.
    (proofs,) = [r for r in run.results if r.name == "proofs"]
    assert not proofs.warnings and proofs.proofs > 0
    # The ruleset that plays the reading is never played as another: the reference-only checks
    # skip it, and a check that would need it says so instead of leaving it out.
    plays = spec.ruleset(None, {"run_gaps": "ten_skipped"})
    skipped = run_checks(spec, plays, level="quick", only=["discovery.decisions"]).results[0]
    assert skipped.skipped is not None and "run_gaps=ten_skipped" in skipped.skipped
