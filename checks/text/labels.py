"""The labels of a tracked solver's assumptions (text_examples.Tracked), as types.

Every constraint a tracked solver holds sits behind a Boolean literal, and an unsat core is a set of
those literals. Each literal is made from one of these labels and mapped back to it by identity, so
that what a core holds (a text's example, a rule part, a parameter pinned to the spec's value, a
variation point pinned to a reading) is read off its type, never parsed from the literal's name.
The name (`str(label)`) is what a finding's `unsat_core` lists in the JSON.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stated:
    """Something the check states by its own id: a text's example (with @de/@es where only one
    text says it), a rule part, the situation a query asks about."""

    id: str

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class ParameterPin:
    """A spec parameter pinned to the spec's value."""

    name: str

    def __str__(self) -> str:
        return f"parameters.{self.name}"


@dataclass(frozen=True)
class ReadingPin:
    """A variation point pinned to one of its readings."""

    point: str
    reading: str

    def __str__(self) -> str:
        return f"reading:{self.point}={self.reading}"


Label = Stated | ParameterPin | ReadingPin


def readings_in(core: tuple[Label, ...]) -> tuple[tuple[str, str], ...]:
    """The (point, reading) pins a core holds, sorted."""
    return tuple(sorted((label.point, label.reading) for label in core if isinstance(label, ReadingPin)))


def names(core: tuple[Label, ...]) -> tuple[str, ...]:
    """A core as the JSON lists it: its labels' names."""
    return tuple(str(label) for label in core)
