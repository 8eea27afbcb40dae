"""The 535 engine protocol, version 1: message shapes and their validation.

JSON Lines: the harness writes one request object per line to the engine's stdin, the engine
writes exactly one response object per line to its stdout. Every request carries an integer `id`
and a `type`; the response echoes both and says `ok`. docs/protocol.md is the prose definition and
schemas/*.json the machine-readable one; the hand-written checks here mirror those schemas so that
the harness does not pay for a schema validator on every step (tests keep the two in agreement).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from five35.engine import ACTIONS, Event, MatchEnd, Move, Pile, RoundEnd, TrickEnd

PROTOCOL_VERSION = 1
REQUEST_TYPES = ("hello", "new_round", "legal", "apply", "state", "quit")
ERROR_CODES = ("illegal_move", "bad_request", "no_round")
TRICK_REASONS = ("all_passed", "rule_of_8", "run_closed", "set_closed")
PHASES = ("play", "round_over", "match_over")
PILE_KINDS = ("single", "set", "run")
STATE_FIELDS = (
    "players",
    "phase",
    "to_move",
    "hands",
    "pile",
    "trick",
    "passed",
    "cleared",
    "aside",
    "scores",
)


class ProtocolViolation(ValueError):
    """A message that breaks the protocol; `str()` names the field."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One JSON line, compact: the wire form of a message."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with the package: `requests`, `responses` or `replay`."""
    text = resources.files("five35.protocol").joinpath(f"schemas/{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# ---- conversions between engine values and protocol JSON --------------------------------------


def move_json(move: Move) -> dict[str, Any]:
    return {"action": move.action, "cards": sorted(move.cards)}


def move_from_json(data: Any, where: str = "move") -> Move:
    """A Move from its protocol form; raises ProtocolViolation naming `where`."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    action = data.get("action")
    if action not in ACTIONS:
        raise ProtocolViolation(f"{where}.action: expected one of {', '.join(ACTIONS)}, got {action!r}")
    cards = _cards(data.get("cards"), f"{where}.cards")
    if action == "pass" and cards:
        raise ProtocolViolation(f"{where}.cards: a pass places no cards")
    if action != "pass" and not cards:
        raise ProtocolViolation(f"{where}.cards: a {action} places at least one card")
    return Move(action, tuple(cards))


def move_key(data: Mapping[str, Any]) -> tuple[str, tuple[int, ...]]:
    """A hashable key for a protocol move (for comparing move sets)."""
    return (str(data["action"]), tuple(data["cards"]))


def pile_json(pile: Pile | None) -> dict[str, Any] | None:
    # Cards are sorted on the wire even for runs: kind plus sorted cards names the pile uniquely.
    return None if pile is None else {"kind": pile.kind, "cards": sorted(pile.cards)}


def event_json(event: Event) -> dict[str, Any]:
    if isinstance(event, TrickEnd):
        return {"event": "trick_end", "winner": event.winner, "reasons": sorted(event.reasons)}
    if isinstance(event, RoundEnd):
        return {
            "event": "round_end",
            "went_out": event.went_out,
            "penalties": list(event.penalties),
            "scores": list(event.scores),
        }
    assert isinstance(event, MatchEnd)
    return {"event": "match_end", "scores": list(event.scores), "winners": sorted(event.winners)}


# ---- validation of responses (what the harness receives) --------------------------------------


def _kind(value: Any) -> str:
    return type(value).__name__ if value is not None else "null"


