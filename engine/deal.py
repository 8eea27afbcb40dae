"""A deal as the engines take it at their input boundary (`start_round`, the engine protocol):
checked against the table and the deck, and packed. A deal an engine cannot play raises DealError
naming the part at fault in the protocol's terms."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from . import _docstrings
from .cards import FIELD, CardCodec, DealError, ranks_text, shuffle
from .state import State, new_state


def shuffled_hands(
    deck: Sequence[int], seed: int, round_no: int, size: int, players: int
) -> tuple[list[list[int]], random.Random]:
    """The hands of round `round_no` of the match dealt from `seed`: `deck` shuffled by a generator
    seeded from both and cut into `players` sorted hands of `size`, and that generator, from which
    the first leader is drawn next. Both engines deal by it, so a seed deals the same hands."""
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    rng = random.Random(f"five35-deal:{seed}:{round_no}")
    cards = list(deck)
    shuffle(rng, cards)
    return [sorted(cards[i * size : (i + 1) * size]) for i in range(players)], rng


def dealt_state(
    packed: Sequence[int], leader: int, deck: int, scores: tuple[int, ...], round_no: int, seed: int
) -> State:
    """The first State of a round whose packed hands `packed` were dealt from the packed `deck`:
    `leader` to lead an empty table, the cards nobody was dealt set aside."""
    return new_state(
        len(packed),
        tuple(packed),
        leader,
        None,
        -1,
        0,
        False,
        (),
        0,
        deck - sum(packed),
        scores,
        round_no,
        leader,
        "play",
        seed,
    )


def seated_leader(players: int, hands: Sequence[Sequence[object]], leader: object) -> int:
    """`leader`, once there is a hand for each of `players` seats and `leader` is one of them, else
    DealError. The values are typed `object` because they are checked here: compiled by mypyc, an
    argument typed int would already be converted (True to 1) or refused with a TypeError."""
    if len(hands) != players:
        raise DealError("hands", f"{len(hands)} hands for {players} players")
    if type(leader) is not int or not 0 <= leader < players:
        raise DealError("leader", f"seat {leader!r} is not at the table (seats 0-{players - 1})")
    return leader


def pack_deal(
    hands: Sequence[Sequence[object]], units: dict[int, int], guard: int, deck: int
) -> list[int] | None:
    """The packed hands of a deal the `deck` (packed) can supply, or None when anything is wrong with
    it (then `checked_deal` finds the first fault and names it). Every card must be an int of the
    deck (`units`: a rank's packed card), and the deck must hold every hand after the ones before it
    (so no rank exceeds its copies in a hand or in all of them): one packed subtraction per hand."""
    room = deck
    packed = []
    for hand in hands:
        # Under 16 cards no rank's field can carry into the next one's.
        if not hand or len(hand) >= 1 << FIELD:
            return None
        held = 0
        for card in hand:
            step = units.get(card) if type(card) is int else None
            if step is None:
                return None
            held += step
        if held & guard or ((room | guard) - held) & guard != guard:
            return None
        room -= held
        packed.append(held)
    return packed


def checked_deal(hands: Sequence[Sequence[object]], codec: CardCodec, copies: int) -> list[int]:
    """The packed hands, checked card by card against a deck of `copies` of each of `codec`'s ranks:
    DealError naming the first fault."""
    ranks = codec.index
    total: Counter[int] = Counter()
    packed = []
    for seat, hand in enumerate(hands):
        if not hand:
            raise DealError(f"hands[{seat}]", "the hand is empty (every player holds a card)")
        cards: list[int] = []
        for card in hand:
            if type(card) is not int or card not in ranks:
                raise DealError(
                    f"hands[{seat}]",
                    f"{card!r} is not a rank of the deck ({ranks_text(codec.ranks)})",
                )
            cards.append(card)
        held = Counter(cards)
        for rank, count in sorted(held.items()):
            if count > copies:
                raise DealError(f"hands[{seat}]", f"{count} cards of rank {rank}, the deck has {copies}")
        total.update(held)
        packed.append(codec.pack(cards))
    for rank, count in sorted(total.items()):
        if count > copies:
            raise DealError("hands", f"{count} cards of rank {rank} in all, the deck has {copies}")
    return packed


# Last: every function is defined.
_docstrings.restore(globals())
