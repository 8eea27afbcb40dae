"""Packed card counts: one integer holds how many cards of each rank a hand (or pile) has.

Each rank index i owns FIELD bits starting at i * FIELD: the low bits count the cards, the top bit
is a guard. With the guard set on the hand, `(hand | G) - need` borrows out of a rank's guard bit
exactly when that rank has too few cards, so one subtraction and one mask test answer "does the
hand hold all these cards?" for every rank at once.

A field holds at most MAX_COPIES cards: an eighth card of a rank would set the guard bit and a
sixteenth would carry into the next rank's field, silently turning sixteen 1s into one 2. `pack`
refuses both, so no card list the representation cannot hold ever becomes a packed value.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from . import _docstrings

FIELD = 4
MAX_COPIES = (1 << (FIELD - 1)) - 1
LOW = (1 << (FIELD - 1)) - 1


class DealError(ValueError):
    """A deal (hands, leader, scores) the engine cannot play. `key` names the part at fault in the
    protocol's terms (`hands[0]`, `leader`, ...), so a caller can prefix where the deal came from:
    `run.replay.json: deal.hands[0]: 16 cards of rank 1, the deck has 4`."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


def guard_mask(rank_count: int) -> int:
    return sum(1 << (i * FIELD + FIELD - 1) for i in range(rank_count))


class CardCodec:
    """Converts between card lists (rank values) and packed counts for one rank list."""

    def __init__(self, ranks: Sequence[int]) -> None:
        self.ranks = tuple(ranks)
        if len(set(self.ranks)) != len(self.ranks):
            raise ValueError(f"ranks {list(self.ranks)} repeat a rank")
        self.index = {r: i for i, r in enumerate(self.ranks)}
        self.guard = guard_mask(len(self.ranks))

    def unit(self, rank: int) -> int:
        return 1 << (self.index[rank] * FIELD)

    def pack(self, cards: Iterable[object]) -> int:
        """The packed counts of `cards`; ValueError for a rank outside the codec's ranks or more
        than MAX_COPIES cards of one rank (which would overflow its field). The cards are typed
        `object` because they are checked here, also where mypyc compiles this module (an int
        argument would be converted or refused before the check)."""
        packed = 0
        index = self.index
        for card in cards:
            i = index.get(card) if type(card) is int else None
            if i is None:
                raise ValueError(f"card {card!r} is not a rank of the deck ({ranks_text(self.ranks)})")
            packed += 1 << (i * FIELD)
            # The eighth card of a rank sets its guard bit: refuse it before it can carry.
            if packed >> (i * FIELD + FIELD - 1) & 1:
                raise ValueError(f"more than {MAX_COPIES} cards of rank {card} cannot be held")
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


def ranks_text(ranks: Sequence[int]) -> str:
    """The ranks for a message, as ranges of consecutive values: `1-5, 7-9, 11-15`."""
    parts: list[str] = []
    ordered = sorted(ranks)
    start = prev = ordered[0] if ordered else 0
    for rank in [*ordered[1:], None]:
        if rank is not None and rank == prev + 1:
            prev = rank
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if rank is not None:
            start = prev = rank
    return ", ".join(parts) if ordered else "no ranks"


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """`rng.shuffle(cards)`, written out: the same swaps from the same draws of
    `rng.getrandbits` as random.shuffle (CPython's Fisher-Yates over _randbelow_with_getrandbits),
    without two Python calls per card, and so a deal that no change to random.shuffle can move
    (tests/engine/test_engine_api.py holds it to random.shuffle)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


# Last: every class is defined.
_docstrings.restore(globals())
