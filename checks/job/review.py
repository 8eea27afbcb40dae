"""The checks' findings made ready to report: one pass, in one direction.

The report job (five35.checks.job.run.report_result) runs the checks, measures the impact of every
variation point and of every finding with an `Alternative` of its own, then calls `review` here,
then simulates the variants; what comes out is a finished `ReportData`. Everything that plays the
engine or decides something happens before it: which section a finding borrows its witness or
impact from, the scene played for a finding whose check proved that no situation exists, the
severity of a variation point no check graded (from its measured impact), the proposed sentence of
a finding whose check proposed none, and the questions: which question of the words file each
finding belongs to (`assign`), and the questions ranked for a designer (`form_questions`). The
report (five35.reports.build) only arranges a ReportData.

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
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ...engine import Game
from ...engine.stats import Stats
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import questions_of, words_of
from ...spec.words_model import LANGUAGES, QuestionWords, RuleWords, Wording, Words
from ..discovery.rules import TOPIC_PREFIX as RULE_TOPIC
from ..findings import (
    FINDING_KINDS,
    SEVERITIES,
    Alternative,
    CheckResult,
    Finding,
    FindingKind,
    Impact,
    ReadingRef,
    Settlement,
    Severity,
    Status,
    Witness,
    point_readings,
    point_status,
)
from ..impact.estimate import estimate_alternatives
from ..impact.measure import ImpactCounts
from ..impact.outcomes import OutcomeChange
from ..impact.scenes import scene_witness
from ..impact.variants import VARIANTS
from ..text.text_audit import proposal_for_point


@dataclass(frozen=True)
class PointImpact:
    """A measured impact and the counts behind it: of a variation point (`subject` is the point),
    or of one finding's alternative (`subject` is the finding's id)."""

    subject: str
    played: str
    compared: str
    impact: Impact
    per_players: Mapping[int, ImpactCounts]


@dataclass(frozen=True)
class Variant:
    """One column of the variant comparison: a ruleset and its stats per player count. A player
    count the ruleset cannot deal is listed in `unplayable` with the reason."""

    label: str
    title: str
    readings: Mapping[str, str]
    stats: Mapping[int, Stats]
    unplayable: Mapping[int, str] = field(default_factory=dict)


class WitnessSource(StrEnum):
    CHECK = "check"  # the check that made the finding drew it
    POINT = "point"  # borrowed from the section of the finding's variation point
    SCENE = "scene"  # the finding's scene, played under both sides of its alternative
    SIMULATION = "simulation"  # the smallest difference seen in the simulated games


class ImpactSource(StrEnum):
    CHECK = "check"
    POINT = "point"  # the finding's variation point's impact
    ALTERNATIVES = "alternatives"  # the finding's own alternative, measured over the same games


@dataclass(frozen=True)
class Reviewed:
    """A finding as the report shows it, with where its witness and impact come from."""

    finding: Finding  # its final severity, witness, impact and proposed sentence
    point_section: bool  # the section of its variation point itself
    question: str | None = None  # the question it belongs to; None: it stands alone
    witness_source: WitnessSource | None = None
    witness_section: str | None = None  # the section a borrowed witness is from
    check_found: str | None = None  # what the check itself found, when a scene replaced its witness
    impact_source: ImpactSource | None = None
    impact_section: str | None = None  # the section a borrowed impact is from
    measured: PointImpact | None = None  # the measurement behind the impact, when this run made it


@dataclass(frozen=True)
class QuestionImpact:
    """How often the answer to a question changes a game: the largest share of affected games at any
    player count, with its 95% interval, and what was measured (a point, or a finding's own
    alternative)."""

    share: float
    players: int
    ci_low: float
    ci_high: float
    subject: str
    # What the answer changes at the table (who wins, how long, how scores spread), measured for
    # the same subject over the same matches; None where it was not measured.
    outcome: OutcomeChange | None = None

    @property
    def effect(self) -> float:
        """The size of the answer's largest real change at the table (0 where none is real)."""
        return self.outcome.effect if self.outcome is not None and self.outcome.real else 0.0

    @property
    def wording_only(self) -> bool:
        """Both answers were played and no simulated game went otherwise: a question of wording."""
        return self.share == 0.0


