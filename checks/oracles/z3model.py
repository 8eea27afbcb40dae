"""A model of 535's play decisions, compiled from the spec's data (not from the engine's code).

The model decides, for one situation (players, central pile or none, whether the trick's opening
pile held an 8, the cards a player places and the action), whether the play is legal, which central
pile it leaves, and which trick endings it causes (set_closed, run_closed, rule_of_8). It is written
once over an `Alg`ebra with two interpretations:

- `Z3Alg`: every value may be a Z3 term. Readings are symbolic choices (one Int per variation point,
  ranging over that point's readings), so one solver query can range over all reading combinations,
  parameters can be symbolic (for unsat cores naming spec entries), and situations are variables
  (for proofs, divergence witnesses and dead clauses).
- `PyAlg`: every value is a Python int or bool. The same formulas evaluated concretely, fast enough to
  sweep the bounded domain of situations exhaustively in the conformance check.

Representation: a rank is its index in the spec's rank list (0..R-1). A pile is (kind, low, size):
a single or a set is its rank; a run is its first card in rank-succession order. The succession only
ever steps from index i to i+1 (or from the last rank to the first, when runs wrap), so the run of
`size` cards from `low` is the indices low, low+1, ... taken modulo R.

Readings: every reading the engine declares (`Game.VOCABULARY`) has one hook here (`READING_HOOKS`),
the reading's answer to its point's question, written over the algebra. `Model.says(point, ...)`
asks the chosen reading's hook (for a symbolic choice, every reading's, joined by the choice).
Adding a reading to a point is one hook; the module refuses to import while a reading of the
engine has none, and a model built for a reading without a hook raises `UnimplementedReading`.
The invariants' rules (five35.checks.oracles.rules_model) ask the same hooks, so the checks state each
reading's meaning once, independently of the engine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
from five35.engine import Game
from five35.spec import Ruleset, Spec
from five35.spec.vocabulary import UnimplementedReading, Vocabulary

from ..findings import SolverUnknown
from .vocab import ComponentVocabulary, table_vocabulary

# The rank the Rule of 8 is named after ("Regel der 8", clause eight.heading) and the runs its list
# names ("ein Lauf mit 7,8 oder 7,8,9", clause eight.trigger). text_examples checks these against the text.
EIGHT = 8
LISTED_EIGHT_RUNS: tuple[tuple[int, ...], ...] = ((7, 8), (7, 8, 9))

NONE, SINGLE, SET, RUN = 0, 1, 2, 3
KIND_NAMES = {SINGLE: "single", SET: "set", RUN: "run"}
KIND_CODES = {name: code for code, name in KIND_NAMES.items()}
LEAD, OVERWRITE, ADD, PASS = 0, 1, 2, 3
ACTION_NAMES = {LEAD: "lead", OVERWRITE: "overwrite", ADD: "add", PASS: "pass"}
ACTION_CODES = {name: code for code, name in ACTION_NAMES.items()}

B = Any  # a bool or a z3 BoolRef
N = Any  # an int or a z3 ArithRef
T = TypeVar("T")

COMPONENT = "the Z3 model"

# ---- one hook per reading ------------------------------------------------------------------------
#
# A hook is `fn(model, *args)`: the reading's answer to its point's question (the comment above
# each point's hooks), as a bool or formula over `model.A`. Hooks that answer without looking at
# the arguments return a plain True or False; `Model.says` keeps such answers out of the formulas.
# Where the readings choose between facts (numbers consecutive, a before b), the model passes the
# facts in, built already or as a `Fact` built when first asked.

Hook = Callable[..., Any]
READING_HOOKS: dict[str, dict[str, Hook]] = {}
# Points whose hooks decide who moves next rather than what a play does (`Model.decide` never asks
# them); every other hooked point is in MODELLED_POINTS.
_SEAT_POINTS: set[str] = set()


def hook(point: str, reading: str, *, seats: bool = False) -> Callable[[Hook], Hook]:
    """Register `fn` as the meaning of `point=reading`."""

    def register(fn: Hook) -> Hook:
        READING_HOOKS.setdefault(point, {})[reading] = fn
        if seats:
            _SEAT_POINTS.add(point)
        return fn

    return register


# run_gaps: does a run step from rank index i to the next index j (= i + 1) of the deck's ranks,
# given whether their numbers are consecutive (they are not across the missing 6 and 10)?
@hook("run_gaps", "gaps_break")
def _gaps_break(m: Model, i: N, j: N, consecutive: B) -> B:
    return consecutive


@hook("run_gaps", "gaps_skipped")
def _gaps_skipped(m: Model, i: N, j: N, consecutive: B) -> B:
    return True


# run_wrap: does the last rank continue a run with the first?
@hook("run_wrap", "no_wrap")
def _no_wrap(m: Model) -> B:
    return False


@hook("run_wrap", "wrap")
def _wrap(m: Model) -> B:
    return True


# run_order: does a run starting at rank index a beat one of the same size starting at b, given
# whether a comes before b in the rank order and whether after?
@hook("run_order", "lower_beats")
def _lower_beats(m: Model, a: N, b: N, before: Fact, after: Fact) -> B:
    return before()


@hook("run_order", "higher_beats")
def _higher_beats(m: Model, a: N, b: N, before: Fact, after: Fact) -> B:
    return after()


# five_player_copies, five_player_set_close: is a game of exactly five players a large game
# ("5+" in the German against "más de 5" in the Spanish)?
@hook("five_player_copies", "five_is_large")
@hook("five_player_set_close", "five_is_large")
def _five_is_large(m: Model) -> B:
    return True


@hook("five_player_copies", "five_is_small")
@hook("five_player_set_close", "five_is_small")
def _five_is_small(m: Model) -> B:
    return False


# add_to_single: may cards be added to a single card?
@hook("add_to_single", "allowed")
def _add_to_single(m: Model) -> B:
    return True


@hook("add_to_single", "not_allowed")
def _no_add_to_single(m: Model) -> B:
    return False


# add_run_ends: may cards be added below a run's first card?
@hook("add_run_ends", "either_end")
def _either_end(m: Model) -> B:
    return True


@hook("add_run_ends", "top_end")
def _top_end(m: Model) -> B:
    return False


# add_past_closing: does a pile's closing size cap the adds onto it?
@hook("add_past_closing", "capped")
def _capped(m: Model) -> B:
    return True


@hook("add_past_closing", "overflow")
def _overflow(m: Model) -> B:
    return False


# eight_forms: does an 8 placed in a trick count for the Rule of 8, given `listed()`: whether the
# pile it makes is one the rule's list names?
@hook("eight_forms", "any_eight")
def _any_eight(m: Model, listed: Fact) -> B:
    return True


@hook("eight_forms", "listed_forms")
def _listed_forms(m: Model, listed: Fact) -> B:
    return listed()


# eight_on_add: can an add (not only a lead or an overwrite) trigger the Rule of 8?
@hook("eight_on_add", "adds_trigger")
def _adds_trigger(m: Model) -> B:
    return True


@hook("eight_on_add", "plays_only")
def _plays_only(m: Model) -> B:
    return False


# eight_exemption: is an 8 exempt from the Rule of 8, given whether the trick's opening pile held one?
@hook("eight_exemption", "whole_trick")
def _whole_trick(m: Model, opening8: B) -> B:
    return opening8


@hook("eight_exemption", "opening_play")
def _opening_play(m: Model, opening8: B) -> B:
    return False


# eight_rank: does the rank at index i stand above every rank for singles and sets, given whether
# it is the 8?
@hook("eight_rank", "by_number")
def _by_number(m: Model, i: N, is_eight: B) -> B:
    return False


@hook("eight_rank", "strongest")
def _eight_strongest(m: Model, i: N, is_eight: B) -> B:
    return is_eight


# turn_order: the seat that plays after `seat` with `players` at the table.
@hook("turn_order", "ascending_seats", seats=True)
def _ascending(m: Model, seat: int, players: int) -> int:
    return (seat + 1) % players


@hook("turn_order", "descending_seats", seats=True)
def _descending(m: Model, seat: int, players: int) -> int:
    return (seat - 1) % players


class Fact:
    """A fact the readings of a point choose between (a run's first card before the other's), built
    when a hook first asks for it: concretely only the chosen reading's fact is built."""

    __slots__ = ("_build", "_value")

    def __init__(self, build: Callable[[], B]) -> None:
        self._build: Callable[[], B] | None = build
        self._value: B = None

    def __call__(self) -> B:
        if self._build is not None:
            self._value, self._build = self._build(), None
        return self._value


