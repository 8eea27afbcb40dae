"""One engine session, whatever the engine: numbered requests, their answers parsed within the size
and depth limits and validated, and a transcript of the last exchanges for a fault to show.

An engine that crashes, hangs, writes something that is not one JSON object per line, writes too
much or too deep, or answers out of turn raises `EngineFault` naming the request and carrying the
transcript. How the bytes reach the engine is a subclass's: a subprocess (subprocess_engine.py) or
a Python object in a worker thread (inprocess_engine.py); client.py opens either from `--engine`.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..engine import Move
from ..spec.limits import MAX_DEPTH, InputLimitError, load_json
from .messages import (
    PROTOCOL_VERSION,
    ProtocolViolation,
    check_response,
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


def response_body(response: Mapping[str, Any]) -> dict[str, Any]:
    """A response without its envelope (id, type), for comparison and display."""
    return {k: v for k, v in response.items() if k not in ("id", "type")}
