"""The spec's rules compiled to formulas over the Z3 model's algebra (z3model.py beside it).

The rule language (five35.spec.lang) states each step of play as parts: expressions over the names
the step offers. `resolve` (rules_in_force.py) takes the rules in force for a choice of readings (a
reading is its rule fragment in the spec file) where a point's reading is fixed, and where it is a
Z3 variable makes every part the point's fragments replace a `Choice` over the reading (an If on the
variable), so one formula ranges over all of them. `Compiler` turns each part into a closure from
the names its step offers (model values, model_values.py: numbers and bools, `Rank`, piles, cards)
to a model value, built once per Model, by the operations of value_ops.py. Every operation goes
through the model's algebra, so the same closures compute Python values (`PyAlg`, the conformance
sweeps) or build Z3 terms (`Z3Alg`, the proofs and searches), and the spec's parameters may be Z3
terms (the unsat cores name them).

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

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec.lang import schema as S
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
from ...spec.lang.values import COMPARISONS
from ..findings import ModelLimit
from .model_values import CHAIN, ONE, SAME, LitCards, ModelOps, Record, Table
from .rules_in_force import COMPONENT, Choice, Expr, PartKey, Resolved
from .value_ops import ValueOps, is_symbolic

Env = dict[str, Any]
Fn = Callable[[Env], Any]


class Compiler(ValueOps):
    """Every part of the rules in force as a closure over model values (see the module docstring)."""

    def __init__(self, m: ModelOps, resolved: Resolved) -> None:
        super().__init__(m)
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
            if all(isinstance(v, bool) or (is_symbolic(v) and z3.is_bool(v)) for v in vals):
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
        if isinstance(value, int) or is_symbolic(value):  # a bool is an int
            return value
        if isinstance(value, list | tuple):
            return LitCards(tuple(self.m.rank_of_value(v) for v in sorted(value)))
        if isinstance(value, Mapping):
            if all(isinstance(k, int) or (isinstance(k, str) and k.isdigit()) for k in value):
                return Table({int(k): v for k, v in value.items()})
            return Record(dict(value))
        raise ModelLimit(f"a parameter {COMPONENT} cannot hold: {value!r}")

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
