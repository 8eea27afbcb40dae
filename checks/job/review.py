"""The checks' findings made ready to report: one pass, in one direction.

The report job (five35.checks.job.run.report_result) runs the checks, measures the impact of every
variation point and of every finding with an `Alternative` of its own, then calls `review` here,
then simulates the variants; what comes out is a finished `ReportData`. Everything that plays the
engine or decides something happens before it: which section a finding borrows its witness or impact
from, the scene played for a finding whose check proved that no situation exists, the severity of a
variation point no check graded (from its measured impact), the proposed sentence of a finding whose
check proposed none, and the questions: which question of the words file each finding belongs to
(`assign`), and the questions ranked for a designer (`form_questions`), both in questions.py beside
this one; the types it hands on are reviewed.py's. The report (five35.reports.build) only arranges a
ReportData.

A discovered finding (one with a `topic`) belongs first to the question whose `topics` list its
topic. Otherwise a finding belongs to the question of its variation point; else, when it compares
against an engine variant (its `Alternative`), to the question whose `variants` name that engine;
else to the question of the points its readings turn on (the points with a reading other than the
played one, among the points not all of whose readings it lists). A finding that none of these
places stands alone, except a discovered finding (one with a topic): the findings of a topic no
question lists gather into one question of their own (`gathered_questions`), in the generic words of
the words file's `templates.topic_questions` for their kind.

Questions rank by what their answer changes at the table (who wins, how long a match lasts, how
scores spread: five35.checks.impact.outcomes), then severity, then the share of games that go
differently at some step, then open before settled (`form_questions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...spec import Ruleset, Spec
from ...spec.words import questions_of, words_of
from ...spec.words_model import ImpactGrades, QuestionWords, Words
from ..findings import (
    FINDING_KINDS,
    SEVERITIES,
    Alternative,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    Witness,
    point_readings,
    point_status,
)
from ..impact.scenes import scene_witness
from ..text.text_audit import proposal_for_point
from .questions import assign, gathered_questions
from .reviewed import ImpactSource, PointImpact, Reviewed, WitnessSource


def is_point_section(finding: Finding) -> bool:
    """Whether a finding is a variation point's own section (the ambiguity of that point)."""
    return finding.kind is FindingKind.AMBIGUITY and finding.variation_point is not None


def severity_by_impact(grades: ImpactGrades, pi: PointImpact | None) -> Severity:
    """How much a point matters at the table, by the words file's grades: high when it changes most
    games at some player count, low when it (nearly) never does."""
    if pi is None:
        return Severity.MEDIUM
    top = max((row[1] for row in pi.impact.per_players.values()), default=0.0)
    if top < grades.low_share:
        return Severity.LOW
    firsts = {change for c in pi.per_players.values() for change in c.first_change}
    convention = firsts <= set(grades.conventions)
    return Severity.HIGH if top >= grades.high_share and not convention else Severity.MEDIUM


def point_section(
    spec: Spec, words: Words, ruleset: Ruleset, point: str, pi: PointImpact | None = None
) -> Finding:
    """The section of a variation point no check reported on: the spec's own question and readings,
    its severity from the measured impact."""
    vp = spec.variation_points[point]
    say = words.check("oracles")
    return Finding(
        id=f"vp.{point}",
        kind=FindingKind.AMBIGUITY,
        title=vp.question,
        clauses=vp.cites,
        detail=say("section_detail", question=vp.question, default=vp.default, rationale=vp.rationale),
        check="spec",
        severity=severity_by_impact(words.by_impact, pi),
        variation_point=point,
        readings=point_readings(spec, point),
        evidence=vp.evidence,
        status=point_status(spec, ruleset, point),
    )


def collect_findings(
    spec: Spec,
    ruleset: Ruleset,
    results: Sequence[CheckResult],
    impacts: Mapping[str, PointImpact] | None = None,
) -> list[Finding]:
    """The checks' findings (first one of an id wins), plus a section for every variation point no
    check reported on, in a stable order: by kind, then severity, then id."""
    seen: dict[str, Finding] = {}
    for result in results:
        for finding in result.findings:
            seen.setdefault(finding.id, finding)
    covered = {f.variation_point for f in seen.values() if is_point_section(f)}
    words = words_of(spec)
    for point in spec.variation_points:
        if point not in covered:
            section = point_section(spec, words, ruleset, point, (impacts or {}).get(point))
            seen.setdefault(section.id, section)
    kinds = {k: i for i, k in enumerate(FINDING_KINDS)}
    sev = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(seen.values(), key=lambda f: (kinds[f.kind], sev[f.severity], f.id))


def to_measure(findings: Sequence[Finding], impacts: Mapping[str, PointImpact]) -> dict[str, Alternative]:
    """The alternatives of every finding whose impact neither its check nor its variation point
    gives, by finding id: these are measured on their own, over the same seeded games."""
    out: dict[str, Alternative] = {}
    for finding in findings:
        point = finding.variation_point
        if finding.impact is not None or (point is not None and point in impacts):
            continue
        if finding.alternative is not None:
            out[finding.id] = finding.alternative
    return out


