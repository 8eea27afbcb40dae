"""Scenarios: which piles a turn can place. Leads (single/set/run validity, the run readings), overwrites,
adds, and the three-card limit. Every expectation is the FULL legal move set, worked out by hand from
the rule texts; each test names its clauses."""

from __future__ import annotations

import pytest
from five35.engine import Move
from scenario_tools import cites, legal, make_game, moves, mv, respond

# Every scenario under each path a step can take (scenario_tools.ENGINES).
pytestmark = pytest.mark.usefixtures("engine_class")


def _leads(hand: list[int], players: int = 4, **readings: str) -> frozenset[Move]:
    game = make_game(players, **readings)
    spare = [r for r in (15, 14, 13, 12, 11, 9) if r not in hand]
    filler = [[r] for r in spare[: players - 1]]
    return legal(game, game.start_round([hand, *filler], 0))


# ---- leads: what is a single, a set, a run --------------------------------------------------------


@cites(
    "pile.types", "pile.single", "pile.set", "pile.run", "turn.cards", "lead.no_pass", run_gaps="gaps_break"
)
def test_lead_any_single_set_or_run_of_one_to_three_cards() -> None:
    """Singles of every rank held; sets of 2-3 (never 4: three cards a turn); runs 1,2 2,3 1,2,3 but
    not 5,7 (6 is missing, gaps break) and never a pass."""
    assert _leads([1, 1, 1, 1, 2, 3, 5, 7]) == moves(
        "lead 1", "lead 2", "lead 3", "lead 5", "lead 7",
        "lead 1,1", "lead 1,1,1",
        "lead 1,2", "lead 2,3", "lead 1,2,3",
    )  # fmt: skip


@cites("turn.cards", "pile.set")
def test_at_most_three_cards_a_lead() -> None:
    assert _leads([2, 2, 2, 2]) == moves("lead 2", "lead 2,2", "lead 2,2,2")


@cites("pile.run", "deck.ranks", run_gaps="gaps_break")
def test_run_gaps_break() -> None:
    assert _leads([4, 5, 7, 8, 9, 11], run_gaps="gaps_break") == moves(
        "lead 4", "lead 5", "lead 7", "lead 8", "lead 9", "lead 11",
        "lead 4,5", "lead 7,8", "lead 8,9", "lead 7,8,9",
    )  # fmt: skip


@cites("pile.run", "deck.ranks", run_gaps="gaps_skipped")
def test_run_gaps_skipped() -> None:
    assert _leads([4, 5, 7, 8, 9, 11], run_gaps="gaps_skipped") == moves(
        "lead 4", "lead 5", "lead 7", "lead 8", "lead 9", "lead 11",
        "lead 4,5", "lead 5,7", "lead 7,8", "lead 8,9", "lead 9,11",
        "lead 4,5,7", "lead 5,7,8", "lead 7,8,9", "lead 8,9,11",
    )  # fmt: skip


@cites("pile.run", "deck.ranks", run_wrap="no_wrap")
def test_run_no_wrap() -> None:
    assert _leads([1, 2, 14, 15], 2, run_wrap="no_wrap") == moves(
        "lead 1", "lead 2", "lead 14", "lead 15", "lead 1,2", "lead 14,15"
    )


@cites("pile.run", "deck.ranks", run_wrap="wrap")
def test_run_wrap() -> None:
    """15,1 / 14,15,1 / 15,1,2 are runs (cards are listed sorted in a move)."""
    assert _leads([1, 2, 14, 15], 2, run_wrap="wrap") == moves(
        "lead 1", "lead 2", "lead 14", "lead 15", "lead 1,2", "lead 14,15",
        "lead 1,15", "lead 1,14,15", "lead 1,2,15",
    )  # fmt: skip


# ---- overwrite ------------------------------------------------------------------------------------


@cites("action.overwrite", "pile.single", "action.add", add_to_single="allowed")
def test_overwrite_single_by_a_higher_single() -> None:
    """Pile 7: 9 and 14 overwrite, 5 and 7 do not; 7 may be added (set 7,7); 9 cannot extend 7."""
    game = make_game(add_to_single="allowed")
    assert legal(game, respond(game, "lead 7", [5, 7, 9, 14])) == moves("over 9", "over 14", "add 7", "pass")


@cites("action.overwrite", "pile.single", "action.add", add_to_single="not_allowed")
def test_overwrite_single_text_example_1_lt_7_lt_14() -> None:
    game = make_game(add_to_single="not_allowed")
    assert legal(game, respond(game, "lead 1", [7])) == moves("over 7", "pass")
    assert legal(game, respond(game, "lead 7", [1, 14])) == moves("over 14", "pass")
    assert legal(game, respond(game, "lead 7", [5, 7, 9, 14])) == moves("over 9", "over 14", "pass")


