"""Shared assertions for the command-line tests."""

from __future__ import annotations

import os
import subprocess
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
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
    env: Mapping[str, str | None] | None = None,
) -> Result:
    """Run `535-check ARGS` in `cwd` (with `env` set, a None value unset) on a bad input and assert
    what every error path promises: the documented exit code, exactly one line on stderr starting
    `535-check: error: ` and naming the place (`needles`), nothing on stdout, no traceback, and no
    file left behind in `cwd`."""
    from five35.cli.main import PROG, main  # late: a test module that only imports the helpers stays fast

    before = sorted(p.relative_to(cwd) for p in cwd.rglob("*"))
    old = Path.cwd()
    os.chdir(cwd)
    try:
        # Under its own name, as a shell runs it: shell completion reads _535_CHECK_COMPLETE.
        result = CliRunner().invoke(main, args, input=stdin, env=env, catch_exceptions=True, prog_name=PROG)
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


class StderrWatch:
    """A command in its own session, its stderr collected line by line as it comes, so a test can
    wait for a phase to start before it sends a signal."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        stdin: int | None = subprocess.DEVNULL,
    ) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, needle: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not any(needle in line for line in self.lines):
            assert self.proc.poll() is None, f"ended before {needle!r}: {self.lines}"
            assert time.monotonic() < end, f"no {needle!r} on stderr after {timeout} s: {self.lines}"
            time.sleep(0.05)
