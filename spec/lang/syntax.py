"""The syntax of rule expressions: text to a tree of `Node`s, parsed by lark (grammar.lark).

A tree is plain frozen data (hashable, picklable, comparable), so that a rule's digest, a
reading's fragment and the compiled closures all come from the same value. Every node keeps the
column it starts at in its expression, for errors at `file:line:col`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import lark

#: Expressions longer than this are refused: a rule is a sentence, not a program.
MAX_EXPRESSION_CHARS = 2000
#: Nodes a single expression may have, and how deep it may nest (the compiler recurses per level).
MAX_NODES = 400
MAX_DEPTH = 40


class SyntaxProblem(ValueError):
    """An expression that cannot be read: `column` (1-based) and a one-line message."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


@dataclass(frozen=True)
class Node:
    col: int  # 1-based column in the expression text

    def children(self) -> tuple[Node, ...]:
        return ()


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class Call(Node):
    fn: str
    args: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return self.args


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str

    def children(self) -> tuple[Node, ...]:
        return (self.obj,)


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node

    def children(self) -> tuple[Node, ...]:
        return (self.obj, self.key)


@dataclass(frozen=True)
class ListOf(Node):
    items: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return self.items


@dataclass(frozen=True)
class If(Node):
    cond: Node
    then: Node
    other: Node

    def children(self) -> tuple[Node, ...]:
        return (self.cond, self.then, self.other)


@dataclass(frozen=True)
class Not(Node):
    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class Neg(Node):
    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    items: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return self.items


@dataclass(frozen=True)
class Binary(Node):
    op: str  # a comparison or + - * // %
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def walk(node: Node) -> list[Node]:
    """Every node of the tree, the root first."""
    out = [node]
    stack = list(node.children())
    while stack:
        child = stack.pop()
        out.append(child)
        stack.extend(child.children())
    return out


class _ToTree(lark.Transformer[Any, Node]):
    @staticmethod
    def _col(meta: Any) -> int:
        return int(getattr(meta, "column", 1) or 1)

    @lark.v_args(meta=True)
    def int_(self, meta: Any, children: list[Any]) -> Node:
        return Num(self._col(meta), int(children[0]))

    @lark.v_args(meta=True)
    def true(self, meta: Any, children: list[Any]) -> Node:
        return Bool(self._col(meta), True)

    @lark.v_args(meta=True)
    def false(self, meta: Any, children: list[Any]) -> Node:
        return Bool(self._col(meta), False)

    @lark.v_args(meta=True)
    def name(self, meta: Any, children: list[Any]) -> Node:
        return Name(self._col(meta), str(children[0]))

    @lark.v_args(meta=True)
    def call(self, meta: Any, children: list[Any]) -> Node:
        fn, *args = children
        return Call(self._col(meta), str(fn), tuple(a for a in args if a is not None))

    @lark.v_args(meta=True)
    def attr(self, meta: Any, children: list[Any]) -> Node:
        return Attr(self._col(meta), children[0], str(children[1]))

    @lark.v_args(meta=True)
    def index(self, meta: Any, children: list[Any]) -> Node:
        return Index(self._col(meta), children[0], children[1])

    @lark.v_args(meta=True)
    def list_(self, meta: Any, children: list[Any]) -> Node:
        return ListOf(self._col(meta), tuple(c for c in children if c is not None))

    @lark.v_args(meta=True)
    def if_(self, meta: Any, children: list[Any]) -> Node:
        return If(self._col(meta), children[0], children[1], children[2])

    @lark.v_args(meta=True)
    def not_(self, meta: Any, children: list[Any]) -> Node:
        return Not(self._col(meta), children[0])

    @lark.v_args(meta=True)
    def neg(self, meta: Any, children: list[Any]) -> Node:
        return Neg(self._col(meta), children[0])

    @lark.v_args(meta=True)
    def or_(self, meta: Any, children: list[Any]) -> Node:
        if len(children) == 1:
            return children[0]  # type: ignore[no-any-return]
        return BoolOp(self._col(meta), "or", tuple(children))

    @lark.v_args(meta=True)
    def and_(self, meta: Any, children: list[Any]) -> Node:
        if len(children) == 1:
            return children[0]  # type: ignore[no-any-return]
        return BoolOp(self._col(meta), "and", tuple(children))

    @lark.v_args(meta=True)
    def compare(self, meta: Any, children: list[Any]) -> Node:
        if len(children) == 1:
            return children[0]  # type: ignore[no-any-return]
        left, op, right = children
        return Binary(self._col(meta), str(op), left, right)

    @lark.v_args(meta=True)
    def arith(self, meta: Any, children: list[Any]) -> Node:
        tree: Node = children[0]
        for i in range(1, len(children), 2):
            tree = Binary(self._col(meta), str(children[i]), tree, children[i + 1])
        return tree


