"""Every clause that governs play and every reading of every variation point has a scenario test.

The scenario modules register what they cite (scenario_tools.cites) when they are imported; this test
imports them all and compares against the spec, so a clause or reading added to the spec without a
scenario fails here.
"""

from __future__ import annotations

import importlib

from scenario_tools import COVERED_CLAUSES, COVERED_READINGS, all_reading_names, spec

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
