"""The engine's input boundary: every hand, deck or state its packed counts cannot hold is refused
with a clear ValueError naming the part at fault, never packed into a different hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from five35.engine import PASS, Game, Move, Play, TrickEnd, TrickEndReason
from five35.engine.cards import MAX_COPIES, CardCodec, DealError, ranks_text
from five35.spec import SpecError, load_spec

GAME = Game(load_spec().ruleset(), 2)


def test_pack_refuses_more_copies_than_a_field_holds() -> None:
    codec = CardCodec((1, 2, 3))
    assert codec.counts(codec.pack([1] * MAX_COPIES)) == [MAX_COPIES, 0, 0]
    with pytest.raises(ValueError, match=f"more than {MAX_COPIES} cards of rank 1"):
        codec.pack([1] * (MAX_COPIES + 1))
    # Sixteen 1s used to carry into rank 2's field and pack as a single 2.
    with pytest.raises(ValueError, match="cannot be held"):
        codec.pack([1] * 16)


@pytest.mark.parametrize("card", [4, 0, True, 1.0, "1", None])
def test_pack_refuses_a_card_outside_the_ranks(card: Any) -> None:
    with pytest.raises(ValueError, match=r"is not a rank of the deck \(1-3\)"):
        CardCodec((1, 2, 3)).pack([1, card])


def test_a_codec_needs_distinct_ranks() -> None:
    with pytest.raises(ValueError, match="repeat"):
        CardCodec((1, 2, 2))


def test_ranks_text() -> None:
    assert ranks_text((1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15)) == "1-5, 7-9, 11-15"
    assert ranks_text((2, 4)) == "2, 4"


@pytest.mark.parametrize(
    ("hands", "leader", "scores", "key", "words"),
    [
        ([[1] * 16, [2]], 0, None, "hands[0]", "16 cards of rank 1, the deck has 4"),
        # Seventeen 1s would pack as a 1 and a 2: refused before any packing, also where every
        # hand is that long.
        ([[1] * 17, [3] * 17], 0, None, "hands[0]", "17 cards of rank 1, the deck has 4"),
        ([[1] * 9, [2]], 0, None, "hands[0]", "9 cards of rank 1, the deck has 4"),
        ([[2], [1] * 5], 0, None, "hands[1]", "5 cards of rank 1, the deck has 4"),
        ([[1, 1, 1], [1, 1]], 0, None, "hands", "5 cards of rank 1 in all, the deck has 4"),
        ([[6], [2]], 0, None, "hands[0]", "6 is not a rank of the deck"),
        ([[True], [2]], 0, None, "hands[0]", "True is not a rank"),
        ([[], [2]], 0, None, "hands[0]", "empty"),
        ([[1]], 0, None, "hands", "1 hands for 2 players"),
        ([[1], [2]], 2, None, "leader", "seat 2 is not at the table (seats 0-1)"),
        ([[1], [2]], -1, None, "leader", "seat -1"),
        ([[1], [2]], True, None, "leader", "seat True"),
        ([[1], [2]], 0, [0], "scores", "1 scores for 2 players"),
        ([[1], [2]], 0, [0, -3], "scores[1]", "natural number"),
        ([[1], [2]], 0, [0, False], "scores[1]", "natural number"),
    ],
)
def test_start_round_refuses_what_the_engine_cannot_play(
    hands: list[list[Any]], leader: Any, scores: list[Any] | None, key: str, words: str
) -> None:
    with pytest.raises(DealError) as info:
        GAME.start_round(hands, leader, scores)
    assert info.value.key == key and words in info.value.message, str(info.value)
    assert str(info.value).startswith(f"{key}: ")


def test_a_full_legal_deal_is_accepted_and_the_rest_set_aside() -> None:
    state = GAME.start_round([[1, 1, 1, 1], [15, 15, 15, 15]], 1, [3, 0])
    assert GAME.hand(state, 0) == [1, 1, 1, 1] and state.to_move == 1 and state.scores == (3, 0)
    assert 1 not in GAME.codec.cards(state.aside) and 15 not in GAME.codec.cards(state.aside)


def test_from_json_refuses_what_it_cannot_hold() -> None:
    state = GAME.start_round([[1, 2], [3]], 0)
    data = GAME.to_json(state)
    assert GAME.from_json(data) == state
    bad: list[tuple[dict[str, Any], str]] = [
        ({**data, "hands": [[1] * 16, [3]]}, "hands[0]: more than 7 cards of rank 1"),
        ({**data, "aside": [6]}, "aside: card 6"),
        ({**data, "to_move": 5}, "to_move: 5 is not a seat"),
        ({**data, "passed": [True]}, "passed[0]"),
        ({**data, "players": 3}, "players: 3"),
        ({k: v for k, v in data.items() if k != "phase"}, "missing key(s) phase"),
        ({**data, "phase": "tea"}, "phase: unknown phase"),
    ]
    for broken, words in bad:
        with pytest.raises(ValueError) as info:
            GAME.from_json(broken)
        assert words in str(info.value), str(info.value)


def test_a_hand_size_hook_the_deck_cannot_supply_is_a_spec_error_naming_it() -> None:
    class Greedy(Game):
        def hand_size(self) -> int:
            return 27  # two hands of 27 need 54 cards; the deck has 52

    with pytest.raises(SpecError, match=r"parameters\.hand_size: 2 hands of 27 from a deck of 52"):
        Greedy(load_spec().ruleset(), 2).new_match(0)


def test_a_trick_winner_hook_may_name_a_seat_outside_the_table() -> None:
    class Elsewhere(Game):
        def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
            return self.players

    game = Elsewhere(load_spec().ruleset(), 2)
    state, _ = game.apply(game.start_round([[1, 3], [2, 4]], 0), Move("lead", (1,)))
    _, events = game.apply(state, PASS)
    assert TrickEnd(2, (TrickEndReason.ALL_PASSED,)) in events


def test_closing_sizes_follow_the_kinds_value_not_its_identity() -> None:
    # A kind read from JSON (a replay, the protocol) is an equal string, never the same object.
    assert GAME.closing_size(json.loads('"set"')) == GAME.set_closing_size == 4
    assert GAME.closing_size(json.loads('"run"')) == GAME.run_closing_size == 5
    assert GAME.closing_size(json.loads('"single"')) is None
