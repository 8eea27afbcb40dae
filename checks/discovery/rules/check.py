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
from functools import cache

from ....engine.engines import rules_apart
from ....spec import Ruleset, Spec, embedded_spec
from ....spec.lang.rulebook import rules_digest
from ....spec.words import words_of
from ...findings import (
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Level,
    MutantTally,
    Severity,
    kind_severity,
)
from . import TOPIC_PREFIX
from .classify import NAME, VERDICTS, Budget, Verdict, classify, counts
from .operators import OPERATORS, RuleMutant, mutants

#: The verdicts whose mutants the result names one by one.
NAMED = ("silence", "already_asked", "broken")

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


def silence_finding(spec: Spec, ruleset: Ruleset, verdict: Verdict) -> Finding:
    """The finding of a silence: the rules as stated against the rules read as the mutant reads
    them, with a table where they play differently (witness.py). Its words are the words file's
    (`rule_mutations`); a rule the spec states otherwise than the embedded spec gets none of its
    rule words (they describe the embedded rule), nor does a words file without the section."""
    mutant, found = verdict.mutant, verdict.found
    words = words_of(spec)
    texts = words.rule_mutations
    stated = next((r for r in spec.rules if r.id == mutant.rule), None)
    cites = tuple(c for c in (stated.cites if stated else ()) if c in spec.clauses)
    own = (
        texts.rules.get(mutant.rule) if texts is not None and _as_worded(spec, ruleset, mutant.rule) else None
    )
    detail = mutant.name
    if texts is not None and words.mutation_texts is not None:
        detail = texts.detail.format(
            name=own.name
            if own is not None and own.name
            else words.clause_name(cites[0])
            if cites
            else mutant.rule,
            operator=texts.operators.get(mutant.operator, mutant.operator),
            players=str(found.players) if found is not None else "",
            found=words.mutation_texts.found.get(found.found, found.found) if found is not None else "",
        )
    return Finding(
        id=f"rules.{mutant.name}",
        kind=FindingKind.SILENCE,
        # Without words for the rule, its statement in the spec (the designer's own sentence).
        title=own.title
        if own is not None
        else (stated.statement if stated and stated.statement else mutant.rule),
        clauses=cites,
        detail=detail,
        check=NAME,
        severity=kind_severity(spec, FindingKind.SILENCE, Severity.MEDIUM),
        players=found.players if found is not None else None,
        witness=found.witness if found is not None else None,
        proposed_wording=own.wording.get("en") if own is not None else None,
        topic=TOPIC_PREFIX + mutant.rule,
    )


def _as_worded(spec: Spec, ruleset: Ruleset, rule_id: str) -> bool:
    """Whether the rule in force is the rule the words file's words describe: the embedded spec's,
    under its default profile (the same tree), and the spec states it as the embedded one does."""
    if rules_apart(ruleset).among([rule_id]):
        return False
    ours = next((rules_digest((r,)) for r in ruleset.rules if r.id == rule_id), None)
    return ours is not None and _default_digests().get(rule_id) == ours


@cache
def _default_digests() -> dict[str, str]:
    """Each rule's digest as the embedded spec's default profile states it (asked per silence)."""
    return {r.id: rules_digest((r,)) for r in embedded_spec().ruleset().rules}


def check_rule_mutants(ctx: CheckContext) -> CheckResult:
    started = time.perf_counter()
    every = mutants(ctx.ruleset)
    chosen = ctx.share(selected(every, ctx.level, ctx.seed))
    budget = BUDGETS[ctx.level]
    verdicts = [classify(ctx.spec, ctx.ruleset, m, budget, ctx.seed) for m in chosen]
    rule_order = tuple(r.id for r in ctx.ruleset.rules)
    return CheckResult(
        name=NAME,
        title=ctx.words.check(NAME).title,
        seconds=time.perf_counter() - started,
        mutants=len(verdicts),
        proofs=sum(1 for v in verdicts if v.verdict == "equivalent"),
        examined=len(verdicts),
        tally=tally_of(len(every), verdicts, rule_order),
        findings=tuple(silence_finding(ctx.spec, ctx.ruleset, v) for v in verdicts if v.verdict == "silence"),
    )
