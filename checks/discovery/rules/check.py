"""The check `discovery.rules`: mutants of the rules themselves, each classified.

Level deep classifies every mutant operators.py generates from the rules in force; levels quick
and ci a fixed selection drawn with the run's seed (`SELECTION`), so a run is the same on every
machine. The result counts the verdicts per rule and per operator, and names every silence, every
already-asked mutant and every mutant that leaves the rules unplayable.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ...findings import CheckContext, CheckResult, Level, MutantTally
from .classify import VERDICTS, Budget, Verdict, classify, counts
from .operators import OPERATORS, RuleMutant, mutants

NAME = "discovery.rules"
#: The verdicts whose mutants the result names one by one.
NAMED = ("silence", "already_asked", "broken")
TITLE = "Mutants of the rules: every part of every rule under generic operators, each classified"

#: How many mutants a level classifies (None: all of them).
SELECTION: dict[Level, int | None] = {"quick": 2, "ci": 6, "deep": None}

BUDGETS: dict[Level, Budget] = {
    "quick": Budget(matches=2, invariant_matches=1, rlimit=20_000_000),
    "ci": Budget(matches=3, invariant_matches=1, rlimit=20_000_000),
    "deep": Budget(matches=4, invariant_matches=2, rlimit=20_000_000),
}


def selected(every: list[RuleMutant], level: Level, seed: int) -> list[RuleMutant]:
    """The level's mutants, in generation order: all at deep, else a seeded draw."""
    size = SELECTION[level]
    if size is None or size >= len(every):
        return every
    chosen = set(random.Random(f"rules:{seed}").sample(range(len(every)), size))
    return [m for i, m in enumerate(every) if i in chosen]


def _ordered(
    rows: dict[str, Counter[str]], order: tuple[str, ...]
) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    keys = sorted(rows, key=lambda k: order.index(k) if k in order else len(order))
    return tuple((k, tuple((v, rows[k][v]) for v in VERDICTS if rows[k][v])) for k in keys)


def tally_of(every: int, verdicts: list[Verdict], rule_order: tuple[str, ...]) -> MutantTally:
    per_rule, per_operator = counts(verdicts)
    return MutantTally(
        generated=every,
        classified=len(verdicts),
        per_rule=_ordered(per_rule, rule_order),
        per_operator=_ordered(per_operator, OPERATORS),
        named=tuple((v.verdict, v.mutant.name, v.why) for v in verdicts if v.verdict in NAMED),
    )


def check_rule_mutants(ctx: CheckContext) -> CheckResult:
    started = time.perf_counter()
    every = mutants(ctx.ruleset)
    chosen = ctx.share(selected(every, ctx.level, ctx.seed))
    budget = BUDGETS[ctx.level]
    verdicts = [classify(ctx.spec, ctx.ruleset, m, budget, ctx.seed) for m in chosen]
    rule_order = tuple(r.id for r in ctx.ruleset.rules)
    return CheckResult(
        name=NAME,
        title=TITLE,
        seconds=time.perf_counter() - started,
        mutants=len(verdicts),
        proofs=sum(1 for v in verdicts if v.verdict == "equivalent"),
        examined=len(verdicts),
        tally=tally_of(len(every), verdicts, rule_order),
    )
