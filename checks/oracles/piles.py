"""The first layer of the Z3 model (z3model.py): the compiled rules and their parts, ranks and their
succession and strength, and piles (their kinds, closing sizes, which beats which). The plays
(plays.py) and the model itself (z3model.py) build on it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ..findings import ModelLimit
from .algebra import Alg, B, N
from .model_terms import Params, Readings
from .model_values import CHAIN, EIGHT, ONE, PileV, Rank
from .rulecompile import Compiler
from .rules_in_force import resolve

_MISSING = object()


def _term_key(x: Any) -> Any:
    """A number itself, a Z3 term by its id (equal terms share one)."""
    return ("term", x.get_id()) if isinstance(x, z3.ExprRef) else x


class PileModel:
    """The rules' ranks and piles as formulas over `alg` (see z3model.py for the representation)."""

    def __init__(self, alg: Alg, params: Params, readings: Readings, maxk: int, maxn: int) -> None:
        self.A = alg
        self.p = params
        self.rd = readings
        self.maxk = maxk
        self.maxn = maxn
        self.R = len(params.ranks)
        self.values = params.ranks
        self._index = {v: i for i, v in enumerate(params.ranks)}
        self._ranks: dict[Any, Rank] = {}
        self._follows: dict[tuple[Any, Any], tuple[Any, Any, Any]] = {}
        self._strength: dict[Any, tuple[Any, Any]] = {}
        self._plays: dict[tuple[Any, ...], list[tuple[B, int, N]]] = {}
        self._asked: dict[tuple[Any, ...], Any] = {}
        self._kinds_memo: dict[tuple[Any, ...], Any] = {}
        self._ends_memo: dict[tuple[Any, ...], Any] = {}
        self._bounds_memo: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        # z3 term id -> (term, its index modulo R); keeps the term alive. ("succ", id): its successor.
        self._idx: dict[Any, Any] = {}
        self._value_fn = z3.Function("rank_value", z3.IntSort(), z3.IntSort())
        self.rules = resolve(params.rulebook, readings.choice, readings.names)
        self.c = Compiler(self, self.rules)
        self.kinds = self.c.kinds
        self.codes = dict(self.c.codes)
        self.kind_names = {code: kind for kind, code in self.codes.items()}
        self._same_codes = tuple(code for code, _k, _r, shape in self.kinds if shape != CHAIN)
        self._shape = {code: shape for code, _k, _r, shape in self.kinds}
        self._kind_rule = {code: rule_id for code, _k, rule_id, _s in self.kinds}
        self._after_play = [r for r in self.rules.slot("trick_end") if self.rules.field(r, "after") == "play"]
        self._after_pass = [r for r in self.rules.slot("trick_end") if self.rules.field(r, "after") == "pass"]
        # The trick endings a central pile alone decides (a closing size): no such pile stays on the table.
        self._pile_ends = [r for r in self._after_play if self.c.free_names(r, "ends") <= {"pile", "players"}]
        self._reasons = tuple(self.rules.field(r, "reason") or r for r in self._after_play)

    def code(self, kind: str) -> int | None:
        """The model's code of a kind of pile, or None when the rules state no such kind."""
        return self.codes.get(kind)

    # ---- the parts of the rules ----------------------------------------------------------------------

    def ask(self, does: str, part: str, players: N, **names: Any) -> Any:
        """A part of the rule that states `does` (the first, where several may), with the names of
        its step; ModelLimit when no rule states it."""
        rule = self.rules.one(does)
        if rule is None:
            raise ModelLimit(f"no rule states {does}")
        return self.c.part(rule, part)({"players": players, **names})

    def _memo(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        if self.A.symbolic:
            return compute()
        found = self._asked.get(key, _MISSING)
        if found is _MISSING:
            found = self._asked[key] = compute()
        return found

    # ---- ranks and piles ---------------------------------------------------------------------------

    def value(self, i: N) -> N:
        """The number on the card of rank index i."""
        if isinstance(i, int):
            return self.values[i] if 0 <= i < self.R else -1
        # Symbolically a function fixed by axioms (see `axioms`): one term instead of an If-chain.
        return self._value_fn(i)

    def index_of(self, v: N) -> N:
        """The index of the rank numbered v (-1: no rank of the deck)."""
        if isinstance(v, int):
            return self._index.get(v, -1)
        out: Any = -1
        for i in range(self.R - 1, -1, -1):
            out = z3.If(v == self.values[i], i, out)
        return out

    def rank_at(self, i: N) -> Rank:
        if isinstance(i, int):
            found = self._ranks.get(i)
            if found is None:
                found = self._ranks[i] = Rank(self, i, self.value(i), 0 <= i < self.R)
            return found
        return Rank(self, i, self.value(i), True)

    def rank_of_value(self, v: N) -> Rank:
        if isinstance(v, int):
            i = self._index.get(v, -1)
            return Rank(self, i, v, i >= 0)
        return Rank(self, None, v, False)

    def idx(self, x: N) -> N:
        """x modulo R, for x within one R of the rank range."""
        if isinstance(x, int):
            return x % self.R
        key = x.get_id()
        got = self._idx.get(key)
        if got is None:
            got = z3.If(x >= self.R, x - self.R, z3.If(x < 0, x + self.R, x))
            self._idx[key] = (x, got)
            return got
        return got[1]

    def succ(self, i: N) -> N:
        """The index after rank index i (0..R-1) in the rank list, the lowest after the highest."""
        if isinstance(i, int):
            return (i + 1) % self.R
        key = ("succ", i.get_id())
        got = self._idx.get(key)
        if got is None:
            got = self._idx[key] = (i, z3.If(i >= self.R - 1, 0, i + 1))
        return got[1]

    def follows(self, i: N, j: N) -> B:
        """Rank index j comes straight after i in a run (the `ranks` rule's `follows`)."""
        # Remembered by the indices' terms too (Z3 shares equal terms, so equal terms have one
        # id; the entry keeps them alive): a run's succession is asked of the same cards often.
        key = (_term_key(i), _term_key(j))
        got = self._follows.get(key)
        if got is None:
            got = self._follows[key] = (self.follows_ranks(self.rank_at(i), self.rank_at(j)), i, j)
        return got[0]

    def follows_ranks(self, a: Rank, b: Rank) -> B:
        rule = self.rules.one("ranks")
        if rule is None:
            return False
        return self.c.part(rule, "follows")({"players": self.p.players_min, "a": a, "b": b})

    def run_ok(self, low: N, n: N) -> B:
        """The n cards from `low` form a chain: each follows the one before, no rank twice."""
        A = self.A
        if isinstance(n, int):
            if n > self.R:
                return False
            return A.all_(self.follows(self.idx(low + t), self.idx(low + t + 1)) for t in range(n - 1))
        return A.and_(
            n <= self.R,
            A.all_(
                A.implies(t + 1 < n, self.follows(self.idx(low + t), self.idx(low + t + 1)))
                for t in range(self.maxn - 1)
            ),
        )

    def strength(self, r: Rank | N) -> N:
        """How strong a single or set of the rank is (the `ranks` rule's `strength`); `r` is a rank
        or a rank index."""
        rank = r if isinstance(r, Rank) else self.rank_at(r)
        if not rank.exact:
            return self._strength_of(rank)
        key = _term_key(rank.index)
        found = self._strength.get(key)
        if found is None:
            found = self._strength[key] = (self._strength_of(rank), rank.index)
        return found[0]

    def _strength_of(self, rank: Rank) -> N:
        rule = self.rules.one("ranks")
        if rule is None:
            return rank.index
        return self.c.part(rule, "strength")({"players": self.p.players_min, "r": rank})

    def same_kind(self, kind: N) -> B:
        """Whether a pile of this kind is one rank repeated (else a chain)."""
        if isinstance(kind, int):
            return kind in self._same_codes
        return self.A.any_(kind == c for c in self._same_codes)

    def copies(self, players: N) -> N:
        """Copies of each rank in the deck (the `deck` rule)."""
        return self._memo(("copies", players), lambda: self.ask("deck", "copies", players))

    def closes_at(self, kind: N, players: N) -> N:
        """The size at which a pile of `kind` ends the trick (its rule's `closes_at`; none: never)."""
        never = self.R * 1000  # the interpreter's "never by its size"

        def of(code: int) -> N:
            rule = self._kind_rule.get(code)
            if rule is None or not self.c.states(rule, "closes_at"):
                return never
            return self._memo(
                ("closes_at", code, players), lambda: self.c.part(rule, "closes_at")({"players": players})
            )

        if isinstance(kind, int):
            return of(kind)
        out: Any = never
        for code, _k, _r, _s in reversed(self.kinds):
            out = self.A.ite(kind == code, of(code), out)
        return out

    def set_close(self, players: N) -> N:
        """The closing size of 535's sets (the `set` kind's closes_at)."""
        return self.closes_at(self.codes.get("set", -1), players)

    def pile_v(self, kind: N, low: N, n: N) -> PileV:
        return PileV(kind, low, n)

    def kind_cards(self, code: int, low: N, n: N, players: N) -> B:
        """Whether the pile (code, low, n) is one of its kind: the kind's `cards` part, and a pile of
        one rank never holds more cards than the deck's copies."""
        if self.A.symbolic:
            return self._kind_cards(code, low, n, players)
        key = (code, low, n, players)
        found = self._kinds_memo.get(key)
        if found is None:
            found = self._kinds_memo[key] = self._kind_cards(code, low, n, players)
        return found

    def _kind_cards(self, code: int, low: N, n: N, players: N) -> B:
        rule = self._kind_rule[code]
        pile = PileV(code, low, n)
        holds = self.c.part(rule, "cards")(
            {"players": players, "cards": self.c.attr(pile, "cards"), "size": n}
        )
        if self._shape[code] == CHAIN or self._shape[code] == ONE:
            return holds
        return self.A.and_(holds, n <= self.copies(players))

    def valid_pile(self, kind: N, low: N, n: N, players: N) -> B:
        A = self.A
        in_range = A.and_(low >= 0, low < self.R)
        kinds = [
            A.and_(kind == code, n >= 1, self.kind_cards(code, low, n, players)) for code, *_ in self.kinds
        ]
        return A.and_(in_range, A.any_(kinds))

    def pile_ends(self, kind: N, low: N, n: N, players: N) -> B:
        """Whether the central pile alone ends the trick (a closing size reached)."""
        return self.A.any_(self.pile_end(r, kind, low, n, players) for r in self._pile_ends)

    def pile_end(self, rule: str, kind: N, low: N, n: N, players: N) -> B:
        """A trick ending the central pile alone decides, for this pile."""

        def compute() -> B:
            env = {"players": players, "pile": PileV(kind, low, n), "passes_in_a_row": 0}
            return self.c.part(rule, "ends")(env)

        if self.A.symbolic:
            return compute()
        key = (rule, kind, low, n, players)
        found = self._ends_memo.get(key)
        if found is None:
            found = self._ends_memo[key] = compute()
        return found

    def central_ok(self, kind: N, low: N, n: N, players: N, opening8: B) -> B:
        """A central pile a trick can hold: valid, not one that ends the trick by itself, and -- when
        the opening pile held an 8 -- a pile of one rank at least as strong as an 8 (only stronger
        ones overwrite it)."""
        return self._memo(
            ("central", kind, low, n, players, opening8),
            lambda: self._central_ok(kind, low, n, players, opening8),
        )

    def _central_ok(self, kind: N, low: N, n: N, players: N, opening8: B) -> B:
        A = self.A
        strong_enough = A.implies(
            A.and_(opening8, self.same_kind(kind)),
            self.strength(low) >= self.strength_of_eight(),
        )
        return A.and_(
            self.valid_pile(kind, low, n, players),
            A.not_(self.pile_ends(kind, low, n, players)),
            strong_enough,
        )

    def strength_of_eight(self) -> N:
        if EIGHT not in self.values:
            return -1
        return self.strength(self.values.index(EIGHT))

    def beats(self, kind: int, a: N, b: N, n: N = 1, players: N | None = None) -> B:
        """A pile of `kind` starting at rank index a beats one starting at b (same kind and size n)."""
        return self.beats_piles(
            PileV(kind, a, n), PileV(kind, b, n), self.p.players_min if players is None else players
        )

    def beats_piles(self, new: Any, old: Any, players: N) -> B:
        """Whether `new` beats `old`: the `beats` part of new's kind."""
        kind = self.c.attr(new, "kind")
        env = {"players": players, "new": new, "old": old}

        def of(code: int) -> B:
            return self.c.part(self._kind_rule[code], "beats")(env)

        if isinstance(kind, int):
            return of(kind) if kind in self._kind_rule else False
        return self.A.any_(self.A.and_(kind == code, of(code)) for code, *_ in self.kinds)

    def _increasing(self, k: int, p: Sequence[N]) -> B:
        return self.A.all_(p[t] < p[t + 1] for t in range(k - 1))

    def is_cards(self, k: int, p: Sequence[N], expected: Sequence[N]) -> B:
        """The k sorted distinct cards p are exactly the distinct indices `expected`."""
        A = self.A
        if not A.symbolic:
            want = sorted(expected)
            return list(p[:k]) == want and len(set(want)) == k
        return A.and_(
            self._increasing(k, p),
            A.all_(A.any_(p[t] == e for t in range(k)) for e in expected),
        )

    def next_seat(self, seat: N, players: N) -> N:
        """The seat that plays after `seat` (the `turn` rule's `next`)."""
        return self._memo(("next", seat, players), lambda: self.ask("turn", "next", players, seat=seat))
