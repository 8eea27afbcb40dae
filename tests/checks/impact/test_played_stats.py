"""The impact units count the played rules' games for the variant comparison too (issue 12, item 3):
what they count must be exactly what `simulate` counts for the same games, whether every comparison
diverges early in a game, none is compared at all, or some never differ."""

from __future__ import annotations

import pytest
from five35.checks.impact.estimate import comparison
from five35.checks.impact.measure import measure, measure_with_stats
from five35.checks.impact.outcomes import play_outcomes
from five35.checks.job import run as job
from five35.engine import Game
from five35.engine.simulate import simulate
from five35.spec import Spec

BOTS = ("greedy", "cautious", "random")


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("points", [(), ("deal",), ("turn_order", "add_past_closing", "deal")])
def test_played_stats_are_simulates(spec: Spec, players: int, points: tuple[str, ...]) -> None:
    played = spec.ruleset()
    compared = {}
    for point in points:
        rs, chosen, other = comparison(spec, played, point)
        compared[point] = (rs, (chosen, other))
    games = range(3, 15)
    counts, stats, matches = measure_with_stats(played, compared, players, games, base_seed=535, bots=BOTS)
    # The bots take turns round the seats, in the impact measurement as in the report's simulations.
    assert stats == simulate(played, players, games, list(BOTS), "match", base_seed=535, turning=True)
    # The matches' results are those the outcome play gives for the same matches.
    assert matches == play_outcomes(Game, played, players, games, 535, BOTS).matches
    assert counts == measure(played, compared, players, games, base_seed=535, bots=BOTS)


def test_report_variants_equal_a_separate_comparison(spec: Spec) -> None:
    ruleset = spec.ruleset()
    data = job.report_result(spec, ruleset, games=8, seed=7, results=[], bots=BOTS)
    alone = job.simulate_variants(spec, ruleset, 8, 7, BOTS)
    assert data.variants == tuple(alone)
