"""The text against itself: the texts' own examples and numbers as Z3 constraints, checked against
every reading of the points they touch and against the spec's parameters.

Every constraint is asserted with `assert_and_track` under a label: a clause id for what a text says
("pile.run", "trick.end.set@es" where the two texts differ), `parameters.<name>` for a value of the
spec, `reading:<point>=<reading>` for a chosen reading. An unsat result is a contradiction, reported
with its (minimised) unsat core, and the core's labels are mapped to the clause ids they cite. The
parameters are symbolic and pinned by tracked equalities, so a user's spec whose entries contradict
each other (a closing size above the copies, points that do not make the 8 worth the most, ...) is
reported the same way, naming the spec entries in conflict.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from ...spec import Ruleset, Spec
from ...spec.words_model import Words
from ..findings import (
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    point_status,
    profile_status,
    readings_of,
)
from ..impact.alternatives import readings_alternative
from ..oracles.z3model import memo_check
from .examples import EXAMPLES, TEXT_PAIRS, Example
from .labels import Label, ParameterPin, ReadingPin, Stated, names, readings_in
from .tracked import Tracked, combos

NAME = "text_examples"


# A proven German/Spanish conflict is a mismatch between the two texts: the words file's mismatch
# whose `pair` is the clause says which variation point carries it and the sentence that would
# settle it, and its id is the text audit's for the same mismatch (text_audit.py), so that a
# run that makes both keeps one section: the runner keeps the first finding of an id, and this proof
# (with its unsat core) runs first.


def clauses_of(spec: Spec, labels: Iterable[Label]) -> tuple[str, ...]:
    """The clause ids a core's labels stand for."""
    out: set[str] = set()
    by_id = {e.id: e for e in EXAMPLES}
    for label in labels:
        if isinstance(label, ParameterPin):
            if label.name in spec.parameters:
                out.update(spec.parameters[label.name].cites)
        elif isinstance(label, ReadingPin):
            if label.point in spec.variation_points:
                out.update(spec.variation_points[label.point].cites)
        elif label.id in by_id:
            out.add(by_id[label.id].clause)
        elif label.id in spec.clauses:
            out.add(label.id)
    return tuple(sorted(c for c in out if c in spec.clauses))


@dataclass(frozen=True)
class Conflict:
    labels: tuple[str, ...]  # what was checked
    combo: tuple[tuple[str, str], ...]
    core: tuple[Label, ...]


def check_pair(spec: Spec, ruleset: Ruleset, a: Example, b: Example, rlimit: int) -> Conflict | None:
    """Two texts against each other, with the readings and the parameters left free."""
    t = Tracked(spec, ruleset, rlimit)
    for ex in (a, b):
        t.track(ex.id, ex.build(t))
    unsat, core = t.check([a.id, b.id], None)
    return Conflict((a.id, b.id), (), core) if unsat else None


