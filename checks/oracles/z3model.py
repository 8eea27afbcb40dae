"""A model of play decisions compiled from the spec's rules (not from the engine's code).

The model decides, for one situation (players, central pile or none, whether the trick's opening
pile held an 8, the cards a player places and the action), whether the play is legal, which central
pile it leaves, and which trick endings it causes (each `trick_end` rule asked after a play, by its
reason: set_closed, run_closed, rule_of_8 in 535); and, for the conformance check, what a pass does,
who wins a trick, whether the round ends and who moves next. Every answer is a part of a rule of
the spec (`rules:`, five35.spec.lang) compiled by rulecompile.py, written once over an `Alg`ebra
with two interpretations:

- `Z3Alg`: every value may be a Z3 term. Readings are symbolic choices (one Int per variation point,
  ranging over that point's readings): each part a point's fragments replace is an If on that Int,
  so one solver query ranges over all reading combinations; parameters can be symbolic (for unsat
  cores naming spec entries); situations are variables (for proofs, divergence witnesses and dead
  clauses).
- `PyAlg`: every value is a Python int or bool. The same formulas evaluated concretely, fast enough to
  sweep the bounded domain of situations exhaustively in the conformance check.

A reading means what its fragment in the spec file says: no Python here knows a reading by name. A
chosen reading whose fragment the spec does not state is refused (`UnimplementedReading`), and a rule
the representation cannot hold is refused with the rule and part named (`ModelLimit`).

Representation: a rank is its index in the spec's rank list (0..R-1). A pile is (kind, low, size):
kind is the pile rule's place among the spec's `pile` rules (1, 2, ...; 0: no pile), a pile of one
repeated rank is that rank, a chain (a run) is its first card in rank-succession order. The
succession only ever steps from index i to i+1 (or from the last rank to the first), which the
model checks of the `ranks` rule's `follows` under every reading it ranges over, so the chain of
`size` cards from `low` is the indices low, low+1, ... taken modulo R.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ...spec.lang.rulebook import Rulebook
from ..findings import CheckContext, ModelLimit, SolverUnknown
from .rulecompile import (
    CHAIN,
    COMPONENT,
    EIGHT,
    ONE,
    Choice,
    Compiler,
    CondPile,
    LitCards,
    OpeningPile,
    PileV,
    Placed,
    Rank,
    resolve,
)
from .vocab import StatedVocabulary

__all__ = ["COMPONENT", "EIGHT", "ModelLimit"]

# The runs the Rule of 8's list names ("ein Lauf mit 7,8 oder 7,8,9", clause eight.trigger): what the
# text says, which the dead-clause catalogue names its parts by; text_examples checks it against the
# text. No reading's meaning is taken from here.
LISTED_EIGHT_RUNS: tuple[tuple[int, ...], ...] = ((7, 8), (7, 8, 9))

# The kinds of 535's piles, in the order its spec states them (their codes in every model of it).
NONE, SINGLE, SET, RUN = 0, 1, 2, 3
KIND_NAMES = {SINGLE: "single", SET: "set", RUN: "run"}
KIND_CODES = {name: code for code, name in KIND_NAMES.items()}
LEAD, OVERWRITE, ADD, PASS = 0, 1, 2, 3
ACTION_NAMES = {LEAD: "lead", OVERWRITE: "overwrite", ADD: "add", PASS: "pass"}
ACTION_CODES = {name: code for code, name in ACTION_NAMES.items()}

B = Any  # a bool or a z3 BoolRef
N = Any  # an int or a z3 ArithRef
T = TypeVar("T")

#: What the model implements: every reading whose rule fragment the spec states.
MODEL_VOCABULARY = StatedVocabulary(COMPONENT)

#: The steps whose rules `Model.decide` reads: a point whose fragments change one of them changes a
#: play decision (the points the proofs and divergence searches let Z3 range over).
DECISION_SLOTS = frozenset({"deck", "ranks", "pile", "lead", "overwrite", "add", "trick_end"})


def decision_points(spec: Spec) -> tuple[str, ...]:
    """The points whose readings change a play decision, in the spec's order: those whose fragments
    replace a part of a rule `Model.decide` reads (a trick ending asked after a pass is not one)."""
    book = spec.rulebook
    if book is None:
        return ()
    does = {r.id: r.does for r in book.rules}
    after = {r.id: r.field("after") for r in book.rules}
    out: list[str] = []
    for f in book.fragments:
        if f.point in out or f.point not in spec.variation_points:
            continue
        for rule_id, change in f.changes:
            slot = does.get(rule_id, change.does)
            if slot in DECISION_SLOTS and not (slot == "trick_end" and after.get(rule_id) == "pass"):
                out.append(f.point)
                break
    return tuple(out)


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


def _zb(x: B) -> z3.BoolRef:
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
        return z3.Implies(a, _zb(b))

    def ite(self, c: B, a: Any, b: Any) -> Any:
        if isinstance(c, bool):
            return a if c else b
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return a
        if isinstance(a, bool) or isinstance(b, bool):
            return z3.If(c, _zb(a), _zb(b))
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


@dataclass(frozen=True, eq=False)
class Params:
    """The spec's data the model is compiled from: the rules and every reading's fragment, and the
    parameters as the rules name them. A parameter's numbers may be Z3 terms (for unsat cores over
    parameters, or for ranging over every table a spec may give)."""

    ranks: tuple[int, ...]
    players_min: int
    players_max: int
    values: Mapping[str, Any]
    rulebook: Rulebook

    @staticmethod
    def of(ruleset: Ruleset) -> Params:
        if ruleset.rulebook is None:
            raise ModelLimit(f"{COMPONENT} needs the spec's rules; this ruleset carries none")
        return Params(
            ranks=ruleset.ranks,
            players_min=ruleset.players_min,
            players_max=ruleset.players_max,
            values=ruleset.values,
            rulebook=ruleset.rulebook,
        )

    def with_values(self, **values: Any) -> Params:
        """These parameters with some values replaced (by Z3 terms, say)."""
        return replace(self, values={**self.values, **values})

    def with_players(self, low: int, high: int) -> Params:
        return replace(self, players_min=low, players_max=high)

    @property
    def max_cards(self) -> N:
        """The parameter max_cards_per_turn (the texts' "eine, zwei oder drei Karten")."""
        return self.values["max_cards_per_turn"]


def loop_bounds(ruleset: Ruleset) -> tuple[int, int]:
    """Concrete bounds for the model's loops: cards per play, and cards in a pile (see
    Model.bounds)."""
    m = Model.concrete(ruleset)
    return m.maxk, m.maxn


class Readings:
    """A choice of reading per variation point: a reading name (concrete) or a Z3 Int (symbolic)."""

    def __init__(self, choice: Mapping[str, str | z3.ArithRef], names: Mapping[str, Sequence[str]]) -> None:
        self.choice = dict(choice)
        self.names = {p: tuple(n) for p, n in names.items()}

    def domain(self) -> list[B]:
        """Range constraints for the symbolic choices."""
        out: list[B] = []
        for point, value in self.choice.items():
            if not isinstance(value, str):
                out.append(z3.And(value >= 0, value < len(self.names[point])))
        return out

    def concrete(self, model: z3.ModelRef) -> dict[str, str]:
        out: dict[str, str] = {}
        for point, value in self.choice.items():
            if isinstance(value, str):
                out[point] = value
            else:
                out[point] = self.names[point][model.eval(value, model_completion=True).as_long()]
        return out

    def fixed(self, **readings: str) -> Readings:
        """This choice with some points fixed to a reading."""
        return Readings({**self.choice, **readings}, self.names)

    @staticmethod
    def of_ruleset(ruleset: Ruleset) -> Readings:
        return Readings(dict(ruleset.reading_items), {})

    @staticmethod
    def symbolic(
        spec: Spec, prefix: str, fixed: Mapping[str, str] | None = None, free: Iterable[str] | None = None
    ) -> Readings:
        """Points in `free` (all when None) become Z3 variables; the rest take `fixed`."""
        fixed = dict(fixed or {})
        free_set = set(spec.variation_points) if free is None else set(free)
        choice: dict[str, str | z3.ArithRef] = {}
        for point in spec.variation_points:
            if point in free_set:
                choice[point] = z3.Int(f"{prefix}reading.{point}")
            elif point in fixed:
                choice[point] = fixed[point]
        # A fixed point the spec does not declare stays, so that the model refuses it.
        for point, value in fixed.items():
            choice.setdefault(point, value)
        names = {p: tuple(vp.readings) for p, vp in spec.variation_points.items()}
        return Readings(choice, names)


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What a play does: legal or not, the central pile it leaves, the trick endings it causes
    (`ends`: every trick ending asked after a play, by its reason, in the spec's order)."""

    legal: Any
    kind: Any
    low: Any
    size: Any
    ends: tuple[tuple[str, Any], ...] = field(default=())

    def end(self, reason: str) -> Any:
        found = [holds for name, holds in self.ends if name == reason]
        if not found:
            return False
        if len(found) == 1:
            return found[0]
        if all(isinstance(x, bool) for x in found):
            return any(found)
        return z3.Or([_zb(x) for x in found])

    @property
    def set_closed(self) -> Any:
        return self.end("set_closed")

    @property
    def run_closed(self) -> Any:
        return self.end("run_closed")

    @property
    def rule_of_8(self) -> Any:
        return self.end("rule_of_8")

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for name, _ in self.ends))


