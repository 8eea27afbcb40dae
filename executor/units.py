"""What every executor shares: the `Executor` protocol, a unit as a worker runs it, how what a unit
raised travels back to the caller, the words that name a unit, and the errors of a run.

A unit is `fn(*args)` for a pure, picklable function at module level; the local pool
(executor/local.py) and the Dask cluster (executor/cluster.py) both run it wrapped in a `Unit`, so
that an exception raised in a worker is raised in the caller as the same exception.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Protocol, Self, TypeVar

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

# The signals a terminal or a supervisor uses to stop a run; workers must never act on them alone.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})

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


class Raised:
    """What a unit raised, as its worker sends it back: the exception and the traceback text."""

    def __init__(self, exc: BaseException) -> None:
        self.rebuild, self.parts = _carried(exc)
        self.traceback = "".join(traceback.format_exception(exc))

    def exception(self) -> BaseException:
        exc = self.rebuild(*self.parts)
        exc.__cause__ = RemoteTraceback(f"\n'''\n{self.traceback}'''")
        return exc


#: Which worker runs which unit of the current map, shared with the workers: the worker's pid while
#: the unit runs, minus it once the unit is done, 0 before it starts. Set in each worker of a local
#: pool by `use_board` (executor/local.py); a Dask worker has none.
_board: Any = None


def use_board(board: Any) -> None:
    """Make `board` the one this worker process marks its units' start and end on."""
    global _board
    _board = board


class Unit:
    """fn(*args) as a worker runs it: it marks the unit's start and end on the board, and sends back
    what it raises as a Raised, so that the caller raises the same exception."""

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
            return Raised(exc)
        finally:
            if board is not None:
                board[self.index] = -pid


def unit_result(value: R | Raised) -> R:
    if isinstance(value, Raised):
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


class ClosedOnExit(ABC):
    """An executor that a `with` block closes when it is left, however it is left."""

    @abstractmethod
    def close(self) -> None:
        """Release what the executor holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
