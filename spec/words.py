"""The rulebook's words as data: the questions a designer settles with their proposed wordings in
English, German and Spanish, the clauses in plain words and in English, the repairs of damaged
texts, known German/Spanish mismatches, severities, table scenes and outside evidence
(spec/535.words.yaml, schema words.schema.json).

A spec file `X.yaml` takes its words from `X.words.yaml` beside it when there is one, else from the
embedded words file. `load_spec` loads and checks them with the spec: the shape against the schema,
then what a schema cannot say (a scene or alternative that is named but not given, a template blank
five35 does not fill, an evidence id the spec cites that the evidence table does not have, a question
about a point, parameter or clause the spec does not have). Every problem is a SpecError
`file:line: key: message`.

This module only reads and checks the words (their data classes are words_model.py's); the checks
decide what to do with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from .files import Key, SpecError, bundled_schema, embedded_spec_path, first_schema_error, nearest_line
from .model import Spec
from .vocabulary import ENGINE_HOOKS
from .words_model import (
    ALTERNATIVE_BLANKS,
    CHECK_SENTENCE_BLANKS,
    FORMAT_BLANKS,
    INTERACTION_BLANKS,
    INTERACTION_SCOPE_BLANKS,
    LANGUAGES,
    LIVENESS_FAILED_BLANKS,
    LIVENESS_MATCH_END_BLANKS,
    LIVENESS_PROPERTY_FAILED_BLANKS,
    LIVENESS_SCOPE_BLANKS,
    LIVENESS_TABLE_BLANKS,
    LIVENESS_TABLES_SCOPE_BLANKS,
    MUTATION_BLANKS,
    MUTATION_TEXT_BLANKS,
    NUMBER_BLANKS,
    PAGE_BLANKS,
    PLAIN_BLANKS,
    RULE_MUTATION_BLANKS,
    RULEBOOK_BLANKS,
    TEMPLATE_BLANKS,
    TOPIC_QUESTION_BLANKS,
    VECTOR_SENTENCE_BLANKS,
    WORDS_SUFFIX,
    AlternativeWords,
    ClauseWords,
    DecisionWords,
    Evidence,
    FormatWords,
    ImpactGrades,
    InteractionWords,
    KindNoun,
    LivenessFailed,
    LivenessProperty,
    LivenessTables,
    LivenessWords,
    MismatchWords,
    MutationTexts,
    MutationWords,
    PageWords,
    PlainWords,
    Play,
    QuestionWords,
    RuleMutationWords,
    RuleWords,
    SceneWords,
    Sentences,
    Side,
    TopicQuestionWords,
    Use,
    VectorWords,
    Wording,
    Words,
)
from .words_text import _blank_problems
from .yaml_input import read_yaml


def words_path(spec_path: Path) -> Path:
    """The words file of a spec file: `X.words.yaml` beside `X.yaml`, else the embedded one."""
    own = spec_path.with_name(spec_path.stem + WORDS_SUFFIX)
    if own.is_file():
        return own
    return _embedded_words_path()


def load_words(path: Path) -> Words:
    """Read and check a words file on its own (against the spec: `attach_words`)."""
    if path == _embedded_words_path():
        return _embedded_words()
    return _read_words(path)


def embedded_words() -> Words:
    """The embedded words file's words, for what speaks before any spec is loaded (the shell's
    completion of a check's name with its title)."""
    return _embedded_words()


def _embedded_words_path() -> Path:
    embedded = embedded_spec_path()
    return embedded.with_name(embedded.stem + WORDS_SUFFIX)


@cache
def _embedded_words() -> Words:
    # A file of the installed package, as the embedded spec is: every spec copy without a words
    # file of its own borrows it, so it is read and checked once per process.
    return _read_words(_embedded_words_path())


def _read_words(path: Path) -> Words:
    data, lines = read_yaml(path, what="words file")
    _check_shape(path, data, lines)
    problems = list(_own_problems(data))
    if problems:
        key, message = problems[0]
        raise SpecError(f"{path}:{nearest_line(lines, key)}", f"{'.'.join(map(str, key))}: {message}")
    return _build(path, data, lines)


