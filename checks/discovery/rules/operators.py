"""Mutants of the rules themselves: every node of every rule in force, every operator that applies.

The operators are generic over the rule language's node types and value types (five35.spec.lang);
none is written for a rule. For each part of each rule in force (the spec's rules with the played
ruleset's fragments), every node is tried with every operator:

- `negate` a condition (a node of type bool becomes `not ...`; a `not` is dropped);
- `drop` one condition of an `and`/`or`, or swap `and` with `or` (`and_or`);
- `comparison`: a comparison made strict or non-strict, or turned round (`<` to `<=` and `>`,
  `==` to `!=`);
- `bound`: a number moved by one (a literal, or a count compared or returned: `x` to `x + 1`);
- `swap`: a name replaced by another of the same type the part may read (new and old, a and b,
  the highest and lowest score), the two arguments of a call of one type swapped, the branches
  of an `if` swapped;
- `kind`: a pile kind or an action named in the rule replaced by another, and a comparison with
  one widened to two kinds (`new.kind == set` to `new.kind == set or new.kind == run`);
- `condition`: a condition on a feature the data offers added to a part that decides yes or no,
  as an exception (`... and not C`) or an extension (`... or C`): a rank of the deck in the cards
  or a pile the part reads, a pile kind, a pile size, an action, a player count, a seat, the
  position in the trick and the other counts the moment offers.

A candidate that does not type-check where it stands (negating a count) is not a mutant: the
program's own type check decides, so the operators need no table of which node takes which. Two
candidates of one part that read the same are one mutant.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from ....spec import Ruleset
from ....spec.lang import schema as S
from ....spec.lang import syntax as T
from ....spec.lang.compile import Program, RuleDef, RuleProblem
from ....spec.lang.rulebook import Fragment, Rulebook, rules_digest
from ....spec.lang.syntax import Node, unparse

#: Every operator, in the order mutants are generated and counted.
OPERATORS: tuple[str, ...] = ("negate", "drop", "and_or", "comparison", "bound", "swap", "kind", "condition")

_TURNED: dict[str, tuple[str, ...]] = {
    "<": ("<=", ">"),
    "<=": ("<", ">="),
    ">": (">=", "<"),
    ">=": (">", "<="),
    "==": ("!=",),
    "!=": ("==",),
}

Path = tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class RuleMutant:
    """One mutant: rule `rule`'s part `part` reads `after` instead of `before`."""

    rule: str
    part: str
    operator: str
    before: str
    after: str
    tree: Node

    @property
    def name(self) -> str:
        """A stable name: the rule, the part and the new expression."""
        return f"{self.rule}.{self.part}: {self.after}"


# ---- trees ---------------------------------------------------------------------------------------


def _positions(node: Node, path: Path = ()) -> Iterator[tuple[Path, Node]]:
    """Every node of the tree with the path that reaches it, the root first."""
    yield path, node
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, Node):
            yield from _positions(value, (*path, (f.name, None)))
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                if isinstance(item, Node):
                    yield from _positions(item, (*path, (f.name, i)))


def _put(node: Node, path: Path, new: Node) -> Node:
    """The tree with the node at `path` replaced by `new`."""
    if not path:
        return new
    (name, index), rest = path[0], path[1:]
    value: Any = getattr(node, name)
    changes: dict[str, Any] = {}
    if index is None:
        changes[name] = _put(value, rest, new)
    else:
        items = list(value)
        items[index] = _put(items[index], rest, new)
        changes[name] = tuple(items)
    return replace(node, **changes)


def _num(value: int, col: int) -> T.Num:
    return T.Num(col, value)


# ---- the operators ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    """What the operators may use where a part is read: its names and their types, the deck."""

    names: dict[str, str]
    kinds: tuple[str, ...]
    ranks: tuple[int, ...]
    players: tuple[int, ...]
    sizes: tuple[int, ...]


