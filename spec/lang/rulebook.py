"""A spec's rules as data: the base rules, the readings' fragments, and the rules in force for a
choice of readings.

A reading is a rule fragment, as a Ludii option item is: under `readings.NAME.rules` it names
rules by id and gives the parts it replaces (or a whole new rule, with `does:`). The rules in
force for a choice of readings are the base rules with every chosen fragment applied, in the
spec's order of points. Their digest (of the trees, not the prose) says whether two rulesets
state the same game: the reference engine plays a ruleset only where the digest is one it
implements.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import schema as S
from .compile import Program, RuleDef, RuleProblem
from .syntax import Node, SyntaxProblem, parse, unparse

Key = tuple[str | int, ...]
Problem = tuple[Key, int, str]  # key path, column (0: the whole value), message

NO_FRAGMENT = "a reading states the rule fragment it substitutes (rules: {RULE_ID: {PART: EXPR}})"

#: Rules a spec may state, and parts a rule may have: limits on input size.
MAX_RULES = 200
MAX_PARTS = 40


@dataclass(frozen=True)
class Fragment:
    """What one reading changes: for each rule id, the parts it replaces (or a whole new rule)."""

    point: str
    reading: str
    changes: tuple[tuple[str, RuleDef], ...]  # rule id -> a RuleDef holding only the changed parts
    added: tuple[str, ...] = ()  # rule ids the fragment adds rather than changes


@dataclass(frozen=True)
class Rulebook:
    """The base rules and every reading's fragment, as the spec states them."""

    rules: tuple[RuleDef, ...]
    fragments: tuple[Fragment, ...]
    # The digest of the rules in force, by the fragments that apply: every ruleset built asks (a
    # discovery run builds thousands, a reading changed at a time), and the rules' text is long.
    _digests: dict[tuple[int, ...], str] = field(default_factory=dict, compare=False, repr=False)

    def fragment(self, point: str, reading: str) -> Fragment | None:
        for f in self.fragments:
            if f.point == point and f.reading == reading:
                return f
        return None

    def effective(self, readings: Mapping[str, str]) -> tuple[RuleDef, ...]:
        """The rules in force under `readings` (point -> reading): the base rules with each
        chosen reading's fragment applied, in the order the spec lists the points."""
        rules = {r.id: r for r in self.rules}
        order = [r.id for r in self.rules]
        for f in self.fragments:
            if readings.get(f.point) != f.reading:
                continue
            for rule_id, change in f.changes:
                if rule_id in rules and rule_id not in f.added:
                    rules[rule_id] = _amend(rules[rule_id], change)
                else:
                    rules[rule_id] = change
                    if rule_id not in order:
                        order.append(rule_id)
        return tuple(rules[i] for i in order)

    def digest(self, readings: Mapping[str, str]) -> str:
        applied = tuple(i for i, f in enumerate(self.fragments) if readings.get(f.point) == f.reading)
        found = self._digests.get(applied)
        if found is None:
            found = self._digests[applied] = rules_digest(self.effective(readings))
        return found


def _amend(rule: RuleDef, change: RuleDef) -> RuleDef:
    parts = dict(rule.parts)
    parts.update(change.parts)
    fields = dict(rule.fields)
    fields.update(change.fields)
    cards = dict(rule.cards)
    cards.update(change.cards)
    keys = dict(rule.keys)
    keys.update((k, v) for k, v in change.keys if k != "id")
    return RuleDef(
        rule.id,
        rule.does,
        tuple(parts.items()),
        tuple(fields.items()),
        tuple(cards.items()),
        tuple(keys.items()),
    )


