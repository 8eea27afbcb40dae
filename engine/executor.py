"""One way to run long work: a pure function mapped over units (seed ranges), in order.

Every long job in five35 (simulations, impact estimates, variant comparisons) is a pure function
of its arguments applied to many small units. An `Executor` maps such a function over the units
and yields the results in the units' order, so a result never depends on where or in how many
processes the units ran. `LocalExecutor(jobs)` runs them here: in the calling process when
jobs == 1, else in `jobs` worker processes. A cluster executor (e.g. one over a Dask client, whose
`map`/`gather` have the same shape) only has to implement the same two members.

Interrupts: workers ignore SIGINT, so a Ctrl-C in a terminal (sent to the whole process group)
reaches only the parent, which raises KeyboardInterrupt where it waits, and the executor then
kills every worker at once instead of waiting for the units in flight. Any other error (a unit
raising, a worker dying) does the same before it is raised.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

R = TypeVar("R")

# The signals a terminal or a supervisor uses to stop a run; workers must never act on them alone.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
MAX_JOBS = 64  # more worker processes than this is a typo, not a machine


class WorkerDied(RuntimeError):
    """A worker process ended without giving its unit's result (killed, out of memory, os._exit)."""


class Executor(Protocol):
    """Maps a pure, picklable function over units and yields the results in the units' order."""

    @property
    def workers(self) -> int:
        """How many units can run at once; callers cut their work into a few units per worker."""
        ...

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        """`fn(*args)` for every args of `zip(*iterables)`, in order. Closing the generator early
        (`contextlib.closing` around the loop: an error, an interrupt, a `break`) stops all the
        work still running."""
        ...


def _worker_init() -> None:
    # The parent decides when a run stops: a Ctrl-C in the terminal reaches every process of the
    # group, and a worker that raised KeyboardInterrupt would print a traceback of its own.
    # SIGTERM keeps its default action, since that is how the parent ends a worker at once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for a short step that must not be cut in half (forking the
    workers, stopping them, moving outputs into place); a signal that came meanwhile is delivered
    as soon as the step is over. A forked child inherits the mask, so a worker cannot be hit
    before `_worker_init` has made it ignore SIGINT."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class LocalExecutor:
    """Units run in this process (jobs == 1) or in `jobs` worker processes of this machine."""

    def __init__(self, jobs: int = 1) -> None:
        if not 1 <= jobs <= MAX_JOBS:
            raise ValueError(f"jobs must be between 1 and {MAX_JOBS}, not {jobs}")
        self.jobs = jobs

    @property
    def workers(self) -> int:
        return self.jobs

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        units = list(zip(*iterables, strict=True))
        if self.jobs == 1 or len(units) <= 1:
            return (fn(*args) for args in units)
        return self._parallel(fn, units)

    def _parallel(self, fn: Callable[..., R], units: list[tuple[Any, ...]]) -> Generator[R, None, None]:
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(units)), initializer=_worker_init)
        finished = False
        try:
            with stop_signals_held():
                # With the fork start method every worker is forked at the first submit.
                futures: list[Future[R]] = [pool.submit(fn, *args) for args in units]
            for future in futures:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise WorkerDied(
                        f"a worker process ended before returning its result ({_exit_codes(pool)})"
                    ) from None
                yield result
            finished = True
        finally:
            if finished:
                pool.shutdown(wait=True)
            else:
                _kill(pool)


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    # ProcessPoolExecutor has no public way to reach its workers before Python 3.14
    # (terminate_workers); `_processes` has held them, keyed by pid, since Python 3.2.
    return list((getattr(pool, "_processes", None) or {}).values())


def _exit_codes(pool: ProcessPoolExecutor) -> str:
    codes = sorted({p.exitcode for p in _processes(pool) if p.exitcode not in (None, 0)})
    # A broken pool ends its other workers with SIGTERM; the one that died first is the news.
    first = [c for c in codes if c != -signal.SIGTERM] or codes
    if not first:
        return "no exit code"
    return ", ".join(
        f"killed by {signal.Signals(-c).name}" if c < 0 and -c in signal.valid_signals() else f"exit code {c}"
        for c in first
    )


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now: cancel what has not started and end the workers running the rest."""
    with stop_signals_held():
        # A second Ctrl-C must not interrupt the clean-up and leave workers behind. The workers are
        # looked up first: shutdown() forgets them.
        workers = _processes(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        for process in workers:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(1.0)
                if process.is_alive():
                    process.kill()
                    process.join(1.0)


def default_jobs() -> int:
    """Worker processes to use when the user does not say: the cores this process may use, at most 2
    (the figures in the README are for 2 cores)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


__all__ = ["MAX_JOBS", "Executor", "LocalExecutor", "WorkerDied", "default_jobs", "stop_signals_held"]
