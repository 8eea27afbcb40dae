"""simulate: deterministic, mergeable across seed ranges, and counting what the games did."""

from __future__ import annotations

from dataclasses import replace

import pytest
from five35.engine import Game, MatchEnd, RoundEnd, State, TrickEnd
from five35.engine.options import Option
from five35.engine.simulate import (
    MATCH_ROUND_LIMIT,
    game_seed,
    play_game,
    round_limit,
    simulate,
    simulate_parallel,
    split,
)
from five35.engine.stats import Mode, Stats, merge, merge_all, wilson_interval
from five35.spec import Ruleset, SpecError, dumps, load_spec


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_spec().ruleset()


def test_same_arguments_same_stats(ruleset: Ruleset) -> None:
    a = simulate(ruleset, 4, range(12), ["random"], "match", base_seed=5)
    b = simulate(ruleset, 4, range(12), ["random"], "match", base_seed=5)
    assert a == b
    assert dumps(a.to_json()) == dumps(b.to_json())


def test_base_seed_changes_the_games(ruleset: Ruleset) -> None:
    a = simulate(ruleset, 4, range(12), ["random"], "match", base_seed=5)
    b = simulate(ruleset, 4, range(12), ["random"], "match", base_seed=6)
    assert a != b


@pytest.mark.parametrize("mode", ["round", "match"])
@pytest.mark.parametrize("bots", [["random"], ["greedy", "random", "cautious"]])
def test_split_ranges_merge_to_the_whole(ruleset: Ruleset, mode: Mode, bots: list[str]) -> None:
    whole = simulate(ruleset, 3, range(0, 10), bots, mode, base_seed=3)
    first = simulate(ruleset, 3, range(0, 5), bots, mode, base_seed=3)
    second = simulate(ruleset, 3, range(5, 10), bots, mode, base_seed=3)
    assert merge(first, second) == whole
    assert merge(second, first) == whole
    assert first + second == whole
    parts = [simulate(ruleset, 3, range(i, i + 1), bots, mode, base_seed=3) for i in range(10)]
    assert merge_all(parts) == whole
    assert dumps(merge_all(reversed(parts)).to_json()) == dumps(whole.to_json())


def test_empty_stats_is_the_identity(ruleset: Ruleset) -> None:
    whole = simulate(ruleset, 4, range(4), ["random"], "round")
    assert merge(Stats.empty(4, "round", ruleset.label(), ["random"]), whole) == whole
    assert simulate(ruleset, 4, range(0), ["random"], "round") == Stats.empty(
        4, "round", ruleset.label(), ["random"]
    )
    # Stats built without any trick-end tally count no Rule of 8 either.
    assert Stats(players=4, mode="round", ruleset=ruleset.label(), bots=("random",)).rule_of_8 == 0


def test_merge_refuses_different_settings(ruleset: Ruleset) -> None:
    a = simulate(ruleset, 4, range(2), ["random"], "round")
    with pytest.raises(ValueError, match="players"):
        merge(a, simulate(ruleset, 3, range(2), ["random"], "round"))
    with pytest.raises(ValueError, match="mode"):
        merge(a, simulate(ruleset, 4, range(2), ["random"], "match"))
    with pytest.raises(ValueError, match="bots"):
        merge(a, simulate(ruleset, 4, range(2), ["greedy"], "round"))
    with pytest.raises(ValueError):
        merge_all([])


def test_counts_agree_with_the_games(ruleset: Ruleset) -> None:
    game = Game(ruleset, 4)
    seeds = range(6)
    stats = simulate(ruleset, 4, seeds, ["random"], "match", base_seed=9)
    steps = [s for i in seeds for s in play_game(game, game_seed(9, i), ["random"], "match")]
    events = [e for s in steps for e in s.events]
    round_ends = [e for e in events if isinstance(e, RoundEnd)]
    match_ends = [e for e in events if isinstance(e, MatchEnd)]
    assert stats.games == 6 == len(match_ends)
    assert stats.rounds == len(round_ends) == sum(stats.went_out)
    assert sum(stats.moves.values()) == len(steps) == sum(k * n for k, n in stats.moves_per_round.items())
    # Every trick opens with exactly one lead, including the trick cut short by a player going out.
    assert stats.moves["lead"] == stats.tricks == sum(k * n for k, n in stats.tricks_per_round.items())
    reasons = [r for e in events if isinstance(e, TrickEnd) for r in e.reasons]
    for reason in ("all_passed", "set_closed", "run_closed", "rule_of_8"):
        assert stats.trick_ends[reason] == reasons.count(reason)
    assert stats.rule_of_8 == reasons.count("rule_of_8") > 0
    # A round's last trick is tallied as ended by going out unless that step ended it anyway.
    cut_short = [
        s
        for s in steps
        if any(isinstance(e, RoundEnd) for e in s.events)
        and not any(isinstance(e, TrickEnd) for e in s.events)
    ]
    assert stats.trick_ends["went_out"] == len(cut_short) > 0
    assert stats.penalties == tuple(sum(e.penalties[p] for e in round_ends) for p in range(4))
    assert stats.scores == tuple(sum(e.scores[p] for e in match_ends) for p in range(4))
    assert sum(stats.wins) == sum(len(e.winners) for e in match_ends)
    assert stats.ties == sum(1 for e in match_ends if len(e.winners) > 1)
    assert sum(stats.first_leads) == 6
    assert sum(stats.rounds_per_game.values()) == 6
    assert all(max(e.scores) >= ruleset.match_end_score for e in match_ends)


