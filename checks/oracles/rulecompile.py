"""The spec's rules compiled to formulas over the Z3 model's algebra (z3model.py beside it).

The rule language (five35.spec.lang) states each step of play as parts: expressions over the names
the step offers. `resolve` takes the rules in force for a choice of readings (a reading is its rule
fragment in the spec file) where a point's reading is fixed, and where it is a Z3 variable makes
every part the point's fragments replace a `Choice` over the reading (an If on the variable), so one
formula ranges over all of them. `Compiler` turns each part into a closure from the names its step
offers (model values: numbers and bools, `Rank`, piles, cards) to a model value, built once per
Model. Every operation goes through the model's algebra, so the same closures compute Python values
(`PyAlg`, the conformance sweeps) or build Z3 terms (`Z3Alg`, the proofs and searches), and the
spec's parameters may be Z3 terms (the unsat cores name them).

What the model represents, and what it refuses (`ModelLimit`, one line naming the rule and part):

- A rank is its index in the spec's rank list (0..R-1) with its number; the numbers only matter
  where a rule computes with them (`b == a + 1`).
- A pile is (kind, first card's index, size). A kind's cards are one rank repeated (its `cards`
  part requires `same_rank(cards)` or `size == 1`) or a chain of consecutive indices (it requires
  `chain(cards)`); the `ranks` rule's `follows` may only relate an index to the next one (checked
  for every reading when a model is built), so every chain is such a block.
- The trick's opening pile is known by whether it holds an 8 (the situations' `opening_has_eight`)
  once the lead is made; the lead's own opening pile is the pile it places.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec.lang import schema as S
from ...spec.lang.compile import COMPARISONS
from ...spec.lang.rulebook import Fragment, Rulebook
from ...spec.lang.syntax import (
    Attr,
    Binary,
    Bool,
    BoolOp,
    Call,
    If,
    Index,
    ListOf,
    Name,
    Neg,
    Node,
    Not,
    Num,
    unparse,
)
from ...spec.vocabulary import UnimplementedReading
from ..findings import ModelLimit

COMPONENT = "the Z3 model"

#: The rank whose presence in the opening pile a situation records (the engine's State has
#: `opening_has_eight`; "Regel der 8", clause eight.heading).
EIGHT = 8

Env = dict[str, Any]
Fn = Callable[[Env], Any]
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
                    what = (
                        "adds rule" if rule_id in frag.added or rule_id not in does else "changes a field of"
                    )
                    raise ModelLimit(
                        f"{COMPONENT} takes point {point} only at a fixed reading: reading {frag.reading} "
                        f"{what} {rule_id}"
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


# ---- values --------------------------------------------------------------------------------------


class Rank:
    """A rank: its index in the rank list (-1: a number that is no rank of the deck) and its
    number. `exact` says the index is one of the deck's (so equal indices are equal ranks); a
    rank computed by arithmetic knows only its number, and its index is looked up when asked."""

    __slots__ = ("_index", "_m", "exact", "value")

    def __init__(self, m: ModelOps, index: Any, value: Any, exact: bool) -> None:
        self._m = m
        self._index = index
        self.value = value
        self.exact = exact

    @property
    def index(self) -> Any:
        if self._index is None:
            self._index = self._m.index_of(self.value)
        return self._index


class ModelOps(Protocol):
    """What the compiled closures ask of a model. z3model.Model provides it; the compiler is typed
    against this shape so that it depends on no model, and the model, which builds compilers, on it."""

    # Read-only here, so that a model may hold narrower types (a tuple of ranks, its own algebra).
    @property
    def A(self) -> Any: ...  # the algebra: Python values or Z3 terms
    @property
    def p(self) -> Any: ...  # the parameters and rules the model was built from
    @property
    def R(self) -> int: ...  # the number of ranks
    @property
    def maxn(self) -> int: ...
    @property
    def values(self) -> Sequence[int]: ...

    def idx(self, x: Any) -> Any: ...
    def succ(self, i: Any) -> Any: ...
    def rank_at(self, i: Any) -> Rank: ...
    def rank_of_value(self, v: Any) -> Rank: ...
    def follows_ranks(self, a: Rank, b: Rank) -> Any: ...
    def run_ok(self, low: Any, n: Any) -> Any: ...
    def strength(self, r: Any) -> Any: ...
    def same_kind(self, kind: Any) -> Any: ...
    def closes_at(self, kind: Any, players: Any) -> Any: ...
    def beats_piles(self, new: Any, old: Any, players: Any) -> Any: ...
    def is_cards(self, k: int, p: Sequence[Any], expected: Sequence[Any]) -> Any: ...
    def next_seat(self, seat: Any, players: Any) -> Any: ...
    def index_of(self, value: Any) -> Any: ...


@dataclass(frozen=True)
class PileV:
    """A pile in the model's representation: kind code (0: no pile), first card's index, size."""

    kind: Any
    low: Any
    size: Any


@dataclass(frozen=True)
class OpeningPile:
    """The trick's opening pile once the lead is made: known by whether it holds an 8."""

    has_eight: Any


