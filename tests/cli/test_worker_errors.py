"""An error in a worker process reaches the user as it would with --jobs 1 (issue 20): the same one
line, naming the same place, with the same exit code; a worker killed from outside is named as
such, with the unit it was running (exit 3)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result
from five35.cli.common import EXIT_ENGINE_FAULT, EXIT_USAGE
from five35.cli.main import main
from five35.engine import simulate as simulate_module
from five35.spec import SpecError

PARENT = os.getpid()
_real_simulate = simulate_module.simulate


def _simulate_raising(*args: Any, **kwargs: Any) -> Any:
    # The same error from the same games, in this process (--jobs 1) or in a worker (--jobs 2).
    seeds = args[2]
    if 7 in seeds:
        raise SpecError("house.yaml:179: parameters.hand_size", "2 hands of 24 need 48 cards")
    return _real_simulate(*args, **kwargs)


def _simulate_killed(*args: Any, **kwargs: Any) -> Any:
    if os.getpid() != PARENT and 7 in args[2]:
        os.kill(os.getpid(), signal.SIGKILL)
    return _real_simulate(*args, **kwargs)


def _run(monkeypatch: pytest.MonkeyPatch, replacement: Callable[..., Any], jobs: int) -> Result:
    # Worker processes are forked from this one, so they play the replacement too.
    monkeypatch.setattr(simulate_module, "simulate", replacement)
    args = ["simulate", "--games", "16", "--players", "3", "--jobs", str(jobs), "--format", "json"]
    return CliRunner().invoke(main, args)


def _one_line(result: Result) -> str:
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_an_error_raised_in_a_worker_is_the_line_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _run(monkeypatch, _simulate_raising, 1)
    spread = _run(monkeypatch, _simulate_raising, 2)
    assert alone.exit_code == spread.exit_code == EXIT_USAGE, (alone.output, spread.output)
    line = _one_line(alone)
    assert line == "535-check: error: house.yaml:179: parameters.hand_size: 2 hands of 24 need 48 cards"
    assert _one_line(spread) == line


def test_a_worker_killed_from_outside_is_named_with_its_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(monkeypatch, _simulate_killed, 2)
    assert result.exit_code == EXIT_ENGINE_FAULT, result.output
    line = _one_line(result)
    assert line.startswith("535-check: error: a worker process was killed by SIGKILL"), line
    assert "while running unit" in line and "simulating games" in line and "at 3 players" in line, line


def test_the_killed_unit_s_games_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    line = _one_line(_run(monkeypatch, _simulate_killed, 2))
    # 16 games cut into 8 parts of 2 for 2 workers: game 7 is in the fourth, games 6-7.
    assert "unit 4 of 8: simulating games 6-7 at 3 players" in line, line
