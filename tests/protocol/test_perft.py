"""perft: the published values in docs/perft.md, the divide, and comparing engines."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.engine import Game
from five35.protocol.perft import divide, perft, root_deal
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"
SERVE = f"{Path(sys.executable).parent / '535-check'} serve"


def published_rows() -> list[tuple[str, int, int, list[int]]]:
    text = (ROOT / "docs" / "perft.md").read_text(encoding="utf-8")
    table = text.split("<!-- perft-table:begin -->")[1].split("<!-- perft-table:end -->")[0]
    rows = []
    for line in table.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append((cells[0], int(cells[1]), int(cells[2]), [int(c) for c in cells[3:]]))
    return rows


def test_published_table_covers_every_profile() -> None:
    rows = published_rows()
    assert {r[0] for r in rows} == set(load_spec().profiles)
    assert all(len(r[3]) == 5 for r in rows) and len(rows) == 7 * 3


def test_published_perft_values_hold() -> None:
    spec = load_spec()
    for profile, players, seed, counts in published_rows():
        game = Game(spec.ruleset(profile), players)
        state, _ = root_deal(game, seed)
        # Depth 5 is recomputed where it is cheap (the published profile deals 10-13 cards).
        depth = 5 if profile == "published" else 4
        got = [perft(game, state, d) for d in range(1, depth + 1)]
        assert got == counts[:depth], (profile, players, seed)


def test_divide_adds_up_and_the_cli_prints_it() -> None:
    game = Game(load_spec().ruleset(), 4)
    state, _ = root_deal(game, 1)
    rows = divide(game, state, 3)
    assert sum(n for _, n in rows) == perft(game, state, 3) == 523
    result = CliRunner().invoke(main, ["perft", "--players", "4", "--seed", "1", "--depth", "3"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[-1] == "leaves: 523"
    divided = [int(m.group(1)) for m in (re.match(r"^\w+ [\d,]+: (\d+)$", line) for line in lines) if m]
    assert len(divided) == len(rows) and sum(divided) == 523


def test_depth_zero_and_json() -> None:
    result = CliRunner().invoke(
        main, ["perft", "--players", "2", "--seed", "2", "--depth", "0", "--format", "json"]
    )
    assert result.exit_code == 0 and json.loads(result.output)["leaves"] == 1
    result = CliRunner().invoke(
        main, ["perft", "--players", "2", "--seed", "2", "--depth", "2", "--format", "json"]
    )
    data = json.loads(result.output)
    assert data["leaves"] == 87 and sum(d["leaves"] for d in data["divide"]) == 87
    assert data["deal"]["players"] == 2 and len(data["deal"]["hands"]) == 2


def test_bad_player_count_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["perft", "--players", "8", "--seed", "1", "--depth", "1"])
    assert result.exit_code == 2 and "8 players" in result.output and "Traceback" not in result.output


def test_the_reference_server_agrees() -> None:
    result = CliRunner().invoke(
        main, ["perft", "--players", "4", "--seed", "1", "--depth", "3", "--engine", SERVE]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "leaves: 523"


def test_the_engines_readings_set_the_reference() -> None:
    # An in-process reference under german-literal: perft follows the engine's readings.
    result = CliRunner().invoke(
        main,
        [
            "perft",
            "--players",
            "4",
            "--seed",
            "2",
            "--depth",
            "3",
            "--engine",
            f"python:{Path(__file__).resolve()}:german_engine",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "german-literal" in result.output.splitlines()[0]
    assert result.output.splitlines()[-1] == "leaves: 547"


def german_engine() -> object:
    from five35.protocol.server import ReferenceEngine

    return ReferenceEngine(load_spec().ruleset("german-literal"))


PERFT_FINDS = ["lead-pass", "opening-eight", "run-gap", "set-close", "passed-winner", "run-order"]


@pytest.mark.parametrize("bug", PERFT_FINDS)
def test_perft_finds_planted_bugs(bug: str) -> None:
    result = CliRunner().invoke(
        main,
        ["perft", "--players", "2", "--seed", "2", "--depth", "4", "--engine", f"{EXAMPLE} --bug {bug}"],
    )
    assert result.exit_code == 1, result.output
    assert "the engine differs after" in result.output and "reference" in result.output


def test_perft_cannot_see_penalty_points() -> None:
    # Scoring happens at the end of a round, far beyond perft's depth: only fuzz finds this bug.
    result = CliRunner().invoke(
        main,
        [
            "perft",
            "--players",
            "2",
            "--seed",
            "2",
            "--depth",
            "3",
            "--engine",
            f"{EXAMPLE} --bug eight-points",
        ],
    )
    assert result.exit_code == 0 and result.output.splitlines()[-1] == "leaves: 691"


def test_an_engine_fault_during_perft_exits_3() -> None:
    result = CliRunner().invoke(
        main,
        [
            "perft",
            "--players",
            "2",
            "--seed",
            "1",
            "--depth",
            "3",
            "--timeout",
            "0.5",
            "--engine",
            f"{EXAMPLE} --fault crash --fault-after 3",
        ],
    )
    assert result.exit_code == 3 and "engine fault (crash)" in result.output
