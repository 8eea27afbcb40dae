"""The reference engine behind the protocol: `535-check serve`, and the in-process plug-in.

`ReferenceEngine.handle(request) -> response` is the whole server; `serve()` only moves JSON lines
between a stream pair and `handle`. The same object is a valid in-process engine
(`--engine python:five35.protocol.server:reference_engine`), so the protocol is tested against the
reference itself both over a pipe and in-process.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, BinaryIO

from ..engine import IllegalMove, Move, Pile, Play, State
from ..engine.engines import Engine, make_engine, reference_lacks
from ..spec import Ruleset, load_spec
from ..spec.limits import MAX_DEPTH, InputLimitError, load_json
from .messages import (
    DEAL_FIELDS,
    PROTOCOL_VERSION,
    REQUEST_TYPES,
    ProtocolViolation,
    check_request,
    encode,
    event_json,
    fewer_collections,
    move_from_json,
    move_json,
    pile_json,
    quick_loads,
    read_deal,
)

REFERENCE_NAME = "five35 reference engine"
#: The name `535-check serve` answers hello with when the spec interpreter plays its ruleset.
INTERPRETER_NAME = "five35 spec interpreter"


def state_json(game: Engine, state: State) -> dict[str, Any]:
    """The protocol's `state` object for a reference State."""
    trick = [{"player": p.player, **move_json(p.move)} for p in state.trick]
    passed = [p for p in range(state.players) if state.has_passed(p)]
    return _state_object(state, game.codec.cards, trick, passed)


def _state_object(
    state: State, cards: Callable[[int], list[int]], trick: list[dict[str, Any]], passed: list[int]
) -> dict[str, Any]:
    # The object's keys, in their order, for state_json and for Answers.state, which get the cards,
    # the trick's plays and who passed each their own way (Answers from its caches).
    return {
        "players": state.players,
        "phase": state.phase,
        # After the round the reference keeps the seat that went out; the protocol says nobody moves.
        "to_move": state.to_move if state.phase == "play" else None,
        "hands": [cards(h) for h in state.hands],
        "pile": pile_json(state.pile),
        "trick": trick,
        "passed": passed,
        "cleared": cards(state.cleared),
        "aside": cards(state.aside),
        "scores": list(state.scores),
    }


def legal_json(game: Engine, state: State) -> dict[str, Any]:
    """The body of a `legal` answer: who moves and every legal move."""
    return {
        "to_move": state.to_move if state.phase == "play" else None,
        "moves": [move_json(m) for m in game.legal_moves(state)],
    }


class Answers:
    """The reference's answers for one Game, cached: the same as `state_json`, `legal_json` and
    `Game.legal_moves`, computed once per distinct question.

    A fuzz run asks about the same hands and piles over and over (every example of a seed starts
    from similar deals, and shrinking replays rounds many times), and `535-check serve` answers
    the same. The legal moves depend only on the mover's hand and the pile, a hand's card list only
    on its packed counts, so those are the keys. The values are shared: callers must not change
    them (they are only compared and encoded). Each cache is emptied when it reaches LIMIT entries,
    which bounds the memory and changes nothing but the speed."""

    LIMIT = 1 << 15

    def __init__(self, game: Engine) -> None:
        self.game = game
        self._moves: dict[tuple[int, Pile | None], tuple[Move, ...]] = {}
        self._legal: dict[tuple[int, int, Pile | None], dict[str, Any]] = {}
        self._cards: dict[int, tuple[int, ...]] = {}
        self._plays: dict[Play, dict[str, Any]] = {}
        self._legal_text: dict[tuple[int, int, Pile | None] | None, bytes] = {}

    def moves(self, state: State) -> tuple[Move, ...]:
        """`game.legal_moves(state)`."""
        if state.phase != "play":
            return ()
        key = (state.hands[state.to_move], state.pile)
        found = self._moves.get(key)
        if found is None:
            if len(self._moves) >= self.LIMIT:
                self._moves.clear()
            found = self._moves[key] = self.game.legal_moves(state)
        return found

    def legal(self, state: State) -> dict[str, Any]:
        """`legal_json(game, state)`."""
        if state.phase != "play":
            return {"to_move": None, "moves": []}
        key = (state.to_move, state.hands[state.to_move], state.pile)
        found = self._legal.get(key)
        if found is None:
            if len(self._legal) >= self.LIMIT:
                self._legal.clear()
            moves = [move_json(m) for m in self.moves(state)]
            found = self._legal[key] = {"to_move": state.to_move, "moves": moves}
        return found

    def legal_line(self, state: State, rid: int) -> bytes:
        """`encode()` of the whole `legal` answer to request `rid`: the body's JSON is cached
        with it, so serve does not encode the same list of moves again."""
        key = (state.to_move, state.hands[state.to_move], state.pile) if state.phase == "play" else None
        text = self._legal_text.get(key)
        if text is None:
            if len(self._legal_text) >= self.LIMIT:
                self._legal_text.clear()
            text = self._legal_text[key] = encode(self.legal(state))[1:-2]
        return b'{"id":%d,"type":"legal","ok":true,%s}\n' % (rid, text)

    def cards(self, packed: int) -> list[int]:
        found = self._cards.get(packed)
        if found is None:
            if len(self._cards) >= self.LIMIT:
                self._cards.clear()
            found = self._cards[packed] = tuple(self.game.codec.cards(packed))
        return list(found)

    def _play(self, play: Play) -> dict[str, Any]:
        found = self._plays.get(play)
        if found is None:
            if len(self._plays) >= self.LIMIT:
                self._plays.clear()
            found = self._plays[play] = {"player": play.player, **move_json(play.move)}
        return found

    def state(self, state: State) -> dict[str, Any]:
        """`state_json(game, state)`."""
        passed = state.passed
        who_passed = [p for p in range(state.players) if passed >> p & 1] if passed else []
        return _state_object(state, self.cards, [self._play(p) for p in state.trick], who_passed)