def attach_words(spec: Spec) -> Spec:
    """The spec with its words, after checking the two against each other."""
    path = words_path(spec.path)
    words = load_words(path)
    if path != spec.path.with_name(spec.path.stem + WORDS_SUFFIX):
        # A spec copy without a words file of its own borrows the embedded one: what it says of
        # points the copy no longer has is left out, not held against the copy. A spec of another
        # game borrows only the toolkit's phrasing: 535's questions and texts are not its own.
        if words.game is not None and words.game != spec.game:
            words = _fit_foreign(words)
        else:
            words = _fit_borrowed(spec, words)
    problems = list(_spec_problems(spec, words))
    if problems:
        where, message = problems[0]
        raise SpecError(where, message)
    words = _fit_numbers(spec, words)
    defaults = {p: vp.default for p, vp in spec.variation_points.items()}
    return replace(spec, words=replace(words, wordings=_subject_wordings(words.questions, defaults)))


def spec_numbers(spec: Spec) -> dict[str, int]:
    """The numbers a wording may name by a blank, from the spec's parameters (a parameter the spec
    lacks gives no number: a wording that needs it is left out)."""
    values = {name: param.value for name, param in spec.parameters.items()}
    out: dict[str, int] = {}

    def both(name: str, small: str, large: str) -> None:
        value = values.get(name)
        if isinstance(value, Mapping):
            if "small_game" in value:
                out[small] = int(value["small_game"])
            if "large_game" in value:
                out[large] = int(value["large_game"])
        elif isinstance(value, int):
            out[small] = out[large] = value

    both("copies", "copies_small", "copies_large")
    both("set_closing_size", "set_close_small", "set_close_large")
    if isinstance(values.get("run_closing_size"), int):
        out["run_close"] = values["run_closing_size"]
    if isinstance(values.get("max_cards_per_turn"), int):
        out["max_cards"] = values["max_cards_per_turn"]
        out["beyond_turn"] = values["max_cards_per_turn"] + 1
    if isinstance(values.get("match_end_score"), int):
        out["match_end"] = values["match_end_score"]
    ranks = values.get("ranks")
    if isinstance(ranks, list) and ranks:
        out["highest"], out["lowest"] = max(ranks), min(ranks)
    players = values.get("players")
    if isinstance(players, Mapping):
        out["players_min"], out["players_max"] = int(players["min"]), int(players["max"])
    hands = values.get("hand_size")
    for count in range(3, 7):
        dealt = _by_key(hands).get(str(count)) if isinstance(hands, Mapping) else None
        if dealt is not None:
            out[f"hand_{count}"] = int(dealt)
    two = _by_key(hands).get("2") if isinstance(hands, Mapping) else None
    if two is not None and "copies_small" in out and isinstance(ranks, list):
        out["hand_2"] = int(two)
        out["aside_2"] = out["copies_small"] * len(ranks) - 2 * int(two)
        out["two_hands_2"] = 2 * int(two)
    return out


class _Number:
    """A number as a wording's blank writes it: as digits, or as a word of its language
    (`{name:ord}` the ordinal, `{name:word}` the cardinal) from the words file's `numbers`."""

    def __init__(self, value: int, words: Mapping[str, Mapping[int, str]]) -> None:
        self.value = value
        self.words = words

    def __format__(self, how: str) -> str:
        if not how:
            return str(self.value)
        table = self.words.get("ordinal" if how == "ord" else "cardinal" if how == "word" else how)
        if table is None or self.value not in table:
            raise KeyError(how)  # no word for this number: the sentence cannot be written
        return table[self.value]


def _by_key(table: Mapping[Any, Any]) -> dict[str, Any]:
    """A table keyed by player count or rank, whichever way its YAML wrote the keys."""
    return {str(k): v for k, v in table.items()}


def _holds(spec: Spec, holds: Mapping[str, Any]) -> bool:
    for name, value in holds.items():
        param = spec.parameters.get(name)
        if param is None:
            return False
        have = param.value
        if isinstance(value, Mapping):
            if not isinstance(have, Mapping):
                return False
            mine = _by_key(have)
            if any(mine.get(str(k)) != v for k, v in value.items()):
                return False
        elif have != value:
            return False
    return True


