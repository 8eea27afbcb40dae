"""A Python engine in-process (`--engine python:MODULE:FACTORY`): its code (import, factory,
handle, close) runs in a worker thread under the same per-request timeout and answer limits as a
subprocess, and its answers pass through JSON text.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..spec import SpecError
from .engine_client import DEFAULT_MAX_LINE, DEFAULT_TIMEOUT, EngineClient, EngineFault


class InProcessEngineObject(Protocol):
    """What a `python:module:factory` factory returns (see docs/protocol.md)."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any]: ...


class _Unserialisable(Exception):
    """handle() returned something that is not JSON (told apart from handle() raising)."""


class _Worker:
    """One daemon thread that runs an in-process engine's code (import, factory, handle, close).

    The harness waits for each result at most the timeout, as for a subprocess. A call that never
    returns leaves the thread stuck; being a daemon, it cannot keep the program from exiting, and
    the engine is not used again."""

    def __init__(self, label: str) -> None:
        self._tasks: queue.SimpleQueue[Callable[[], Any] | None] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self.stuck: str | None = None  # what the thread is still busy with after a timeout
        self._thread = threading.Thread(target=self._loop, name=f"five35 engine {label}", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            task = self._tasks.get()
            if task is None:
                return
            try:
                outcome: tuple[bool, Any] = (True, task())
            except BaseException as exc:  # SystemExit too: it is the engine's, not ours
                outcome = (False, exc)
            self._results.put(outcome)

    def submit(self, task: Callable[[], Any]) -> None:
        self._tasks.put(task)

    def result(self, timeout: float, doing: str) -> tuple[bool, Any]:
        """(True, value) or (False, the exception); raises TimeoutError after `timeout` seconds."""
        try:
            return self._results.get(timeout=timeout)
        except queue.Empty:
            self.stuck = doing
            raise TimeoutError(doing) from None

    def stop(self) -> None:
        if self.stuck is None:
            self._tasks.put(None)


def raised(exc: BaseException) -> str:
    """What an engine's code raised, for a fault message."""
    if isinstance(exc, SystemExit):
        return f"SystemExit (sys.exit({exc.code!r}))"
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} ({exc.filename}, line {exc.lineno})"
    return f"{type(exc).__name__}: {exc}"


def _wire(response: Any) -> bytes:
    """The answer as the bytes a subprocess would have written (ASCII escapes, so a lone
    surrogate reaches the same check as one sent over a pipe)."""
    try:
        return json.dumps(response, separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError, RecursionError) as exc:
        raise _Unserialisable(f"{type(exc).__name__}: {exc}") from None


def _handle_one(handle: Callable[[dict[str, Any]], Any], request: dict[str, Any]) -> bytes:
    return _wire(handle(request))


class InProcessEngine(EngineClient):
    """A Python engine object answering protocol dicts, run in a worker thread with the same
    per-request timeout and answer limits as a subprocess; its answers pass through JSON text."""

    def __init__(
        self,
        engine: InProcessEngineObject,
        label: str,
        timeout: float = DEFAULT_TIMEOUT,
        max_line: int = DEFAULT_MAX_LINE,
        worker: _Worker | None = None,
    ) -> None:
        super().__init__()
        self.engine = engine
        self.label = label
        self.timeout = timeout
        self.max_line = max_line
        self._worker = worker or _Worker(label)
        self._closed = False

    def _send(self, messages: list[dict[str, Any]], lines: list[bytes]) -> None:
        if self._worker.stuck is not None:
            raise self.fault("timeout", f"the engine is still busy with {self._worker.stuck}", messages[0])
        if self._closed:
            raise self.fault("crash", "the engine was already closed", messages[0])
        handle = self.engine.handle
        for line in lines:
            # A fresh copy, exactly as json.loads would give it: the engine may keep or change it.
            self._worker.submit(functools.partial(_handle_one, handle, json.loads(line)))

    def _answer(self, message: dict[str, Any]) -> bytes:
        request = f"request {message['id']} ({message['type']})"
        try:
            ok, value = self._worker.result(self.timeout, request)
        except TimeoutError:
            raise self.fault(
                "timeout", f"handle() gave no answer within {self.timeout:g} s", message
            ) from None
        if ok:
            return value  # type: ignore[no-any-return]
        if isinstance(value, _Unserialisable):
            raise self.fault("malformed", f"handle() returned what is not JSON ({value})", message)
        raise self.fault("crash", f"handle() raised {raised(value)}", message)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._worker.stuck is not None:
            return  # close() cannot run while handle() still does; the daemon thread is left behind
        closer = getattr(self.engine, "close", None)
        if not callable(closer):
            self._worker.stop()
            return
        self._worker.submit(closer)
        try:
            ok, value = self._worker.result(self.timeout, "close()")
        except TimeoutError:
            raise self.fault("timeout", f"close() did not return within {self.timeout:g} s") from None
        self._worker.stop()
        if not ok:
            raise self.fault("crash", f"close() raised {raised(value)}")


def load_factory(target: str) -> Callable[[], Any]:
    """`module:factory` or `path/to/file.py:factory` -> the factory callable.

    SpecError (a bad --engine value) when the module, the file or the factory does not exist;
    EngineFault (start) when the engine's own code fails: a syntax error, an exception or
    sys.exit() while it is imported."""
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise SpecError("--engine", f"expected python:MODULE:FACTORY, got python:{target}")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            spec = importlib.util.spec_from_file_location(path.stem, path)
            if spec is None or spec.loader is None or not path.is_file():
                raise SpecError("--engine", f"no Python file {module_name}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except SpecError:
        raise
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise SpecError("--engine", f"cannot import {module_name}: {exc}") from None
        raise EngineFault("start", f"python:{target}: importing {module_name} raised {raised(exc)}") from None
    except BaseException as exc:  # the engine's code: SystemExit, SyntaxError, ...
        raise EngineFault("start", f"python:{target}: importing {module_name} raised {raised(exc)}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise SpecError("--engine", f"{module_name} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


def _start(target: str) -> Any:
    """Import the module and call the factory (in the worker thread)."""
    factory = load_factory(target[len("python:") :])
    try:
        engine = factory()
    except BaseException as exc:  # the engine's code, SystemExit included
        raise EngineFault("start", f"{target}: the factory raised {raised(exc)}") from None
    if not callable(getattr(engine, "handle", None)):
        raise EngineFault("start", f"{target}: the factory's object has no handle(request) method")
    return engine


def start_in_process(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> InProcessEngine:
    """`python:MODULE:FACTORY` -> the engine, imported and made in its worker thread within
    `timeout`."""
    worker = _Worker(target)
    worker.submit(lambda: _start(target))
    try:
        ok, value = worker.result(timeout, "starting")
    except TimeoutError:
        raise EngineFault(
            "timeout", f"{target}: importing and starting the engine took over {timeout:g} s"
        ) from None
    if not ok:
        worker.stop()
        if isinstance(value, SpecError | EngineFault):
            raise value
        raise EngineFault("start", f"{target}: {raised(value)}")
    return InProcessEngine(value, target, timeout, max_line, worker)
