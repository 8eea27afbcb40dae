"""`535-check report --out DIR`: the three files appear together at the end; a new directory
appears whole (with any missing parents), an existing one keeps its other files; no temporary
file or directory is left either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from five35.checks.job import run as report_job
from five35.checks.runner import run_checks
from five35.cli.main import main
from five35.spec import Spec

FILES = ["report.html", "report.json", "report.md", "technical.md"]
CHEAP = ["--level", "quick", "--games", "4", "--jobs", "2"]


@pytest.fixture(autouse=True)
def text_audit_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """What these tests hold is where the files go, not what the checks find: the report's checks are
    the text audit alone (the command's other work, the simulations and the rendering, is real)."""

    def units(spec: Spec, ruleset: Any, level: Any, seed: int, solver_rlimit: int) -> list[Any]:
        run = run_checks(spec, ruleset, level=level, seed=seed, only=["text_audit"])
        return report_job.given_checks(run.results)

    monkeypatch.setattr(report_job, "check_units", units)


def test_a_new_directory_appears_whole(tmp_path: Path) -> None:
    out = tmp_path / "a" / "b" / "rep"
    result = CliRunner().invoke(main, ["report", "--out", str(out), *CHEAP])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == FILES
    assert [p.name for p in tmp_path.iterdir()] == ["a"]
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["b"]
    assert f"report written to {out}/" in result.stdout


def test_an_existing_directory_keeps_its_other_files(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "report.md").write_text("an old report", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "--out", str(out), *CHEAP])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted([*FILES, "notes.txt"])
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (out / "report.md").read_text(encoding="utf-8").startswith("#")