class _Unasked(Exception):
    """Raised by a fact a hook asks for while Model.says only sorts the readings' answers."""


def _unasked() -> B:
    raise _Unasked


_UNASKED = Fact(_unasked)


#: Points the model leaves alone, and why that is sound.
NOT_MODELLED: Mapping[str, str] = {
    "deal": "how a round's cards are dealt; the model decides plays in a situation it is given",
    "first_leader": "who leads the first round; the model is given the player to move",
    "round_leader": "who leads the next round; the model is given the player to move",
}


def model_vocabulary(vocabulary: Vocabulary) -> ComponentVocabulary:
    """The model's vocabulary, checked against an engine's (VocabularyMismatch if a reading has no hook)."""
    return table_vocabulary(COMPONENT, READING_HOOKS, vocabulary, NOT_MODELLED)


MODEL_VOCABULARY = model_vocabulary(Game.VOCABULARY)
#: The points whose readings change a play decision (`Model.decide`), in the engine's order: the
#: ones the proofs and divergence searches let Z3 range over.
MODELLED_POINTS: tuple[str, ...] = tuple(
    p for p in Game.VOCABULARY.points if p in READING_HOOKS and p not in _SEAT_POINTS
)


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


class Z3Alg(Alg):
    symbolic = True

    def and_(self, *xs: B) -> B:
        return self.all_(xs)

    def or_(self, *xs: B) -> B:
        return self.any_(xs)

    def all_(self, xs: Iterable[B]) -> B:
        items = list(xs)
        if any(x is False for x in items):
            return False
        terms = [x for x in items if not isinstance(x, bool)]
        if not terms:
            return True
        return terms[0] if len(terms) == 1 else z3.And(terms)

    def any_(self, xs: Iterable[B]) -> B:
        items = list(xs)
        if any(x is True for x in items):
            return True
        terms = [x for x in items if not isinstance(x, bool)]
        if not terms:
            return False
        return terms[0] if len(terms) == 1 else z3.Or(terms)

    def not_(self, x: B) -> B:
        return (not x) if isinstance(x, bool) else z3.Not(x)

    def implies(self, a: B, b: B) -> B:
        if isinstance(a, bool):
            return b if a else True
        return z3.Implies(a, _zb(b))

    def ite(self, c: B, a: Any, b: Any) -> Any:
        if isinstance(c, bool):
            return a if c else b
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


