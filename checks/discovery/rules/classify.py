"""What each mutant of the rules is: equivalent, killed by a clause, already asked, or a silence.

For one mutant (operators.py) under the played ruleset:

1. **Does it change play?** Where the Z3 model reads the part (the piles, the ranks, lead,
   overwrite, add, and the trick endings asked after a play), Z3 searches the bounded domain of
   situations (every central pile a trick can hold, every play of up to the most cards a turn
   places, every player count) for one the two rule sets decide differently: none is a proof that
   the mutant is equivalent there. Elsewhere (the deal, passing, the trick's winner, the turn
   order, the ends of a round and a match, scoring) the mutated rule's parts are asked every input
   of a bounded domain (every player count, seat, rank, kind, action and pile, counts up to one
   past the largest parameter, cards of up to two): the same answers everywhere is a proof over
   that domain too. Only where that domain is too large to list do the mutant and the rules play
   the same seeded matches step by step; no difference there is "equivalent in play", not a
   proof, and is counted apart.
2. **Killed by a clause:** the text-derived oracle's questions (oracle.py, asked through
   hooks.py) at every player count, then the play invariants that cite a clause, over seeded
   matches of the mutant.
3. **Already asked:** the mutant states the same game as the rules under another reading of a
   point whose fragments change the same rule (the same rules in force, or no difference found
   the way step 1 looks for one).
4. Otherwise a **silence**: the texts let the rule be read this way too, and no point asks, shown
   on a table where the two play differently (witness.py, at most ten moves to set up). Where no
   table shows it (the deal, the short tricks, small tables played out, seeded matches), the
   difference lies only where play does not go (a play while a single player is left in the
   trick, which the passes have already ended): "equivalent in play", counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ....engine.interpreter import SpecEngine
from ....spec import Ruleset, Spec, SpecError
from ....spec.lang import schema as S
from ....spec.lang.compile import Program, RuleError
from ....spec.words import words_of
from ....spec.words_model import Words
from ...findings import ModelLimit
from ...impact.measure import measure
from ...impact.witnesses import WORDS as WITNESS_WORDS
from ...oracles.z3model import (
    LEAD,
    Model,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    loop_bounds,
    outcome_differs,
)
from ..oracle import Kill, contradictions
from ..play_invariants import play_violation
from .hooks import Hooks
from .operators import RuleMutant, mutant_ruleset
from .witness import Found, rule_witness

#: The slots whose parts the Z3 model's decision of a play reads.
MODELLED = frozenset({"ranks", "pile", "lead", "overwrite", "add"})

#: What a mutant is, in the order they are counted.
VERDICTS: tuple[str, ...] = (
    "equivalent",
    "equivalent_in_play",
    "killed",
    "already_asked",
    "silence",
    "broken",
)


@dataclass(frozen=True)
class Verdict:
    """What one mutant is, and why: the clause that kills it, the point that asks it, or how it
    was found equivalent or different."""

    mutant: RuleMutant
    verdict: str
    why: str
    clause: str | None = None
    point: str | None = None
    found: Found | None = None  # a silence's witness


@dataclass(frozen=True)
class Budget:
    """How hard a mutant is tried: seeded matches per player count for the parts the Z3 model
    does not read, and Z3's resource limit per question (a count, never a clock)."""

    matches: int
    invariant_matches: int
    rlimit: int


def _modelled(ruleset: Ruleset, mutant: RuleMutant) -> bool:
    rule = next(r for r in ruleset.rules if r.id == mutant.rule)
    if rule.does in MODELLED:
        return True
    return rule.does == "trick_end" and rule.field("after") == "play"


class _Side:
    """One rule set's decision over the shared symbolic situation (built once per rule set and
    bounds: the rules' side of every mutant's question)."""

    def __init__(self, ruleset: Ruleset, maxk: int, maxn: int) -> None:
        self.model = Model(Z3Alg(), Params.of(ruleset), Readings.of_ruleset(ruleset), maxk, maxn)
        self.sit = SymSituation.fresh("", maxk)
        mover, in_trick, left, others = z3.Ints("mover in_trick cards_left others_in")
        sit = self.sit
        self.trick = {"mover": mover, "in_trick": in_trick, "cards_left": left, "others_in": others}
        self.domain = [
            *sit.domain(self.model),
            mover >= 0,
            mover < sit.players,
            in_trick >= 1,
            in_trick <= sit.players,
            left >= 0,
            left <= maxn * 4,
            others >= 0,
            others < sit.players,
            z3.Implies(sit.action == LEAD, in_trick == sit.players),
        ]
        self.out = self.model.decide(
            sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8, **self.trick
        )


_SIDES: dict[tuple[str, tuple[tuple[str, str], ...], int, int], _Side] = {}