@cites("action.overwrite", "pile.single", add_to_single=("allowed", "not_allowed"))
@pytest.mark.parametrize(("reading", "expected"), [("allowed", {"add 7", "pass"}), ("not_allowed", {"pass"})])
def test_overwrite_must_be_strictly_higher(reading: str, expected: set[str]) -> None:
    """An equal single does not overwrite: a 7 on a 7 is at most an add."""
    game = make_game(add_to_single=reading)
    assert legal(game, respond(game, "lead 7", [7])) == moves(*expected)


@cites("action.overwrite", "pile.single", "pile.set")
def test_overwrite_needs_the_same_kind_and_size() -> None:
    """Pile 3: the pair 4,4 is not a single; one 4 overwrites, or extends 3 into the run 3,4."""
    game = make_game()
    assert legal(game, respond(game, "lead 3", [4, 4])) == moves("over 4", "add 4", "pass")


@cites("action.overwrite", "pile.set")
def test_overwrite_set_same_size_higher_rank() -> None:
    """Pile 5,5: 7,7 overwrites; 3,3 is lower; 7,7,7 is the wrong size; the 5 may be added."""
    game = make_game()
    assert legal(game, respond(game, "lead 5,5", [3, 3, 5, 7, 7, 7])) == moves("over 7,7", "add 5", "pass")


@cites("action.overwrite", "pile.set")
def test_overwrite_set_text_example() -> None:
    """(1,1,1 < 14,14,14)."""
    game = make_game()
    assert legal(game, respond(game, "lead 1,1,1", [2, 2, 2, 14, 14, 14])) == moves(
        "over 2,2,2", "over 14,14,14", "pass"
    )


@cites("action.overwrite", "pile.run", "eight.value", run_order="lower_beats")
def test_run_order_lower_beats() -> None:
    """(1,2,3 > 11,12,13); 2,3,4 beats 3,4,5 (E3). Adds below 3,4,5 are unaffected by run_order."""
    game = make_game(run_order="lower_beats")
    assert legal(game, respond(game, "lead 11,12,13", [1, 2, 3])) == moves("over 1,2,3", "pass")
    assert legal(game, respond(game, "lead 3,4,5", [2, 3, 4])) == moves("over 2,3,4", "add 2", "pass")
    assert legal(game, respond(game, "lead 3,4,5", [1, 2, 3, 11, 12, 13])) == moves(
        "over 1,2,3", "add 2", "add 1,2", "pass"
    )


@cites("action.overwrite", "pile.run", run_order="higher_beats")
def test_run_order_higher_beats() -> None:
    game = make_game(run_order="higher_beats")
    assert legal(game, respond(game, "lead 11,12,13", [1, 2, 3])) == moves("pass")
    assert legal(game, respond(game, "lead 3,4,5", [2, 3, 4])) == moves("add 2", "pass")
    assert legal(game, respond(game, "lead 3,4,5", [1, 2, 3, 11, 12, 13])) == moves(
        "over 11,12,13", "add 2", "add 1,2", "pass"
    )


@cites("eight.value", "pile.single", "pile.set", eight_rank="by_number")
def test_eight_rank_by_number() -> None:
    """An 8 is between 7 and 9: it does not overwrite a 9, and 9 and 15 overwrite an 8."""
    game = make_game(eight_rank="by_number")
    assert legal(game, respond(game, "lead 9", [7, 8, 11, 15])) == moves(
        "over 11", "over 15", "add 8", "add 7,8", "pass"
    )
    assert legal(game, respond(game, "lead 8", [15])) == moves("over 15", "pass")
    assert legal(game, respond(game, "lead 8,8", [8, 9, 9, 15, 15])) == moves(
        "over 9,9", "over 15,15", "add 8", "pass"
    )


@cites("eight.value", "pile.single", "pile.set", eight_rank="strongest")
def test_eight_rank_strongest() -> None:
    """The 8 beats every single (and 8,8 every pair); nothing overwrites an 8."""
    game = make_game(eight_rank="strongest")
    assert legal(game, respond(game, "lead 9", [7, 8, 11, 15])) == moves(
        "over 8", "over 11", "over 15", "add 8", "add 7,8", "pass"
    )
    assert legal(game, respond(game, "lead 8", [15])) == moves("pass")
    assert legal(game, respond(game, "lead 8,8", [8, 9, 9, 15, 15])) == moves("add 8", "pass")
    assert legal(game, respond(game, "lead 15,15", [8, 8])) == moves("over 8,8", "pass")


# ---- add ------------------------------------------------------------------------------------------


@cites("action.add", "pile.set", "trick.end.set")
def test_add_to_set() -> None:
    """Pile 5,5 with two 5s in hand: one or both may be added (the second makes the closing 4th)."""
    game = make_game(4)
    assert legal(game, respond(game, "lead 5,5", [5, 5])) == moves("add 5", "add 5,5", "pass")


@cites("action.add", "pile.run", add_run_ends="either_end")
def test_add_run_either_end() -> None:
    """Pile 3,4: 5 on top, 2 or 1,2 below, or both ends at once; 1,2 also overwrites (lower run)."""
    game = make_game(add_run_ends="either_end")
    assert legal(game, respond(game, "lead 3,4", [1, 2, 5, 7])) == moves(
        "over 1,2", "add 5", "add 2", "add 2,5", "add 1,2", "add 1,2,5", "pass"
    )