def rules_digest(rules: Sequence[RuleDef]) -> str:
    """A digest of what the rules say (their trees), not of their prose or their place in the file."""
    text = "\n".join(
        "|".join(
            [
                r.id,
                r.does,
                ";".join(f"{k}={v}" for k, v in sorted(r.fields)),
                ";".join(f"cards.{k}={unparse(v)}" for k, v in sorted(r.cards)),
                ";".join(f"{k}={unparse(v)}" for k, v in sorted(r.parts)),
            ]
        )
        for r in rules
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def describe(rule: RuleDef) -> dict[str, Any]:
    """A rule as `535-check rules --format json` lists it."""
    return {
        "id": rule.id,
        "does": rule.does,
        **{k: v for k, v in rule.fields},
        **({"cards": {k: unparse(v) for k, v in rule.cards}} if rule.cards else {}),
        "parts": {k: unparse(v) for k, v in rule.parts},
    }


# ---- reading the spec's data -----------------------------------------------------------------------


def _expression(value: Any, key: Key, problems: list[Problem]) -> Node | None:
    if isinstance(value, bool):
        value = "true" if value else "false"
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        problems.append((key, 0, "expected an expression (text), a number or true/false"))
        return None
    try:
        return parse(value)
    except SyntaxProblem as exc:
        problems.append((key, exc.column, exc.message))
        return None


def _rule(
    raw: Any, key: Key, problems: list[Problem], *, rule_id: str | None = None, base: RuleDef | None = None
) -> RuleDef | None:
    """A rule (or, with `base`, the changes a fragment makes to it) from its mapping."""
    if not isinstance(raw, dict):
        problems.append((key, 0, "expected a mapping of the rule's parts"))
        return None
    if base is None:
        rid = raw.get("id", rule_id)
        does = raw.get("does")
        if not isinstance(rid, str) or not rid:
            problems.append(((*key, "id"), 0, "a rule needs an id"))
            return None
        if does not in S.SLOTS:
            where = (*key, "does") if "does" in raw else key
            problems.append((where, 0, f"does: expected one of {', '.join(S.SLOTS)}, got {does!r}"))
            return None
    else:
        rid, does = base.id, base.does
        if "does" in raw and raw["does"] != does:
            problems.append(((*key, "does"), 0, f"a reading cannot change what rule {rid} states ({does})"))
            return None
    slot = S.SLOTS[does]
    parts: dict[str, Node] = {}
    fields: dict[str, str] = {}
    cards: dict[str, Node] = {}
    keys: dict[str, Key] = {"id": key}
    if len(raw) > MAX_PARTS:
        problems.append((key, 0, f"more than {MAX_PARTS} parts"))
        return None
    for name, value in raw.items():
        here = (*key, name)
        if name in S.RULE_KEYS or (base is None and name in ("when", "decides", "uses")):
            if name in ("when", "decides", "uses"):
                problems.append(
                    (here, 0, f"'{name}' is no longer written: it follows from what the rule states")
                )
            continue
        if name in slot.fields:
            allowed = slot.fields[name]
            if not isinstance(value, str) or (allowed and value not in allowed) or not value:
                shown = f"one of {', '.join(allowed)}" if allowed else "a name"
                problems.append((here, 0, f"expected {shown}, got {value!r}"))
                continue
            fields[name] = value
            keys[name] = here
            continue
        if name == "cards" and slot.cards:
            if not isinstance(value, dict) or set(value) - {"min", "max"} or not value:
                problems.append((here, 0, "expected {min: EXPR, max: EXPR}"))
                continue
            for bound, expr in value.items():
                node = _expression(expr, (*here, bound), problems)
                if node is not None:
                    cards[bound] = node
                    keys["cards." + bound] = (*here, bound)
            continue
        if not isinstance(name, str) or not name.replace("_", "").isalnum() or not name[0].isalpha():
            problems.append((here, 0, f"a part's name is a word (letters, digits, _), got {name!r}"))
            continue
        node = _expression(value, here, problems)
        if node is not None:
            parts[name] = node
            keys[name] = here
    return RuleDef(
        rid,
        does,
        tuple(parts.items()),
        tuple(fields.items()),
        tuple(cards.items()),
        tuple(keys.items()),
    )


def read_rulebook(data: Mapping[str, Any]) -> tuple[Rulebook, list[Problem]]:
    """The rulebook of a spec's data (its `rules:` and each reading's `rules:`), and every problem
    found reading it (syntax, structure). Names and types are checked by `check_rulebook`."""
    problems: list[Problem] = []
    rules: list[RuleDef] = []
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list):
        return Rulebook((), ()), [(("rules",), 0, "expected a list of rules")]
    if len(raw_rules) > MAX_RULES:
        return Rulebook((), ()), [(("rules",), 0, f"more than {MAX_RULES} rules")]
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_rules):
        rule = _rule(raw, ("rules", i), problems)
        if rule is None:
            continue
        if rule.id in seen:
            problems.append((("rules", i, "id"), 0, f"rule id {rule.id!r} appears twice"))
            continue
        seen[rule.id] = i
        rules.append(rule)
    by_id = {r.id: r for r in rules}
    fragments: list[Fragment] = []
    points = data.get("variation_points")
    for point, vp in points.items() if isinstance(points, dict) else ():
        readings = vp.get("readings") if isinstance(vp, dict) else None
        for reading, entry in readings.items() if isinstance(readings, dict) else ():
            key: Key = ("variation_points", point, "readings", reading)
            if not isinstance(entry, dict):
                problems.append(
                    (
                        key,
                        0,
                        "a reading states the rule fragment it substitutes (rules: {RULE_ID: {PART: EXPR}})",
                    )
                )
                continue
            if entry.get("unimplemented") is True:
                if "rules" in entry:
                    problems.append(
                        (
                            key,
                            0,
                            "a proposal (unimplemented: true) states no rules: remove the marker to play it",
                        )
                    )
                continue
            raw_changes = entry.get("rules")
            if not isinstance(raw_changes, dict) or not raw_changes:
                problems.append(
                    (
                        key,
                        0,
                        "a reading states the rule fragment it substitutes (rules: {RULE_ID: {PART: EXPR}})",
                    )
                )
                continue
            changes: list[tuple[str, RuleDef]] = []
            added: list[str] = []
            for rule_id, raw in raw_changes.items():
                here = (*key, "rules", rule_id)
                base = by_id.get(rule_id)
                if base is None:
                    if not isinstance(raw, dict) or "does" not in raw:
                        known = ", ".join(by_id)
                        problems.append(
                            (here, 0, f"no rule {rule_id!r} (rules: {known}); a new rule needs does:")
                        )
                        continue
                    change = _rule(raw, here, problems, rule_id=rule_id)
                    if change is not None:
                        added.append(rule_id)
                else:
                    change = _rule(raw, here, problems, base=base)
                    if change is not None:
                        for name, _node in change.parts:
                            if base.part(name) is None and name in S.SLOTS[base.does].parts:
                                continue  # an optional part the base rule leaves out
                if change is not None:
                    changes.append((rule_id, change))
            fragments.append(Fragment(point, reading, tuple(changes), tuple(added)))
    return Rulebook(tuple(rules), tuple(fragments)), problems


