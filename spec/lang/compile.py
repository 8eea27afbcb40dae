"""Rule expressions to typed Python closures, once per ruleset and player count.

`compile_program(rules, values, players)` checks every part of every rule against the schema
(names, types) and returns a `Program`: one closure per part, each a function of a dict of the
names its moment offers. Parameters are constants by then, helper parts are inlined where they
are used, and the primitives (`strength`, `follows`, `beats`, ...) call back into the Program,
so the whole ruleset is one set of closures and no tree is walked while playing.

Errors are `RuleProblem(key, column, message)`: the loader turns them into `file:line:col`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import schema as S
from .syntax import Attr, Binary, Bool, BoolOp, Call, If, Index, ListOf, Name, Neg, Node, Not, Num, walk
from .values import ARITH, COMPARISONS, ORDERED, shown, unify, value_type

Env = dict[str, Any]

#: Answers a part remembers before it starts again (bounds memory, changes nothing but speed).
MEMO_LIMIT = 1 << 16
Fn = Callable[[Env], Any]


class RuleProblem(ValueError):
    """A rule that cannot be compiled: the key path of the part (or field), the 1-based column
    in its expression (0: the whole value) and a one-line message."""

    def __init__(self, key: tuple[str | int, ...], column: int, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.column = column
        self.message = message


class RuleError(ValueError):
    """A rule that fails while playing (a table without the entry asked for, a turn order that
    reaches no player): names the rule and part."""


@dataclass(frozen=True)
class RuleDef:
    """One rule as the spec states it, after the readings' fragments: its parts as trees."""

    id: str
    does: str
    parts: tuple[tuple[str, Node], ...]
    fields: tuple[tuple[str, str], ...] = ()
    #: For actions that place cards: the bounds `cards: {min, max}` as trees.
    cards: tuple[tuple[str, Node], ...] = ()
    #: Where each part came from, for errors: part -> key path in the spec file.
    keys: tuple[tuple[str, tuple[str | int, ...]], ...] = ()

    def part(self, name: str) -> Node | None:
        return dict(self.parts).get(name)

    def field(self, name: str) -> str | None:
        return dict(self.fields).get(name)

    def key_of(self, part: str) -> tuple[str | int, ...]:
        return dict(self.keys).get(part, ("rules", self.id, part))


class _Scope:
    """What a part may name while it is compiled: its moment's names, the rule's other parts,
    the parameters, the kinds and actions, the constants."""

    def __init__(
        self,
        program: Program,
        rule: RuleDef,
        names: Mapping[str, str],
        key: tuple[str | int, ...],
        inlining: tuple[str, ...] = (),
        used: set[str] | None = None,
        calls: set[str] | None = None,
    ) -> None:
        self.program = program
        self.rule = rule
        self.names = names
        self.key = key
        self.inlining = inlining
        #: The moment's names the part reads (through its helpers too): what its value depends on.
        self.used: set[str] = set() if used is None else used
        #: The functions it calls (through its helpers too): some ask other rules' parts.
        self.calls: set[str] = set() if calls is None else calls

    def fail(self, node: Node | None, message: str) -> RuleProblem:
        return RuleProblem(self.key, node.col if node is not None else 0, message)