def fill_wording(text: str, language: str, numbers: Mapping[str, int], words: Words) -> str | None:
    """A wording's sentence with its blanks filled from the spec's numbers; None when one cannot
    be filled (a number the spec lacks, or one the language has no word for)."""
    table = words.numbers.get(language, {})
    try:
        return text.format_map({name: _Number(n, table) for name, n in numbers.items()})
    except (KeyError, ValueError, IndexError):
        return None


def _fit_numbers(spec: Spec, words: Words) -> Words:
    """Every wording as the spec's numbers write it: blanks filled, and a sentence that spells out
    parameter values the spec does not have, or whose blanks cannot be filled, left out (the
    report then says no wording exists for this spec yet, rather than print one that is false)."""
    numbers = spec_numbers(spec)
    questions: dict[str, QuestionWords] = {}
    for qid, q in words.questions.items():
        fitted = []
        for w in q.wordings:
            if not _holds(spec, w.holds):
                continue
            texts = {lang: fill_wording(t, lang, numbers, words) for lang, t in w.text.items()}
            if texts.get("en") is None:
                continue
            fitted.append(replace(w, text={lang: t for lang, t in texts.items() if t is not None}))
        questions[qid] = replace(q, wordings=tuple(fitted))
    decisions: dict[str, DecisionWords] = {}
    for did, d in words.decisions.items():
        # A decision's words name the spec's numbers too; one whose numbers this spec lacks is
        # about a table the spec does not have, and is left out with them.
        title, why = fill_wording(d.title, "en", numbers, words), fill_wording(d.why, "en", numbers, words)
        grounds = fill_wording(d.grounds, "en", numbers, words) if d.grounds is not None else None
        sides = [
            (fill_wording(side.label, "en", numbers, words), fill_wording(side.words, "en", numbers, words))
            for side in (d.engine, d.other)
        ]
        if title is None or why is None or any(a is None or b is None for a, b in sides):
            continue
        if d.grounds is not None and grounds is None:
            continue
        (el, ew), (ol, ow) = sides
        assert el is not None and ew is not None and ol is not None and ow is not None
        decisions[did] = replace(
            d, title=title, why=why, engine=Side(el, ew), other=Side(ol, ow), grounds=grounds
        )
    rule_mutations = words.rule_mutations
    if rule_mutations is not None:
        # A sentence whose numbers this spec lacks is left out, as a question's wording is.
        rules = {}
        for rid, rw in rule_mutations.rules.items():
            texts = {lang: fill_wording(t, lang, numbers, words) for lang, t in rw.wording.items()}
            if all(t is not None for t in texts.values()):
                rules[rid] = replace(rw, wording={lang: t for lang, t in texts.items() if t is not None})
        rule_mutations = replace(rule_mutations, rules=rules)
    return replace(words, questions=questions, decisions=decisions, rule_mutations=rule_mutations)


def _fit_foreign(words: Words) -> Words:
    """Another game's words less everything that speaks of that game's texts and rules: what is
    left (templates, severities, the alternatives' and liveness findings' phrasing) is the
    toolkit's own."""
    return replace(
        words,
        evidence={},
        questions={},
        clauses={},
        repairs={},
        rulebook={},
        mismatches=(),
        gaps={},
        defect_clauses={},
        defect_sources={},
        scenes={},
        scene_of={},
        decisions={},
        mutations={},
        mutation_texts=None,
        rule_mutations=None,
        foreign=True,
    )


def no_wording(spec: Spec) -> str | None:
    """Why the spec's game has no wording yet (its words file is not written), or None."""
    words = words_of(spec)
    if not words.foreign:
        return None
    own = spec.path.with_name(spec.path.stem + WORDS_SUFFIX).name
    return (
        f"no wording exists yet for {spec.game}: there is no words file ({own} beside the spec), so "
        "no question, clause translation, scene or clarified rulebook is written for it"
    )