def to_finding(spec: Spec, ruleset: Ruleset, conflict: Conflict, words: Words) -> Finding:
    say = words.check(NAME)
    by_id = {e.id: e for e in EXAMPLES}
    examples = [by_id[label] for label in conflict.labels]
    readings_text = ", ".join(f"{p}={r}" for p, r in conflict.combo)
    chosen = dict(ruleset.reading_items)
    under_ruleset = all(chosen.get(p) == r for p, r in conflict.combo)
    said = "; ".join(say("quoted", example=e.id, quote=say(f"quote.{e.id}")) for e in examples)
    core = ", ".join(names(conflict.core))
    if len(examples) == 2:
        title = say("contradict", first=examples[0].id, second=examples[1].id)
        detail = say("contradict_detail", said=said, core=core)
        suffix = "-".join(e.language or e.id for e in examples)
        pair = next((m for m in words.mismatches if m.pair == examples[0].clause), None)
        fid = f"mismatch.{pair.key}" if pair else f"text.{examples[0].clause}.{suffix}"
        point, wording = (pair.variation_point, pair.wording) if pair else (None, None)
    else:
        point, wording = None, None
        against = (
            say("against_reading", readings=readings_text) if conflict.combo else say("against_parameters")
        )
        title = say("conflicts", example=examples[0].id, against=against)
        detail = say("conflict_detail", said=said, under=readings_text or say("as_written"), core=core)
        fid = f"text.{examples[0].id}" + (
            f".{'.'.join(f'{p}={r}' for p, r in conflict.combo)}" if conflict.combo else ""
        )
    points = sorted({point for point, _ in readings_in(conflict.core)})
    variation_point = point or (points[0] if len(points) == 1 else None)
    kind = FindingKind.MISMATCH if len(examples) == 2 else FindingKind.CONTRADICTION
    return Finding(
        id=fid,
        kind=kind,
        title=title,
        clauses=clauses_of(spec, conflict.core),
        detail=detail,
        check=NAME,
        severity=Severity.HIGH
        if (under_ruleset and conflict.combo) or not conflict.combo
        else Severity.MEDIUM,
        variation_point=variation_point,
        proposed_wording=wording,
        readings=readings_of(spec, conflict.combo),
        # A contradiction of one point shares the point's impact; one of several readings is
        # measured against the rules as played.
        alternative=readings_alternative(
            spec, ruleset, dict(conflict.combo), scene=words.scene_for(NAME, examples[0].id)
        )
        if kind is FindingKind.CONTRADICTION and variation_point is None
        else None,
        status=(
            point_status(spec, ruleset, point)
            if len(examples) == 2
            else profile_status(ruleset, [p for p, _ in conflict.combo], under_ruleset)
        ),
        unsat_core=names(conflict.core),
        texts=tuple(
            dict.fromkeys(
                language
                for label in conflict.core
                if isinstance(label, Stated) and label.id in by_id
                if (language := by_id[label.id].language) is not None
            )
        ),
    )


def text_conflicts(
    spec: Spec, ruleset: Ruleset, rlimit: int, every_reading: bool = True
) -> tuple[list[Conflict], int]:
    conflicts: list[Conflict] = []
    seen: set[tuple[tuple[str, ...], tuple[Label, ...]]] = set()
    queries = 0
    for example in EXAMPLES:
        t = Tracked(spec, ruleset, rlimit)
        t.track(example.id, example.build(t))
        for combo in combos(spec, example.points) if every_reading else [{}]:
            queries += 1
            unsat, core = t.check([example.id], combo)
            got = Conflict((example.id,), tuple(sorted(combo.items())), core) if unsat else None
            if got is None or (got.labels, got.core) in seen:
                continue
            seen.add((got.labels, got.core))
            # Name the conflict by the readings its core needs, not every reading that was swept.
            conflicts.append(Conflict(got.labels, readings_in(got.core), got.core))
    by_id = {e.id: e for e in EXAMPLES}
    for a, b in TEXT_PAIRS:
        queries += 1
        got = check_pair(spec, ruleset, by_id[a], by_id[b], rlimit)
        if got is not None:
            conflicts.append(got)
    return conflicts, queries


def check_text_examples(ctx: CheckContext) -> CheckResult:
    start = time.perf_counter()
    conflicts, queries = memo_check(
        "text_examples",
        ctx,
        lambda: text_conflicts(ctx.spec, ctx.ruleset, ctx.solver_rlimit, ctx.level != "quick"),
    )
    words = ctx.words
    say = words.check(NAME)
    return CheckResult.noted(
        NAME,
        say.title,
        start,
        say(
            "read",
            examples=len(EXAMPLES),
            scope=say("scope_ruleset" if ctx.level == "quick" else "scope_every"),
            pairs=len(TEXT_PAIRS),
            conflicts=len(conflicts),
        ),
        proofs=queries,
        findings=(to_finding(ctx.spec, ctx.ruleset, c, words) for c in conflicts),
    )
