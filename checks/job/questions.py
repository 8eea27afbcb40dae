"""The questions of a review (five35.checks.job.review): which question of the words file each
finding belongs to (`assign`), the questions gathered for discovered topics no question lists
(`gathered_questions`), and the questions formed and ranked for a designer (`form_questions`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...engine import Game
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import questions_of, words_of
from ...spec.words_model import LANGUAGES, ImpactGrades, QuestionWords, RuleWords, Wording, Words
from ..discovery.rules import TOPIC_PREFIX as RULE_TOPIC
from ..findings import (
    FINDING_KINDS,
    SEVERITIES,
    Finding,
    FindingKind,
    ReadingRef,
    Settlement,
    Severity,
    Status,
    point_status,
)
from ..impact.outcomes import OutcomeChange
from ..impact.variants import VARIANTS
from .reviewed import PointImpact, Question, QuestionImpact, Reviewed


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
    out = _words_owners(spec, words_of(spec), ruleset, findings)
    for q in gathered_questions(spec, ruleset, findings):
        for f in findings:
            if out[f.id] is None and f.topic in q.topics:
                out[f.id] = q.id
    return out


def _words_owners(
    spec: Spec, words: Words, ruleset: Ruleset, findings: Sequence[Finding]
) -> dict[str, str | None]:
    """The question of the words file every finding belongs to, None where there is none."""
    questions = questions_of(spec)
    by_point = {p: q.id for q in questions for p in q.points}
    by_variant: dict[str, str] = {}
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
    owners = _words_owners(spec, words, ruleset, findings)
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
        blanks = {lang: _topic_blanks(spec, words, head, topic, cited, lang) for lang in LANGUAGES}
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


def _topic_blanks(
    spec: Spec, words: Words, head: Finding, topic: str, cited: str | None, language: str
) -> dict[str, str]:
    """The blanks of a gathered question's words in one language (TOPIC_QUESTION_BLANKS)."""
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
    grades = words_of(spec).by_impact
    out = [replace(q, severity=_graded_severity(grades, q)) for q in out]

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


def _graded_severity(grades: ImpactGrades, q: Question) -> Severity:
    """A question's severity, checked against what its answer measurably changes (`_graded_by_share`),
    then against what it changes at the table where both readings were played to the end (the
    words file's `severities.by_outcome`): an answer that clearly changes the outcome takes its
    `clear` severity, one that changes nothing clearly at most `unclear_at_most`."""
    severity = _graded_by_share(grades, q)
    outcome = q.impact.outcome if q.impact is not None else None
    if outcome is None or not outcome.per_players or grades.clear_outcome is None:
        return severity
    if outcome.real:
        return Severity(grades.clear_outcome)
    cap = Severity(grades.unclear_at_most or severity.value)
    return max(severity, cap, key=SEVERITIES.index)  # the less severe of the two


def _graded_by_share(grades: ImpactGrades, q: Question) -> Severity:
    """A question's severity, checked against the share of games its answer changes: one whose answer
    changed no simulated game (a share of 0) is low whatever its findings say; an engine decision or
    a silence whose answer changes most games at some player count (the words file's
    `severities.by_impact.high_share`) is high, one that changes some of them at least medium."""
    if q.impact is None:
        return q.severity
    if q.impact.share == 0:
        return Severity.LOW
    if q.kind in (FindingKind.DECISION, FindingKind.SILENCE):
        if q.impact.share >= grades.high_share:
            return Severity.HIGH
        if q.impact.share >= grades.low_share and q.severity is Severity.LOW:
            return Severity.MEDIUM
    return q.severity