def smallest_witness(pi: PointImpact) -> Witness | None:
    """The smallest difference the simulated games showed (fewest cards, then fewest players)."""
    best: tuple[int, int, int] | None = None
    found: Witness | None = None
    for players, c in sorted(pi.per_players.items()):
        if c.witness is None:
            continue
        key = (c.witness.cards, players, c.witness_game)
        if best is None or key < best:
            best, found = key, c.witness
    return found


def proposal(spec: Spec, words: Words, finding: Finding, question: str = "") -> str:
    """The check's sentence, else its question's (`question`: in English, under the rules played),
    else its variation point's, else the words file's template for a finding of its kind: what the
    designer has to decide, in the clauses' own terms."""
    if finding.proposed_wording:
        return finding.proposed_wording
    if question:
        return question
    point = finding.variation_point
    if point is not None:
        sentence = proposal_for_point(spec, words, point)
        if sentence:
            return sentence
    named = ", ".join(finding.clauses) or words.check("oracles")("no_clauses")
    template = {FindingKind.DEAD_CLAUSE: "dead_clause", FindingKind.CONTRADICTION: "contradiction"}
    return words.template(
        template.get(finding.kind, "other"), clauses=named, title=finding.title.rstrip(".?")
    )


def _review_one(
    finding: Finding,
    sections: Mapping[str, Finding],
    impacts: Mapping[str, PointImpact],
    finding_impacts: Mapping[str, PointImpact],
    spec: Spec,
    words: Words,
    question: QuestionWords | None = None,
    readings: Mapping[str, str] | None = None,
) -> Reviewed:
    point = finding.variation_point
    alt = finding.alternative
    pi = impacts.get(point) if point else None
    own = finding_impacts.get(finding.id)
    measured = pi or own
    impact = finding.impact or (measured.impact if measured else None)
    if finding.impact is not None:
        impact_source: ImpactSource | None = ImpactSource.CHECK
    elif pi is not None:
        impact_source = ImpactSource.POINT
    elif own is not None:
        impact_source = ImpactSource.ALTERNATIVES
    else:
        impact_source = None

    witness = finding.witness
    source: WitnessSource | None = WitnessSource.CHECK if witness else None
    section: str | None = None
    check_found: str | None = None
    if witness is not None and witness.cards == 0 and alt is not None:
        # The check proved that no situation exists (a dead clause, a failed property); the closest
        # table situation shows it in cards, played under both alternatives.
        scene = scene_witness(alt)
        if scene is not None:
            check_found = witness.summary
            witness, source = scene, WitnessSource.SCENE
    if witness is None and point is not None:
        own_section = sections.get(point)
        if own_section is not None and own_section is not finding and own_section.witness is not None:
            witness, source, section = own_section.witness, WitnessSource.POINT, own_section.id
    if witness is None and alt is not None:
        witness = scene_witness(alt)
        source = WitnessSource.SCENE if witness else None
    if witness is None and measured is not None:
        witness = smallest_witness(measured)
        source = WitnessSource.SIMULATION if witness else None
    asked = question.wording(readings or {}) if question is not None else ""
    final = replace(
        finding, witness=witness, impact=impact, proposed_wording=proposal(spec, words, finding, asked)
    )
    return Reviewed(
        finding=final,
        point_section=is_point_section(finding),
        question=question.id if question is not None else None,
        witness_source=source,
        witness_section=section,
        check_found=check_found,
        impact_source=impact_source,
        impact_section=_section_id(sections, point) if impact_source is ImpactSource.POINT else None,
        measured=measured if impact is not None and finding.impact is None else None,
    )


def _section_id(sections: Mapping[str, Finding], point: str | None) -> str | None:
    section = sections.get(point) if point is not None else None
    return section.id if section is not None else None


def review(
    spec: Spec,
    ruleset: Ruleset,
    results: Sequence[CheckResult],
    impacts: Mapping[str, PointImpact],
    finding_impacts: Mapping[str, PointImpact],
) -> tuple[Reviewed, ...]:
    """Every finding of the checks (and a section for every variation point), finished for the
    report: its witness, its impact and its proposed sentence, each from where it is best known."""
    findings = collect_findings(spec, ruleset, results, impacts)
    sections: dict[str, Finding] = {}
    for f in findings:
        if is_point_section(f) and f.variation_point is not None:
            sections.setdefault(f.variation_point, f)
    owners = assign(spec, ruleset, findings)
    by_id = {q.id: q for q in (*questions_of(spec), *gathered_questions(spec, ruleset, findings))}
    readings = dict(ruleset.reading_items)
    words = words_of(spec)
    return tuple(
        _review_one(
            f, sections, impacts, finding_impacts, spec, words, by_id.get(owners[f.id] or ""), readings
        )
        for f in findings
    )