@dataclass(frozen=True)
class Question:
    """One question a designer settles, with every finding about it (`members`, finding ids: the
    sections of its points first)."""

    words: QuestionWords
    kind: FindingKind
    severity: Severity
    status: Status
    members: tuple[str, ...]
    impact: QuestionImpact | None
    # Silences found by discovery on a topic of a question the words file declares with points:
    # the engine was also checked against them, but they neither rank the question nor settle it.
    also: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.words.id


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows, finished: the report only arranges and renders it."""

    spec: Spec
    ruleset: Ruleset
    results: tuple[CheckResult, ...]
    findings: tuple[Reviewed, ...]
    variants: tuple[Variant, ...]
    games: int
    seed: int
    level: str
    bots: tuple[str, ...]
    mode: str = "match"
    notes: tuple[str, ...] = ()
    questions: tuple[Question, ...] = ()  # ranked: the most consequential first
    standalone: tuple[str, ...] = ()  # the ids of the findings that belong to no question


def is_point_section(finding: Finding) -> bool:
    """Whether a finding is a variation point's own section (the ambiguity of that point)."""
    return finding.kind is FindingKind.AMBIGUITY and finding.variation_point is not None


def severity_by_impact(spec: Spec, pi: PointImpact | None) -> Severity:
    """How much a point matters at the table, by the words file's grades: high when it changes most
    games at some player count, low when it (nearly) never does."""
    if pi is None:
        return Severity.MEDIUM
    grades = words_of(spec).by_impact
    top = max((row[1] for row in pi.impact.per_players.values()), default=0.0)
    if top < grades.low_share:
        return Severity.LOW
    firsts = {change for c in pi.per_players.values() for change in c.first_change}
    convention = firsts <= set(grades.conventions)
    return Severity.HIGH if top >= grades.high_share and not convention else Severity.MEDIUM


def point_section(spec: Spec, ruleset: Ruleset, point: str, pi: PointImpact | None = None) -> Finding:
    """The section of a variation point no check reported on: the spec's own question and readings,
    its severity from the measured impact."""
    vp = spec.variation_points[point]
    return Finding(
        id=f"vp.{point}",
        kind=FindingKind.AMBIGUITY,
        title=vp.question,
        clauses=vp.cites,
        detail=f"{vp.question} The spec's default is {vp.default}: {vp.rationale}",
        check="spec",
        severity=severity_by_impact(spec, pi),
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
    for point in spec.variation_points:
        if point not in covered:
            section = point_section(spec, ruleset, point, (impacts or {}).get(point))
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


def measure_findings(
    alts: Mapping[str, Alternative],
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str],
    jobs: int = 1,
) -> dict[str, PointImpact]:
    measured = estimate_alternatives(alts, ruleset, games, seed, bots, jobs)
    return {
        fid: PointImpact(fid, alts[fid].labels[0], alts[fid].labels[1], impact, per)
        for fid, (impact, per) in measured.items()
    }


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


def proposal(spec: Spec, finding: Finding, question: str = "") -> str:
    """The check's sentence, else its question's (`question`: in English, under the rules played),
    else its variation point's, else the words file's template for a finding of its kind: what the
    designer has to decide, in the clauses' own terms."""
    if finding.proposed_wording:
        return finding.proposed_wording
    if question:
        return question
    point = finding.variation_point
    if point is not None:
        sentence = proposal_for_point(spec, point)
        if sentence:
            return sentence
    words = words_of(spec)
    named = ", ".join(finding.clauses) or "the rule"
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
    final = replace(finding, witness=witness, impact=impact, proposed_wording=proposal(spec, finding, asked))
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
    return tuple(
        _review_one(f, sections, impacts, finding_impacts, spec, by_id.get(owners[f.id] or ""), readings)
        for f in findings
    )


