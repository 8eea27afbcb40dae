"""What a value of the rule language is: its type (a parameter's, `value_type`; two branches' or
operands' common one, `unify`; a type in an error message, `shown`) and the operators on plain
values (`ARITH`, `COMPARISONS`), which the compiler (compile.py) and the Z3 model's compiler share."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from . import schema as S


def value_type(value: Any) -> str:
    """The language type of a parameter's value."""
    if isinstance(value, bool):
        return S.BOOL
    if isinstance(value, int):
        return S.INT
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return S.CARDS
    if isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
        if all(isinstance(k, int) or (isinstance(k, str) and k.isdigit()) for k in value):
            return S.TABLE
        return S.RECORD
    return "opaque"


ARITH: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}
#: The comparison operators and their meaning on plain values (the Z3 model's compiler uses them too).
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
ORDERED = (S.INT, S.RANK, S.SEAT, S.NUMBER)


def unify(a: str, b: str) -> str | None:
    if a == b:
        return a
    if a == S.NUMBER and b in ORDERED:
        return b
    if b == S.NUMBER and a in ORDERED:
        return a
    return None


def shown(t: str) -> str:
    return "a number" if t == S.NUMBER else {S.INT: "a count"}.get(t, f"a {t}")
