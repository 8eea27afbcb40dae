"""The generic engine API test (in the spirit of pgx's api_test), run on every profile and every
player count from 2 to 6, over seeded random matches played to the end. At every state it checks:

1. legal moves belong to the player to move: that player has not passed, holds every card of every
   placing move, the other hands do not change them, and applying a move changes no other hand;
2. no legal moves once the round or match is over (and apply then raises IllegalMove);
3. the leader (empty pile) has only leads and never a pass; a player facing a pile has only
   overwrites, adds and a pass, and the pass is always there;
4. states are hashable, and equal states hash equal;
5. to_json/from_json round-trips to an equal state, also through JSON text;
6. the same seed gives the same game (same states, same events);
7. apply does not mutate its input (the state is frozen and compares equal to a snapshot);
8. a move only another player could make is refused with IllegalMove naming the move.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest
from five35.engine import PASS, Event, Game, IllegalMove, MatchEnd, Move, RoundEnd, State, TrickEnd
from scenario_tools import ruleset, spec

PROFILES = sorted(spec().profiles)
PLAYERS = [2, 3, 4, 5, 6]
MATCHES = 2


def _states(game: Game, seed: int) -> Iterator[tuple[State, Move | None, tuple[Event, ...]]]:
    """Every state of one seeded random match, with the move played from it and its events."""
    rng = random.Random(f"api:{seed}")
    state = game.new_match(seed)
    while True:
        if state.phase == "round_over":
            yield state, None, ()
            state = game.next_round(state)
        if state.phase == "match_over":
            yield state, None, ()
            return
        move = rng.choice(game.legal_moves(state))
        after, events = game.apply(state, move)
        yield state, move, events
        state = after


def _check_state(game: Game, state: State) -> None:
    found = game.legal_moves(state)
    # 2. nothing to do once over
    if state.is_over:
        assert found == ()
        with pytest.raises(IllegalMove):
            game.apply(state, Move("lead", (game.ruleset.ranks[0],)))
        return
    # 1. moves belong to the player to move
    me = state.to_move
    assert not state.has_passed(me)
    assert state.hands[me] != 0
    for move in found:
        if move.cards:
            assert game.codec.holds(state.hands[me], game.codec.pack(move.cards)), (move, state)
    # The other hands do not matter: emptying them changes nothing.
    alone = dataclasses.replace(state, hands=tuple(h if p == me else 0 for p, h in enumerate(state.hands)))
    assert game.legal_moves(alone) == found
    # 3. leader against responder
    actions = {m.action for m in found}
    if state.pile is None:
        assert found and actions == {"lead"}
    else:
        assert PASS in found and actions <= {"overwrite", "add", "pass"}
    assert len(found) == len(set(found))
    # 4. hashable; 5. JSON round trip
    data = game.to_json(state)
    back = game.from_json(json.loads(json.dumps(data)))
    assert back == state and hash(back) == hash(state)
    assert len({state, back}) == 1
    # 8. a card the mover lacks but someone else holds
    others = sum(h for p, h in enumerate(state.hands) if p != me)
    mine = state.hands[me]
    missing = [r for r in game.codec.cards(others) if not game.codec.holds(mine, game.codec.unit(r))]
    if missing and state.pile is None:
        bad = Move("lead", (missing[0],))
        with pytest.raises(IllegalMove) as err:
            game.apply(state, bad)
        assert f"'{bad}'" in str(err.value)


def _check_step(game: Game, state: State, move: Move, events: tuple[Event, ...]) -> State:
    snapshot = game.to_json(state)
    frozen_hash = hash(state)
    after, again = game.apply(state, move)
    # 7. apply does not mutate
    assert game.to_json(state) == snapshot and hash(state) == frozen_hash
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.to_move = 0  # type: ignore[misc]
    # Deterministic: the same move from the same state gives the same result.
    assert again == events
    # 1. only the mover's hand changed
    for p in range(game.players):
        if p != state.to_move:
            assert after.hands[p] == state.hands[p]
    removed = state.hands[state.to_move] - after.hands[state.to_move]
    assert removed == game.codec.pack(move.cards)
    assert all(isinstance(e, TrickEnd | RoundEnd | MatchEnd) for e in events)
    return after


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("profile", PROFILES)
def test_engine_api(profile: str, players: int) -> None:
    game = Game(ruleset(profile), players)
    for seed in range(MATCHES):
        trace = []
        ended = False
        for state, move, events in _states(game, seed):
            _check_state(game, state)
            if move is not None:
                _check_step(game, state, move, events)
            trace.append((state, move, events))
            ended = state.phase == "match_over"
        assert ended
        # 6. same seed, same game
        replay = list(_states(game, seed))
        assert replay == trace
        assert game.new_match(seed) == trace[0][0]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 52, 65, 200])
def test_the_deal_shuffles_as_random_shuffle(size: int) -> None:
    """The engine's written-out shuffle makes random.shuffle's permutation from the same seeds."""
    from five35.engine.cards import shuffle

    for seed in range(200):
        ours, theirs = list(range(size)), list(range(size))
        mine, reference = random.Random(f"deal:{seed}"), random.Random(f"deal:{seed}")
        shuffle(mine, ours)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.getrandbits(32) == reference.getrandbits(32)  # the same draws consumed


def test_the_hooks_are_declared_once_and_documented_in_that_order() -> None:
    """`Game.HOOKS` is the one list of public hooks (variants, mutants and the words file's
    decisions read it); the docstring of their module (engine/hooks.py) documents exactly those, in
    that order, and each is a public method of Game."""
    import re

    from five35.engine import hooks as hooks_module

    documented = tuple(re.findall(r"^- `(\w+)\(", hooks_module.__doc__ or "", flags=re.MULTILINE))
    assert documented == Game.HOOKS
    assert all(callable(getattr(Game, hook)) and not hook.startswith("_") for hook in Game.HOOKS)
