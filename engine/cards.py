"""Packed card counts: one integer holds how many cards of each rank a hand (or pile) has.

Each rank index i owns FIELD bits starting at i * FIELD: the low bits count the cards, the top bit
is a guard. With the guard set on the hand, `(hand | G) - need` borrows out of a rank's guard bit
exactly when that rank has too few cards, so one subtraction and one mask test answer "does the
hand hold all these cards?" for every rank at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FIELD = 4
MAX_COPIES = (1 << (FIELD - 1)) - 1
LOW = (1 << (FIELD - 1)) - 1


def guard_mask(rank_count: int) -> int:
    return sum(1 << (i * FIELD + FIELD - 1) for i in range(rank_count))


class CardCodec:
    """Converts between card lists (rank values) and packed counts for one rank list."""

    def __init__(self, ranks: Sequence[int]) -> None:
        self.ranks = tuple(ranks)
        self.index = {r: i for i, r in enumerate(self.ranks)}
        self.guard = guard_mask(len(self.ranks))

    def unit(self, rank: int) -> int:
        return 1 << (self.index[rank] * FIELD)

    def pack(self, cards: Iterable[int]) -> int:
        packed = 0
        for card in cards:
            packed += 1 << (self.index[card] * FIELD)
        return packed

    def counts(self, packed: int) -> list[int]:
        return [(packed >> (i * FIELD)) & LOW for i in range(len(self.ranks))]

    def cards(self, packed: int) -> list[int]:
        """The cards, sorted by rank."""
        out: list[int] = []
        for i, rank in enumerate(self.ranks):
            out.extend([rank] * ((packed >> (i * FIELD)) & LOW))
        return out

    def size(self, packed: int) -> int:
        return sum(self.counts(packed))

    def holds(self, hand: int, need: int) -> bool:
        return ((hand | self.guard) - need) & self.guard == self.guard
