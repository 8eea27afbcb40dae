"""Scenarios: the round ends the moment a hand is empty, penalties are the points left in hand, and the
match ends after a round in which someone has 20 or more; the fewest points win, ties share."""

from __future__ import annotations

import pytest
from five35.engine import IllegalMove, MatchEnd, RoundEnd, TrickEnd
from scenario_tools import cites, legal, make_game, mv, play, spec

# Every scenario under each path a step can take (scenario_tools.ENGINES).
pytestmark = pytest.mark.usefixtures("engine_class")

# The spec's point table (not in the text, E9): 1 for 1-5, 2 for 7 and 9, 5 for 8, 3 for 11-15.
POINTS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}


@cites("deck.points", "eight.value")
def test_the_point_table_is_the_specs() -> None:
    """The test's table is the spec's, and the 8s are worth the most (eight.value)."""
    table = {int(k): v for k, v in spec().parameters["points"].value.items()}
    assert table == POINTS
    assert max(POINTS.values()) == POINTS[8] and list(POINTS.values()).count(POINTS[8]) == 1


@cites("round.end", "game.goal", "round.scoring")
def test_round_ends_the_moment_a_hand_is_empty_mid_trick() -> None:
    """Seat 1 overwrites with its last card: the round ends before seat 2 gets a turn."""
    game = make_game(3)
    state, events = play(game, [[3, 4], [5], [1, 14]], 0, "lead 3", "over 5")
    assert events == [RoundEnd(went_out=1, penalties=(1, 0, 4), scores=(1, 0, 4))]
    assert state.phase == "round_over" and state.scores == (1, 0, 4)
    assert legal(game, state) == frozenset()
    with pytest.raises(IllegalMove, match="round is over"):
        game.apply(state, mv("pass"))


@cites("round.end", "game.goal", "lead.no_pass")
def test_leader_goes_out_by_leading() -> None:
    game = make_game(3)
    _, events = play(game, [[3], [5, 7], [1, 14]], 0, "lead 3")
    assert events == [RoundEnd(went_out=0, penalties=(0, 3, 4), scores=(0, 3, 4))]


@cites("round.end", "trick.end.eight", "round.scoring")
def test_going_out_with_a_trick_ending_play_reports_both() -> None:
    game = make_game(3)
    _, events = play(game, [[5, 9], [8], [2, 2]], 0, "lead 5", "over 8")
    assert events == [
        TrickEnd(1, ("rule_of_8",)),
        RoundEnd(went_out=1, penalties=(2, 0, 2), scores=(2, 0, 2)),
    ]


@cites("round.scoring", "deck.points")
def test_penalties_are_the_points_left_in_hand() -> None:
    """Seat 2 keeps one card of every rank: 5x1 + 2 + 5 + 2 + 5x3 = 29 points."""
    game = make_game(3)
    every_rank = [1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]
    _, events = play(game, [[3], [7, 7, 12], every_rank], 0, "lead 3", scores=(4, 1, 0))
    round_end = next(e for e in events if isinstance(e, RoundEnd))
    assert round_end.penalties == (0, 2 + 2 + 3, 29)
    assert round_end.scores == (4, 1 + 7, 29)


@cites("match.end", "round.scoring")
def test_nineteen_does_not_end_the_match_and_the_next_round_keeps_scores() -> None:
    game = make_game(3)
    state, events = play(game, [[3], [7], [1, 2]], 0, "lead 3", scores=(0, 17, 10))
    assert events == [RoundEnd(0, (0, 2, 2), (0, 19, 12))]
    assert state.phase == "round_over"
    nxt = game.next_round(state)
    assert (nxt.round, nxt.scores, nxt.phase, nxt.pile) == (2, (0, 19, 12), "play", None)
    assert all(nxt.hands)


@cites("match.end", "match.winner")
def test_twenty_ends_the_match_fewest_points_win() -> None:
    game = make_game(3)
    state, events = play(game, [[3], [7, 1], [1, 2]], 0, "lead 3", scores=(0, 17, 10))
    assert events == [RoundEnd(0, (0, 3, 2), (0, 20, 12)), MatchEnd((0, 20, 12), (0,))]
    assert state.phase == "match_over"
    assert legal(game, state) == frozenset()
    with pytest.raises(IllegalMove, match="match is over"):
        game.apply(state, mv("lead 1"))
    with pytest.raises(ValueError, match="finished round"):
        game.next_round(state)


@cites("match.end", "match.winner")
def test_the_winner_need_not_be_the_one_who_went_out() -> None:
    game = make_game(3)
    _, events = play(game, [[3], [7, 1], [1]], 0, "lead 3", scores=(9, 17, 2))
    assert events[-1] == MatchEnd((9, 20, 3), (2,))


@cites("match.winner")
def test_tied_fewest_points_share_the_win() -> None:
    game = make_game(3)
    _, events = play(game, [[3], [12], [1]], 0, "lead 3", scores=(6, 17, 5))
    assert events[-1] == MatchEnd((6, 20, 6), (0, 2))


@cites("match.end", "match.winner")
def test_several_players_past_twenty() -> None:
    game = make_game(4)
    _, events = play(game, [[3], [12], [8], [1]], 0, "lead 3", scores=(30, 19, 16, 2))
    assert events[-1] == MatchEnd((30, 22, 21, 3), (3,))