class ReferenceGames:
    """One reference Game per player count (building one precomputes its move tables), and the
    cache of its answers (Answers), for every round a server or a run plays."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._games: dict[int, Engine] = {}
        self._answers: dict[int, Answers] = {}

    def __call__(self, players: int) -> Engine:
        game = self._games.get(players)
        if game is None:
            game = self._games[players] = make_engine(self.ruleset, players)
            self._answers[players] = Answers(game)
        return game

    def answers(self, players: int) -> Answers:
        self(players)
        return self._answers[players]


class ReferenceEngine:
    """The reference engine under one ruleset, answering protocol requests."""

    def __init__(self, ruleset: Ruleset, name: str | None = None) -> None:
        self.ruleset = ruleset
        self.name = name or (REFERENCE_NAME if reference_lacks(ruleset) is None else INTERPRETER_NAME)
        self._games = ReferenceGames(ruleset)
        self.game: Engine | None = None
        self.state: State | None = None
        self.answers: Answers | None = None

    def game_for(self, players: int) -> Engine:
        return self._games(players)

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

    def respond(self, request: Mapping[str, Any]) -> bytes:
        """`handle(request)` as the JSON line `535-check serve` writes (encode()'s bytes)."""
        if request.get("type") == "legal" and self.state is not None and self.answers is not None:
            try:
                check_request(request)
            except ProtocolViolation:
                pass  # handle() answers it
            else:
                return self.answers.legal_line(self.state, request["id"])
        return encode(self.handle(request))

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
        if self.game is None or self.state is None or self.answers is None:
            raise _Refused("no_round", "no round has been started (send new_round first)")
        if kind == "legal":
            return self.answers.legal(self.state)
        if kind == "state":
            return {"state": self.answers.state(self.state)}
        move = move_from_json(request["move"], "apply.move")
        return {"events": self._apply(self.game, self.state, move)}

    def _new_round(self, request: Mapping[str, Any]) -> dict[str, Any]:
        # The one deal check (the replay loader uses it too); ProtocolViolation is a bad_request.
        deal = {key: request[key] for key in DEAL_FIELDS}
        self.game, _, self.state = read_deal(deal, "new_round", self.ruleset, self.game_for)
        self.answers = self._games.answers(self.game.players)
        return {}

    def _apply(self, game: Engine, state: State, move: Move) -> list[dict[str, Any]]:
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
    `max_bytes`) with `bad_request` naming its line number; the server never stops on bad input.

    Input is read as it arrives and the answers to all the whole lines read are written with one
    flush: a harness that sends requests in batches gets its answers without a system call per
    answer, and one that waits for each answer gets it at once."""
    with fewer_collections():
        return _serve(engine, stdin, stdout, max_bytes)


def _serve(engine: ReferenceEngine, stdin: BinaryIO, stdout: BinaryIO, max_bytes: int) -> int:
    read = getattr(stdin, "read1", stdin.read)
    served = 0
    number = 0
    pending = bytearray()
    skipping = False  # inside a line over the limit, already answered: drop it up to its newline
    while True:
        chunk = read(1 << 16)
        out: list[bytes] = []
        start = 0
        pending += chunk
        while True:
            end = pending.find(b"\n", start)
            if end < 0:
                break
            line = bytes(pending[start : end + 1])
            start = end + 1
            if skipping:
                skipping = False
                continue
            number += 1
            if len(line) > max_bytes + 1:
                answer, quit_ = encode(_over(number, max_bytes)), False
            else:
                answer, quit_ = _answer_line(engine, line, number, max_bytes)
            if not answer:
                continue
            out.append(answer)
            served += 1
            if quit_:
                _write(stdout, out)
                return served
        del pending[:start]
        if not skipping and len(pending) > max_bytes:
            # A line whose first max_bytes + 1 bytes hold no newline: answered now, the rest dropped.
            number += 1
            out.append(encode(_over(number, max_bytes)))
            served += 1
            skipping = True
        if skipping:
            pending.clear()
        if not chunk:
            if pending:  # a last line without its newline
                number += 1
                answer, _ = _answer_line(engine, bytes(pending), number, max_bytes)
                if answer:
                    out.append(answer)
                    served += 1
            _write(stdout, out)
            return served
        _write(stdout, out)


def _over(number: int, max_bytes: int) -> dict[str, Any]:
    return _error(None, None, "bad_request", f"line {number}: over the limit of {max_bytes} bytes")


def _answer_line(engine: ReferenceEngine, line: bytes, number: int, max_bytes: int) -> tuple[bytes, bool]:
    """The answer line to one request line (empty for a blank line, which is not a request), and
    whether it was a `quit` the server accepted (the end of the session)."""
    if not line.strip():
        return b"", False
    try:
        request = quick_loads(line, max_bytes)
    except ValueError:
        try:
            request = load_json(line, f"line {number}", max_bytes=max_bytes, max_depth=MAX_DEPTH)
        except InputLimitError as exc:
            return encode(_error(None, None, "bad_request", str(exc))), False
    if not isinstance(request, dict):
        return encode(_error(None, None, "bad_request", f"line {number}: expected a JSON object")), False
    answer = engine.respond(request)
    return answer, request.get("type") == "quit" and answer.endswith(b'"ok":true}\n')


def _write(stdout: BinaryIO, out: list[bytes]) -> None:
    if out:
        stdout.write(b"".join(out))
        stdout.flush()
