"""The benchmark's naive baseline (benchmarks/naive_engine.py) plays the reference's game: the same
deal, and the same legal moves in every state of seeded rounds under the default profile, so that
benchmarks/bench_engine.py compares two engines of one game."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from five35.engine import Game, State
from five35.spec import load_spec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import naive_engine as naive


def _naive_state(game: Game, state: State) -> naive.NaiveState:
    pile = state.pile
    return naive.NaiveState(
        players=state.players,
        hands=tuple(tuple(game.hand(state, p)) for p in range(state.players)),
        to_move=state.to_move,
        pile_kind=pile.kind if pile else None,
        pile=tuple(sorted(pile.cards)) if pile else (),
        last_player=state.last_player,
        passed=frozenset(p for p in range(state.players) if state.has_passed(p)),
        opening_has_eight=state.opening_has_eight,
        over=state.phase != "play",
    )


@pytest.mark.parametrize("rounds", [10, pytest.param(40, marks=pytest.mark.slow)])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_naive_engine_has_the_reference_legal_moves(players: int, rounds: int) -> None:
    game = Game(load_spec().ruleset(), players)
    rng = random.Random(players)
    states = 0
    for seed in range(rounds):
        state = game.new_match(seed)
        mine = naive.deal(players, seed)
        assert mine == _naive_state(game, state)
        while state.phase == "play":
            expected = {(m.action, m.cards) for m in game.legal_moves(state)}
            got = naive.legal_moves(mine)
            assert {(m.action, m.cards) for m in got} == expected, (seed, state)
            assert len(got) == len(expected)
            assert naive.legal_moves(mine, largest=naive.MAX_CARDS) == got
            move = rng.choice(game.legal_moves(state))
            state, _ = game.apply(state, move)
            mine = naive.apply(mine, naive.NaiveMove(move.action, move.cards))
            # A finished round is only "over" for the baseline: it keeps nothing else of it.
            assert mine.over == state.is_over
            if not mine.over:
                assert mine == _naive_state(game, state), (seed, move)
            states += 1
    assert states > 20 * rounds


def test_the_benchmarks_source_engine_is_pure_python_and_plays_like_the_installed_one() -> None:
    """benchmarks/source_engine.py: the engine the benchmarks hold against pure-Python baselines is
    the source, interpreted, whatever build is installed, and plays the same games."""
    from source_engine import source_engine

    source = source_engine()
    assert source.game.build() == "pure Python"
    assert all(Path(m.__file__).suffix == ".py" for m in (source.game, source.state, source.cards))
    rules = load_spec().ruleset()
    for players in (2, 4, 6):
        ours, theirs = source.Game(rules, players), Game(rules, players)
        rng = random.Random(players)
        for seed in range(3):
            a, b = ours.new_match(seed), theirs.new_match(seed)
            while b.phase == "play":
                moves, expected = ours.legal_moves(a), theirs.legal_moves(b)
                assert [(m.action, m.cards) for m in moves] == [(m.action, m.cards) for m in expected]
                i = rng.randrange(len(expected))
                a, b = ours.apply(a, moves[i])[0], theirs.apply(b, expected[i])[0]
            assert ours.to_json(a) == theirs.to_json(b)
