"""What the Z3 model (z3model.py) is built from and what it answers in: the codes of 535's pile
kinds and actions, the spec's parameters and rules (`Params`), a choice of readings (`Readings`),
and what a play does (`Outcome`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ...spec.lang.rulebook import Rulebook
from ..findings import ModelLimit
from .algebra import B, N, as_bool
from .rules_in_force import COMPONENT

T = TypeVar("T")

# The runs the Rule of 8's list names ("ein Lauf mit 7,8 oder 7,8,9", clause eight.trigger): what the
# text says, which the dead-clause catalogue names its parts by; text_examples checks it against the
# text. No reading's meaning is taken from here.
LISTED_EIGHT_RUNS: tuple[tuple[int, ...], ...] = ((7, 8), (7, 8, 9))

# The kinds of 535's piles, in the order its spec states them (their codes in every model of it).
NONE, SINGLE, SET, RUN = 0, 1, 2, 3
KIND_NAMES = {SINGLE: "single", SET: "set", RUN: "run"}
KIND_CODES = {name: code for code, name in KIND_NAMES.items()}
LEAD, OVERWRITE, ADD, PASS = 0, 1, 2, 3
ACTION_NAMES = {LEAD: "lead", OVERWRITE: "overwrite", ADD: "add", PASS: "pass"}
ACTION_CODES = {name: code for code, name in ACTION_NAMES.items()}

#: The table's numbers a symbolic model may leave free (Z3 integers in place of the spec's), by the
#: names their Z3 integers take, each with the parameter it stands for and, for a parameter given
#: per game size, the size: `Params.with_free` puts them in place.
FREE_NUMBERS: Mapping[str, tuple[str, str | None]] = {
    "copies_small": ("copies", "small_game"),
    "copies_large": ("copies", "large_game"),
    "set_close_small": ("set_closing_size", "small_game"),
    "set_close_large": ("set_closing_size", "large_game"),
    "run_close": ("run_closing_size", None),
    "max_cards": ("max_cards_per_turn", None),
    "min_set": ("min_set_size", None),
    "min_run": ("min_run_size", None),
}


@dataclass(frozen=True, eq=False)
class Params:
    """The spec's data the model is compiled from: the rules and every reading's fragment, and the
    parameters as the rules name them. A parameter's numbers may be Z3 terms (for unsat cores over
    parameters, or for ranging over every table a spec may give)."""

    ranks: tuple[int, ...]
    players_min: int
    players_max: int
    values: Mapping[str, Any]
    rulebook: Rulebook

    @staticmethod
    def of(ruleset: Ruleset) -> Params:
        if ruleset.rulebook is None:
            raise ModelLimit(f"{COMPONENT} needs the spec's rules; this ruleset carries none")
        return Params(
            ranks=ruleset.ranks,
            players_min=ruleset.players_min,
            players_max=ruleset.players_max,
            values=ruleset.values,
            rulebook=ruleset.rulebook,
        )

    def with_values(self, **values: Any) -> Params:
        """These parameters with some values replaced (by Z3 terms, say)."""
        return replace(self, values={**self.values, **values})

    def with_free(self, free: Mapping[str, Any]) -> Params:
        """These parameters with every number of `FREE_NUMBERS` replaced by `free`'s (Z3 integers)."""
        values: dict[str, Any] = {}
        for name, (parameter, size) in FREE_NUMBERS.items():
            if size is None:
                values[parameter] = free[name]
            else:
                values.setdefault(parameter, {})[size] = free[name]
        return self.with_values(**values)

    def with_players(self, low: int, high: int) -> Params:
        return replace(self, players_min=low, players_max=high)

    @property
    def max_cards(self) -> N:
        """The parameter max_cards_per_turn (the texts' "eine, zwei oder drei Karten")."""
        return self.values["max_cards_per_turn"]


class Readings:
    """A choice of reading per variation point: a reading name (concrete) or a Z3 Int (symbolic)."""

    def __init__(self, choice: Mapping[str, str | z3.ArithRef], names: Mapping[str, Sequence[str]]) -> None:
        self.choice = dict(choice)
        self.names = {p: tuple(n) for p, n in names.items()}

    def domain(self) -> list[B]:
        """Range constraints for the symbolic choices."""
        out: list[B] = []
        for point, value in self.choice.items():
            if not isinstance(value, str):
                out.append(z3.And(value >= 0, value < len(self.names[point])))
        return out

    def concrete(self, model: z3.ModelRef) -> dict[str, str]:
        out: dict[str, str] = {}
        for point, value in self.choice.items():
            if isinstance(value, str):
                out[point] = value
            else:
                out[point] = self.names[point][model.eval(value, model_completion=True).as_long()]
        return out

    def fixed(self, **readings: str) -> Readings:
        """This choice with some points fixed to a reading."""
        return Readings({**self.choice, **readings}, self.names)

    @staticmethod
    def of_ruleset(ruleset: Ruleset) -> Readings:
        return Readings(dict(ruleset.reading_items), {})

    @staticmethod
    def symbolic(
        spec: Spec, prefix: str, fixed: Mapping[str, str] | None = None, free: Iterable[str] | None = None
    ) -> Readings:
        """Points in `free` (all when None) become Z3 variables; the rest take `fixed`."""
        fixed = dict(fixed or {})
        free_set = set(spec.variation_points) if free is None else set(free)
        choice: dict[str, str | z3.ArithRef] = {}
        for point in spec.variation_points:
            if point in free_set:
                choice[point] = z3.Int(f"{prefix}reading.{point}")
            elif point in fixed:
                choice[point] = fixed[point]
        # A fixed point the spec does not declare stays, so that the model refuses it.
        for point, value in fixed.items():
            choice.setdefault(point, value)
        names = {p: tuple(vp.readings) for p, vp in spec.variation_points.items()}
        return Readings(choice, names)


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What a play does: legal or not, the central pile it leaves, the trick endings it causes
    (`ends`: every trick ending asked after a play, by its reason, in the spec's order)."""

    legal: Any
    kind: Any
    low: Any
    size: Any
    ends: tuple[tuple[str, Any], ...] = field(default=())

    def end(self, reason: str) -> Any:
        found = [holds for name, holds in self.ends if name == reason]
        if not found:
            return False
        if len(found) == 1:
            return found[0]
        if all(isinstance(x, bool) for x in found):
            return any(found)
        return z3.Or([as_bool(x) for x in found])

    @property
    def set_closed(self) -> Any:
        return self.end("set_closed")

    @property
    def run_closed(self) -> Any:
        return self.end("run_closed")

    @property
    def rule_of_8(self) -> Any:
        return self.end("rule_of_8")

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for name, _ in self.ends))
