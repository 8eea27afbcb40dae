"""Scenarios: the deck, the deal, who leads, and the order of turns (clause ids in each test)."""

from __future__ import annotations

from collections import Counter

import pytest
from five35.engine import Game
from five35.spec import SpecError
from scenario_tools import cites, engine, make_game, mv, play, ruleset

# Every scenario under each path a step can take (scenario_tools.ENGINES).
pytestmark = pytest.mark.usefixtures("engine_class")

RANKS = [1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]


def _dealt(game: Game, seed: int) -> tuple[list[Counter[int]], Counter[int]]:
    state = game.new_match(seed)
    hands = [Counter(game.hand(state, p)) for p in range(game.players)]
    return hands, Counter(game.codec.cards(state.aside))


# (players, five_player_copies) -> copies of each rank, worked out from deck.copies:
# "4 pro Karte bei 2-4 Spielern / 5 pro Karte bei 5+ Spielern"; Spanish "más de 5" leaves 5 players at 4.
COPIES = [
    (2, "five_is_large", 4),
    (3, "five_is_large", 4),
    (4, "five_is_large", 4),
    (5, "five_is_large", 5),
    (5, "five_is_small", 4),
    (6, "five_is_large", 5),
    (6, "five_is_small", 5),
    (4, "five_is_small", 4),
]


@cites("deck.ranks", "deck.copies", "game.players", five_player_copies=("five_is_large", "five_is_small"))
@pytest.mark.parametrize(("players", "reading", "copies"), COPIES)
def test_deck_composition(players: int, reading: str, copies: int) -> None:
    game = make_game(players, five_player_copies=reading, deal="deal_all")
    hands, aside = _dealt(game, seed=3)
    everything = sum(hands, Counter()) + aside
    assert sorted(everything) == RANKS, "ranks 1-15 without 6 and 10"
    assert set(everything.values()) == {copies}
    assert sum(everything.values()) == 13 * copies


# deal=table (Board Game Arena, E5): cards per hand, cards set aside.
TABLE = [(2, 12, 52 - 24), (3, 13, 52 - 39), (4, 12, 52 - 48), (5, 12, 65 - 60), (6, 10, 65 - 60)]


@cites("deck.copies", "game.players", deal="table")
@pytest.mark.parametrize(("players", "size", "aside"), TABLE)
def test_deal_table(players: int, size: int, aside: int) -> None:
    game = make_game(players, deal="table")
    hands, set_aside = _dealt(game, seed=11)
    assert [sum(h.values()) for h in hands] == [size] * players
    assert sum(set_aside.values()) == aside


# deal=deal_all: the whole deck evenly, the remainder (fewer than the players) aside.
DEAL_ALL = [
    (2, "five_is_large", 26, 0),
    (3, "five_is_large", 17, 1),
    (4, "five_is_large", 13, 0),
    (5, "five_is_large", 13, 0),
    (5, "five_is_small", 10, 2),
    (6, "five_is_large", 10, 5),
]


@cites("deck.copies", "game.players", deal="deal_all", five_player_copies=("five_is_large", "five_is_small"))
@pytest.mark.parametrize(("players", "copies_reading", "size", "aside"), DEAL_ALL)
def test_deal_all(players: int, copies_reading: str, size: int, aside: int) -> None:
    game = make_game(players, deal="deal_all", five_player_copies=copies_reading)
    hands, set_aside = _dealt(game, seed=5)
    assert [sum(h.values()) for h in hands] == [size] * players
    assert sum(set_aside.values()) == aside


@cites("deck.copies", deal="table", five_player_copies="five_is_small")
def test_deal_table_with_five_players_and_four_copies_cannot_deal() -> None:
    """12 cards for each of 5 players need 60, but four copies make 52: a one-line SpecError."""
    game = make_game(5, deal="table", five_player_copies="five_is_small")
    with pytest.raises(SpecError) as err:
        game.new_match(1)
    assert "60" in str(err.value) and "52" in str(err.value) and "\n" not in str(err.value)


@cites("game.players")
@pytest.mark.parametrize("players", [0, 1, 7])
def test_player_count_outside_two_to_six_is_refused(players: int) -> None:
    with pytest.raises(SpecError) as err:
        engine()(ruleset(), players)
    assert str(players) in str(err.value) and "2 to 6" in str(err.value)


