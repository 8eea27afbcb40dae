"""The operations of the rule language on the model's values (model_values.py), for the compiled
rules (rulecompile.py): choosing, comparing and computing with ranks, piles and numbers, reading
their attributes and tables, and what the language asks of cards."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec.lang.values import COMPARISONS
from ..findings import ModelLimit
from .model_values import (
    EIGHT,
    Cards,
    CondPile,
    IteCards,
    LitCards,
    ModelOps,
    OpeningCards,
    OpeningPile,
    PileCards,
    Piles,
    PileV,
    Placed,
    Rank,
    Record,
    Table,
)
from .rules_in_force import COMPONENT


def is_symbolic(x: Any) -> bool:
    return isinstance(x, z3.ExprRef)


_Question = TypeVar("_Question", bound=Callable[..., Any])


def _over_branches(question: _Question) -> _Question:
    """A question about cards (their size, whether they hold a rank, ...), asked of an
    if-then-else of cards, is the if-then-else of the question asked of each branch: the one rule
    every such question follows, so that each method states only what it asks of plain cards."""

    @functools.wraps(question)
    def asked(self: ValueOps, cards: Cards, *args: Any) -> Any:
        if isinstance(cards, IteCards):
            return self.ite(cards.cond, asked(self, cards.then, *args), asked(self, cards.other, *args))
        return question(self, cards, *args)

    return cast(_Question, asked)


class ValueOps:
    """The language's operations over model values, through the model's algebra."""

    def __init__(self, m: ModelOps) -> None:
        self.m = m
        self.A = m.A

    # ---- operations on values ----------------------------------------------------------------------

    def as_rank(self, x: Any) -> Rank:
        if isinstance(x, Rank):
            return x
        return self.m.rank_of_value(x)

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        A = self.A
        if isinstance(c, bool):
            return a if c else b
        if isinstance(a, Rank) or isinstance(b, Rank):
            ra, rb = self.as_rank(a), self.as_rank(b)
            exact = ra.exact and rb.exact
            return Rank(self.m, A.ite(c, ra.index, rb.index), A.ite(c, ra.value, rb.value), exact)
        if isinstance(a, PileV) and isinstance(b, PileV):
            return PileV(A.ite(c, a.kind, b.kind), A.ite(c, a.low, b.low), A.ite(c, a.size, b.size))
        if isinstance(a, Piles) or isinstance(b, Piles):
            return CondPile(c, a, b)
        if isinstance(a, Cards) or isinstance(b, Cards):
            return IteCards(c, a, b)
        if isinstance(a, Table | Record) or isinstance(b, Table | Record):
            if a is b:
                return a
            raise ModelLimit(f"{COMPONENT} cannot choose between two tables")
        return A.ite(c, a, b)

    def eq(self, a: Any, b: Any) -> Any:
        if isinstance(a, Rank) or isinstance(b, Rank):
            ra, rb = self.as_rank(a), self.as_rank(b)
            if ra.exact and rb.exact:
                return ra.index == rb.index
            return ra.value == rb.value
        if isinstance(a, Cards) or isinstance(b, Cards):
            return self.cards_eq(a, b)
        if isinstance(a, Piles) or isinstance(b, Piles):
            return self.A.and_(
                self.attr(a, "kind") == self.attr(b, "kind"),
                self.attr(a, "size") == self.attr(b, "size"),
                self.cards_eq(self.attr(a, "cards"), self.attr(b, "cards")),
            )
        if isinstance(a, bool) and isinstance(b, bool):
            return a == b
        if isinstance(a, bool) or isinstance(b, bool):
            return self.A.and_(self.A.implies(a, b), self.A.implies(b, a))
        return a == b

    def compare(self, op: str, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return bool(COMPARISONS[op](a, b))
        if op == "==":
            return self.eq(a, b)
        if op == "!=":
            return self.A.not_(self.eq(a, b))
        if isinstance(a, Rank) or isinstance(b, Rank):
            ra, rb = self.as_rank(a), self.as_rank(b)
            if ra.exact and rb.exact:
                a, b = ra.index, rb.index  # the rank list is sorted: the same order as the numbers
            else:
                a, b = ra.value, rb.value
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b

    def arith(self, op: str, a: Any, b: Any) -> Any:
        if isinstance(a, Rank):
            # A rank moved by a count stays a rank (a + 1): its number is known, its index is not.
            return Rank(self.m, None, self._arith(op, a.value, b), False)
        return self._arith(op, a, b)

    def _arith(self, op: str, a: Any, b: Any) -> Any:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if isinstance(a, int) and isinstance(b, int):
            if not b:
                return 0
            return a // b if op == "//" else a % b
        # Python's floor division and modulo (Z3's are Euclidean: they differ for negative divisors).
        if isinstance(b, int) and b > 0:
            return a / b if op == "//" else a % b
        q = z3.If(b > 0, a / b, (-a) / (-b))
        out = q if op == "//" else a - b * q
        return z3.If(b == 0, 0, out)

    def attr(self, obj: Any, name: str) -> Any:
        m = self.m
        if type(obj) is PileV:
            if name == "kind":
                return obj.kind
            if name == "size":
                return obj.size
        if isinstance(obj, Record):
            return obj.fields[name]
        if isinstance(obj, Cards):
            return self.size(obj)
        if isinstance(obj, CondPile):
            if name == "cards":
                return IteCards(obj.cond, self.attr(obj.then, "cards"), self.attr(obj.other, "cards"))
            return self.ite(obj.cond, self.attr(obj.then, name), self.attr(obj.other, name))
        if isinstance(obj, OpeningPile):
            if name == "cards":
                return OpeningCards(obj.has_eight)
            raise ModelLimit(
                f"a rule reads the opening pile's {name}; {COMPONENT} knows of the opening pile only "
                "whether it holds an 8"
            )
        pile: PileV = obj
        if name == "kind":
            return pile.kind
        if name == "size":
            return pile.size
        if name == "cards":
            return PileCards(pile)
        if name == "first":
            return m.rank_at(pile.low)
        if name == "last":
            same = m.same_kind(pile.kind)
            last = self.ite(same, pile.low, m.idx(pile.low + pile.size - 1))
            return m.rank_at(last)
        raise ModelLimit(f"a pile has no {name!r}")

    def lookup(self, table: Any, key: Any, where: str) -> Any:
        if isinstance(key, Rank):
            key = key.value
        entries = table.entries
        if isinstance(key, int):
            if key not in entries:
                raise ModelLimit(f"{where}: the table has no entry for {key}")
            return entries[key]
        out: Any = 0  # a key outside the table is an error of play (RuleError); 0 stands for it here
        for k in sorted(entries, reverse=True):
            out = z3.If(key == k, entries[k], out)
        return out

    # ---- cards ---------------------------------------------------------------------------------------

    def items(self, cards: Cards) -> list[tuple[Any, Rank]]:
        """The cards in the interpreter's order: (present, rank) for each position it may hold."""
        m = self.m
        if isinstance(cards, LitCards):
            return [(True, r) for r in cards.ranks]
        if isinstance(cards, Placed):
            k = cards.k
            if isinstance(k, int):
                return [(True, m.rank_at(cards.p[t])) for t in range(min(k, len(cards.p)))]
            return [(t < k, m.rank_at(cards.p[t])) for t in range(len(cards.p))]
        if isinstance(cards, PileCards):
            pile = cards.pile
            n = pile.size
            same = m.same_kind(pile.kind)
            positions = range(n) if isinstance(n, int) else range(m.maxn)
            out = []
            for t in positions:
                index = pile.low if same is True or t == 0 else self.ite(same, pile.low, m.idx(pile.low + t))
                out.append((True if isinstance(n, int) else t < n, m.rank_at(index)))
            return out
        raise ModelLimit(f"{COMPONENT} cannot list the cards of {type(cards).__name__}")

    @_over_branches
    def size(self, cards: Cards) -> Any:
        if isinstance(cards, LitCards):
            return len(cards.ranks)
        if isinstance(cards, Placed):
            return cards.k
        if isinstance(cards, PileCards):
            return cards.pile.size
        raise ModelLimit(f"{COMPONENT} knows of the opening pile only whether it holds an 8")

    @_over_branches
    def has(self, cards: Cards, r: Rank) -> Any:
        A = self.A
        if isinstance(cards, OpeningCards):
            if r.exact and isinstance(r.index, int) and self.m.values[r.index] == EIGHT:
                return cards.has_eight
            raise ModelLimit(f"{COMPONENT} knows of the opening pile only whether it holds an 8")
        if isinstance(cards, PileCards) and self.m.same_kind(cards.pile.kind) is True:
            return A.and_(cards.pile.size >= 1, self.eq(self.m.rank_at(cards.pile.low), r))
        return A.any_(A.and_(present, self.eq(card, r)) for present, card in self.items(cards))

    @_over_branches
    def count(self, cards: Cards, r: Rank) -> Any:
        A = self.A
        terms = [A.ite(A.and_(present, self.eq(card, r)), 1, 0) for present, card in self.items(cards)]
        return sum(terms[1:], terms[0]) if terms else 0

    @_over_branches
    def same_rank(self, cards: Cards) -> Any:
        A = self.A
        m = self.m
        if isinstance(cards, PileCards):
            return A.or_(m.same_kind(cards.pile.kind), cards.pile.size == 1)
        if isinstance(cards, Placed):
            return A.and_(
                cards.k >= 1,
                A.all_(A.implies(t < cards.k, cards.p[t] == cards.p[0]) for t in range(1, len(cards.p))),
            )
        found = self.items(cards)
        if not found:
            return False
        first = found[0][1]
        return A.all_(A.implies(present, self.eq(card, first)) for present, card in found[1:])

    @_over_branches
    def chain(self, cards: Cards) -> Any:
        A = self.A
        m = self.m
        if isinstance(cards, PileCards):
            pile = cards.pile
            return self.ite(m.same_kind(pile.kind), pile.size == 1, m.run_ok(pile.low, pile.size))
        if isinstance(cards, Placed):
            p, k = cards.p, cards.k
            return A.cases(
                k,
                range(1, len(p) + 1),
                lambda kk: A.any_(
                    A.and_(m.is_cards(kk, p, [m.idx(p[j] + t) for t in range(kk)]), m.run_ok(p[j], kk))
                    for j in range(kk)
                ),
            )
        if isinstance(cards, LitCards):
            ranks = cards.ranks
            if not all(r.exact and isinstance(r.index, int) for r in ranks):
                raise ModelLimit(f"{COMPONENT} asks chain() only of cards it can list")
            indices = [r.index for r in ranks]
            if not indices or len(set(indices)) != len(indices):
                return False
            starts = [s for s in indices if {(s + t) % m.R for t in range(len(indices))} == set(indices)]
            return A.any_(m.run_ok(s, len(indices)) for s in starts)
        raise ModelLimit(f"{COMPONENT} knows of the opening pile only whether it holds an 8")

    @_over_branches
    def total(self, cards: Cards, table: Table) -> Any:
        A = self.A

        def value(r: Rank) -> Any:
            v = r.value
            if isinstance(v, int):
                return table.entries.get(v, 0)
            out: Any = 0
            for k in sorted(table.entries, reverse=True):
                out = z3.If(v == k, table.entries[k], out)
            return out

        terms = [A.ite(present, value(card), 0) for present, card in self.items(cards)]
        return sum(terms[1:], terms[0]) if terms else 0

    def cards_eq(self, a: Any, b: Any) -> Any:
        A = self.A
        if isinstance(a, IteCards):
            return self.ite(a.cond, self.cards_eq(a.then, b), self.cards_eq(a.other, b))
        if isinstance(b, IteCards):
            return self.ite(b.cond, self.cards_eq(a, b.then), self.cards_eq(a, b.other))
        ia, ib = self.items(a), self.items(b)
        same = [
            A.implies(A.and_(pa, pb), self.eq(ra, rb)) for (pa, ra), (pb, rb) in zip(ia, ib, strict=False)
        ]
        return A.and_(self.size(a) == self.size(b), A.all_(same))