# The succession check's answers: (the ranks rule's parts, ranks) -> those parts and what breaks the
# model's representation (None: nothing).
_SUCCESSION: dict[tuple[Any, ...], tuple[tuple[Any, ...], str | None]] = {}


class Model:
    """The rules as formulas over `alg`. See the module docstring for the representation."""

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
        self._check_succession()

    @staticmethod
    def concrete(ruleset: Ruleset) -> Model:
        """The ruleset's rules evaluated in Python (one model per ruleset and process)."""
        found = _CONCRETE.get(ruleset)
        if found is None:
            found = Model(PyAlg(), Params.of(ruleset), Readings.of_ruleset(ruleset), 0, 0)
            found.maxk, found.maxn = found.bounds()
            _CONCRETE[ruleset] = found
        return found

    def bounds(self) -> tuple[int, int]:
        """Bounds for the loops over a play's and a pile's cards, from the rules at every player
        count (concretely): the most cards a move places, and the longest pile (a kind's closing
        size, or the copies of a rank) plus one more play, but no longer than the ranks or copies
        with one more play."""
        maxk = 1
        longest = 1
        copies = 1
        for players in range(self.p.players_min, self.p.players_max + 1):
            for does in ("lead", "overwrite", "add"):
                rule = self.rules.one(does)
                if rule is not None:
                    self._bounds(rule, 0, players)
                    maxk = max(maxk, int(self._bounds_memo[(rule, players)][1]))
            copies = max(copies, int(self.copies(players)))
            for code, *_ in self.kinds:
                size = int(self.closes_at(code, players))
                if size < self.R * 1000:
                    longest = max(longest, size)
        longest = max(longest, copies)
        return maxk, min(longest + maxk, max(self.R, copies) + maxk)

    def code(self, kind: str) -> int | None:
        """The model's code of a kind of pile, or None when the rules state no such kind."""
        return self.codes.get(kind)

    def _check_succession(self) -> None:
        """Refuse (ModelLimit) rules whose `follows` relates a rank to another than the next in the
        rank list, under any reading the model ranges over: a chain would then not be a block of
        consecutive indices, which is how the model holds a run."""
        rule = self.rules.one("ranks")
        if rule is None:
            return
        for part in ("follows", "strength"):
            if "players" in self.c.free_names(rule, part):
                raise ModelLimit(
                    f"rule {rule}, part {part}: {COMPONENT} needs it not to depend on the players"
                )
        symbolic = sorted(
            {e.point for (rid, _p), e in self.rules.parts.items() if rid == rule and isinstance(e, Choice)}
        )
        if symbolic or self.A.symbolic:
            # Each reading in turn, by a concrete model of it (which checks itself).
            combos: list[dict[str, str]] = [{}]
            for point in symbolic:
                combos = [{**c, point: r} for c in combos for r in self.rd.names[point]]
            for combo in combos:
                Model(PyAlg(), self.p, self.rd.fixed(**combo), self.maxk, self.maxn)
            return
        # The answer depends on the ranks rule's parts (their trees, shared by every ruleset of a
        # spec: kept alive by the entry, so their ids are not reused) and the rank list.
        exprs = tuple(e for (rid, _p), e in sorted(self.rules.parts.items()) if rid == rule)
        key = (tuple(id(e) for e in exprs), self.p.ranks)
        found = _SUCCESSION.get(key)
        if found is None:
            found = _SUCCESSION[key] = (exprs, self._breaks_succession())
        if found[1] is not None:
            raise ModelLimit(found[1])

    def _breaks_succession(self) -> str | None:
        for i in range(self.R):
            for j in range(self.R):
                if j == (i + 1) % self.R:
                    continue
                holds = self.follows(i, j)
                if not isinstance(holds, bool):
                    return f"rule ranks, part follows: {COMPONENT} needs it to depend on the ranks alone"
                if holds:
                    return (
                        f"rule ranks, part follows: {self.values[j]} follows {self.values[i]}, but "
                        f"{COMPONENT} holds a run as ranks next to each other in the rank list"
                    )
        return None

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

    def axioms(self) -> list[B]:
        """What every solver over this model must assert: the rank value of every index."""
        if not self.A.symbolic:
            return []
        return [self._value_fn(i) == v for i, v in enumerate(self.values)]

    def solver(self, rlimit: int) -> z3.Solver:
        solver = CheckedSolver(rlimit)
        solver.add(*self.axioms())
        return solver

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

    # ---- plays -------------------------------------------------------------------------------------

    def _increasing(self, k: int, p: Sequence[N]) -> B:
        return self.A.all_(p[t] < p[t + 1] for t in range(k - 1))

    def _same(self, k: int, p: Sequence[N], rank: N) -> B:
        return self.A.all_(p[t] == rank for t in range(k))

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

    def play_piles(self, k: N, p: Sequence[N], players: N) -> list[tuple[B, int, N]]:
        """The piles the placed cards form on their own: (condition, kind, low). At most one holds
        where the spec's kinds do not overlap (the interpreter refuses cards of two kinds).

        Concretely only the alternatives that hold are returned (and remembered per play)."""
        if not self.A.symbolic:
            key = (k, tuple(p), players)
            got = self._plays.get(key)
            if got is None:
                got = [a for a in self._play_piles(k, p, players) if a[0]]
                self._plays[key] = got
            return got
        return self._play_piles(k, p, players)

    def _play_piles(self, k: N, p: Sequence[N], players: N) -> list[tuple[B, int, N]]:
        A = self.A
        alts: list[tuple[B, int, N]] = []
        sizes = range(1, self.maxk + 1)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:

                def repeated(kk: int, code: int = code) -> B:
                    return A.and_(self._same(kk, p, p[0]), self.kind_cards(code, p[0], kk, players))

                alts.append((A.cases(k, sizes, repeated), code, p[0]))
                continue
            for j in range(self.maxk):

                def chain_from(kk: int, j: int = j, code: int = code) -> B:
                    if j >= kk:
                        return False
                    expected = [self.idx(p[j] + t) for t in range(kk)]
                    return A.and_(self.is_cards(kk, p, expected), self.kind_cards(code, p[j], kk, players))

                alts.append((A.cases(k, sizes, chain_from), code, p[j]))
        return alts

    def _select(self, alts: list[tuple[B, int, N, N]]) -> tuple[B, N, N, N]:
        """Legal if some alternative holds; the resulting pile is the first that holds."""
        A = self.A
        if not A.symbolic:
            for cond, kind, low, n in alts:
                if cond:
                    return True, kind, low, n
            return False, NONE, 0, 0
        kind_: Any = NONE
        low_: Any = 0
        n_: Any = 0
        for cond, kind, low, n in reversed(alts):
            kind_ = A.ite(cond, kind, kind_)
            low_ = A.ite(cond, low, low_)
            n_ = A.ite(cond, n, n_)
        return A.any_(c for c, _, _, _ in alts), kind_, low_, n_

    def _bounds(self, rule: str, k: N, players: N) -> B:
        """The rule's `cards: {min, max}`: how many cards the move places."""

        def bounds() -> tuple[N, N]:
            env = {"players": players}
            low = self.c.part(rule, "cards.min")(env) if self.c.states(rule, "cards.min") else 1
            high = self.c.part(rule, "cards.max")(env) if self.c.states(rule, "cards.max") else low
            return low, high

        if self.A.symbolic:
            low, high = bounds()
            return self.A.and_(k >= low, k <= high)
        found = self._bounds_memo.get((rule, players))
        if found is None:
            found = self._bounds_memo[(rule, players)] = bounds()
        return found[0] <= k <= found[1]

    def _may(self, rule: str, env: dict[str, Any]) -> B:
        return self.c.part(rule, "may")(env)

    def _placing(self, does: str, k: N, players: N) -> tuple[str, B] | None:
        """The rule that states `does` and whether `k` cards are within its bounds (None: no such
        rule, or `k` is out of them for certain)."""
        rule = self.rules.one(does)
        if rule is None:
            return None
        ok = self._bounds(rule, k, players)
        if ok is False:
            return None
        return rule, ok

    def lead(self, k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `lead` rule: the pile the cards make, where its `may` holds."""
        A = self.A
        placing = self._placing("lead", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        placed = Placed(tuple(p), k)
        alts = []
        for c, kind, low in self.play_piles(k, p, players):
            may = self._may(rule, {"players": players, "new": PileV(kind, low, k), "placed": placed})
            alts.append((A.and_(ok, c, may), kind, low, k))
        return self._select(alts)

    def overwrite(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `overwrite` rule: a pile the cards make, over the central pile, where `may` holds."""
        A = self.A
        placing = self._placing("overwrite", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        old = PileV(*pile)
        placed = Placed(tuple(p), k)
        alts = []
        for c, kind, low in self.play_piles(k, p, players):
            if c is False:
                continue
            may = self._may(
                rule, {"players": players, "new": PileV(kind, low, k), "old": old, "placed": placed}
            )
            alts.append((A.and_(ok, c, may), kind, low, k))
        return self._select(alts)

    def add(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `add` rule: the central pile and the cards make one pile, where `may` holds.

        The pile they make is one rank repeated (the central pile is that rank, the cards all of it)
        or a chain: the central pile's block with `below` ranks under its first card and the rest
        over its last (every chain holding the block is so)."""
        A = self.A
        placing = self._placing("add", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        pkind, plow, pn = pile
        size = pn + k
        old = PileV(*pile)
        placed = Placed(tuple(p), k)
        sizes = range(1, self.maxk + 1)
        single = pn == 1
        same_old = A.or_(self.same_kind(pkind), single)
        chain_old = A.or_(A.not_(self.same_kind(pkind)), single)
        alts: list[tuple[B, int, N, N]] = []

        def candidate(code: int, cond: B, low: N) -> None:
            if cond is False:
                return
            new = PileV(code, low, size)
            holds = A.and_(ok, cond, self.kind_cards(code, low, size, players))
            if holds is False:
                return
            may = self._may(rule, {"players": players, "new": new, "old": old, "placed": placed})
            alts.append((A.and_(holds, may), code, low, size))

        if not A.symbolic:
            # The same alternatives, found directly: which form the cards take, if any.
            cards = list(p[:k])
            for code, _kind, _rule, shape in self.kinds:
                if shape != CHAIN:
                    if same_old and all(c == plow for c in cards):
                        candidate(code, True, plow)
                    continue
                if not chain_old or len(set(cards)) != k:
                    continue
                for below in range(k + 1):
                    expected = [(plow - below + t) % self.R for t in range(below)]
                    expected += [(plow + pn + t) % self.R for t in range(k - below)]
                    if sorted(expected) == cards and len(set(expected)) == k:
                        candidate(code, True, (plow - below) % self.R)
            return self._select(alts)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:
                cond = A.and_(same_old, A.cases(k, sizes, lambda kk: self._same(kk, p, plow)))
                candidate(code, cond, plow)
                continue
            for below in range(self.maxk + 1):

                def extends(kk: int, below: int = below) -> B:
                    if below > kk:
                        return False
                    expected = [self.idx(plow - below + t) for t in range(below)]
                    expected += [self.idx(plow + pn + t) for t in range(kk - below)]
                    return self.is_cards(kk, p, expected)

                candidate(code, A.and_(chain_old, A.cases(k, sizes, extends)), self.idx(plow - below))
        return self._select(alts)

    def has_eight(self, k: N, p: Sequence[N]) -> B:
        """Whether the placed cards hold an 8."""
        return self.c.has(Placed(tuple(p), k), self.rank_of_value(EIGHT))

    def listed_eight(self, kind: N, low: N, n: N) -> B:
        """The pile is one the Rule of 8's list names: a single 8, a set of 8s, a listed run."""
        A = self.A
        runs = [
            A.and_(n == len(run), A.all_(self.value(self.idx(low + t)) == v for t, v in enumerate(run)))
            for run in LISTED_EIGHT_RUNS
        ]
        one_rank = A.any_(kind == self.codes[name] for name in ("single", "set") if name in self.codes)
        chain = kind == self.codes["run"] if "run" in self.codes else False
        return A.or_(A.and_(one_rank, self.value(low) == EIGHT), A.and_(chain, A.any_(runs)))

    def decide(
        self,
        action: N,
        pile: tuple[N, N, N],
        k: N,
        p: Sequence[N],
        players: N,
        opening8: B,
        **trick: Any,
    ) -> Outcome[Any]:
        """The model's decision for a placing action (lead, overwrite or add). `trick` may give the
        other names a trick ending asked after a play reads (mover, in_trick, cards_left)."""
        A = self.A
        if isinstance(action, int):
            if action == LEAD and not isinstance(pile[0], int):
                legal, kind, low, n = self.lead(k, p, players)
                legal = A.and_(pile[0] == NONE, legal)
            elif action == LEAD:
                legal, kind, low, n = self.lead(k, p, players) if pile[0] == NONE else (False, NONE, 0, 0)
            elif action == OVERWRITE:
                legal, kind, low, n = self.overwrite(pile, k, p, players)
            elif action == ADD:
                legal, kind, low, n = self.add(pile, k, p, players)
            else:
                legal, kind, low, n = False, NONE, 0, 0
        else:
            lead = self.lead(k, p, players)
            over = self.overwrite(pile, k, p, players)
            add = self.add(pile, k, p, players)
            opts = [
                (A.and_(action == LEAD, pile[0] == NONE), lead),
                (action == OVERWRITE, over),
                (action == ADD, add),
            ]
            legal = A.any_(A.and_(c, o[0]) for c, o in opts)
            kind = A.ite(opts[0][0], lead[1], A.ite(opts[1][0], over[1], add[1]))
            low = A.ite(opts[0][0], lead[2], A.ite(opts[1][0], over[2], add[2]))
            n = A.ite(opts[0][0], lead[3], A.ite(opts[1][0], over[3], add[3]))
        reasons = self._reasons
        if legal is False:
            return Outcome(False, NONE, 0, 0, tuple((reason, False) for reason in reasons))
        new = PileV(kind, low, n)
        # The trick's opening pile: the pile a lead places, else the one the situation knows of.
        if isinstance(action, int):
            opening: Any = new if action == LEAD else OpeningPile(opening8)
        else:
            opening = CondPile(action == LEAD, new, OpeningPile(opening8))
        env = {
            "players": players,
            "action": action,
            "pile": new,
            "placed": Placed(tuple(p), k),
            "opening": opening,
            "passes_in_a_row": 0,
            **trick,
        }
        ends = tuple(
            (
                reason,
                A.and_(
                    legal,
                    self.pile_end(r, kind, low, n, players) if r in self._pile_ends else self._ends(r, env),
                ),
            )
            for reason, r in zip(reasons, self._after_play, strict=True)
        )
        return Outcome(legal=legal, kind=kind, low=low, size=n, ends=ends)

    def ends_after_play(
        self,
        action: int,
        pile: tuple[int, int, int],
        placed: Sequence[int],
        players: int,
        opening8: bool,
        **trick: Any,
    ) -> list[str]:
        """The reasons of the trick endings asked after placing `placed` (rank indices) made the
        pile `pile`, concretely."""
        new = PileV(*pile)
        p = tuple(sorted(placed))
        env = {
            "players": players,
            "action": action,
            "pile": new,
            "placed": Placed(p, len(p)),
            "opening": new if action == LEAD else OpeningPile(opening8),
            "passes_in_a_row": 0,
            **trick,
        }
        return [self.rules.field(r, "reason") or r for r in self._after_play if self.c.part(r, "ends")(env)]

    def failing_parts(
        self, rule: str, *, new: PileV, old: PileV | None, placed: Sequence[int], players: int
    ) -> list[str]:
        """The rule's own parts (its helpers) that do not hold for this move, concretely: what a
        violation names when `may` refuses a move."""
        env: dict[str, Any] = {"players": players, "new": new, "placed": Placed(tuple(placed), len(placed))}
        if old is not None:
            env["old"] = old
        out = []
        for name in self.c.helpers(rule):
            try:
                holds = self.c.helper(rule, name, frozenset(env))(env)
            except ModelLimit:
                continue
            if holds is False:
                out.append(name)
        return out

    def _ends(self, rule: str, env: dict[str, Any]) -> B:
        return self.c.part(rule, "ends")(env)

    # ---- the rest of a turn (concrete players; what the conformance check compares) ---------------

    def next_seat(self, seat: N, players: N) -> N:
        """The seat that plays after `seat` (the `turn` rule's `next`)."""
        return self._memo(("next", seat, players), lambda: self.ask("turn", "next", players, seat=seat))

    def may_pass(self, leading: B, players: N) -> B:
        rule = self.rules.one("pass")
        if rule is None:
            return False
        return self.c.part(rule, "may")({"players": players, "leading": leading})

    def pass_takes_out(self, players: N) -> B:
        """Whether a pass takes the player out of the trick (the `pass` rule's `out`)."""
        return self.ask("pass", "out", players)

    def ends_after_pass(self, players: N, **names: Any) -> list[str]:
        """The reasons of the trick endings asked after a pass that hold (concretely)."""
        env = {"players": players, "action": PASS, "placed": LitCards(()), "passes_in_a_row": 0, **names}
        return [self.rules.field(r, "reason") or r for r in self._after_pass if self.c.part(r, "ends")(env)]

    def winner(self, players: N, last_placer: N, mover: N) -> N:
        return self.ask("trick_winner", "winner", players, last_placer=last_placer, mover=mover)

    def round_ends(self, players: N, cards_left: N, mover: N) -> B:
        return self.ask("round_end", "ends", players, cards_left=cards_left, mover=mover)

    def penalty(self, hand: Sequence[int], went_out: B, players: N) -> N:
        cards = LitCards(tuple(self.rank_of_value(c) for c in sorted(hand)))
        return self.ask("scoring", "penalty", players, hand=cards, went_out=went_out)

    def match_ends(self, players: N, highest: N, lowest: N, round_no: N) -> B:
        return self.ask(
            "match_end", "ends", players, highest_score=highest, lowest_score=lowest, round=round_no
        )

    def match_winner(self, players: N, score: N, highest: N, lowest: N) -> B:
        return self.ask(
            "match_end", "winner", players, score=score, highest_score=highest, lowest_score=lowest
        )

    # ---- concrete helpers ------------------------------------------------------------------------

    def pile_cards(self, kind: int, low: int, n: int) -> tuple[int, ...]:
        """The ranks of a concrete pile, chains in succession order."""
        if not self.same_kind(kind):
            return tuple(self.values[(low + t) % self.R] for t in range(n))
        return (self.values[low],) * n

    def pile_of(self, cards: Sequence[int], players: int) -> tuple[int, int, int] | None:
        """The pile (kind, low, size) these cards make on their own, concretely, or None."""
        if any(c not in self._index for c in cards) or not cards:
            return None
        p = sorted(self._index[c] for c in cards)
        k = len(p)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:
                if len(set(p)) == 1 and self.kind_cards(code, p[0], k, players):
                    return code, p[0], k
                continue
            for j in range(k):
                if self.is_cards(k, p, [self.idx(p[j] + t) for t in range(k)]) and self.kind_cards(
                    code, p[j], k, players
                ):
                    return code, p[j], k
        return None

    def sum_of_values(self, kind: N, low: N, n: N) -> N:
        """Sum of the pile's rank values (for 'lowest ranks' in Optimize); linear in the variables."""
        A = self.A
        same = self.same_kind(kind)
        terms = [
            A.ite(t < n, A.ite(same, self.value(low), self.value(self.idx(low + t))), 0)
            for t in range(self.maxn)
        ]
        return sum(terms[1:], terms[0]) if terms else 0


_MISSING = object()
_CONCRETE: dict[Ruleset, Model] = {}


def _term_key(x: Any) -> Any:
    """A number itself, a Z3 term by its id (equal terms share one)."""
    return ("term", x.get_id()) if isinstance(x, z3.ExprRef) else x


@dataclass
class SymSituation:
    """The variables of one symbolic situation."""

    players: z3.ArithRef
    kind: z3.ArithRef
    low: z3.ArithRef
    n: z3.ArithRef
    opening8: z3.BoolRef
    action: z3.ArithRef
    k: z3.ArithRef
    p: list[z3.ArithRef]

    @staticmethod
    def fresh(prefix: str, maxk: int) -> SymSituation:
        return SymSituation(
            players=z3.Int(f"{prefix}players"),
            kind=z3.Int(f"{prefix}pile.kind"),
            low=z3.Int(f"{prefix}pile.low"),
            n=z3.Int(f"{prefix}pile.size"),
            opening8=z3.Bool(f"{prefix}opening_has_eight"),
            action=z3.Int(f"{prefix}action"),
            k=z3.Int(f"{prefix}play.size"),
            p=[z3.Int(f"{prefix}play.{t}") for t in range(maxk)],
        )

    @property
    def pile(self) -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]:
        return (self.kind, self.low, self.n)

    def domain(self, m: Model) -> list[B]:
        """The bounded domain: a central pile a trick can hold (or none), a play of 1..max cards
        in sorted order, an action that fits (lead iff no pile)."""
        cons: list[B] = [
            self.players >= m.p.players_min,
            self.players <= m.p.players_max,
            self.k >= 1,
            self.k <= m.maxk,
            self.action >= LEAD,
            self.action <= ADD,
            (self.action == LEAD) == (self.kind == NONE),
        ]
        for t in range(m.maxk):
            cons.append(z3.And(self.p[t] >= 0, self.p[t] < m.R))
            if t + 1 < m.maxk:
                # Unused positions repeat the last card, so every multiset has one representation.
                cons.append(z3.If(t + 1 < self.k, self.p[t] <= self.p[t + 1], self.p[t + 1] == self.p[t]))
        none = z3.And(self.kind == NONE, self.n == 0, self.low == 0, z3.Not(self.opening8))
        central = m.central_ok(self.kind, self.low, self.n, self.players, self.opening8)
        cons.append(z3.Or(none, _zb(central)))
        cons.append(z3.And(self.n >= 0, self.n <= m.maxn))
        return cons

    def read(self, model: z3.ModelRef) -> dict[str, Any]:
        def ev(x: Any) -> Any:
            v = model.eval(x, model_completion=True)
            return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()

        k = ev(self.k)
        return {
            "players": ev(self.players),
            "kind": ev(self.kind),
            "low": ev(self.low),
            "n": ev(self.n),
            "opening8": ev(self.opening8),
            "action": ev(self.action),
            "k": k,
            "p": [ev(self.p[t]) for t in range(k)],
        }


def outcome_differs(a: Outcome[Any], b: Outcome[Any]) -> B:
    """Two outcomes of the same play differ: legality, or (both legal) pile or trick endings."""
    reasons = list(dict.fromkeys([*a.reasons, *b.reasons]))
    return z3.Or(
        _zb(a.legal) != _zb(b.legal),
        z3.And(
            _zb(a.legal),
            z3.Or(
                a.kind != b.kind,
                a.low != b.low,
                a.size != b.size,
                *(_zb(a.end(r)) != _zb(b.end(r)) for r in reasons),
            ),
        ),
    )


def as_bool(x: B) -> z3.BoolRef:
    return _zb(x)


def spec_digest(spec: Spec) -> str:
    """A stable digest of everything a spec says, for memoising pure Z3 results within a process."""
    text = json.dumps(spec.to_json(), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_MEMO: dict[tuple[Any, ...], Any] = {}


#: The reason an unanswered query gives when it used up its resource limit (Z3's own words).
RLIMIT_REACHED = "max. resource limit exceeded"


class CheckedSolver(z3.Solver):  # type: ignore[misc]  # z3's classes are untyped
    """A z3.Solver under a resource limit whose `check` raises SolverUnknown instead of answering
    "unknown".

    Callers compare the answer with sat or unsat; an "unknown" (the limit reached, or a Ctrl-C that
    Z3 took for itself and used to cancel the query) would quietly read as "not sat" -- a proof -- or
    as "not unsat" -- no finding. Every solver of the checks is one of these. `rlimit` is Z3's
    resource limit on each `check` (counted from where the context's count stands when it starts),
    never a timeout: a timeout answers differently on a loaded machine."""

    def __init__(self, rlimit: int) -> None:
        super().__init__()
        self.rlimit = rlimit
        self.set("rlimit", rlimit)

    def check(self, *assumptions: Any) -> Any:
        before = self.steps()
        answer = super().check(*assumptions)
        if answer == z3.unknown:
            reason = str(self.reason_unknown()) or "unknown"
            # Where the limit stops it, Z3 may call the query merely "canceled", as after a Ctrl-C.
            if self.steps() - before >= self.rlimit:
                reason = RLIMIT_REACHED
            raise SolverUnknown(reason, self.rlimit)
        return answer

    def steps(self) -> int:
        """Z3's resource count of this solver's context so far (its 'rlimit count')."""
        count: int = self.statistics().get_key_value("rlimit count")
        return count


@contextmanager
def fresh_context() -> Iterator[None]:
    """Z3 work inside the block happens in a context of its own (z3's default context, replaced for
    the while): what Z3 answers and how much of its resource limit it takes then depend only on the
    question, not on what else this process asked before. (An unsat core or a model among equals
    does depend on that; and a worker process runs whichever checks come to it.)"""
    saved = z3.z3._main_ctx
    z3.z3._main_ctx = z3.Context()
    try:
        yield
    finally:
        z3.z3._main_ctx = saved


def memo(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """The result of `compute` for `key`, computed once per process, in a fresh Z3 context. The Z3
    checks are pure in the spec, the ruleset and the level, and the check runner and the tests call
    them many times."""
    if key not in _MEMO:
        with fresh_context():
            _MEMO[key] = compute()
    result: T = _MEMO[key]
    return result


def memo_check(name: str, ctx: CheckContext, compute: Callable[[], T]) -> T:
    """`memo` for the check `name` whose result is pure in the spec, the ruleset, the level and the
    solver's resource limit (what most of the Z3 checks depend on, and all they depend on)."""
    return memo((name, spec_digest(ctx.spec), ctx.ruleset, ctx.level, ctx.solver_rlimit), compute)
