"""Replay files: a shrunk divergence written by `fuzz`, re-run by `replay` against any engine.

A replay holds everything needed to reproduce the divergence without the fuzzer: the readings and
parameters the reference used, the deal, the moves (illegal probes included), and the diverging
step with both answers. Its JSON Schema is schemas/replay.schema.json.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from five35.engine import Move
from five35.spec import Ruleset, Spec, SpecError, dumps

from .client import EngineClient
from .compare import Deal, RoundResult, play_round, script, with_parameters
from .fuzz import Games
from .messages import ProtocolViolation, move_from_json, move_json, schema

REPLAY_FORMAT = "five35-replay/1"


def replay_json(ruleset: Ruleset, engine_label: str, seed: int, witness: RoundResult) -> dict[str, Any]:
    assert witness.divergence is not None
    return {
        "format": REPLAY_FORMAT,
        "engine": engine_label,
        "seed": seed,
        "profile": ruleset.profile,
        "readings": ruleset.readings,
        "parameters": ruleset.to_json()["parameters"],
        "deal": witness.deal.to_json(),
        "moves": [move_json(m) for m in witness.moves],
        "divergence": witness.divergence.to_json(),
    }


def write_replay(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(dumps(data) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Replay:
    path: Path
    data: Mapping[str, Any]
    deal: Deal
    moves: tuple[Move, ...]

    def ruleset(self, spec: Spec) -> Ruleset:
        """The reference ruleset the replay was recorded under."""
        ruleset = spec.ruleset(self.data["profile"], self.data["readings"])
        ruleset, _ = with_parameters(ruleset, self.data["parameters"])
        return ruleset


def load_replay(path: Path) -> Replay:
    """Read and validate a replay file; SpecError (one line, naming the file and field) if bad."""
    where = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(where, f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SpecError(where, f"not JSON: {exc}") from None
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema("replay")).iter_errors(data)
    )
    if error is not None:
        field = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise SpecError(where, f"{field}: {error.message}")
    try:
        moves = tuple(move_from_json(m, f"moves[{i}]") for i, m in enumerate(data["moves"]))
    except ProtocolViolation as exc:
        raise SpecError(where, str(exc)) from None
    return Replay(path, data, Deal.from_json(data["deal"]), moves)


def run_replay(replay: Replay, ruleset: Ruleset, engine: EngineClient) -> RoundResult:
    """Play the replay's deal and moves on the reference and the engine in lock-step."""
    games = Games(ruleset)
    return play_round(games(replay.deal.players), engine, replay.deal, script(replay.moves))


def _display(value: Any) -> Any:
    """Moves as 'action c,c' strings (move lists sorted: their order means nothing); the rest as is."""
    if isinstance(value, dict):
        if set(value) == {"action", "cards"}:
            return f"{value['action']} {','.join(map(str, value['cards']))}".strip()
        return {k: _display(v) for k, v in value.items()}
    if isinstance(value, list):
        shown = [_display(v) for v in value]
        if shown and all(
            isinstance(v, str) and isinstance(o, dict) for v, o in zip(shown, value, strict=True)
        ):
            return sorted(shown)
        return shown
    return value


def _lines(value: Any) -> list[str]:
    text = json.dumps(_display(value), indent=2, sort_keys=True, ensure_ascii=False)
    # Short lists of numbers on one line each: hands and card lists stay readable.
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip().rstrip(",")
        if out and out[-1].endswith("[") and stripped.lstrip("-").isdigit():
            out[-1] += stripped
            if line.endswith(","):
                out[-1] += ","
            continue
        if (
            out
            and out[-1].endswith(",")
            and "[" in out[-1]
            and "]" not in out[-1]
            and stripped.lstrip("-").isdigit()
        ):
            out[-1] += " " + stripped + ("," if line.endswith(",") else "")
            continue
        if (
            out
            and stripped in ("]", "]")
            and "[" in out[-1]
            and "]" not in out[-1]
            and not out[-1].endswith("[")
        ):
            out[-1] = out[-1].rstrip(",") + "]" + ("," if line.rstrip().endswith(",") else "")
            continue
        out.append(line)
    return out


def side_by_side(
    left: Any, right: Any, titles: tuple[str, str] = ("reference", "engine"), width: int = 56
) -> str:
    """Two answers next to each other, aligned line by line; `|` marks lines that differ,
    `<` lines only the reference has and `>` lines only the engine has."""
    a, b = _lines(left), _lines(right)
    rows = [f"{titles[0]:<{width}}   {titles[1]}", f"{'-' * width}   {'-' * width}"]

    def cut(text: str) -> str:
        return text if len(text) <= width else text[: width - 3] + "..."

    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            rows.extend(f"{cut(x):<{width}}   {y}" for x, y in zip(a[i1:i2], b[j1:j2], strict=True))
            continue
        left_part, right_part = a[i1:i2], b[j1:j2]
        for k in range(max(len(left_part), len(right_part))):
            x = left_part[k] if k < len(left_part) else ""
            y = right_part[k] if k < len(right_part) else ""
            mark = "|" if x and y else ("<" if x else ">")
            rows.append(f"{cut(x):<{width}} {mark} {y}")
    return "\n".join(rows)
