"""Replay files: written by fuzz, valid against their schema, re-run side by side, bad ones refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.protocol.messages import schema
from five35.protocol.replay import load_replay, side_by_side
from five35.spec import SpecError, load_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"


@pytest.fixture(scope="module")
def run_gap_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "run-gap.json"
    result = CliRunner().invoke(
        main,
        [
            "fuzz",
            "--engine",
            f"{EXAMPLE} --bug run-gap",
            "--seed",
            "0",
            "--examples",
            "200",
            "--replay-out",
            str(path),
        ],
    )
    assert result.exit_code == 1, result.output
    return path


def test_the_replay_file_is_valid_and_complete(run_gap_replay: Path) -> None:
    data = json.loads(run_gap_replay.read_text())
    jsonschema.Draft202012Validator(schema("replay")).validate(data)
    assert data["readings"] == load_spec().ruleset().readings
    assert data["engine"].endswith("--bug run-gap") and data["seed"] == 0
    d = data["divergence"]
    assert d["request"] == "legal" and d["reference"]["ok"] and d["engine"]["ok"]
    extra = _gap_moves(data)
    assert extra and all(move not in d["reference"]["moves"] for move in extra)


def _gap_moves(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves only the engine lists: each places a 7 after a 5 (or an 11 after a 9), across a
    missing rank, in its own cards or onto the pile."""
    d = data["divergence"]
    extra = [m for m in d["engine"]["moves"] if m not in d["reference"]["moves"]]
    for move in extra:
        if move["action"] == "lead":
            assert {5, 7} <= set(move["cards"]) or {9, 11} <= set(move["cards"]), move
        else:
            assert 7 in move["cards"] or 11 in move["cards"] or 5 in move["cards"] or 9 in move["cards"], move
    return extra


def test_replay_shows_both_answers_side_by_side(run_gap_replay: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(run_gap_replay), "--engine", f"{EXAMPLE} --bug run-gap"])
    assert result.exit_code == 1
    out = result.output
    data = json.loads(run_gap_replay.read_text())
    assert f"diverges at step {data['divergence']['step']}, request legal" in out
    header = next(line for line in out.splitlines() if line.startswith("reference"))
    assert header.split() == ["reference", "engine"]
    # A move only the engine lists is on a line of its own, marked `>`.
    shown = {f"{m['action']} {','.join(map(str, m['cards']))}" for m in _gap_moves(data)}
    marked = [line for line in out.splitlines() if " > " in line]
    assert any(line.rstrip().rstrip(",").endswith(f'"{move}"') for line in marked for move in shown), out


def test_replay_json_and_a_fixed_engine(run_gap_replay: Path) -> None:
    result = CliRunner().invoke(
        main, ["replay", str(run_gap_replay), "--engine", f"{EXAMPLE} --bug run-gap", "--format", "json"]
    )
    data = json.loads(result.stdout)
    assert data["result"] == "divergence" and data["divergence"]["request"] == "legal"
    fixed = CliRunner().invoke(main, ["replay", str(run_gap_replay), "--engine", EXAMPLE])
    assert fixed.exit_code == 0 and "no divergence" in fixed.output


def hand_written(**changes: Any) -> dict[str, Any]:
    ruleset = load_spec().ruleset()
    data: dict[str, Any] = {
        "format": "five35-replay/1",
        "engine": "example",
        "seed": 0,
        "profile": "published",
        "readings": ruleset.readings,
        "parameters": ruleset.to_json()["parameters"],
        "deal": {"players": 2, "hands": [[1], [2, 3]], "leader": 1, "scores": [0, 0]},
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
    data.update(changes)
    return data


def test_a_hand_written_replay_reproduces_a_bug(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand_written()))
    result = CliRunner().invoke(main, ["replay", str(path), "--engine", f"{EXAMPLE} --bug passed-winner"])
    assert result.exit_code == 1
    assert "diverges at step 1, request apply" in result.output and "all_passed" in result.output
    result = CliRunner().invoke(main, ["replay", str(path), "--engine", EXAMPLE])
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps(hand_written(format="other/9")), "format"),
        (json.dumps({k: v for k, v in hand_written().items() if k != "deal"}), "deal"),
        (json.dumps(hand_written(moves=[{"action": "fly", "cards": []}])), "moves/0/action"),
        (json.dumps(hand_written(moves=[{"action": "lead", "cards": [3, 2]}])), "sorted"),
    ],
)
def test_bad_replay_files_are_one_line_usage_errors(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SpecError) as info:
        load_replay(path)
    assert words in str(info.value) and str(path) in str(info.value)
    result = CliRunner().invoke(main, ["replay", str(path), "--engine", EXAMPLE])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_a_missing_replay_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "nope.json"), "--engine", EXAMPLE])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_side_by_side_marks_differences() -> None:
    text = side_by_side({"ok": True, "events": []}, {"ok": True, "events": [{"event": "trick_end"}]})
    lines = text.splitlines()
    assert lines[0].split() == ["reference", "engine"]
    assert any(" | " in line or " > " in line for line in lines[2:])
    same = side_by_side({"a": [1, 2]}, {"a": [1, 2]})
    assert not any(mark in same for mark in (" | ", " < ", " > "))
