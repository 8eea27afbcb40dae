"""The pipeline's handling of discovered findings (issue 13): the findings of a topic no question
lists gather into one question of their own, in the words file's generic words for their kind, in
English, German and Spanish; engine-decision questions rank below the questions whose answer changes
play unless they change more games; silences rank by games changed like any question."""

from __future__ import annotations

from five35.checks.findings import SEVERITIES, Finding, FindingKind, Impact, Severity
from five35.checks.job.questions import assign, form_questions, gathered_questions
from five35.checks.job.reviewed import PointImpact, Question, Reviewed
from five35.spec import load_spec
from five35.spec.words import words_of

SPEC = load_spec()
RULESET = SPEC.ruleset()
WORDS = words_of(SPEC)


def _impact(share: float, players: int = 4) -> Impact:
    games = 200
    return Impact(games, 535, {players: (round(share * games), share, share, share)}, "test")


def _found(
    fid: str,
    kind: FindingKind,
    topic: str | None,
    share: float | None = None,
    clauses: tuple[str, ...] = ("pile.run",),
    wording: str | None = None,
) -> Finding:
    return Finding(
        id=fid,
        kind=kind,
        title=f"Finding {fid}.",
        clauses=clauses,
        detail="",
        check="discovery",
        severity=Severity.MEDIUM,
        topic=topic,
        impact=_impact(share) if share is not None else None,
        proposed_wording=wording,
    )


def _reviewed(findings: list[Finding]) -> list[Reviewed]:
    owners = assign(SPEC, RULESET, findings)
    return [Reviewed(finding=f, point_section=False, question=owners[f.id]) for f in findings]


def test_the_findings_of_an_unlisted_topic_gather_into_one_question() -> None:
    findings = [
        _found("mut.a", FindingKind.SILENCE, "hook:next_seat"),
        _found("mut.b", FindingKind.SILENCE, "hook:next_seat"),
        _found("live.a", FindingKind.LIVENESS, "liveness.test_only", clauses=()),
        _found("plain", FindingKind.SILENCE, None),
    ]
    owners = assign(SPEC, RULESET, findings)
    assert owners["mut.a"] == owners["mut.b"] == "topic.hook:next_seat"
    assert owners["live.a"] == "topic.liveness.test_only"
    assert owners["plain"] is None  # no topic, no point: it stands alone as before
    gathered = {q.id: q for q in gathered_questions(SPEC, RULESET, findings)}
    assert list(gathered) == ["topic.hook:next_seat", "topic.liveness.test_only"]
    q = gathered["topic.hook:next_seat"]
    assert q.topics == ("hook:next_seat",) and q.title == "Finding mut.a"
    # The question and its proposed sentence in the three languages, from the words file; German
    # and Spanish quote the clause in their own text.
    assert set(q.ask) == {"en", "de", "es"}
    clause = SPEC.clauses["pile.run"]
    assert clause.de is not None and " ".join(clause.de.split()).lstrip("-") in q.ask["de"]
    assert clause.es is not None and " ".join(clause.es.split()).lstrip("-") in q.ask["es"]
    assert [w.at for w in q.wordings] == ["pile.run"]
    assert set(q.wordings[0].text) == {"en", "de", "es"}
    # Without a clause: the words file's name for "the rules", and no place in the rulebook.
    live = gathered["topic.liveness.test_only"]
    assert WORDS.topic_no_clause["de"] in live.ask["de"]
    assert [w.at for w in live.wordings] == [""] and set(live.wordings[0].text) == {"en", "de", "es"}


def test_a_check_s_own_sentence_is_the_english_proposal() -> None:
    own = "Seats follow clockwise, also after a player goes out."
    q = gathered_questions(
        SPEC, RULESET, [_found("mut.a", FindingKind.SILENCE, "hook:next_seat", wording=own)]
    )[0]
    assert q.wording({}, "en") == own
    assert q.wording({}, "de") and q.wording({}, "de") != own


def test_a_topic_the_words_file_lists_is_not_gathered_again() -> None:
    listed = next((q for q in WORDS.questions.values() if q.topics), None)
    if listed is None:
        return  # no producer has listed a topic yet; tests/checks/job/test_review_topics.py covers it
    topic = listed.topics[0]
    findings = [_found("x", FindingKind.SILENCE, topic)]
    assert gathered_questions(SPEC, RULESET, findings) == ()
    assert assign(SPEC, RULESET, findings)["x"] == listed.id


def _point_impact(point: str, share: float) -> PointImpact:
    return PointImpact(point, "a", "b", _impact(share), {})


def _point_finding(point: str) -> Finding:
    return Finding(
        id=f"vp.{point}",
        kind=FindingKind.AMBIGUITY,
        title=point,
        clauses=(),
        detail="",
        check="spec",
        variation_point=point,
    )