# ---- questions ---------------------------------------------------------------------------------


def _variant_names() -> dict[type[Game], str]:
    return {engine: name for name, engine in VARIANTS.items()}


def points_at_stake(spec: Spec, ruleset: Ruleset, readings: Mapping[ReadingRef, str]) -> list[str]:
    """The points a finding's readings turn on, in the spec's order: of the points it names without
    naming all their readings (a point whose every reading is listed does not matter to it), those
    it names with a reading other than the played one; when it names only played readings, all of
    them."""
    named: dict[str, set[str]] = {}
    for key in readings:
        named.setdefault(key.point, set()).add(key.reading)
    vps = spec.variation_points
    hinge = [p for p in vps if p in named and not set(vps[p].readings) <= named[p]]
    differ = [p for p in hinge if ruleset.reading(p) not in named[p]]
    return differ or hinge


def assign(spec: Spec, ruleset: Ruleset, findings: Sequence[Finding]) -> dict[str, str | None]:
    """The question of every finding (by id), None for a finding that stands alone (the rule is
    in the module's docstring). A variant the words file names that checks/variants.py does not
    have is a SpecError naming its line."""
    out = _words_owners(spec, ruleset, findings)
    for q in gathered_questions(spec, ruleset, findings):
        for f in findings:
            if out[f.id] is None and f.topic in q.topics:
                out[f.id] = q.id
    return out


def _words_owners(spec: Spec, ruleset: Ruleset, findings: Sequence[Finding]) -> dict[str, str | None]:
    """The question of the words file every finding belongs to, None where there is none."""
    questions = questions_of(spec)
    by_point = {p: q.id for q in questions for p in q.points}
    by_variant: dict[str, str] = {}
    words = words_of(spec)
    for q in questions:
        for i, name in enumerate(q.variants):
            if name not in VARIANTS:
                known = ", ".join(sorted(VARIANTS))
                raise SpecError(
                    words.where("questions", q.id, "variants", i),
                    f"names variant {name!r}, which checks/impact/variants.py does not have "
                    f"(variants: {known})",
                )
            by_variant.setdefault(name, q.id)
    by_topic = {t: q.id for q in questions for t in q.topics}
    names = _variant_names()
    out: dict[str, str | None] = {}
    for f in findings:
        if f.topic is not None and f.topic in by_topic:
            out[f.id] = by_topic[f.topic]
        else:
            out[f.id] = _owner(spec, ruleset, f, by_point, by_variant, names)
    return out


TOPIC_QUESTION_PREFIX = "topic."


