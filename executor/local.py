"""The local executor: units run in this process (jobs == 1) or in a pool of worker processes of this
machine, which an error, an interrupt or an early stop ends at once; a worker that dies is named
with how it ended and the unit it was running."""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .units import (
    STOP_SIGNALS,
    ClosedOnExit,
    R,
    Raised,
    Unit,
    WorkerDied,
    stop_signals_held,
    tune_gc,
    unit_name,
    unit_result,
    use_board,
)

MAX_JOBS = 64  # more worker processes than this is a typo, not a machine


def _worker_init(board: Any = None) -> None:
    # The parent decides when a run stops: a Ctrl-C in the terminal reaches every process of the
    # group, and a worker that raised KeyboardInterrupt would print a traceback of its own.
    # SIGTERM keeps its default action, since that is how the parent ends a worker at once.
    use_board(board)
    tune_gc()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


class LocalExecutor(ClosedOnExit):
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

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        units = list(zip(*iterables, strict=True))
        if self.jobs == 1 or len(units) <= 1:
            return (fn(*args) for args in units)
        return self._parallel(fn, units)

    def _parallel(self, fn: Callable[..., R], units: list[tuple[Any, ...]]) -> Generator[R, None, None]:
        context = multiprocessing.get_context()
        board = context.RawArray("q", len(units))
        pool = ProcessPoolExecutor(
            max_workers=min(self.jobs, len(units)),
            mp_context=context,
            initializer=_worker_init,
            initargs=(board,),
        )
        finished = False
        try:
            with stop_signals_held():
                # With the fork start method every worker is forked at the first submit.
                futures: list[Future[R | Raised]] = [
                    pool.submit(Unit(fn, i), *args) for i, args in enumerate(units)
                ]
            for future in futures:
                try:
                    value = future.result()
                except BrokenProcessPool as exc:
                    raise WorkerDied(_died(pool, board, fn, units, exc)) from None
                yield unit_result(value)
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


def _how(code: int) -> str:
    """How a worker ended, from its exit code, in words."""
    if code < 0 and -code in signal.valid_signals():
        name = signal.Signals(-code).name
        if -code == signal.SIGKILL:
            return f"was killed by {name} (out of memory, or kill -9)"
        return f"was killed by {name}"
    return f"exited with code {code}"


def _died(
    pool: ProcessPoolExecutor,
    board: Any,
    fn: Callable[..., Any],
    units: Sequence[tuple[Any, ...]],
    broken: BrokenProcessPool,
) -> str:
    """The one line of a broken pool: which worker ended how, and the unit it was running."""
    processes = _processes(pool)
    for process in processes:
        # The pool ends the other workers once one has died; their exit codes come within moments.
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(2.0)
    codes = {p.pid: p.exitcode for p in processes if p.exitcode not in (None, 0)}
    # A broken pool ends its other workers with SIGTERM; the one that died first is the news.
    dead = {pid: c for pid, c in codes.items() if c != -signal.SIGTERM} or codes
    total = len(units)
    parts = []
    for pid, code in sorted(dead.items()):
        running = [i for i in range(total) if board[i] == pid]
        doing = "; ".join(f"unit {i + 1} of {total}: {unit_name(fn, units[i])}" for i in running)
        parts.append(f"a worker process {_how(code)}" + (f" while running {doing}" if doing else ""))
    if parts:
        return "; ".join(parts)
    cause = broken.__cause__
    if cause is not None:
        # The pool broke without a worker dying: a result that could not be read back.
        last = [line for line in str(cause).strip().strip("'").splitlines() if line.strip()]
        return f"a worker's result could not be read back ({last[-1].strip() if last else 'no reason given'})"
    return "a worker process ended before returning its result (no exit code)"


#: Seconds to wait for a killed pool's manager thread to finish its clean-up.
MANAGER_JOIN = 2.0


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now: cancel what has not started and end the workers running the rest."""
    with stop_signals_held():
        # A second Ctrl-C must not interrupt the clean-up and leave workers behind. The workers are
        # looked up first: shutdown() forgets them.
        workers = _processes(pool)
        manager = getattr(pool, "_executor_manager_thread", None)
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
        # The pool's manager thread closes its wake-up pipe once it sees the workers gone. Python
        # 3.11's exit hook (concurrent.futures.process._python_exit) writes to that pipe without a
        # lock, so an exit that races the closing prints "Bad file descriptor" with a traceback
        # after the one-line interrupt message: wait for the thread here, within a bound.
        if isinstance(manager, threading.Thread) and manager.is_alive():
            manager.join(MANAGER_JOIN)
