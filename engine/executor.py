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
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import socket
import threading
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, Self, TypeVar

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

# The signals a terminal or a supervisor uses to stop a run; workers must never act on them alone.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
MAX_JOBS = 64  # more worker processes than this is a typo, not a machine

#: The cyclic garbage collector's thresholds in a process that does long work (the command line and
#: every worker). The checks and simulations make millions of short-lived objects (states, moves,
#: Z3 terms) that reference counting frees; Python's default (700, 10, 10) has the collector scan
#: them every few hundred allocations, about a tenth of the main job's CPU time as measured, while
#: these thresholds left the peak memory where it was (305 MB against 299 MB).
LONG_WORK_GC = (50_000, 20, 100)


def tune_gc() -> None:
    """Set the collector's thresholds for long work (`LONG_WORK_GC`) in this process. It changes
    how often cycles are looked for, never what is computed."""
    gc.set_threshold(*LONG_WORK_GC)


class WorkerDied(RuntimeError):
    """A worker process ended without giving its unit's result (killed, out of memory, os._exit)."""


class UnitRaised(RuntimeError):
    """A unit raised an exception whose type cannot be rebuilt in the caller (defined inside a
    function, say): str() names its type and says its message."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, as text: the `__cause__` of the exception
    raised again in the caller, so that a traceback printed there shows where it happened."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


# ---- what a unit is called, and what it raised ----------------------------------------------------

_DESCRIBE = "__five35_unit__"


def describes_units(describe: Callable[..., str]) -> Callable[[F], F]:
    """Give a unit function its words: `describe(*args)` (the unit's own arguments) says what one
    unit does, e.g. "the check divergence", for the error that names a unit whose worker died."""

    def mark(fn: F) -> F:
        setattr(fn, _DESCRIBE, describe)
        return fn

    return mark


def games_text(games: range, players: int) -> str:
    """A unit's games in words: "games 100-149 at 4 players"."""
    first, last = games.start, games.stop - 1
    span = f"game {first}" if first == last else f"games {first}-{last}"
    return f"{span} at {players} players"


def unit_name(fn: Callable[..., Any], args: Sequence[Any]) -> str:
    """What the unit fn(*args) does, in the words `describes_units` gave fn, else fn's name."""
    describe = getattr(fn, _DESCRIBE, None)
    if describe is not None:
        try:
            return str(describe(*args))
        except Exception:  # words for an error message must never raise one of their own
            pass
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__)


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    # The exception as it was, without calling its __init__ (whose arguments may not be its args).
    exc = cls.__new__(cls, *args)
    exc.args = args
    for name, value in state.items():
        with contextlib.suppress(AttributeError, TypeError):
            setattr(exc, name, value)
    return exc


def _carried(exc: BaseException) -> tuple[Callable[..., BaseException], tuple[Any, ...]]:
    """How `exc` travels back from a worker: pickle's own way when it gives the exception back
    whole, else _rebuild from its type, args and attributes, else a UnitRaised naming it."""
    try:
        if type(pickle.loads(pickle.dumps(exc))) is type(exc):
            return pickle.loads, (pickle.dumps(exc),)
    except Exception:
        pass
    state = dict(getattr(exc, "__dict__", {}))
    for name in ("where", "message", "key", "argument"):
        # Attributes a compiled exception class keeps in slots rather than a __dict__.
        if name not in state and hasattr(exc, name):
            state[name] = getattr(exc, name)
    try:
        packed = pickle.dumps((type(exc), exc.args, state))
        cls, args, state = pickle.loads(packed)
        _rebuild(cls, args, state)
        return _rebuild, (cls, args, state)
    except Exception:
        pass
    text = " ".join(str(exc).split())
    name = f"{type(exc).__module__}.{type(exc).__qualname__}"
    return UnitRaised, (f"{name}: {text}" if text else name,)


class _Raised:
    """What a unit raised, as its worker sends it back: the exception and the traceback text."""

    def __init__(self, exc: BaseException) -> None:
        self.rebuild, self.parts = _carried(exc)
        self.traceback = "".join(traceback.format_exception(exc))

    def exception(self) -> BaseException:
        exc = self.rebuild(*self.parts)
        exc.__cause__ = RemoteTraceback(f"\n'''\n{self.traceback}'''")
        return exc


#: Which worker runs which unit of the current map, shared with the workers: the worker's pid while
#: the unit runs, minus it once the unit is done, 0 before it starts. Set in each worker by _worker_init.
_board: Any = None


