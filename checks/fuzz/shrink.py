"""Shrinking a divergence: a smaller start and fewer moves that still make the engines disagree.

A witness is a deal (a five35.engine.Position without moves: hands, leader, scores) and the moves
played from it. The fuzzer finds one in a generated round, often late in the round and at a full
table; `shrink` makes it small enough to read by trying smaller witnesses, each one round replayed
on both engines, and keeping every one that still diverges:

- start later: the round restarted where a trick begins, before the divergence, with the hands,
  the leader and the scores of that moment (the tricks before it are gone); then restarted at any
  move, the player to move opening a fresh trick with that move's cards;
- fewer players: a seat removed with its moves (only down to the player counts the run allows);
- fewer moves: runs of moves deleted;
- fewer cards: cards nobody plays removed, a whole hand's worth at once first;
- lower scores: zeroed, or halved, seat by seat.

Each move of a candidate is replayed by the seat that made it (`by_seat`): when the turns fall
differently, a seat with no move left passes, and a move no longer legal where it now falls is a
probe the engine must refuse. "Smaller" is RoundResult.size: fewer cards dealt, then fewer moves,
then fewer players, then lower scores. The search is greedy and deterministic: the same witness
gives the same result whenever it finishes within its bounds (a number of runs, and a deadline as
a safety net).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections import deque
from collections.abc import Iterator

from ...engine import PASS, IllegalMove, Move, Position, State
from ...engine.engines import Engine
from ...protocol.client import EngineClient
from ...protocol.compare import Chooser, Games, RoundResult

MAX_SHRINK_RUNS = 2000


#: A candidate witness: a deal, and each seat's moves in order (see `by_seat`).
Candidate = tuple[Position, tuple[tuple[int, Move], ...]]


def by_seat(plays: tuple[tuple[int, Move], ...]) -> Chooser:
    """A chooser that gives each seat its own moves in order: the seat to move makes its next
    move; a seat with none left passes while other seats still have moves (or stops the round
    where it would have to lead); once no seat has any, the round stops.

    For the moves of a witness, labelled with the seats that made them, this replays the witness
    exactly. Its use is for what shrinking changes: with a seat or some moves removed, or the
    round restarted later, the turns fall differently, and each move still goes to its own seat
    instead of to whoever happens to be next."""
    queues: dict[int, deque[Move]] = {}
    for seat, move in plays:
        queues.setdefault(seat, deque()).append(move)

    def choose(game: Engine, state: State, legal: tuple[Move, ...]) -> Move | None:
        queue = queues.get(state.to_move)
        if queue:
            return queue.popleft()
        if state.pile is not None and any(queues.values()):
            return PASS
        return None

    return choose


def _states(game: Engine, deal: Position, moves: tuple[Move, ...]) -> list[tuple[State, int]]:
    """The state before each move and after the last, with the seat to move in each (the seat that
    makes the move). Probes (illegal moves) leave the state as it was."""
    state = game.play_from(deal)
    out = [(state, state.to_move)]
    for move in moves:
        if state.phase != "play":
            break
        with contextlib.suppress(IllegalMove):  # a probe changes nothing
            state, _ = game.apply(state, move)
        out.append((state, state.to_move))
    return out


def _plays(states: list[tuple[State, int]], moves: tuple[Move, ...]) -> tuple[tuple[int, Move], ...]:
    return tuple((seat, move) for (_, seat), move in zip(states, moves, strict=False))


def _position(game: Engine, state: State, leader: int) -> Position:
    return Position(tuple(tuple(game.codec.cards(h)) for h in state.hands), leader, state.scores)


def restarts(game: Engine, witness: RoundResult) -> Iterator[Candidate]:
    """The round started again later: where a trick begins (latest first), then at any move, that
    move's seat opening a fresh trick with the same cards."""
    states = _states(game, witness.deal, witness.moves)
    plays = _plays(states, witness.moves)
    later = range(len(states) - 1, 0, -1)
    for t in later:
        state, seat = states[t]
        if state.phase == "play" and state.pile is None:
            yield _position(game, state, seat), plays[t:]
    for t in later:
        state, seat = states[t]
        if state.phase != "play" or state.pile is None or t >= len(plays):
            continue
        move = plays[t][1]
        first = Move("lead", move.cards) if move.action in ("overwrite", "add") else move
        yield _position(game, state, seat), ((seat, first), *plays[t + 1 :])


def fewer_players(game: Engine, witness: RoundResult, counts: tuple[int, ...]) -> Iterator[Candidate]:
    """Each seat removed with its moves, the others renumbered, while the count stays allowed."""
    deal = witness.deal
    if deal.players - 1 not in counts:
        return
    plays = _plays(_states(game, deal, witness.moves), witness.moves)
    scores = deal.scores or (0,) * deal.players
    for gone in range(deal.players - 1, -1, -1):
        hands = deal.hands[:gone] + deal.hands[gone + 1 :]
        leader = deal.leader - (deal.leader > gone) if deal.leader != gone else gone % (deal.players - 1)
        kept = tuple((seat - (seat > gone), move) for seat, move in plays if seat != gone)
        yield Position(hands, leader, scores[:gone] + scores[gone + 1 :]), kept


