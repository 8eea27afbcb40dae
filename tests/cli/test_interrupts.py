"""Ctrl-C and SIGTERM end every command within 2 s, workers included, and leave no output behind.

Each test runs `535-check` as a real process in its own session, lets it work, then signals it the
way a terminal does (SIGINT to the whole process group: the workers get it too) or the way a
supervisor does (SIGTERM to the main process only).

Nothing here depends on how busy the machine is: a test waits for the event it needs (a line on
stderr, the worker processes there, so many CPU seconds of work done) rather than for a fixed time,
and the 2 s are CPU seconds: those the command and its workers use after the signal, which a loaded
machine hardly inflates. The wall time until the exit only has to stay under WALL_LIMIT, a bound
for a hang that holds at a load average of 8 (2 s of work then take about 8 s).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_tools import StderrWatch
from five35.cli.common import EXIT_INTERRUPTED, EXIT_TERMINATED

CODE = "import sys; from five35.cli import main; sys.exit(main())"
CPU_LIMIT = 2.0  # CPU seconds from the signal to the exit of the last process (README: "within 2 s")
WALL_LIMIT = 30.0  # wall seconds from the signal to the exit: beyond it the command hangs


class Run(StderrWatch):
    """`535-check ARGS` in `cwd`, its stderr collected line by line as it comes."""

    def __init__(
        self,
        args: list[str],
        cwd: Path,
        stdin: int | None = subprocess.DEVNULL,
        stdout: int | None = subprocess.DEVNULL,
    ) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
        super().__init__([sys.executable, "-c", CODE, *args], cwd, env, stdin, stdout)

    def halt(self, sig: signal.Signals, group: bool) -> tuple[float, float]:
        return self.stop(sig, group, timeout=WALL_LIMIT)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _assert_stopped(run: Run, spent: tuple[float, float], code: int, workers: list[int], cwd: Path) -> None:
    wall, cpu = spent
    assert cpu < CPU_LIMIT, f"used {cpu:.2f} CPU seconds after the signal; stderr: {run.lines}"
    assert wall < WALL_LIMIT, f"took {wall:.1f} s to exit; stderr: {run.lines}"
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
    workers = run.wait_for_children(2)
    run.wait_for_cpu(1.0)  # the workers simulating
    _assert_stopped(run, run.halt(sig, group), code, workers, tmp_path)


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
    workers = run.wait_for_children(1)
    run.wait_for_cpu(0.5)
    _assert_stopped(run, run.halt(sig, group), code, workers, tmp_path)


@needs_proc
def test_report_during_the_checks_leaves_no_directory(tmp_path: Path) -> None:
    run = Run(["report", "--out", "rep", "--level", "quick", "--games", "50"], tmp_path)
    run.wait_for("running the checks")
    run.wait_for_cpu(1.0)
    _assert_stopped(run, run.halt(signal.SIGINT, True), EXIT_INTERRUPTED, [], tmp_path)


@needs_proc
@pytest.mark.parametrize("work", [1.5, 6.0])
def test_check_leaves_neither_output(tmp_path: Path, work: float) -> None:
    # At level ci the Z3 checks run first, side by side: 1.5 CPU seconds in is inside a solve, 6 in
    # a later check (the whole run takes about 17).
    run = Run(
        ["check", "--output-file", "out.xml", "--format", "junit", "--write-baseline", "b.json"], tmp_path
    )
    run.wait_for("535-check check: level")
    run.wait_for_cpu(work)
    assert run.proc.poll() is None, run.lines
    _assert_stopped(run, run.halt(signal.SIGINT, True), EXIT_INTERRUPTED, [], tmp_path)


@needs_proc
def test_default_job_leaves_no_report(tmp_path: Path) -> None:
    run = Run([], tmp_path)
    run.wait_for("running the checks")
    run.wait_for_cpu(1.5)
    _assert_stopped(run, run.halt(signal.SIGTERM, False), EXIT_TERMINATED, [], tmp_path)


@needs_proc
def test_serve_waiting_for_a_request_stops(tmp_path: Path) -> None:
    run = Run(["serve"], tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert run.proc.stdin is not None and run.proc.stdout is not None
    # Answered: serve is in its loop, waiting for the next request.
    run.proc.stdin.write(json.dumps({"id": 1, "type": "hello", "protocol": 1}) + "\n")
    run.proc.stdin.flush()
    assert json.loads(run.proc.stdout.readline())["ok"] is True
    spent = run.halt(signal.SIGTERM, False)
    run.proc.stdin.close()
    run.proc.stdout.close()
    _assert_stopped(run, spent, EXIT_TERMINATED, [], tmp_path)


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
    engines = run.wait_for_children(1)
    run.wait_for_cpu(2.0)  # the engine started and answering
    _assert_stopped(run, run.halt(sig, group), code, engines, tmp_path)