@dataclass(frozen=True)
class Params:
    """The spec's numbers the model uses. Values may be Z3 terms (for unsat cores over parameters)."""

    ranks: tuple[int, ...]
    players_min: int
    players_max: int
    copies_small: N
    copies_large: N
    set_close_small: N
    set_close_large: N
    run_close: N
    max_cards: N
    min_set: N
    min_run: N
    points: Mapping[int, N]

    @staticmethod
    def of(ruleset: Ruleset) -> Params:
        return Params(
            ranks=ruleset.ranks,
            players_min=ruleset.players_min,
            players_max=ruleset.players_max,
            copies_small=ruleset.copies_small,
            copies_large=ruleset.copies_large,
            set_close_small=ruleset.set_closing_small,
            set_close_large=ruleset.set_closing_large,
            run_close=ruleset.run_closing_size,
            max_cards=ruleset.max_cards_per_turn,
            min_set=ruleset.min_set_size,
            min_run=ruleset.min_run_size,
            points=ruleset.points,
        )


def loop_bounds(ruleset: Ruleset) -> tuple[int, int]:
    """Concrete bounds for the model's loops: cards per play, and cards in a pile."""
    maxk = max(1, ruleset.max_cards_per_turn)
    longest = max(
        ruleset.copies_large,
        ruleset.copies_small,
        ruleset.set_closing_large,
        ruleset.set_closing_small,
        ruleset.run_closing_size,
    )
    return maxk, min(max(longest, 1) + maxk, max(len(ruleset.ranks), ruleset.copies_large) + maxk)