def _fit_borrowed(spec: Spec, words: Words) -> Words:
    """The borrowed words less what names a point or a reading the spec does not have."""
    vps = spec.variation_points
    questions: dict[str, QuestionWords] = {}
    for qid, q in words.questions.items():
        points = tuple(p for p in q.points if p in vps)
        parameters = tuple(p for p in q.parameters if p in spec.parameters)
        listed = {r for p in points for r in vps[p].listed} | {
            f"{p}={r}" for p in points for r in vps[p].listed
        }
        wordings = tuple(
            w
            for w in q.wordings
            if all(p in points and r in vps[p].listed for p, r in w.when.items()) and w.at in spec.clauses
        )
        if not (points or parameters or q.variants or q.topics):
            continue
        questions[qid] = replace(
            q,
            points=points,
            parameters=parameters,
            readings={r: n for r, n in q.readings.items() if r in listed},
            wordings=wordings,
        )
    decisions = {
        did: d
        for did, d in words.decisions.items()
        if all(p in vps and r in vps[p].listed for p, r in d.under.items()) and did not in vps
    }
    rule_mutations = words.rule_mutations
    if rule_mutations is not None:
        # A rule the spec does not have is left out; one it states otherwise is told apart where a
        # finding is made (checks/discovery/rules: only a rule the spec states as the embedded
        # one does is worded).
        ids = {r.id for r in spec.rulebook.rules} if spec.rulebook is not None else set()
        rules = {rid: rw for rid, rw in rule_mutations.rules.items() if rid in ids}
        rule_mutations = replace(rule_mutations, rules=rules)
    return replace(words, questions=questions, decisions=decisions, rule_mutations=rule_mutations)


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


def questions_of(spec: Spec) -> tuple[QuestionWords, ...]:
    """Every question of a spec: the words file's, in its order, then one per variation point no
    entry lists, in the spec's own words (its question, its readings' explanations; no wording)."""
    words = words_of(spec)
    listed = list(words.questions.values())
    covered = {p for q in listed for p in q.points}
    for name, vp in spec.variation_points.items():
        if name not in covered:
            listed.append(
                QuestionWords(
                    id=name,
                    title=vp.question,
                    points=(name,),
                    parameters=(),
                    variants=(),
                    ask={"en": vp.question},
                    readings=dict(vp.readings),
                    # The spec's own explanation of each reading, after the first clause the point
                    # cites: what a rulebook that plays the reading says (in English, as written).
                    wordings=tuple(
                        Wording(at=at, text={"en": explain}, when={name: reading})
                        for at in [c for c in vp.cites if c in spec.clauses][:1]
                        for reading, explain in vp.readings.items()
                    ),
                )
            )
    return tuple(listed)


def words_of(spec: Spec) -> Words:
    """The words a spec was loaded with (a Spec built by hand gets the embedded ones)."""
    if spec.words is not None:
        words: Words = spec.words
        return words
    return attach_words(spec).words  # type: ignore[return-value]  # attach_words always sets them


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
    yield from _plain_problems(data["plain"])
    for check, sentences in data["checks"]["sentences"].items():
        for name, text in sentences.items():
            yield from _blank_problems(
                ("checks", "sentences", check, name), text, CHECK_SENTENCE_BLANKS[check][name]
            )
    yield from _vector_problems(data["vectors"])
    yield from _page_problems(data["pages"])
    yield from _format_problems(data["formats"])
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


def _evidence_order(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)


# ---- building --------------------------------------------------------------------------------


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
    )


