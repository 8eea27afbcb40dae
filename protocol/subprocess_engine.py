"""An engine program started from a command line, driven over JSON Lines on its stdin and stdout.

It runs in its own process group (session), so that `close()` kills it together with anything it
started; its stderr goes to an anonymous temporary file, whose last line a crash report shows.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from ..spec import SpecError
from .engine_client import DEFAULT_MAX_LINE, DEFAULT_TIMEOUT, EngineClient, EngineFault
from .messages import encode


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