def _side(ruleset: Ruleset, maxk: int, maxn: int, keep: bool) -> _Side:
    key = (ruleset.rules_digest, ruleset.reading_items, maxk, maxn)
    found = _SIDES.get(key)
    if found is None:
        found = _Side(ruleset, maxk, maxn)
        if keep:
            _SIDES[key] = found
    return found


def _z3_differs(a: Ruleset, b: Ruleset, rlimit: int) -> bool:
    """Whether some situation of the bounded domain is decided differently under a (the rules, or
    the rules under another reading) and b (a mutant): False is a proof that they are the same
    there. ModelLimit where the model cannot take either."""
    ak, an = loop_bounds(a)
    bk, bn = loop_bounds(b)
    maxk, maxn = max(ak, bk), max(an, bn)
    side_a = _side(a, maxk, maxn, keep=True)
    side_b = _side(b, maxk, maxn, keep=False)
    solver = side_a.model.solver(rlimit)
    solver.add(*side_a.domain, *side_b.domain)
    solver.add(outcome_differs(side_a.out, side_b.out))
    return bool(solver.check() == z3.sat)


#: The most inputs a part is probed on; past it the part is compared by play.
MAX_PROBE = 200_000


def _int_ceiling(values: dict[str, Any]) -> int:
    """One more than the largest number the parameters hold (a score to reach, a hand size, a
    card's points): counts compared with them are probed up to it."""
    top = 0
    for value in values.values():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            top = max(top, value)
        elif isinstance(value, dict):
            top = max([top, *(v for v in value.values() if isinstance(v, int) and not isinstance(v, bool))])
    return top + 1


def _domain(name: str, typ: str, program: Program, piles: Sequence[Any], ceiling: int) -> list[Any] | None:
    """The values a name of a part is probed with, or None where there are too many to list."""
    if name == "players":
        return [program.players]
    if typ == S.SEAT:
        return list(range(program.players))
    if typ == S.INT:
        return list(range(ceiling + 1))
    if typ == S.BOOL:
        return [False, True]
    if typ == S.RANK:
        return list(program.ranks)
    if typ == S.ACTION:
        return list(S.ACTIONS[:3])
    if typ == S.KIND:
        return list(program.kinds)
    if typ == S.PILE:
        return list(piles)
    if typ == S.CARDS:
        # Hands and placed cards of up to two cards: a count or a rank read from them shows there.
        ranks = program.ranks
        return [(), *((r,) for r in ranks), *((a, b) for i, a in enumerate(ranks) for b in ranks[i:])]
    return None


def _probe_differs(a: Ruleset, b: Ruleset, mutant: RuleMutant) -> bool | None:
    """Whether the mutated rule's parts answer differently on some input of a bounded domain (every
    player count, seat, rank, kind, action and pile; counts up to one past the largest parameter;
    cards of up to two), or None where that domain is too large to list (over MAX_PROBE inputs)."""
    for players in range(a.players_min, a.players_max + 1):
        pa, pb = a.program(players), b.program(players)
        rule_a = next(r for r in pa.rules if r.id == mutant.rule)
        rule_b = next(r for r in pb.rules if r.id == mutant.rule)
        piles = SpecEngine(a, players).placeable_piles()
        ceiling = _int_ceiling(pa.values)
        for part, spec_part in S.SLOTS[rule_a.does].parts.items():
            if rule_a.part(part) is None:
                continue
            names = sorted(set(pa.free_names(rule_a, part)) | set(pb.free_names(rule_b, part)))
            values = []
            for n in names:
                listed = _domain(n, spec_part.names[n], pa, piles, ceiling)
                if listed is None:
                    return None
                values.append(listed)
            if prod(len(v) for v in values) > MAX_PROBE:
                return None
            fa, fb = pa.fn(rule_a, part), pb.fn(rule_b, part)
            for combo in product(*values):
                env = dict(zip(names, combo, strict=True))
                env["players"] = players
                if _answer(fa, env) != _answer(fb, env):
                    return True
    return False


def _answer(fn: Any, env: dict[str, Any]) -> Any:
    try:
        return fn(env)
    except (RuleError, ArithmeticError, IndexError) as error:  # an input the rule cannot take
        return type(error)


def _plays_differ(a: Ruleset, b: Ruleset, players: Sequence[int], matches: int, seed: int) -> bool:
    for p in players:
        counts = measure(a, {"b": (b, ("a", "b"))}, p, range(matches), base_seed=seed)["b"]
        if counts.affected:
            return True
    return False


#: The check (rules/check.py), whose words (`discovery.rules`) say each verdict's why.
NAME = "discovery.rules"