def gathered_questions(
    spec: Spec, ruleset: Ruleset, findings: Sequence[Finding]
) -> tuple[QuestionWords, ...]:
    """One question per topic of the discovered findings that no question of the words file takes
    (in the order the topics first appear), in the words of `templates.topic_questions` for the kind
    of the topic's first finding; its id is `topic.<topic>`. Its proposed sentence stands after the
    first clause its findings cite (none when they cite no clause of the spec); the English one is
    the first finding's own, when its check wrote one. A topic that is a hook with a family of
    mutants in the words file (`mutations`) takes that family's title, clauses and sentences."""
    words = words_of(spec)
    owners = _words_owners(spec, ruleset, findings)
    by_topic: dict[str, list[Finding]] = {}
    for f in findings:
        if f.topic is not None and owners[f.id] is None and f.kind.value in words.topic_questions:
            by_topic.setdefault(f.topic, []).append(f)
    out: list[QuestionWords] = []
    for topic, members in by_topic.items():
        head = members[0]
        template = words.topic_questions[head.kind.value]
        if topic.startswith(RULE_TOPIC) and "rule_silence" in words.topic_questions:
            template = words.topic_questions["rule_silence"]
        # A hook's family of mutants has its own title, nearest clauses and settling sentence in
        # every language (the words file's `mutations`): better than the generic words.
        family = words.mutations.get(topic)
        nearest = (*(family.clauses if family else ()), *(c for f in members for c in f.clauses))
        cited = next((c for c in nearest if c in spec.clauses), None)
        blanks = {lang: _topic_blanks(spec, head, topic, cited, lang) for lang in LANGUAGES}
        if family is not None:
            for lang in LANGUAGES:
                blanks[lang]["title"] = family.title
        wording = {lang: text.format(**blanks[lang]) for lang, text in template.wording.items()}
        if head.proposed_wording:
            wording["en"] = head.proposed_wording
        if family is not None:
            wording.update({lang: text for lang, text in family.wording.items() if lang in LANGUAGES})
        # A rule's silences (check discovery.rules) have the rule's own sentence in every language,
        # where the check worded them with it (the rule is the one the words describe).
        rule = _rule_words(words, topic) if head.proposed_wording is not None else None
        if rule is not None:
            wording.update({lang: text for lang, text in rule.wording.items() if lang in LANGUAGES})
        out.append(
            QuestionWords(
                id=f"{TOPIC_QUESTION_PREFIX}{topic}",
                title=template.title.format(**blanks["en"]),
                points=(),
                parameters=(),
                variants=(),
                ask={lang: text.format(**blanks[lang]) for lang, text in template.ask.items()},
                readings={},
                # Without a clause to stand after, the sentence is still proposed (at "": no
                # clause, so the rulebooks insert it nowhere).
                wordings=(Wording(at=cited or "", text=wording, when={}),),
                topics=(topic,),
            )
        )
    return tuple(out)


def _rule_words(words: Words, topic: str) -> RuleWords | None:
    if words.rule_mutations is None or not topic.startswith(RULE_TOPIC):
        return None
    return words.rule_mutations.rules.get(topic.removeprefix(RULE_TOPIC))


def _topic_blanks(spec: Spec, head: Finding, topic: str, cited: str | None, language: str) -> dict[str, str]:
    """The blanks of a gathered question's words in one language (TOPIC_QUESTION_BLANKS)."""
    words = words_of(spec)
    if cited is None:
        clause = name = words.topic_no_clause.get(language, "")
    else:
        c = spec.clauses[cited]
        english = words.clauses.get(cited)
        clause = c.text(language) or (english.en if english else cited)
        name = words.clause_name(cited)
    # A clause that is an item of a list in the text starts with its dash: not part of the quote.
    return {
        "title": head.title.rstrip(".?"),
        "topic": topic,
        "clause": " ".join(clause.split()).lstrip("-– "),
        "name": name,
    }


def _owner(
    spec: Spec,
    ruleset: Ruleset,
    finding: Finding,
    by_point: Mapping[str, str],
    by_variant: Mapping[str, str],
    names: Mapping[type[Game], str],
) -> str | None:
    if finding.variation_point is not None and finding.variation_point in by_point:
        return by_point[finding.variation_point]
    alt = finding.alternative
    if alt is not None:
        variant = names.get(alt.compared.engine)
        if variant is not None and variant in by_variant:
            return by_variant[variant]
    for point in points_at_stake(spec, ruleset, finding.readings):
        if point in by_point:
            return by_point[point]
    return None


def _largest(
    per_players: Mapping[int, tuple[int, float, float, float]], subject: str
) -> QuestionImpact | None:
    best: QuestionImpact | None = None
    for players, (_, share, lo, hi) in sorted(per_players.items()):
        if best is None or share > best.share:
            best = QuestionImpact(share, players, lo, hi, subject)
    return best


def _question_impact(
    q: QuestionWords,
    members: Sequence[Reviewed],
    impacts: Mapping[str, PointImpact],
    outcomes: Mapping[str, OutcomeChange],
) -> QuestionImpact | None:
    """The points' measured impact; for a question without points, its findings' own. Of several,
    the one whose answer changes most at the table, then most games."""
    found = [replace(m, outcome=outcomes.get(m.subject)) for m in _measured(q, members, impacts)]
    # A subject whose outcome was compared somewhere says more than one whose other reading could
    # not be dealt where it changes games.
    return max(
        found,
        key=lambda m: (m.effect, m.outcome is not None and bool(m.outcome.per_players), m.share, -m.players),
        default=None,
    )