class _Unit:
    """fn(*args) as a worker runs it: it marks the unit's start and end on the board, and sends back
    what it raises as a _Raised, so that the caller raises the same exception."""

    def __init__(self, fn: Callable[..., Any], index: int) -> None:
        self.fn = fn
        self.index = index

    def __call__(self, *args: Any) -> Any:
        board = _board
        pid = os.getpid()
        if board is not None:
            board[self.index] = pid
        try:
            return self.fn(*args)
        except Exception as exc:
            return _Raised(exc)
        finally:
            if board is not None:
                board[self.index] = -pid


def _result(value: R | _Raised) -> R:
    if isinstance(value, _Raised):
        raise value.exception()
    return value


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


def _worker_init(board: Any = None) -> None:
    # The parent decides when a run stops: a Ctrl-C in the terminal reaches every process of the
    # group, and a worker that raised KeyboardInterrupt would print a traceback of its own.
    # SIGTERM keeps its default action, since that is how the parent ends a worker at once.
    global _board
    _board = board
    tune_gc()
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


class _ClosedOnExit(ABC):
    """An executor that a `with` block closes when it is left, however it is left."""

    @abstractmethod
    def close(self) -> None:
        """Release what the executor holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(_ClosedOnExit):
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
                futures: list[Future[R | _Raised]] = [
                    pool.submit(_Unit(fn, i), *args) for i, args in enumerate(units)
                ]
            for future in futures:
                try:
                    value = future.result()
                except BrokenProcessPool as exc:
                    raise WorkerDied(_died(pool, board, fn, units, exc)) from None
                yield _result(value)
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


#: Seconds to wait for a Dask scheduler to answer (and to have a worker) before giving up.
CONNECT_TIMEOUT = 10.0
#: Seconds a tcp:// scheduler has to accept a connection and greet (a Dask scheduler sends its
#: handshake at once); a port that accepts and stays silent is not a scheduler. distributed's own
#: connect then waits for ever, so this is asked first, by hand.
PROBE_TIMEOUT = 3.0
EXECUTORS = ("local", "dask")
DASK_HINT = "pip install 'five35[dask]'"


class DaskExecutor(_ClosedOnExit):
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
        _probe(scheduler, min(timeout, PROBE_TIMEOUT))
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

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        units = list(zip(*iterables, strict=True))
        return self._gather(fn, units)

    def _gather(self, fn: Callable[..., R], units: list[tuple[Any, ...]]) -> Generator[R, None, None]:
        if not units:
            return
        from distributed import KilledWorker

        # pure=False: every unit its own task. Units are pure, but hashing their arguments (rulesets,
        # specs) to find equal ones costs more than running the rare duplicate twice.
        columns = [list(column) for column in zip(*units, strict=True)]
        futures = self.client.map(_Unit(fn, 0), *columns, pure=False)
        finished = False
        try:
            for i, future in enumerate(futures):
                try:
                    value = future.result()
                except KilledWorker:
                    raise WorkerDied(
                        f"a Dask worker died each time it ran unit {i + 1} of {len(units)}: "
                        f"{unit_name(fn, units[i])} (its task was run again the scheduler's allowed "
                        "number of times)"
                    ) from None
                yield _result(value)
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


def _probe(address: str, timeout: float) -> None:
    """ExecutorUnavailable("scheduler") when `address` is no scheduler address, or a tcp:// one at
    which nothing answers within `timeout` seconds: refused, unreachable, or accepting the
    connection and saying nothing. Other schemes (tls://, ucx://, ...) are left to distributed."""
    from distributed.comm.addressing import parse_address, parse_host_port

    def unavailable(why: str) -> ExecutorUnavailable:
        return ExecutorUnavailable("scheduler", f"cannot reach a Dask scheduler at {address} ({why})")

    try:
        scheme, location = parse_address(address, strict=False)
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise ExecutorUnavailable(
            "scheduler", f"{address!r} is not a Dask scheduler address, e.g. tcp://10.0.0.5:8786 ({exc})"
        ) from None
    if not 0 < port < 65536:
        raise ExecutorUnavailable("scheduler", f"{address!r}: port {port} is not from 1 to 65535")
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=timeout) as connection:
            connection.settimeout(max(0.05, deadline - time.monotonic()))
            greeting = connection.recv(1)
    except TimeoutError:
        raise unavailable(f"no answer within {timeout:g} s") from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise unavailable(" ".join(reason.split()).lower()) from None
    if not greeting:
        raise unavailable("it closed the connection without a word: not a Dask scheduler") from None


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
    "RemoteTraceback",
    "UnitRaised",
    "WorkerDied",
    "default_jobs",
    "describes_units",
    "games_text",
    "make_executor",
    "stop_signals_held",
    "unit_name",
]
