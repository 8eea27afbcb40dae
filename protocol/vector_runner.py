"""A runner of the conformance vectors: replay a vector against any engine, in Python (the Node
runner, examples/vectors-node/run.mjs, does the same in JavaScript), and check that an engine's
hello declares the rules a suite was written for.

An answer is compared with the expected response by the rules index.json's `compare` states: id,
type and ok equal; when ok is false only error.code; a legal answer's moves as a set; every other
field equal as a JSON value, and no other field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..spec.words import embedded_words
from ..spec.words_model import VectorWords


def normal(response: Mapping[str, Any]) -> dict[str, Any]:
    """An answer as a vector stores it and compares it: no error message (free text), a legal
    answer's moves in one order (they are a set)."""
    out = dict(response)
    if out.get("ok") is False and isinstance(out.get("error"), Mapping):
        out["error"] = {k: v for k, v in out["error"].items() if k != "message"}
    if out.get("type") == "legal" and out.get("ok") is True and isinstance(out.get("moves"), list):
        out["moves"] = sorted(out["moves"], key=lambda m: json.dumps(m, sort_keys=True))
    return out


def compare(expected: Mapping[str, Any], answer: Any) -> str | None:
    """Why `answer` does not match the expected response (index.json's `compare` rules), or None."""
    return _compare(expected, answer, embedded_words().vectors)


def _compare(expected: Mapping[str, Any], answer: Any, say: VectorWords) -> str | None:
    if not isinstance(answer, dict):
        return say("not_object", got=one_line(answer))
    for key in ("id", "type", "ok"):
        if answer.get(key) != expected.get(key) or type(answer.get(key)) is not type(expected.get(key)):
            return say(
                "differs", field=key, expected=one_line(expected.get(key)), got=one_line(answer.get(key))
            )
    extra = sorted(str(k) for k in set(answer) - set(expected))
    if extra:
        return say("unknown_fields", fields=", ".join(extra))
    if expected["ok"] is False:
        error = answer.get("error")
        if not isinstance(error, dict) or set(error) - {"code", "message"}:
            return say("not_error", got=one_line(error))
        if error.get("code") != expected["error"]["code"]:
            code = repr(expected["error"]["code"])
            return say("differs", field="error.code", expected=code, got=one_line(error.get("code")))
        return None
    for key in sorted(expected):
        if key not in answer:
            return say("missing", field=key)
    if expected["type"] == "legal":
        moves = answer["moves"]
        if not isinstance(moves, list):
            return say("not_list", got=one_line(moves))
        theirs = {one_line(m) for m in moves}
        if len(moves) != len(theirs):
            return say("twice")
        ours = {one_line(m) for m in expected["moves"]}
        if ours != theirs:
            return say("moves", lacks=" ".join(sorted(ours - theirs)), adds=" ".join(sorted(theirs - ours)))
    got = normal(answer)
    for key in sorted(expected):
        if got[key] != expected[key]:
            return say("differs", field=key, expected=one_line(expected[key]), got=one_line(got[key]))
    return None


def one_line(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_vector(vector: Mapping[str, Any], handle: Callable[[dict[str, Any]], Any]) -> str | None:
    """Drive `handle` (one request in, one answer out) through the vector's conversation; the first
    mismatch as `request N (type): why`, or None when every answer matches."""
    say = embedded_words().vectors
    for exchange in vector["conversation"]:
        request = exchange["request"]
        why = _compare(exchange["response"], handle(json.loads(json.dumps(request))), say)
        if why is not None:
            return say("request", id=request["id"], type=request["type"], why=why)
    return None


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def check_hello(index: Mapping[str, Any], hello: Mapping[str, Any]) -> str | None:
    """Whether an engine's hello declares the rules a suite (its index.json) was written for: every
    reading the protocol can observe, and every parameter. Why not, or None."""
    say = embedded_words().vectors
    rules = index["rules"]
    skip = set(index.get("not_observable", ()))
    readings: dict[str, Any] = _object(hello.get("readings"))
    differ = sorted(p for p, r in rules["readings"].items() if p not in skip and readings.get(p) != r)
    if differ:
        shown = ", ".join(
            say("other_reading", point=p, reading=readings.get(p), suite=rules["readings"][p]) for p in differ
        )
        return say("other_readings", readings=shown)
    parameters: dict[str, Any] = _object(hello.get("parameters"))
    changed = sorted(k for k, v in rules["parameters"].items() if parameters.get(k) != v)
    if changed:
        return say("other_parameters", parameters=", ".join(changed))
    return None
