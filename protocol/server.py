"""The reference engine behind the protocol: `535-check serve`, and the in-process plug-in.

`ReferenceEngine.handle(request) -> response` is the whole server; `serve()` only moves JSON lines
between a stream pair and `handle`. The same object is a valid in-process engine
(`--engine python:five35.protocol.server:reference_engine`), so the protocol is tested against the
reference itself both over a pipe and in-process.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

from five35.engine import Game, IllegalMove, Move, State
from five35.spec import Ruleset, load_spec
from five35.spec.limits import MAX_DEPTH, InputLimitError, load_json

from .messages import (
    DEAL_FIELDS,
    PROTOCOL_VERSION,
    REQUEST_TYPES,
    ProtocolViolation,
    check_request,
    encode,
    event_json,
    move_from_json,
    move_json,
    pile_json,
    read_deal,
)

REFERENCE_NAME = "five35 reference engine"


def state_json(game: Game, state: State) -> dict[str, Any]:
    """The protocol's `state` object for a reference State."""
    cards = game.codec.cards
    return {
        "players": state.players,
        "phase": state.phase,
        # After the round the reference keeps the seat that went out; the protocol says nobody moves.
        "to_move": state.to_move if state.phase == "play" else None,
        "hands": [cards(h) for h in state.hands],
        "pile": pile_json(state.pile),
        "trick": [{"player": p.player, **move_json(p.move)} for p in state.trick],
        "passed": [p for p in range(state.players) if state.has_passed(p)],
        "cleared": cards(state.cleared),
        "aside": cards(state.aside),
        "scores": list(state.scores),
    }


def legal_json(game: Game, state: State) -> dict[str, Any]:
    """The body of a `legal` answer: who moves and every legal move."""
    return {
        "to_move": state.to_move if state.phase == "play" else None,
        "moves": [move_json(m) for m in game.legal_moves(state)],
    }


class ReferenceEngine:
    """The reference engine under one ruleset, answering protocol requests."""

    def __init__(self, ruleset: Ruleset, name: str = REFERENCE_NAME) -> None:
        self.ruleset = ruleset
        self.name = name
        self._games: dict[int, Game] = {}
        self.game: Game | None = None
        self.state: State | None = None

    def game_for(self, players: int) -> Game:
        game = self._games.get(players)
        if game is None:
            game = self._games[players] = Game(self.ruleset, players)
        return game

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one request (already parsed from JSON). Never raises for bad input."""
        rid = request.get("id") if isinstance(request, Mapping) else None
        kind = request.get("type") if isinstance(request, Mapping) else None
        try:
            check_request(request)
            body = self._answer(request)
        except ProtocolViolation as exc:
            return _error(rid, kind, "bad_request", str(exc))
        except _Refused as exc:
            return _error(rid, kind, exc.code, exc.message)
        return {"id": rid, "type": kind, "ok": True, **body}

    def _answer(self, request: Mapping[str, Any]) -> dict[str, Any]:
        kind = request["type"]
        if kind == "hello":
            return {
                "name": self.name,
                "protocol": PROTOCOL_VERSION,
                "readings": self.ruleset.readings,
                "parameters": self.ruleset.to_json()["parameters"],
            }
        if kind == "new_round":
            return self._new_round(request)
        if kind == "quit":
            return {}
        if self.game is None or self.state is None:
            raise _Refused("no_round", "no round has been started (send new_round first)")
        if kind == "legal":
            return legal_json(self.game, self.state)
        if kind == "state":
            return {"state": state_json(self.game, self.state)}
        move = move_from_json(request["move"], "apply.move")
        return {"events": self._apply(self.game, self.state, move)}

    def _new_round(self, request: Mapping[str, Any]) -> dict[str, Any]:
        # The one deal check (the replay loader uses it too); ProtocolViolation is a bad_request.
        deal = {key: request[key] for key in DEAL_FIELDS}
        self.game, _, self.state = read_deal(deal, "new_round", self.ruleset, self.game_for)
        return {}

    def _apply(self, game: Game, state: State, move: Move) -> list[dict[str, Any]]:
        try:
            self.state, events = game.apply(state, move)
        except IllegalMove as exc:
            raise _Refused("illegal_move", str(exc)) from exc
        return [event_json(e) for e in events]


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _error(rid: Any, kind: Any, code: str, message: str) -> dict[str, Any]:
    # Only an id and a type that are valid are echoed: anything else is answered with null.
    return {
        "id": rid if type(rid) is int else None,
        "type": kind if isinstance(kind, str) and kind in REQUEST_TYPES else None,
        "ok": False,
        "error": {"code": code, "message": message},
    }


def reference_engine() -> ReferenceEngine:
    """In-process plug-in factory: the reference under the embedded spec's default profile."""
    return ReferenceEngine(load_spec().ruleset())


MAX_REQUEST_BYTES = 1 << 20  # a request line; the harness's largest (a new_round) is ~1 KB


def serve(
    engine: ReferenceEngine, stdin: BinaryIO, stdout: BinaryIO, max_bytes: int = MAX_REQUEST_BYTES
) -> int:
    """Answer JSON lines from `stdin` on `stdout` until end of input or `quit`; returns requests served.

    Every line is answered, an unreadable one (not JSON, not UTF-8, nested too deep, longer than
    `max_bytes`) with `bad_request` naming its line number; the server never stops on bad input."""
    served = 0
    number = 0
    while True:
        line = stdin.readline(max_bytes + 1)
        if not line:
            break
        number += 1
        request: Any = None
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the line, in bounded pieces
                line = stdin.readline(max_bytes + 1)
            response = _error(
                None, None, "bad_request", f"line {number}: over the limit of {max_bytes} bytes"
            )
        elif not line.strip():
            continue
        else:
            try:
                request = load_json(line, f"line {number}", max_bytes=max_bytes, max_depth=MAX_DEPTH)
            except InputLimitError as exc:
                response = _error(None, None, "bad_request", str(exc))
            else:
                response = (
                    engine.handle(request)
                    if isinstance(request, dict)
                    else _error(None, None, "bad_request", f"line {number}: expected a JSON object")
                )
        stdout.write(encode(response))
        stdout.flush()
        served += 1
        if isinstance(request, dict) and request.get("type") == "quit" and response["ok"]:
            break
    return served
