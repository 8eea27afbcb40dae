"""One way to run long work: a pure function mapped over units (seed ranges), in order.

Every long job in five35 (simulations, impact estimates, variant comparisons) is a pure function
of its arguments applied to many small units. An `Executor` maps such a function over the units
and yields the results in the units' order, so a result never depends on where or in how many
processes the units ran. `LocalExecutor(jobs)` runs them here: in the calling process when
jobs == 1, else in `jobs` worker processes. `DaskExecutor(address)` runs them on a Dask
distributed cluster (the optional extra `five35[dask]`, imported only when asked for).
`make_executor(kind, jobs, scheduler)` is the one way callers build either.

A worker that dies on a cluster is not an error of the run: its units are pure, so running them
again gives the same result, and the Dask scheduler does exactly that for every task a lost worker
held (up to `distributed.scheduler.allowed-failures` times per task, 3 by default; past that the
unit is reported as WorkerDied). Dask's `retries`, which re-runs a task that *raised*, is not used:
a pure unit that raises will raise again.

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


class ExecutorUnavailable(ValueError):
    """The executor asked for cannot be built. `argument` is the library argument at fault
    (`kind`, `scheduler`); str() is the one-line reason, without the argument."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument


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

    def close(self) -> None:
        """Nothing to release: each `map` starts and stops its own worker processes."""

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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


#: Seconds to wait for a Dask scheduler to answer (and to have a worker) before giving up.
CONNECT_TIMEOUT = 10.0
EXECUTORS = ("local", "dask")
DASK_HINT = "pip install 'five35[dask]'"


class DaskExecutor:
    """Units run as tasks on a Dask distributed cluster, through `distributed.Client(address)`.

    Functions and arguments travel with cloudpickle, so a worker needs five35 (the same version)
    installed, and a function defined at module level; results come back in the units' order.
    `close()` (or leaving a `with` block) closes the client; the cluster goes on running."""

    def __init__(self, scheduler: str, *, timeout: float | None = None) -> None:
        self.scheduler = scheduler
        self._owned = False
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        if not scheduler.strip():
            raise ExecutorUnavailable("scheduler", "expected a Dask scheduler address, got an empty string")
        try:
            from distributed import Client
        except ImportError:
            raise ExecutorUnavailable("kind", f"dask is not installed ({DASK_HINT})") from None
        try:
            # set_as_default=False: this client must not become the one dask.compute() elsewhere in
            # the process picks up silently.
            # Any: distributed's Client is only partly annotated.
            self.client: Any = Client(scheduler, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ExecutorUnavailable(
                "scheduler", f"cannot reach a Dask scheduler at {scheduler} within {timeout:g} s ({reason})"
            ) from None
        self._owned = True
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ExecutorUnavailable(
                "scheduler", f"the Dask scheduler at {scheduler} has no worker after {timeout:g} s"
            ) from exc

    @property
    def workers(self) -> int:
        """The cluster's worker threads, as the scheduler counts them now (at least 1)."""
        info = self.client.scheduler_info(n_workers=-1)
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def close(self) -> None:
        if self._owned:
            with contextlib.suppress(Exception):
                self.client.close(timeout=2)
            self._owned = False

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        units = list(zip(*iterables, strict=True))
        return self._gather(fn, units)

    def _gather(self, fn: Callable[..., R], units: list[tuple[Any, ...]]) -> Generator[R, None, None]:
        if not units:
            return
        from distributed import KilledWorker

        # pure=False: every unit its own task. Units are pure, but hashing their arguments (rulesets,
        # specs) to find equal ones costs more than running the rare duplicate twice.
        futures = self.client.map(fn, *(list(column) for column in zip(*units, strict=True)), pure=False)
        finished = False
        try:
            for future in futures:
                try:
                    result = future.result()
                except KilledWorker as exc:
                    raise WorkerDied(
                        f"a Dask worker died running the same unit again and again ({exc}); "
                        "its task was re-run the scheduler's allowed number of times"
                    ) from None
                yield result
            finished = True
        finally:
            if not finished:
                # Drops what is queued on the cluster, not only what we wait for; a unit already
                # running finishes on its worker (Dask cannot stop a thread) and is thrown away.
                with contextlib.suppress(Exception):
                    self.client.cancel(futures, force=True)
            for future in futures:
                with contextlib.suppress(Exception):
                    future.release()


def make_executor(
    kind: str = "local", jobs: int = 1, scheduler: str | None = None
) -> LocalExecutor | DaskExecutor:
    """The executor of a command: `local` (`jobs` processes here) or `dask` (the cluster whose
    scheduler is at `scheduler`). Raises ExecutorUnavailable naming `kind` (unknown, dask without a
    scheduler, dask not installed) or `scheduler` (given to local, or not answering)."""
    if kind not in EXECUTORS:
        raise ExecutorUnavailable("kind", f"expected one of {', '.join(EXECUTORS)}, got {kind!r}")
    if kind == "local":
        if scheduler is not None:
            raise ExecutorUnavailable("scheduler", "a scheduler is only used by the dask executor")
        return LocalExecutor(jobs)
    if scheduler is None:
        raise ExecutorUnavailable("kind", "the dask executor needs a scheduler address")
    return DaskExecutor(scheduler)


def default_jobs() -> int:
    """Worker processes to use when the user does not say: the cores this process may use, at most 2
    (the figures in the README are for 2 cores)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


__all__ = [
    "CONNECT_TIMEOUT",
    "EXECUTORS",
    "MAX_JOBS",
    "DaskExecutor",
    "Executor",
    "ExecutorUnavailable",
    "LocalExecutor",
    "WorkerDied",
    "default_jobs",
    "make_executor",
    "stop_signals_held",
]
