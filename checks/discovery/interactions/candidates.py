"""The candidates: the pairs and triples of a spec's rules that can apply at one moment and decide
overlapping things, read off their `when` and `decides` alone."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property

from ....engine.state import MOMENTS, NEEDS, NEXT_MOMENTS, OPENS
from ....spec import Spec
from ....spec.model import Rule

#: How an ending ranks: an immediate rule that ends a round also ends the trick within it.
_ENDS_LEVEL = {"trick_ends": 1, "round_ends": 2, "match_ends": 3}


@dataclass(frozen=True)
class Candidate:
    """Rules that can apply at one moment and decide overlapping things.

    `rules` are the rules that apply at one of `moments` (in the spec's order), `via` the rules at the
    moments their decisions open that make the overlap (the third of a triple), `overlap` the
    decisions where they meet, `how` why they are a candidate: "same" (they decide the same thing),
    "needs" (one decides what the other's decision is computed from), "opens" (through `via`), or
    "follows" (the second ends a smaller unit at a moment that can come straight after the first's,
    which ends a larger one: it occurs when the second applies to the next play)."""

    rules: tuple[str, ...]
    moments: tuple[str, ...]
    overlap: tuple[str, ...]
    how: str
    via: tuple[str, ...] = ()

    @property
    def all_rules(self) -> tuple[str, ...]:
        return (*self.rules, *self.via)

    @cached_property
    def rule_set(self) -> frozenset[str]:
        """`rules` as a set: whether they all apply at a step is asked at every play explored."""
        return frozenset(self.rules)

    @property
    def topic(self) -> str:
        return "interaction:" + "+".join(self.all_rules)


def _opened(rules: Sequence[Rule], rule: Rule) -> list[tuple[Rule, str]]:
    """The rules at the moments `rule`'s decisions open, each with the moment (one level deep: a
    trick's end, a round's end)."""
    out: list[tuple[Rule, str]] = []
    for decision in rule.decides:
        moment = OPENS.get(decision)
        if moment is None:
            continue
        out.extend((other, moment) for other in rules if other is not rule and moment in other.when)
    return out


def _needs(a: Rule, b: Rule) -> list[str]:
    """The decisions of `a` and `b` where one is computed from the other."""
    out = []
    for x in a.decides:
        for y in b.decides:
            if x in NEEDS.get(y, ()) or y in NEEDS.get(x, ()):
                out += [x, y]
    return out


def candidates(spec: Spec) -> tuple[Candidate, ...]:
    """Every pair (or triple, through a rule at an opened moment) of the spec's rules that can apply
    at one moment and decide overlapping things, from their `when` and `decides` alone."""
    rules = [r for r in spec.rules if r.when and r.decides]
    found: dict[tuple[str, ...], Candidate] = {}
    for moment in MOMENTS:
        here = [r for r in rules if moment in r.when]
        for a, b in itertools.combinations(here, 2):
            same = [d for d in a.decides if d in b.decides]
            needs = _needs(a, b)
            if same:
                cand = Candidate((a.id, b.id), (moment,), tuple(same), "same")
            elif needs:
                cand = Candidate((a.id, b.id), (moment,), tuple(dict.fromkeys(needs)), "needs")
            else:
                opened = _through_opened(rules, a, b, moment)
                if opened is None:
                    continue
                cand = opened
            # One candidate per rule set, with every moment its rules meet at.
            known = found.get(cand.all_rules)
            if known is not None:
                cand = replace(known, moments=(*known.moments, moment))
            found[cand.all_rules] = cand
    for cand in _follows(rules):
        found.setdefault(cand.all_rules, cand)
    return tuple(found.values())


def _level(rule: Rule) -> int:
    return _ends_level(rule.decides)


@cache
def _ends_level(decides: tuple[str, ...]) -> int:
    """The largest unit (trick 1, round 2, match 3) a rule deciding `decides` ends; 0: none. Asked
    for every rule, order and play the search judges."""
    return max((_ENDS_LEVEL.get(d, 0) for d in decides), default=0)


def _follows(rules: Sequence[Rule]) -> Iterator[Candidate]:
    """A rule that ends a larger unit (a round) and one that ends a smaller (a trick) at a moment
    that can come straight after the first's (NEXT_MOMENTS): does the larger end wait for the
    smaller, e.g. a pass that ends the trick after its last placer went out?"""
    for a in rules:
        for b in rules:
            if a is b or not _level(a) > _level(b) > 0:
                continue
            after = [m for m in a.when for n in NEXT_MOMENTS.get(m, ()) if n in b.when]
            if after:
                ends = tuple(d for r in (a, b) for d in r.decides if d in _ENDS_LEVEL)
                yield Candidate((a.id, b.id), tuple(dict.fromkeys(after)), ends, "follows")


def _through_opened(rules: Sequence[Rule], a: Rule, b: Rule, moment: str) -> Candidate | None:
    for first, second in ((a, b), (b, a)):
        for other, _ in _opened(rules, first):
            if other is second:
                continue
            meet = [d for d in other.decides if d in second.decides]
            if meet:
                return Candidate((a.id, b.id), (moment,), tuple(meet), "opens", (other.id,))
    return None
