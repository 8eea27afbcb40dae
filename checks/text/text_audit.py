"""The text audit: findings read off the spec's own data, without playing a card.

- kind "defect": every damaged source text and every damaged clause the spec records.
- kind "gap": every parameter and variation point the spec marks `in_text: false`: things play
  needs that neither text defines (point values, hand size, who leads first, ...).
- kind "mismatch": where the German and the Spanish text say different things. The known
  differences are the words file's `mismatches` (spec/535.words.yaml), phrase pairs; a mismatch is
  reported only while both phrases are still in the spec's clauses, so a corrected house-rules copy
  of the spec no longer shows it. A clause that exists in one language only is a mismatch too.

Every finding carries a proposed rulebook sentence and the evidence ids the spec cites for it, and
its severity, all from the words file. A finding that is not one variation point carries its own two
alternatives (`Finding.alternative`) and, where it concerns play, the table situation it is about,
played by the engine under check and by the other alternative's engine, as its witness.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace

from ...engine import Game
from ...spec import Ruleset, Spec
from ...spec.words import words_of
from ...spec.words_model import CheckWords, Use, Words
from ..findings import (
    OPEN,
    Alternative,
    CheckContext,
    CheckResult,
    EngineFactory,
    Finding,
    FindingKind,
    Severity,
    point_readings,
    point_status,
)
from ..impact.alternatives import from_words
from ..impact.scenes import scene_witness, skipped_scenes

CHECK_NAME = "text_audit"


def _silent(spec: Spec, say: CheckWords, many: str, one: str) -> str:
    """That the texts do not say it: sentence `many` of 535's two ("neither text says"), `one` of a
    single text ("the text does not say")."""
    return say(many if len(spec.sources) > 1 else one)


def _alternative(words: Words, use: Use | None, ruleset: Ruleset, **blanks: str) -> Alternative | None:
    if use is None or use.alternative is None:
        return None
    return from_words(words, use.alternative.name, ruleset, scene=use.scene, blanks=blanks)


def defect_findings(spec: Spec, ruleset: Ruleset, words: Words) -> list[Finding]:
    say = words.check(CHECK_NAME)
    out: list[Finding] = []
    for code, source in sorted(spec.sources.items()):
        for n, text in enumerate(source.defects, start=1):
            damaged = tuple(c.id for c in spec.clauses.values() if c.defect and c.text(code) is not None)
            use = words.defect_sources.get(code)
            out.append(
                Finding(
                    id=f"defect.source.{code}.{n}",
                    kind=FindingKind.DEFECT,
                    title=say("defect_source", language=source.language, file=source.file.name),
                    clauses=damaged,
                    detail=text,
                    check=CHECK_NAME,
                    severity=Severity(words.defects.severity),
                    alternative=_alternative(words, use, ruleset),
                    proposed_wording=words.template("defect_source", language=source.language),
                    status=OPEN,
                )
            )
    for clause in spec.clauses.values():
        if not clause.defect:
            continue
        intact = clause.de if clause.de else clause.es
        use = words.defect_clauses.get(clause.id)
        out.append(
            Finding(
                id=f"defect.{clause.id}",
                kind=FindingKind.DEFECT,
                title=say("defect_clause", clause=clause.id),
                clauses=(clause.id,),
                detail=clause.defect,
                check=CHECK_NAME,
                severity=Severity(use.severity if use else words.defects.severity),
                alternative=_alternative(words, use, ruleset),
                proposed_wording=words.template("defect_clause", intact=intact or ""),
                status=OPEN,
            )
        )
    return out


def _gap_severity(words: Words, subject: str) -> Severity:
    use = words.gaps.get(subject)
    return Severity(use.severity) if use else Severity.MEDIUM


def gap_findings(spec: Spec, ruleset: Ruleset, words: Words) -> list[Finding]:
    say = words.check(CHECK_NAME)
    out: list[Finding] = []
    # The blanks of a parameter's alternative (the point table's): the same for every parameter.
    table = points_by_value(ruleset.ranks, dict(ruleset.point_items))
    # A game without a point table (scored otherwise) values no rank most.
    most = max((p for _, p in ruleset.point_items), default=None)
    valued = " and ".join(str(r) for r, p in ruleset.point_items if p == most)
    above_highest = str(max(ruleset.ranks) + 1)
    for param in spec.parameters.values():
        if param.in_text:
            continue
        related = "deal" if param.name == "hand_size" and "deal" in spec.variation_points else None
        name = param.name.replace("_", " ")
        out.append(
            Finding(
                id=f"gap.parameter.{param.name}",
                kind=FindingKind.GAP,
                title=say(
                    "gap_parameter",
                    name=name,
                    silent=_silent(spec, say, "neither_gives", "one_does_not_give"),
                ),
                # A value no clause mentions is shown against the clauses of the point it feeds.
                clauses=param.cites or (spec.variation_points[related].cites if related else ()),
                detail=param.explain,
                check=CHECK_NAME,
                severity=_gap_severity(words, param.name),
                variation_point=related,
                alternative=None
                if related
                else _alternative(
                    words,
                    words.gaps.get(param.name),
                    ruleset,
                    points=table,
                    most_valued=valued,
                    above_highest=above_highest,
                ),
                evidence=param.evidence,
                proposed_wording=words.wording(param.name)
                or (words.wording(related) if related else None)
                or words.template("parameter", name=name, value=str(param.value)),
                status=point_status(spec, ruleset, related) if related else OPEN,
            )
        )
    for vp in spec.variation_points.values():
        if vp.in_text:
            continue
        out.append(
            Finding(
                id=f"gap.point.{vp.name}",
                kind=FindingKind.GAP,
                title=say("gap_point", question=vp.question),
                clauses=vp.cites,
                detail=say(
                    "gap_point_detail",
                    silent=_silent(spec, say, "neither_says", "one_does_not_say"),
                    rationale=vp.rationale,
                ),
                check=CHECK_NAME,
                severity=_gap_severity(words, vp.name),
                variation_point=vp.name,
                readings=point_readings(spec, vp.name),
                evidence=vp.evidence,
                proposed_wording=proposal_for_point(spec, words, vp.name),
                status=point_status(spec, ruleset, vp.name),
            )
        )
    return out


def mismatch_findings(spec: Spec, ruleset: Ruleset, words: Words) -> list[Finding]:
    say = words.check(CHECK_NAME)
    out: list[Finding] = []
    for m in words.mismatches:
        clause = spec.clauses.get(m.clause)
        if clause is None or clause.de is None or clause.es is None:
            continue
        if not (re.search(m.de_pattern, clause.de) and re.search(m.es_pattern, clause.es)):
            continue
        point = m.variation_point if m.variation_point in spec.variation_points else None
        vp = spec.variation_points[point] if point else None
        alt = None
        if point is None and m.alternative is not None:
            alt = from_words(words, m.alternative.name, ruleset, scene=m.scene)
        out.append(
            Finding(
                id=f"mismatch.{m.key}",
                kind=FindingKind.MISMATCH,
                title=m.title,
                clauses=(m.clause,),
                detail=say("mismatch_detail", german=m.de_quote, spanish=m.es_quote, detail=m.detail),
                check=CHECK_NAME,
                severity=Severity(m.severity),
                variation_point=point,
                readings=point_readings(spec, point) if point else {},
                alternative=alt,
                evidence=vp.evidence if vp else (),
                proposed_wording=m.wording,
                status=point_status(spec, ruleset, point),
            )
        )
    for clause in spec.clauses.values():
        if (clause.de is None) == (clause.es is None):
            continue
        german, spanish = say("german"), say("spanish")
        present, missing = (german, spanish) if clause.de is not None else (spanish, german)
        out.append(
            Finding(
                id=f"mismatch.only_one_text.{clause.id}",
                kind=FindingKind.MISMATCH,
                title=say("only_one_text", clause=clause.id, present=present),
                clauses=(clause.id,),
                detail=say("only_one_text_detail", missing=missing, present=present),
                check=CHECK_NAME,
                severity=Severity(words.only_one_text.severity),
                alternative=_alternative(words, words.only_one_text, ruleset, clause=clause.id),
                proposed_wording=words.template(
                    "only_one_text", missing=missing, passage=clause.de or clause.es or ""
                ),
                status=OPEN,
            )
        )
    return out


def with_scene(finding: Finding, engine: EngineFactory = Game) -> Finding:
    """A finding with alternatives of its own gets the table situation it is about, played by
    `engine` (the engine under check) and by the other alternative's engine, as its witness."""
    if finding.alternative is None or finding.witness is not None:
        return finding
    witness = scene_witness(finding.alternative, engine)
    return replace(finding, witness=witness) if witness else finding