def test_same_seed_same_deal_and_rounds_differ() -> None:
    game = make_game(4)
    assert game.new_match(9) == game.new_match(9)
    assert game.new_match(9).hands != game.new_match(10).hands


@cites("trick.winner", first_leader="seat_0")
def test_first_leader_seat_0() -> None:
    game = make_game(4, first_leader="seat_0")
    assert {game.new_match(seed).to_move for seed in range(30)} == {0}


@cites("trick.winner", first_leader="drawn")
def test_first_leader_drawn_from_the_seed() -> None:
    game = make_game(4, first_leader="drawn")
    leaders = [game.new_match(seed).to_move for seed in range(40)]
    assert leaders == [game.new_match(seed).to_move for seed in range(40)], "same seed, same leader"
    assert set(leaders) == {0, 1, 2, 3}, "forty draws reach every seat"
    assert all(game.new_match(seed).round_leader == game.new_match(seed).to_move for seed in range(5))


@cites("round.end", "trick.winner", round_leader="went_out")
@pytest.mark.parametrize("leader", [0, 2, 3])
def test_round_leader_went_out(leader: int) -> None:
    """The player who went out leads the next round, whoever led this one."""
    game = make_game(4, round_leader="went_out")
    hands = [[3, 4], [1, 2], [7, 9], [11, 12]]
    hands[leader] = [5]
    state, events = play(game, hands, leader, "lead 5")
    assert state.phase == "round_over" and events[-1].went_out == leader  # type: ignore[union-attr]
    nxt = game.next_round(state)
    assert (nxt.to_move, nxt.round_leader, nxt.round) == (leader, leader, 2)
    assert nxt.scores == state.scores


@cites(
    "round.end", "action.choice", round_leader="next_seat", turn_order=("ascending_seats", "descending_seats")
)
@pytest.mark.parametrize(("order", "expected"), [("ascending_seats", 2), ("descending_seats", 0)])
def test_round_leader_next_seat(order: str, expected: int) -> None:
    """Seat 1 led round 1 and seat 3 went out: round 2 is led by the seat after 1 in turn order."""
    game = make_game(4, round_leader="next_seat", turn_order=order)
    hands = [[3, 4], [1, 2], [7, 9], [5]]
    # Seat 1 leads 1; in either direction the play reaches seat 3, who overwrites with its last card.
    state, _ = game.apply(game.start_round(hands, 1), mv("lead 1"))
    while state.to_move != 3:
        state, _ = game.apply(state, mv("pass"))
    state, events = game.apply(state, mv("over 5"))
    assert events[-1].went_out == 3  # type: ignore[union-attr]
    nxt = game.next_round(state)
    assert (nxt.to_move, nxt.round_leader) == (expected, expected)


@cites("action.choice", "action.pass.out", turn_order="ascending_seats")
def test_turn_order_ascending_skips_passed_players() -> None:
    game = make_game(4, turn_order="ascending_seats")
    hands = [[1, 9, 11], [2, 7], [3, 12], [4, 13]]
    state, _ = play(game, hands, 1, "lead 2")
    assert state.to_move == 2
    state, _ = game.apply(state, mv("pass"))
    assert state.to_move == 3
    state, _ = game.apply(state, mv("over 4"))
    assert state.to_move == 0
    state, _ = game.apply(state, mv("over 9"))
    assert state.to_move == 1, "seat 2 passed, so 0 is followed by 1 and then 3"
    state, _ = game.apply(state, mv("pass"))
    assert state.to_move == 3


@cites("action.choice", "action.pass.out", turn_order="descending_seats")
def test_turn_order_descending_skips_passed_players() -> None:
    game = make_game(4, turn_order="descending_seats")
    hands = [[1, 9, 11], [2, 7], [3, 12], [4, 13]]
    state, _ = play(game, hands, 1, "lead 2")
    assert state.to_move == 0
    state, _ = game.apply(state, mv("pass"))
    assert state.to_move == 3
    state, _ = game.apply(state, mv("over 4"))
    assert state.to_move == 2
    state, _ = game.apply(state, mv("over 12"))
    assert state.to_move == 1
    state, _ = game.apply(state, mv("pass"))
    assert state.to_move == 3, "seats 0 and 1 passed"