def check_rulebook(
    book: Rulebook,
    values: Mapping[str, Any],
    players: Sequence[int],
    choices: Sequence[Mapping[str, str]],
) -> Iterator[Problem]:
    """Names and types of every part, compiled under each choice of readings in `choices` (the
    base with each reading alone, and the profiles), and the counts of each slot; a helper part no
    choice reads is refused (no part is decorative)."""
    used: set[tuple[str, str]] = set()
    helpers: dict[tuple[str, str], Key] = {}
    reported: set[tuple[Key, str]] = set()
    yield from _replaced_everywhere(book)
    for readings in choices:
        rules = book.effective(readings)
        for problem in _incomplete(rules, readings):
            if (problem[0], problem[2]) not in reported:
                reported.add((problem[0], problem[2]))
                yield problem
        for problem in _slot_counts(rules):
            if (problem[0], problem[2]) not in reported:
                reported.add((problem[0], problem[2]))
                yield problem
        for rule in rules:
            slot = S.SLOTS[rule.does]
            for name, _node in rule.parts:
                if name not in slot.parts:
                    helpers.setdefault((rule.id, name), rule.key_of(name))
        for n in players[:1]:
            try:
                Program(rules, values, n, used_parts=used)
            except RuleProblem as exc:
                if (exc.key, exc.message) not in reported:
                    reported.add((exc.key, exc.message))
                    yield exc.key, exc.column, exc.message
    for (rule_id, name), key in helpers.items():
        if (rule_id, name) not in used:
            yield (
                key,
                0,
                f"part {name!r} of rule {rule_id} is used by no other part and is not one its step has",
            )


def _replaced_everywhere(book: Rulebook) -> Iterator[Problem]:
    """A base rule's part that every reading of one point replaces is never in force: refused, so
    that no part of the file is decorative (leave it to the readings)."""
    points: dict[str, list[Fragment]] = {}
    for f in book.fragments:
        points.setdefault(f.point, []).append(f)
    for rule in book.rules:
        for name, _node in rule.parts:
            for point, fragments in points.items():
                states = [
                    any(r == rule.id and c.part(name) is not None for r, c in f.changes) for f in fragments
                ]
                if len(fragments) > 1 and all(states):
                    yield (
                        rule.key_of(name),
                        0,
                        f"every reading of {point} states part {name!r} of rule {rule.id}, so this one "
                        "is never played: leave it to the readings",
                    )
                    break


def _incomplete(rules: Sequence[RuleDef], readings: Mapping[str, str]) -> Iterator[Problem]:
    """Parts and fields a rule's step needs that neither the rule nor a chosen reading states."""
    for rule in rules:
        slot = S.SLOTS[rule.does]
        key = rule.key_of("id")
        missing = [n for n, part in slot.parts.items() if part.required and rule.part(n) is None]
        missing += [n for n in slot.fields if rule.field(n) is None]
        if slot.cards and not any(b == "max" for b, _n in rule.cards):
            missing.append("cards")
        if missing:
            chosen = ", ".join(f"{p}={r}" for p, r in sorted(readings.items())) or "no readings"
            what = "; ".join(
                f"{n!r} ({slot.parts[n].explain})" if n in slot.parts else repr(n) for n in missing
            )
            yield (
                key,
                0,
                f"rule {rule.id} ({rule.does}) needs {what}: neither it nor a reading states it ({chosen})",
            )


def _slot_counts(rules: Sequence[RuleDef]) -> Iterator[Problem]:
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule.does] = counts.get(rule.does, 0) + 1
    for name, slot in S.SLOTS.items():
        n = counts.get(name, 0)
        if slot.count == "one" and n != 1:
            what = "no rule states" if n == 0 else f"{n} rules state"
            yield ("rules",), 0, f"{what} {name} ({slot.explain}): exactly one must"
        elif slot.count == "optional" and n > 1:
            yield ("rules",), 0, f"{n} rules state {name}: at most one may"
        elif slot.count == "some" and n == 0:
            yield ("rules",), 0, f"no rule states {name} ({slot.explain}): at least one must"
    kinds: dict[str, str] = {}
    for rule in rules:
        kind = rule.field("kind")
        if kind is not None:
            if kind in kinds:
                yield rule.key_of("kind"), 0, f"kind {kind!r} is also stated by rule {kinds[kind]}"
            kinds[kind] = rule.id
            if kind in S.ACTIONS:
                yield rule.key_of("kind"), 0, f"kind {kind!r} is the name of an action"