def fewer_moves(game: Engine, witness: RoundResult) -> Iterator[Candidate]:
    """Runs of moves deleted, long runs first, the latest first at each length; the moves left
    keep their seats."""
    plays = _plays(_states(game, witness.deal, witness.moves), witness.moves)
    size = len(plays) // 2
    while size >= 1:
        for start in range(len(plays) - size, -1, -size):
            yield witness.deal, plays[:start] + plays[start + size :]
        size //= 2


def unplayed(game: Engine, witness: RoundResult) -> dict[int, list[int]]:
    """Seat -> the cards of its hand that none of the witness's moves places."""
    played: dict[tuple[int, int], int] = {}
    states = _states(game, witness.deal, witness.moves)
    for (state, seat), move, (after, _) in zip(states, witness.moves, states[1:], strict=False):
        if after is state:
            continue  # a probe: it placed nothing
        for card in move.cards:
            played[(seat, card)] = played.get((seat, card), 0) + 1
    out: dict[int, list[int]] = {}
    for seat, hand in enumerate(witness.deal.hands):
        spare = []
        for card in hand:
            if played.get((seat, card), 0) > 0:
                played[(seat, card)] -= 1
            else:
                spare.append(card)
        out[seat] = spare
    return out


def fewer_cards(game: Engine, witness: RoundResult) -> Iterator[Candidate]:
    """Unplayed cards removed: all of a seat's at once, then one at a time (a hand keeps a card)."""
    deal = witness.deal
    spare = unplayed(game, witness)
    plays = _plays(_states(game, deal, witness.moves), witness.moves)

    def without(seat: int, cards: list[int]) -> Position | None:
        hand = list(deal.hands[seat])
        for card in cards:
            hand.remove(card)
        if not hand:
            return None
        return dataclasses.replace(deal, hands=(*deal.hands[:seat], tuple(hand), *deal.hands[seat + 1 :]))

    for seat in range(deal.players):
        if len(spare[seat]) > 1:
            smaller = without(seat, spare[seat]) or without(seat, spare[seat][1:])
            if smaller is not None:
                yield smaller, plays
    for seat in range(deal.players):
        for card in sorted(set(spare[seat])):
            smaller = without(seat, [card])
            if smaller is not None:
                yield smaller, plays


def lower_scores(game: Engine, witness: RoundResult) -> Iterator[Candidate]:
    """The scores zeroed, then each seat's zeroed, halved or lowered by one."""
    deal = witness.deal
    scores = deal.scores or (0,) * deal.players
    if not any(scores):
        return
    plays = _plays(_states(game, deal, witness.moves), witness.moves)
    yield dataclasses.replace(deal, scores=(0,) * deal.players), plays
    for seat, score in enumerate(scores):
        for lower in sorted({0, score // 2, score - 1}):
            if lower < score:
                changed = (*scores[:seat], lower, *scores[seat + 1 :])
                yield dataclasses.replace(deal, scores=changed), plays


def candidates(games: Games, witness: RoundResult, counts: tuple[int, ...]) -> Iterator[Candidate]:
    game = games(witness.deal.players)
    yield from restarts(game, witness)
    yield from fewer_players(game, witness, counts)
    yield from fewer_moves(game, witness)
    yield from fewer_cards(game, witness)
    yield from lower_scores(game, witness)


def shrink(
    games: Games,
    engine: EngineClient,
    witness: RoundResult,
    *,
    counts: tuple[int, ...],
    deadline: float | None = None,
    max_runs: int = MAX_SHRINK_RUNS,
) -> tuple[RoundResult, int]:
    """The smallest witness found from `witness`, and the rounds replayed to find it.

    Greedy: the first candidate that still diverges and is smaller replaces the witness, and the
    search starts over from it; it ends when no candidate of the witness is smaller, after
    `max_runs` replays, or at `deadline` (time.monotonic()). EngineFault propagates."""
    runs = 0
    tried: set[Candidate] = set()
    improved = True
    while improved:
        improved = False
        for deal, plays in candidates(games, witness, counts):
            if deal.cards > witness.deal.cards or (deal, plays) in tried:
                continue
            if runs >= max_runs or (deadline is not None and time.monotonic() > deadline):
                return witness, runs
            tried.add((deal, plays))
            try:
                games(deal.players).play_from(deal)
            except ValueError:
                continue  # a deal the reference cannot set up (DealError): not a witness
            runs += 1
            result = games.play(engine, deal, by_seat(plays))
            if result.divergence is not None and result.size < witness.size:
                witness = result
                improved = True
                break
    return witness, runs
