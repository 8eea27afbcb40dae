"""The words of the questions a designer settles (the `questions` section) and of the clarified
rulebook that answers them: each question's proposed wordings in English, German and Spanish, the
generic words of a question gathered from discovered findings, the rulebook's own blanks, and the
outside evidence the answers cite."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The blanks a question gathered from discovered findings (templates.topic_questions) may use.
TOPIC_QUESTION_BLANKS = frozenset({"title", "topic", "clause", "name"})
#: The kinds of discovered findings a question is gathered for when no question lists their topic.
TOPIC_QUESTION_KINDS = ("silence", "engine_decision", "liveness")
#: The blanks the rulebook's own words may use.
RULEBOOK_BLANKS = frozenset({"game", "profile", "n", "basis", "by", "house", "letters"})


@dataclass(frozen=True)
class Evidence:
    """One fact about the published game and where it comes from (the page named in full, even
    where the file says "same page")."""

    id: str
    fact: str
    source: str
    #: Who the source is, as a rulebook names it ("laut Board Game Arena"); None: not named.
    by: str | None = None


#: The languages of a proposed wording: English, and the rulebook's own German and Spanish.
LANGUAGES: tuple[str, ...] = ("en", "de", "es")


@dataclass(frozen=True)
class Wording:
    """One sentence the clarified rulebook inserts after clause `at`, in every language, when the
    rules played take the readings in `when` (empty: always)."""

    at: str
    text: Mapping[str, str]
    when: Mapping[str, str]
    # The parameter values the sentence spells out (parameter -> value, a part of a mapping's
    # value): for a spec whose parameters differ it is not true, and is left out.
    holds: Mapping[str, Any] = field(default_factory=dict)

    def applies(self, readings: Mapping[str, str]) -> bool:
        return all(readings.get(point) == reading for point, reading in self.when.items())


@dataclass(frozen=True)
class QuestionWords:
    """A question a designer settles: the variation points (or the parameters, or the engine
    variants of the findings) it gathers, the question in words, a short name per reading, and the
    sentences that settle it under each reading."""

    id: str
    title: str
    points: tuple[str, ...]
    parameters: tuple[str, ...]
    variants: tuple[str, ...]
    ask: Mapping[str, str]
    readings: Mapping[str, str]  # reading (or `point=reading`) -> short plain name
    wordings: tuple[Wording, ...]
    # The topics of discovered findings (Finding.topic: an engine hook, a rule pair, an engine
    # decision's id) this question gathers; a topic belongs to one question only.
    topics: tuple[str, ...] = ()
    #: why the proposed answer is what it is, and what it leaves unresolved, in a designer's words
    #: (English; the report shows it with the answer's basis); None: not said
    grounds: str | None = None
    #: a question without points whose answer the texts' own words or examples point to: the report
    #: says it is to confirm rather than open, and the rulebooks print its wording as a clarification
    texts_point_to_answer: bool = False

    def wordings_for(self, readings: Mapping[str, str]) -> tuple[Wording, ...]:
        """The sentences that settle the question under `readings` (point -> reading)."""
        return tuple(w for w in self.wordings if w.applies(readings))

    def wording(self, readings: Mapping[str, str], language: str = "en") -> str:
        """Those sentences in one language, as one text ("" when the words file has none)."""
        return " ".join(w.text[language] for w in self.wordings_for(readings) if language in w.text)


@dataclass(frozen=True)
class TopicQuestionWords:
    """The generic words of a question gathered from discovered findings of one kind whose topic no
    question lists: its title, the question and the proposed sentence in every language, with
    blanks (TOPIC_QUESTION_BLANKS) the pipeline fills from the findings."""

    kind: str
    title: str
    ask: Mapping[str, str]
    wording: Mapping[str, str]


def _evidence_order(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)
