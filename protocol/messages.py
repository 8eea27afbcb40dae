"""The 535 engine protocol, version 1: message shapes and their validation.

JSON Lines: the harness writes one request object per line to the engine's stdin, the engine
writes exactly one response object per line to its stdout. Every request carries an integer `id`
and a `type`; the response echoes both and says `ok`. docs/protocol.md is the prose definition and
schemas/*.json the machine-readable one; the hand-written checks here mirror those schemas so that
the harness does not pay for a schema validator on every step (tests keep the two in agreement).
"""

from __future__ import annotations

import contextlib
import gc
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

from ..engine import ACTIONS, Event, MatchEnd, Move, Pile, Position, RoundEnd, State, TrickEnd
from ..engine.cards import DealError
from ..engine.engines import Engine
from ..spec import Ruleset
from ..spec.limits import MAX_DEPTH

PROTOCOL_VERSION = 1
REQUEST_TYPES = ("hello", "new_round", "legal", "apply", "state", "quit")
ERROR_CODES = ("illegal_move", "bad_request", "no_round")
TRICK_REASONS = ("all_passed", "rule_of_8", "run_closed", "set_closed")
PHASES = ("play", "round_over", "match_over")
PILE_KINDS = ("single", "set", "run")
_KIND_NAME = re.compile(r"[a-z_][a-z0-9_]*")
DEAL_FIELDS = ("players", "hands", "leader", "scores")
#: The fields each request type may carry (the request schema's additionalProperties: false).
REQUEST_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol",),
    "new_round": DEAL_FIELDS,
    "legal": (),
    "apply": ("move",),
    "state": (),
    "quit": (),
}
#: The fields of each answer besides id, type and ok: one rule for unknown fields in both directions,
#: an engine refuses a request with another field (bad_request), the harness an answer (a fault).
RESPONSE_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset(("name", "protocol", "readings", "parameters")),
    "new_round": frozenset(),
    "legal": frozenset(("to_move", "moves")),
    "apply": frozenset(("events",)),
    "state": frozenset(("state",)),
    "quit": frozenset(),
}
ENVELOPE = frozenset(("id", "type", "ok"))
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "trick_end": frozenset(("event", "winner", "reasons")),
    "round_end": frozenset(("event", "went_out", "penalties", "scores")),
    "match_end": frozenset(("event", "scores", "winners")),
}
SHOWN = 80  # characters of an offending value quoted in a message
PILE_FIELDS = frozenset(("kind", "cards"))
MOVE_FIELDS = frozenset(("action", "cards"))
PLAY_FIELDS = frozenset(("player", "action", "cards"))
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


_STATE_KEYS = frozenset(STATE_FIELDS)
_ERROR_KEYS = frozenset(("code", "message"))
_ERROR_ANSWER = ENVELOPE | {"error"}
_ANSWER_KEYS = {kind: ENVELOPE | fields for kind, fields in RESPONSE_FIELDS.items()}


