"""The rulebook's words as data: the questions a designer settles with their proposed wordings in
English, German and Spanish, the clauses in plain words and in English, the repairs of damaged
texts, known German/Spanish mismatches, severities, table scenes and outside evidence, as read from
a words file (spec/535.words.yaml) by spec/words.py.

This module holds the words of the whole file (Words) and of the text audit (alternatives, scenes,
mismatches, severities); each other section's words are a module of their own, whose names it
re-exports so that `from .words_model import X` names any of them: words_text.py (a sentence and
its blanks), words_model_questions.py (questions, rulebook, evidence), words_model_checks.py (the
checks' titles and sentences), words_model_discovery.py (liveness, interactions, decisions,
mutations), words_model_report.py (plain, pages, formats), words_model_vectors.py (vectors).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .files import Key, embedded_spec_path, nearest_line
from .words_model_checks import (
    CHECK_NAMES as CHECK_NAMES,
)
from .words_model_checks import (
    CHECK_SENTENCE_BLANKS as CHECK_SENTENCE_BLANKS,
)
from .words_model_checks import (
    CheckWords as CheckWords,
)
from .words_model_discovery import (
    INTERACTION_BLANKS as INTERACTION_BLANKS,
)
from .words_model_discovery import (
    INTERACTION_SCOPE_BLANKS as INTERACTION_SCOPE_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_FAILED_BLANKS as LIVENESS_FAILED_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_FAILED_KINDS as LIVENESS_FAILED_KINDS,
)
from .words_model_discovery import (
    LIVENESS_MATCH_END_BLANKS as LIVENESS_MATCH_END_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_PROPERTY_FAILED_BLANKS as LIVENESS_PROPERTY_FAILED_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_SCOPE_BLANKS as LIVENESS_SCOPE_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_TABLE_BLANKS as LIVENESS_TABLE_BLANKS,
)
from .words_model_discovery import (
    LIVENESS_TABLES_SCOPE_BLANKS as LIVENESS_TABLES_SCOPE_BLANKS,
)
from .words_model_discovery import (
    MUTATION_BLANKS as MUTATION_BLANKS,
)
from .words_model_discovery import (
    MUTATION_TEXT_BLANKS as MUTATION_TEXT_BLANKS,
)
from .words_model_discovery import (
    RULE_MUTATION_BLANKS as RULE_MUTATION_BLANKS,
)
from .words_model_discovery import (
    DecisionWords as DecisionWords,
)
from .words_model_discovery import (
    InteractionWords as InteractionWords,
)
from .words_model_discovery import (
    LivenessFailed as LivenessFailed,
)
from .words_model_discovery import (
    LivenessProperty as LivenessProperty,
)
from .words_model_discovery import (
    LivenessTables as LivenessTables,
)
from .words_model_discovery import (
    LivenessWords as LivenessWords,
)
from .words_model_discovery import (
    MutationTexts as MutationTexts,
)
from .words_model_discovery import (
    MutationWords as MutationWords,
)
from .words_model_discovery import (
    RuleMutationWords as RuleMutationWords,
)
from .words_model_discovery import (
    RuleWords as RuleWords,
)
from .words_model_engines import ENGINE_BLANKS as ENGINE_BLANKS
from .words_model_engines import EngineWords as EngineWords
from .words_model_questions import (
    LANGUAGES as LANGUAGES,
)
from .words_model_questions import (
    RULEBOOK_BLANKS as RULEBOOK_BLANKS,
)
from .words_model_questions import (
    TOPIC_QUESTION_BLANKS as TOPIC_QUESTION_BLANKS,
)
from .words_model_questions import (
    TOPIC_QUESTION_KINDS as TOPIC_QUESTION_KINDS,
)
from .words_model_questions import (
    Evidence as Evidence,
)
from .words_model_questions import (
    QuestionWords as QuestionWords,
)
from .words_model_questions import (
    TopicQuestionWords as TopicQuestionWords,
)
from .words_model_questions import (
    Wording as Wording,
)
from .words_model_report import (
    FORMAT_BLANKS as FORMAT_BLANKS,
)
from .words_model_report import (
    FORMAT_KIND_PARTS as FORMAT_KIND_PARTS,
)
from .words_model_report import (
    PAGE_BLANKS as PAGE_BLANKS,
)
from .words_model_report import (
    PAGE_NAMES as PAGE_NAMES,
)
from .words_model_report import (
    PLAIN_BLANKS as PLAIN_BLANKS,
)
from .words_model_report import (
    PLAIN_TABLES as PLAIN_TABLES,
)
from .words_model_report import (
    FormatWords as FormatWords,
)
from .words_model_report import (
    KindNoun as KindNoun,
)
from .words_model_report import (
    PageWords as PageWords,
)
from .words_model_report import (
    PlainWords as PlainWords,
)
from .words_model_vectors import (
    VECTOR_SENTENCE_BLANKS as VECTOR_SENTENCE_BLANKS,
)
from .words_model_vectors import (
    VectorWords as VectorWords,
)
from .words_text import (
    Sentences as Sentences,
)
from .words_text import (
    Side as Side,
)
from .words_text import (
    _Blanks,
)

WORDS_SUFFIX = ".words.yaml"


def _embedded_words_path() -> Path:
    embedded = embedded_spec_path()
    return embedded.with_name(embedded.stem + WORDS_SUFFIX)


#: The blanks each template may use; five35 fills exactly these.
TEMPLATE_BLANKS: Mapping[str, frozenset[str]] = {
    "defect_source": frozenset({"language"}),
    "defect_clause": frozenset({"intact"}),
    "only_one_text": frozenset({"missing", "passage"}),
    "parameter": frozenset({"name", "value"}),
    "dead_clause": frozenset({"clauses", "title"}),
    "contradiction": frozenset({"clauses", "title"}),
    "other": frozenset({"clauses", "title"}),
    "standing_open": frozenset(),
    "standing_text": frozenset(),
    "standing_evidence": frozenset(),
    "standing_house": frozenset(),
    "standing_change": frozenset(),
    "high_unsettled": frozenset({"count", "questions"}),
    "high_unsettled_item": frozenset({"title", "standing"}),
    "settle_first": frozenset({"title", "rank", "questions"}),
    "no_clear_change": frozenset({"questions"}),
    "match_length": frozenset({"by_count", "end"}),
    "match_length_first": frozenset({"mean", "players"}),
    "match_length_next": frozenset({"mean", "players"}),
    "match_length_last": frozenset({"mean", "players"}),
    "texts_say_otherwise": frozenset(),
    "share_under": frozenset({"share", "against"}),
    "share_undealt": frozenset({"against", "undealt"}),
    "undealt_hands": frozenset({"players", "hand", "need", "deck"}),
    "undealt": frozenset({"players", "deck"}),
}
#: The blanks a question's wording may use: the spec's numbers (`spec_numbers`), written as digits,
#: or with `:ord` / `:word` as the words file's `numbers` write them in the wording's language.
NUMBER_BLANKS = frozenset(
    {
        "copies_small",
        "copies_large",
        "set_close_small",
        "set_close_large",
        "run_close",
        "max_cards",
        "beyond_turn",
        "match_end",
        "highest",
        "lowest",
        "players_min",
        "players_max",
        "hand_2",
        "hand_3",
        "hand_4",
        "hand_5",
        "hand_6",
        "aside_2",
        "two_hands_2",
    }
)
#: The blanks an alternative's labels, words and method may use.
ALTERNATIVE_BLANKS = frozenset(
    {"points", "most_valued", "above_highest", "clause", "where", "under", "label", "combo", "plain", "part"}
)


@dataclass(frozen=True)
class AlternativeWords:
    """The two sides of a finding in words; `variant` names the engine of the compared side."""

    name: str
    variant: str | None
    played: Side
    compared: Side
    method: str

    def filled(self, **blanks: str) -> AlternativeWords:
        """The words with their blanks filled in (a blank not given stays empty)."""

        def fill(text: str) -> str:
            return text.format_map(_Blanks(blanks))

        return replace(
            self,
            played=Side(fill(self.played.label), fill(self.played.words)),
            compared=Side(fill(self.compared.label), fill(self.compared.words)),
            method=fill(self.method),
        )


Play = tuple[str, tuple[int, ...]]  # an action and its cards, sorted


@dataclass(frozen=True)
class SceneWords:
    """A small table set up by hand: hands (seat 0 first), the leader, the plays so far, and the
    moves whose outcome a finding's two sides are asked about."""

    name: str
    describe: str
    hands: tuple[tuple[int, ...], ...]
    leader: int
    plays: tuple[Play, ...]
    then: tuple[Play, ...]
    show_deck: bool


