"""The rules in force for a choice of readings, as the Z3 model (z3model.py) compiles them
(rulecompile.py): the spec's rules with each fixed point's fragment applied, and each part a
symbolic point's fragments replace made a `Choice` over the point's reading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...spec.lang.rulebook import Fragment, Rulebook
from ...spec.lang.syntax import Node
from ...spec.vocabulary import UnimplementedReading
from ..findings import ModelLimit

COMPONENT = "the Z3 model"

PartKey = tuple[str, str]  # (rule id, part name); card bounds are parts "cards.min", "cards.max"


@dataclass(frozen=True)
class Choice:
    """A part whose expression depends on a point's symbolic reading: `options[i]` under the
    point's i-th reading (None: the rule does not state the part under that reading)."""

    point: str
    var: Any  # a z3 Int ranging over the point's readings (Readings.domain)
    options: tuple[Node | Choice | None, ...]


Expr = Node | Choice


# ---- the rules in force ----------------------------------------------------------------------------


@dataclass
class Resolved:
    """The rules in force, their parts possibly `Choice`s over symbolic readings."""

    order: list[str]
    does: dict[str, str]
    fields: dict[str, dict[str, str]]
    parts: dict[PartKey, Expr]
    _one: dict[str, str | None] = field(default_factory=dict, repr=False)

    def slot(self, does: str) -> list[str]:
        return [r for r in self.order if self.does[r] == does]

    def one(self, does: str) -> str | None:
        """The rule that states `does` (the first, where several may)."""
        if does not in self._one:
            found = self.slot(does)
            self._one[does] = found[0] if found else None
        return self._one[does]

    def field(self, rule_id: str, name: str) -> str | None:
        return self.fields[rule_id].get(name)


def _changed(change: Any) -> dict[str, Node]:
    parts: dict[str, Node] = dict(change.parts)
    parts.update({"cards." + b: node for b, node in change.cards})
    return parts


def resolve(rulebook: Rulebook, choice: Mapping[str, Any], names: Mapping[str, Sequence[str]]) -> Resolved:
    """The rules in force when each point in `choice` takes its reading (a name) or ranges over the
    readings `names[point]` (a Z3 variable): the base rules with the fragments applied in the
    spec's order of points, as `Rulebook.effective` applies them. Raises UnimplementedReading for
    a reading the spec states no fragment of: nothing is modelled as another reading."""
    by_point: dict[str, dict[str, Fragment]] = {}
    for f in rulebook.fragments:
        by_point.setdefault(f.point, {})[f.reading] = f
    for point, value in choice.items():
        for reading in (value,) if isinstance(value, str) else names.get(point, ()):
            if reading not in by_point.get(point, {}):
                raise UnimplementedReading(COMPONENT, point, reading)
        if not isinstance(value, str) and not names.get(point):
            raise ModelLimit(f"{COMPONENT} was given a symbolic reading of {point} without its readings")
    order = [r.id for r in rulebook.rules]
    does = {r.id: r.does for r in rulebook.rules}
    fields = {r.id: dict(r.fields) for r in rulebook.rules}
    parts: dict[PartKey, Expr] = {}
    for r in rulebook.rules:
        for name, node in _changed(r).items():
            parts[(r.id, name)] = node
    for point, fragments in by_point.items():
        if point not in choice:
            raise ModelLimit(f"{COMPONENT} was given no reading of {point}")
        value = choice[point]
        if isinstance(value, str):
            frag = fragments[value]
            for rule_id, change in frag.changes:
                if rule_id in frag.added or rule_id not in does:
                    if rule_id not in does:
                        order.append(rule_id)
                    does[rule_id] = change.does
                    fields[rule_id] = {}
                    parts = {k: v for k, v in parts.items() if k[0] != rule_id}
                fields[rule_id].update(dict(change.fields))
                for name, node in _changed(change).items():
                    parts[(rule_id, name)] = node
            continue
        readings = list(names[point])
        frags = [fragments[r] for r in readings]
        keys: list[PartKey] = []
        for frag in frags:
            for rule_id, change in frag.changes:
                if rule_id in frag.added or rule_id not in does or change.fields:
                    raise ModelLimit(
                        f"{COMPONENT} takes point {point} only at a fixed reading: reading {frag.reading} "
                        + (
                            "adds rule"
                            if rule_id in frag.added or rule_id not in does
                            else "changes a field of"
                        )
                        + f" {rule_id}"
                    )
                keys.extend((rule_id, n) for n in _changed(change) if (rule_id, n) not in keys)
        for key in keys:
            options: list[Expr | None] = []
            for f in frags:
                changes = dict(f.changes)
                changed = _changed(changes[key[0]]) if key[0] in changes else {}
                options.append(changed.get(key[1], parts.get(key)))
            if all(o == options[0] for o in options):
                if options[0] is not None:
                    parts[key] = options[0]
                continue
            parts[key] = Choice(point, value, tuple(options))
    return Resolved(order, does, fields, parts)