@dataclass(frozen=True)
class CondPile:
    """`then` where `cond` holds, else `other` (a pile of one kind of value or the other)."""

    cond: Any
    then: Any
    other: Any


Piles = PileV | OpeningPile | CondPile


class Cards:
    """Cards as the rules see them (a tuple in the interpreter: runs in chain order, else sorted)."""


@dataclass(frozen=True)
class LitCards(Cards):
    ranks: tuple[Rank, ...]


@dataclass(frozen=True)
class Placed(Cards):
    """The cards a move places: rank indices p (sorted; positions past k repeat the last), k of them."""

    p: tuple[Any, ...]
    k: Any


@dataclass(frozen=True)
class PileCards(Cards):
    pile: PileV


@dataclass(frozen=True)
class OpeningCards(Cards):
    has_eight: Any


@dataclass(frozen=True)
class IteCards(Cards):
    cond: Any
    then: Cards
    other: Cards


@dataclass(frozen=True)
class Table:
    entries: Mapping[int, Any]


@dataclass(frozen=True)
class Record:
    fields: Mapping[str, Any]


# Kinds of pile, by what their `cards` part requires.
SAME, ONE, CHAIN = "same", "one", "chain"


def _is_symbolic(x: Any) -> bool:
    return isinstance(x, z3.ExprRef)


_Question = TypeVar("_Question", bound=Callable[..., Any])


def _over_branches(question: _Question) -> _Question:
    """A Compiler's question about cards (their size, whether they hold a rank, ...), asked of an
    if-then-else of cards, is the if-then-else of the question asked of each branch: the one rule
    every such question follows, so that each method states only what it asks of plain cards."""

    @functools.wraps(question)
    def asked(self: Compiler, cards: Cards, *args: Any) -> Any:
        if isinstance(cards, IteCards):
            return self.ite(cards.cond, asked(self, cards.then, *args), asked(self, cards.other, *args))
        return question(self, cards, *args)

    return cast(_Question, asked)