def test_engine_decisions_rank_below_questions_that_change_play_unless_they_change_more() -> None:
    points = list(SPEC.variation_points)[:2]
    findings = [_point_finding(p) for p in points] + [
        _found("dec.small", FindingKind.DECISION, "decision.small", share=0.10),
        _found("dec.large", FindingKind.DECISION, "decision.large", share=0.90),
        _found("dec.none", FindingKind.DECISION, "decision.none"),
        _found("sil.mid", FindingKind.SILENCE, "hook:mid", share=0.30),
    ]
    impacts = {points[0]: _point_impact(points[0], 0.60), points[1]: _point_impact(points[1], 0.08)}
    questions, standalone = form_questions(SPEC, RULESET, _reviewed(findings), impacts)
    assert standalone == ()
    order = [q.impact.subject if q.impact else q.id for q in questions]
    # dec.large changes more games than any point: first. sil.mid ranks by its share like a point.
    # dec.small (10 %) changes more than points[1] (8 %) but a decision with the same grade still
    # only moves above questions whose share it beats; dec.none (unmeasured) comes last.
    assert order.index("dec.large") < order.index(points[0]) < order.index("sil.mid")
    assert order.index("sil.mid") < order.index("dec.small") < order.index(points[1])
    assert order[-1] == "topic.decision.none"
    kinds = {q.id: q.kind for q in questions}
    assert kinds["topic.decision.small"] is FindingKind.DECISION
    assert kinds["topic.hook:mid"] is FindingKind.SILENCE


def test_a_decision_ranks_by_the_key_every_question_ranks_by() -> None:
    """An engine decision is not moved: like every question it ranks by what its answer changes at
    the table, then severity, then the share of games changed (the order the report states)."""
    points = list(SPEC.variation_points)[:2]
    findings = [_point_finding(p) for p in points] + [
        _found("dec", FindingKind.DECISION, "decision.x", share=0.70),
    ]
    impacts = {points[0]: _point_impact(points[0], 0.95), points[1]: _point_impact(points[1], 0.80)}
    questions, _ = form_questions(SPEC, RULESET, _reviewed(findings), impacts)
    sev = {s: i for i, s in enumerate(SEVERITIES)}

    def key(q: Question) -> tuple[float, int, float]:
        assert q.impact is not None
        return (-q.impact.effect, sev[q.severity], -q.impact.share)

    assert "topic.decision.x" in [q.id for q in questions]
    assert [key(q) for q in questions] == sorted(key(q) for q in questions)


def test_a_hook_with_a_family_of_mutants_takes_the_family_s_words() -> None:
    """A silence whose topic is a hook the words file's `mutations` describe: the question is titled
    and settled in that family's words, in every language, after its nearest clause."""
    if not WORDS.mutations:
        return  # no family in this words file: the generic words apply (tested above)
    hook, family = next(iter(WORDS.mutations.items()))
    [q] = gathered_questions(SPEC, RULESET, [_found("mut.x", FindingKind.SILENCE, hook, clauses=())])
    assert q.title == family.title
    for lang in ("en", "de", "es"):
        assert q.wording({}, lang) == family.wording[lang]
    assert q.wordings[0].at == next(c for c in family.clauses if c in SPEC.clauses)


def test_what_an_answer_changes_at_the_table_grades_its_severity() -> None:
    """severities.by_outcome: a clear change at the table makes a question high, one compared with
    no clear change is at most medium, whatever its findings say."""
    from five35.checks.impact.outcomes import Match, Outcomes, compare

    bots = ("greedy", "cautious", "random")
    same = Outcomes(3, bots, tuple(Match(i, (i % 3,), 3 + i % 2, 10) for i in range(200)))
    longer = Outcomes(3, bots, tuple(Match(i, (i % 3,), 6 + i % 2, 10) for i in range(200)))
    clear, unclear = compare({3: same}, {3: longer}), compare({3: same}, {3: same})
    assert clear.real and not unclear.real and unclear.per_players
    points = list(SPEC.variation_points)[:2]
    findings = [_point_finding(p) for p in points]
    impacts = {p: _point_impact(p, 0.9) for p in points}
    outcomes = {points[0]: clear, points[1]: unclear}
    plain, _ = form_questions(SPEC, RULESET, _reviewed(findings), impacts)
    graded, _ = form_questions(SPEC, RULESET, _reviewed(findings), impacts, outcomes)
    before = {q.impact.subject: q.severity for q in plain if q.impact is not None}
    after = {q.impact.subject: q.severity for q in graded if q.impact is not None}
    assert after[points[0]] is Severity.HIGH
    assert after[points[1]] is (Severity.MEDIUM if before[points[1]] is Severity.HIGH else before[points[1]])