def _int(value: Any, where: str, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolViolation(f"{where}: expected an integer, got {_kind(value)}")
    if low is not None and value < low:
        raise ProtocolViolation(f"{where}: expected an integer >= {low}, got {value}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ProtocolViolation(f"{where}: expected a list, got {_kind(value)}")
    return value


def _cards(value: Any, where: str) -> list[int]:
    cards = [_int(c, f"{where}[{i}]", 1) for i, c in enumerate(_list(value, where))]
    if cards != sorted(cards):
        raise ProtocolViolation(f"{where}: card lists must be sorted, got {cards}")
    return cards


def _naturals(value: Any, where: str) -> list[int]:
    return [_int(v, f"{where}[{i}]", 0) for i, v in enumerate(_list(value, where))]


def _fields(data: Mapping[str, Any], where: str, required: Sequence[str]) -> None:
    missing = [f for f in required if f not in data]
    if missing:
        raise ProtocolViolation(f"{where}: missing field(s) {', '.join(missing)}")


def _pile(value: Any, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise ProtocolViolation(f"{where}: expected an object or null, got {_kind(value)}")
    _fields(value, where, ("kind", "cards"))
    if value["kind"] not in PILE_KINDS:
        raise ProtocolViolation(f"{where}.kind: expected single, set or run, got {value['kind']!r}")
    if not _cards(value["cards"], f"{where}.cards"):
        raise ProtocolViolation(f"{where}.cards: a pile holds at least one card")


def check_event(data: Any, where: str) -> None:
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    kind = data.get("event")
    if kind == "trick_end":
        _fields(data, where, ("winner", "reasons"))
        _int(data["winner"], f"{where}.winner", 0)
        reasons = _list(data["reasons"], f"{where}.reasons")
        for i, r in enumerate(reasons):
            if r not in TRICK_REASONS:
                raise ProtocolViolation(f"{where}.reasons[{i}]: unknown reason {r!r}")
        if reasons != sorted(set(reasons)) or not reasons:
            raise ProtocolViolation(f"{where}.reasons: expected a non-empty sorted list without repeats")
    elif kind == "round_end":
        _fields(data, where, ("went_out", "penalties", "scores"))
        _int(data["went_out"], f"{where}.went_out", 0)
        _naturals(data["penalties"], f"{where}.penalties")
        _naturals(data["scores"], f"{where}.scores")
    elif kind == "match_end":
        _fields(data, where, ("scores", "winners"))
        _naturals(data["scores"], f"{where}.scores")
        winners = _naturals(data["winners"], f"{where}.winners")
        if winners != sorted(set(winners)):
            raise ProtocolViolation(f"{where}.winners: expected sorted seats without repeats")
    else:
        raise ProtocolViolation(f"{where}.event: expected trick_end, round_end or match_end, got {kind!r}")


def check_state(data: Any, where: str = "state") -> None:
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    _fields(data, where, STATE_FIELDS)
    _int(data["players"], f"{where}.players", 2)
    if data["phase"] not in PHASES:
        raise ProtocolViolation(f"{where}.phase: expected play, round_over or match_over")
    if data["to_move"] is not None:
        _int(data["to_move"], f"{where}.to_move", 0)
    for i, hand in enumerate(_list(data["hands"], f"{where}.hands")):
        _cards(hand, f"{where}.hands[{i}]")
    _pile(data["pile"], f"{where}.pile")
    for i, play in enumerate(_list(data["trick"], f"{where}.trick")):
        _fields(play if isinstance(play, dict) else {}, f"{where}.trick[{i}]", ("player", "action", "cards"))
        _int(play["player"], f"{where}.trick[{i}].player", 0)
        move_from_json(play, f"{where}.trick[{i}]")
    passed = _naturals(data["passed"], f"{where}.passed")
    if passed != sorted(set(passed)):
        raise ProtocolViolation(f"{where}.passed: expected sorted seats without repeats")
    _cards(data["cleared"], f"{where}.cleared")
    _cards(data["aside"], f"{where}.aside")
    _naturals(data["scores"], f"{where}.scores")


def check_response(request: Mapping[str, Any], response: Any) -> None:
    """Raise ProtocolViolation unless `response` is a well-formed answer to `request`."""
    if not isinstance(response, dict):
        raise ProtocolViolation(f"response: expected a JSON object, got {_kind(response)}")
    if response.get("id") != request["id"]:
        raise ProtocolViolation(f"response.id: expected {request['id']}, got {response.get('id')!r}")
    kind = request["type"]
    if response.get("type") != kind:
        raise ProtocolViolation(f"response.type: expected {kind!r}, got {response.get('type')!r}")
    ok = response.get("ok")
    if ok is False:
        error = response.get("error")
        if not isinstance(error, dict) or error.get("code") not in ERROR_CODES:
            raise ProtocolViolation(f"response.error.code: expected one of {', '.join(ERROR_CODES)}")
        if not isinstance(error.get("message"), str):
            raise ProtocolViolation("response.error.message: expected a string")
        return
    if ok is not True:
        raise ProtocolViolation(f"response.ok: expected true or false, got {ok!r}")
    if kind == "hello":
        _fields(response, "hello", ("name", "protocol", "readings", "parameters"))
        if not isinstance(response["name"], str):
            raise ProtocolViolation("hello.name: expected a string")
        if response["protocol"] != PROTOCOL_VERSION:
            raise ProtocolViolation(
                f"hello.protocol: the harness speaks version {PROTOCOL_VERSION}, "
                f"the engine {response['protocol']!r}"
            )
        readings = response["readings"]
        if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
            raise ProtocolViolation("hello.readings: expected an object of variation point -> reading")
        if not isinstance(response["parameters"], dict):
            raise ProtocolViolation("hello.parameters: expected an object")
    elif kind == "legal":
        _fields(response, "legal", ("to_move", "moves"))
        if response["to_move"] is not None:
            _int(response["to_move"], "legal.to_move", 0)
        seen: set[tuple[str, tuple[int, ...]]] = set()
        for i, move in enumerate(_list(response["moves"], "legal.moves")):
            parsed = move_from_json(move, f"legal.moves[{i}]")
            key = (parsed.action, parsed.cards)
            if key in seen:
                raise ProtocolViolation(f"legal.moves[{i}]: move '{parsed}' is listed twice")
            seen.add(key)
    elif kind == "apply":
        for i, event in enumerate(_list(response.get("events"), "apply.events")):
            check_event(event, f"apply.events[{i}]")
    elif kind == "state":
        check_state(response.get("state"))


# ---- validation of requests (what an engine receives) -----------------------------------------


def check_request(data: Any) -> dict[str, Any]:
    """The request if well-formed; raises ProtocolViolation otherwise (the reference server uses it)."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"request: expected a JSON object, got {_kind(data)}")
    _int(data.get("id"), "request.id")
    kind = data.get("type")
    if kind not in REQUEST_TYPES:
        raise ProtocolViolation(f"request.type: expected one of {', '.join(REQUEST_TYPES)}, got {kind!r}")
    if kind == "hello":
        _int(data.get("protocol"), "hello.protocol", 1)
    elif kind == "new_round":
        _fields(data, "new_round", ("players", "hands", "leader", "scores"))
        players = _int(data["players"], "new_round.players", 1)
        hands = _list(data["hands"], "new_round.hands")
        for i, hand in enumerate(hands):
            _cards(hand, f"new_round.hands[{i}]")
        _int(data["leader"], "new_round.leader", 0)
        scores = _naturals(data["scores"], "new_round.scores")
        if len(hands) != players or len(scores) != players:
            raise ProtocolViolation("new_round: hands and scores need one entry per player")
    elif kind == "apply":
        move_from_json(data.get("move"), "apply.move")
    return data
