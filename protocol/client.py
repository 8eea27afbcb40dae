"""The harness side of the protocol: drive an engine subprocess, or a Python engine in-process.

An engine that crashes, hangs, writes something that is not one JSON object per line, writes too
much or too deep, or answers out of turn raises `EngineFault` naming the request and carrying the
transcript of the last exchanges; the subprocess (its whole process group) is always killed by
`close()`. A Python engine runs in a worker thread under the same per-request timeout.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import tempfile
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from ..engine import Move
from ..spec import SpecError
from ..spec.limits import MAX_DEPTH, InputLimitError, load_json
from .messages import (
    PROTOCOL_VERSION,
    ProtocolViolation,
    check_response,
    encode,
    lone_surrogate,
    move_json,
    quick_loads,
    request_line,
)

FaultKind = Literal["start", "crash", "timeout", "malformed", "oversized", "protocol"]
DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_LINE = 1 << 20
TRANSCRIPT_LINES = 24
SHOWN_CHARS = 400


class EngineFault(Exception):
    """The engine under test misbehaved (as opposed to disagreeing about the rules).

    `request` is the (number, type) of the request whose answer went wrong, when there is one;
    `str()` is one line: `engine fault (timeout) at request 17 (apply): no answer within 2 s`."""

    def __init__(
        self,
        kind: FaultKind,
        message: str,
        transcript: tuple[str, ...] = (),
        request: tuple[int, str] | None = None,
    ) -> None:
        message = one_line(message)
        at = f" at request {request[0]} ({request[1]})" if request else ""
        super().__init__(f"engine fault ({kind}){at}: {message}")
        self.kind = kind
        self.message = message
        self.transcript = transcript
        self.request = request

    def to_json(self) -> dict[str, Any]:
        request = {"id": self.request[0], "type": self.request[1]} if self.request else None
        return {
            "kind": self.kind,
            "request": request,
            "message": self.message,
            "transcript": list(self.transcript),
        }


def one_line(text: str, limit: int = 600) -> str:
    """`text` as one printable line: an engine's words (its error messages, its stderr) can hold
    newlines and control characters, and a fault is reported on a single line."""
    flat = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") else ch for ch in text)
    flat = " ".join(flat.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class InProcessEngineObject(Protocol):
    """What a `python:module:factory` factory returns (see docs/protocol.md)."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any]: ...


def _request(message: Mapping[str, Any]) -> tuple[int, str]:
    return (int(message["id"]), str(message["type"]))


def _shown_line(direction: str, raw: bytes) -> str:
    text = raw.rstrip(b"\n").decode("utf-8", "replace")
    shown = text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + f"... ({len(text)} chars)"
    return f"{direction} {shown}"


