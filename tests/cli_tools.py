"""Shared assertions for the command-line tests."""

from __future__ import annotations

import os
import traceback
from pathlib import Path

from click.testing import CliRunner, Result
from five35.cli.main import EXIT_USAGE


def assert_one_line_usage_error(result: Result, *needles: str) -> None:
    assert result.exit_code == EXIT_USAGE, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("535-check: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]


def run_bad_input(
    args: list[str],
    exit_code: int,
    *needles: str,
    cwd: Path,
    stdin: str | None = None,
) -> Result:
    """Run `535-check ARGS` in `cwd` on a bad input and assert what every error path promises:
    the documented exit code, exactly one line on stderr starting `535-check: error: ` and naming
    the place (`needles`), nothing on stdout, no traceback, and no file left behind in `cwd`."""
    from five35.cli.main import main  # late: a test module that only imports the helpers stays fast

    before = sorted(p.relative_to(cwd) for p in cwd.rglob("*"))
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=True)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        "".join(traceback.format_exception(result.exception)) if result.exception else ""
    )
    assert result.exit_code == exit_code, (result.exit_code, result.stderr)
    assert "Traceback" not in result.output
    assert result.stdout == "", result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("535-check: error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    after = sorted(p.relative_to(cwd) for p in cwd.rglob("*"))
    assert after == before, f"files left behind: {sorted(set(after) - set(before))}"
    return result
