"""What a liveness property comes to (an Outcome: proved, or its counterexample; how; over what),
the endless match and the analysis that gathers both, and the spec schema's bounds the properties
range over."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ....engine import Position

NAME = "discovery.liveness"

# The spec schema's bounds (spec/spec.schema.json) the symbolic parameters range over.
SCHEMA_PLAYERS = (2, 12)
SCHEMA_MAX_CARDS = (1, 6)
SCHEMA_COPIES = (1, 7)
SCHEMA_SIZE = 100
SCHEMA_POINTS = (0, 1_000_000)
SCHEMA_SCORE = (1, 1_000_000)

Method = Literal["z3", "exhaustive"]


@dataclass(frozen=True)
class Outcome:
    """One property's result: proved (no counterexample) or not, how, and over what."""

    name: str
    method: Method
    blanks: Mapping[str, str]  # the scope's blanks
    clauses: tuple[str, ...]
    counterexample: Mapping[str, Any] | None = None
    position: Position | None = None
    queries: int = 0  # Z3 queries asked
    cases: int = 0  # cases or states examined
    #: Why the property was not asked (its proof states rules these rules state otherwise), or None.
    unasked: str | None = None
    #: The variation points whose every reading the search went through (the scope's {points}).
    points: tuple[str, ...] = ()

    @property
    def proved(self) -> bool:
        return self.counterexample is None and self.unasked is None


@dataclass(frozen=True)
class EndlessMatch:
    """The smallest endless match found by the engine: a round from `position` (its moves included)
    that leaves every score unchanged."""

    position: Position
    zero_ranks: tuple[int, ...]
    penalties: tuple[int, ...]


@dataclass(frozen=True)
class Analysis:
    outcomes: tuple[Outcome, ...]
    endless: EndlessMatch | None


def players_text(low: int, high: int) -> str:
    return f"{low} to {high}" if low != high else str(low)
