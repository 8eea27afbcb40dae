"""The harness side of the protocol: drive an engine subprocess (subprocess_engine.py), or a Python
engine in-process (inprocess_engine.py), through one session (engine_client.py), opened from an
`--engine` value.

An engine that crashes, hangs, writes something that is not one JSON object per line, writes too
much or too deep, or answers out of turn raises `EngineFault` naming the request and carrying the
transcript of the last exchanges; the subprocess (its whole process group) is always killed by
`close()`. A Python engine runs in a worker thread under the same per-request timeout.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from .engine_client import (
    DEFAULT_MAX_LINE,
    DEFAULT_TIMEOUT,
    EngineClient,
    EngineFault,
    FaultKind,
    Posted,
    one_line,
    response_body,
)
from .inprocess_engine import InProcessEngine, InProcessEngineObject, load_factory, raised, start_in_process
from .subprocess_engine import SubprocessEngine


def open_engine(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> EngineClient:
    """`--engine` value -> a client: `python:MODULE:FACTORY` in-process, anything else a command line."""
    if target.startswith("python:"):
        return start_in_process(target, timeout, max_line)
    return SubprocessEngine(target, timeout=timeout, max_line=max_line)


@contextlib.contextmanager
def engine_session(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> Iterator[EngineClient]:
    """An engine that is closed (its process group killed) however the block ends. A failure to
    close is an EngineFault when the block succeeded, and hidden behind the block's own error."""
    client = open_engine(target, timeout, max_line)
    previous: Any = None
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    ):
        # SIGTERM would end Python without running `finally`, leaving the engine's process group
        # behind (it runs in its own session). Treat it as Ctrl-C: KeyboardInterrupt unwinds
        # through Hypothesis (which would catch SystemExit as a test failure) and close() runs.
        # A caller's own handler (535-check's, which exits 143) is kept: it unwinds the same way.
        previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        try:
            yield client
        except BaseException:
            with contextlib.suppress(EngineFault):
                client.close()
            raise
        client.close()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


__all__ = [
    "DEFAULT_MAX_LINE",
    "DEFAULT_TIMEOUT",
    "EngineClient",
    "EngineFault",
    "FaultKind",
    "InProcessEngine",
    "InProcessEngineObject",
    "Posted",
    "SubprocessEngine",
    "engine_session",
    "load_factory",
    "one_line",
    "open_engine",
    "raised",
    "response_body",
    "start_in_process",
]