def text_audit(spec: Spec, ruleset: Ruleset, engine: EngineFactory = Game) -> tuple[Finding, ...]:
    """Every text finding, in a stable order: defects, gaps, mismatches."""
    words = words_of(spec)
    found = (
        *defect_findings(spec, ruleset, words),
        *gap_findings(spec, ruleset, words),
        *mismatch_findings(spec, ruleset, words),
    )
    return tuple(with_scene(f, engine) for f in found)


def check_text_audit(ctx: CheckContext) -> CheckResult:
    """The text audit as a check for the runner."""
    start = time.perf_counter()
    findings = text_audit(ctx.spec, ctx.ruleset, ctx.engine)
    words = ctx.words
    say = words.check(CHECK_NAME)
    return CheckResult(
        name=CHECK_NAME,
        title=say.title,
        seconds=time.perf_counter() - start,
        exhaustive=len(ctx.spec.clauses),
        findings=findings,
        notes=(
            say(
                "read",
                clauses=len(ctx.spec.clauses),
                parameters=len(ctx.spec.parameters),
                points=len(ctx.spec.variation_points),
                known=len(words.mismatches),
            ),
            # The words file's scenes this spec cannot supply: the findings they would show go without.
            *skipped_scenes(ctx.spec, words, ctx.ruleset),
        ),
    )


def proposal_for_point(spec: Spec, words: Words, point: str) -> str | None:
    """A rulebook sentence that settles variation point `point`: the words file's, else the
    default reading's own explanation."""
    vp = spec.variation_points.get(point)
    if vp is None:
        return None
    return words.wording(point) or vp.readings[vp.default]


def points_by_value(ranks: tuple[int, ...], points: dict[int, int]) -> str:
    """A point table as a designer reads it, ranks grouped by their value, cheapest first, and
    three or more neighbouring ranks of the deck as a span: "1–5: 1; 7, 9: 2; 11–15: 3; 8: 5"."""
    groups: list[str] = []
    for value in sorted(set(points.values())):
        spans: list[list[int]] = []
        for i, rank in enumerate(ranks):
            if points.get(rank) != value:
                continue
            if spans and ranks.index(spans[-1][-1]) == i - 1 and spans[-1][-1] + 1 == rank:
                spans[-1].append(rank)
            else:
                spans.append([rank])
        parts = [f"{s[0]}–{s[-1]}" if len(s) >= 3 else ", ".join(map(str, s)) for s in spans]
        groups.append(f"{', '.join(parts)}: {value}")
    return "; ".join(groups)
