"""What docs/protocol.md answers an implementer, held to the code: one rule for unknown fields (the
server, the harness and both schemas), versions, ids, the full list of `bad_request` cases and what
is not one, and the one step-numbering rule of replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from five35.engine import Game, Move, Position
from five35.protocol.client import InProcessEngine
from five35.protocol.compare import play_round, script
from five35.protocol.messages import ProtocolViolation, check_response, schema
from five35.protocol.server import ReferenceEngine
from five35.spec import load_spec
from referencing import Registry, Resource

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
DEAL = {"players": 2, "hands": [[1, 5, 9], [2, 7, 13]], "leader": 0, "scores": [0, 0]}


def validator(name: str) -> jsonschema.Draft202012Validator:
    schemas = [schema("requests"), schema("responses")]
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas
    )
    return jsonschema.Draft202012Validator(schema(name), registry=registry)


def reference() -> ReferenceEngine:
    return ReferenceEngine(load_spec().ruleset())


def session() -> tuple[ReferenceEngine, dict[str, dict[str, Any]]]:
    """A reference in the middle of a trick, and its answer to each kind of request there."""
    engine = reference()
    answers = {"hello": engine.handle({"id": 1, "type": "hello", "protocol": 1})}
    answers["new_round"] = engine.handle({"id": 2, "type": "new_round", **DEAL})
    answers["apply"] = engine.handle({"id": 3, "type": "apply", "move": {"action": "lead", "cards": [5]}})
    answers["legal"] = engine.handle({"id": 4, "type": "legal"})
    answers["state"] = engine.handle({"id": 5, "type": "state"})
    answers["error"] = engine.handle({"id": 6, "type": "apply", "move": {"action": "pass", "cards": [1]}})
    answers["quit"] = {"id": 7, "type": "quit", "ok": True}
    return engine, answers


REQUESTS = {
    "hello": {"id": 1, "type": "hello", "protocol": 1},
    "new_round": {"id": 2, "type": "new_round", **DEAL},
    "apply": {"id": 3, "type": "apply", "move": {"action": "lead", "cards": [5]}},
    "legal": {"id": 4, "type": "legal"},
    "state": {"id": 5, "type": "state"},
    "error": {"id": 6, "type": "apply", "move": {"action": "pass", "cards": [1]}},
    "quit": {"id": 7, "type": "quit"},
}


# ---- one rule for unknown fields ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["hello", "new_round", "apply", "legal", "state", "quit"])
def test_the_server_refuses_a_request_with_an_unknown_field(kind: str) -> None:
    engine, _ = session()
    request = {**REQUESTS[kind], "verbose": True}
    answer = engine.handle(request)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request"
    assert "unknown field(s) 'verbose'" in answer["error"]["message"]
    assert not validator("requests").is_valid(request)
    validator("requests").validate(REQUESTS[kind])


def test_the_server_refuses_an_unknown_field_in_a_move() -> None:
    engine, _ = session()
    request = {"id": 9, "type": "apply", "move": {"action": "pass", "cards": [], "why": "tired"}}
    answer = engine.handle(request)
    assert answer["error"] == {"code": "bad_request", "message": "apply.move: unknown field(s) 'why'"}
    assert not validator("requests").is_valid(request)


def _with(answer: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    copy = json.loads(json.dumps(answer))
    target = copy
    for key in path:
        target = target[key]
    target["extra"] = 1
    return copy


@pytest.mark.parametrize(
    ("kind", "path", "where"),
    [
        ("hello", (), "hello: unknown field(s) 'extra'"),
        ("new_round", (), "new_round: unknown field(s) 'extra'"),
        ("quit", (), "quit: unknown field(s) 'extra'"),
        ("apply", (), "apply: unknown field(s) 'extra'"),
        ("legal", (), "legal: unknown field(s) 'extra'"),
        ("legal", ("moves", 0), "legal.moves[0]: unknown field(s) 'extra'"),
        ("state", (), "state: unknown field(s) 'extra'"),
        ("state", ("state",), "state: unknown field(s) 'extra'"),
        ("state", ("state", "pile"), "state.pile: unknown field(s) 'extra'"),
        ("state", ("state", "trick", 0), "state.trick[0]: unknown field(s) 'extra'"),
        ("error", (), "response: unknown field(s) 'extra'"),
        ("error", ("error",), "response.error: unknown field(s) 'extra'"),
    ],
)
def test_the_harness_and_the_response_schema_refuse_an_answer_with_an_unknown_field(
    kind: str, path: tuple[str | int, ...], where: str
) -> None:
    _, answers = session()
    good = answers[kind]
    check_response(REQUESTS[kind], good, players=2)
    validator("responses").validate(good)
    bad = _with(good, path)
    with pytest.raises(ProtocolViolation) as info:
        check_response(REQUESTS[kind], bad, players=2)
    assert str(info.value) == where
    assert not validator("responses").is_valid(bad)


def test_an_unknown_field_in_an_event_is_refused_too() -> None:
    engine = reference()
    engine.handle({"id": 1, "type": "new_round", **{**DEAL, "hands": [[5, 9], [2, 8]]}})
    engine.handle({"id": 2, "type": "apply", "move": {"action": "lead", "cards": [5]}})
    request = {"id": 3, "type": "apply", "move": {"action": "overwrite", "cards": [8]}}
    answer = engine.handle(request)
    assert answer["events"][0]["reasons"] == ["rule_of_8"]
    bad = _with(answer, ("events", 0))
    with pytest.raises(ProtocolViolation, match=r"apply.events\[0\]: unknown field\(s\) 'extra'"):
        check_response(request, bad, players=2)
    assert not validator("responses").is_valid(bad)


# ---- versions and ids --------------------------------------------------------------------------


def test_an_engine_answers_with_its_own_version_and_refuses_no_version() -> None:
    engine = reference()
    assert engine.handle({"id": 1, "type": "hello", "protocol": 2})["protocol"] == 1
    for bad in (0, "1", 1.5, True, None):
        answer = engine.handle({"id": 2, "type": "hello", "protocol": bad})
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", bad
    speaks_two = {**session()[1]["hello"], "protocol": 2}
    with pytest.raises(ProtocolViolation, match="the harness speaks version 1, the engine 2"):
        check_response(REQUESTS["hello"], speaks_two)


def test_ids_are_echoed_whatever_integer_and_a_bad_one_is_answered_with_null() -> None:
    engine = reference()
    for rid in (1, 1, -5, 0, 10**30):  # repeated, negative, huge: echoed, never checked
        assert engine.handle({"id": rid, "type": "hello", "protocol": 1})["id"] == rid
    for rid, kind in (("7", "legal"), (True, "legal"), (1.0, "state"), (None, "quit")):
        request: dict[str, Any] = {"type": kind} if rid is None else {"id": rid, "type": kind}
        answer = engine.handle(request)
        assert (answer["id"], answer["type"], answer["error"]["code"]) == (None, kind, "bad_request")
    assert engine.handle({"id": "7", "type": "dance"})["type"] is None


# ---- the full list of bad_request cases ---------------------------------------------------------


BAD_REQUESTS = [
    ({"type": "legal"}, "request.id"),
    ({"id": 1}, "request.type"),
    ({"id": 1, "type": "dance"}, "request.type"),
    ({"id": 1, "type": "quit", "x": 1}, "quit: unknown field(s) 'x'"),
    ({"id": 1, "type": "hello"}, "hello.protocol"),
    ({"id": 1, "type": "apply"}, "apply.move: expected an object"),
    ({"id": 1, "type": "apply", "move": "lead 1"}, "apply.move: expected an object"),
    ({"id": 1, "type": "apply", "move": {"action": "fly", "cards": [1]}}, "apply.move.action"),
    ({"id": 1, "type": "apply", "move": {"action": "lead"}}, "apply.move.cards: expected a list"),
    ({"id": 1, "type": "apply", "move": {"action": "lead", "cards": [1.0]}}, "apply.move.cards[0]"),
    ({"id": 1, "type": "apply", "move": {"action": "lead", "cards": ["1"]}}, "apply.move.cards[0]"),
    ({"id": 1, "type": "apply", "move": {"action": "lead", "cards": [0]}}, "apply.move.cards[0]"),
    ({"id": 1, "type": "apply", "move": {"action": "lead", "cards": [2, 1]}}, "must be sorted"),
    ({"id": 1, "type": "apply", "move": {"action": "pass", "cards": [1]}}, "a pass places no cards"),
    ({"id": 1, "type": "apply", "move": {"action": "add", "cards": []}}, "places at least one card"),
    ({"id": 1, "type": "new_round", "players": 2}, "missing field(s)"),
    (
        {"id": 1, "type": "new_round", **{**DEAL, "players": 7, "hands": [[1]] * 7, "scores": [0] * 7}},
        "players",
    ),
    ({"id": 1, "type": "new_round", **{**DEAL, "leader": 2}}, "new_round.leader"),
    ({"id": 1, "type": "new_round", **{**DEAL, "scores": [0, -1]}}, "new_round.scores[1]"),
    ({"id": 1, "type": "new_round", **{**DEAL, "scores": [0, 1.5]}}, "new_round.scores[1]"),
    ({"id": 1, "type": "new_round", **{**DEAL, "hands": [[6], [2]]}}, "new_round.hands[0]"),
    ({"id": 1, "type": "new_round", **{**DEAL, "hands": [[], [2]]}}, "new_round.hands[0]"),
    ({"id": 1, "type": "new_round", **{**DEAL, "hands": [[1, 1, 1], [1, 1]]}}, "new_round.hands"),
]


@pytest.mark.parametrize(("request_", "where"), BAD_REQUESTS)
def test_every_listed_bad_request_is_refused_and_changes_nothing(
    request_: dict[str, Any], where: str
) -> None:
    engine, _ = session()
    before = engine.handle({"id": 90, "type": "state"})
    answer = engine.handle(request_)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request", answer
    assert where in answer["error"]["message"]
    assert engine.handle({"id": 90, "type": "state"}) == before


@pytest.mark.parametrize(
    "move",
    [
        {"action": "lead", "cards": [6]},  # a rank the deck does not have
        {"action": "overwrite", "cards": [14]},  # cards the player does not hold
        {"action": "overwrite", "cards": [1, 2, 3, 4]},  # four cards
        {"action": "add", "cards": [2, 13]},  # fits no add
        {"action": "overwrite", "cards": [2]},  # does not beat the 5
    ],
)
def test_a_well_formed_move_that_is_not_legal_is_illegal_move_not_bad_request(move: dict[str, Any]) -> None:
    engine, _ = session()
    answer = engine.handle({"id": 10, "type": "apply", "move": move})
    assert answer["error"]["code"] == "illegal_move", answer


def test_before_any_round_legal_apply_and_state_are_no_round() -> None:
    engine = reference()
    for request in ({"id": 1, "type": "legal"}, {"id": 2, "type": "state"}, REQUESTS["apply"]):
        assert engine.handle(request)["error"]["code"] == "no_round"


def test_the_doc_lists_what_the_tests_hold() -> None:
    text = DOC.read_text("utf-8")
    for needle in (
        "### Unknown fields",
        "### Versions",
        "### Ids",
        "**Not `bad_request`**",
        "the piles that were overwritten included",
        "at both ends in one add",
        "step N is the position after N moves",
        "## Conformance vectors: `535-check vectors`",
    ):
        assert needle in text, needle


# ---- one step-numbering rule ---------------------------------------------------------------------


class Wrong:
    """The reference, except that after `after` applies it answers the next `apply` or `state` wrong."""

    def __init__(self, spoil: str, after: int) -> None:
        self.inner = reference()
        self.spoil = spoil
        self.after = after
        self.applied = 0

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.inner.handle(request)
        if request["type"] == "apply" and answer["ok"]:
            self.applied += 1
            if self.spoil == "apply" and self.applied == self.after + 1:
                answer = {
                    **answer,
                    "events": [{"event": "trick_end", "winner": 0, "reasons": ["all_passed"]}],
                }
        if request["type"] == "state" and self.spoil == "state" and self.applied == self.after + 1:
            answer = {**answer, "state": {**answer["state"], "cleared": [1]}}
        return answer


@pytest.mark.parametrize(("spoil", "step", "request_"), [("apply", 1, "apply"), ("state", 2, "state")])
def test_step_n_is_the_position_after_n_moves(spoil: str, step: int, request_: str) -> None:
    """The same move (moves[1]) spoilt in its events or in the state it leaves: the apply was sent
    after 1 move (step 1), the state after 2 (step 2); both name the move through moves[1]."""
    ruleset = load_spec().ruleset()
    deal = Position(((1, 5, 9), (2, 7, 13)), 0, (0, 0))
    moves = (Move("lead", (5,)), Move("overwrite", (7,)), Move("overwrite", (9,)))
    engine = InProcessEngine(Wrong(spoil, 1), "wrong")
    engine.hello()
    result = play_round(Game(ruleset, 2), engine, deal, script(moves))
    assert result.divergence is not None
    assert (result.divergence.step, result.divergence.request) == (step, request_)
    assert result.moves[:2] == moves[:2]
    if spoil == "apply":
        assert result.divergence.move == moves[1]
