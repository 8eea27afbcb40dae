"""The words file's checks beyond its schema: its shape against words.schema.json, what the
file says of itself (a scene or alternative named but not given, a blank five35 does not fill, an
evidence row's source that does not exist), and what it says of a spec (an evidence id, point,
parameter or clause it cites that the spec does not have). Each problem is (key, message); words.py
raises them as one SpecError."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema

from .files import Key, bundled_schema, first_schema_error
from .model import Spec
from .words_discovery import (
    _decision_problems,
    _interaction_problems,
    _liveness_problems,
    _mutation_problems,
    _mutation_spec_problems,
    _rule_mutation_problems,
)
from .words_model import (
    ALTERNATIVE_BLANKS,
    CHECK_SENTENCE_BLANKS,
    ENGINE_BLANKS,
    FORMAT_BLANKS,
    LANGUAGES,
    NUMBER_BLANKS,
    PAGE_BLANKS,
    PLAIN_BLANKS,
    RULEBOOK_BLANKS,
    TEMPLATE_BLANKS,
    TOPIC_QUESTION_BLANKS,
    Words,
    _embedded_words_path,
)
from .words_model_questions import _evidence_order
from .words_report import _grouped_problems
from .words_text import _blank_problems
from .words_vectors import _vector_problems

# ---- checking --------------------------------------------------------------------------------


def _check_shape(path: Path, data: Any, lines: dict[Key, int]) -> None:
    error = first_schema_error(
        path,
        lines,
        data,
        jsonschema.Draft202012Validator(bundled_schema("words.schema.json")),
        type_first=False,
    )
    if error is not None:
        raise error


def _own_problems(data: dict[str, Any]) -> Iterator[tuple[Key, str]]:
    evidence = data["evidence"]
    for eid, row in evidence.items():
        same = row.get("same_source_as")
        if same is not None and same not in evidence:
            yield ("evidence", eid, "same_source_as"), f"names evidence {same!r}, which does not exist"
    for name, text in data["templates"].items():
        if name == "topic_questions":
            for kind, row in text.items():
                if kind == "no_clause":
                    continue
                key: Key = ("templates", name, kind)
                yield from _blank_problems((*key, "title"), row["title"], TOPIC_QUESTION_BLANKS)
                for part in ("ask", "wording"):
                    for lang, words in row[part].items():
                        yield from _blank_problems((*key, part, lang), words, TOPIC_QUESTION_BLANKS)
            continue
        yield from _blank_problems(("templates", name), text, TEMPLATE_BLANKS[name])
    for qid, q in data["questions"].items():
        if q.get("texts_point_to_answer") and q.get("points"):
            yield (
                ("questions", qid, "texts_point_to_answer"),
                "is for a question without points (one with points stands as its profile's readings do)",
            )
        for i, w in enumerate(q["wordings"]):
            for lang in LANGUAGES:
                if lang in w:
                    yield from _blank_problems(
                        ("questions", qid, "wordings", i, lang), w[lang], NUMBER_BLANKS
                    )
    for did, d in data.get("decisions", {}).items():
        yield from _blank_problems(("decisions", did, "title"), d["title"], NUMBER_BLANKS)
        yield from _blank_problems(("decisions", did, "why"), d["why"], NUMBER_BLANKS)
        if "grounds" in d:
            yield from _blank_problems(("decisions", did, "grounds"), d["grounds"], NUMBER_BLANKS)
        for side in ("engine", "other"):
            for part in ("label", "words"):
                yield from _blank_problems(("decisions", did, side, part), d[side][part], NUMBER_BLANKS)
    for name, alt in data["alternatives"].items():
        for side in ("played", "compared"):
            for part in ("label", "words"):
                yield from _blank_problems(
                    ("alternatives", name, side, part), alt[side][part], ALTERNATIVE_BLANKS
                )
        yield from _blank_problems(("alternatives", name, "method"), alt["method"], ALTERNATIVE_BLANKS)

    def named(key: Key, table: str, value: str | None) -> Iterator[tuple[Key, str]]:
        if value is not None and value not in data[table]:
            known = ", ".join(sorted(data[table]))
            yield key, f"names {table[:-1]} {value!r}, which does not exist ({table}: {known})"

    keys: set[str] = set()
    for i, row in enumerate(data["mismatches"]):
        if row["key"] in keys:
            yield ("mismatches", i, "key"), f"mismatch key {row['key']!r} appears twice"
        keys.add(row["key"])
        for side in ("de_pattern", "es_pattern"):
            try:
                re.compile(row[side])
            except re.error as exc:
                yield ("mismatches", i, side), f"is not a regular expression ({exc})"
        yield from named(("mismatches", i, "alternative"), "alternatives", row.get("alternative"))
        yield from named(("mismatches", i, "scene"), "scenes", row.get("scene"))
    uses: list[tuple[Key, dict[str, Any]]] = [(("gaps", k), v) for k, v in data["gaps"].items()]
    for table in ("clauses", "sources"):
        uses += [(("defects", table, k), v) for k, v in data["defects"].get(table, {}).items()]
    uses.append((("only_one_text",), data["only_one_text"]))
    for key, row in uses:
        yield from named((*key, "alternative"), "alternatives", row.get("alternative"))
        yield from named((*key, "scene"), "scenes", row.get("scene"))
    for check, subjects in data["scene_of"].items():
        for subject, scene in subjects.items():
            yield from named(("scene_of", check, subject), "scenes", scene)
    for lang, row in data["rulebook"].items():
        for name, text in row.items():
            if isinstance(text, str):
                yield from _blank_problems(("rulebook", lang, name), text, RULEBOOK_BLANKS)
    yield from _liveness_problems(data["liveness"])
    yield from _interaction_problems(data.get("interactions"))
    yield from _mutation_problems(data.get("mutations", {}))
    yield from _rule_mutation_problems(data.get("rule_mutations"))
    yield from _grouped_problems("plain", data["plain"], PLAIN_BLANKS)
    for check, sentences in data["checks"]["sentences"].items():
        for name, text in sentences.items():
            yield from _blank_problems(
                ("checks", "sentences", check, name), text, CHECK_SENTENCE_BLANKS[check][name]
            )
    yield from _vector_problems(data["vectors"])
    yield from _grouped_problems("pages", data["pages"], PAGE_BLANKS)
    yield from _grouped_problems("formats", data["formats"], FORMAT_BLANKS)
    for name, allowed in ENGINE_BLANKS.items():
        yield from _blank_problems(("engines", name), data["engines"][name], allowed)
    owner: dict[str, str] = {}
    topic_owner: dict[str, str] = {}
    for qid, q in data["questions"].items():
        for i, topic in enumerate(q.get("topics", [])):
            if topic in topic_owner:
                yield (
                    ("questions", qid, "topics", i),
                    f"topic {topic!r} is already a topic of question {topic_owner[topic]!r}",
                )
            topic_owner.setdefault(topic, qid)
        points = q.get("points", [])
        for i, point in enumerate(points):
            if point in owner:
                yield (
                    ("questions", qid, "points", i),
                    f"point {point!r} is already a point of question {owner[point]!r}",
                )
            owner.setdefault(point, qid)
        if not points and not q.get("parameters") and not q.get("variants") and not q.get("topics"):
            yield ("questions", qid), "gathers nothing: give it points, parameters, variants or topics"
    for name, scene in data["scenes"].items():
        leader = scene.get("leader", 0)
        if leader >= len(scene["hands"]):
            yield ("scenes", name, "leader"), f"seat {leader} is not one of the {len(scene['hands'])} hands"


def _spec_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    known = ", ".join(sorted(words.evidence, key=_evidence_order))
    cited: list[tuple[tuple[str | int, ...], str]] = []
    for name, param in spec.parameters.items():
        cited += [(("parameters", name, "evidence", i), e) for i, e in enumerate(param.evidence)]
    for name, vp in spec.variation_points.items():
        cited += [(("variation_points", name, "evidence", i), e) for i, e in enumerate(vp.evidence)]
    for key, eid in cited:
        if eid not in words.evidence:
            where = spec.where(*key)
            yield where, f"cites evidence {eid!r}, which {words.path.name} does not have (evidence: {known})"
    yield from _question_problems(spec, words)
    yield from _decision_problems(spec, words)
    if words.rule_mutations is not None and spec.rulebook is not None:
        ids = {r.id for r in spec.rulebook.rules}
        for rid in words.rule_mutations.rules:
            if rid not in ids:
                yield (
                    words.where("rule_mutations", "rules", rid),
                    f"words a rule {rid!r} the spec does not have (rules: {', '.join(sorted(ids))})",
                )
    yield from _mutation_spec_problems(spec, words)
    yield from _scene_problems(spec, words)


def _scene_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    """A scene with a rank the deck lacks, in a words file written for this spec (beside it): a
    mistake to fix there. The embedded words file is written for the embedded spec; a copy with
    other ranks is not refused for it: the checks leave such a scene out, with a note
    (checks/impact/scenes.py)."""
    if words.path.resolve() == _embedded_words_path().resolve():
        return
    ranks = set(spec.parameters["ranks"].value) if "ranks" in spec.parameters else set()
    for name, scene in words.scenes.items():
        fields = {
            "hands": [c for hand in scene.hands for c in hand],
            "plays": [c for _, held in scene.plays for c in held],
            "then": [c for _, held in scene.then for c in held],
        }
        for field_name, cards in fields.items():
            stray = sorted(set(cards) - ranks)
            if ranks and stray:
                yield (
                    words.where("scenes", name, field_name),
                    f"uses ranks {stray}, which the deck of {spec.path.name} lacks",
                )


def _question_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    vps = spec.variation_points
    for qid, q in words.questions.items():
        for i, point in enumerate(q.points):
            if point not in vps:
                yield (
                    words.where("questions", qid, "points", i),
                    f"names {point!r}, which is neither a variation point nor a parameter of "
                    f"{spec.path.name}",
                )
        for i, parameter in enumerate(q.parameters):
            if parameter not in spec.parameters:
                yield (
                    words.where("questions", qid, "parameters", i),
                    f"names {parameter!r}, which is not a parameter of {spec.path.name}",
                )
        readings = {r for p in q.points if p in vps for r in vps[p].listed}
        readings |= {f"{p}={r}" for p in q.points if p in vps for r in vps[p].listed}
        for reading in q.readings:
            if reading not in readings:
                yield (
                    words.where("questions", qid, "readings", reading),
                    f"names reading {reading!r}, which none of the question's points has "
                    f"(readings: {', '.join(sorted(readings)) or 'none'})",
                )
        for i, w in enumerate(q.wordings):
            if w.at not in spec.clauses:
                yield (
                    words.where("questions", qid, "wordings", i, "at"),
                    f"names clause {w.at!r}, which {spec.path.name} does not have",
                )
            for point, reading in w.when.items():
                if point not in q.points:
                    yield (
                        words.where("questions", qid, "wordings", i, "when", point),
                        f"names {point!r}, which is not one of the question's points "
                        f"({', '.join(q.points) or 'it has none'})",
                    )
                elif point in vps and reading not in vps[point].listed:
                    yield (
                        words.where("questions", qid, "wordings", i, "when", point),
                        f"names reading {reading!r}, which {point} does not have "
                        f"(readings: {', '.join(vps[point].listed)})",
                    )
    for table in ("clauses", "repairs"):
        for clause in getattr(words, table):
            if clause not in spec.clauses:
                yield (
                    words.where(table, clause),
                    f"names clause {clause!r}, which {spec.path.name} does not have",
                )
