"""Immutable game values: moves, piles, events and the state of a match.

A hand is stored packed into one integer, FIELD bits per rank (the rank's count in the low bits,
a guard bit on top), so that "does this hand hold these cards?" and "remove these cards" are each
one integer operation. `five35.engine.cards` converts between packed hands and card lists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final, Literal

from . import _docstrings

Action = Literal["lead", "overwrite", "add", "pass"]
Kind = Literal["single", "set", "run"]
Phase = Literal["play", "round_over", "match_over"]

ACTIONS: tuple[Action, ...] = ("lead", "overwrite", "add", "pass")

# The vocabulary a spec's rules say when they apply in and what they decide with (`when:` and
# `decides:` in spec/535.yaml); the loader refuses any other name, and the rule-interaction check
# (checks/discovery/interactions/) pairs rules by them. Declared here, beside the actions, because
# they name the steps and the outcomes this engine has.

#: The moments a rule can apply at: one of the four actions, or what follows a step (the end of a
#: trick, of a round, of a match), or the deal of a round.
MOMENTS: tuple[str, ...] = ("deal", "lead", "overwrite", "add", "pass", "trick_end", "round_end", "match_end")

#: What a rule can decide.
DECISIONS: tuple[str, ...] = (
    "deck",
    "hands",
    "legal_moves",
    "pile",
    "trick_ends",
    "trick_winner",
    "next_to_move",
    "round_ends",
    "round_leader",
    "penalties",
    "scores",
    "match_ends",
    "match_winner",
)

#: The moment a decision opens when it comes out yes: a trick, a round or a match that ends.
OPENS: dict[str, str] = {"trick_ends": "trick_end", "round_ends": "round_end", "match_ends": "match_end"}

#: The moments that can come straight after each play within one trick: the next player's turn.
NEXT_MOMENTS: dict[str, tuple[str, ...]] = {
    "lead": ("overwrite", "add", "pass"),
    "overwrite": ("overwrite", "add", "pass"),
    "add": ("overwrite", "add", "pass"),
    "pass": ("overwrite", "add", "pass"),
}

#: What each decision is computed from (when the other is decided at the same moment, it comes
#: first): the match ends on the scores, the scores are the penalties added, the trick's winner is
#: known once the trick ends.
NEEDS: dict[str, tuple[str, ...]] = {
    "trick_winner": ("trick_ends",),
    "scores": ("penalties",),
    "match_ends": ("scores",),
    "match_winner": ("scores",),
    "round_leader": ("round_ends",),
}

# The classes are plain frozen dataclasses, without slots=True: where mypyc compiles this module
# (see setup.py) each becomes a native class, which has no instance dictionary anyway and which
# slots=True (a new class made after the fact) would replace by an interpreted one.

#: Whether this module runs compiled by mypyc (True) or from its source.
COMPILED: Final = not __file__.endswith(".py")


class Record:
    """The base of the frozen dataclasses here: copy, deepcopy and pickle rebuild one through its
    __init__. (Compiled, a native object has no __dict__ for them to fill, and setting its fields
    one by one meets the frozen dataclass's __setattr__.)"""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Move(Record):
    """An action and the cards it places, sorted by rank. A pass places no cards.

    The same cards can be an overwrite or an add; those are different moves.
    """

    action: Action
    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.action == "pass":
            return "pass"
        return f"{self.action} {','.join(map(str, self.cards))}"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "cards": list(self.cards)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Move:
        return Move(data["action"], tuple(sorted(int(c) for c in data.get("cards", ()))))

    @staticmethod
    def parse(text: str) -> Move:
        """The inverse of `str(Move)`: "lead 3,3", "add 4", "pass"."""
        action, _, cards = text.strip().partition(" ")
        if action not in ACTIONS:
            raise ValueError(f"unknown action in move {text!r}")
        return Move(action, tuple(sorted(int(c) for c in cards.split(",") if c.strip())))


PASS = Move("pass")


class IllegalMove(ValueError):
    """A move that is not legal in the state it was applied to."""

    def __init__(self, move: Move, state: State, why: str) -> None:
        where = f"round {state.round}, player {state.to_move} to move, pile {state.pile or 'empty'}"
        super().__init__(f"illegal move '{move}' ({why}) at {where}")
        self.move = move
        self.state = state


@dataclass(frozen=True)
class Pile(Record):
    """The central pile of a trick: its kind and its cards, runs in rank succession order."""

    kind: Kind
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return f"{self.kind} {','.join(map(str, self.cards))}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": list(self.cards)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Pile:
        return Pile(data["kind"], tuple(int(c) for c in data["cards"]))


class TrickEndReason(StrEnum):
    """Why a trick ended (several can hold at once). A StrEnum, so each compares equal to, and
    serialises as, its string: the protocol and the JSON outputs carry the plain names."""

    ALL_PASSED = "all_passed"
    SET_CLOSED = "set_closed"
    RUN_CLOSED = "run_closed"
    RULE_OF_8 = "rule_of_8"


#: The one list of trick-end reasons, in the order the texts give the four ways a trick ends.
TRICK_END_REASONS: tuple[TrickEndReason, ...] = tuple(TrickEndReason)


@dataclass(frozen=True)
class TrickEnd(Record):
    """A trick ended, for the `TrickEndReason`s given."""

    winner: int
    reasons: tuple[TrickEndReason, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "trick_end", "winner": self.winner, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class RoundEnd(Record):
    went_out: int
    penalties: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "round_end",
            "went_out": self.went_out,
            "penalties": list(self.penalties),
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class MatchEnd(Record):
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "match_end", "scores": list(self.scores), "winners": list(self.winners)}


Event = TrickEnd | RoundEnd | MatchEnd


@dataclass(frozen=True)
class Play(Record):
    """One turn of the current trick: who moved and what."""

    player: int
    move: Move


@dataclass(frozen=True)
class Position(Record):
    """A position to play from, as a person would set up a table: the hands at the start of a
    round, who leads it, the scores before it, and the moves made since (for example the trick so
    far). `Game.play_from(position)` gives the State; every witness, scene, replay deal and
    generated start in five35 is one of these."""

    hands: tuple[tuple[int, ...], ...]
    leader: int = 0
    scores: tuple[int, ...] | None = None  # None: everyone at 0
    moves: tuple[Move, ...] = ()
    round: int = 1
    seed: int = 0

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def cards(self) -> int:
        """How many cards the position deals: the size of a witness."""
        return sum(len(h) for h in self.hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hands": [list(h) for h in self.hands],
            "leader": self.leader,
            "scores": list(self.scores) if self.scores is not None else [0] * self.players,
            "moves": [m.to_json() for m in self.moves],
            "round": self.round,
            "seed": self.seed,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Position:
        """Build from already-validated JSON (the protocol and replay readers validate first)."""
        return Position(
            hands=tuple(tuple(sorted(int(c) for c in h)) for h in data["hands"]),
            leader=int(data.get("leader", 0)),
            scores=tuple(int(s) for s in data["scores"]) if data.get("scores") is not None else None,
            moves=tuple(Move.from_json(m) for m in data.get("moves", ())),
            round=int(data.get("round", 1)),
            seed=int(data.get("seed", 0)),
        )


@dataclass(frozen=True)
class State(Record):
    """The whole state of a match. Immutable and hashable; `Game.to_json` serialises it.

    `hands`, `cleared` and `aside` are packed counts (see module docstring).

    The engine makes its States with `new_state`, which skips the frozen dataclass's __init__.
    """

    players: int
    hands: tuple[int, ...]
    to_move: int
    pile: Pile | None
    last_player: int
    passed: int
    opening_has_eight: bool
    trick: tuple[Play, ...]
    cleared: int
    aside: int
    scores: tuple[int, ...]
    round: int
    round_leader: int
    phase: Phase
    seed: int
    #: The players who have gone out of a round that plays on (a rule whose `round_end` waits for
    #: more than the first), in the order they went out; always empty in 535, whose round ends then.
    out: tuple[int, ...] = ()

    @property
    def leading(self) -> bool:
        """True when the player to move opens a trick (and so may not pass)."""
        return self.pile is None

    def has_passed(self, player: int) -> bool:
        return bool(self.passed >> player & 1)

    @property
    def is_over(self) -> bool:
        return self.phase != "play"


_new_object = object.__new__
_set_attribute = object.__setattr__


def new_state(
    players: int,
    hands: tuple[int, ...],
    to_move: int,
    pile: Pile | None,
    last_player: int,
    passed: int,
    opening_has_eight: bool,
    trick: tuple[Play, ...],
    cleared: int,
    aside: int,
    scores: tuple[int, ...],
    round: int,
    round_leader: int,
    phase: Phase,
    seed: int,
    out: tuple[int, ...] = (),
) -> State:
    """`State(...)` with the fields in their order, for the engine's own States, which need no
    checks: several times faster than the frozen dataclass's __init__, which sets each field
    through object.__setattr__ (issue 12). Compiled, the fields are stored directly into the
    native object; from source, the object gets its field dictionary in one assignment. Either way
    the State is the same frozen dataclass, and assigning to a field outside raises
    FrozenInstanceError."""
    if COMPILED:
        state: State = State.__new__(State)
        # Stores into the native object's own fields: the frozen dataclass's __setattr__, which
        # refuses every assignment made from Python, is not involved.
        state.players = players  # type: ignore[misc]
        state.hands = hands  # type: ignore[misc]
        state.to_move = to_move  # type: ignore[misc]
        state.pile = pile  # type: ignore[misc]
        state.last_player = last_player  # type: ignore[misc]
        state.passed = passed  # type: ignore[misc]
        state.opening_has_eight = opening_has_eight  # type: ignore[misc]
        state.trick = trick  # type: ignore[misc]
        state.cleared = cleared  # type: ignore[misc]
        state.aside = aside  # type: ignore[misc]
        state.scores = scores  # type: ignore[misc]
        state.round = round  # type: ignore[misc]
        state.round_leader = round_leader  # type: ignore[misc]
        state.phase = phase  # type: ignore[misc]
        state.seed = seed  # type: ignore[misc]
        state.out = out  # type: ignore[misc]
        return state
    state = _new_object(State)
    _set_attribute(
        state,
        "__dict__",
        {
            "players": players,
            "hands": hands,
            "to_move": to_move,
            "pile": pile,
            "last_player": last_player,
            "passed": passed,
            "opening_has_eight": opening_has_eight,
            "trick": trick,
            "cleared": cleared,
            "aside": aside,
            "scores": scores,
            "round": round,
            "round_leader": round_leader,
            "phase": phase,
            "seed": seed,
            "out": out,
        },
    )
    return state


def evolve(state: State, **changes: Any) -> State:
    """`dataclasses.replace(state, **changes)`, without the frozen dataclass's __init__: the one
    copy-with-changes both engines (game.py, interpreter.py) make their States with where
    `step_state`'s fixed set of fields does not fit."""
    get = changes.get
    return new_state(
        get("players", state.players),
        get("hands", state.hands),
        get("to_move", state.to_move),
        get("pile", state.pile),
        get("last_player", state.last_player),
        get("passed", state.passed),
        get("opening_has_eight", state.opening_has_eight),
        get("trick", state.trick),
        get("cleared", state.cleared),
        get("aside", state.aside),
        get("scores", state.scores),
        get("round", state.round),
        get("round_leader", state.round_leader),
        get("phase", state.phase),
        get("seed", state.seed),
        get("out", state.out),
    )


def step_state(
    state: State,
    hands: tuple[int, ...],
    to_move: int,
    pile: Pile | None,
    last_player: int,
    passed: int,
    opening_has_eight: bool,
    trick: tuple[Play, ...],
    cleared: int,
) -> State:
    """`state` with the fields a step changes replaced: `new_state` for one step of play, which
    copies the rest (players, aside, scores, round, round_leader, phase, seed) from `state`. From
    source it copies the field dictionary and writes the given fields into it, several times
    faster than passing all fifteen."""
    if COMPILED:
        return new_state(
            state.players,
            hands,
            to_move,
            pile,
            last_player,
            passed,
            opening_has_eight,
            trick,
            cleared,
            state.aside,
            state.scores,
            state.round,
            state.round_leader,
            state.phase,
            state.seed,
            state.out,
        )
    fields = state.__dict__.copy()
    new: State = _new_object(State)
    _set_attribute(new, "__dict__", fields)
    fields["hands"] = hands
    fields["to_move"] = to_move
    fields["pile"] = pile
    fields["last_player"] = last_player
    fields["passed"] = passed
    fields["opening_has_eight"] = opening_has_eight
    fields["trick"] = trick
    fields["cleared"] = cleared
    return new


# Last: every class is defined.
_docstrings.restore(globals())