def test_round_mode_plays_one_round(ruleset: Ruleset) -> None:
    stats = simulate(ruleset, 5, range(8), ["greedy"], "round")
    assert stats.games == stats.rounds == 8
    assert stats.rounds_per_game == {1: 8}
    data = stats.to_json()
    assert data["rounds_per_game"]["histogram"] == [[1, 8]]
    assert data["moves"]["by_action"]["lead"] == data["tricks"]["total"]
    assert data["first_leader"]["fair_share"] == 0.2


def test_play_game_steps_replay(ruleset: Ruleset) -> None:
    game = Game(ruleset, 3)
    steps = list(play_game(game, 42, ["greedy", "random", "cautious"], "match"))
    state: State = game.new_match(42)
    for step in steps:
        if state.phase == "round_over":
            state = game.next_round(state)
        assert step.state == state
        assert step.move in game.legal_moves(state)
        state, events = game.apply(state, step.move)
        assert events == step.events
    assert state.phase == "match_over"
    assert any(isinstance(e, MatchEnd) for e in steps[-1].events)
    assert steps == list(play_game(game, 42, ["greedy", "random", "cautious"], "match"))


def test_play_game_rejects_a_bad_mode(ruleset: Ruleset) -> None:
    with pytest.raises(ValueError, match="mode"):
        list(play_game(Game(ruleset, 4), 0, ["random"], "tournament"))  # type: ignore[arg-type]


def test_game_seeds_are_fixed_and_distinct() -> None:
    seeds = {game_seed(0, i) for i in range(1000)} | {game_seed(1, i) for i in range(1000)}
    assert len(seeds) == 2000
    assert game_seed(7, 3) == game_seed(7, 3)
    assert 0 <= game_seed(7, 3) < 2**48


def test_engine_factory_is_used(ruleset: Ruleset) -> None:
    class NoEights(Game):
        def rule_of_8(self, option: Option, state: State) -> bool:
            return False

    stats = simulate(ruleset, 4, range(10), ["random"], "round", engine=NoEights)
    assert stats.rule_of_8 == 0
    assert simulate(ruleset, 4, range(10), ["random"], "round").rule_of_8 > 0


def test_progress_is_called_per_game(ruleset: Ruleset) -> None:
    calls: list[int] = []
    with_progress = simulate(ruleset, 4, range(7), ["random"], "round", progress=calls.append)
    assert calls == [1] * 7
    assert with_progress == simulate(ruleset, 4, range(7), ["random"], "round")


def test_bad_player_counts_and_deals_raise_spec_error(ruleset: Ruleset) -> None:
    with pytest.raises(SpecError, match="--players"):
        simulate(ruleset, 7, range(1), ["random"])
    oversized = replace(ruleset, hand_size_items=((2, 30), (3, 13), (4, 12), (5, 12), (6, 10)))
    with pytest.raises(SpecError, match="hand_size"):
        simulate(oversized, 2, range(1), ["random"])


@pytest.mark.parametrize("profile", ["published", "german-literal", "spanish-literal"])
def test_every_profile_and_player_count_plays(profile: str) -> None:
    ruleset = load_spec().ruleset(profile)
    for players in range(2, 7):
        stats = simulate(ruleset, players, range(3), ["random"], "match")
        assert stats.games == 3
        assert stats.to_json()["seats"][0]["seat"] == 0


