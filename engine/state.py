"""Immutable game values: moves, piles, events and the state of a match.

A hand is stored packed into one integer, FIELD bits per rank (the rank's count in the low bits,
a guard bit on top), so that "does this hand hold these cards?" and "remove these cards" are each
one integer operation. `five35.engine.cards` converts between packed hands and card lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Action = Literal["lead", "overwrite", "add", "pass"]
Kind = Literal["single", "set", "run"]
Phase = Literal["play", "round_over", "match_over"]

ACTIONS: tuple[Action, ...] = ("lead", "overwrite", "add", "pass")


@dataclass(frozen=True, slots=True)
class Move:
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


PASS = Move("pass")


@dataclass(frozen=True, slots=True)
class Pile:
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


@dataclass(frozen=True, slots=True)
class TrickEnd:
    """A trick ended. Reasons: all_passed, set_closed, run_closed, rule_of_8 (several can hold)."""

    winner: int
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "trick_end", "winner": self.winner, "reasons": list(self.reasons)}


@dataclass(frozen=True, slots=True)
class RoundEnd:
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


@dataclass(frozen=True, slots=True)
class MatchEnd:
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "match_end", "scores": list(self.scores), "winners": list(self.winners)}


Event = TrickEnd | RoundEnd | MatchEnd


@dataclass(frozen=True, slots=True)
class Play:
    """One turn of the current trick: who moved and what."""

    player: int
    move: Move


@dataclass(frozen=True, slots=True)
class State:
    """The whole state of a match. Immutable and hashable; `Game.to_json` serialises it.

    `hands`, `cleared` and `aside` are packed counts (see module docstring).
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

    @property
    def leading(self) -> bool:
        """True when the player to move opens a trick (and so may not pass)."""
        return self.pile is None

    def has_passed(self, player: int) -> bool:
        return bool(self.passed >> player & 1)

    @property
    def is_over(self) -> bool:
        return self.phase != "play"