class Readings:
    """A choice of reading per variation point: a reading name (concrete) or a Z3 Int (symbolic)."""

    def __init__(self, choice: Mapping[str, str | z3.ArithRef], names: Mapping[str, Sequence[str]]) -> None:
        self.choice = dict(choice)
        self.names = {p: tuple(n) for p, n in names.items()}

    def require(self) -> None:
        """Raise UnimplementedReading for a chosen reading, or a reading a symbolic choice ranges
        over, that the model has no hook for."""
        for point, value in self.choice.items():
            for reading in (value,) if isinstance(value, str) else self.names.get(point, ()):
                if not MODEL_VOCABULARY.vocabulary.implements(point, reading):
                    raise UnimplementedReading(COMPONENT, point, reading)

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
    """What a play does: legal or not, the central pile it leaves, the trick endings it causes."""

    legal: Any
    kind: Any
    low: Any
    size: Any
    set_closed: Any
    run_closed: Any
    rule_of_8: Any


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
        self._follows: dict[tuple[int, int], bool] = {}
        self._plays: dict[tuple[Any, ...], list[tuple[B, int, N]]] = {}
        self._sizes: dict[tuple[str, int], Any] = {}
        self._idx: dict[int, Any] = {}  # z3 term id -> (term, its index modulo R); keeps the term alive
        self._value_fn = z3.Function("rank_value", z3.IntSort(), z3.IntSort())
        readings.require()
        # A concrete choice is one hook: looked up once, as the sweeps ask it millions of times.
        self._chosen: dict[str, Hook] = {
            point: READING_HOOKS[point][value]
            for point, value in readings.choice.items()
            if isinstance(value, str) and point in READING_HOOKS
        }
        # Answers asked once, here and in this order: Z3's search depends on the order its terms
        # are created in (the divergence check's query counts and witnesses with it), and these
        # create a symbolic choice's comparisons in the order the checks have always had.
        self.crosses_gaps = self.says("run_gaps", 0, 1, False)  # a run steps over a missing number
        self.wrap = self.says("run_wrap")
        self.earlier_runs_beat = self.says("run_order", 0, 1, Fact(lambda: True), Fact(lambda: False))
        self.later_runs_beat = self.says("run_order", 1, 0, Fact(lambda: False), Fact(lambda: True))
        self.to_single = self.says("add_to_single")
        self.either_end = self.says("add_run_ends")
        self.capped = self.says("add_past_closing")
        # Whether every 8 counts for the Rule of 8, listed form or not (dead_clauses asks).
        self.any_eight = self.says("eight_forms", Fact(lambda: False))
        self.adds_trigger = self.says("eight_on_add")
        self.opening_eight_exempts = self.says("eight_exemption", True)
        # Whether the 8 stands above every rank (text_examples asks).
        self.strongest = (
            self.says("eight_rank", self.values.index(EIGHT), True) if EIGHT in self.values else False
        )

    @staticmethod
    def concrete(ruleset: Ruleset) -> Model:
        maxk, maxn = loop_bounds(ruleset)
        return Model(PyAlg(), Params.of(ruleset), Readings.of_ruleset(ruleset), maxk, maxn)

    # ---- readings ----------------------------------------------------------------------------

    def says(self, point: str, *args: Any) -> Any:
        """The chosen reading's answer to `point`'s question (see READING_HOOKS). For a symbolic
        choice, every reading's answer joined by the choice variable."""
        chosen = self._chosen.get(point)
        if chosen is not None:
            if self.A.symbolic:
                # Every fact is built, in order, whichever reading is chosen: Z3's search depends on
                # the order its terms are created in, and so the witnesses and query counts.
                for arg in args:
                    if isinstance(arg, Fact):
                        arg()
            return chosen(self, *args)
        var = self.rd.choice.get(point)
        if var is None:
            raise ValueError(f"{COMPONENT} was given no reading of {point}")
        hooks = [READING_HOOKS[point][name] for name in self.rd.names[point]]
        # First, which readings answer without asking a fact (plain True or False, or a formula
        # passed in built): those need no formula of their own.
        blind = tuple(_UNASKED if isinstance(arg, Fact) else arg for arg in args)
        early: list[Any] = []
        for fn in hooks:
            try:
                early.append(fn(self, *blind))
            except _Unasked:
                early.append(None)
        A = self.A
        if not all(a is None or isinstance(a, bool) or z3.is_bool(a) for a in early):
            answers = [fn(self, *args) for fn in hooks]  # numbers: an If-chain over the readings
            out = answers[-1]
            for k in range(len(answers) - 2, -1, -1):
                out = A.ite(var == k, answers[k], out)
            return out
        yes = [k for k, a in enumerate(early) if a is True]
        if len(yes) == len(hooks):
            return True
        rest = [k for k, a in enumerate(early) if a is not True and a is not False]
        if yes and len(rest) == 1:
            # The choice ranges over the readings (Readings.domain), so when it is none of the
            # readings that say yes it is the one left: its formula needs no guard.
            return A.any_([*(var == k for k in yes), hooks[rest[0]](self, *args)])
        parts: list[Any] = []
        for k, fn in enumerate(hooks):
            if early[k] is True:
                parts.append(var == k)
            elif early[k] is not False:
                parts.append(A.and_(var == k, fn(self, *args)))
        return A.any_(parts)

    def next_seat(self, seat: int, players: int) -> int:
        """The seat that plays after `seat` (turn_order); concrete readings only."""
        answer: int = self.says("turn_order", seat, players)
        return answer

    # ---- ranks and piles ---------------------------------------------------------------------

    def value(self, i: N) -> N:
        """The number on the card of rank index i."""
        if isinstance(i, int):
            return self.values[i]
        # Symbolically a function fixed by axioms (see `axioms`): one term instead of an If-chain.
        return self._value_fn(i)

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

    def follows(self, i: N, j: N) -> B:
        """Rank index j comes straight after i in a run (pile.run, deck.ranks; run_gaps, run_wrap)."""
        A = self.A
        if isinstance(i, int) and isinstance(j, int) and not A.symbolic:
            key = (i, j)
            got = self._follows.get(key)
            if got is None:
                got = bool(self._follows_formula(i, j))
                self._follows[key] = got
            return got
        return self._follows_formula(i, j)

    def _follows_formula(self, i: N, j: N) -> B:
        A = self.A
        consecutive = self.value(j) == self.value(i) + 1
        step = A.and_(j == i + 1, self.says("run_gaps", i, j, consecutive))
        return A.or_(step, A.and_(self.wrap, i == self.R - 1, j == 0))

    def run_ok(self, low: N, n: N) -> B:
        """The n cards from `low` form a run: each follows the one before, no rank twice."""
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

    def strength(self, i: N) -> N:
        """Single and set strength (eight_rank): the rank order, or 8 above everything."""
        return self.A.ite(self.says("eight_rank", i, self.value(i) == EIGHT), self.R, i)

    def large(self, players: N, point: str) -> B:
        # deck.copies / trick.end.set: "5+" (German) against "más de 5" (Spanish) is the point.
        A = self.A
        return A.or_(players >= 6, A.and_(players == 5, self.says(point)))

    def copies(self, players: N) -> N:
        if isinstance(players, int) and not self.A.symbolic:
            key = ("copies", players)
            if key not in self._sizes:
                self._sizes[key] = self._copies(players)
            return self._sizes[key]
        return self._copies(players)

    def _copies(self, players: N) -> N:
        return self.A.ite(self.large(players, "five_player_copies"), self.p.copies_large, self.p.copies_small)

    def set_close(self, players: N) -> N:
        if isinstance(players, int) and not self.A.symbolic:
            key = ("close", players)
            if key not in self._sizes:
                self._sizes[key] = self._set_close(players)
            return self._sizes[key]
        return self._set_close(players)

    def _set_close(self, players: N) -> N:
        return self.A.ite(
            self.large(players, "five_player_set_close"), self.p.set_close_large, self.p.set_close_small
        )

    def valid_pile(self, kind: N, low: N, n: N, players: N) -> B:
        A = self.A
        in_range = A.and_(low >= 0, low < self.R)
        single = A.and_(kind == SINGLE, n == 1)
        set_ = A.and_(kind == SET, n >= 2, n >= self.p.min_set, n <= self.copies(players))
        run = A.and_(kind == RUN, n >= 2, n >= self.p.min_run, self.run_ok(low, n))
        return A.and_(in_range, A.or_(single, set_, run))

    def closing(self, kind: N, n: N, players: N) -> tuple[B, B]:
        """(set_closed, run_closed) for a pile of `kind` and size n (trick.end.set, trick.end.run)."""
        A = self.A
        return (
            A.and_(kind == SET, n >= self.set_close(players)),
            A.and_(kind == RUN, n >= self.p.run_close),
        )

    def central_ok(self, kind: N, low: N, n: N, players: N, opening8: B) -> B:
        """A central pile a trick can hold: valid, below its closing size, and -- when the opening
        pile held an 8 -- a single or set at least as strong as an 8 (only stronger ones overwrite it)."""
        A = self.A
        set_closed, run_closed = self.closing(kind, n, players)
        strong_enough = A.implies(
            A.and_(opening8, A.or_(kind == SINGLE, kind == SET)),
            self.strength(low) >= self.strength_of_eight(),
        )
        return A.and_(
            self.valid_pile(kind, low, n, players), A.not_(set_closed), A.not_(run_closed), strong_enough
        )

    def strength_of_eight(self) -> N:
        if EIGHT not in self.values:
            return -1
        return self.strength(self.values.index(EIGHT))

    def beats(self, kind: int, a: N, b: N) -> B:
        """A pile of `kind` starting at rank index a beats one starting at b (same kind and size)."""
        if kind == RUN:
            return self.says("run_order", a, b, Fact(lambda: a < b), Fact(lambda: a > b))
        return self.strength(a) > self.strength(b)

    # ---- plays -------------------------------------------------------------------------------

    def _increasing(self, k: int, p: Sequence[N]) -> B:
        return self.A.all_(p[t] < p[t + 1] for t in range(k - 1))

    def _same(self, k: int, p: Sequence[N], rank: N) -> B:
        return self.A.all_(p[t] == rank for t in range(k))

    def _is_cards(self, k: int, p: Sequence[N], expected: Sequence[N]) -> B:
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
        """The piles the placed cards form on their own: (condition, kind, low). At most one holds.

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
        alts: list[tuple[B, int, N]] = [(k == 1, SINGLE, p[0])]
        alts.append(
            (
                A.cases(
                    k,
                    range(2, self.maxk + 1),
                    lambda kk: A.and_(
                        kk >= self.p.min_set, self._same(kk, p, p[0]), kk <= self.copies(players)
                    ),
                ),
                SET,
                p[0],
            )
        )
        for j in range(self.maxk):

            def run_from(kk: int, j: int = j) -> B:
                if j >= kk:
                    return False
                expected = [self.idx(p[j] + t) for t in range(kk)]
                return A.and_(kk >= self.p.min_run, self._is_cards(kk, p, expected), self.run_ok(p[j], kk))

            alts.append((A.cases(k, range(2, self.maxk + 1), run_from), RUN, p[j]))
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

    def lead(self, k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """action.lead: any single, set or run of 1..max_cards cards."""
        A = self.A
        ok = A.and_(k >= 1, k <= self.p.max_cards)
        alts = [(A.and_(ok, c), kind, low, k) for c, kind, low in self.play_piles(k, p, players)]
        return self._select(alts)

    def overwrite(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """action.overwrite: a pile of the central pile's kind and size that beats it."""
        A = self.A
        pkind, plow, pn = pile
        ok = A.and_(k >= 1, k <= self.p.max_cards, k == pn)
        alts = [
            (A.and_(ok, pkind == kind, c, self.beats(kind, low, plow)), kind, low, k)
            for c, kind, low in self.play_piles(k, p, players)
        ]
        return self._select(alts)

    def add(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """action.add: cards placed onto the central pile so that it stays one set or one run."""
        A = self.A
        pkind, plow, pn = pile
        size = pn + k
        ok = A.and_(k >= 1, k <= self.p.max_cards)
        from_single = A.and_(pkind == SINGLE, self.to_single)
        set_ok = A.and_(
            ok,
            A.or_(pkind == SET, from_single),
            A.cases(k, range(1, self.maxk + 1), lambda kk: self._same(kk, p, plow)),
            size >= self.p.min_set,
            size <= self.copies(players),
            A.implies(self.capped, size <= self.set_close(players)),
        )
        alts: list[tuple[B, int, N, N]] = [(set_ok, SET, plow, size)]
        if not A.symbolic and (set_ok or pkind == SET):
            return self._select(alts)  # concretely: a set add, or nothing a run add could be
        run_base = A.and_(
            ok,
            A.or_(pkind == RUN, from_single),
            size >= self.p.min_run,
            size <= self.R,
            A.implies(self.capped, size <= self.p.run_close),
        )
        for below in range(self.maxk + 1):
            new_low = self.idx(plow - below)

            def extends(kk: int, below: int = below) -> B:
                if below > kk:
                    return False
                expected = [self.idx(plow - below + t) for t in range(below)]
                expected += [self.idx(plow + pn + t) for t in range(kk - below)]
                return A.and_(self._is_cards(kk, p, expected), self.run_ok(self.idx(plow - below), pn + kk))

            cond = A.and_(
                run_base,
                A.implies(below > 0, self.either_end) if below else True,
                A.cases(k, range(1, self.maxk + 1), extends),
            )
            alts.append((cond, RUN, new_low, size))
        return self._select(alts)

    def has_eight(self, k: N, p: Sequence[N]) -> B:
        A = self.A
        return A.any_(A.and_(t < k, self.value(p[t]) == EIGHT) for t in range(self.maxk))

    def listed_eight(self, kind: N, low: N, n: N) -> B:
        """The pile is one the Rule of 8's list names: a single 8, a set of 8s, a listed run."""
        A = self.A
        runs = [
            A.and_(n == len(run), A.all_(self.value(self.idx(low + t)) == v for t, v in enumerate(run)))
            for run in LISTED_EIGHT_RUNS
        ]
        return A.or_(
            A.and_(A.or_(kind == SINGLE, kind == SET), self.value(low) == EIGHT),
            A.and_(kind == RUN, A.any_(runs)),
        )

    def decide(
        self,
        action: N,
        pile: tuple[N, N, N],
        k: N,
        p: Sequence[N],
        players: N,
        opening8: B,
    ) -> Outcome[Any]:
        """The model's decision for a placing action (lead, overwrite or add)."""
        A = self.A
        if isinstance(action, int):
            if action == LEAD:
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
        set_closed, run_closed = self.closing(kind, n, players)
        # trick.end.eight / eight.trigger / eight.exemption: an 8 played in a trick ends it, unless
        # the opening pile held one; the opening play itself is the opening pile.
        if not A.symbolic:
            # The same conjunction, short-circuited: most plays hold no 8.
            eight = (
                bool(legal)
                and action != LEAD
                and bool(self.has_eight(k, p))
                and not self.says("eight_exemption", opening8)
                and (action != ADD or bool(self.adds_trigger))
                and bool(self.says("eight_forms", Fact(lambda: self.listed_eight(kind, low, n))))
            )
        else:
            eight = A.and_(
                action != LEAD,
                self.has_eight(k, p),
                self.says("eight_forms", Fact(lambda: self.listed_eight(kind, low, n))),
                A.not_(self.says("eight_exemption", opening8)),
                A.implies(action == ADD, self.adds_trigger),
            )
        return Outcome(
            legal=legal,
            kind=kind,
            low=low,
            size=n,
            set_closed=A.and_(legal, set_closed),
            run_closed=A.and_(legal, run_closed),
            rule_of_8=A.and_(legal, eight),
        )

    # ---- concrete helpers ----------------------------------------------------------------------

    def pile_cards(self, kind: int, low: int, n: int) -> tuple[int, ...]:
        """The ranks of a concrete pile, runs in succession order."""
        if kind == RUN:
            return tuple(self.values[(low + t) % self.R] for t in range(n))
        return (self.values[low],) * n

    def sum_of_values(self, kind: N, low: N, n: N) -> N:
        """Sum of the pile's rank values (for 'lowest ranks' in Optimize); linear in the variables."""
        A = self.A
        terms = [
            A.ite(t < n, A.ite(kind == RUN, self.value(self.idx(low + t)), self.value(low)), 0)
            for t in range(self.maxn)
        ]
        return sum(terms[1:], terms[0]) if terms else 0


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
    return z3.Or(
        _zb(a.legal) != _zb(b.legal),
        z3.And(
            _zb(a.legal),
            z3.Or(
                a.kind != b.kind,
                a.low != b.low,
                a.size != b.size,
                _zb(a.set_closed) != _zb(b.set_closed),
                _zb(a.run_closed) != _zb(b.run_closed),
                _zb(a.rule_of_8) != _zb(b.rule_of_8),
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