#: How a mutant was compared with the rules (see `_differs`), each the name of its words in the
#: words file (`discovery.rules`).
SAME_RULES = "same_rules"
BY_Z3 = "by_z3"
BY_PROBE = "by_probe"
BY_PLAY = "by_play"


def _differs(
    a: Ruleset, b: Ruleset, mutant: RuleMutant, modelled: bool, budget: Budget, seed: int
) -> tuple[bool, str]:
    """Whether a and b play differently, and how that was decided: over a bounded domain (Z3, or
    every input of the mutated rule's parts: a proof there) or in seeded matches (not one)."""
    if a.rules_digest == b.rules_digest:
        return False, SAME_RULES
    if modelled:
        try:
            return _z3_differs(a, b, budget.rlimit), BY_Z3
        except ModelLimit:
            pass
    probed = _probe_differs(a, b, mutant)
    if probed is not None:
        return probed, BY_PROBE
    players = range(a.players_min, a.players_max + 1)
    return _plays_differ(a, b, players, budget.matches, seed), BY_PLAY


def killed_by(mutant: Ruleset, budget: Budget, seed: int) -> Kill | None:
    """The clause that kills the rules of `mutant` and why: a question of the texts at any player
    count, else a play invariant citing a clause over seeded matches. Raises SpecError (EndlessPlay
    too) or RuleError where the rules cannot be played."""
    engines = [SpecEngine(mutant, p) for p in range(mutant.players_min, mutant.players_max + 1)]
    for engine in engines:
        for kill in contradictions(Hooks(engine)):  # type: ignore[arg-type]  # Hooks answers as a Game
            if kill.clause is not None:
                return kill
    for engine in engines:
        broken = play_violation(engine, seed, budget.invariant_matches)  # type: ignore[arg-type]
        if broken is not None and broken.clause is not None:
            return broken
    return None


def kill_words(kill: Kill, words: Words) -> str:
    """Why a kill killed, in `words`: the question or invariant and its answer."""
    return words.check(NAME)("kill", by=kill.by, said=kill.said.text(words))


def _points_of(spec: Spec, rule: str) -> list[str]:
    """The points whose fragments change `rule`, in the spec's order."""
    book = spec.rulebook
    if book is None:
        return []
    out: list[str] = []
    for f in book.fragments:
        if f.point in spec.variation_points and f.point not in out and any(r == rule for r, _ in f.changes):
            out.append(f.point)
    return out


def classify(spec: Spec, ruleset: Ruleset, mutant: RuleMutant, budget: Budget, seed: int) -> Verdict:
    """What `mutant` of `ruleset`'s rules is (see the module's docstring)."""
    words = words_of(spec)
    say = words.check(NAME)
    changed = mutant_ruleset(ruleset, mutant)
    modelled = _modelled(ruleset, mutant)
    try:
        differs, how = _differs(ruleset, changed, mutant, modelled, budget, seed)
        if not differs:
            if how == BY_PLAY:
                return Verdict(
                    mutant,
                    "equivalent_in_play",
                    say("no_difference_in", matches=budget.matches, how=say(how)),
                )
            return Verdict(mutant, "equivalent", say("no_difference_over", how=say(how)))
        kill = killed_by(changed, budget, seed)
        if kill is not None:
            return Verdict(mutant, "killed", kill_words(kill, words), clause=kill.clause)
        for point in _points_of(spec, mutant.rule):
            for reading in spec.variation_points[point].playable:
                if reading == ruleset.readings.get(point):
                    continue
                try:
                    other = spec.with_readings(ruleset, {point: reading})
                except SpecError:
                    continue
                if not _differs(other, changed, mutant, modelled, budget, seed)[0]:
                    return Verdict(
                        mutant, "already_asked", say("plays_as", point=point, reading=reading), point=point
                    )
        texts = words.rule_mutations
        labels = (texts.printed, texts.mutant) if texts is not None else ("rules", "mutant")
        found = rule_witness(ruleset, changed, labels, seed, say=words.check(WITNESS_WORDS))
    except (RuleError, SpecError) as error:
        return Verdict(mutant, "broken", say("broken", error=error))
    if found is None:
        return Verdict(mutant, "equivalent_in_play", say("no_table"))
    return Verdict(mutant, "silence", say("silence"), found=found)


def counts(verdicts: Iterable[Verdict]) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    """The verdicts counted per rule and per operator."""
    per_rule: dict[str, Counter[str]] = {}
    per_operator: dict[str, Counter[str]] = {}
    for v in verdicts:
        per_rule.setdefault(v.mutant.rule, Counter())[v.verdict] += 1
        per_operator.setdefault(v.mutant.operator, Counter())[v.verdict] += 1
    return per_rule, per_operator
