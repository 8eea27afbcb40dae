"""Shared assertions for the command-line tests."""

from __future__ import annotations

from click.testing import Result
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
