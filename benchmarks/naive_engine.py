"""A naive 535 engine, the baseline of benchmarks/bench_engine.py: the default readings only, written
to be obviously correct rather than fast.

At every move it enumerates every distinct subset of the hand, sorts each into a single, a set or a
run (or nothing), and keeps those that lead, overwrite or add onto the central pile under the
default profile's readings (`published`): runs stop at the missing 6 and 10 and do not wrap,
lower runs beat higher ones, an 8 is ranked by its number, adds may extend a single and either end
of a run but not past the closing size, any 8 placed onto a pile applies the Rule of 8 unless the
opening pile held one. It deals exactly as the reference does, so
round i of both engines starts from the same hands; tests/test_bench_baselines.py checks that its
legal moves equal the reference's in every state of seeded rounds. `legal_moves(state, largest=3)`
enumerates only the subsets of at most 3 cards (a turn places no more): the same moves, about
three times sooner, the stricter baseline the benchmark also reports.

It does not import five35: the baseline owes nothing to the engine it is measured against.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

RANKS = (1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15)
POINTS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}
MAX_CARDS = 3
MIN_SET = 2
MIN_RUN = 2
RUN_CLOSE = 5
EIGHT = 8


def copies(players: int) -> int:
    return 5 if players >= 5 else 4


def set_close(players: int) -> int:
    return 5 if players >= 5 else 4


def hand_size(players: int) -> int:
    return {2: 12, 3: 13, 4: 12, 5: 12, 6: 10}[players]


@dataclass(frozen=True)
class NaiveMove:
    action: str  # lead, overwrite, add, pass
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class NaiveState:
    players: int
    hands: tuple[tuple[int, ...], ...]  # sorted card lists
    to_move: int
    pile_kind: str | None
    pile: tuple[int, ...]  # the central pile, runs in rank order
    last_player: int
    passed: frozenset[int]
    opening_has_eight: bool
    over: bool


def is_run(cards: Sequence[int]) -> bool:
    """Consecutive ranks of the rank list, no repeats, no step across a missing rank (6, 10)."""
    ordered = sorted(cards)
    return all(b == a + 1 and b in RANKS for a, b in pairwise(ordered))


def kind_of(cards: Sequence[int]) -> str | None:
    if len(cards) == 1:
        return "single"
    if len(set(cards)) == 1 and len(cards) >= MIN_SET:
        return "set"
    if len(cards) >= MIN_RUN and len(set(cards)) == len(cards) and is_run(cards):
        return "run"
    return None


def beats(kind: str, cards: tuple[int, ...], pile_kind: str, pile: tuple[int, ...]) -> bool:
    if kind != pile_kind or len(cards) != len(pile):
        return False
    if kind == "run":
        return min(cards) < min(pile)  # lower runs beat higher ones
    return cards[0] > pile[0]  # singles and sets by number


def add_result(cards: tuple[int, ...], pile_kind: str, pile: tuple[int, ...], players: int) -> str | None:
    """The kind of pile that adding `cards` onto the pile makes, or None when the add is not allowed."""
    whole = tuple(sorted(pile + cards))
    if pile_kind in ("single", "set") and len(set(whole)) == 1:
        return "set" if len(whole) <= min(copies(players), set_close(players)) else None
    if pile_kind in ("single", "run") and kind_of(whole) == "run":
        return "run" if len(whole) <= RUN_CLOSE else None
    return None


def legal_moves(state: NaiveState, largest: int | None = None) -> list[NaiveMove]:
    """Every legal move, from every distinct subset of the hand (`largest` None), or only from those
    of at most `largest` cards: the same moves when `largest` >= MAX_CARDS, found sooner."""
    if state.over:
        return []
    hand = state.hands[state.to_move]
    subsets: set[tuple[int, ...]] = set()
    for size in range(1, len(hand) + 1 if largest is None else min(largest, len(hand)) + 1):
        subsets.update(combinations(hand, size))  # combinations of a sorted hand are sorted
    moves = []
    for cards in sorted(subsets):
        if len(cards) > MAX_CARDS:
            continue  # a turn places at most MAX_CARDS cards
        kind = kind_of(cards)
        if state.pile_kind is None:
            if kind is not None:
                moves.append(NaiveMove("lead", cards))
            continue
        if kind is not None and beats(kind, cards, state.pile_kind, state.pile):
            moves.append(NaiveMove("overwrite", cards))
        if add_result(cards, state.pile_kind, state.pile, state.players) is not None:
            moves.append(NaiveMove("add", cards))
    if state.pile_kind is not None:
        moves.append(NaiveMove("pass"))
    return moves


def deal(players: int, seed: int) -> NaiveState:
    """Round 1 dealt from `seed` exactly as the reference engine deals it."""
    rng = random.Random(f"five35-deal:{seed}:1")
    deck = [rank for rank in RANKS for _ in range(copies(players))]
    rng.shuffle(deck)
    size = hand_size(players)
    hands = tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(players))
    leader = rng.randrange(players)
    return NaiveState(players, hands, leader, None, (), -1, frozenset(), False, False)


def next_seat(state: NaiveState, seat: int, passed: frozenset[int]) -> int:
    seat = (seat + 1) % state.players
    while seat in passed:
        seat = (seat + 1) % state.players
    return seat


def apply(state: NaiveState, move: NaiveMove) -> NaiveState:
    """The state after a legal `move` (one round: the state is over once someone goes out)."""
    me = state.to_move
    if move.action == "pass":
        passed = state.passed | {me}
        if len(passed) == state.players - 1:  # only the last player to place cards is left
            return NaiveState(
                state.players, state.hands, state.last_player, None, (), -1, frozenset(), False, False
            )
        return NaiveState(
            state.players,
            state.hands,
            next_seat(state, me, passed),
            state.pile_kind,
            state.pile,
            state.last_player,
            passed,
            state.opening_has_eight,
            False,
        )
    hand = list(state.hands[me])
    for card in move.cards:
        hand.remove(card)
    hands = tuple(tuple(hand) if seat == me else h for seat, h in enumerate(state.hands))
    if move.action == "add":
        pile = tuple(sorted(state.pile + move.cards))
        kind = add_result(move.cards, state.pile_kind or "", state.pile, state.players) or ""
    else:
        pile, kind = move.cards, kind_of(move.cards) or ""
    if not hand:
        return NaiveState(state.players, hands, me, None, (), me, frozenset(), False, True)
    leading = state.pile_kind is None
    opening_has_eight = EIGHT in move.cards if leading else state.opening_has_eight
    rule_of_8 = not leading and not opening_has_eight and EIGHT in move.cards
    closed = (kind == "set" and len(pile) >= set_close(state.players)) or (
        kind == "run" and len(pile) >= RUN_CLOSE
    )
    if rule_of_8 or closed:
        return NaiveState(state.players, hands, me, None, (), -1, frozenset(), False, False)
    return NaiveState(
        state.players,
        hands,
        next_seat(state, me, state.passed),
        kind,
        pile,
        me,
        state.passed,
        opening_has_eight,
        False,
    )


def penalty(hand: Sequence[int]) -> int:
    return sum(POINTS[card] for card in hand)