def _measured(
    q: QuestionWords, members: Sequence[Reviewed], impacts: Mapping[str, PointImpact]
) -> list[QuestionImpact]:
    found: list[QuestionImpact] = []
    for point in q.points:
        if point in impacts:
            measured = _largest(impacts[point].impact.per_players, point)
            if measured is not None:
                found.append(measured)
    if not q.points:
        for r in members:
            if r.finding.impact is not None:
                measured = _largest(r.finding.impact.per_players, r.finding.id)
                if measured is not None:
                    found.append(measured)
    return found


def _question_kind(spec: Spec, q: QuestionWords, members: Sequence[Reviewed]) -> FindingKind:
    """A silence of the text (gap) when its points are all outside the text or, without points, a
    finding under it is a gap; a German/Spanish mismatch when the texts, each read on its own word
    (the literal profiles), answer one of its points differently; a variation point (ambiguity)
    otherwise; without points, the first kind among its findings."""
    kinds = {r.finding.kind for r in members}
    if q.points:
        vps = spec.variation_points
        if all(not vps[p].in_text for p in q.points):
            return FindingKind.GAP
        literal = spec.texts_read_literally
        for point in q.points:
            said = {texts[point] for texts in literal if point in texts}
            if len(said) > 1:
                return FindingKind.MISMATCH
        return FindingKind.AMBIGUITY
    if FindingKind.GAP in kinds:
        return FindingKind.GAP
    return next((k for k in FINDING_KINDS if k in kinds), FindingKind.AMBIGUITY)


def _question_status(spec: Spec, ruleset: Ruleset, q: QuestionWords, members: Sequence[Reviewed]) -> Status:
    """Settled when the played profile settles every point of it on a text or outside evidence; a
    question without points when every finding under it is settled."""
    if q.points:
        statuses = [point_status(spec, ruleset, p) for p in q.points]
        if all(not s.is_open for s in statuses):
            return Status.settled(ruleset.profile, [pair for s in statuses for pair in s.readings])
        return Status()
    if members and all(not r.finding.status.is_open for r in members):
        return members[0].finding.status
    if members and q.texts_point_to_answer:
        return Status.settled(ruleset.profile, [])  # by the texts, which point to the answer
    return Status()


def form_questions(
    spec: Spec,
    ruleset: Ruleset,
    reviewed: Sequence[Reviewed],
    impacts: Mapping[str, PointImpact],
    outcomes: Mapping[str, OutcomeChange] | None = None,
) -> tuple[tuple[Question, ...], tuple[str, ...]]:
    """The questions with findings under them, the most consequential first, and the ids of the
    findings that stand alone. Ranked by what the answer changes at the table (`outcomes`, by
    subject: the size of its largest real change in who wins, how long a match lasts or how scores
    spread; unmeasured last), then severity (`_graded_severity`), then the share of games that go
    differently at some step, then open before settled: the order the report states. A silence on a
    topic of a declared question is `also` checked: it does not count towards the question's
    severity, impact or status."""
    every = (*questions_of(spec), *gathered_questions(spec, ruleset, [r.finding for r in reviewed]))
    order = {q.id: i for i, q in enumerate(every)}
    groups: dict[str, list[Reviewed]] = {}
    standalone: list[str] = []
    for r in reviewed:
        if r.question is None:
            standalone.append(r.finding.id)
        else:
            groups.setdefault(r.question, []).append(r)
    sev = {s: i for i, s in enumerate(SEVERITIES)}
    out: list[Question] = []
    for q in every:
        members = groups.get(q.id)
        if not members:
            continue
        rank_in = {p: i for i, p in enumerate(q.points)}
        also = [r for r in members if _also_checked(q, r)]
        if len(also) < len(members):
            members = [r for r in members if not _also_checked(q, r)]
        else:
            also = []
        members = sorted(
            members,
            key=lambda r: (
                not r.point_section,
                rank_in.get(r.finding.variation_point or "", len(rank_in)),
            ),
        )
        out.append(
            Question(
                words=q,
                kind=_question_kind(spec, q, members),
                severity=min((r.finding.severity for r in members), key=sev.__getitem__),
                status=_question_status(spec, ruleset, q, members),
                members=tuple(r.finding.id for r in members),
                impact=_question_impact(q, members, impacts, outcomes or {}),
                also=tuple(r.finding.id for r in also),
            )
        )
    out = [replace(q, severity=_graded_severity(spec, q)) for q in out]

    def rank(q: Question) -> tuple[int, int, float, int, float, int, int]:
        return (
            1 if q.impact is None else 0,
            # A question of wording comes after every question that changes play, whatever its
            # severity.
            1 if q.impact is not None and q.impact.wording_only else 0,
            -(q.impact.effect if q.impact else 0.0),
            sev[q.severity],
            -(q.impact.share if q.impact else -1.0),
            0 if q.status.settlement is Settlement.OPEN else 1,
            order[q.id],
        )

    ranked = sorted(out, key=rank)
    return tuple(ranked), tuple(standalone)