def _liveness_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    for name, row in section["properties"].items():
        key: Key = ("liveness", "properties", name, "scope")
        yield from _blank_problems(key, row["scope"], LIVENESS_SCOPE_BLANKS)
        if "plain_scope" in row:
            plain: Key = ("liveness", "properties", name, "plain_scope")
            yield from _blank_problems(plain, row["plain_scope"], LIVENESS_SCOPE_BLANKS)
        for part in ("title", "detail", "table"):
            if "failed" in row:
                yield from _blank_problems(
                    ("liveness", "properties", name, "failed", part),
                    row["failed"][part],
                    LIVENESS_PROPERTY_FAILED_BLANKS,
                )
    for part in ("title", "detail"):
        failed = section["failed"][part]
        yield from _blank_problems(("liveness", "failed", part), failed, LIVENESS_FAILED_BLANKS)
        yield from _blank_problems(
            ("liveness", "match_end", part), section["match_end"][part], LIVENESS_MATCH_END_BLANKS
        )
    tables = section["tables"]
    yield from _blank_problems(("liveness", "tables", "scope"), tables["scope"], LIVENESS_TABLES_SCOPE_BLANKS)
    for part in ("table", "unmerged"):
        yield from _blank_problems(("liveness", "tables", part), tables[part], LIVENESS_TABLE_BLANKS)
    yield from _blank_problems(("liveness", "tables", "cards"), tables["cards"], frozenset({"most"}))
    if "plain_table" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "plain_table"),
            tables["plain_table"],
            frozenset({"players", "cards", "deals", "too_few"}),
        )
    if "too_few" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "too_few"), tables["too_few"], frozenset({"total", "piles"})
        )
    yield from _blank_problems(
        ("liveness", "tables", "changed"), tables["changed"], frozenset({"count", "varied"})
    )
    if "varied" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "varied"), tables["varied"], frozenset({"count", "left"})
        )
    yield from _blank_problems(
        ("liveness", "tables", "stopped"), tables["stopped"], frozenset({"table", "limit"})
    )


def _liveness(section: Mapping[str, Any]) -> LivenessWords:
    return LivenessWords(
        properties={
            name: LivenessProperty(
                row["statement"],
                row["scope"],
                LivenessFailed(**row["failed"]) if "failed" in row else None,
                row.get("plain_scope", ""),
            )
            for name, row in section["properties"].items()
        },
        failed_title=section["failed"]["title"],
        failed_detail=section["failed"]["detail"],
        match_end_title=section["match_end"]["title"],
        match_end_detail=section["match_end"]["detail"],
        tables=LivenessTables(**section["tables"]),
    )


# ---- engine decisions --------------------------------------------------------------------------


def _decisions(section: Mapping[str, Any]) -> dict[str, DecisionWords]:
    def none(value: str) -> str | None:
        return None if value == "none" else value

    return {
        did: DecisionWords(
            id=did,
            title=row["title"],
            ask=dict(row["ask"]),
            engine=Side(row["engine"]["label"], row["engine"]["words"]),
            other=Side(row["other"]["label"], row["other"]["words"]),
            why=row["why"],
            clauses=tuple(row["clauses"]),
            hook=none(row["hook"]),
            variant=none(row["variant"]),
            reason=row.get("reason"),
            evidence=tuple(row.get("evidence", ())),
            under=dict(row.get("under", {})),
            players=tuple(row.get("players", ())),
            severity=row.get("severity"),
            departs_from=tuple(row.get("departs_from", ())),
            grounds=row.get("grounds"),
        )
        for did, row in section.items()
    }


def engine_hooks() -> tuple[str, ...]:
    """The public hooks a variant of the reference engine may override (`Game.HOOKS`)."""
    return ENGINE_HOOKS


def _decision_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    hooks = engine_hooks()
    vps = spec.variation_points
    players = spec.parameters["players"].value if "players" in spec.parameters else None
    for did, d in words.decisions.items():
        if did in vps:
            yield (
                words.where("decisions", did),
                f"is the variation point {did!r} of {spec.path.name}: a question the spec already puts "
                "with its readings is not an engine decision",
            )
        for i, clause in enumerate(d.clauses):
            if clause not in spec.clauses:
                yield (
                    words.where("decisions", did, "clauses", i),
                    f"names clause {clause!r}, which {spec.path.name} does not have",
                )
        if d.hook is not None and d.hook not in hooks:
            yield (
                words.where("decisions", did, "hook"),
                f"names hook {d.hook!r}, which is not a public hook of Game (hooks: {', '.join(hooks)}, "
                "or none)",
            )
        if d.variant is not None and d.hook is None:
            yield (
                words.where("decisions", did, "hook"),
                f"is none, but variant {d.variant!r} plays the other choice: name the hook it overrides",
            )
        for point, reading in d.under.items():
            if point not in vps:
                yield (
                    words.where("decisions", did, "under", point),
                    f"names {point!r}, which is not a variation point of {spec.path.name}",
                )
            elif reading not in vps[point].listed:
                yield (
                    words.where("decisions", did, "under", point),
                    f"names reading {reading!r}, which {point} does not have "
                    f"(readings: {', '.join(vps[point].listed)})",
                )
        for key, cited in (("evidence", d.evidence), ("departs_from", d.departs_from)):
            for i, eid in enumerate(cited):
                if eid not in words.evidence:
                    known = ", ".join(sorted(words.evidence, key=_evidence_order))
                    yield (
                        words.where("decisions", did, key, i),
                        f"cites evidence {eid!r}, which {words.path.name} does not have (evidence: {known})",
                    )
        if isinstance(players, Mapping):
            low, high = players.get("min"), players.get("max")
            for i, n in enumerate(d.players):
                if isinstance(low, int) and isinstance(high, int) and not low <= n <= high:
                    yield (
                        words.where("decisions", did, "players", i),
                        f"{n} players is outside the game's {low} to {high}",
                    )