def test_split_covers_the_range_in_order() -> None:
    assert split(range(0, 10), 3) == [range(0, 3), range(3, 6), range(6, 10)]
    assert split(range(5, 7), 8) == [range(5, 6), range(6, 7)]
    assert split(range(0), 4) == []
    for parts in range(1, 12):
        pieces = split(range(3, 20), parts)
        assert [i for piece in pieces for i in piece] == list(range(3, 20))
        assert all(len(piece) > 0 for piece in pieces)


def test_parallel_equals_serial(ruleset: Ruleset) -> None:
    serial = simulate(
        ruleset, 4, range(2, 14), ["greedy", "random", "random", "cautious"], "match", base_seed=4
    )
    done: list[int] = []
    parallel = simulate_parallel(
        ruleset,
        4,
        range(2, 14),
        ["greedy", "random", "random", "cautious"],
        "match",
        base_seed=4,
        jobs=2,
        progress=done.append,
    )
    assert parallel == serial
    assert sum(done) == 12
    # Several parts per worker, so the progress moves more often than once per worker.
    assert len(done) > 2
    with pytest.raises(SpecError, match="--bots"):
        simulate_parallel(ruleset, 4, range(2), ["nobody"], jobs=2)


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 10) == (0.0, 0.2775)
    assert wilson_interval(5, 10) == (0.2366, 0.7634)
    low, high = wilson_interval(50, 200) or (0.0, 0.0)
    assert low < 0.25 < high


@pytest.fixture(scope="module")
def endless(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """Only the 8s score, one point each, and a match needs 100000: the loader can prove no bound
    (some cards score 0), and no match ends within the round limit."""
    text = load_spec().path.read_text(encoding="utf-8")
    old = "value: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}"
    assert old in text and "match_end_score:\n    value: 20" in text
    text = text.replace(
        old, "value: {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 7: 0, 8: 1, 9: 0, 11: 0, 12: 0, 13: 0, 14: 0, 15: 0}"
    )
    text = text.replace("match_end_score:\n    value: 20", "match_end_score:\n    value: 100000")
    path = tmp_path_factory.mktemp("endless") / "endless.yaml"
    path.write_text(text, encoding="utf-8")
    return load_spec(path).ruleset()


def test_a_match_that_cannot_be_proved_to_end_stops_at_the_limit(endless: Ruleset) -> None:
    assert endless.round_bound is None
    assert round_limit(endless) == MATCH_ROUND_LIMIT
    stats = simulate(endless, 2, range(2), ["random"], "match", base_seed=1)
    assert stats.games == 2 and stats.round_limited == 2
    assert stats.rounds == 2 * MATCH_ROUND_LIMIT
    assert stats.rounds_per_game == {MATCH_ROUND_LIMIT: 2}
    assert stats.to_json()["stopped_by_round_limit"] == 2
    # Stopped matches are scored as they stand: someone still wins each.
    assert sum(stats.wins) >= 2


def test_matches_with_a_proved_bound_are_never_stopped(ruleset: Ruleset) -> None:
    assert ruleset.round_bound is not None and ruleset.round_bound <= MATCH_ROUND_LIMIT
    assert round_limit(ruleset) == MATCH_ROUND_LIMIT
    stats = simulate(ruleset, 4, range(20), ["random"], "match")
    assert stats.round_limited == 0
    assert simulate(ruleset, 4, range(5), ["random"], "round").round_limited == 0


def test_play_game_stops_after_max_rounds(ruleset: Ruleset) -> None:
    game = Game(ruleset, 4)
    full = list(play_game(game, 3, ["random"], "match"))
    rounds = sum(isinstance(e, RoundEnd) for s in full for e in s.events)
    assert rounds >= 2
    steps = list(play_game(game, 3, ["random"], "match", max_rounds=rounds - 1))
    events = [e for s in steps for e in s.events]
    assert sum(isinstance(e, RoundEnd) for e in events) == rounds - 1
    assert not any(isinstance(e, MatchEnd) for e in events)
    assert isinstance(steps[-1].events[-1], RoundEnd)
    # The stopped game is the start of the whole one.
    assert full[: len(steps)] == steps and len(full) > len(steps)
    with pytest.raises(ValueError, match="max_rounds"):
        list(play_game(game, 3, ["random"], "match", max_rounds=0))


def test_round_limited_counts_merge(endless: Ruleset) -> None:
    a = simulate(endless, 2, range(1), ["random"], "match")
    b = simulate(endless, 2, range(1, 2), ["random"], "match")
    assert merge(a, b).round_limited == 2
