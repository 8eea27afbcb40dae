"""The bots: they only ever choose legal moves, are fixed by their RNG, and play as described."""

from __future__ import annotations

import random

import pytest
from five35.engine import BOTS, Game, Move, State, TrickEnd, get_bot
from five35.engine.bots import breaks_set, seat_bots
from five35.spec import SpecError, load_spec

PROFILES = ("published", "german-literal", "spanish-literal")
SPEC = load_spec()


def _play_round(game: Game, seed: int, bot_name: str, rng_seed: int | None = None) -> list[Move]:
    """One round dealt from `seed` with `bot_name` in every seat, asserting legality at every step."""
    bot = get_bot(bot_name)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    state = game.new_match(seed)
    chosen: list[Move] = []
    while state.phase == "play":
        moves = game.legal_moves(state)
        move = bot.choose(game, state, moves, rng)
        assert move in moves, f"{bot_name} chose {move} outside {moves}"
        chosen.append(move)
        state, _ = game.apply(state, move)
    return chosen


@pytest.mark.parametrize("bot_name", sorted(BOTS))
@pytest.mark.parametrize("profile", PROFILES)
def test_bots_choose_only_legal_moves(bot_name: str, profile: str) -> None:
    ruleset = SPEC.ruleset(profile)
    for players in range(2, 7):
        game = Game(ruleset, players)
        for seed in range(3):
            assert _play_round(game, seed, bot_name)


def test_bots_choose_legal_moves_under_unusual_readings() -> None:
    readings = {
        "run_gaps": "gaps_skipped",
        "run_wrap": "wrap",
        "add_past_closing": "overflow",
        "eight_forms": "listed_forms",
        "eight_rank": "strongest",
        "turn_order": "descending_seats",
    }
    game = Game(SPEC.ruleset(readings=readings), 5)
    for bot_name in BOTS:
        for seed in range(3):
            assert _play_round(game, seed, bot_name)


@pytest.mark.parametrize("bot_name", sorted(BOTS))
def test_bots_are_fixed_by_their_rng(bot_name: str) -> None:
    game = Game(SPEC.ruleset(), 4)
    assert _play_round(game, 11, bot_name) == _play_round(game, 11, bot_name)


def test_random_bot_uses_its_rng() -> None:
    game = Game(SPEC.ruleset(), 4)
    assert _play_round(game, 0, "random", rng_seed=1) != _play_round(game, 0, "random", rng_seed=2)


def _after_lead(game: Game, hands: list[list[int]], lead: Move) -> State:
    """Seat 0 leads `lead`; seat 1 is to move."""
    state = game.start_round(hands, 0)
    state, events = game.apply(state, lead)
    assert not events
    return state


def test_greedy_never_passes_when_it_can_place() -> None:
    game = Game(SPEC.ruleset(), 4)
    for seed in range(5):
        state = game.new_match(seed)
        rng = random.Random(seed)
        while state.phase == "play":
            moves = game.legal_moves(state)
            move = get_bot("greedy").choose(game, state, moves, rng)
            if any(m.action != "pass" for m in moves):
                assert move.action != "pass"
            state, _ = game.apply(state, move)


def test_greedy_goes_out_when_it_can() -> None:
    game = Game(SPEC.ruleset(), 2)
    state = game.start_round([[3, 3], [1, 2, 4]], 0)
    move = get_bot("greedy").choose(game, state, game.legal_moves(state), random.Random(0))
    assert move == Move("lead", (3, 3))


def test_greedy_prefers_ending_the_trick() -> None:
    game = Game(SPEC.ruleset(), 2)
    # Seat 1 can overwrite the 3 with a 4 or a 9, or end the trick with an 8 (Rule of 8).
    state = _after_lead(game, [[3, 1, 1], [4, 8, 9, 9, 11]], Move("lead", (3,)))
    for seed in range(10):
        move = get_bot("greedy").choose(game, state, game.legal_moves(state), random.Random(seed))
        _, events = game.apply(state, move)
        assert any(isinstance(e, TrickEnd) for e in events), move


def test_greedy_sheds_most_cards_then_most_points() -> None:
    game = Game(SPEC.ruleset(), 2)
    state = game.start_round([[1, 2, 3, 11, 11, 15], [4, 5]], 0)
    move = get_bot("greedy").choose(game, state, game.legal_moves(state), random.Random(0))
    # Three-card leads: the run 1,2,3 (3 points). No set of three, so the run is the only one.
    assert move == Move("lead", (1, 2, 3))
    state = game.start_round([[1, 2, 11, 11, 15], [4, 5]], 0)
    move = get_bot("greedy").choose(game, state, game.legal_moves(state), random.Random(0))
    # Two-card leads: 1,2 (2 points) or 11,11 (6 points).
    assert move == Move("lead", (11, 11))


def test_breaks_set() -> None:
    game = Game(SPEC.ruleset(), 2)
    state = game.start_round([[5, 5, 5, 4, 9], [1]], 0)
    assert breaks_set(game, state, Move("lead", (5,)))
    assert breaks_set(game, state, Move("lead", (5, 5)))
    assert breaks_set(game, state, Move("lead", (4, 5)))
    assert not breaks_set(game, state, Move("lead", (5, 5, 5)))
    assert not breaks_set(game, state, Move("lead", (9,)))
    assert not breaks_set(game, state, Move("lead", (4,)))


def test_cautious_keeps_its_sets() -> None:
    game = Game(SPEC.ruleset(), 2)
    # Against a single 3, seat 1 may play 4 (keeps the three 5s) or a 5 (breaks them).
    state = _after_lead(game, [[3, 1, 1], [5, 5, 5, 4]], Move("lead", (3,)))
    for seed in range(10):
        move = get_bot("cautious").choose(game, state, game.legal_moves(state), random.Random(seed))
        assert move.action != "pass"
        assert 5 not in move.cards


def test_cautious_passes_rather_than_break_a_set() -> None:
    game = Game(SPEC.ruleset(), 2)
    # Against a single 3 every placing move breaks a pair: a 5 over it, or a 2 added below it.
    state = _after_lead(game, [[3, 1, 1], [5, 5, 2, 2]], Move("lead", (3,)))
    moves = game.legal_moves(state)
    assert Move("overwrite", (5,)) in moves
    assert get_bot("cautious").choose(game, state, moves, random.Random(0)) == Move("pass")
    # The greedy bot places the 5 in the same situation.
    assert get_bot("greedy").choose(game, state, moves, random.Random(0)).action != "pass"


def test_cautious_leader_must_play() -> None:
    game = Game(SPEC.ruleset(), 2)
    state = game.start_round([[5, 5, 2, 2], [1]], 0)
    move = get_bot("cautious").choose(game, state, game.legal_moves(state), random.Random(0))
    assert move.action == "lead"


def test_unknown_bot_and_wrong_count_name_bots_option() -> None:
    with pytest.raises(SpecError, match="--bots: unknown bot 'clever'"):
        get_bot("clever")
    with pytest.raises(SpecError, match="--bots: 2 bots for 4 players"):
        seat_bots(["random", "greedy"], 4)
    assert [b.name for b in seat_bots(["greedy"], 3)] == ["greedy"] * 3
    assert [b.name for b in seat_bots(["greedy", "random"], 2)] == ["greedy", "random"]
