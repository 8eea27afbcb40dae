"""`535-check merge`: simulate JSON of adjacent game ranges merges into exactly what one run over
the union prints; anything else is refused in one line naming the file and the key (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from click.testing import CliRunner
from five35.cli import main
from five35.cli.simulation_files import merge_simulations, read_simulation
from five35.engine.stats import SimulationFileError
from five35.spec.limits import MAX_DEPTH

BASE = ["simulate", "--players", "3", "--seed", "9", "--bots", "random,greedy,cautious", "--format", "json"]


def _simulate(*extra: str) -> str:
    result = CliRunner().invoke(main, [*BASE, *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("parts")
    runs = {
        "all": ("--games", "10"),
        "a": ("--games", "3"),
        "b": ("--games", "4", "--first-game", "3"),
        "c": ("--games", "3", "--first-game", "7"),
        "late": ("--games", "2", "--first-game", "8"),
        "gap": ("--games", "2", "--first-game", "5"),
        "other_seed": ("--games", "4", "--first-game", "3", "--seed", "10"),
        "other_bots": ("--games", "4", "--first-game", "3", "--bots", "random"),
        "rounds": ("--games", "4", "--first-game", "3", "--mode", "round"),
        "other_rules": ("--games", "4", "--first-game", "3", "--reading", "run_wrap=wrap"),
    }
    out = {}
    for name, extra in runs.items():
        path = folder / f"{name}.json"
        path.write_text(_simulate(*extra))
        out[name] = path
    return out


def _merge(*paths: Path, fmt: str = "json") -> str:
    result = CliRunner().invoke(main, ["merge", *map(str, paths), "--format", fmt])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_merged_parts_equal_one_run_byte_for_byte(parts: dict[str, Path]) -> None:
    whole = parts["all"].read_text()
    assert _merge(parts["a"], parts["b"], parts["c"]) == whole
    # In any order: the ranges say where each part goes.
    assert _merge(parts["c"], parts["a"], parts["b"]) == whole
    # A merge of merges is a merge too.
    first_two = parts["a"].parent / "ab.json"
    first_two.write_text(_merge(parts["a"], parts["b"]))
    assert _merge(first_two, parts["c"]) == whole
    # One file merges into itself.
    assert _merge(parts["b"]) == parts["b"].read_text()


def test_first_game_plays_the_games_of_the_whole_run(parts: dict[str, Path]) -> None:
    a, b = json.loads(parts["a"].read_text()), json.loads(parts["b"].read_text())
    whole = json.loads(parts["all"].read_text())
    assert (a["first_game"], a["games"], b["first_game"], b["games"]) == (0, 3, 3, 4)
    assert whole["first_game_seed"] == a["first_game_seed"] != b["first_game_seed"]
    # The exact counts add up; the stats beside them are what they say.
    assert a["counts"]["moves"]["pass"] + b["counts"]["moves"]["pass"] <= whole["counts"]["moves"]["pass"]
    assert sum(whole["counts"]["wins"]) >= whole["games"]


def test_text_format_is_the_simulate_summary(parts: dict[str, Path]) -> None:
    text = _merge(parts["a"], parts["b"], parts["c"], fmt="text")
    alone = CliRunner().invoke(main, [*BASE[:-2], "--games", "10"])
    assert text == alone.stdout


def test_the_library_refuses_what_the_command_refuses(parts: dict[str, Path]) -> None:
    a = read_simulation(parts["a"].read_bytes(), "a.json")
    b = read_simulation(parts["b"].read_bytes(), "b.json")
    assert merge_simulations([a, b])["games"] == 7
    with pytest.raises(SimulationFileError, match=r"b\.json: first_game: games 3-6 overlap"):
        merge_simulations([b, read_simulation(parts["b"].read_bytes(), "b.json")])
    with pytest.raises(ValueError, match="at least one"):
        merge_simulations([])


def _edited(parts: dict[str, Path], tmp_path: Path, name: str, change: str, into: str) -> str:
    text = parts["b"].read_text()
    assert change in text, change
    (tmp_path / name).write_text(text.replace(change, into, 1))
    return name


def test_bad_merges_are_one_line_naming_the_file_and_key(parts: dict[str, Path], tmp_path: Path) -> None:
    for name, path in parts.items():
        (tmp_path / f"{name}.json").write_text(path.read_text())
    cases: list[tuple[list[str], tuple[str, ...]]] = [
        (["a.json", "all.json"], ("all.json: first_game: games 0-9 overlap a.json's games 0-2",)),
        (["b.json", "late.json", "c.json"], ("first_game", "overlap")),
        (["a.json", "gap.json"], ("gap.json: first_game: games 3-4 are in no file",)),
        (["a.json", "other_seed.json"], ("other_seed.json: seed: differs from a.json's (10, not 9)",)),
        (["a.json", "other_bots.json"], ("other_bots.json: counts: bots: differs",)),
        (["a.json", "rounds.json"], ("rounds.json: counts: mode: differs",)),
        (["a.json", "other_rules.json"], ("other_rules.json: ruleset: differs",)),
        (["a.json", "a.json"], ("a.json: given twice",)),
        (["a.json", "missing.json"], ("missing.json", "cannot read")),
    ]
    for files, needles in cases:
        run_bad_input(["merge", *files], 2, *needles, cwd=tmp_path)
    run_bad_input(["merge"], 2, "FILE", cwd=tmp_path)


def test_damaged_files_are_one_line_naming_the_file_and_key(parts: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "not_json.json").write_text("{")
    (tmp_path / "deep.json").write_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "report.json").write_text(json.dumps({"command": "check"}))
    cases = {
        "not_json.json": ("not_json.json", "not valid JSON"),
        "deep.json": ("deep.json", "nested"),
        "list.json": ("list.json: command",),
        "report.json": ("report.json: command",),
        _edited(parts, tmp_path, "negative.json", '"ties": ', '"ties": -1, "x": '): ("negative.json", "ties"),
        _edited(parts, tmp_path, "no_counts.json", '"counts"', '"kounts"'): ("no_counts.json: counts",),
        _edited(parts, tmp_path, "edited.json", '"games": 4', '"games": 5'): ("edited.json",),
        _edited(parts, tmp_path, "bad_pairs.json", '"moves_per_round": [', '"moves_per_round": [7, '): (
            "bad_pairs.json: counts.moves_per_round[0]",
        ),
        _edited(parts, tmp_path, "bad_seed.json", '"seed": 9', '"seed": "nine"'): ("bad_seed.json: seed",),
    }
    for name, needles in cases.items():
        run_bad_input(["merge", name], 2, *needles, cwd=tmp_path)


def test_stats_that_do_not_match_their_counts_are_refused(parts: dict[str, Path], tmp_path: Path) -> None:
    data = json.loads(parts["b"].read_text())
    data["stats"]["ties"] += 1
    (tmp_path / "tampered.json").write_text(json.dumps(data))
    run_bad_input(
        ["merge", "tampered.json"], 2, "tampered.json: stats: does not match the counts", cwd=tmp_path
    )


def test_bad_first_game_is_refused_like_every_number(tmp_path: Path) -> None:
    run_bad_input(["simulate", "--first-game", "-1"], 2, "--first-game", "whole number", cwd=tmp_path)