class Program:
    """A ruleset's rules compiled for one player count: what the spec interpreter asks."""

    def __init__(
        self,
        rules: Sequence[RuleDef],
        values: Mapping[str, Any],
        players: int,
        *,
        used_parts: set[tuple[str, str]] | None = None,
    ) -> None:
        self.rules = tuple(rules)
        self.values = dict(values)
        self.players = players
        ranks = values.get("ranks")
        self.ranks: tuple[int, ...] = tuple(sorted(ranks)) if isinstance(ranks, list) else ()
        self._order = {r: i for i, r in enumerate(self.ranks)}
        self.by_slot: dict[str, list[RuleDef]] = {}
        for rule in self.rules:
            self.by_slot.setdefault(rule.does, []).append(rule)
        self.kinds: dict[str, RuleDef] = {}
        for rule in self.by_slot.get("pile", ()):
            kind = rule.field("kind")
            if kind is not None:
                self.kinds[kind] = rule
        # Parts named by another part (inlined there); the loader refuses a part nobody reads.
        self.used_parts = used_parts if used_parts is not None else set()
        self._fns: dict[tuple[str, str], Fn] = {}
        self._free: dict[tuple[str, str], tuple[str, ...]] = {}
        self._calls: dict[tuple[str, str], frozenset[str]] = {}
        self._cached: dict[tuple[str, str], Fn] = {}
        self._follows: dict[tuple[int, int], bool] = {}
        self._strength: dict[int, int] = {}
        self._chain: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        for rule in self.rules:
            slot = S.SLOTS[rule.does]
            for name, part in slot.parts.items():
                node = rule.part(name)
                if node is not None:
                    self._fns[(rule.id, name)] = self._compile_part(rule, name, node, part)
            for bound, node in rule.cards:
                self._fns[(rule.id, "cards." + bound)] = self._compile_part(
                    rule, "cards." + bound, node, S.Part(S.INT, {"players": S.INT})
                )

    def type_checks(self, rule: RuleDef) -> bool:
        """Whether `rule` compiles in place of this program's rule of its id, read where this
        program reads it (its parts' types check; what it calls of the other rules is this
        program's). Nothing of the program changes. The whole program need not be compiled again
        when only one rule changes and its parts keep their types."""
        kept = (dict(self._fns), dict(self._free), dict(self._calls), set(self.used_parts))
        try:
            slot = S.SLOTS[rule.does]
            for name, part in slot.parts.items():
                node = rule.part(name)
                if node is not None:
                    self._compile_part(rule, name, node, part)
            for bound, node in rule.cards:
                self._compile_part(rule, "cards." + bound, node, S.Part(S.INT, {"players": S.INT}))
        except RuleProblem:
            return False
        finally:
            self._fns, self._free, self._calls, self.used_parts = kept
        return True

    # ---- compiling -----------------------------------------------------------------------------

    def _compile_part(self, rule: RuleDef, name: str, node: Node, part: S.Part) -> Fn:
        scope = _Scope(self, rule, part.names, rule.key_of(name), (name,))
        typ, fn = self._expr(node, scope)
        if unify(typ, part.type) != part.type:
            raise scope.fail(node, f"is {shown(typ)}, but {name} must be {shown(part.type)}")
        self._free[(rule.id, name)] = tuple(sorted(scope.used))
        self._calls[(rule.id, name)] = frozenset(scope.calls)
        return fn

    def _expr(self, node: Node, scope: _Scope) -> tuple[str, Fn]:
        if isinstance(node, Num):
            value = node.value
            return S.NUMBER, lambda env: value
        if isinstance(node, Bool):
            flag = node.value
            return S.BOOL, lambda env: flag
        if isinstance(node, Name):
            return self._name(node, scope)
        if isinstance(node, Not):
            typ, fn = self._expr(node.operand, scope)
            self._want(node.operand, typ, S.BOOL, scope, "'not'")
            return S.BOOL, lambda env: not fn(env)
        if isinstance(node, Neg):
            typ, fn = self._expr(node.operand, scope)
            if typ not in (S.INT, S.NUMBER):
                raise scope.fail(node, f"'-' needs a count, not {shown(typ)}")
            return typ, lambda env: -fn(env)
        if isinstance(node, BoolOp):
            fns = []
            for item in node.items:
                typ, fn = self._expr(item, scope)
                self._want(item, typ, S.BOOL, scope, f"'{node.op}'")
                fns.append(fn)
            items = tuple(fns)
            if node.op == "and":
                return S.BOOL, lambda env: all(f(env) for f in items)
            return S.BOOL, lambda env: any(f(env) for f in items)
        if isinstance(node, If):
            ctyp, cond = self._expr(node.cond, scope)
            self._want(node.cond, ctyp, S.BOOL, scope, "'if'")
            atyp, then = self._expr(node.then, scope)
            btyp, other = self._expr(node.other, scope)
            joined = unify(atyp, btyp)
            if joined is None:
                raise scope.fail(node, f"'then' gives {shown(atyp)} but 'else' gives {shown(btyp)}")
            return joined, lambda env: then(env) if cond(env) else other(env)
        if isinstance(node, Binary):
            return self._binary(node, scope)
        if isinstance(node, Attr):
            return self._attr(node, scope)
        if isinstance(node, Index):
            return self._index(node, scope)
        if isinstance(node, ListOf):
            values = []
            for item in node.items:
                typ, fn = self._expr(item, scope)
                if unify(typ, S.RANK) != S.RANK:
                    raise scope.fail(item, f"a list holds ranks, not {shown(typ)}")
                values.append(fn)
            items = tuple(values)
            return S.CARDS, lambda env: tuple(f(env) for f in items)
        if isinstance(node, Call):
            return self._call(node, scope)
        raise scope.fail(node, "not an expression")  # pragma: no cover

    def _want(self, node: Node, typ: str, want: str, scope: _Scope, where: str) -> None:
        if unify(typ, want) != want:
            raise scope.fail(node, f"{where} needs {shown(want)}, not {shown(typ)}")

    def _name(self, node: Name, scope: _Scope) -> tuple[str, Fn]:
        name = node.id
        if name in scope.names:
            typ = scope.names[name]
            scope.used.add(name)
            return typ, lambda env: env[name]
        own = scope.rule.part(name)
        if own is not None and name not in S.SLOTS[scope.rule.does].parts:
            if name in scope.inlining:
                chain = " -> ".join((*scope.inlining, name))
                raise scope.fail(node, f"part {name!r} names itself ({chain})")
            self.used_parts.add((scope.rule.id, name))
            inner = _Scope(
                self,
                scope.rule,
                scope.names,
                scope.rule.key_of(name),
                (*scope.inlining, name),
                scope.used,
                scope.calls,
            )
            return self._expr(own, inner)
        if name in self.values and name != "players":
            value = self.values[name]
            typ = value_type(value)
            if typ == "opaque":
                raise scope.fail(node, f"parameter {name!r} is not a number, a list of ranks or a table")
            if typ == S.CARDS:
                cards = tuple(sorted(value))
                return S.CARDS, lambda env: cards
            if typ in (S.TABLE, S.RECORD):
                table = {int(k) if typ == S.TABLE else k: v for k, v in value.items()}
                return typ, lambda env: table
            return typ, lambda env: value
        if name in self.kinds:
            return S.KIND, lambda env: name
        if name in S.ACTIONS:
            return S.ACTION, lambda env: name
        if name in S.CONSTANTS:
            if not self.ranks:
                raise scope.fail(node, f"{name} needs the parameter 'ranks'")
            constant = {
                "lowest_rank": self.ranks[0],
                "highest_rank": self.ranks[-1],
                "rank_count": len(self.ranks),
            }[name]
            return S.CONSTANTS[name], lambda env: constant
        offered = ", ".join(sorted(scope.names)) or "none"
        raise scope.fail(node, f"unknown name {name!r} (this part may use: {offered}; or a parameter)")

    def _binary(self, node: Binary, scope: _Scope) -> tuple[str, Fn]:
        ltyp, left = self._expr(node.left, scope)
        rtyp, right = self._expr(node.right, scope)
        op = node.op
        if op in COMPARISONS:
            typ = unify(ltyp, rtyp)
            if typ is None:
                raise scope.fail(node, f"'{op}' compares {shown(ltyp)} with {shown(rtyp)}")
            if op not in ("==", "!=") and typ not in ORDERED:
                raise scope.fail(node, f"'{op}' needs numbers, ranks or seats, not {shown(typ)}")
            cmp = COMPARISONS[op]
            return S.BOOL, lambda env: cmp(left(env), right(env))
        fn = ARITH[op]
        # A rank or seat moved by a count stays a rank or seat (a + 1); counts make counts.
        if ltyp in (S.RANK, S.SEAT) and rtyp in (S.INT, S.NUMBER) and op in ("+", "-", "%"):
            typ = ltyp
        elif ltyp in (S.INT, S.NUMBER) and rtyp in (S.INT, S.NUMBER):
            typ = S.INT if S.INT in (ltyp, rtyp) else S.NUMBER
        else:
            raise scope.fail(node, f"'{op}' cannot combine {shown(ltyp)} and {shown(rtyp)}")
        return typ, lambda env: fn(left(env), right(env))

    def _attr(self, node: Attr, scope: _Scope) -> tuple[str, Fn]:
        typ, obj = self._expr(node.obj, scope)
        field_name = node.name
        if typ == S.PILE:
            if field_name not in S.PILE_FIELDS:
                raise scope.fail(node, f"a pile has no {field_name!r} (it has {', '.join(S.PILE_FIELDS)})")
            getters: dict[str, Fn] = {
                "kind": lambda env: obj(env).kind,
                "size": lambda env: len(obj(env).cards),
                "cards": lambda env: tuple(obj(env).cards),
                "first": lambda env: obj(env).cards[0],
                "last": lambda env: obj(env).cards[-1],
            }
            return S.PILE_FIELDS[field_name], getters[field_name]
        if typ == S.RECORD:
            # Records are parameters: their fields are known now.
            record = obj({})
            if field_name not in record:
                raise scope.fail(node, f"has no field {field_name!r} (fields: {', '.join(record)})")
            value = record[field_name]
            return S.INT, lambda env: value
        if typ == S.CARDS and field_name == "size":
            return S.INT, lambda env: len(obj(env))
        raise scope.fail(node, f"{shown(typ)} has no field {field_name!r}")

    def _index(self, node: Index, scope: _Scope) -> tuple[str, Fn]:
        typ, obj = self._expr(node.obj, scope)
        if typ != S.TABLE:
            raise scope.fail(node, f"only a table parameter can be indexed, not {shown(typ)}")
        ktyp, key = self._expr(node.key, scope)
        if ktyp not in ORDERED:
            raise scope.fail(node.key, f"a table is indexed by a number, not {shown(ktyp)}")
        table = obj({})
        rule_id, part = scope.rule.id, str(scope.key[-1])

        def look(env: Env) -> Any:
            k = key(env)
            if k not in table:
                raise RuleError(f"rule {rule_id}, part {part}: the table has no entry for {k}")
            return table[k]

        return S.INT, look

    def _call(self, node: Call, scope: _Scope) -> tuple[str, Fn]:
        prim = S.PRIMITIVES.get(node.fn)
        if prim is None:
            raise scope.fail(node, f"unknown function {node.fn!r} (functions: {', '.join(S.PRIMITIVES)})")
        if len(node.args) != len(prim.args):
            raise scope.fail(node, f"{node.fn} takes {len(prim.args)} argument(s), got {len(node.args)}")
        scope.calls.add(node.fn)
        fns = []
        for arg, want in zip(node.args, prim.args, strict=True):
            typ, fn = self._expr(arg, scope)
            if unify(typ, want) != want:
                raise scope.fail(arg, f"{node.fn} needs {shown(want)} here, not {shown(typ)}")
            fns.append(fn)
        if node.fn in ("order", "next_rank", "lowest_rank") and not self.ranks:
            raise scope.fail(node, f"{node.fn} needs the parameter 'ranks'")
        impl = getattr(self, "_p_" + node.fn)
        if len(fns) == 1:
            (a,) = fns
            return prim.result, lambda env: impl(a(env))
        a, b = fns
        return prim.result, lambda env: impl(a(env), b(env))

    # ---- primitives ----------------------------------------------------------------------------

    def _p_order(self, r: int) -> int:
        return self._order.get(r, -1)

    def _p_next_rank(self, r: int) -> int:
        i = self._order.get(r)
        return r if i is None else self.ranks[(i + 1) % len(self.ranks)]

    def _p_strength(self, r: int) -> int:
        return self.strength(r)

    def _p_follows(self, a: int, b: int) -> bool:
        return self.follows(a, b)

    def _p_beats(self, new: Any, old: Any) -> bool:
        return self.beats(new, old)

    def _p_closes_at(self, pile: Any) -> int:
        return self.closes_at(pile.kind)

    @staticmethod
    def _p_has(cards: tuple[int, ...], r: int) -> bool:
        return r in cards

    @staticmethod
    def _p_count(cards: tuple[int, ...], r: int) -> int:
        return cards.count(r)

    @staticmethod
    def _p_same_rank(cards: tuple[int, ...]) -> bool:
        return len(set(cards)) == 1

    def _p_chain(self, cards: tuple[int, ...]) -> bool:
        return self.chain_order(cards) is not None

    @staticmethod
    def _p_size(cards: tuple[int, ...]) -> int:
        return len(cards)

    @staticmethod
    def _p_total(cards: tuple[int, ...], table: Mapping[int, int]) -> int:
        return sum(table.get(c, 0) for c in cards)

    def _p_next_seat(self, seat: int) -> int:
        return self.next_seat(seat)

    def scope_names(self, rule: RuleDef, part: str) -> dict[str, str]:
        """The names a part of `rule` may read, with their types: its moment's, or, for a helper
        part (one another part names), the moment's of the first part that names it."""
        slot = S.SLOTS[rule.does]
        if part in slot.parts:
            return dict(slot.parts[part].names)
        if part.startswith("cards."):
            return {"players": S.INT}
        for name, node in rule.parts:
            if name in slot.parts and _names_part(rule, node, part, ()):
                return dict(slot.parts[name].names)
        return {}

    def type_of(self, rule: RuleDef, part: str, node: Node) -> str:
        """The type of `node` read where `rule`'s `part` is read; RuleProblem when it has none
        there (an expression that does not type-check)."""
        scope = _Scope(self, rule, self.scope_names(rule, part), rule.key_of(part), (part,))
        return self._expr(node, scope)[0]

    # ---- what the interpreter asks -------------------------------------------------------------

    def slot(self, does: str) -> list[RuleDef]:
        return self.by_slot.get(does, [])

    def one(self, does: str) -> RuleDef | None:
        found = self.by_slot.get(does)
        return found[0] if found else None

    def fn(self, rule: RuleDef, part: str) -> Fn:
        return self._fns[(rule.id, part)]

    def free_names(self, rule: RuleDef, part: str) -> tuple[str, ...]:
        """The names of its moment the part reads (through its helpers too), sorted."""
        return self._free[(rule.id, part)]

    def reads_players(self, rule: RuleDef, part: str) -> bool:
        """Whether the part's value may change with the player count: it reads `players`, or a
        function it calls asks a rule's part that does (the program answers those for its own
        player count)."""
        seen: set[tuple[str, str]] = set()
        todo = [(rule, part)]
        while todo:
            r, name = todo.pop()
            key = (r.id, name)
            if key in seen or key not in self._free:
                continue
            seen.add(key)
            if "players" in self._free[key]:
                return True
            for called in self._calls[key]:
                for does, asked in S.PRIMITIVES[called].asks:
                    todo.extend((other, asked) for other in self.slot(does))
        return False

    def cached(self, rule: RuleDef, part: str) -> Fn:
        """The part's closure, remembering its answers by the names it reads (every part is a pure
        function of them): what the interpreter asks at every step."""
        key = (rule.id, part)
        found = self._cached.get(key)
        if found is None:
            fn = self._fns[key]
            free = self._free[key]
            memo: dict[tuple[Any, ...], Any] = {}

            def found(env: Env) -> Any:
                k = tuple([env[n] for n in free])
                value = memo.get(k, memo)
                if value is memo:
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    value = memo[k] = fn(env)
                return value

            self._cached[key] = found
        return found

    def ask(self, does: str, part: str, **names: Any) -> Any:
        rule = self.one(does)
        if rule is None:
            raise RuleError(f"no rule states {does}")
        return self.cached(rule, part)({"players": self.players, **names})

    def follows(self, a: int, b: int) -> bool:
        key = (a, b)
        found = self._follows.get(key)
        if found is None:
            found = self._follows[key] = bool(self.ask("ranks", "follows", a=a, b=b))
        return found

    def strength(self, r: int) -> int:
        found = self._strength.get(r)
        if found is None:
            found = self._strength[r] = int(self.ask("ranks", "strength", r=r))
        return found

    def beats(self, new: Any, old: Any) -> bool:
        rule = self.kinds.get(new.kind)
        if rule is None:
            return False
        return bool(self._fns[(rule.id, "beats")]({"players": self.players, "new": new, "old": old}))

    def closes_at(self, kind: str) -> int:
        rule = self.kinds.get(kind)
        if rule is None or (rule.id, "closes_at") not in self._fns:
            return sum(1 for _ in self.ranks) * 1000  # never by its size: larger than any pile
        return int(self._fns[(rule.id, "closes_at")]({"players": self.players}))

    def next_seat(self, seat: int) -> int:
        return int(self.ask("turn", "next", seat=seat))

    def chain_order(self, cards: tuple[int, ...]) -> tuple[int, ...] | None:
        """The cards in run order (each following the one before), or None when they are not
        distinct ranks that form one chain. A chain that closes a circle starts at its lowest rank."""
        found = self._chain.get(cards, False)
        if found is not False:
            return found  # type: ignore[return-value]
        order: tuple[int, ...] | None = None
        unique = set(cards)
        if len(unique) == len(cards) and cards:
            after = {a: [b for b in unique if b != a and self.follows(a, b)] for a in unique}
            before = {b for bs in after.values() for b in bs}
            starts = [c for c in sorted(unique, key=self._p_order) if c not in before] or [
                min(unique, key=self._p_order)
            ]
            start = starts[0]
            walk = [start]
            seen = {start}
            while len(walk) < len(unique):
                nxt = [b for b in after[walk[-1]] if b not in seen]
                if len(nxt) != 1:
                    break
                walk.append(nxt[0])
                seen.add(nxt[0])
            if len(walk) == len(unique):
                order = tuple(walk)
        self._chain[cards] = order
        return order

    def card_bounds(self, rule: RuleDef) -> tuple[int, int]:
        env = {"players": self.players}
        low = int(self._fns[(rule.id, "cards.min")](env)) if (rule.id, "cards.min") in self._fns else 1
        high = int(self._fns[(rule.id, "cards.max")](env)) if (rule.id, "cards.max") in self._fns else low
        return low, high


def _names_part(rule: RuleDef, node: Node, part: str, seen: tuple[str, ...]) -> bool:
    """Whether `node` names the helper `part` of `rule`, directly or through other helpers."""
    for inner in walk(node):
        if isinstance(inner, Name) and inner.id not in seen:
            if inner.id == part:
                return True
            helper = rule.part(inner.id)
            if helper is not None and _names_part(rule, helper, part, (*seen, inner.id)):
                return True
    return False
