"""Every deal of a small table, up to the ranks the rules cannot tell apart.

The state properties (states.py) hold on every state legal play reaches from a deal. Beside the
hand-picked deals, level deep explores *every* deal of a few small tables: every way to give each
player of the table one card up to `Table.most` cards from the deck, the first seat leading (seats
are alike: a deal led by another seat is this one turned round).

Symmetry. Copies of a rank are alike already (a hand is a multiset). Ranks are merged too, where
the rules cannot tell them apart: a rank the rules in force name by its number, the lowest and the
highest, and every rank beside a gap in the deck's numbers are *singled out*; the others lie in
segments between them (3 and 4, 12 to 14 in the embedded spec). When the rules read ranks only by
their order, by which rank follows which and by the numbers they name (`alike_segments` checks the
rule trees for that), moving a deal's cards inside a segment changes nothing play can see, as long
as their order and which of them follow one another (or follow or precede the segment's neighbours
in the deal) stay. `canonical` moves every deal to the lowest such placement, and each class of
deals is explored once.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ....spec import Ruleset
from ....spec.lang import schema as S
from ....spec.lang import syntax as T
from ....spec.lang.compile import Program, RuleDef, RuleProblem
from ...findings import Level

Hands = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Table:
    """Every deal of `players` players holding 1 to `most` cards each."""

    players: int
    most: int


SMALL = (Table(2, 2), Table(3, 1))


@dataclass(frozen=True)
class TablePlan:
    """The tables a level explores every deal of, and whether under the checked ruleset's readings
    changed one at a time too (else under the checked ruleset alone)."""

    tables: tuple[Table, ...]
    readings_changed: bool = False


#: The hand-picked deals are explored at every level besides.
TABLES: dict[Level, TablePlan] = {
    "quick": TablePlan(()),
    "ci": TablePlan(SMALL),
    "deep": TablePlan(SMALL, readings_changed=True),
}

_ARITHMETIC = ("+", "-", "*", "//", "%")
#: Functions whose answer is a number made from a rank: order-preserving moves keep its order but
#: not its value, so it may be compared with another such number, never with a fixed one.
_FROM_RANK = ("order", "strength")


@dataclass(frozen=True)
class Symmetry:
    """The segments of ranks the rules cannot tell apart (each a run of the deck's consecutive
    numbers, between two singled-out ranks or an end), or why none are merged."""

    segments: tuple[tuple[int, ...], ...]
    refused: str = ""  # the rule part that reads ranks otherwise (no merging), "" when merged


def _rank_like(program: Program, rule: RuleDef, part: str, node: T.Node) -> bool:
    """Whether `node`'s value is a rank, or a number made from one."""
    if isinstance(node, T.Call) and node.fn in _FROM_RANK:
        return True
    try:
        return program.type_of(rule, part, node) == S.RANK
    except RuleProblem:
        return False


def _one(node: T.Node) -> bool:
    return isinstance(node, T.Num) and node.value == 1