class ProtocolViolation(ValueError):
    """A message that breaks the protocol; `str()` names the field."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One JSON line, compact: the wire form of a message."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError:
        # A lone surrogate (from a "\ud800" escape) has no UTF-8 form; escaped, it stays valid JSON.
        return json.dumps(message, separators=(",", ":")).encode() + b"\n"


# ---- the fast path for reading JSON lines --------------------------------------------------------

# A JSON string (escapes included) in UTF-8 bytes: multi-byte characters never hold an ASCII byte.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_INNERMOST = re.compile(rb"\[\]|\{\}")


class SlowPath(ValueError):
    """`quick_loads` cannot vouch for this text: read it with five35.spec.limits.load_json, which
    gives the one-line message for whatever is wrong with it (or parses what is merely unusual)."""


def shallow(raw: bytes, max_depth: int = MAX_DEPTH) -> bool:
    """True when `raw` provably nests no deeper than `max_depth`, in C-speed passes; False when it
    may (then the exact, character by character `json_depth` decides).

    No more opening brackets than the limit settles it at once. Otherwise the strings are cut out
    (the same tokens JSON reads, up to the first point the text stops being JSON), every byte but
    the brackets dropped, and the innermost `[]`/`{}` pairs removed once per pass: a well-nested
    skeleton is gone after exactly as many passes as it is deep, and anything else (unbalanced,
    mismatched, too deep) is left over."""
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return True
    skeleton = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    for _ in range(max_depth):
        if not skeleton:
            return True
        stripped = _INNERMOST.sub(b"", skeleton)
        if len(stripped) == len(skeleton):
            return False
        skeleton = stripped
    return not skeleton


def _refuse_number(text: str) -> Any:
    # No protocol message holds a fraction, an exponent, NaN or Infinity: let load_json judge it.
    raise SlowPath(text)


_DECODER = json.JSONDecoder(parse_float=_refuse_number, parse_constant=_refuse_number)


def quick_loads(raw: bytes, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """A JSON line parsed without `load_json`'s character-by-character depth scan, when that is
    safe: UTF-8, within `max_bytes`, provably within `max_depth`, no non-integer numbers. Raises
    SlowPath (or another ValueError) otherwise; the caller then calls load_json, so every message
    about bad input stays load_json's."""
    if len(raw) > max_bytes or not shallow(raw, max_depth):
        raise SlowPath("needs the exact checks")
    return _DECODER.decode(raw.decode("utf-8"))


#: Allocations between two young-generation collections while fuzzing or serving (Python: 700).
GC_THRESHOLD = 10_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect the young generation every GC_THRESHOLD allocations instead of every 700.

    A fuzz run or a serve session allocates millions of short-lived objects (answers, states,
    Hypothesis's choices) that reference counting frees at once; at the default threshold the
    cycle collector's passes over the long-lived ones (the reference's caches, Hypothesis's tree
    of examples) took about a fifth of the harness's time. The old thresholds are restored."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


_BARE = {kind: kind.encode() for kind in ("legal", "state", "quit")}
_ACTION_BYTES = {action: action.encode() for action in ACTIONS}
_BARE_KEYS, _APPLY_KEYS, _MOVE_KEYS = ["id", "type"], ["id", "type", "move"], ["action", "cards"]


def request_line(message: Mapping[str, Any]) -> bytes:
    """`encode(message)` for a request, the common shapes (legal, state, quit, an apply of a
    well-formed move) written directly: the harness sends tens of thousands per second. The bytes
    are exactly encode()'s (tests/protocol/test_protocol.py compares them)."""
    rid, kind = message["id"], message["type"]
    if type(rid) is int and list(message) == _BARE_KEYS and kind in _BARE:
        return b'{"id":%d,"type":"%s"}\n' % (rid, _BARE[kind])
    move = message.get("move")
    if type(rid) is int and kind == "apply" and list(message) == _APPLY_KEYS and type(move) is dict:
        action, cards = move.get("action"), move.get("cards")
        if (
            list(move) == _MOVE_KEYS
            and action in _ACTION_BYTES
            and type(cards) is list
            and all(type(c) is int for c in cards)
        ):
            listed = ",".join(map(str, cards)).encode()
            return b'{"id":%d,"type":"apply","move":{"action":"%s","cards":[%s]}}\n' % (
                rid,
                _ACTION_BYTES[action],
                listed,
            )
    return encode(message)


def lone_surrogate(value: Any) -> str | None:
    """The key path (`name`, `moves[0].cards`) of the first string or object key in `value` that
    holds a lone surrogate: JSON can escape one ("\\ud800") but it is not Unicode text, so it
    can be neither printed nor written as UTF-8. None when there is none."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return path or "(top)"
        elif isinstance(item, dict):
            for key, sub in item.items():
                name = key if isinstance(key, str) and key.isidentifier() else shown(key)
                inner = f"{path}.{name}" if path else name
                stack.extend(((f"{inner} (the key)", key), (inner, sub)))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", sub) for i, sub in enumerate(item))
    return None


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
    if not isinstance(action, str) or action not in ACTIONS:
        raise ProtocolViolation(f"{where}.action: expected one of {', '.join(ACTIONS)}, got {shown(action)}")
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


def shown(value: Any) -> str:
    """An engine-supplied value quoted in a message: repr (escapes newlines), cut to SHOWN chars."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _int(value: Any, where: str, low: int | None = None) -> int:
    # Booleans are never integers on the wire (Python's True == 1 would make `"id": true` id 1).
    if type(value) is not int:
        raise ProtocolViolation(f"{where}: expected an integer, got {_kind(value)}")
    if low is not None and value < low:
        raise ProtocolViolation(f"{where}: expected an integer >= {low}, got {value}")
    return value