def question_subjects(
    questions: Sequence[Question], reviewed: Sequence[Reviewed], impacts: Mapping[str, PointImpact]
) -> set[str]:
    """The measured subjects (points, findings) a question can show as its impact: the ones whose
    outcome at the table is worth playing."""
    by_id = {r.finding.id: r for r in reviewed}
    out: set[str] = set()
    for q in questions:
        members = [by_id[f] for f in q.members if f in by_id]
        out.update(m.subject for m in _measured(q.words, members, impacts))
    return out


def _also_checked(q: QuestionWords, r: Reviewed) -> bool:
    """Whether a finding under a question only says the engine was also checked against it: a
    discovered silence on a topic of a question of the words file that has variation points or
    parameters of its own (the question is already asked; the mutant found it again)."""
    declared = bool(q.points or q.parameters) and not q.id.startswith(TOPIC_QUESTION_PREFIX)
    return declared and r.finding.kind is FindingKind.SILENCE and r.finding.topic in q.topics


def _graded_severity(spec: Spec, q: Question) -> Severity:
    """A question's severity, checked against what its answer measurably changes (`_graded_by_share`),
    then against what it changes at the table where both readings were played to the end (the
    words file's `severities.by_outcome`): an answer that clearly changes the outcome takes its
    `clear` severity, one that changes nothing clearly at most `unclear_at_most`."""
    severity = _graded_by_share(spec, q)
    grades = words_of(spec).by_impact
    outcome = q.impact.outcome if q.impact is not None else None
    if outcome is None or not outcome.per_players or grades.clear_outcome is None:
        return severity
    if outcome.real:
        return Severity(grades.clear_outcome)
    cap = Severity(grades.unclear_at_most or severity.value)
    return max(severity, cap, key=SEVERITIES.index)  # the less severe of the two


def _graded_by_share(spec: Spec, q: Question) -> Severity:
    """A question's severity, checked against the share of games its answer changes: one whose answer
    changed no simulated game (a share of 0) is low whatever its findings say; an engine decision or
    a silence whose answer changes most games at some player count (the words file's
    `severities.by_impact.high_share`) is high, one that changes some of them at least medium."""
    if q.impact is None:
        return q.severity
    grades = words_of(spec).by_impact
    if q.impact.share == 0:
        return Severity.LOW
    if q.kind in (FindingKind.DECISION, FindingKind.SILENCE):
        if q.impact.share >= grades.high_share:
            return Severity.HIGH
        if q.impact.share >= grades.low_share and q.severity is Severity.LOW:
            return Severity.MEDIUM
    return q.severity
