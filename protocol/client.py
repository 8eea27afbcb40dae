"""The harness side of the protocol: drive an engine subprocess, or a Python engine in-process.

An engine that crashes, hangs, writes something that is not one JSON object per line, writes too
much, or answers out of turn raises `EngineFault` with the transcript of the last exchanges; the
subprocess (its whole process group) is always killed by `close()`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import select
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, Protocol

from five35.engine import Move
from five35.spec import SpecError

from .messages import PROTOCOL_VERSION, ProtocolViolation, check_response, encode, move_json

FaultKind = Literal["start", "crash", "timeout", "malformed", "oversized", "protocol"]
DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_LINE = 1 << 20
TRANSCRIPT_LINES = 24
SHOWN_CHARS = 400


class EngineFault(Exception):
    """The engine under test misbehaved (as opposed to disagreeing about the rules)."""

    def __init__(self, kind: FaultKind, message: str, transcript: tuple[str, ...] = ()) -> None:
        super().__init__(f"engine fault ({kind}): {message}")
        self.kind = kind
        self.message = message
        self.transcript = transcript

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "transcript": list(self.transcript)}


class InProcessEngineObject(Protocol):
    """What a `python:module:factory` factory returns (see docs/protocol.md)."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any]: ...


class EngineClient:
    """One engine session: numbered requests, validated responses, a transcript."""

    label: str = "engine"

    def __init__(self) -> None:
        self._next_id = 1
        self.requests = 0
        self._transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES)

    @property
    def transcript(self) -> tuple[str, ...]:
        return tuple(self._transcript)

    def _note(self, direction: str, text: str) -> None:
        shown = text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + f"... ({len(text)} chars)"
        self._transcript.append(f"{direction} {shown}")

    def fault(self, kind: FaultKind, message: str) -> EngineFault:
        return EngineFault(kind, message, self.transcript)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return the validated response (ok true or false)."""
        return self.batch([(kind, fields)])[0]

    def batch(self, requests: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """Send several requests at once (pipelined), then read their responses in order.

        The engine still answers one request at a time; pipelining only saves the round trips.
        """
        messages = []
        for kind, fields in requests:
            messages.append({"id": self._next_id, "type": kind, **fields})
            self._next_id += 1
        self.requests += len(messages)
        responses = self._exchange(messages)
        for message, response in zip(messages, responses, strict=True):
            try:
                check_response(message, response)
            except ProtocolViolation as exc:
                raise self.fault("protocol", str(exc)) from None
        return responses

    def _exchange(self, messages: list[dict[str, Any]]) -> list[Any]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the engine. Safe to call twice."""

    # ---- the protocol's requests ---------------------------------------------------------------

    def expect_ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        response = self.request(kind, **fields)
        if not response["ok"]:
            error = response["error"]
            raise self.fault("protocol", f"{kind} was refused: {error['code']}: {error['message']}")
        return response

    def hello(self) -> dict[str, Any]:
        return self.expect_ok("hello", protocol=PROTOCOL_VERSION)

    def new_round(
        self, players: int, hands: list[list[int]], leader: int, scores: list[int]
    ) -> dict[str, Any]:
        return self.request("new_round", players=players, hands=hands, leader=leader, scores=scores)

    def legal(self) -> dict[str, Any]:
        return self.request("legal")

    def apply(self, move: Move) -> dict[str, Any]:
        return self.request("apply", move=move_json(move))

    def state(self) -> dict[str, Any]:
        return self.request("state")

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SubprocessEngine(EngineClient):
    """An engine program started from a command line, talking JSON Lines on stdin/stdout.

    The program runs in its own process group (session) so that `close()` can kill it together with
    anything it started. Its stderr goes to an anonymous temporary file, shown in crash reports.
    """

    def __init__(
        self, command: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
    ) -> None:
        super().__init__()
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise SpecError("--engine", f"cannot split {command!r}: {exc}") from None
        if not argv:
            raise SpecError("--engine", "the engine command is empty")
        self.label = command
        self.timeout = timeout
        self.max_line = max_line
        self._buffer = bytearray()
        # Closed in close(): the file lives as long as the engine process.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,
                bufsize=0,
            )
        except OSError as exc:
            self._stderr.close()
            raise EngineFault("start", f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._closed = False

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 600))
            tail = self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return f"; its stderr ends: {tail.splitlines()[-1][:300]!r}" if tail else ""

    def _died(self, doing: str) -> EngineFault:
        try:
            code = self.proc.wait(timeout=1.0)
            how = f"exit code {code}" if code >= 0 else f"killed by signal {-code}"
        except subprocess.TimeoutExpired:
            how = "stdout closed"
        return self.fault("crash", f"the engine died while {doing} ({how}){self._stderr_tail()}")

    def _exchange(self, messages: list[dict[str, Any]]) -> list[Any]:
        if self._closed:
            raise self.fault("crash", "the engine was already closed")
        lines = [encode(m) for m in messages]
        for line in lines:
            self._note(">", line.decode().rstrip("\n"))
        self._write(b"".join(lines), time.monotonic() + self.timeout)
        answers = []
        for message in messages:
            # Each answer gets the full timeout, counted from the previous answer.
            raw = self._read_line(time.monotonic() + self.timeout, message)
            self._note("<", raw.decode("utf-8", "replace"))
            try:
                answers.append(json.loads(raw))
            except ValueError as exc:
                raise self.fault(
                    "malformed", f"the answer to request {message['id']} is not JSON ({exc})"
                ) from None
        return answers

    def _write(self, data: bytes, deadline: float) -> None:
        """Write a batch, reading answers meanwhile: an engine blocked on a full stdout pipe
        stops reading its stdin, so writing alone could wait for ever."""
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._in, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._died("reading its input") from None
            view = view[written:]
            if written:
                deadline = time.monotonic() + self.timeout
            if not view:
                return
            remaining = deadline - time.monotonic()
            readable, writable, _ = select.select([self._out], [self._in], [], max(remaining, 0))
            if readable:
                self._drain("a batch of requests")
                deadline = time.monotonic() + self.timeout
            elif not writable:
                raise self.fault("timeout", f"the engine stopped reading its input for {self.timeout:g} s")

    def _drain(self, doing: str) -> None:
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            raise self._died(f"answering {doing}")
        self._buffer += chunk
        if len(self._buffer) - (self._buffer.rfind(b"\n") + 1) > self.max_line:
            raise self.fault("oversized", f"an answer line exceeds {self.max_line} bytes")

    def _read_line(self, deadline: float, message: dict[str, Any]) -> bytes:
        request = f"request {message['id']} ({message['type']})"
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                if end > self.max_line:
                    raise self.fault(
                        "oversized", f"the answer to {request} has {end} bytes, over {self.max_line}"
                    )
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return raw
            if len(self._buffer) > self.max_line:
                raise self.fault("oversized", f"the answer to {request} exceeds {self.max_line} bytes")
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._out], [], [], remaining)[0]:
                raise self.fault("timeout", f"no answer to {request} within {self.timeout:g} s")
            self._drain(request)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.proc.poll() is None:
            # A polite quit first (the engine may flush logs), then the whole group goes regardless.
            with contextlib.suppress(OSError):
                os.write(self._in, encode({"id": self._next_id, "type": "quit"}))
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=0.2)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=2.0)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._stderr.close()


