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
decide what to do with them. It loads a words file, attaches it to a spec and fills its numbers from
the spec's parameters; the checks of the file and of the spec are words_problems.py's, the building
of Words words_build.py's, and each section's own builder and checks that section's module's:
words_discovery.py (liveness, decisions, interactions, mutations), words_report.py (plain, pages,
formats) and words_vectors.py (vectors).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from .files import SpecError, nearest_line
from .model import Spec
from .words_build import _build, _subject_wordings
from .words_discovery import engine_hooks as engine_hooks
from .words_model import (
    WORDS_SUFFIX,
    DecisionWords,
    QuestionWords,
    Side,
    Wording,
    Words,
    _embedded_words_path,
)
from .words_problems import _check_shape, _own_problems, _spec_problems
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
