"""The algebra the Z3 model's formulas are written over (z3model.py), with two interpretations:
`PyAlg` (Python ints and bools, for sweeping situations concretely) and `Z3Alg` (Z3 terms, for
queries that range over readings, parameters and situations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

B = Any  # a bool or a z3 BoolRef
N = Any  # an int or a z3 ArithRef


class Alg:
    """The operations the model needs; Python and Z3 interpret them differently."""

    symbolic = False

    def and_(self, *xs: B) -> B:
        raise NotImplementedError

    def or_(self, *xs: B) -> B:
        raise NotImplementedError

    def all_(self, xs: Iterable[B]) -> B:
        raise NotImplementedError

    def any_(self, xs: Iterable[B]) -> B:
        raise NotImplementedError

    def not_(self, x: B) -> B:
        raise NotImplementedError

    def implies(self, a: B, b: B) -> B:
        raise NotImplementedError

    def ite(self, c: B, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def cases(self, var: N, values: Iterable[int], fn: Callable[[int], B]) -> B:
        """`fn(var)` where var takes one of `values` (False otherwise)."""
        raise NotImplementedError

    def lookup(self, table: Sequence[int], i: N) -> N:
        raise NotImplementedError


class PyAlg(Alg):
    """Concrete evaluation; generators short-circuit, so only the branches that matter run."""

    def and_(self, *xs: B) -> B:
        return all(xs)

    def or_(self, *xs: B) -> B:
        return any(xs)

    def all_(self, xs: Iterable[B]) -> B:
        return all(xs)

    def any_(self, xs: Iterable[B]) -> B:
        return any(xs)

    def not_(self, x: B) -> B:
        return not x

    def implies(self, a: B, b: B) -> B:
        return (not a) or bool(b)

    def ite(self, c: B, a: Any, b: Any) -> Any:
        return a if c else b

    def cases(self, var: N, values: Iterable[int], fn: Callable[[int], B]) -> B:
        return bool(fn(var)) if var in set(values) else False

    def lookup(self, table: Sequence[int], i: N) -> N:
        return table[i]


def as_bool(x: B) -> z3.BoolRef:
    return x if isinstance(x, z3.BoolRef) else z3.BoolVal(bool(x))


def _join(xs: Iterable[B], absorbing: bool, join: Callable[[list[Any]], Any]) -> B:
    """`join` (z3.And or z3.Or) of xs, with the Python bools among them settled here: `absorbing`
    (False for And, True for Or) decides the whole, and the other is its identity, so that a
    formula is only as large as its symbolic terms."""
    items = list(xs)
    if any(x is absorbing for x in items):
        return absorbing
    terms = [x for x in items if not isinstance(x, bool)]
    if not terms:
        return not absorbing
    return terms[0] if len(terms) == 1 else join(terms)


class Z3Alg(Alg):
    symbolic = True

    def and_(self, *xs: B) -> B:
        return self.all_(xs)

    def or_(self, *xs: B) -> B:
        return self.any_(xs)

    def all_(self, xs: Iterable[B]) -> B:
        return _join(xs, False, z3.And)

    def any_(self, xs: Iterable[B]) -> B:
        return _join(xs, True, z3.Or)

    def not_(self, x: B) -> B:
        return (not x) if isinstance(x, bool) else z3.Not(x)

    def implies(self, a: B, b: B) -> B:
        if isinstance(a, bool):
            return b if a else True
        if b is True:
            return True
        return z3.Implies(a, as_bool(b))

    def ite(self, c: B, a: Any, b: Any) -> Any:
        if isinstance(c, bool):
            return a if c else b
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return a
        if isinstance(a, bool) or isinstance(b, bool):
            return z3.If(c, as_bool(a), as_bool(b))
        return z3.If(c, a, b)

    def cases(self, var: N, values: Iterable[int], fn: Callable[[int], B]) -> B:
        if isinstance(var, int):
            return fn(var) if var in set(values) else False
        return self.any_(self.and_(var == v, fn(v)) for v in values)

    def lookup(self, table: Sequence[int], i: N) -> N:
        if isinstance(i, int):
            return table[i]
        out: Any = table[-1]
        for j in range(len(table) - 2, -1, -1):
            out = z3.If(i == j, table[j], out)
        return out
