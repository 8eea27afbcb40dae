"""The words file's data, checked, built into Words: the whole file's own sections here, each
other section by its own module's builder."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .files import Key
from .words_discovery import (
    _decisions,
    _interactions,
    _liveness,
    _mutation_texts,
    _mutations,
    _rule_mutations,
)
from .words_model import (
    LANGUAGES,
    AlternativeWords,
    ClauseWords,
    EngineWords,
    Evidence,
    ImpactGrades,
    MismatchWords,
    Play,
    QuestionWords,
    SceneWords,
    Side,
    TopicQuestionWords,
    Use,
    Wording,
    Words,
)
from .words_report import _formats, _pages, _plain
from .words_vectors import _vectors


def _play(text: str) -> Play:
    action, _, cards = text.partition(" ")
    return action, tuple(sorted(int(c) for c in cards.split(",") if c))


def _build(path: Path, data: dict[str, Any], lines: dict[Key, int]) -> Words:
    evidence_rows = data["evidence"]
    evidence = {}
    for eid, row in evidence_rows.items():
        source = str(row["source"])
        same = row.get("same_source_as")
        by = row.get("by")
        if same:
            # "same page" names the page of another row; a fact quoted alone must still name it.
            source = f"{source} ({same}: {evidence_rows[same]['source']})"
            by = by or evidence_rows[same].get("by")
        evidence[eid] = Evidence(eid, str(row["fact"]), source, None if by is None else str(by))
    alternatives = {
        name: AlternativeWords(
            name,
            alt.get("variant"),
            Side(alt["played"]["label"], alt["played"]["words"]),
            Side(alt["compared"]["label"], alt["compared"]["words"]),
            alt["method"],
        )
        for name, alt in data["alternatives"].items()
    }
    scenes = {
        name: SceneWords(
            name=name,
            describe=s["describe"],
            hands=tuple(tuple(sorted(h)) for h in s["hands"]),
            leader=s.get("leader", 0),
            plays=tuple(_play(p) for p in s["plays"]),
            then=tuple(_play(p) for p in s["then"]),
            show_deck=s.get("show_deck", False),
        )
        for name, s in data["scenes"].items()
    }

    def use(row: Mapping[str, Any], severity: str | None = None) -> Use:
        alt, scene = row.get("alternative"), row.get("scene")
        return Use(
            severity=row.get("severity", severity or "medium"),
            alternative=alternatives[alt] if alt else None,
            scene=scenes[scene] if scene else None,
        )

    mismatches = tuple(
        MismatchWords(
            key=m["key"],
            clause=m["clause"],
            de_pattern=m["de_pattern"],
            es_pattern=m["es_pattern"],
            de_quote=m["de_quote"],
            es_quote=m["es_quote"],
            title=m["title"],
            detail=m["detail"],
            wording=m["wording"],
            severity=m["severity"],
            variation_point=m.get("variation_point"),
            pair=m.get("pair"),
            alternative=alternatives[m["alternative"]] if m.get("alternative") else None,
            scene=scenes[m["scene"]] if m.get("scene") else None,
        )
        for m in data["mismatches"]
    )
    grades = data["severities"]["by_impact"]
    defects = data["defects"]
    questions = {
        qid: QuestionWords(
            id=qid,
            title=q["title"],
            points=tuple(q.get("points", ())),
            parameters=tuple(q.get("parameters", ())),
            variants=tuple(q.get("variants", ())),
            ask=dict(q["ask"]),
            readings=dict(q.get("readings", {})),
            wordings=tuple(
                Wording(
                    at=w["at"],
                    text={lang: w[lang] for lang in LANGUAGES if lang in w},
                    when=dict(w.get("when", {})),
                    holds=dict(w.get("holds", {})),
                )
                for w in q["wordings"]
            ),
            topics=tuple(q.get("topics", ())),
            grounds=q.get("grounds"),
            texts_point_to_answer=bool(q.get("texts_point_to_answer", False)),
        )
        for qid, q in data["questions"].items()
    }
    # Until a spec gives its defaults: each point's first listed reading.
    first = {p: w.when[p] for q in questions.values() for w in reversed(q.wordings) for p in w.when}
    return Words(
        path=path,
        evidence=evidence,
        questions=questions,
        clauses={c: ClauseWords(row["name"], row["en"]) for c, row in data["clauses"].items()},
        repairs={c: dict(row) for c, row in data["repairs"].items()},
        rulebook={lang: dict(row) for lang, row in data["rulebook"].items()},
        numbers={
            lang: {kind: {int(n): str(w) for n, w in table.items()} for kind, table in row.items()}
            for lang, row in data.get("numbers", {}).items()
        },
        wordings=_subject_wordings(questions, first),
        templates={k: v for k, v in data["templates"].items() if k != "topic_questions"},
        kinds=dict(data["kinds"]),
        topic_questions={
            kind: TopicQuestionWords(kind, row["title"], dict(row["ask"]), dict(row["wording"]))
            for kind, row in data["templates"].get("topic_questions", {}).items()
            if kind != "no_clause"
        },
        topic_no_clause=dict(data["templates"].get("topic_questions", {}).get("no_clause", {})),
        kind_severity=dict(data["severities"].get("by_kind", {})),
        by_impact=ImpactGrades(
            float(grades["high_share"]),
            float(grades["low_share"]),
            tuple(grades["conventions"]),
            data["severities"].get("by_outcome", {}).get("clear"),
            data["severities"].get("by_outcome", {}).get("unclear_at_most"),
        ),
        mismatches=mismatches,
        gaps={k: use(v) for k, v in data["gaps"].items()},
        defects=Use(defects["severity"]),
        defect_clauses={k: use(v, defects["severity"]) for k, v in defects.get("clauses", {}).items()},
        defect_sources={k: use(v, defects["severity"]) for k, v in defects.get("sources", {}).items()},
        only_one_text=use(data["only_one_text"]),
        alternatives=alternatives,
        scenes=scenes,
        scene_of={c: {s: scenes[n] for s, n in subjects.items()} for c, subjects in data["scene_of"].items()},
        liveness=_liveness(data["liveness"]),
        vectors=_vectors(data["vectors"]),
        interactions=_interactions(data.get("interactions")),
        decisions=_decisions(data.get("decisions", {})),
        mutations=_mutations(data.get("mutations", {})),
        mutation_texts=_mutation_texts(data.get("mutations", {})),
        rule_mutations=_rule_mutations(data.get("rule_mutations")),
        game=data.get("game"),
        lines=lines,
        plain=_plain(data["plain"]),
        check_titles=dict(data["checks"]["titles"]),
        check_sentences={check: dict(row) for check, row in data["checks"]["sentences"].items()},
        pages=_pages(data["pages"]),
        formats=_formats(data["formats"]),
        engines=EngineWords(dict(data["engines"])),
    )


def _subject_wordings(questions: Mapping[str, QuestionWords], readings: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for q in questions.values():
        for point in q.points:
            chosen = {point: readings[point]} if point in readings else {}
            text = " ".join(
                w.text["en"] for w in q.wordings if point in w.when and w.applies({**readings, **chosen})
            )
            if text:
                out[point] = text
        for parameter in q.parameters:
            text = q.wording(readings)
            if text:
                out.setdefault(parameter, text)
    return out
