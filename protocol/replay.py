"""Replay files: a shrunk divergence written by `fuzz`, re-run by `replay` against any engine.

A replay holds everything needed to reproduce the divergence without the fuzzer: the readings and
parameters the reference used, the deal, the moves (illegal probes included), and the diverging
step with both answers. Its JSON Schema is schemas/replay.schema.json.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from ..engine import Move, Position
from ..spec import Ruleset, Spec, SpecError, dumps
from ..spec.limits import MAX_FILE_BYTES, InputLimitError, load_json
from .compare import Games, RoundResult, check_readings, script, with_parameters
from .engine_client import EngineClient
from .messages import ProtocolViolation, deal_json, move_from_json, move_json, read_deal, schema, shown

REPLAY_FORMAT = "five35-replay/1"
MESSAGE_CHARS = 200  # a schema message quotes the offending value; keep the error on one short line


def replay_json(ruleset: Ruleset, engine_label: str, seed: int, witness: RoundResult) -> dict[str, Any]:
    assert witness.divergence is not None
    return {
        "format": REPLAY_FORMAT,
        "engine": engine_label,
        "seed": seed,
        "profile": ruleset.profile,
        "readings": ruleset.readings,
        "parameters": ruleset.to_json()["parameters"],
        "deal": deal_json(witness.deal),
        "moves": [move_json(m) for m in witness.moves],
        "divergence": witness.divergence.to_json(),
    }


def write_replay(path: Path, data: Mapping[str, Any]) -> None:
    """Write the replay whole or not at all: a temporary file in the same directory, then renamed."""
    text = (dumps(data) + "\n").encode("utf-8")
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.resolve().parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as open() would create it (mkstemp makes it private)
        with os.fdopen(fd, "wb") as stream:
            stream.write(text)
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


@dataclass(frozen=True)
class Replay:
    """A replay file as read: its JSON, and its moves. The ruleset and the deal need the spec; they
    are checked by `ruleset` and `position`, every error naming the file and the key."""

    path: Path
    data: Mapping[str, Any]
    moves: tuple[Move, ...]

    def ruleset(
        self, spec: Spec, profile: str | None = None, readings: Mapping[str, str] | None = None
    ) -> Ruleset:
        """The reference ruleset the replay was recorded under; `profile` and `readings` (from
        --profile and --reading) override the file's."""
        where = str(self.path)
        name = self.data["profile"]
        if profile is None and name not in spec.profiles:
            known = ", ".join(sorted(spec.profiles))
            raise SpecError(where, f"profile: unknown profile {shown(name)} (known: {known})")
        check_readings(spec, self.data["readings"], where)
        ruleset = spec.ruleset(profile or name, {**self.data["readings"], **(readings or {})})
        ruleset, _ = with_parameters(ruleset, self.data["parameters"], where)
        return ruleset

    def position(self, ruleset: Ruleset) -> Position:
        """The replay's deal, checked exactly as `535-check serve` checks a `new_round`."""
        try:
            _, position, _ = read_deal(self.data["deal"], "deal", ruleset, Games(ruleset))
        except ProtocolViolation as exc:
            raise SpecError(str(self.path), str(exc)) from None
        return position


def load_replay(path: Path) -> Replay:
    """Read a replay file within the input limits and check it against its schema; SpecError (one
    line, naming the file and the key) if it is bad. The deal is checked by `Replay.position`."""
    where = str(path)
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SpecError(where, f"cannot read: {exc.strerror or exc}") from None
    try:
        data = load_json(raw, where, unique_keys=True)
    except InputLimitError as exc:
        raise SpecError(where, exc.message) from None
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema("replay")).iter_errors(data)
    )
    if error is not None:
        field = "/".join(str(p) for p in error.absolute_path) or "(top)"
        message = error.message
        if len(message) > MESSAGE_CHARS:
            message = message[: MESSAGE_CHARS - 3] + "..."
        raise SpecError(where, f"{field}: {' '.join(message.split())}")
    try:
        moves = tuple(move_from_json(m, f"moves[{i}]") for i, m in enumerate(data["moves"]))
    except ProtocolViolation as exc:
        raise SpecError(where, str(exc)) from None
    return Replay(path, data, moves)


def hello_notes(spec: Spec, ruleset: Ruleset, hello: Mapping[str, Any]) -> list[str]:
    """What to tell of an engine's hello before a replay, which plays the file's rules whatever the
    engine declares: its readings and parameters are held to the spec (as `negotiate` holds them
    for fuzz and perft), and where they differ from the file's, a note says so."""
    check_readings(spec, hello["readings"], "engine hello")
    _, declared = with_parameters(ruleset, hello["parameters"], "engine hello")
    notes: list[str] = []
    if declared:
        notes.append(
            "the engine declares other parameters (" + ", ".join(declared) + "); the replay uses the file's"
        )
    differs = sorted(p for p, r in hello["readings"].items() if ruleset.readings.get(p) != r)
    if differs:
        listed = ", ".join(f"{p}={hello['readings'][p]}" for p in differs)
        notes.append(f"the engine declares {listed}; the replay uses the file's readings")
    return notes


def run_replay(replay: Replay, ruleset: Ruleset, engine: EngineClient) -> RoundResult:
    """Play the replay's deal and moves on the reference and the engine in lock-step."""
    deal = replay.position(ruleset)
    return Games(ruleset).play(engine, deal, script(replay.moves))


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
