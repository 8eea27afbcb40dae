"""Scenarios: passing, the four ways a trick ends, the Rule of 8 under each reading, who leads next,
and illegal moves. Expected events are written out in full; each test names its clauses."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from five35.engine import Game, IllegalMove, State, TrickEnd
from scenario_tools import cites, legal, make_game, moves, mv, play, respond, trick_end

# Every scenario under each path a step can take (scenario_tools.ENGINES).
pytestmark = pytest.mark.usefixtures("engine_class")


def _assert_winner_leads(game: Game, state: State, winner: int) -> None:
    """trick.winner: the pile is cleared, the winner is to move, and may only lead (lead.no_pass)."""
    assert state.pile is None and state.trick == () and state.passed == 0
    assert state.to_move == winner
    found = legal(game, state)
    assert found and all(m.action == "lead" for m in found)


def _ended(events: Sequence[object], winner: int, *reasons: str) -> None:
    ends = [e for e in events if isinstance(e, TrickEnd)]
    assert len(ends) == 1, events
    assert ends[0].winner == winner
    assert sorted(ends[0].reasons) == sorted(reasons)


# ---- pass -----------------------------------------------------------------------------------------


@cites("action.pass", "action.choice")
def test_pass_is_allowed_even_with_a_playable_card() -> None:
    game = make_game(3)
    state = respond(game, "lead 3", [5])
    assert legal(game, state) == moves("over 5", "pass")
    after, events = game.apply(state, mv("pass"))
    assert events == () and after.to_move == 2 and after.has_passed(1)


@cites("action.pass.out", "trick.end.passes", "trick.winner")
def test_a_passed_player_gets_no_further_turn_in_the_trick() -> None:
    game = make_game(4)
    hands = [[3, 9, 1], [4, 12], [5, 13, 2], [7, 14, 11]]
    state = game.start_round(hands, 0)
    seen = []
    for text in ("lead 3", "pass", "over 5", "over 7", "over 9", "over 13", "over 14", "pass"):
        seen.append(state.to_move)
        state, events = game.apply(state, mv(text))
    assert seen == [0, 1, 2, 3, 0, 2, 3, 0], "seat 1 passed and is skipped for the rest of the trick"
    assert events == () and state.to_move == 2
    state, events = game.apply(state, mv("pass"))
    _ended(list(events), 3, "all_passed")
    _assert_winner_leads(game, state, 3)


@cites("trick.end", "trick.end.passes", "trick.winner", "lead.no_pass")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_all_but_one_pass_the_leader_wins(players: int) -> None:
    game = make_game(players)
    hands = [[3, 9]] + [[11 + i] for i in range(players - 1)]
    state, events = play(game, hands, 0, "lead 3", *(["pass"] * (players - 1)))
    _ended(events, 0, "all_passed")
    _assert_winner_leads(game, state, 0)
    assert game.codec.cards(state.cleared) == [3]


@cites("trick.end.passes", "trick.winner")
def test_all_but_one_pass_the_last_to_place_wins() -> None:
    game = make_game(4)
    hands = [[3, 9], [5, 7], [11], [12]]
    state, events = play(game, hands, 0, "lead 3", "over 5", "pass", "pass", "pass")
    _ended(events, 1, "all_passed")
    _assert_winner_leads(game, state, 1)
    assert game.codec.cards(state.cleared) == [3, 5]


@cites("lead.no_pass")
def test_the_leader_may_not_pass() -> None:
    game = make_game(4)
    state = game.start_round([[3, 9], [5], [11], [12]], 0)
    assert mv("pass") not in legal(game, state)
    with pytest.raises(IllegalMove) as err:
        game.apply(state, mv("pass"))
    assert "'pass'" in str(err.value) and "leader" in str(err.value)


# ---- closing a set or a run -----------------------------------------------------------------------


@cites("trick.end.set", "trick.winner")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fourth_card_of_a_set_ends_the_trick_in_a_small_game(players: int) -> None:
    game = make_game(players)
    # Two players: seat 0 places the 4th 5 itself; otherwise seat 2 does.
    hands = [[5, 5, 5, 1], [5, 2]] if players == 2 else [[5, 5, 1], [5, 2], [5, 3], [7]][:players]
    winner = 0 if players == 2 else 2
    texts = ["lead 5,5", "add 5", "add 5"]
    state, events = play(game, hands, 0, *texts)
    _ended(events, winner, "set_closed")
    _assert_winner_leads(game, state, winner)


@cites("trick.end.set", "action.add")
def test_one_add_of_two_cards_closes_a_set() -> None:
    game = make_game(4)
    _, events = play(game, [[5, 5, 1], [5, 5, 2], [3], [4]], 0, "lead 5,5", "add 5,5")
    _ended(events, 1, "set_closed")


@cites(
    "trick.end.set",
    five_player_set_close=("five_is_large", "five_is_small"),
    five_player_copies="five_is_large",
)
@pytest.mark.parametrize(("players", "reading", "winner"), [
    (5, "five_is_large", 3), (5, "five_is_small", 2), (6, "five_is_large", 3), (6, "five_is_small", 3),
])  # fmt: skip
def test_set_closing_size_in_a_large_game(players: int, reading: str, winner: int) -> None:
    """Five copies: the 5th card closes with 6 players, and with 5 players under '5+' (German); under
    'más de 5' (Spanish) five players close at the 4th."""
    game = make_game(players, five_player_copies="five_is_large", five_player_set_close=reading)
    hands = [[5, 5, 1], [5, 2], [5, 3], [5, 4], [7], [9]][:players]
    state = game.start_round(hands, 0)
    for seat, text in enumerate(["lead 5,5", "add 5", "add 5", "add 5"]):
        state, events = game.apply(state, mv(text))
        if seat == winner:
            break
        assert events == (), f"seat {seat}: pile of {state.pile} must not close yet"
    _ended(list(events), winner, "set_closed")
    _assert_winner_leads(game, state, winner)


@cites("trick.end.run", "trick.winner", "action.add")
def test_fifth_card_of_a_run_ends_the_trick() -> None:
    game = make_game(4)
    state, events = play(game, [[1, 2, 9], [3, 11], [4, 5, 12], [13]], 0, "lead 1,2", "add 3")
    assert events == [] and state.pile is not None and state.pile.cards == (1, 2, 3)
    state, closing = game.apply(state, mv("add 4,5"))
    _ended(closing, 2, "run_closed")
    _assert_winner_leads(game, state, 2)


@cites("trick.end.run", "action.add", add_run_ends="either_end")
def test_fifth_card_of_a_run_added_below() -> None:
    game = make_game(3, add_run_ends="either_end")
    _, events = play(game, [[3, 4, 5, 9], [1, 2, 11], [12]], 0, "lead 3,4,5", "add 1,2")
    _ended(events, 1, "run_closed")


# ---- the Rule of 8 --------------------------------------------------------------------------------


@cites("trick.end.eight", "eight.heading", "eight.special", "eight.trigger", "trick.winner")
@pytest.mark.parametrize(("lead", "answer"), [
    ("lead 5", "over 8"), ("lead 7,7", "over 8,8"),
    ("lead 11,12", "over 7,8"), ("lead 11,12,13", "over 7,8,9"),
])  # fmt: skip
def test_rule_of_8_each_listed_form_ends_the_trick(lead: str, answer: str) -> None:
    """A single 8, a set of 8s, the runs 7,8 and 7,8,9: the trick ends at once, the player who
    played it wins and leads, even though the other players have not had a turn."""
    game = make_game(3)
    hands = [[*mv(lead).cards, 1], [*mv(answer).cards, 2], [3]]
    state, events = play(game, hands, 0, lead, answer)
    _ended(events, 1, "rule_of_8")
    _assert_winner_leads(game, state, 1)


@cites("eight.exemption", "trick.end.eight", eight_exemption=("whole_trick", "opening_play"))
@pytest.mark.parametrize("exemption", ["whole_trick", "opening_play"])
@pytest.mark.parametrize("lead", ["lead 8", "lead 8,8", "lead 7,8", "lead 7,8,9", "lead 8,9"])
def test_rule_of_8_never_fires_on_the_opening_pile(exemption: str, lead: str) -> None:
    game = make_game(3, eight_exemption=exemption)
    hands = [[*mv(lead).cards, 1], [2], [3]]
    state, events = play(game, hands, 0, lead)
    assert events == [] and state.to_move == 1 and state.opening_has_eight


@cites("eight.trigger", "trick.end.eight", eight_forms=("any_eight", "listed_forms"))
@pytest.mark.parametrize("form", ["any_eight", "listed_forms"])
def test_eight_forms_overwrite_with_8_9(form: str) -> None:
    """8,9 (lower run, so it overwrites 11,12) holds an 8 but is not in the list '7,8 oder 7,8,9'."""
    game = make_game(3, eight_forms=form)
    state, events = play(game, [[11, 12, 1], [8, 9, 2], [3]], 0, "lead 11,12", "over 8,9")
    if form == "any_eight":
        _ended(events, 1, "rule_of_8")
    else:
        assert events == [] and state.to_move == 2
        assert state.pile is not None and state.pile.cards == (8, 9)
    # 7,8 is listed: it ends the trick under both readings.
    state, events = play(game, [[11, 12, 1], [7, 8, 2], [3]], 0, "lead 11,12", "over 7,8")
    _ended(events, 1, "rule_of_8")


@cites("eight.trigger", "action.add", eight_forms=("any_eight", "listed_forms"), eight_on_add="adds_trigger")
@pytest.mark.parametrize("form", ["any_eight", "listed_forms"])
def test_eight_forms_added_8_below_a_9(form: str) -> None:
    """9 + 8 makes 8,9 (not listed); 9 + 7,8 makes 7,8,9 (listed)."""
    game = make_game(3, eight_forms=form, eight_on_add="adds_trigger")
    state, events = play(game, [[9, 1], [8, 2], [3]], 0, "lead 9", "add 8")
    if form == "any_eight":
        _ended(events, 1, "rule_of_8")
    else:
        assert events == [] and state.pile is not None and state.pile.cards == (8, 9)
    state, events = play(game, [[9, 1], [7, 8, 2], [3]], 0, "lead 9", "add 7,8")
    _ended(events, 1, "rule_of_8")


@cites("eight.trigger", "trick.end.eight", "action.add", eight_on_add=("adds_trigger", "plays_only"))
@pytest.mark.parametrize("on_add", ["adds_trigger", "plays_only"])
def test_eight_on_add(on_add: str) -> None:
    """7 + an added 8 is the run 7,8: the Rule of 8 only if adding counts as playing the 8. An 8 that
    overwrites counts under both readings."""
    game = make_game(3, eight_on_add=on_add)
    state, events = play(game, [[7, 1], [8, 2], [3]], 0, "lead 7", "add 8")
    if on_add == "adds_trigger":
        _ended(events, 1, "rule_of_8")
        _assert_winner_leads(game, state, 1)
    else:
        assert events == [] and state.to_move == 2
        assert state.pile is not None and state.pile.cards == (7, 8)
    state, events = play(game, [[7, 1], [8, 2], [3]], 0, "lead 7", "over 8")
    _ended(events, 1, "rule_of_8")


@cites("eight.exemption", "trick.end.eight", eight_exemption=("whole_trick", "opening_play"))
@pytest.mark.parametrize("exemption", ["whole_trick", "opening_play"])
def test_eight_exemption_later_8_in_the_same_trick(exemption: str) -> None:
    """The trick opened with an 8. A second 8 added (8,8) and a lower run 7,8 over 8,9: under
    whole_trick the rule stays off; under opening_play they end the trick."""
    game = make_game(3, eight_exemption=exemption)
    after_set, set_events = play(game, [[8, 1], [8, 2], [3]], 0, "lead 8", "add 8")
    after_run, run_events = play(game, [[8, 9, 1], [7, 8, 2], [3]], 0, "lead 8,9", "over 7,8")
    if exemption == "whole_trick":
        assert set_events == [] and after_set.pile is not None and after_set.pile.cards == (8, 8)
        assert run_events == [] and after_run.to_move == 2
    else:
        _ended(set_events, 1, "rule_of_8")
        _ended(run_events, 1, "rule_of_8")


@cites("eight.exemption", "trick.end.eight", eight_exemption=("whole_trick", "opening_play"))
@pytest.mark.parametrize("exemption", ["whole_trick", "opening_play"])
def test_eight_exemption_outlasts_a_pile_without_an_8(exemption: str) -> None:
    """8 led, 9 over it, 8 added (run 8,9): the opening pile's 8, not the central pile's, keeps the
    whole trick exempt."""
    game = make_game(3, eight_exemption=exemption, eight_on_add="adds_trigger", add_to_single="allowed")
    state, events = play(game, [[8, 1], [9, 2], [8, 3]], 0, "lead 8", "over 9", "add 8")
    if exemption == "whole_trick":
        assert events == [] and state.pile is not None and state.pile.cards == (8, 9)
        assert state.opening_has_eight and state.to_move == 0
    else:
        _ended(events, 2, "rule_of_8")


@cites("eight.exemption", "trick.end.eight", "trick.end.set", eight_exemption=("whole_trick", "opening_play"))
@pytest.mark.parametrize(("exemption", "reasons"), [
    ("whole_trick", ("set_closed",)), ("opening_play", ("rule_of_8", "set_closed")),
])  # fmt: skip
def test_two_endings_at_once(exemption: str, reasons: tuple[str, ...]) -> None:
    """8,8 led, 8,8 added: the 4th card closes the set, and the added 8s are the Rule of 8 unless the
    whole trick is exempt."""
    game = make_game(4, eight_exemption=exemption)
    state, events = play(game, [[8, 8, 1], [8, 8, 2], [3], [4]], 0, "lead 8,8", "add 8,8")
    _ended(events, 1, *reasons)
    _assert_winner_leads(game, state, 1)


@cites("eight.exemption", "trick.end.eight", eight_exemption="whole_trick")
def test_the_exemption_ends_with_its_trick() -> None:
    game = make_game(3, eight_exemption="whole_trick")
    state, events = play(game, [[8, 5, 1], [8, 2], [3]], 0, "lead 8", "pass", "pass")
    _ended(events, 0, "all_passed")
    assert not state.opening_has_eight
    state, _ = game.apply(state, mv("lead 5"))
    _, later = game.apply(state, mv("over 8"))
    _ended(later, 1, "rule_of_8")


@cites("trick.end.eight", "trick.end.run", run_gaps="gaps_skipped")
def test_rule_of_8_and_run_closing_together() -> None:
    """With gaps skipped, 4,5,7 + 8,9 is a five-card run holding an added 8."""
    game = make_game(3, run_gaps="gaps_skipped")
    _, events = play(game, [[4, 5, 1], [7, 2], [8, 9, 3]], 0, "lead 4,5", "add 7", "add 8,9")
    _ended(events, 2, "rule_of_8", "run_closed")
    assert trick_end(events) is not None


# ---- illegal moves --------------------------------------------------------------------------------


@cites("action.overwrite", "action.add", "turn.cards", add_to_single="not_allowed")
@pytest.mark.parametrize(("text", "why"), [
    ("over 5", "not a lead, overwrite or add"),  # lower single
    ("over 7", "not a lead, overwrite or add"),  # equal single
    ("over 14", "does not hold"),  # a card seat 1 does not have
    ("add 7", "not a lead, overwrite or add"),  # adds to a single are off under this reading
    ("lead 9", "not a lead, overwrite or add"),  # there is a pile: a lead is not the action
    ("over 9,9", "not a lead, overwrite or add"),  # a pair does not overwrite a single
    ("add 5,7,7,9", "not a lead, overwrite or add"),  # four cards
])  # fmt: skip
def test_illegal_moves_raise_naming_the_move(text: str, why: str) -> None:
    game = make_game(4, add_to_single="not_allowed")
    state = respond(game, "lead 7", [5, 7, 7, 9, 9])
    move = mv(text)
    assert move not in legal(game, state)
    with pytest.raises(IllegalMove) as err:
        game.apply(state, move)
    assert f"'{move}'" in str(err.value) and why in str(err.value)
    assert err.value.move == move and "\n" not in str(err.value)


@cites("turn.cards")
def test_four_card_lead_is_illegal() -> None:
    game = make_game(4)
    state = game.start_round([[2, 2, 2, 2, 9], [5], [11], [12]], 0)
    with pytest.raises(IllegalMove, match=r"'lead 2,2,2,2'"):
        game.apply(state, mv("lead 2,2,2,2"))
