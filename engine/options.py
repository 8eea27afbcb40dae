"""The reference engine's precomputed placing moves: an `Option` (a move with everything `apply` needs)
and, per central pile, a `Node` of every move onto it, with the `Entry` a fast step reads for each and
the `Segment`s that remember which of them a hand holds (engine/game.py builds them once per pile)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from . import _docstrings
from .cards import FIELD, CardCodec
from .state import Event, Move, Pile, Play, TrickEndReason


class Option(NamedTuple):
    """A placing move with everything apply needs, precomputed."""

    move: Move
    need: int  # packed cards it takes from the hand
    pile: Pile  # the central pile after it
    has_eight: bool
    listed_eight: bool  # the pile is a single 8, a set of 8s, or exactly the run 7,8 or 7,8,9
    closes: TrickEndReason | None = None  # why placing it ends the trick by its size (the closes hook)


EIGHT = 8
LISTED_EIGHT_RUNS = ((7, 8), (7, 8, 9))


Ends = tuple[tuple[Event, ...], ...]  # (TrickEnd(seat, reasons),) for every seat


class Entry:
    """One placing move from one pile, with what a fast step needs about it."""

    __slots__ = (
        "ends",
        "ends_with_8",
        "fires",
        "has_eight",
        "move",
        "need",
        "option",
        "pile",
        "plays",
        "reasons",
        "reasons_with_8",
    )

    def __init__(
        self, option: Option, players: int, fires: bool, ends_of: Callable[[tuple[TrickEndReason, ...]], Ends]
    ) -> None:
        self.option = option
        self.move = option.move
        self.need = option.need
        self.pile = option.pile
        self.has_eight = option.has_eight
        # Play(seat, move) for every seat, shared by every trick that has it.
        self.plays = tuple(Play(seat, option.move) for seat in range(players))
        # What the rule_of_8 hook answers, less its one input known only at the step (the opening
        # pile's 8, under eight_exemption=whole_trick); used only where the hook is Game's own.
        self.fires = fires
        # The events when placing it ends the trick (`ends_of` gives them, shared, for the reasons):
        # by its size alone (None: it does not), and with the Rule of 8.
        self.reasons: tuple[TrickEndReason, ...] = () if option.closes is None else (option.closes,)
        self.reasons_with_8 = (TrickEndReason.RULE_OF_8, *self.reasons)
        self.ends: Ends | None = ends_of(self.reasons) if self.reasons else None
        self.ends_with_8: Ends = ends_of(self.reasons_with_8)


class Segment:
    """A run of a node's moves that each take the same number k of every rank they use, and the
    answers found so far: which of the moves a hand holds, by the hand's key."""

    __slots__ = ("add", "mask", "memo", "pairs")

    def __init__(self, add: int, mask: int, pairs: tuple[tuple[Move, int], ...]) -> None:
        self.add = add
        self.mask = mask
        self.pairs = pairs
        self.memo: dict[int, tuple[Move, ...]] = {}


class Node:
    """A central pile (None: the table is empty, the player to move leads) and every placing move
    onto it, in the engine's move order."""

    __slots__ = ("by_id", "entries", "index", "options", "pairs", "pile", "segments")

    def __init__(
        self, pile: Pile | None, options: tuple[Option, ...], entries: tuple[Entry, ...], codec: CardCodec
    ) -> None:
        self.pile = pile  # holding the pile keeps its id() unique while the node is in the id table
        self.options = options
        self.index = {o.move: o for o in options}
        self.entries = {e.move: e for e in entries}
        # Moves are looked up by identity first: legal_moves hands out these very objects, and an
        # id() is unique among live objects, which the entries keep alive.
        self.by_id = {id(e.move): e for e in entries}
        self.pairs = tuple((o.move, o.need) for o in options)
        self.segments = split_segments(self.pairs, codec)


#: Answers a segment remembers at most (2 ** ranks can be many for a deck of many ranks).
SEGMENT_MEMORY = 8192


def split_segments(pairs: tuple[tuple[Move, int], ...], codec: CardCodec) -> tuple[Segment, ...] | None:
    """The moves split into runs of moves that each take the same number `k` of every rank they
    use (singles and runs: k = 1, sets: k = their size), for a memo per run: which of its moves a
    hand holds depends only on which of the run's ranks it holds k of, the segment's key
    `(hand + add) & mask` (adding 8 - k to a field of at most 7 sets its guard bit exactly when it
    holds k). None when a move takes different numbers of two ranks: the node's moves are then
    filtered one by one. Remembering beats filtering even for a node of two moves."""
    top = 1 << (FIELD - 1)
    runs: list[tuple[int, int, list[tuple[Move, int]]]] = []
    for move, need in pairs:
        counts = codec.counts(need)
        taken = {c for c in counts if c}
        if len(taken) != 1:
            return None
        k = taken.pop()
        mask = sum(top << (i * FIELD) for i, c in enumerate(counts) if c)
        if runs and runs[-1][0] == k:
            runs[-1] = (k, runs[-1][1] | mask, [*runs[-1][2], (move, need)])
        else:
            runs.append((k, mask, [(move, need)]))
    every = range(len(codec.ranks))
    return tuple(
        Segment(sum((top - k) << (i * FIELD) for i in every), mask, tuple(moves)) for k, mask, moves in runs
    )


# Last: every class is defined.
_docstrings.restore(globals())
