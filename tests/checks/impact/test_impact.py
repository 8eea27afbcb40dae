"""Impact estimation: how often a reading changes simulated play, per player count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from five35.checks.findings import Alternative, Finding
from five35.checks.impact.alternatives import clause_deleted
from five35.checks.impact.estimate import (
    alternative_unit,
    comparison,
    estimate_alternatives,
    estimate_impact,
    to_impact,
)
from five35.checks.impact.measure import ImpactCounts, measure
from five35.checks.impact.scenes import scene_witness
from five35.checks.impact.variants import VARIANTS, AddClosesOnly, ExampleOrder, RunsUncapped, SetsNeverClose
from five35.checks.impact.witnesses import WORDS, situation_of
from five35.checks.text.text_audit import text_audit
from five35.engine import Game, Move, Pile, State
from five35.engine import hooks as hooks_module
from five35.engine.stats import wilson_interval
from five35.spec import Ruleset, Spec, load_spec
from five35.spec.words import words_of

HOOKS = Game.HOOKS

IMPACT = words_of(load_spec()).check("impact")
WITNESS = words_of(load_spec()).check(WORDS)


def _measure(spec: Spec, point: str, players: int, games: range, seed: int = 3) -> ImpactCounts:
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, point)
    return measure(rs, {point: (other, (played, alt))}, players, games, base_seed=seed)[point]


def test_impact_uses_the_engines_wilson_interval() -> None:
    assert wilson_interval(0, 20) == (0.0, 0.1611)
    assert wilson_interval(20, 20) == (0.8389, 1.0)
    lo, hi = wilson_interval(5, 10) or (0.0, 0.0)
    assert lo == pytest.approx(1 - hi, abs=1e-4)
    assert lo < 0.5 < hi
    impact = to_impact({2: ImpactCounts(games=20, affected=0), 3: ImpactCounts()}, 20, 1, "m")
    assert impact.per_players[2] == (0, 0.0, 0.0, 0.1611)
    # no game played at a count: nothing is known, the interval is the whole range
    assert impact.per_players[3] == (0, 0.0, 0.0, 1.0)


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


# ---- the alternatives of findings that are not one variation point --------------------------------


def _audited(spec: Spec, fid: str, rs: Ruleset | None = None) -> Finding:
    return {f.id: f for f in text_audit(spec, rs or spec.ruleset())}[fid]


def _alt(spec: Spec, fid: str, rs: Ruleset | None = None) -> Alternative:
    """The alternative the text audit fills in for one of its findings."""
    alt = _audited(spec, fid, rs).alternative
    assert alt is not None, fid
    return alt


def _after(game: Game, hands: list[list[int]], plays: list[Move]) -> tuple[State, tuple[object, ...]]:
    state = game.start_round(hands, 0)
    events: tuple[object, ...] = ()
    for move in plays:
        state, events = game.apply(state, move)
    return state, events


def test_the_verb_alternative_parts_from_the_engine_once_four_cards_a_turn_are_allowed(spec: Spec) -> None:
    # With at most 3 cards a turn the two wordings cannot differ; with 4 the Spanish 'añade'
    # keeps a led set of four open where the German 'legt' closes it, so the measured 0 is not a
    # comparison of an engine with itself.
    four = replace(spec.ruleset(), max_cards_per_turn=4)
    hands = [[3, 3, 3, 3, 1], [2, 5]]
    _, german = _after(Game(four, 2), hands, [Move("lead", (3, 3, 3, 3))])
    _, spanish = _after(AddClosesOnly(four, 2), hands, [Move("lead", (3, 3, 3, 3))])
    assert [type(e).__name__ for e in german] == ["TrickEnd"]
    assert spanish == ()
    assert _alt(spec, "mismatch.trick.end.set.verb").compared.engine is AddClosesOnly


def test_the_repaired_example_parts_from_an_eight_that_beats_everything(spec: Spec) -> None:
    strongest = spec.ruleset(readings={"eight_rank": "strongest"})
    state = Game(strongest, 2).start_round([[8, 1], [14, 2]], 0)
    state, _ = Game(strongest, 2).apply(state, Move("lead", (8,)))
    assert Move("overwrite", (14,)) not in Game(strongest, 2).legal_moves(state)
    assert Move("overwrite", (14,)) in ExampleOrder(strongest, 2).legal_moves(state)


def test_deleted_clauses_change_play_where_they_are_alive(spec: Spec) -> None:
    rs = spec.ruleset()
    hands = [[3, 3, 3, 1], [3, 2]]
    _, kept = _after(Game(rs, 2), hands, [Move("lead", (3, 3, 3)), Move("add", (3,))])
    _, deleted = _after(SetsNeverClose(rs, 2), hands, [Move("lead", (3, 3, 3)), Move("add", (3,))])
    assert kept and not deleted
    # with gaps skipped a run can outgrow its closing size: the cap then decides an add
    skipped = spec.ruleset(readings={"run_gaps": "gaps_skipped"})
    hands = [[1, 2, 3, 11], [4, 5, 7, 12]]
    state, _ = _after(Game(skipped, 2), hands, [Move("lead", (1, 2, 3))])
    capped = set(Game(skipped, 2).legal_moves(state))
    uncapped = set(RunsUncapped(skipped, 2).legal_moves(state))
    assert Move("add", (4, 5, 7)) in uncapped - capped


def test_variants_override_only_public_hooks() -> None:
    # A variant that overrode a _private method or set attributes at run time would make the
    # engine's cached answers wrong; the variants module's contract is the documented hooks.
    for name, engine in VARIANTS.items():
        own = {k for k, v in vars(engine).items() if callable(v)} if engine is not Game else set()
        assert not {k for k in own if k.startswith("_")}, name
        assert own <= set(HOOKS), (name, own - set(HOOKS))
        for hook in own:
            assert hook in (Game.__doc__ or "") or hook in (hooks_module.__doc__ or ""), hook


def test_points_table_changes_every_game_and_the_verb_none(spec: Spec) -> None:
    rs = spec.ruleset()
    alts = {
        "gap.parameter.points": _alt(spec, "gap.parameter.points"),
        "mismatch.trick.end.set.verb": _alt(spec, "mismatch.trick.end.set.verb"),
    }
    out = estimate_alternatives(alts, rs, 4, 7, say=IMPACT)
    points, _ = out["gap.parameter.points"]
    verb, _ = out["mismatch.trick.end.set.verb"]
    assert sorted(points.per_players) == [2, 3, 4, 5, 6]
    assert all(row[0] == 4 for row in points.per_players.values())  # every round end scores differently
    assert all(row[0] == 0 for row in verb.per_players.values())
    assert "points by the number on the card" in points.method


def test_alternatives_split_over_games_and_processes_give_the_same_counts(spec: Spec) -> None:
    rs = spec.ruleset()
    alts = {fid: _alt(spec, fid) for fid in ("gap.parameter.points", "mismatch.eight.trigger.cleared")}
    pairs = tuple(alts.items())
    whole = alternative_unit(pairs, 3, range(0, 6), 11, ("greedy", "random"), WITNESS)
    first = alternative_unit(pairs, 3, range(0, 2), 11, ("greedy", "random"), WITNESS)
    rest = alternative_unit(pairs, 3, range(2, 6), 11, ("greedy", "random"), WITNESS)
    for fid in whole:
        merged = first[fid].merge(rest[fid])
        assert (merged.games, merged.affected, dict(merged.first_change)) == (
            whole[fid].games,
            whole[fid].affected,
            dict(whole[fid].first_change),
        )
    one = estimate_alternatives(alts, rs, 3, 11, jobs=1, say=IMPACT)
    two = estimate_alternatives(alts, rs, 3, 11, jobs=2, say=IMPACT)
    assert {k: v[0] for k, v in one.items()} == {k: v[0] for k, v in two.items()}


def test_a_dead_clause_is_measured_where_its_readings_can_be_dealt(spec: Spec) -> None:
    readings = {"five_player_copies": "five_is_small", "five_player_set_close": "five_is_large"}
    alt = clause_deleted(spec, spec.ruleset(), readings, SetsNeverClose, players=(5,))
    assert alt.players == (5,)
    assert alt.played.ruleset.reading("deal") == "deal_all"  # the hand-size table cannot deal 4 copies to 5
    impact, per = estimate_alternatives({"dead": alt}, spec.ruleset(), 3, 2, say=IMPACT)["dead"]
    assert list(impact.per_players) == [5] and impact.per_players[5][0] == 0
    assert per[5].games == 3


def test_scene_witness_is_played_by_both_engines(spec: Spec) -> None:
    witness = scene_witness(_alt(spec, "gap.parameter.points"))
    assert witness is not None
    table, by_number = witness.outcomes.values()
    # player 2 is left holding 1, 8 and 15: the spec's table scores them, points by the number give
    # 1 + 15 and one more than the highest number for the 8 (the card the table values most)
    assert table["after lead 3"]["penalties"] == [0, sum(spec.ruleset().points[r] for r in (1, 8, 15))]
    assert by_number["after lead 3"]["penalties"] == [0, 1 + 16 + 15]
    assert "differ" in witness.summary
    assert witness.position is not None and witness.position.hands == ((3,), (1, 8, 15))
    single = scene_witness(_alt(spec, "defect.pile.single"))
    assert single is not None
    assert single.situation["pile"] == {"kind": "single", "cards": [7]}
    assert single.situation["hand"] == [1, 14]
    for out in single.outcomes.values():
        assert "overwrite 14" in out["legal_moves"] and out["after overwrite 1"] == "not allowed"


def test_a_planted_engine_shows_in_the_scene(spec: Spec) -> None:
    class NoScore(Game):
        def penalty(self, hand: int) -> int:
            return 0

    witness = scene_witness(_alt(spec, "mismatch.round.scoring.printed"), NoScore)
    assert witness is not None
    played, printed = witness.outcomes.values()
    assert played["after lead 3"]["penalties"] == [0, 0]
    assert printed["after lead 3"]["penalties"] != [0, 0]
    assert "differ" in witness.summary


def test_a_variation_point_finding_has_no_alternative_of_its_own(spec: Spec) -> None:
    assert _audited(spec, "mismatch.deck.copies.five_players").alternative is None
    assert _audited(spec, "gap.point.turn_order").alternative is None


def test_a_simulated_witness_replays_from_its_position(spec: Spec) -> None:
    # The smallest difference seen in play is a table reached by legal moves: its position sets it
    # up again on the engine, shrunk to the mover's few cards where the witness was shrunk.
    rs = spec.ruleset()
    for point, players in (("run_order", 3), ("eight_exemption", 4), ("turn_order", 3), ("deal", 4)):
        counts = _measure(spec, point, players, range(12))
        w = counts.witness
        assert w is not None and w.position is not None, point
        game = Game(rs, players)
        shown = situation_of(game, game.play_from(w.position))
        assert {k: v for k, v in w.situation.items() if k in shown} == {
            k: shown[k] for k in w.situation if k in shown
        }, point
