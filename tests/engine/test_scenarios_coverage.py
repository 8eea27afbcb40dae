"""Every clause that governs play and every reading of every variation point has a scenario test.

The scenario modules register what they cite (scenario_tools.cites) when they are imported; this test
imports them all and compares against the spec, so a clause or reading added to the spec without a
scenario fails here.
"""

from __future__ import annotations

import importlib

from five35.engine import Game
from scenario_tools import COVERED_CLAUSES, COVERED_READINGS, ENGINES, HookedGame, all_reading_names, spec

SCENARIO_MODULES = (
    "test_scenarios_deal",
    "test_scenarios_piles",
    "test_scenarios_tricks",
    "test_scenarios_round",
)

# The title is the only clause that says nothing about play.
NOT_ABOUT_PLAY = {"title"}


def _load() -> None:
    for name in SCENARIO_MODULES:
        importlib.import_module(name)


def test_every_clause_that_governs_play_has_a_scenario() -> None:
    _load()
    missing = sorted(set(spec().clauses) - NOT_ABOUT_PLAY - COVERED_CLAUSES)
    assert not missing, f"clauses without a scenario test: {missing}"


def test_every_reading_has_a_scenario() -> None:
    _load()
    missing = sorted(set(all_reading_names()) - COVERED_READINGS)
    assert not missing, f"readings without a scenario test: {missing}"


def test_the_engine_paths_take_the_path_they_name() -> None:
    """scenario_tools.ENGINES: Game's fast path; the fast path through every hook overridden (none
    left out as Game.HOOKS grows); the plain path."""
    rules = spec().ruleset()
    fast, hooked, plain = (ENGINES[name](rules, 4) for name in ("fast", "hooked", "plain"))
    assert fast._fast and fast._own_rule_of_8 and fast._own_trick_winner
    assert [h for h in Game.HOOKS if getattr(HookedGame, h) is getattr(Game, h)] == []
    assert hooked._fast and not hooked._own_rule_of_8 and not hooked._own_trick_winner
    assert not plain._fast
    assert all(isinstance(game, Game) for game in (fast, hooked, plain))
