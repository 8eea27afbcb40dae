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

Errors: what a unit raises in a worker is raised in the caller as the same exception (its type,
message and attributes), exactly as with jobs == 1, with the worker's traceback as its cause. An
exception that pickle cannot carry back as it is (one whose __init__ takes other arguments than its
args, such as SpecError(where, message)) is rebuilt from its type, args and attributes; only one
whose type the caller cannot import becomes a UnitRaised naming it. A worker that ends without a
result (killed by a signal, the out-of-memory killer's SIGKILL, os._exit) is WorkerDied, naming how
it ended and the unit it was running (`describes_units` gives a unit function its words).

The executor imports nothing of five35 (the lowest floor, tests/test_architecture.py): `units.py`
is what both executors share (the protocol, a unit as a worker runs it, its errors), `local.py` the
worker processes of this machine, `cluster.py` the Dask cluster; this module builds either.
"""

from __future__ import annotations

import os

from .cluster import CONNECT_TIMEOUT, DASK_HINT, PROBE_TIMEOUT, DaskExecutor
from .local import MAX_JOBS, LocalExecutor
from .units import (
    LONG_WORK_GC,
    Executor,
    ExecutorUnavailable,
    RemoteTraceback,
    UnitRaised,
    WorkerDied,
    describes_units,
    games_text,
    stop_signals_held,
    tune_gc,
    unit_name,
)

EXECUTORS = ("local", "dask")


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
    "DASK_HINT",
    "EXECUTORS",
    "LONG_WORK_GC",
    "MAX_JOBS",
    "PROBE_TIMEOUT",
    "DaskExecutor",
    "Executor",
    "ExecutorUnavailable",
    "LocalExecutor",
    "RemoteTraceback",
    "UnitRaised",
    "WorkerDied",
    "default_jobs",
    "describes_units",
    "games_text",
    "make_executor",
    "stop_signals_held",
    "tune_gc",
    "unit_name",
]