@cites("action.add", "pile.run", add_run_ends="top_end")
def test_add_run_top_end() -> None:
    game = make_game(add_run_ends="top_end")
    assert legal(game, respond(game, "lead 3,4", [1, 2, 5, 7])) == moves("over 1,2", "add 5", "pass")


@cites("action.add", "pile.single", add_to_single="allowed", add_run_ends=("either_end", "top_end"))
@pytest.mark.parametrize(
    ("ends", "expected"),
    [
        ("either_end", {"over 4", "add 2", "add 4", "add 2,4", "pass"}),
        ("top_end", {"over 4", "add 4", "pass"}),
    ],
)
def test_add_to_single_makes_a_run(ends: str, expected: set[str]) -> None:
    game = make_game(add_to_single="allowed", add_run_ends=ends)
    assert legal(game, respond(game, "lead 3", [2, 4])) == moves(*expected)


@cites("action.add", "pile.single", add_to_single="not_allowed")
def test_add_to_single_not_allowed() -> None:
    game = make_game(add_to_single="not_allowed")
    assert legal(game, respond(game, "lead 3", [2, 3, 4])) == moves("over 4", "pass")


@cites("action.add", "pile.single", "pile.set", add_to_single="allowed")
def test_add_to_single_makes_a_set() -> None:
    game = make_game(add_to_single="allowed")
    assert legal(game, respond(game, "lead 3", [3, 3, 3])) == moves("add 3", "add 3,3", "add 3,3,3", "pass")


@cites("turn.cards", "action.add", add_count=("turn_limit", "any_number"))
@pytest.mark.parametrize(("reading", "more"), [("turn_limit", set()), ("any_number", {"add 2,3,4,5"})])
def test_how_many_cards_an_add_places(reading: str, more: set[str]) -> None:
    """Pile 1: 2 / 2,3 / 2,3,4 extend it; 2,3,4,5 is four cards, one add only under any_number
    (closing the run at its fifth card); a lead or an overwrite places three at most either way."""
    game = make_game(add_count=reading)
    state = respond(game, "lead 1", [2, 3, 4, 5])
    assert legal(game, state) == moves(
        "over 2", "over 3", "over 4", "over 5", "add 2", "add 2,3", "add 2,3,4", "pass", *more
    )
    if more:
        # The adder places their last cards: the run closes, and the round ends with it.
        _after, events = game.apply(state, mv("add 2,3,4,5"))
        assert events[0].to_json() == {"event": "trick_end", "winner": 1, "reasons": ["run_closed"]}


@cites("turn.cards", "lead.no_pass", add_count="any_number")
def test_an_add_of_any_number_leaves_the_lead_at_three() -> None:
    game = make_game(2, add_count="any_number")
    state = game.start_round([[2, 3, 4, 5, 7], [9]], 0)
    assert mv("lead 2,3,4,5") not in legal(game, state) and mv("lead 2,3,4") in legal(game, state)


@cites("action.add", "trick.end.run", "turn.cards", add_past_closing="capped", run_gaps="gaps_skipped")
def test_add_past_closing_capped_run() -> None:
    """Runs may pass 5 only when gaps are skipped: 1,2,3 + 4,5,7 would be six cards."""
    game = make_game(add_past_closing="capped", run_gaps="gaps_skipped")
    assert legal(game, respond(game, "lead 1,2,3", [4, 5, 7])) == moves("add 4", "add 4,5", "pass")


@cites("action.add", "trick.end.run", add_past_closing="overflow", run_gaps="gaps_skipped")
def test_add_past_closing_overflow_run() -> None:
    game = make_game(add_past_closing="overflow", run_gaps="gaps_skipped")
    state = respond(game, "lead 1,2,3", [4, 5, 7, 9])
    assert legal(game, state) == moves("add 4", "add 4,5", "add 4,5,7", "pass")
    after, events = game.apply(state, mv("add 4,5,7"))
    assert [e.to_json() for e in events] == [{"event": "trick_end", "winner": 1, "reasons": ["run_closed"]}]
    assert after.pile is None and after.to_move == 1


@cites(
    "action.add",
    "trick.end.set",
    add_past_closing=("capped", "overflow"),
    five_player_copies="five_is_large",
    five_player_set_close="five_is_small",
)
@pytest.mark.parametrize(
    ("reading", "expected"),
    [("capped", {"add 9", "add 9,9", "pass"}), ("overflow", {"add 9", "add 9,9", "add 9,9,9", "pass"})],
)
def test_add_past_closing_set(reading: str, expected: set[str]) -> None:
    """Five players with five copies but the 4th card closing: 9,9 + 9,9,9 would make five."""
    game = make_game(
        5, add_past_closing=reading, five_player_copies="five_is_large", five_player_set_close="five_is_small"
    )
    assert legal(game, respond(game, "lead 9,9", [9, 9, 9])) == moves(*expected)
