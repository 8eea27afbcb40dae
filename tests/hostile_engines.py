"""Small hostile engines for the bad-input tests, written into a test's temporary directory.

- `script(folder, name, body)`: a standard-library-only engine program (run as
  `python script.py`), answering a fixed 2-player round correctly except where `body` (the body of
  `answer(req)`, which may `return good(req)` for the correct answer) says otherwise. It starts in
  milliseconds because it does not import five35.
- `plugin(folder, name, text)`: a Python file for `--engine python:FILE:make`.
- `replay_file(folder, **changes)`: a small hand-written replay for the round the scripts know.

The scripts' canned answers are the reference's until the first move; after it they are only
well-formed (the state never changes), which is enough: a fault must be reported before any
comparison, so an engine that breaks the protocol is never mistaken for a divergence.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from five35.protocol.server import ReferenceEngine
from five35.spec import load_spec

DEAL = {"players": 2, "hands": [[1], [2, 3]], "leader": 1, "scores": [0, 0]}


def _reference_answers() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The reference's hello, and its state and legal answers at the start of DEAL."""
    engine = ReferenceEngine(load_spec().ruleset())
    envelope = ("id", "type", "ok")
    hello = engine.handle({"id": 1, "type": "hello", "protocol": 1})
    engine.handle({"id": 2, "type": "new_round", **DEAL})
    state = engine.handle({"id": 3, "type": "state"})["state"]
    legal = engine.handle({"id": 4, "type": "legal"})
    return (
        {k: v for k, v in hello.items() if k not in envelope},
        state,
        {k: v for k, v in legal.items() if k not in envelope},
    )


# The canned answers agree with the reference up to the first apply, so a fault planted in any of
# the first five requests (hello, new_round, state, legal, apply) is met before any divergence.
HELLO, STATE, LEGAL = _reference_answers()

_TEMPLATE = """\
import json, os, sys, time
HELLO = json.loads({hello!r})
STATE = json.loads({state!r})
LEGAL = json.loads({legal!r})
DEEP = "[" * 20000 + "]" * 20000
MAPS = '{{"a":' * 3000 + "1" + "}}" * 3000
WINNER_5 = {{"event": "trick_end", "winner": 5, "reasons": ["all_passed"]}}


def good(req):
    out = {{"id": req["id"], "type": req["type"], "ok": True}}
    kind = req["type"]
    if kind == "hello":
        out.update(HELLO)
    elif kind == "state":
        out["state"] = STATE
    elif kind == "legal":
        out.update(LEGAL)
    elif kind == "apply":
        out["events"] = []
    return out


def answer(req):
{body}


for line in sys.stdin:
    req = json.loads(line)
    out = answer(req)
    if out is None:
        continue
    sys.stdout.write(out if isinstance(out, str) else json.dumps(out) + "\\n")
    sys.stdout.flush()
    if req["type"] == "quit":
        break
"""


def script(folder: Path, name: str, body: str) -> str:
    """Write the engine program and return its --engine command line."""
    lines = "\n".join("    " + line for line in body.strip("\n").splitlines())
    text = _TEMPLATE.format(
        hello=json.dumps(HELLO), state=json.dumps(STATE), legal=json.dumps(LEGAL), body=lines
    )
    path = folder / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return f"{sys.executable} {path}"


_PLUGIN_HEAD = """\
import sys, threading
from five35.protocol.server import ReferenceEngine
from five35.spec import load_spec


class Base(ReferenceEngine):
    def __init__(self):
        super().__init__(load_spec().ruleset())

"""


def plugin(folder: Path, name: str, text: str, head: bool = True) -> str:
    """Write an in-process engine module (after a header defining `Base`, the reference engine,
    unless `head` is false) and return `python:FILE:make`."""
    path = folder / f"{name}.py"
    path.write_text((_PLUGIN_HEAD if head else "") + text, encoding="utf-8")
    return f"python:{path}:make"


def replay_data(**changes: Any) -> dict[str, Any]:
    ruleset = load_spec().ruleset()
    data: dict[str, Any] = {
        "format": "five35-replay/1",
        "engine": "hostile",
        "seed": 0,
        "profile": "published",
        "readings": ruleset.readings,
        "parameters": ruleset.to_json()["parameters"],
        "deal": dict(DEAL),
        "moves": [{"action": "lead", "cards": [2]}, {"action": "pass", "cards": []}],
        "divergence": {
            "step": 1,
            "request": "apply",
            "move": None,
            "summary": "written by hand",
            "reference": {},
            "engine": {},
        },
    }
    for key, value in changes.items():
        if key.startswith("deal_"):
            data["deal"][key.removeprefix("deal_")] = value
        elif key.startswith("parameters_"):
            data["parameters"] = {**data["parameters"], key.removeprefix("parameters_"): value}
        else:
            data[key] = value
    return data


def replay_file(
    folder: Path, name: str = "run.replay.json", text: str | bytes | None = None, **changes: Any
) -> Path:
    """A replay file: `text` as is (bytes for input that is not UTF-8), else `replay_data(**changes)`."""
    path = folder / name
    content = text if text is not None else json.dumps(replay_data(**changes))
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path