class InProcessEngine(EngineClient):
    """A Python engine object answering protocol dicts directly (no pipe, no timeout)."""

    def __init__(self, engine: InProcessEngineObject, label: str) -> None:
        super().__init__()
        self.engine = engine
        self.label = label

    def _exchange(self, messages: list[dict[str, Any]]) -> list[Any]:
        answers = []
        for message in messages:
            self._note(">", json.dumps(message, separators=(",", ":")))
            try:
                response = self.engine.handle(dict(message))
            except Exception as exc:
                raise self.fault("crash", f"handle() raised {type(exc).__name__}: {exc}") from None
            try:
                self._note("<", json.dumps(response, separators=(",", ":")))
            except (TypeError, ValueError) as exc:
                raise self.fault("malformed", f"the answer is not JSON-serialisable ({exc})") from None
            answers.append(response)
        return answers

    def close(self) -> None:
        closer = getattr(self.engine, "close", None)
        if callable(closer):
            closer()


def load_factory(target: str) -> Callable[[], Any]:
    """`module:factory` or `path/to/file.py:factory` -> the factory callable (SpecError if missing)."""
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
    except ImportError as exc:
        raise SpecError("--engine", f"cannot import {module_name}: {exc}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise SpecError("--engine", f"{module_name} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


def open_engine(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> EngineClient:
    """`--engine` value -> a client: `python:MODULE:FACTORY` in-process, anything else a command line."""
    if target.startswith("python:"):
        factory = load_factory(target[len("python:") :])
        try:
            engine = factory()
        except Exception as exc:
            raise EngineFault("start", f"{target}: the factory raised {type(exc).__name__}: {exc}") from None
        if not callable(getattr(engine, "handle", None)):
            raise EngineFault("start", f"{target}: the factory's object has no handle(request) method")
        return InProcessEngine(engine, target)
    return SubprocessEngine(target, timeout=timeout, max_line=max_line)


@contextlib.contextmanager
def engine_session(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> Iterator[EngineClient]:
    """An engine that is closed (its process group killed) however the block ends."""
    client = open_engine(target, timeout, max_line)
    previous: Any = None
    if threading.current_thread() is threading.main_thread():
        # SIGTERM would end Python without running `finally`, leaving the engine's process group
        # behind (it runs in its own session). Treat it as Ctrl-C: KeyboardInterrupt unwinds
        # through Hypothesis (which would catch SystemExit as a test failure) and close() runs.
        previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        yield client
    finally:
        client.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def response_body(response: Mapping[str, Any]) -> dict[str, Any]:
    """A response without its envelope (id, type), for comparison and display."""
    return {k: v for k, v in response.items() if k not in ("id", "type")}