@cache
def _parser() -> lark.Lark:
    grammar = resources.files("five35.spec.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


@cache
def parse(text: str) -> Node:
    """The tree of one expression; SyntaxProblem (with its column) when it cannot be read or is
    over the limits."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise SyntaxProblem(1, f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    if not text.strip():
        raise SyntaxProblem(1, "empty expression")
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedCharacters as exc:
        raise SyntaxProblem(exc.column, f"unexpected character {text[exc.pos_in_stream or 0]!r}") from None
    except lark.exceptions.UnexpectedToken as exc:
        token = exc.token
        shown = "the end of the expression" if token.type == "$END" else repr(str(token))
        expected = ", ".join(sorted(_readable(e) for e in exc.expected)[:6])
        column = int(getattr(token, "column", 0) or len(text) + 1)
        raise SyntaxProblem(column, f"unexpected {shown} (expected {expected})") from None
    except lark.exceptions.UnexpectedEOF:
        raise SyntaxProblem(len(text) + 1, "the expression ends too soon") from None
    except lark.exceptions.LarkError as exc:  # pragma: no cover - lark's other errors are internal
        raise SyntaxProblem(1, f"cannot read the expression ({type(exc).__name__})") from None
    node: Node = _ToTree().transform(tree)
    nodes = walk(node)
    if len(nodes) > MAX_NODES:
        raise SyntaxProblem(1, f"expression of more than {MAX_NODES} parts")
    if _depth(node) > MAX_DEPTH:
        raise SyntaxProblem(1, f"expression nested more than {MAX_DEPTH} levels deep")
    return node


def _depth(node: Node) -> int:
    deepest = 0
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in current.children())
    return deepest


_TOKEN_NAMES = {
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "NAME": "a name",
    "INT": "a number",
    "COMPARE": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '//' or '%'",
    "MINUS": "'-'",
    "IF": "'if'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "TRUE": "'true'",
    "FALSE": "'false'",
}


def _readable(token_type: str) -> str:
    return _TOKEN_NAMES.get(token_type, token_type.lower())


def unparse(node: Node) -> str:
    """The expression text of a tree, fully bracketed where precedence could be in doubt: what
    `535-check rules` and the digests show."""
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Call):
        return f"{node.fn}({', '.join(unparse(a) for a in node.args)})"
    if isinstance(node, Attr):
        return f"{unparse(node.obj)}.{node.name}"
    if isinstance(node, Index):
        return f"{unparse(node.obj)}[{unparse(node.key)}]"
    if isinstance(node, ListOf):
        return f"[{', '.join(unparse(i) for i in node.items)}]"
    if isinstance(node, If):
        return f"(if {unparse(node.cond)} then {unparse(node.then)} else {unparse(node.other)})"
    if isinstance(node, Not):
        return f"(not {unparse(node.operand)})"
    if isinstance(node, Neg):
        return f"(-{unparse(node.operand)})"
    if isinstance(node, BoolOp):
        return "(" + f" {node.op} ".join(unparse(i) for i in node.items) + ")"
    if isinstance(node, Binary):
        return f"({unparse(node.left)} {node.op} {unparse(node.right)})"
    raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover
