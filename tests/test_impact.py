"""Impact estimation: how often a reading changes simulated play, per player count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from five35.checks.impact import (
    ImpactCounts,
    comparison,
    estimate_impact,
    measure,
    wilson,
)
from five35.engine import Game, Pile, State
from five35.spec import Ruleset, Spec, load_spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


def _measure(spec: Spec, point: str, players: int, games: range, seed: int = 3) -> ImpactCounts:
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, point)
    return measure(rs, {point: (other, (played, alt))}, players, games, base_seed=seed)[point]


def test_wilson_interval_known_values() -> None:
    assert wilson(0, 20) == (0.0, 0.1611)
    assert wilson(20, 20) == (0.8389, 1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(1 - hi, abs=1e-4)
    assert lo < 0.5 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def test_comparison_changes_only_the_point(spec: Spec) -> None:
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, "run_order")
    assert (played, alt) == ("lower_beats", "higher_beats")
    changed = {p for p in rs.readings if rs.reading(p) != other.reading(p)}
    assert changed == {"run_order"}
    assert comparison(spec, rs, "run_order", "lower_beats")[2] == "lower_beats"


def test_turn_order_cannot_matter_with_two_players(spec: Spec) -> None:
    # With two players both directions give the turn to the other player: no game may change.
    assert _measure(spec, "turn_order", 2, range(15)).affected == 0
    three = _measure(spec, "turn_order", 3, range(15))
    assert three.affected == 15
    assert three.first_change == {"next_turn": 15}


def test_five_player_copies_matters_only_with_five_players(spec: Spec) -> None:
    assert _measure(spec, "five_player_copies", 4, range(10)).affected == 0
    five = _measure(spec, "five_player_copies", 5, range(10))
    assert five.affected == 10
    assert five.first_change == {"deal": 10}
    assert five.witness is not None
    outcomes = five.witness.outcomes
    # BGA's 12 cards for 5 players cannot be dealt from 4 copies (52 cards)
    assert "error" in outcomes["five_is_small"]
    assert outcomes["five_is_large"]["deck"] == 65


def test_deal_readings_agree_with_six_players(spec: Spec) -> None:
    # 65 cards dealt evenly to 6 players is 10 each, exactly the table's 10: no game differs.
    assert _measure(spec, "deal", 6, range(10)).affected == 0
    assert _measure(spec, "deal", 4, range(5)).affected == 5


def test_split_ranges_merge_to_the_whole(spec: Spec) -> None:
    whole = _measure(spec, "eight_exemption", 4, range(24))
    parts = _measure(spec, "eight_exemption", 4, range(0, 10)).merge(
        _measure(spec, "eight_exemption", 4, range(10, 24))
    )
    assert parts == whole
    assert 0 < whole.affected < 24


def test_measure_is_deterministic(spec: Spec) -> None:
    assert _measure(spec, "run_wrap", 3, range(12)) == _measure(spec, "run_wrap", 3, range(12))
    assert _measure(spec, "run_wrap", 3, range(12), seed=1) != _measure(
        spec, "run_wrap", 3, range(12), seed=2
    )


def _rebuild(game: Game, situation: Mapping[str, Any]) -> State:
    """The state a witness draws: the mover's hand, the pile, who passed and who placed last. The
    other hands play no part in what the mover may do; each gets one card of its own rank."""
    mover = situation["to_move"]
    spare = [r for r in game.ruleset.ranks if r not in situation["hand"]]
    hands = [list(situation["hand"]) if seat == mover else [spare[seat]] for seat in range(game.players)]
    state = game.start_round(hands, mover)
    passed = 0
    for p in situation["passed"]:
        passed |= 1 << p
    return replace(
        state,
        pile=Pile.from_json(situation["pile"]),
        opening_has_eight=situation["opening_has_eight"],
        passed=passed,
        last_player=situation["trick"][-1]["player"],
    )


def test_witness_shows_a_real_difference(spec: Spec) -> None:
    """The witness of run_order is a table where a move is legal under one reading only; the
    engine under each reading confirms it."""
    counts = _measure(spec, "run_order", 4, range(10))
    witness = counts.witness
    assert witness is not None
    assert witness.situation["pile"] is not None
    # shrunk to the pile and the few cards of one move the readings disagree on
    assert witness.cards == len(witness.situation["pile"]["cards"]) + len(witness.situation["hand"]) <= 6
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, "run_order")
    only_played = witness.outcomes[played]["only_here"]
    only_other = witness.outcomes[alt]["only_here"]
    assert only_played or only_other
    for ruleset, mine, theirs in ((rs, only_played, only_other), (other, only_other, only_played)):
        game = Game(ruleset, 4)
        legal = {str(m) for m in game.legal_moves(_rebuild(game, witness.situation))}
        assert set(mine) <= legal
        assert not set(theirs) & legal


class IgnoresRunOrder(Game):
    """A deliberately wrong engine: runs compare like sets whatever the reading says."""

    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind != old.kind or new.size != old.size:
            return False
        rank = self.ruleset.ranks.index
        return rank(new.cards[0]) > rank(old.cards[0])


def test_an_engine_that_ignores_the_reading_shows_no_impact(spec: Spec) -> None:
    rs = spec.ruleset()
    real = estimate_impact(spec, rs, "run_order", games=6, seed=1)
    ignoring = estimate_impact(spec, rs, "run_order", games=6, seed=1, engine=IgnoresRunOrder)
    assert sorted(real.per_players) == [2, 3, 4, 5, 6]
    assert all(row[0] > 0 for row in real.per_players.values())
    assert all(row[0] == 0 for row in ignoring.per_players.values())
    assert real.games == 6 and real.seed == 1
    assert "lower_beats" in real.method and "higher_beats" in real.method
    data = real.to_json()
    assert (
        data["per_players"]["4"]["ci_low"]
        <= data["per_players"]["4"]["share"]
        <= data["per_players"]["4"]["ci_high"]
    )


def test_a_point_settled_by_the_deck_never_matters(spec: Spec) -> None:
    # Under the published rules no run or set can grow past its closing card (runs stop at the
    # gaps, sets at the number of copies), so add_past_closing never changes play.
    rs: Ruleset = spec.ruleset()
    impact = estimate_impact(spec, rs, "add_past_closing", games=8, seed=2)
    assert all(row[0] == 0 for row in impact.per_players.values())
