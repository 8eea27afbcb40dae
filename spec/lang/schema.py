"""What a rule may say: the moments of play a rule can state (`does:`), the parts each one has,
the type of every part, and the names each part may use.

This is the rule language's own vocabulary: the spec interpreter plays it, the Z3 compiler
reads it, the loader checks a spec against it. It names the steps of a climbing game (deal,
lead, overwrite, add, pass, trick end, round end, match end), not any engine's methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Types of values. A number written in an expression (a literal) may stand for an int, a rank or
# a seat; a name or a computed value has exactly one type, so that a rank is never compared with a
# seat or a count.
INT = "int"
BOOL = "bool"
RANK = "rank"
SEAT = "seat"
KIND = "kind"
ACTION = "action"
PILE = "pile"
CARDS = "cards"
NUMBER = "number"  # a literal: int, rank or seat, whichever its neighbour is
TABLE = "table"  # a parameter mapping numbers to numbers (points per rank, hand size per count)
RECORD = "record"  # a parameter with named numbers ({small_game: 4, large_game: 5})

TYPES = (INT, BOOL, RANK, SEAT, KIND, ACTION, PILE, CARDS)

#: The four actions of a turn; a rule's `does:` names the one it states.
ACTIONS = ("lead", "overwrite", "add", "pass")

#: When a trick-end rule is asked: after a placing move (lead, overwrite or add) or after a pass.
ON = ("play", "pass")


@dataclass(frozen=True)
class Part:
    """A part of a rule: an expression of type `type` over the names in `names`."""

    type: str
    names: dict[str, str]
    required: bool = True
    explain: str = ""


@dataclass(frozen=True)
class Slot:
    """What a rule with `does: <name>` states."""

    name: str
    explain: str
    parts: dict[str, Part]
    #: How many rules may state it: "one" (exactly one), "optional" (at most one), "many" (any
    #: number; "some": at least one).
    count: str
    #: Plain (non-expression) fields it takes, each with the values allowed (empty: a name).
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Whether it takes `cards: {min: EXPR, max: EXPR}`: how many cards the move places.
    cards: bool = False


_P = {"players": INT}
_TRICK = {
    **_P,
    "action": ACTION,
    "pile": PILE,
    "placed": CARDS,
    "opening": PILE,
    "mover": SEAT,
    "in_trick": INT,
    "cards_left": INT,
    "passes_in_a_row": INT,
    "others_in": INT,
}
#: Whether a move that places cards onto the central pile may be made: overwriting and adding ask
#: it over the same names (the pile there, `old`; the pile after, `new`; the cards placed).
_ONTO_PILE = Part(BOOL, {**_P, "new": PILE, "old": PILE, "placed": CARDS}, explain="whether it is allowed")

SLOTS: dict[str, Slot] = {
    s.name: s
    for s in (
        Slot(
            "deck",
            "the deck: how many copies of each rank in `ranks` there are at the table",
            {"copies": Part(INT, _P, explain="copies of each rank")},
            "one",
        ),
        Slot(
            "deal",
            "the deal: how many cards each player gets (the rest is set aside)",
            {"hand_size": Part(INT, {**_P, "deck_size": INT}, explain="cards dealt to each player")},
            "one",
        ),
        Slot(
            "ranks",
            "the ranks: which rank follows which in a run, and how strong each rank is",
            {
                "follows": Part(
                    BOOL, {**_P, "a": RANK, "b": RANK}, explain="whether b comes straight after a"
                ),
                "strength": Part(INT, {**_P, "r": RANK}, explain="how strong a single or set of rank r is"),
            },
            "one",
        ),
        Slot(
            "pile",
            "a kind of pile: which cards make one, what beats it, when it closes the trick",
            {
                "cards": Part(
                    BOOL, {**_P, "cards": CARDS, "size": INT}, explain="whether these cards are one"
                ),
                "beats": Part(BOOL, {**_P, "new": PILE, "old": PILE}, explain="whether new beats old"),
                "closes_at": Part(INT, _P, required=False, explain="the size at which it ends the trick"),
            },
            "some",
            fields={"kind": ()},
        ),
        Slot(
            "lead",
            "leading: the first play of a trick",
            {"may": Part(BOOL, {**_P, "new": PILE, "placed": CARDS}, explain="whether the lead is allowed")},
            "one",
            cards=True,
        ),
        Slot(
            "overwrite",
            "overwriting: playing a new pile over the central pile",
            {"may": _ONTO_PILE},
            "optional",
            cards=True,
        ),
        Slot(
            "add",
            "adding: placing cards onto the central pile, which becomes `new`",
            {"may": _ONTO_PILE},
            "optional",
            cards=True,
        ),
        Slot(
            "pass",
            "passing",
            {
                "may": Part(BOOL, {**_P, "leading": BOOL}, explain="whether the player to move may pass"),
                "out": Part(BOOL, _P, explain="whether a pass takes the player out of the trick"),
            },
            "one",
        ),
        Slot(
            "trick_end",
            "a way a trick ends",
            {"ends": Part(BOOL, _TRICK, explain="whether the trick ends now")},
            "many",
            fields={"after": ON, "reason": ()},
        ),
        Slot(
            "trick_winner",
            "who wins a trick that ended",
            {"winner": Part(SEAT, {**_P, "last_placer": SEAT, "mover": SEAT}, explain="the winner")},
            "one",
        ),
        Slot(
            "turn",
            "the turn order",
            {"next": Part(SEAT, {**_P, "seat": SEAT}, explain="whose turn follows seat's")},
            "one",
        ),
        Slot(
            "round_end",
            "the end of a round",
            {
                "ends": Part(
                    BOOL,
                    {**_P, "cards_left": INT, "mover": SEAT, "holding": INT},
                    explain="whether the round ends now",
                )
            },
            "one",
        ),
        Slot(
            "leaders",
            "who leads the first trick of a round",
            {
                "first": Part(SEAT, {**_P, "draw": SEAT}, explain="the leader of round 1"),
                "later": Part(
                    SEAT,
                    {**_P, "went_out": SEAT, "previous_leader": SEAT},
                    explain="the leader of a later round",
                ),
            },
            "one",
        ),
        Slot(
            "scoring",
            "the points a player scores at the end of a round",
            {
                "penalty": Part(
                    INT,
                    {**_P, "hand": CARDS, "went_out": BOOL, "place": INT},
                    explain="the points the hand left scores",
                )
            },
            "one",
        ),
        Slot(
            "match_end",
            "the end of the match and its winners",
            {
                "ends": Part(
                    BOOL,
                    {**_P, "highest_score": INT, "lowest_score": INT, "round": INT},
                    explain="whether the match ends after this round",
                ),
                "winner": Part(
                    BOOL,
                    {**_P, "score": INT, "highest_score": INT, "lowest_score": INT},
                    explain="whether a player with this score wins",
                ),
            },
            "one",
        ),
    )
}


@dataclass(frozen=True)
class Primitive:
    """A function of the language: argument types, result type, what it means, and the rules' parts
    it asks (by the slot of the rule and the part's name), which the program answers for its own
    player count."""

    args: tuple[str, ...]
    result: str
    explain: str
    asks: tuple[tuple[str, str], ...] = ()


PRIMITIVES: dict[str, Primitive] = {
    "order": Primitive((RANK,), INT, "the rank's place in `ranks` (0 for the lowest)"),
    "next_rank": Primitive((RANK,), RANK, "the next rank in `ranks`, the lowest after the highest"),
    "strength": Primitive(
        (RANK,), INT, "the rank's strength (the `ranks` rule's `strength`)", (("ranks", "strength"),)
    ),
    "follows": Primitive(
        (RANK, RANK), BOOL, "whether b comes straight after a (the `ranks` rule)", (("ranks", "follows"),)
    ),
    "beats": Primitive(
        (PILE, PILE),
        BOOL,
        "whether the first pile beats the second (its kind's `beats`)",
        (("pile", "beats"),),
    ),
    "closes_at": Primitive(
        (PILE,),
        INT,
        "the size at which the pile's kind ends the trick (none: the deck)",
        (("pile", "closes_at"),),
    ),
    "has": Primitive((CARDS, RANK), BOOL, "whether the cards hold a card of the rank"),
    "count": Primitive((CARDS, RANK), INT, "how many cards of the rank the cards hold"),
    "same_rank": Primitive((CARDS,), BOOL, "whether all the cards have one rank"),
    "chain": Primitive(
        (CARDS,),
        BOOL,
        "whether the cards are distinct ranks, each following another",
        (("ranks", "follows"),),
    ),
    "size": Primitive((CARDS,), INT, "how many cards there are"),
    "total": Primitive((CARDS, TABLE), INT, "the sum of the table's value of each card"),
    "next_seat": Primitive(
        (SEAT,), SEAT, "whose turn follows the seat's (the `turn` rule)", (("turn", "next"),)
    ),
}

#: Names every part may use besides its own: the deck's lowest and highest rank and how many ranks.
CONSTANTS: dict[str, str] = {"lowest_rank": RANK, "highest_rank": RANK, "rank_count": INT}

#: Fields of a pile value.
PILE_FIELDS: dict[str, str] = {"kind": KIND, "size": INT, "cards": CARDS, "first": RANK, "last": RANK}

#: Keys every rule has besides its parts.
RULE_KEYS = ("id", "does", "cites", "statement")


_PLAYS = ("lead", "overwrite", "add")

#: When a rule of each kind applies and what it decides, in the words the rule-interaction
#: check pairs rules by (a trick-end rule's moments follow from its `on`).
MOMENTS_OF: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "deck": (("deal",), ("deck",)),
    "deal": (("deal",), ("hands",)),
    "ranks": (("lead", "overwrite", "add"), ("legal_moves", "pile")),
    "pile": (("lead", "overwrite", "add"), ("legal_moves", "pile")),
    "lead": (("lead",), ("legal_moves", "pile")),
    "overwrite": (("overwrite",), ("legal_moves", "pile")),
    "add": (("add",), ("legal_moves", "pile")),
    "pass": (("pass",), ("legal_moves", "next_to_move")),
    "trick_winner": (("trick_end",), ("trick_winner",)),
    "turn": (("trick_end",), ("next_to_move", "pile")),
    "round_end": (_PLAYS, ("round_ends", "next_to_move")),
    "leaders": (("round_end",), ("round_leader",)),
    "scoring": (("round_end",), ("penalties", "scores")),
    "match_end": (("round_end",), ("match_ends", "match_winner")),
}


def moments_of(does: str, after: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The moments a rule that `does` this applies at (a trick end: `after` a pass or a play) and
    what it decides."""
    if does == "trick_end":
        return (("pass",) if after == "pass" else _PLAYS), ("trick_ends", "trick_winner")
    return MOMENTS_OF[does]
