"""Shared assertions for the command-line tests."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import threading
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from five35.cli.common import EXIT_USAGE


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
    # Late: a test module that only imports the helpers stays fast.
    from five35.cli.common import PROG
    from five35.cli.main import main

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
        stdout: int | None = subprocess.DEVNULL,
    ) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=stdin,
            stdout=stdout,
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

    def cpu(self) -> float:
        """CPU seconds the command and its processes have used so far (tree_cpu)."""
        return tree_cpu(self.proc.pid)

    def wait_for_cpu(self, seconds: float, timeout: float = 120.0) -> None:
        """Wait until the command has worked `seconds` more CPU seconds: as far into its work on a
        loaded machine as on an idle one, where a fixed sleep would land earlier and earlier."""
        target = self.cpu() + seconds
        end = time.monotonic() + timeout
        while self.cpu() < target:
            assert self.proc.poll() is None, f"ended before {seconds} more CPU seconds: {self.lines}"
            assert time.monotonic() < end, f"not {seconds} more CPU seconds after {timeout} s: {self.lines}"
            time.sleep(0.02)

    def wait_for_children(self, count: int, timeout: float = 120.0) -> list[int]:
        """Wait until the main process has `count` live child processes (its workers or engine);
        returns them."""
        end = time.monotonic() + timeout
        while len(found := children(self.proc.pid)) < count:
            assert self.proc.poll() is None, f"ended before {count} child processes: {self.lines}"
            assert time.monotonic() < end, f"{found}, not {count} child processes after {timeout} s"
            time.sleep(0.02)
        return found

    def stop(self, sig: signal.Signals, group: bool, timeout: float) -> tuple[float, float]:
        """Send `sig` (to the whole process group, as a terminal's Ctrl-C does, or to the main
        process only, as a supervisor does) and reap the main process; returns the wall seconds
        until it had exited and the CPU seconds it and the processes it waited for (its workers)
        used after the signal. Killed after `timeout` wall seconds."""
        before = self.cpu()
        start = time.monotonic()
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        while True:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                os.killpg(self.proc.pid, signal.SIGKILL)
            time.sleep(0.005)
        wall = time.monotonic() - start
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self._reader.join(5)
        return wall, usage.ru_utime + usage.ru_stime - before


@dataclass(frozen=True)
class Measured:
    code: int | None  # None: killed after the timeout
    stdout: bytes
    stderr: bytes
    wall: float  # seconds on the clock
    cpu: float  # CPU seconds of the process and of every process it waited for (its workers)


def run_measured(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], stdin: bytes, timeout: float
) -> Measured:
    """Run `argv` in a session of its own (so that a hang is killed with its workers and engines)
    and reap it with wait4, which tells its own CPU time: measured per process, so two such runs at
    once (in threads) do not mix their figures."""
    started = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    out: dict[str, bytes] = {}

    def drain(name: str, stream: Any) -> None:
        out[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=(name, stream), daemon=True)
        for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    assert proc.stdin is not None
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:  # it exited (or closed its input) without reading it all
        pass
    killed = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if not killed and time.monotonic() - started > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            killed = True
        time.sleep(0.005)
    wall = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if killed:  # and whatever of its session is left
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    for reader in readers:  # a worker that outlived it may hold the pipes: the test judges that
        reader.join(HANG_JOIN)
    return Measured(
        None if killed else proc.returncode,
        out.get("stdout", b""),
        out.get("stderr", b""),
        wall,
        usage.ru_utime + usage.ru_stime,
    )


#: Seconds to wait for the output of a process that has exited (its workers may hold its pipes).
HANG_JOIN = 10.0


@contextmanager
def within(cpu: float, wall: float) -> Iterator[None]:
    """Assert that the block takes at most `cpu` CPU seconds (this process's, with those of the
    child processes it waited for, such as an engine) and at most `wall` seconds on the clock.

    A bound the code promises is a CPU bound, which a busy machine hardly moves; the wall bound
    only catches a hang, with room for a load average of 8 (and for the waits the block makes on
    purpose, such as an engine's timeout)."""
    started, own = time.monotonic(), time.process_time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    yield
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    used, seconds = time.process_time() - own + children, time.monotonic() - started
    assert used < cpu, f"took {used:.1f} CPU seconds (at most {cpu:g}; {seconds:.1f} s on the clock)"
    assert seconds < wall, f"took {seconds:.1f} s on the clock (at most {wall:g}; {used:.1f} CPU seconds)"


def _stats() -> dict[int, list[str]]:
    """The fields after the command name of /proc/PID/stat, for every process."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command name is in parentheses and may hold spaces: the fields after it are fixed.
            out[int(entry.name)] = stat.rsplit(")", 1)[1].split()
    return out


def children(pid: int) -> list[int]:
    """The live child processes of `pid`."""
    return [child for child, fields in _stats().items() if int(fields[1]) == pid and fields[0] != "Z"]


def tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) used by `pid` and its live descendants, with those of the
    descendants they have waited for: CPU work done, which a loaded machine hardly inflates."""
    stats = _stats()
    kids: dict[int, list[int]] = {}
    for child, fields in stats.items():
        kids.setdefault(int(fields[1]), []).append(child)
    ticks, todo = 0, [pid]
    while todo:
        current = todo.pop()
        fields = stats.get(current)
        if fields is not None:
            ticks += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        todo.extend(kids.get(current, []))
    return ticks / os.sysconf("SC_CLK_TCK")