@dataclass(frozen=True)
class MismatchWords:
    """A known difference between the German and the Spanish wording of one clause: reported while
    both patterns still match the spec's clause texts."""

    key: str
    clause: str
    de_pattern: str
    es_pattern: str
    de_quote: str
    es_quote: str
    title: str
    detail: str
    wording: str
    severity: str
    variation_point: str | None
    pair: str | None  # the clause whose German and Spanish texts the text-example check proves apart
    alternative: AlternativeWords | None
    scene: SceneWords | None


@dataclass(frozen=True)
class Use:
    """How a subject of the text audit is graded and shown: its severity, its alternative, its scene."""

    severity: str
    alternative: AlternativeWords | None = None
    scene: SceneWords | None = None


@dataclass(frozen=True)
class ImpactGrades:
    high_share: float
    low_share: float
    conventions: tuple[str, ...]
    # Where both readings were played to the end (`severities.by_outcome`): the severity of an
    # answer that clearly changes the outcome, and the most an answer that changes none may have
    # (None: the outcome grades nothing).
    clear_outcome: str | None = None
    unclear_at_most: str | None = None


@dataclass(frozen=True)
class ClauseWords:
    name: str  # how the report speaks of the clause
    en: str  # a faithful English translation


@dataclass(frozen=True)
class Words:
    path: Path
    evidence: Mapping[str, Evidence]
    questions: Mapping[str, QuestionWords]
    clauses: Mapping[str, ClauseWords]
    repairs: Mapping[str, Mapping[str, str]]  # clause -> language -> the clause as it should read
    rulebook: Mapping[str, Mapping[str, Any]]  # language -> the clarified rulebook's own words
    #: The English sentence per point or parameter under its first listed reading (the spec's default
    #: once the spec is attached): what a check proposes for a finding about that subject.
    wordings: Mapping[str, str]
    templates: Mapping[str, str]
    #: each kind of finding (its value) in a designer's words
    kinds: Mapping[str, str]
    by_impact: ImpactGrades
    mismatches: tuple[MismatchWords, ...]
    gaps: Mapping[str, Use]
    defects: Use  # the severity of every defect
    defect_clauses: Mapping[str, Use]
    defect_sources: Mapping[str, Use]
    only_one_text: Use
    alternatives: Mapping[str, AlternativeWords]
    scenes: Mapping[str, SceneWords]
    scene_of: Mapping[str, Mapping[str, SceneWords]]
    liveness: LivenessWords
    #: The conformance vectors' words (the `vectors` section).
    vectors: VectorWords
    lines: Mapping[Key, int]
    #: The report's own prose (the `plain` section).
    plain: PlainWords
    #: The engine's own decisions where the texts are silent (the `decisions` section), by id.
    decisions: Mapping[str, DecisionWords] = field(default_factory=dict)
    #: kind of finding -> its words, for a question gathered per topic (templates.topic_questions).
    topic_questions: Mapping[str, TopicQuestionWords] = field(default_factory=dict)
    topic_no_clause: Mapping[str, str] = field(default_factory=dict)  # language -> "the rules"
    #: kind of discovered finding -> its severity where no measurement grades it (severities.by_kind).
    kind_severity: Mapping[str, str] = field(default_factory=dict)
    #: The rule-interaction check's words; None in a words file without the section.
    interactions: InteractionWords | None = None
    #: The engine mutants' words (the `mutations` section), by hook.
    mutations: Mapping[str, MutationWords] = field(default_factory=dict)
    #: What a silence found by a mutant says; None in a words file without `mutations.texts`.
    mutation_texts: MutationTexts | None = None
    #: What a silence found by a mutant of the rules says; None without `rule_mutations`.
    rule_mutations: RuleMutationWords | None = None
    #: The game the file was written for (its `game:`), None where it does not say.
    game: str | None = None
    #: Whether these are another game's words, borrowed for the toolkit's own phrasing only (the
    #: spec's game has no words file): no question, clause, scene or rulebook wording exists yet.
    foreign: bool = False
    #: language -> {"ordinal" | "cardinal": number -> word}: how a wording's blank `{name:ord}` or
    #: `{name:word}` writes a number (the `numbers` section).
    numbers: Mapping[str, Mapping[str, Mapping[int, str]]] = field(default_factory=dict)
    #: check name -> its one-line title (`checks.titles`).
    check_titles: Mapping[str, str] = field(default_factory=dict)
    #: check (or group of checks) -> sentence name -> the sentence (`checks.sentences`).
    check_sentences: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: The report pages' own words (`pages`).
    pages: PageWords = field(kw_only=True)
    #: The CI formats' own words (`formats`).
    formats: FormatWords = field(kw_only=True)
    #: The engines' own words (`engines`).
    engines: EngineWords = field(kw_only=True)

    def where(self, *key: str | int) -> str:
        """`file:line: key` of an entry, for errors that point into the words file."""
        dotted = ".".join(str(k) for k in key)
        return f"{self.path}:{nearest_line(dict(self.lines), tuple(key))}: {dotted}"

    def check(self, name: str) -> CheckWords:
        """The words of check (or group of checks) `name`: handed to a check once per run."""
        return CheckWords(name, self.check_titles.get(name, ""), self.check_sentences.get(name, {}))

    def template(self, which: str, /, **blanks: str) -> str:
        """Template `which` with its blanks filled in."""
        return self.templates[which].format_map(_Blanks(blanks))

    def wording(self, subject: str) -> str | None:
        return self.wordings.get(subject)

    def departed_from(self, topics: Sequence[str]) -> tuple[str, ...]:
        """The outside evidence (ids this file lists) that the engine's decisions on `topics`
        depart from, each once, in order: a source that plays the other answer."""
        out: list[str] = []
        for topic in topics:
            decision = self.decisions.get(topic)
            for eid in decision.departs_from if decision is not None else ():
                if eid in self.evidence and eid not in out:
                    out.append(eid)
        return tuple(out)

    def question_of(self, subject: str) -> QuestionWords | None:
        """The question that settles a variation point or a parameter."""
        return next(
            (q for q in self.questions.values() if subject in q.points or subject in q.parameters), None
        )

    def clause_name(self, clause: str) -> str:
        words = self.clauses.get(clause)
        return words.name if words else clause

    def scene_for(self, check: str, subject: str) -> SceneWords | None:
        """The scene that shows `check`'s finding about `subject` (its own key for it)."""
        return self.scene_of.get(check, {}).get(subject)

    def alternative(self, name: str) -> AlternativeWords:
        return self.alternatives[name]