def _candidates(node: Node, where: _Where, typ: str | None) -> Iterator[tuple[str, Node]]:
    """The operators' replacements for one node (typ: its type, None when it has none alone)."""
    col = node.col
    if typ == S.BOOL:
        if isinstance(node, T.Not):
            yield "negate", node.operand
        elif isinstance(node, T.Bool):
            yield "negate", T.Bool(col, not node.value)
        else:
            yield "negate", T.Not(col, node)
    if isinstance(node, T.BoolOp):
        for i in range(len(node.items)):
            rest = node.items[:i] + node.items[i + 1 :]
            yield "drop", rest[0] if len(rest) == 1 else T.BoolOp(col, node.op, rest)
        yield "and_or", T.BoolOp(col, "or" if node.op == "and" else "and", node.items)
    if isinstance(node, T.Binary) and node.op in _TURNED:
        for op in _TURNED[node.op]:
            yield "comparison", T.Binary(col, op, node.left, node.right)
        for side in (node.left, node.right):
            if isinstance(side, T.Name) and side.id in where.kinds:
                for other in where.kinds:
                    if other != side.id:
                        widened = T.Binary(
                            col,
                            node.op,
                            node.left if side is node.right else T.Name(col, other),
                            T.Name(col, other) if side is node.right else node.right,
                        )
                        if node.op == "==":
                            yield "kind", T.BoolOp(col, "or", (node, widened))
    if isinstance(node, T.Num):
        for step in (-1, 1):
            if node.value + step >= 0:
                yield "bound", _num(node.value + step, col)
    elif typ == S.INT:
        yield "bound", T.Binary(col, "+", node, _num(1, col))
        yield "bound", T.Binary(col, "-", node, _num(1, col))
    if isinstance(node, T.Name):
        if node.id in where.names:
            for other, other_typ in where.names.items():
                if other != node.id and other_typ == where.names[node.id]:
                    yield "swap", T.Name(col, other)
        elif node.id in where.kinds:
            for other in where.kinds:
                if other != node.id:
                    yield "kind", T.Name(col, other)
        elif node.id in S.ACTIONS[:3]:
            for other in S.ACTIONS[:3]:
                if other != node.id:
                    yield "kind", T.Name(col, other)
    if isinstance(node, T.Call) and len(node.args) == 2 and node.args[0] != node.args[1]:
        yield "swap", T.Call(col, node.fn, (node.args[1], node.args[0]))
    if isinstance(node, T.If):
        yield "swap", T.If(col, node.cond, node.other, node.then)


def _features(where: _Where, col: int) -> Iterator[Node]:
    """The conditions on the features the part's names offer."""

    def name(n: str) -> Node:
        return T.Name(col, n)

    def eq(a: Node, b: Node) -> Node:
        return T.Binary(col, "==", a, b)

    def has(cards: Node, rank: int) -> Node:
        return T.Call(col, "has", (cards, _num(rank, col)))

    for n, typ in where.names.items():
        if n == "players":
            for p in where.players:
                yield eq(name(n), _num(p, col))
        elif typ == S.PILE:
            for kind in where.kinds:
                yield eq(T.Attr(col, name(n), "kind"), name(kind))
            for size in where.sizes:
                yield eq(T.Attr(col, name(n), "size"), _num(size, col))
            for rank in where.ranks:
                yield has(T.Attr(col, name(n), "cards"), rank)
        elif typ == S.CARDS:
            for rank in where.ranks:
                yield has(name(n), rank)
        elif typ == S.ACTION:
            for action in S.ACTIONS[:3]:
                yield eq(name(n), name(action))
        elif typ == S.SEAT:
            yield eq(name(n), _num(0, col))
        elif typ == S.INT:
            for value in (0, 1, 2):
                yield eq(name(n), _num(value, col))
        elif typ == S.BOOL:
            yield name(n)


def singled_out(ruleset: Ruleset, rules: Sequence[RuleDef]) -> tuple[int, ...]:
    """The ranks a condition on a rank is asked of: those the data singles out (the lowest and
    the highest, every rank a rule names by its number where a function takes a rank, every rank
    beside a gap in the deck's numbers) and the lowest other rank, standing for the ranks that
    nothing but their order tells apart."""
    ranks = ruleset.ranks
    named = {
        arg.value
        for rule in rules
        for _, root in _parts(rule)
        for _, node in _positions(root)
        if isinstance(node, T.Call) and node.fn in S.PRIMITIVES
        for arg, typ in zip(node.args, S.PRIMITIVES[node.fn].args, strict=False)
        if typ == S.RANK and isinstance(arg, T.Num)
    }
    present = set(ranks)
    beside_gap = {
        r
        for r in ranks
        if (r - 1 not in present and r != ranks[0]) or (r + 1 not in present and r != ranks[-1])
    }
    chosen = {ranks[0], ranks[-1], *(named & present), *beside_gap}
    rest = [r for r in ranks if r not in chosen]
    return tuple(sorted(chosen | set(rest[:1])))