class Compiler:
    """Every part of the rules in force as a closure over model values (see the module docstring)."""

    def __init__(self, m: ModelOps, resolved: Resolved) -> None:
        self.m = m
        self.A = m.A
        self.r = resolved
        self.values = dict(m.p.values)
        self._fns: dict[tuple[str, str, frozenset[str]], Fn] = {}
        self._top: dict[PartKey, Fn] = {}
        self.kinds: list[tuple[int, str, str, str]] = []  # (code, kind, rule id, shape)
        for i, rule_id in enumerate(resolved.slot("pile"), start=1):
            kind = resolved.field(rule_id, "kind") or rule_id
            self.kinds.append((i, kind, rule_id, self._shape(rule_id)))
        self.codes = {kind: code for code, kind, _r, _s in self.kinds}

    # ---- what a rule states ------------------------------------------------------------------------

    def states(self, rule_id: str, part: str) -> bool:
        """Whether the rule states the part (under every reading)."""
        return (rule_id, part) in self.r.parts

    def part(self, rule_id: str, part: str) -> Fn:
        """The closure of a part of a step (its names: the slot's), or of a card bound."""
        found = self._top.get((rule_id, part))
        if found is None:
            does = self.r.does[rule_id]
            if part.startswith("cards."):
                names = frozenset({"players"})
            else:
                names = frozenset(S.SLOTS[does].parts[part].names)
            found = self._top[(rule_id, part)] = self._part(rule_id, part, names, ())
        return found

    def helpers(self, rule_id: str) -> list[str]:
        """The rule's own parts that are not parts of its step, in the spec's order."""
        return [name for (rid, name) in self.r.parts if rid == rule_id and self._helper(rule_id, name)]

    def helper(self, rule_id: str, name: str, names: frozenset[str]) -> Fn:
        """A helper part's closure, over the names of the step part that reads it."""
        return self._part(rule_id, name, names, ())

    def _part(self, rule_id: str, part: str, names: frozenset[str], inlining: tuple[str, ...]) -> Fn:
        key = (rule_id, part, names)
        found = self._fns.get(key)
        if found is None:
            expr = self.r.parts.get((rule_id, part))
            if expr is None:
                raise ModelLimit(f"rule {rule_id} states no part {part!r}")
            found = self._fns[key] = self._choice(expr, rule_id, names, (*inlining, part))
        return found

    def _choice(
        self, expr: Expr | None, rule_id: str, names: frozenset[str], inlining: tuple[str, ...]
    ) -> Fn:
        if expr is None:
            raise ModelLimit(f"rule {rule_id}, part {inlining[-1]}: not stated under every reading")
        if isinstance(expr, Node):
            return self._expr(expr, rule_id, names, inlining)
        fns = tuple(self._choice(o, rule_id, names, inlining) for o in expr.options)
        var = expr.var

        def choose(env: Env) -> Any:
            vals = [f(env) for f in fns]
            if all(isinstance(v, bool) or (_is_symbolic(v) and z3.is_bool(v)) for v in vals):
                return self._bool_choice(var, vals)
            out = vals[-1]
            for i in range(len(vals) - 2, -1, -1):
                out = self.ite(var == i, vals[i], out)
            return out

        return choose

    def _bool_choice(self, var: Any, vals: list[Any]) -> Any:
        A = self.A
        yes = [i for i, v in enumerate(vals) if v is True]
        if len(yes) == len(vals):
            return True
        rest = [i for i, v in enumerate(vals) if v is not True and v is not False]
        if yes and len(rest) == 1:
            # The choice ranges over the readings (Readings.domain), so when it is none of the
            # readings that say yes it is the one left: its formula needs no guard.
            return A.any_([*(var == i for i in yes), vals[rest[0]]])
        parts: list[Any] = []
        for i, v in enumerate(vals):
            if v is True:
                parts.append(var == i)
            elif v is not False:
                parts.append(A.and_(var == i, v))
        return A.any_(parts)

    def _shape(self, rule_id: str) -> str:
        found: set[str] = set()
        for conj in self._conjuncts(self.r.parts.get((rule_id, "cards")), rule_id, ()):
            if (
                isinstance(conj, Call)
                and len(conj.args) == 1
                and conj.args[0] == Name(conj.args[0].col, "cards")
            ):
                if conj.fn == "same_rank":
                    found.add(SAME)
                elif conj.fn == "chain":
                    found.add(CHAIN)
            if isinstance(conj, Binary) and conj.op == "==":
                for a, b in ((conj.left, conj.right), (conj.right, conj.left)):
                    if isinstance(a, Name) and a.id == "size" and isinstance(b, Num) and b.value == 1:
                        found.add(ONE)
        for shape in (ONE, SAME, CHAIN):
            if shape in found:
                return shape
        raise ModelLimit(
            f"rule {rule_id}, part cards: {COMPONENT} holds a pile as its kind, first card and size, so a "
            "kind's cards must require same_rank(cards), chain(cards) or size == 1"
        )

    def _conjuncts(self, expr: Expr | None, rule_id: str, seen: tuple[str, ...]) -> Iterator[Node]:
        """The conjuncts an expression requires under every reading, helper parts inlined."""
        if expr is None:
            return
        if isinstance(expr, Choice):
            per = [list(self._conjuncts(o, rule_id, seen)) for o in expr.options]
            yield from (c for c in per[0] if all(c in other for other in per[1:]))
            return
        if isinstance(expr, BoolOp) and expr.op == "and":
            for item in expr.items:
                yield from self._conjuncts(item, rule_id, seen)
            return
        if isinstance(expr, Name) and expr.id not in seen and self._helper(rule_id, expr.id):
            yield from self._conjuncts(self.r.parts[(rule_id, expr.id)], rule_id, (*seen, expr.id))
            return
        yield expr

    def _helper(self, rule_id: str, name: str) -> bool:
        return (
            (rule_id, name) in self.r.parts
            and name not in S.SLOTS[self.r.does[rule_id]].parts
            and not name.startswith("cards.")
        )

    def free_names(self, rule_id: str, part: str) -> set[str]:
        """The step's names a part reads (helper parts followed, every reading's expression)."""
        slot_names = set(S.SLOTS[self.r.does[rule_id]].parts[part].names)
        out: set[str] = set()
        todo: list[Expr | None] = [self.r.parts.get((rule_id, part))]
        seen: set[str] = {part}
        while todo:
            expr = todo.pop()
            if expr is None:
                continue
            if isinstance(expr, Choice):
                todo.extend(expr.options)
                continue
            stack: list[Node] = [expr]
            while stack:
                node = stack.pop()
                stack.extend(node.children())
                if isinstance(node, Name):
                    if node.id in slot_names:
                        out.add(node.id)
                    elif self._helper(rule_id, node.id) and node.id not in seen:
                        seen.add(node.id)
                        todo.append(self.r.parts[(rule_id, node.id)])
        return out

    # ---- expressions -------------------------------------------------------------------------------

    def _expr(self, node: Node, rule_id: str, names: frozenset[str], inlining: tuple[str, ...]) -> Fn:
        A = self.A
        sub: Callable[[Node], Fn] = lambda n: self._expr(n, rule_id, names, inlining)  # noqa: E731
        if isinstance(node, Num):
            value = node.value
            return lambda env: value
        if isinstance(node, Bool):
            flag = node.value
            return lambda env: flag
        if isinstance(node, Name):
            return self._name(node, rule_id, names, inlining)
        if isinstance(node, Not):
            inner = sub(node.operand)
            return lambda env: A.not_(inner(env))
        if isinstance(node, Neg):
            inner = sub(node.operand)
            return lambda env: -inner(env)
        if isinstance(node, BoolOp):
            fns = tuple(sub(i) for i in node.items)
            if not A.symbolic:
                # Concretely short-circuited as Python's own `and` and `or` (the sweeps' hot path).
                if node.op == "and":
                    return lambda env: all(f(env) for f in fns)
                return lambda env: any(f(env) for f in fns)
            if node.op == "and":
                return lambda env: A.all_(f(env) for f in fns)
            return lambda env: A.any_(f(env) for f in fns)
        if isinstance(node, If):
            cond, then, other = sub(node.cond), sub(node.then), sub(node.other)

            def choose(env: Env) -> Any:
                c = cond(env)
                if isinstance(c, bool):
                    return then(env) if c else other(env)
                return self.ite(c, then(env), other(env))

            return choose
        if isinstance(node, Binary):
            left, right = sub(node.left), sub(node.right)
            op = node.op
            if op in S_COMPARE:
                return lambda env: self.compare(op, left(env), right(env))
            return lambda env: self.arith(op, left(env), right(env))
        if isinstance(node, Attr):
            obj = sub(node.obj)
            field_name = node.name
            return lambda env: self.attr(obj(env), field_name)
        if isinstance(node, Index):
            obj, key = sub(node.obj), sub(node.key)
            where = f"rule {rule_id}, part {inlining[0]}"
            return lambda env: self.lookup(obj(env), key(env), where)
        if isinstance(node, ListOf):
            items = tuple(sub(i) for i in node.items)
            return lambda env: LitCards(tuple(self.as_rank(f(env)) for f in items))
        if isinstance(node, Call):
            args = tuple(sub(a) for a in node.args)
            prim = getattr(self, "_p_" + node.fn, None)
            if prim is None:
                raise ModelLimit(f"rule {rule_id}: {COMPONENT} has no meaning for {node.fn}()")
            if len(args) == 1:
                (a,) = args
                return lambda env: prim(env, a(env))
            a, b = args
            return lambda env: prim(env, a(env), b(env))
        raise ModelLimit(f"rule {rule_id}: cannot compile {unparse(node)}")  # pragma: no cover

    def _name(self, node: Name, rule_id: str, names: frozenset[str], inlining: tuple[str, ...]) -> Fn:
        name = node.id
        if name in names:
            where = f"rule {rule_id}, part {inlining[0]}"

            def look(env: Env) -> Any:
                try:
                    return env[name]
                except KeyError:
                    raise ModelLimit(
                        f"{where} reads {name}, which {COMPONENT}'s situation does not give"
                    ) from None

            return look
        if self._helper(rule_id, name):
            if name in inlining:
                raise ModelLimit(f"rule {rule_id}: part {name!r} names itself")
            return self._part(rule_id, name, names, inlining)
        if name in self.values and name != "players":
            value = self.param(self.values[name])
            return lambda env: value
        if name in self.codes:
            code = self.codes[name]
            return lambda env: code
        if name in S.ACTIONS:
            action = S.ACTIONS.index(name)
            return lambda env: action
        if name in S.CONSTANTS:
            m = self.m
            constant: Any = {
                "lowest_rank": m.rank_at(0),
                "highest_rank": m.rank_at(m.R - 1),
                "rank_count": m.R,
            }[name]
            return lambda env: constant
        raise ModelLimit(f"rule {rule_id}: unknown name {name!r}")

    def param(self, value: Any) -> Any:
        """A parameter's value as the model holds it (its numbers may be Z3 terms)."""
        if isinstance(value, int) or _is_symbolic(value):  # a bool is an int
            return value
        if isinstance(value, list | tuple):
            return LitCards(tuple(self.m.rank_of_value(v) for v in sorted(value)))
        if isinstance(value, Mapping):
            if all(isinstance(k, int) or (isinstance(k, str) and k.isdigit()) for k in value):
                return Table({int(k): v for k, v in value.items()})
            return Record(dict(value))
        raise ModelLimit(f"a parameter {COMPONENT} cannot hold: {value!r}")

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

    # ---- the primitives ----------------------------------------------------------------------------

    def _p_order(self, env: Env, r: Any) -> Any:
        return self.as_rank(r).index

    def _p_next_rank(self, env: Env, r: Any) -> Any:
        m = self.m
        rank = self.as_rank(r)
        if rank.exact:
            return m.rank_at(m.succ(rank.index))
        following = m.rank_at(m.idx(rank.index + 1))
        return self.ite(rank.index < 0, rank, following)

    def _p_strength(self, env: Env, r: Any) -> Any:
        return self.m.strength(self.as_rank(r))

    def _p_follows(self, env: Env, a: Any, b: Any) -> Any:
        return self.m.follows_ranks(self.as_rank(a), self.as_rank(b))

    def _p_beats(self, env: Env, new: Any, old: Any) -> Any:
        return self.m.beats_piles(new, old, env["players"])

    def _p_closes_at(self, env: Env, pile: Any) -> Any:
        return self.m.closes_at(self.attr(pile, "kind"), env["players"])

    def _p_has(self, env: Env, cards: Any, r: Any) -> Any:
        return self.has(cards, self.as_rank(r))

    def _p_count(self, env: Env, cards: Any, r: Any) -> Any:
        return self.count(cards, self.as_rank(r))

    def _p_same_rank(self, env: Env, cards: Any) -> Any:
        return self.same_rank(cards)

    def _p_chain(self, env: Env, cards: Any) -> Any:
        return self.chain(cards)

    def _p_size(self, env: Env, cards: Any) -> Any:
        return self.size(cards)

    def _p_total(self, env: Env, cards: Any, table: Any) -> Any:
        return self.total(cards, table)

    def _p_next_seat(self, env: Env, seat: Any) -> Any:
        return self.m.next_seat(seat, env["players"])


S_COMPARE = frozenset(COMPARISONS)