def _interaction_problems(section: Mapping[str, Any] | None) -> Iterator[tuple[Key, str]]:
    for name, text in (section or {}).items():
        if name == "scope":
            yield from _blank_problems(("interactions", name), text, INTERACTION_SCOPE_BLANKS)
        elif name == "apart_scope":
            yield from _blank_problems(("interactions", name), text, frozenset({"players"}))
        elif name == "kind_rule":
            yield from _blank_problems(("interactions", name), text, frozenset({"name", "kind"}))
        elif name == "meets_order" and isinstance(text, Mapping):
            for form, sentence in text.items():
                yield from _blank_problems(("interactions", name, form), sentence, INTERACTION_BLANKS)
        elif name not in ("at_once", "decisions", "groups"):
            yield from _blank_problems(("interactions", name), text, INTERACTION_BLANKS)


def _interactions(section: Mapping[str, Any] | None) -> InteractionWords | None:
    if section is None:
        return None
    return InteractionWords(
        at_once={lang: tuple(words) for lang, words in section["at_once"].items()},
        same=section["same"],
        dead=section["dead"],
        dead_follows=section["dead_follows"],
        elsewhere=section["elsewhere"],
        unevaluated=section["unevaluated"],
        fixed_needs=section["fixed_needs"],
        fixed_at_once=section["fixed_at_once"],
        silence_title=section["silence_title"],
        silence_detail=section["silence_detail"],
        settled_change=section["settled_change"],
        settled_at_once=section["settled_at_once"],
        settled_needs=section["settled_needs"],
        scope=section["scope"],
        decisions=dict(section["decisions"]),
        apart_scope=section.get("apart_scope", ""),
        kind_rule=section.get("kind_rule", ""),
        groups=dict(section.get("groups", {})),
        where_same=section.get("where_same", ""),
        where_dead=section.get("where_dead", ""),
        same_elsewhere=section.get("same_elsewhere", ""),
        meets_order=dict(section.get("meets_order", {})),
    )


# ---- engine mutants ----------------------------------------------------------------------------


def _mutations(section: Mapping[str, Any]) -> dict[str, MutationWords]:
    return {
        hook: MutationWords(
            hook=hook,
            title=row["title"],
            clauses=tuple(row["clauses"]),
            operators=dict(row["operators"]),
            wording=dict(row["wording"]),
        )
        for hook, row in section.items()
        if hook != "texts"
    }


def _rule_mutations(section: Mapping[str, Any] | None) -> RuleMutationWords | None:
    if section is None:
        return None
    texts = section["texts"]
    return RuleMutationWords(
        printed=texts["printed"],
        mutant=texts["mutant"],
        detail=texts["detail"],
        operators=dict(texts["operators"]),
        rules={
            rid: RuleWords(title=row["title"], wording=dict(row["wording"]), name=row.get("name"))
            for rid, row in section.get("rules", {}).items()
        },
    )


def _rule_mutation_problems(section: Mapping[str, Any] | None) -> Iterator[tuple[Key, str]]:
    if section is None:
        return
    yield from _blank_problems(
        ("rule_mutations", "texts", "detail"), section["texts"]["detail"], RULE_MUTATION_BLANKS
    )
    for rid, row in section.get("rules", {}).items():
        for lang, text in row["wording"].items():
            yield from _blank_problems(("rule_mutations", "rules", rid, "wording", lang), text, NUMBER_BLANKS)