def alike_segments(ruleset: Ruleset) -> Symmetry:
    """The ranks to merge under `ruleset`'s rules in force: the numbers its rules name are singled
    out, and no merging at all when a rule does arithmetic on a rank other than a step of one, or
    compares a number made from a rank with a fixed number (the move would change the answer)."""
    ranks = ruleset.ranks
    program = ruleset.program(ruleset.players_min)
    named: set[int] = set()
    for rule in ruleset.rules:
        for part, root in [*rule.parts, *(("cards." + b, n) for b, n in rule.cards)]:
            for node in T.walk(root):
                if isinstance(node, T.Call) and node.fn in S.PRIMITIVES:
                    for arg, typ in zip(node.args, S.PRIMITIVES[node.fn].args, strict=False):
                        if typ == S.RANK and isinstance(arg, T.Num):
                            named.add(arg.value)
                if not isinstance(node, T.Binary):
                    continue
                left = _rank_like(program, rule, part, node.left)
                right = _rank_like(program, rule, part, node.right)
                if left == right:
                    continue
                other = node.right if left else node.left
                if node.op in _ARITHMETIC:
                    if node.op in ("+", "-") and _one(other):
                        continue
                    return Symmetry((), f"{rule.id}.{part}")
                if isinstance(other, T.Num):
                    side = node.left if left else node.right
                    if isinstance(side, T.Call) and side.fn in _FROM_RANK:
                        return Symmetry((), f"{rule.id}.{part}")
                    named.add(other.value)
    present = set(ranks)
    singled = {ranks[0], ranks[-1], *(named & present)}
    singled |= {r for r in ranks if r - 1 not in present or r + 1 not in present}
    segments: list[tuple[int, ...]] = []
    run: list[int] = []
    for r in ranks:
        if r in singled:
            if run:
                segments.append(tuple(run))
            run = []
        else:
            run.append(r)
    if run:
        segments.append(tuple(run))
    return Symmetry(tuple(s for s in segments if len(s) > 1))


def _placed(got: list[int], low: int, high: int, low_held: bool, high_held: bool, right: bool) -> list[int]:
    """`got` (sorted, inside low..high exclusive) packed to one end, every step of one kept a step
    of one and every larger step made two; a step to a neighbour not held counts as free."""
    if right:
        mirrored = _placed([low + high - g for g in reversed(got)], low, high, high_held, low_held, False)
        return [low + high - g for g in reversed(mirrored)]
    out: list[int] = []
    before, at = low, low
    held = low_held
    for g in got:
        at = at + 1 if g == before + 1 or not held else at + 2
        out.append(at)
        before, held = g, True
    return out


def canonical(hands: Hands, symmetry: Symmetry) -> Hands:
    """The deal every deal of its class is moved to: each segment's cards packed to its low end
    (or its high end, where the highest of them follows straight on to a neighbour held in the
    deal), keeping their order and which follow one another."""
    held = {c for h in hands for c in h}
    moved: dict[int, int] = {}
    for seg in symmetry.segments:
        got = sorted(held.intersection(seg))
        if not got:
            continue
        low, high = seg[0] - 1, seg[-1] + 1
        low_held, high_held = low in held, high in held
        right = high_held and got[-1] + 1 == high and not (low_held and got[0] - 1 == low)
        new = _placed(got, low, high, low_held, high_held, right)
        if _steps(got, low, high, low_held, high_held) != _steps(new, low, high, low_held, high_held):
            continue  # held at both ends: left where it is (a class split, never a wrong merge)
        moved.update(zip(got, new, strict=True))
    if not moved:
        return hands
    return tuple(tuple(sorted(moved.get(c, c) for c in h)) for h in hands)


def _steps(got: list[int], low: int, high: int, low_held: bool, high_held: bool) -> tuple[bool, ...]:
    chain = [low] * low_held + got + [high] * high_held
    return tuple(b == a + 1 for a, b in itertools.pairwise(chain))


def _hands(ranks: Sequence[int], most: int) -> list[tuple[int, ...]]:
    return [h for k in range(1, most + 1) for h in itertools.combinations_with_replacement(ranks, k)]


def every_deal(ruleset: Ruleset, table: Table, symmetry: Symmetry) -> tuple[int, dict[Hands, int]]:
    """How many deals the table has (those the deck's copies allow at its player count), and one
    deal per class with the number of deals in it, in a fixed order."""
    copies = ruleset.copies(table.players)
    hands = _hands(ruleset.ranks, table.most)
    deals = 0
    classes: dict[Hands, int] = {}
    for deal in itertools.product(hands, repeat=table.players):
        if max(Counter(c for h in deal for c in h).values()) > copies:
            continue
        deals += 1
        key = canonical(deal, symmetry)
        classes[key] = classes.get(key, 0) + 1
    return deals, classes