def _seat(value: Any, where: str, players: int | None) -> int:
    seat = _int(value, where, 0)
    if players is not None and seat >= players:
        raise ProtocolViolation(f"{where}: seat {seat} is not at the table (seats 0-{players - 1})")
    return seat


def _seats(value: Any, where: str, players: int | None) -> list[int]:
    seats = [_seat(v, f"{where}[{i}]", players) for i, v in enumerate(_list(value, where))]
    if seats != sorted(set(seats)):
        raise ProtocolViolation(f"{where}: expected sorted seats without repeats")
    return seats


def _per_seat(value: Any, where: str, players: int | None) -> list[Any]:
    items = _list(value, where)
    if players is not None and len(items) != players:
        raise ProtocolViolation(f"{where}: {len(items)} entries for {players} players (one per seat)")
    return items


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


def _only(data: Mapping[str, Any], where: str, allowed: frozenset[str]) -> None:
    if not data.keys() <= allowed:
        unknown = sorted(str(k) for k in data if k not in allowed)
        raise ProtocolViolation(f"{where}: unknown field(s) {', '.join(map(shown, unknown))}")


def _pile(value: Any, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise ProtocolViolation(f"{where}: expected an object or null, got {_kind(value)}")
    _fields(value, where, ("kind", "cards"))
    _only(value, where, PILE_FIELDS)
    kind = value["kind"]
    # 535's kinds, or a spec's own (a pile rule's `kind:`, a name of the rule language).
    if not (kind in PILE_KINDS or (isinstance(kind, str) and _KIND_NAME.fullmatch(kind))):
        raise ProtocolViolation(
            f"{where}.kind: expected a pile kind (single, set, run, ...), got {shown(kind)}"
        )
    if not _cards(value["cards"], f"{where}.cards"):
        raise ProtocolViolation(f"{where}.cards: a pile holds at least one card")


def check_event(data: Any, where: str, players: int | None = None) -> None:
    """One event of an `apply` answer; with `players`, every seat must be at the table and every
    per-seat list have one entry per seat."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    kind = data.get("event")
    if kind == "trick_end":
        _fields(data, where, ("winner", "reasons"))
        _seat(data["winner"], f"{where}.winner", players)
        reasons = _list(data["reasons"], f"{where}.reasons")
        for i, r in enumerate(reasons):
            if not isinstance(r, str) or r not in TRICK_REASONS:
                raise ProtocolViolation(f"{where}.reasons[{i}]: unknown reason {shown(r)}")
        if reasons != sorted(set(reasons)) or not reasons:
            raise ProtocolViolation(f"{where}.reasons: expected a non-empty sorted list without repeats")
    elif kind == "round_end":
        _fields(data, where, ("went_out", "penalties", "scores"))
        _seat(data["went_out"], f"{where}.went_out", players)
        _naturals(_per_seat(data["penalties"], f"{where}.penalties", players), f"{where}.penalties")
        _naturals(_per_seat(data["scores"], f"{where}.scores", players), f"{where}.scores")
    elif kind == "match_end":
        _fields(data, where, ("scores", "winners"))
        _naturals(_per_seat(data["scores"], f"{where}.scores", players), f"{where}.scores")
        if not _seats(data["winners"], f"{where}.winners", players):
            raise ProtocolViolation(f"{where}.winners: a match has at least one winner")
    else:
        raise ProtocolViolation(
            f"{where}.event: expected trick_end, round_end or match_end, got {shown(kind)}"
        )
    _only(data, where, EVENT_FIELDS[kind])


def check_state(data: Any, where: str = "state", players: int | None = None) -> None:
    """A `state` object; with `players` (the round's player count), seats and per-seat lists too."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    _fields(data, where, STATE_FIELDS)
    _only(data, where, _STATE_KEYS)
    count = _int(data["players"], f"{where}.players", 2)
    if players is not None and count != players:
        raise ProtocolViolation(f"{where}.players: the round has {players} players, the answer says {count}")
    if data["phase"] not in PHASES:
        raise ProtocolViolation(f"{where}.phase: expected play, round_over or match_over")
    if data["to_move"] is not None:
        _seat(data["to_move"], f"{where}.to_move", players)
    for i, hand in enumerate(_per_seat(data["hands"], f"{where}.hands", players)):
        _cards(hand, f"{where}.hands[{i}]")
    _pile(data["pile"], f"{where}.pile")
    for i, play in enumerate(_list(data["trick"], f"{where}.trick")):
        _fields(play if isinstance(play, dict) else {}, f"{where}.trick[{i}]", ("player", "action", "cards"))
        _seat(play["player"], f"{where}.trick[{i}].player", players)
        _only(play, f"{where}.trick[{i}]", PLAY_FIELDS)
        move_from_json(play, f"{where}.trick[{i}]")
    _seats(data["passed"], f"{where}.passed", players)
    _cards(data["cleared"], f"{where}.cleared")
    _cards(data["aside"], f"{where}.aside")
    _naturals(_per_seat(data["scores"], f"{where}.scores", players), f"{where}.scores")


def check_response(request: Mapping[str, Any], response: Any, players: int | None = None) -> None:
    """Raise ProtocolViolation unless `response` is a well-formed answer to `request`.

    `players` is the player count of the round the request belongs to (the last `new_round`
    sent), when there is one: a seat outside the table or a per-seat list of the wrong length can
    be no reading of the rules, so it is a protocol fault, never a divergence."""
    if not isinstance(response, dict):
        raise ProtocolViolation(f"response: expected a JSON object, got {_kind(response)}")
    rid = response.get("id")
    if type(rid) is not int or rid != request["id"]:
        raise ProtocolViolation(f"response.id: expected {request['id']}, got {shown(rid)}")
    kind = request["type"]
    if response.get("type") != kind:
        raise ProtocolViolation(f"response.type: expected {kind!r}, got {shown(response.get('type'))}")
    ok = response.get("ok")
    if ok is False:
        error = response.get("error")
        if not isinstance(error, dict) or not isinstance(error.get("code"), str):
            raise ProtocolViolation(f"response.error.code: expected one of {', '.join(ERROR_CODES)}")
        if error["code"] not in ERROR_CODES:
            raise ProtocolViolation(
                f"response.error.code: expected one of {', '.join(ERROR_CODES)}, got {shown(error['code'])}"
            )
        if not isinstance(error.get("message"), str):
            raise ProtocolViolation("response.error.message: expected a string")
        _only(error, "response.error", _ERROR_KEYS)
        _only(response, "response", _ERROR_ANSWER)
        return
    if ok is not True:
        raise ProtocolViolation(f"response.ok: expected true or false, got {shown(ok)}")
    if kind == "hello":
        _fields(response, "hello", ("name", "protocol", "readings", "parameters"))
        if not isinstance(response["name"], str):
            raise ProtocolViolation("hello.name: expected a string")
        if type(response["protocol"]) is not int or response["protocol"] != PROTOCOL_VERSION:
            raise ProtocolViolation(
                f"hello.protocol: the harness speaks version {PROTOCOL_VERSION}, "
                f"the engine {shown(response['protocol'])}"
            )
        readings = response["readings"]
        if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
            raise ProtocolViolation("hello.readings: expected an object of variation point -> reading")
        if not isinstance(response["parameters"], dict):
            raise ProtocolViolation("hello.parameters: expected an object")
    elif kind == "legal":
        _fields(response, "legal", ("to_move", "moves"))
        if response["to_move"] is not None:
            _seat(response["to_move"], "legal.to_move", players)
        seen: set[tuple[str, tuple[int, ...]]] = set()
        for i, move in enumerate(_list(response["moves"], "legal.moves")):
            parsed = move_from_json(move, f"legal.moves[{i}]")
            _only(move, f"legal.moves[{i}]", MOVE_FIELDS)
            key = (parsed.action, parsed.cards)
            if key in seen:
                raise ProtocolViolation(f"legal.moves[{i}]: move '{parsed}' is listed twice")
            seen.add(key)
    elif kind == "apply":
        for i, event in enumerate(_list(response.get("events"), "apply.events")):
            check_event(event, f"apply.events[{i}]", players)
    elif kind == "state":
        check_state(response.get("state"), "state", players)
    _only(response, kind, _ANSWER_KEYS[kind])


# ---- validation of requests (what an engine receives) -----------------------------------------


def check_request(data: Any) -> dict[str, Any]:
    """The request if well-formed; raises ProtocolViolation otherwise (the reference server uses it).

    A `new_round`'s deal is only checked for its shape here; `read_deal` checks it against a
    ruleset (ranks, copies, seats)."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"request: expected a JSON object, got {_kind(data)}")
    _int(data.get("id"), "request.id")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in REQUEST_TYPES:
        raise ProtocolViolation(
            f"request.type: expected one of {', '.join(REQUEST_TYPES)}, got {shown(kind)}"
        )
    unknown = sorted(str(k) for k in data if k not in ("id", "type", *REQUEST_FIELDS[kind]))
    if unknown:
        raise ProtocolViolation(f"{kind}: unknown field(s) {', '.join(map(shown, unknown))}")
    if kind == "hello":
        _int(data.get("protocol"), "hello.protocol", 1)
    elif kind == "new_round":
        deal_from_json(data, "new_round")
    elif kind == "apply":
        move_from_json(data.get("move"), "apply.move")
        extra = sorted(str(k) for k in data["move"] if k not in ("action", "cards"))
        if extra:
            raise ProtocolViolation(f"apply.move: unknown field(s) {', '.join(map(shown, extra))}")
    return data


# ---- deals: new_round's fields and a replay's `deal`, one validation for both -----------------


def deal_from_json(data: Any, where: str) -> Position:
    """The Position a deal's JSON describes, checked for its shape only (types, sorted hands, one
    hand and score per player); raises ProtocolViolation naming `where` and the key."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"{where}: expected an object, got {_kind(data)}")
    _fields(data, where, DEAL_FIELDS)
    players = _int(data["players"], f"{where}.players", 1)
    hands = _list(data["hands"], f"{where}.hands")
    scores = _naturals(data["scores"], f"{where}.scores")
    leader = _int(data["leader"], f"{where}.leader", 0)
    if len(hands) != players:
        raise ProtocolViolation(f"{where}.hands: {len(hands)} hands for {players} players")
    if len(scores) != players:
        raise ProtocolViolation(f"{where}.scores: {len(scores)} scores for {players} players")
    cards = tuple(tuple(_cards(hand, f"{where}.hands[{i}]")) for i, hand in enumerate(hands))
    return Position(hands=cards, leader=leader, scores=tuple(scores))


def deal_json(position: Position) -> dict[str, Any]:
    """The JSON of a deal (new_round's fields, a replay's `deal`): the Position without moves."""
    return {
        "players": position.players,
        "hands": [list(h) for h in position.hands],
        "leader": position.leader,
        "scores": list(position.scores) if position.scores is not None else [0] * position.players,
    }


def read_deal(
    data: Any, where: str, ruleset: Ruleset, game_for: Callable[[int], Engine]
) -> tuple[Engine, Position, State]:
    """A deal checked as the protocol requires: its shape, then against `ruleset` (the player
    count) and the engine's own boundary (ranks, copies, empty hands, the leader's seat).

    `535-check serve` checks every `new_round` with it, the replay loader every replay's `deal`,
    so the two refuse exactly the same deals. Raises ProtocolViolation `where.key: message`."""
    position = deal_from_json(data, where)
    if not ruleset.players_min <= position.players <= ruleset.players_max:
        raise ProtocolViolation(
            f"{where}.players: {position.players} players is outside "
            f"{ruleset.players_min} to {ruleset.players_max}"
        )
    game = game_for(position.players)
    try:
        state = game.play_from(position)
    except DealError as exc:
        raise ProtocolViolation(f"{where}.{exc.key}: {exc.message}") from None
    return game, position, state
