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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ..findings import CheckContext, ModelLimit, SolverUnknown
from .algebra import Alg, B, PyAlg, Z3Alg, as_bool
from .model_terms import (
    ACTION_CODES,
    ACTION_NAMES,
    ADD,
    KIND_CODES,
    KIND_NAMES,
    LEAD,
    LISTED_EIGHT_RUNS,
    NONE,
    OVERWRITE,
    PASS,
    RUN,
    SET,
    SINGLE,
    Outcome,
    Params,
    Readings,
)
from .model_values import EIGHT
from .plays import PlayModel
from .rules_in_force import COMPONENT, Choice
from .vocab import StatedVocabulary

# The model's parts live beside it (algebra.py, model_terms.py, piles.py, plays.py); the checks
# import the model's names from here, the one module that puts them together.
__all__ = [
    "ACTION_CODES",
    "ACTION_NAMES",
    "ADD",
    "COMPONENT",
    "EIGHT",
    "KIND_CODES",
    "KIND_NAMES",
    "LEAD",
    "LISTED_EIGHT_RUNS",
    "NONE",
    "OVERWRITE",
    "PASS",
    "RUN",
    "SET",
    "SINGLE",
    "Model",
    "ModelLimit",
    "Outcome",
    "Params",
    "PyAlg",
    "Readings",
    "Z3Alg",
    "as_bool",
]

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


def loop_bounds(ruleset: Ruleset) -> tuple[int, int]:
    """Concrete bounds for the model's loops: cards per play, and cards in a pile (see
    Model.bounds)."""
    m = Model.concrete(ruleset)
    return m.maxk, m.maxn


@dataclass(frozen=True)
class _Break:
    """Where the `follows` of a ranks rule breaks the model's representation: rank index `after`
    follows `before` though it is not the next in the rank list (`decided`), or whether it does
    depends on more than the ranks (not `decided`)."""

    before: int
    after: int
    decided: bool


# The succession check's answers: (the ranks rule's parts, ranks) -> those parts and what breaks the
# model's representation (None: nothing).
_SUCCESSION: dict[tuple[Any, ...], tuple[tuple[Any, ...], _Break | None]] = {}


class Model(PlayModel):
    """The rules as formulas over `alg`. See the module docstring for the representation; the ranks
    and piles are PileModel's (piles.py), the plays PlayModel's (plays.py)."""

    def __init__(self, alg: Alg, params: Params, readings: Readings, maxk: int, maxn: int) -> None:
        super().__init__(alg, params, readings, maxk, maxn)
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
        broken = found[1]
        if broken is not None:
            after, before = self.values[broken.after], self.values[broken.before]
            raise ModelLimit(
                f"rule ranks, part follows: {after} follows {before}, "
                f"but {COMPONENT} holds a run as ranks next to each other in the rank list"
                if broken.decided
                else f"rule ranks, part follows: {COMPONENT} needs it to depend on the ranks alone"
            )

    def _breaks_succession(self) -> _Break | None:
        for i in range(self.R):
            for j in range(self.R):
                if j == (i + 1) % self.R:
                    continue
                holds = self.follows(i, j)
                if not isinstance(holds, bool) or holds:
                    return _Break(i, j, isinstance(holds, bool))
        return None

    def axioms(self) -> list[B]:
        """What every solver over this model must assert: the rank value of every index."""
        if not self.A.symbolic:
            return []
        return [self._value_fn(i) == v for i, v in enumerate(self.values)]

    def solver(self, rlimit: int) -> z3.Solver:
        solver = CheckedSolver(rlimit)
        solver.add(*self.axioms())
        return solver


_CONCRETE: dict[Ruleset, Model] = {}


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
        cons.append(z3.Or(none, as_bool(central)))
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
        as_bool(a.legal) != as_bool(b.legal),
        z3.And(
            as_bool(a.legal),
            z3.Or(
                a.kind != b.kind,
                a.low != b.low,
                a.size != b.size,
                *(as_bool(a.end(r)) != as_bool(b.end(r)) for r in reasons),
            ),
        ),
    )


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
