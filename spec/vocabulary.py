"""What an engine implements: its variation points, their readings, its parameters.

The reference engine declares its vocabulary once (`five35.engine.Game.VOCABULARY`, a class
attribute as python-chess declares a variant's rules); the loader checks a spec against it, and the
checks take their list of points and readings from it. A reading that no code implements is then an
error where it is written, not a silent fallback to some other reading's behaviour.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


class UnimplementedReading(ValueError):
    """A component was asked to play or model a reading it does not implement.

    `str()` is one line naming the point, the reading and the component.
    """

    def __init__(self, component: str, point: str, reading: str) -> None:
        super().__init__(f"{component} does not implement reading {point}={reading}")
        self.component = component
        self.point = point
        self.reading = reading


@dataclass(frozen=True)
class Vocabulary:
    """Every variation point with its readings (in a fixed order), and every parameter."""

    points: Mapping[str, tuple[str, ...]]
    parameters: tuple[str, ...]

    def implements(self, point: str, reading: str) -> bool:
        return reading in self.points.get(point, ())

    def require(self, component: str, readings: Mapping[str, str]) -> None:
        """Raise UnimplementedReading for the first chosen reading outside this vocabulary."""
        for point, reading in readings.items():
            if not self.implements(point, reading):
                raise UnimplementedReading(component, point, reading)

    def extended(
        self,
        points: Mapping[str, tuple[str, ...]] | None = None,
        parameters: tuple[str, ...] = (),
    ) -> Vocabulary:
        """This vocabulary plus more readings (added to existing points or as new points): what a
        Game subclass that implements a house rule declares."""
        merged = {p: tuple(r) for p, r in self.points.items()}
        for point, readings in (points or {}).items():
            merged[point] = (*merged.get(point, ()), *(r for r in readings if r not in merged.get(point, ())))
        return Vocabulary(merged, (*self.parameters, *(p for p in parameters if p not in self.parameters)))


#: The parameters a `Ruleset` has a field for (535's, with the shapes spec.schema.json gives them):
#: a spec may leave out any but REQUIRED_PARAMETERS, and a parameter of its own (any other name)
#: must be named by some rule.
PARAMETERS: tuple[str, ...] = (
    "players",
    "ranks",
    "copies",
    "max_cards_per_turn",
    "min_set_size",
    "min_run_size",
    "set_closing_size",
    "run_closing_size",
    "match_end_score",
    "points",
    "hand_size",
)

#: The parameters every spec gives, whatever game it states: who plays and with which ranks.
REQUIRED_PARAMETERS: tuple[str, ...] = ("players", "ranks")

#: The public hooks of the reference engine a variant may override (`Game.HOOKS` is this tuple):
#: declared here, with the words file that names them (its decisions and mutations), so that the
#: spec package reads no engine.
ENGINE_HOOKS: tuple[str, ...] = (
    "follows",
    "strength",
    "beats",
    "closing_size",
    "closes",
    "add_limit",
    "add_options",
    "rule_of_8",
    "trick_winner",
    "next_seat",
    "penalty",
    "deck_copies",
    "hand_size",
    "first_leader",
    "round_leader",
)