def _parts(rule: RuleDef) -> list[tuple[str, Node]]:
    return [*rule.parts, *(("cards." + b, node) for b, node in rule.cards)]


def _with_part(rule: RuleDef, part: str, tree: Node) -> RuleDef:
    if part.startswith("cards."):
        bound = part.removeprefix("cards.")
        return replace(rule, cards=tuple((b, tree if b == bound else n) for b, n in rule.cards))
    return replace(rule, parts=tuple((p, tree if p == part else n) for p, n in rule.parts))


def _type(program: Program, rule: RuleDef, part: str, node: Node) -> str | None:
    try:
        return program.type_of(rule, part, node)
    except RuleProblem:
        return None


def mutants(ruleset: Ruleset) -> list[RuleMutant]:
    """Every mutant of the rules in force under `ruleset`, in the rules' order, then the parts',
    then the nodes', then the operators' (made once per ruleset and process)."""
    return list(_mutants(ruleset))


@lru_cache(maxsize=8)
def _mutants(ruleset: Ruleset) -> tuple[RuleMutant, ...]:
    rules = list(ruleset.rules)
    players = tuple(range(ruleset.players_min, ruleset.players_max + 1))
    program = ruleset.program(players[0])
    kinds = tuple(program.kinds)
    top = max([ruleset.max_cards_per_turn, ruleset.run_closing_size, ruleset.set_closing_large, 1])
    ranks = singled_out(ruleset, rules)
    out: list[RuleMutant] = []
    for rule in rules:
        for part, root in _parts(rule):
            names = program.scope_names(rule, part)
            where = _Where(names, kinds, ranks, players, tuple(range(1, top + 1)))
            before = unparse(root)
            want = _type(program, rule, part, root)
            seen = {before}
            found: list[tuple[str, Node]] = []
            for path, node in _positions(root):
                typ = _type(program, rule, part, node)
                for operator, new in _candidates(node, where, typ):
                    found.append((operator, _put(root, path, new)))
            # Conditions go on what the rule states (its moment's parts), not on its helpers: a
            # helper is a piece of a part, and an exception added to one conjunct of a part is
            # the same exception added to the part.
            if part in S.SLOTS[rule.does].parts and want == S.BOOL:
                for condition in _features(where, root.col):
                    found.append(("condition", T.BoolOp(root.col, "and", (root, T.Not(root.col, condition)))))
                    found.append(("condition", T.BoolOp(root.col, "or", (root, condition))))
            for operator, tree in found:
                text = unparse(tree)
                if text in seen:
                    continue
                seen.add(text)
                # The part keeps its type (so what other rules read of it still checks), and the
                # rule with it compiles.
                if _type(program, rule, part, tree) not in (want, S.NUMBER):
                    continue
                if not program.type_checks(_with_part(rule, part, tree)):
                    continue
                out.append(RuleMutant(rule.id, part, operator, before, text, tree))
    return tuple(out)


def mutant_ruleset(ruleset: Ruleset, mutant: RuleMutant) -> Ruleset:
    """`ruleset` with the mutant's part in force: a rulebook whose rules are the rules in force with
    the one part changed, and whose fragments for the chosen readings change nothing (so that
    every component that resolves readings finds them)."""
    rules = tuple(
        _with_part(rule, mutant.part, mutant.tree) if rule.id == mutant.rule else rule
        for rule in ruleset.rules
    )
    book = Rulebook(rules, tuple(Fragment(point, reading, ()) for point, reading in ruleset.reading_items))
    return replace(ruleset, rulebook=book, rules_digest=rules_digest(rules))