def _mutation_texts(section: Mapping[str, Any]) -> MutationTexts | None:
    row = section.get("texts")
    if row is None:
        return None
    return MutationTexts(
        engine=row["engine"],
        mutant=row["mutant"],
        detail=row["detail"],
        invariant=row["invariant"],
        method=row["method"],
        found=dict(row["found"]),
        invariants=dict(row["invariants"]),
    )


def _mutation_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    hooks = engine_hooks()
    for hook, row in section.items():
        if hook == "texts":
            for part in ("engine", "mutant", "detail", "invariant", "method"):
                yield from _blank_problems(("mutations", hook, part), row[part], MUTATION_TEXT_BLANKS)
            continue
        if hook not in hooks:
            yield (
                ("mutations", hook),
                f"{hook!r} is not a public hook of the engine (hooks: {', '.join(hooks)})",
            )
        for operator, text in row["operators"].items():
            yield from _blank_problems(("mutations", hook, "operators", operator), text, MUTATION_BLANKS)


def _mutation_spec_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    for hook, family in words.mutations.items():
        for i, clause in enumerate(family.clauses):
            if clause not in spec.clauses:
                yield (
                    words.where("mutations", hook, "clauses", i),
                    f"names clause {clause!r}, which {spec.path.name} does not have",
                )


# ---- the conformance vectors' words ----------------------------------------------------------


def _vector_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    # Only the sentences have blanks: `compare`, the titles and the reasons are printed as written.
    for name, text in section["sentences"].items():
        yield from _blank_problems(("vectors", "sentences", name), text, VECTOR_SENTENCE_BLANKS[name])


def _vectors(section: Mapping[str, Any]) -> VectorWords:
    return VectorWords(
        compare=section["compare"],
        not_observable=dict(section["not_observable"]),
        titles=dict(section["titles"]),
        sentences=dict(section["sentences"]),
    )


# ---- the report's own prose (the `plain` section) --------------------------------------------------


def _plain(section: Mapping[str, Any]) -> PlainWords:
    def group(name: str) -> Sentences:
        return Sentences({k: v for k, v in section[name].items() if k in PLAIN_BLANKS[name]})

    return PlainWords(
        languages=dict(section["languages"]),
        trick_ends=dict(section["trick_ends"]),
        verbs=dict(section["verbs"]),
        infinitives=dict(section["infinitives"]),
        and_=section["and"],
        basis=dict(section["summary"]["basis"]),
        findings=group("findings"),
        scenes=group("scenes"),
        summary=group("summary"),
        consistency=group("consistency"),
    )


def _plain_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    for name, allowed in PLAIN_BLANKS.items():
        for which, blanks in allowed.items():
            yield from _blank_problems(("plain", name, which), section[name][which], blanks)


# ---- the report pages' words ------------------------------------------------------------------


def _pages(section: Mapping[str, Any]) -> PageWords:
    def group(name: str) -> Sentences:
        return Sentences(dict(section[name]))

    return PageWords(
        tables=group("tables"),
        charts=group("charts"),
        outcomes=group("outcomes"),
        sections=group("sections"),
        summary=group("summary"),
        metrics=dict(section["metrics"]),
        trick_ends=dict(section["trick_ends"]),
        styles=dict(section["styles"]),
        methods=dict(section["methods"]),
    )


def _page_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    for group, sentences in PAGE_BLANKS.items():
        for name, allowed in sentences.items():
            yield from _blank_problems(("pages", group, name), section[group][name], allowed)


# ---- the CI formats' words --------------------------------------------------------------------


def _formats(section: Mapping[str, Any]) -> FormatWords:
    def group(name: str) -> Sentences:
        return Sentences(dict(section[name]))

    return FormatWords(
        kinds={k: KindNoun(row["one"], row["many"], row["means"]) for k, row in section["kinds"].items()},
        common=group("common"),
        github=group("github"),
        junit=group("junit"),
        text=group("text"),
        sarif=group("sarif"),
        job_summary=group("job_summary"),
    )


def _format_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    for group, sentences in FORMAT_BLANKS.items():
        for name, allowed in sentences.items():
            yield from _blank_problems(("formats", group, name), section[group][name], allowed)
