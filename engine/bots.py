"""Simple players for simulation: each picks one of `game.legal_moves(state)` with the RNG it is given.

A bot never keeps state of its own between turns and never draws randomness from anywhere but the
`random.Random` handed to it, so a game played by bots is fixed by the deal seed and the bots' seeds.

- `random`: any legal move, uniformly.
- `greedy`: goes out when it can, else closes the trick (so it leads the next), else sheds the most
  cards and then the most points; it never passes while it can place cards.
- `cautious`: plays like greedy but will not break up a set it holds (play two of its three 5s, or a
  5 out of a pair as part of a run); when every placing move would break a set it passes, unless it
  leads and must play.

Ties between equally good moves are broken by the RNG, so two greedy bots do not always play alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..spec import SpecError
from .cards import FIELD, LOW
from .engines import Engine as Game
from .state import Move, State

Choose = Callable[[Game, State, Sequence[Move], random.Random], Move]


@dataclass(frozen=True)
class Bot:
    """A named move chooser. `choose(game, state, moves, rng)` returns one of `moves`."""

    name: str
    explain: str
    choose: Choose


def _pick(rng: random.Random, moves: Sequence[Move]) -> Move:
    """`rng.choice(moves)`, drawn as `random.Random.choice` draws it (bits of the length's bit count
    until they fall below it), without its two Python-level calls: every turn of every simulated
    match asks."""
    n = len(moves)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")  # as random.choice; never loops
    bits = n.bit_length()
    k = rng.getrandbits(bits)
    while k >= n:
        k = rng.getrandbits(bits)
    return moves[k]


def _choose_random(game: Game, state: State, moves: Sequence[Move], rng: random.Random) -> Move:
    return _pick(rng, moves)


def _held(game: Game, state: State) -> list[int]:
    """How many cards of each rank (by rank index) the player to move holds."""
    hand = state.hands[state.to_move]
    return [(hand >> (i * FIELD)) & LOW for i in range(len(game.ruleset.ranks))]


def _greedy_key(game: Game, state: State, move: Move, in_hand: int) -> tuple[bool, bool, int, int]:
    points = game.points
    return (
        len(move.cards) == in_hand,
        game.ends_trick(state, move),
        len(move.cards),
        # A game without 535's points table (its scoring is its own rule) breaks no tie by points.
        sum(points.get(c, 0) for c in move.cards),
    )


def _best(game: Game, state: State, moves: Sequence[Move], rng: random.Random, in_hand: int) -> Move:
    """The greedy choice among placing `moves` (non-empty), ties broken by `rng`; `in_hand` is the
    mover's number of cards."""
    keys = [_greedy_key(game, state, m, in_hand) for m in moves]
    top = max(keys)
    return _pick(rng, [m for m, k in zip(moves, keys, strict=True) if k == top])


def _choose_greedy(game: Game, state: State, moves: Sequence[Move], rng: random.Random) -> Move:
    placing = [m for m in moves if m.action != "pass"]
    if not placing:
        return moves[0]
    return _best(game, state, placing, rng, sum(_held(game, state)))


def breaks_set(game: Game, state: State, move: Move) -> bool:
    """Whether `move` leaves part of a set in the mover's hand: it plays some but not all of the
    cards of a rank the mover holds two or more of."""
    return _breaks(_held(game, state), game.codec.index, move)


def _breaks(held: Sequence[int], index: Mapping[int, int], move: Move) -> bool:
    for rank in set(move.cards):
        have = held[index[rank]]
        if have >= 2 and move.cards.count(rank) < have:
            return True
    return False


def _choose_cautious(game: Game, state: State, moves: Sequence[Move], rng: random.Random) -> Move:
    placing = [m for m in moves if m.action != "pass"]
    if not placing:
        return moves[0]
    # The hand is counted once for every move it weighs: this runs at every turn of every match.
    held = _held(game, state)
    index = game.codec.index
    in_hand = sum(held)
    keeping = [m for m in placing if not _breaks(held, index, m)]
    if keeping:
        return _best(game, state, keeping, rng, in_hand)
    if not state.leading:
        return next(m for m in moves if m.action == "pass")
    return _best(game, state, placing, rng, in_hand)


BOTS: Mapping[str, Bot] = {
    bot.name: bot
    for bot in (
        Bot("random", "any legal move, uniformly at random", _choose_random),
        Bot(
            "greedy",
            "goes out if it can, else ends the trick, else sheds the most cards, then the most "
            "points; never passes while it can place cards",
            _choose_greedy,
        ),
        Bot(
            "cautious",
            "like greedy, but passes rather than break up a set it holds (leads it must play)",
            _choose_cautious,
        ),
    )
}


def get_bot(name: str) -> Bot:
    """The bot called `name`; raises SpecError naming --bots for an unknown name."""
    try:
        return BOTS[name]
    except KeyError:
        raise SpecError("--bots", f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None


def turning_seats(bots: Sequence[str], players: int, game: int) -> tuple[str, ...]:
    """The bot of each seat in game number `game` when the bots take turns round the seats from one
    game to the next: seat s plays bots[(s + game) % len(bots)]. Over any run of len(bots) games
    every bot sits at every seat once, so that what a seat wins is the seat's and what a bot wins
    is the bot's, not the other's."""
    return tuple(bots[(s + game) % len(bots)] for s in range(players))


def seat_bots(bots: Sequence[Bot | str], players: int) -> tuple[Bot, ...]:
    """One bot per seat from one bot for all seats or one per seat, each a registered name or a Bot
    (a test's own bot need not be registered). Raises SpecError naming --bots."""
    resolved = [get_bot(b) if isinstance(b, str) else b for b in bots]
    if len(resolved) == 1:
        return (resolved[0],) * players
    if len(resolved) != players:
        raise SpecError(
            "--bots", f"{len(resolved)} bots for {players} players (give one for all seats or one per seat)"
        )
    return tuple(resolved)
