"""Each check component's own table of the variation points and readings it implements, held
against the engine's vocabulary (`five35.engine.Game.VOCABULARY`).

A component that branches on readings keeps one table keyed by point: the readings it gives a
meaning to, and the points it leaves alone (each with the reason it may). Two guards follow:

- at import, `table_vocabulary` refuses a table that does not cover exactly the engine's points
  and readings, so a reading added to the engine cannot be forgotten by a component;
- at use, `ComponentVocabulary.require` raises `UnimplementedReading` for a chosen reading outside
  the table, so a house-rules reading no code implements is refused instead of quietly playing
  like another reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...spec import Ruleset, Spec
from ...spec.lang.rulebook import Rulebook
from ...spec.vocabulary import UnimplementedReading, Vocabulary


class VocabularyMismatch(RuntimeError):
    """A component's table does not cover the engine's vocabulary exactly. `str()` is one line."""


@dataclass(frozen=True)
class ComponentVocabulary:
    """What one component implements: `vocabulary` (its points and readings) and `ignored` (points
    it does not interpret, each with why that is sound; every reading of them is accepted as the
    engine declares it)."""

    component: str
    vocabulary: Vocabulary
    ignored: Mapping[str, str]

    def require(self, readings: Mapping[str, str]) -> None:
        """Raise UnimplementedReading for the first chosen reading this component cannot honour."""
        self.vocabulary.require(self.component, readings)

    def require_ruleset(self, ruleset: Ruleset) -> None:
        self.require(dict(ruleset.reading_items))

    def require_spec(self, spec: Spec) -> None:
        """Every reading a spec declares: components that sweep a spec's readings refuse it whole."""
        for point, vp in spec.variation_points.items():
            for reading in vp.readings:
                if not self.vocabulary.implements(point, reading):
                    raise UnimplementedReading(self.component, point, reading)


def mismatches(
    table: Mapping[str, Iterable[str]], ignored: Mapping[str, str], vocabulary: Vocabulary
) -> list[str]:
    """How `table` (point -> readings) plus `ignored` points differ from `vocabulary`."""
    out: list[str] = []
    for point in table.keys() & ignored.keys():
        out.append(f"{point} is both implemented and ignored")
    for point, readings in vocabulary.points.items():
        if point in ignored:
            if not ignored[point].strip():
                out.append(f"{point} is ignored without a reason")
            continue
        if point not in table:
            out.append(f"point {point} is missing")
            continue
        have = set(table[point])
        out.extend(f"reading {point}={r} is missing" for r in readings if r not in have)
        out.extend(
            f"reading {point}={r} is not in the engine's vocabulary" for r in sorted(have - set(readings))
        )
    for point in sorted((table.keys() | ignored.keys()) - vocabulary.points.keys()):
        out.append(f"point {point} is not in the engine's vocabulary")
    return out


def table_vocabulary(
    component: str,
    table: Mapping[str, Iterable[str]],
    vocabulary: Vocabulary,
    ignored: Mapping[str, str] | None = None,
) -> ComponentVocabulary:
    """The component's vocabulary from its table; raises VocabularyMismatch unless the table and the
    ignored points together cover exactly `vocabulary`'s points and readings."""
    ignored = dict(ignored or {})
    found = mismatches(table, ignored, vocabulary)
    if found:
        raise VocabularyMismatch(f"{component} does not match Game.VOCABULARY: {'; '.join(found)}")
    # Equal sets by now; the engine's order is kept, as every listing of readings uses it.
    points = {point: tuple(readings) for point, readings in vocabulary.points.items()}
    return ComponentVocabulary(component, Vocabulary(points, vocabulary.parameters), ignored)


@dataclass(frozen=True)
class StatedVocabulary:
    """What a component compiled from the spec's rules implements: every reading whose rule
    fragment the spec states (`variation_points.P.readings.R.rules`). A reading without one -- a
    house rule written only as a name, or a point the spec does not declare -- is refused, never
    played as the rules without it."""

    component: str

    def require(self, rulebook: Rulebook | None, readings: Mapping[str, str]) -> None:
        for point, reading in readings.items():
            if rulebook is None or rulebook.fragment(point, reading) is None:
                raise UnimplementedReading(self.component, point, reading)

    def require_ruleset(self, ruleset: Ruleset) -> None:
        self.require(ruleset.rulebook, dict(ruleset.reading_items))

    def require_spec(self, spec: Spec) -> None:
        """Every reading a spec declares: components that sweep a spec's readings refuse it whole."""
        for point, vp in spec.variation_points.items():
            for reading in vp.readings:
                self.require(spec.rulebook, {point: reading})


def require_with_stated(
    table: ComponentVocabulary, stated: StatedVocabulary, ruleset: Ruleset, spec: Spec
) -> None:
    """For a component that sweeps the points of its table and leaves every other point at the
    ruleset's reading, for a model compiled from the rules to state: the table's points must be
    ones it implements; any other point (a house rule's) must have its fragment stated."""
    known = table.vocabulary.points

    def split(readings: Mapping[str, str]) -> None:
        table.require({p: r for p, r in readings.items() if p in known})
        stated.require(spec.rulebook, {p: r for p, r in readings.items() if p not in known})

    split(dict(ruleset.reading_items))
    for point, vp in spec.variation_points.items():
        for reading in vp.readings:
            split({point: reading})
