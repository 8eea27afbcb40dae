"""`535-check check` end to end: exit codes, formats, determinism, files, baselines, --engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["check", "--level", "quick", "--only", "graphs.succession", "--only", "graphs.beats"]


def invoke(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    return _run(args, cwd, env)


def _run(args: list[str], cwd: Path | None, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import sys; from five35.cli import main; sys.exit(main())"
    env = {**env, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def dead_clause_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A house-rules spec in which runs close at 9 cards: the run ending can never happen."""
    text = (
        load_spec()
        .path.read_text(encoding="utf-8")
        .replace("run_closing_size:\n    value: 5", "run_closing_size:\n    value: 9")
    )
    path = tmp_path_factory.mktemp("spec") / "535.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_quick_run_passes_prints_the_seed_and_writes_nothing(tmp_path: Path) -> None:
    result = invoke(["check", "--level", "quick"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "seed 535" in result.stderr and "seed 535" in result.stdout
    assert "situations exhaustively" in result.stdout and "PASSED" in result.stdout
    assert list(tmp_path.iterdir()) == []  # no .hypothesis, no temp files


def test_json_is_clean_and_byte_identical_with_or_without_ci(tmp_path: Path) -> None:
    args = ["check", "--level", "quick", "--only", "invariants", "--format", "json", "--seed", "9"]
    plain = invoke(args, cwd=tmp_path)
    env = {**os.environ, "CI": "true", "GITHUB_ACTIONS": "true"}
    in_ci = _run(args, tmp_path, env)
    assert plain.returncode == 0 and in_ci.returncode == 0, plain.stderr + in_ci.stderr
    data = json.loads(plain.stdout)
    assert data["seed"] == 9 and data["ok"] is True and data["totals"]["generated"] > 0
    assert plain.stdout == in_ci.stdout
    assert list(tmp_path.iterdir()) == []


def test_junit_is_valid_xml_with_a_testcase_per_check() -> None:
    result = CliRunner().invoke(main, [*QUICK, "--format", "junit"])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "0"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["graphs.succession", "graphs.beats"]
    assert all(c.get("classname") and c.get("time") for c in cases)
    assert suite.find("properties") is not None


def test_failures_go_to_junit_sarif_and_github(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A spec of the repository (not the installed one, which may live outside the working
    # directory): the annotations and SARIF results point at its lines.
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))  # tests.planted, from the working directory elsewhere
    (tmp_path / "535.yaml").write_text(load_spec().path.read_text(encoding="utf-8"), encoding="utf-8")
    engine = ["--engine", "python:tests.planted:RunOrderReversed", "--spec", "535.yaml"]
    junit = CliRunner().invoke(main, [*QUICK, *engine, "--format", "junit"])
    assert junit.exit_code == 1
    suite = ET.fromstring(junit.stdout).find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failed = [c for c in suite.findall("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["graphs.beats"]
    sarif = json.loads(CliRunner().invoke(main, [*QUICK, *engine, "--format", "sarif"]).stdout)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert results and all(r["level"] == "error" for r in results)
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] > 1
    github = CliRunner().invoke(main, [*QUICK, *engine, "--format", "github"]).stdout.splitlines()
    assert github[0].startswith("::error file=535.yaml,line=") and "::" in github[0][2:]
    assert "FAILED" in github[-1]


def test_output_file_is_written_and_stdout_gets_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = CliRunner().invoke(main, [*QUICK, "--format", "json", "--output-file", str(out)])
    assert result.exit_code == 0
    assert json.loads(out.read_text())["totals"]["exhaustive"] > 0
    assert "PASSED" in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_findings_fail_only_under_strict_and_only_when_new(tmp_path: Path, dead_clause_spec: Path) -> None:
    args = ["check", "--spec", str(dead_clause_spec), "--level", "quick", "--only", "endgames"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert CliRunner().invoke(main, [*args, "--strict"]).exit_code == 1
    baseline = tmp_path / "baseline.json"
    wrote = CliRunner().invoke(main, [*args, "--write-baseline", str(baseline)])
    assert wrote.exit_code == 0 and baseline.exists()
    known = CliRunner().invoke(main, [*args, "--strict", "--baseline", str(baseline), "--format", "json"])
    assert known.exit_code == 0, known.output
    data = json.loads(known.stdout)
    assert data["totals"]["findings"] > 0 and data["totals"]["new_findings"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "python:no_such_module_x:make"], "cannot import"),
        (["--engine", "java:x"], "expected python:MODULE:FACTORY"),
        (["--engine", "python:tests.planted:Nope"], "has no callable 'Nope'"),
        (["--only", "nope"], "no check called 'nope'"),
        (["--baseline", "/nonexistent/b.json"], "cannot read baseline"),
        (["--reading", "run_gaps=sideways"], "run_gaps has no reading"),
        (["--output-file", "/nonexistent/dir/x.json"], "does not exist"),
        (["--write-baseline", "/nonexistent/dir/b.json"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, [*QUICK, *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_bad_level_is_a_usage_error() -> None:
    assert CliRunner().invoke(main, ["check", "--level", "slow"]).exit_code == 2


def test_both_outputs_appear_together_and_nothing_else(tmp_path: Path) -> None:
    out, baseline = tmp_path / "check.xml", tmp_path / "findings.json"
    result = CliRunner().invoke(
        main,
        [*QUICK, "--format", "junit", "--output-file", str(out), "--write-baseline", str(baseline)],
    )
    assert result.exit_code == 0, result.output
    assert ET.fromstring(out.read_text()).tag == "testsuites"
    assert json.loads(baseline.read_text())["format"] == "five35-baseline/1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["check.xml", "findings.json"]
    # Files the user reads get the usual mode, not the owner-only mode of a temporary file.
    assert out.stat().st_mode & 0o044 == 0o044 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_failing_output_leaves_the_old_files_as_they_were(tmp_path: Path) -> None:
    out = tmp_path / "check.xml"
    out.write_text("old report", encoding="utf-8")
    result = CliRunner().invoke(
        main, [*QUICK, "--output-file", str(out), "--write-baseline", str(tmp_path / "no" / "b.json")]
    )
    assert result.exit_code == 2
    assert out.read_text(encoding="utf-8") == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["check.xml"]


def test_a_baseline_written_is_read_back_and_an_edited_one_is_refused(tmp_path: Path) -> None:
    baseline = tmp_path / "b.json"
    assert CliRunner().invoke(main, [*QUICK, "--write-baseline", str(baseline)]).exit_code == 0
    again = CliRunner().invoke(main, [*QUICK, "--baseline", str(baseline), "--strict"])
    assert again.exit_code == 0, again.output
    baseline.write_text(baseline.read_text().replace('"findings"', '"found"'), encoding="utf-8")
    refused = CliRunner().invoke(main, [*QUICK, "--baseline", str(baseline)])
    assert refused.exit_code == 2
    assert (
        refused.stderr.strip()
        == f'535-check: error: {baseline}: findings: expected a list of {{"id": ...}} entries'
    )


def test_an_output_through_a_symbolic_link_replaces_the_file_not_the_link(tmp_path: Path) -> None:
    (tmp_path / "link.json").symlink_to("real.json")
    result = CliRunner().invoke(
        main, [*QUICK, "--format", "json", "--output-file", str(tmp_path / "link.json")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text())["format"] == "five35-check/1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_spec_files_as_arguments_are_checked_one_after_the_other(tmp_path: Path) -> None:
    """As the pre-commit hook calls it: each file checked as with --spec; the worst exit wins."""
    text = load_spec().path.read_text(encoding="utf-8")
    (tmp_path / "a.535.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "b.535.yaml").write_text(
        text.replace("default_profile: published", "default_profile: german-literal"), "utf-8"
    )
    args = ["check", "--level", "quick", "--only", "text_audit"]
    both = CliRunner().invoke(main, [*args, str(tmp_path / "a.535.yaml"), str(tmp_path / "b.535.yaml")])
    assert both.exit_code == 0, both.output
    assert both.stdout.count("PASSED") == 2
    assert "ruleset published" in both.stdout and "ruleset german-literal" in both.stdout
    (tmp_path / "bad.535.yaml").write_text(text.replace("profiles:", "profils:", 1), encoding="utf-8")
    bad = CliRunner().invoke(main, [*args, str(tmp_path / "a.535.yaml"), str(tmp_path / "bad.535.yaml")])
    assert bad.exit_code == 2 and bad.stdout == ""  # every file loads before any check runs
    assert bad.stderr.strip().startswith(f"535-check: error: {tmp_path / 'bad.535.yaml'}:")
    for extra, needle in (
        (["--format", "json"], "SPEC: several spec files are checked with --format text"),
        (["--spec", str(tmp_path / "a.535.yaml")], "SPEC: give spec files as arguments or with --spec"),
    ):
        files = [str(tmp_path / "a.535.yaml")] * (2 if "--format" in extra else 1)
        refused = CliRunner().invoke(main, [*args, *extra, *files])
        assert refused.exit_code == 2 and needle in refused.stderr, refused.output


def test_the_summary_lists_mutants_silences_and_proved_properties(monkeypatch: pytest.MonkeyPatch) -> None:
    """What `check --level ci` prints of discovery, from a synthetic run (the printing is under
    test, not the producers): the mutants run, the silences found with their titles, the proved
    properties with their method; the JSON carries the same."""
    from five35.checks.findings import CheckResult, Finding, FindingKind, ProvedProperty
    from five35.checks.runner import CheckRun
    from five35.cli import check_cmd

    spec = load_spec()

    def fake_run_checks(spec_: object, ruleset: object, *, level: str, seed: int, **_: object) -> CheckRun:
        silence = Finding(
            "silence.next_seat.skip",
            FindingKind.SILENCE,
            "Who moves after a player goes out",
            ("action.pass.out",),
            "",
            "discovery.mutants",
            topic="next_seat",
        )
        proved = ProvedProperty("round.ends", "Every round ends.", "exhaustive", "2 to 6 players")
        result = CheckResult(
            "discovery.mutants", "Mutants", 0.0, mutants=9, findings=(silence,), proved=(proved,)
        )
        return CheckRun(str(spec.path), spec.ruleset(), "ci", seed, "five35.engine.Game", (result,))

    monkeypatch.setattr(check_cmd, "run_checks", fake_run_checks)
    out = CliRunner().invoke(main, ["check", "--level", "ci"])
    assert out.exit_code == 0, out.output
    assert "Discovery at level ci: 9 mutants run (discovery.mutants 9); 1 silence found:" in out.stdout
    assert "  silence.next_seat.skip: Who moves after a player goes out" in out.stdout
    assert "  round.ends (exhaustive): Every round ends." in out.stdout
    doc = json.loads(CliRunner().invoke(main, ["check", "--level", "ci", "--format", "json"]).stdout)
    [check] = doc["checks"]
    assert check["mutants"] == 9 and check["proved"][0]["name"] == "round.ends"


def test_the_check_libraries_load_only_when_a_check_runs() -> None:
    """`check` refuses a bad argument, and prints its help, without importing Z3, Hypothesis,
    networkx or scipy (about 0.4 s of every failing run): the runner imports a check's module when
    the check first runs (checks/runner.py, _Deferred)."""
    heavy = ("z3", "hypothesis", "networkx", "scipy")
    code = (
        "import sys; import five35.cli.main, five35.cli.check_cmd, five35.checks.runner; "
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout
