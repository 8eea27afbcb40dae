"""`fuzz --campaign N`: N seeds derived from the printed base seed, every diverging seed's replay
kept under a name with its seed, the first divergence in seed order deciding the summary and the
exit code, the same output for any number of worker processes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from click.testing import CliRunner, Result
from five35.checks.fuzz.differential import campaign_seed
from five35.cli import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"
# With 3 rounds a run, seed 0 of base seed 0 misses this bug and the other five find it.
SOMETIMES = f"{EXAMPLE} --bug eight-points"


@pytest.fixture
def here(tmp_path: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def _campaign(engine: str, *extra: str) -> Result:
    return CliRunner().invoke(main, ["fuzz", "--engine", engine, "--examples", "3", *extra])


def test_seeds_derive_from_the_base_seed() -> None:
    seeds = [campaign_seed(0, i) for i in range(50)]
    assert len(set(seeds)) == 50 and all(0 <= s < 2**48 for s in seeds)
    assert seeds == [campaign_seed(0, i) for i in range(50)]
    assert campaign_seed(1, 0) not in seeds


def test_every_divergence_keeps_its_replay_and_the_first_in_seed_order_wins(here: Path) -> None:
    result = _campaign(SOMETIMES, "--campaign", "6", "--format", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    runs = data["runs"]
    assert [r["seed"] for r in runs] == [campaign_seed(0, i) for i in range(6)]
    diverged = [r for r in runs if r["result"] == "divergence"]
    agreed = [r for r in runs if r["result"] == "agree"]
    assert diverged and agreed  # the test means something only with both kinds
    assert sorted(p.name for p in here.iterdir()) == sorted(
        f"535-replay-seed{r['seed']}.json" for r in diverged
    )
    first = data["first_divergence"]
    assert first["index"] == diverged[0]["index"] > runs[0]["index"]
    assert first["replay"] == f"535-replay-seed{first['seed']}.json"
    assert json.loads(Path(first["replay"]).read_text()) == first["witness"]
    for run in agreed:
        assert run["replay"] is None
    # Each replay is the divergence of its own seed: replaying it on the engine shows it again.
    for run in diverged:
        again = CliRunner().invoke(main, ["replay", run["replay"], "--engine", SOMETIMES])
        assert again.exit_code == 1, again.output


def test_replay_out_holds_the_first_and_the_others_carry_their_seed(here: Path) -> None:
    result = _campaign(SOMETIMES, "--campaign", "3", "--replay-out", "found.json")
    assert result.exit_code == 1, result.output
    text = result.stdout
    names = sorted(p.name for p in here.iterdir())
    seeds = [campaign_seed(0, i) for i in (1, 2)]
    assert names == sorted(["found.json", *(f"found-seed{s}.json" for s in seeds)])
    assert (here / "found.json").read_text() == (here / f"found-seed{seeds[0]}.json").read_text()
    assert f"FIRST DIVERGENCE (run 1, seed {seeds[0]})" in text
    assert "replay written to found.json" in text
    assert f"run 0, seed {campaign_seed(0, 0)}: agree" in text


def test_the_output_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        folder = tmp_path / jobs
        folder.mkdir()
        old = Path.cwd()
        os.chdir(folder)
        try:
            result = _campaign(
                SOMETIMES, "--campaign", "4", "--jobs", jobs, "--seed", "3", "--format", "json"
            )
        finally:
            os.chdir(old)
        assert result.exit_code in (0, 1), result.output
        files = {p.name: p.read_text() for p in folder.iterdir()}
        outputs.append((result.stdout, files))
    assert outputs[0] == outputs[1]
    assert "campaign of 4 seeds from base seed 3" in result.stderr


def test_a_clean_engine_agrees_on_every_seed(here: Path) -> None:
    result = _campaign(EXAMPLE, "--campaign", "2")
    assert result.exit_code == 0, result.output
    assert "no divergence" in result.stdout
    assert list(here.iterdir()) == []


def test_an_engine_that_crashes_in_a_run_is_an_engine_fault(here: Path) -> None:
    result = _campaign(f"{EXAMPLE} --fault crash --fault-after 30", "--campaign", "2", "--examples", "20")
    assert result.exit_code == 3, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("535-check: error:")]
    assert len(errors) == 1 and f"run 0, seed {campaign_seed(0, 0)}: engine fault (crash)" in errors[0]
    assert "Traceback" not in result.output


def test_bad_campaign_options_are_one_line_exit_2(tmp_path: Path) -> None:
    run_bad_input(
        ["fuzz", "--engine", EXAMPLE, "--campaign", "0"], 2, "--campaign", "whole number", cwd=tmp_path
    )
    run_bad_input(["fuzz", "--engine", EXAMPLE, "--jobs", "2"], 2, "--jobs", "--campaign", cwd=tmp_path)
    run_bad_input(
        ["fuzz", "--engine", EXAMPLE, "--campaign", "2", "--scheduler", "tcp://127.0.0.1:8786"],
        2,
        "--scheduler",
        "--executor dask",
        cwd=tmp_path,
    )