def _same_json(raw: bytes, answer: Any, message: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """Whether the parsed `answer` is the reference's answer `expected` (plus the envelope) as
    JSON: the same values and the same JSON types.

    Python's == sees the JSON value true as the integer 1, so equality alone is not enough. The
    fast path admits no numbers but integers, and the reference's bodies hold no boolean but
    `"ok": true` and no string with "true" or "false" in it: so when the answer's text has exactly
    one `true`, no `false`, and its "ok" is True, equal values are also equal types."""
    if raw.count(b"true") != 1 or b"false" in raw or expected.get("ok") is not True:
        return False
    if type(answer) is not dict or answer.get("ok") is not True:
        return False
    return answer == {"id": message["id"], "type": message["type"], **expected}


@dataclass(frozen=True)
class Posted:
    """A batch of requests sent to an engine, its answers not yet read (EngineClient.post)."""

    messages: list[dict[str, Any]]
    lines: list[bytes]
    tables: list[int | None]  # the player count each request belongs to
    expected: Sequence[Mapping[str, Any] | None]


class EngineClient:
    """One engine session: numbered requests, validated responses, a transcript.

    Subclasses move bytes: `_send` hands a batch of requests (each already encoded as one JSON
    line) to the engine, `_answer` returns the raw answer line to one of them within the timeout.
    Parsing (with the size and depth limits of five35.spec.limits) and validation are the same for
    every kind of engine."""

    label: str = "engine"
    timeout: float = DEFAULT_TIMEOUT
    max_line: int = DEFAULT_MAX_LINE

    def __init__(self) -> None:
        self._next_id = 1
        self.requests = 0
        self.players: int | None = None  # the table of the last new_round sent
        self._posted: deque[Posted] = deque()  # batches sent and not yet collected
        # (direction, line): formatted only when a fault shows the transcript.
        self._transcript: deque[tuple[str, bytes]] = deque(maxlen=TRANSCRIPT_LINES)

    @property
    def transcript(self) -> tuple[str, ...]:
        return tuple(_shown_line(direction, raw) for direction, raw in self._transcript)

    def fault(self, kind: FaultKind, message: str, request: Mapping[str, Any] | None = None) -> EngineFault:
        return EngineFault(kind, message, self.transcript, _request(request) if request else None)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return the validated response (ok true or false)."""
        return self.batch([(kind, fields)])[0]

    def batch(self, requests: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """Send several requests at once (pipelined), then read their responses in order.

        The engine still answers one request at a time; pipelining only saves the round trips.
        Each answer is parsed and validated as it arrives, so a fault names the first bad answer.
        """
        return self.exchange(requests, ())  # type: ignore[return-value]

    def exchange(
        self, requests: list[tuple[str, dict[str, Any]]], expected: Sequence[Mapping[str, Any] | None]
    ) -> list[dict[str, Any] | None]:
        """`batch`, told what the reference answers: `expected[i]` is the body (no id, no type) of
        the reference's answer to request i, or None when there is none to compare with.

        An answer that is exactly that JSON (the same values of the same JSON types) is returned
        as None and is not validated again: the reference's answers are valid by construction.
        Every other answer is validated as by `batch`, in order, so a malformed answer is a fault
        wherever it is in the batch, before the caller compares anything."""
        return self.collect(self.post(requests, expected))

    def post(
        self, requests: list[tuple[str, dict[str, Any]]], expected: Sequence[Mapping[str, Any] | None] = ()
    ) -> Posted:
        """Send a batch without waiting for its answers: `collect` reads them, batches in the
        order they were posted. The engine answers one batch while the caller prepares the next."""
        messages: list[dict[str, Any]] = []
        lines: list[bytes] = []
        tables = []
        for kind, fields in requests:
            message = {"id": self._next_id, "type": kind, **fields}
            self._next_id += 1
            if kind == "new_round" and type(fields.get("players")) is int:
                self.players = fields["players"]
            tables.append(self.players)
            messages.append(message)
            lines.append(request_line(message))
        self.requests += len(messages)
        posted = Posted(messages, lines, tables, expected)
        # The transcript pairs each request with its answer (a batch of a hundred requests would
        # otherwise push the answers out of it): a request is noted when its answer is awaited, or
        # when sending fails, so that a fault's transcript ends with the request it names.
        try:
            self._send(messages, lines)
        except EngineFault as fault:
            self._transcript.append((">", lines[0]))
            raise EngineFault(fault.kind, fault.message, self.transcript, fault.request) from None
        self._posted.append(posted)
        return posted

    def collect(self, posted: Posted) -> list[dict[str, Any] | None]:
        """The answers to a posted batch (see `exchange`); every earlier batch must be collected."""
        if not self._posted or self._posted[0] is not posted:
            raise ValueError("batches are collected in the order they were posted")
        self._posted.popleft()
        note = self._transcript.append
        out: list[dict[str, Any] | None] = []
        expected = posted.expected
        for i, message in enumerate(posted.messages):
            note((">", posted.lines[i]))
            body = expected[i] if i < len(expected) else None
            out.append(self._receive(message, self._answer(message), posted.tables[i], body))
        return out

    def _receive(
        self,
        message: dict[str, Any],
        raw: bytes,
        players: int | None,
        expected: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        self._transcript.append(("<", raw))
        try:
            answer = quick_loads(raw, self.max_line)
        except ValueError:
            answer = self._load_exactly(message, raw)
        else:
            if expected is not None and _same_json(raw, answer, message, expected):
                return None
        if b"\\u" in raw:
            bad = lone_surrogate(answer)
            if bad is not None:
                raise self.fault(
                    "malformed",
                    f"the answer: {bad}: a lone surrogate escape (\\ud800-\\udfff) is not Unicode text",
                    message,
                )
        try:
            check_response(message, answer, players)
        except ProtocolViolation as exc:
            raise self.fault("protocol", str(exc), message) from None
        return answer  # type: ignore[no-any-return]

    def _load_exactly(self, message: dict[str, Any], raw: bytes) -> Any:
        """The answer read by load_json: its limits, its messages (the fast path declined it)."""
        try:
            return load_json(raw, "the answer", max_bytes=self.max_line, max_depth=MAX_DEPTH)
        except InputLimitError as exc:
            raise self.fault("malformed", f"the answer: {exc.message}", message) from None

    def _send(self, messages: list[dict[str, Any]], lines: list[bytes]) -> None:
        raise NotImplementedError

    def _answer(self, message: dict[str, Any]) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        """Release the engine. Safe to call twice. An engine that fails to close (its close()
        raises or hangs) raises EngineFault after it has been released."""

    # ---- the protocol's requests ---------------------------------------------------------------

    def expect_ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        response = self.request(kind, **fields)
        if not response["ok"]:
            error = response["error"]
            raise self.fault(
                "protocol",
                f"{kind} was refused: {error['code']}: {error['message']}",
                {"id": response["id"], "type": kind},
            )
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
        self._waiting: deque[dict[str, Any]] = deque()  # the requests sent, not yet answered
        self._cut = False  # an answer line over the limit was cut off after the whole lines buffered
        self._ended: str | None = None  # what the engine was doing when its stdout ended
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

    def _died(self, doing: str, message: Mapping[str, Any] | None) -> EngineFault:
        try:
            code = self.proc.wait(timeout=1.0)
            how = f"exit code {code}" if code >= 0 else f"killed by signal {-code}"
        except subprocess.TimeoutExpired:
            how = "stdout closed"
        return self.fault("crash", f"the engine died while {doing} ({how}){self._stderr_tail()}", message)

    def _send(self, messages: list[dict[str, Any]], lines: list[bytes]) -> None:
        if self._closed:
            raise self.fault("crash", "the engine was already closed", messages[0])
        self._waiting.extend(messages)
        self._write(b"".join(lines), time.monotonic() + self.timeout, messages)

    def _answer(self, message: dict[str, Any]) -> bytes:
        # Each answer gets the full timeout, counted from the previous answer.
        raw = self._read_line(time.monotonic() + self.timeout)
        self._waiting.popleft()
        return raw

    def _write(self, data: bytes, deadline: float, messages: list[dict[str, Any]]) -> None:
        """Write a batch, reading answers meanwhile: an engine blocked on a full stdout pipe
        stops reading its stdin, so writing alone could wait for ever."""
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._in, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                # The answers it gave before it died are read (and checked) first.
                self._ended = self._ended or "reading its input"
                return
            view = view[written:]
            if written:
                deadline = time.monotonic() + self.timeout
            if not view:
                return
            remaining = deadline - time.monotonic()
            readable, writable, _ = select.select([self._out], [self._in], [], max(remaining, 0))
            if readable:
                self._drain()
                if self._ended is not None or self._cut:
                    return  # no answer past that point can matter: the batch ends in a fault there
                deadline = time.monotonic() + self.timeout
            elif not writable:
                raise self.fault(
                    "timeout", f"the engine stopped reading its input for {self.timeout:g} s", messages[0]
                )

    def _drain(self) -> None:
        """Read what the engine wrote (the buffer holds the answers to the requests waiting, in
        order).

        The end of the stream and a line over the limit are noted, not raised: the whole answers
        before them are read and checked first, in order, so that a fault names the first bad
        answer. A line over the limit is cut off and nothing more is read."""
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            self._ended = self._ended or "answering"
            return
        self._buffer += chunk
        tail = self._buffer.rfind(b"\n") + 1
        if len(self._buffer) - tail > self.max_line:
            self._cut = True
            del self._buffer[tail:]

    def _read_line(self, deadline: float) -> bytes:
        """The answer line to the first request waiting for one."""
        message = self._waiting[0]
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                if end > self.max_line:
                    raise self.fault(
                        "oversized", f"the answer has {end} bytes, over {self.max_line}", message
                    )
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return raw
            if self._cut:  # the line cut off in _drain: this answer's
                raise self.fault("oversized", f"an answer line exceeds {self.max_line} bytes", message)
            if self._ended is not None:
                raise self._died(self._ended, message)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._out], [], [], remaining)[0]:
                raise self.fault("timeout", f"no answer within {self.timeout:g} s", message)
            self._drain()

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


# ---- Python engines in-process -----------------------------------------------------------------


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


def open_engine(
    target: str, timeout: float = DEFAULT_TIMEOUT, max_line: int = DEFAULT_MAX_LINE
) -> EngineClient:
    """`--engine` value -> a client: `python:MODULE:FACTORY` in-process, anything else a command line."""
    if target.startswith("python:"):
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


def response_body(response: Mapping[str, Any]) -> dict[str, Any]:
    """A response without its envelope (id, type), for comparison and display."""
    return {k: v for k, v in response.items() if k not in ("id", "type")}
