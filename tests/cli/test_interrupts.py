"""Ctrl-C and SIGTERM end every command within 2 s, workers included, and leave no output behind.

Each test runs `535-check` as a real process in its own session, lets it work, then signals it the
way a terminal does (SIGINT to the whole process group: the workers get it too) or the way a
supervisor does (SIGTERM to the main process only).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_tools import StderrWatch
from five35.cli.main import EXIT_INTERRUPTED, EXIT_TERMINATED

CODE = "import sys; from five35.cli import main; sys.exit(main())"
DEADLINE = 2.0  # seconds from the signal to the exit of the last process


class Run(StderrWatch):
    """`535-check ARGS` in `cwd`, its stderr collected line by line as it comes."""

    def __init__(self, args: list[str], cwd: Path, stdin: int | None = subprocess.DEVNULL) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
        super().__init__([sys.executable, "-c", CODE, *args], cwd, env, stdin)

    def children(self) -> list[int]:
        return _children(self.proc.pid)

    def stop(self, sig: signal.Signals, group: bool) -> float:
        """Send `sig`; return the seconds until the process had exited."""
        start = time.monotonic()
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self._reader.join(5)
        return time.monotonic() - start


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command name is in parentheses and may hold spaces: the fields after it are fixed.
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _assert_stopped(run: Run, seconds: float, code: int, workers: list[int], cwd: Path) -> None:
    assert seconds < DEADLINE, f"took {seconds:.2f} s to exit; stderr: {run.lines}"
    assert run.proc.returncode == code, run.lines
    assert [pid for pid in workers if _alive(pid)] == [], "worker processes survived"
    assert "Traceback" not in "\n".join(run.lines), run.lines
    assert run.lines[-1] == (
        "535-check: interrupted" if code == EXIT_INTERRUPTED else "535-check: terminated"
    )
    assert list(cwd.iterdir()) == [], "an interrupted run left files behind"


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads /proc for worker processes"
)


@needs_proc
@pytest.mark.parametrize(
    ("sig", "group", "code"),
    [(signal.SIGINT, True, EXIT_INTERRUPTED), (signal.SIGTERM, False, EXIT_TERMINATED)],
    ids=["ctrl-c", "sigterm"],
)
def test_simulate_with_workers_stops_at_once(
    tmp_path: Path, sig: signal.Signals, group: bool, code: int
) -> None:
    # 20000 matches take about a minute on two cores: the run is well inside its work when signalled.
    run = Run(["simulate", "--games", "20000", "--jobs", "2"], tmp_path)
    time.sleep(1.5)
    workers = run.children()
    assert len(workers) == 2, f"expected 2 worker processes, found {workers}: {run.lines}"
    seconds = run.stop(sig, group)
    _assert_stopped(run, seconds, code, workers, tmp_path)


@needs_proc
@pytest.mark.parametrize(
    ("sig", "group", "code"),
    [(signal.SIGINT, True, EXIT_INTERRUPTED), (signal.SIGTERM, False, EXIT_TERMINATED)],
    ids=["ctrl-c", "sigterm"],
)
def test_report_leaves_no_directory(tmp_path: Path, sig: signal.Signals, group: bool, code: int) -> None:
    run = Run(["report", "--out", "rep", "--level", "quick", "--games", "400", "--jobs", "2"], tmp_path)
    # Signalled while its workers simulate: the longest part, and the one with other processes.
    run.wait_for("simulating")
    time.sleep(0.5)
    workers = run.children()
    assert workers, f"no worker processes while simulating: {run.lines}"
    seconds = run.stop(sig, group)
    _assert_stopped(run, seconds, code, workers, tmp_path)


@needs_proc
def test_report_during_the_checks_leaves_no_directory(tmp_path: Path) -> None:
    run = Run(["report", "--out", "rep", "--level", "quick", "--games", "50"], tmp_path)
    run.wait_for("running the checks")
    time.sleep(1.0)
    seconds = run.stop(signal.SIGINT, True)
    _assert_stopped(run, seconds, EXIT_INTERRUPTED, [], tmp_path)


@needs_proc
@pytest.mark.parametrize("delay", [1.5, 4.0])
def test_check_leaves_neither_output(tmp_path: Path, delay: float) -> None:
    # At level ci the Z3 checks run first: 1.5 s is inside a solve, 4 s in a later check.
    run = Run(
        ["check", "--output-file", "out.xml", "--format", "junit", "--write-baseline", "b.json"], tmp_path
    )
    run.wait_for("535-check check: level")
    time.sleep(delay)
    assert run.proc.poll() is None, run.lines
    seconds = run.stop(signal.SIGINT, True)
    _assert_stopped(run, seconds, EXIT_INTERRUPTED, [], tmp_path)


@needs_proc
def test_default_job_leaves_no_report(tmp_path: Path) -> None:
    run = Run([], tmp_path)
    run.wait_for("running the checks")
    time.sleep(1.5)
    seconds = run.stop(signal.SIGTERM, False)
    _assert_stopped(run, seconds, EXIT_TERMINATED, [], tmp_path)


@needs_proc
def test_serve_waiting_for_a_request_stops(tmp_path: Path) -> None:
    run = Run(["serve"], tmp_path, stdin=subprocess.PIPE)
    time.sleep(1.5)
    assert run.proc.poll() is None, run.lines
    seconds = run.stop(signal.SIGTERM, False)
    assert run.proc.stdin is not None
    run.proc.stdin.close()
    _assert_stopped(run, seconds, EXIT_TERMINATED, [], tmp_path)


SERVE = f"{Path(sys.executable).parent / '535-check'} serve"


@needs_proc
@pytest.mark.parametrize(
    ("args", "sig", "group", "code"),
    [
        (["fuzz", "--engine", SERVE, "--examples", "100000"], signal.SIGTERM, False, EXIT_TERMINATED),
        (
            ["perft", "--players", "4", "--seed", "1", "--depth", "7", "--engine", SERVE],
            signal.SIGINT,
            True,
            EXIT_INTERRUPTED,
        ),
    ],
    ids=["fuzz-sigterm", "perft-ctrl-c"],
)
def test_engine_commands_stop_their_engine(
    tmp_path: Path, args: list[str], sig: signal.Signals, group: bool, code: int
) -> None:
    run = Run(args, tmp_path)
    time.sleep(2.0)
    engines = run.children()
    assert engines, f"no engine process: {run.lines}"
    seconds = run.stop(sig, group)
    _assert_stopped(run, seconds, code, engines, tmp_path)
