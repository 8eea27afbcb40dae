"""The text-derived oracle: what the clauses themselves say, put to an engine as concrete questions.

Each question asks an engine's public hooks something the texts state outright and cites the
clause: the texts' own examples (checks/text/text_examples.py holds them as Z3 constraints; here
they are asked of an engine), the numbers the clauses give, and the few consequences a clause
states for every reading: every pile the texts define can be led as itself ("Spielbare
Stapeltypen"), a trick ends in none but the four ways ("1 von 4 Dingen"), the match ends at the
score the clause gives and goes to the fewest points. A question asks nothing where the texts pull
apart, because there the text decides nothing a mutant could contradict:

- the rank order of runs (the example "1,2,3 > 11,12,13" against "höherrangig", run_order's
  question), and where an 8 stands ("die wertvollsten" read as strength, eight_rank's question):
  the overwrite questions leave the 8 out and ask about runs only that one run of a size cannot
  beat itself;
- at 5 players the copies and the closing size of a set (German "5+", Spanish "más de 5"): both 4
  and 5 pass there;
- which plays of an 8 are the Rule of 8 beyond the listed forms (8,9; an added 8): the questions ask
  only about the listed forms played as an overwrite;
- the exemption beyond the opening play: only "the opening play never triggers" is asked;
- the closing of a set or run by a lead or an overwrite (German "legt", Spanish "añade"): only an
  add is asked about.

The questions are independent of which variation points a spec declares (they read no point and no
reading), so hiding a point never changes what kills a mutant. The Z3 model's own clause-level
facts are not re-asked here: its examples are these questions, asked of the engine.

The questions themselves are in questions.py (and universal.py); the play invariants in
play_invariants.py. A question answers with the name of a sentence of the words file
(`discovery.oracle`) and its blanks, and quotes the texts in the words file too (see `Quoted`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...engine import Game
from ...spec import Spec, SpecError
from ...spec.words import words_of
from . import questions
from . import universal as every
from .questions import EIGHT
from .said import ORACLE, Said, oracle


@dataclass(frozen=True)
class Quoted:
    """Where a question quotes the texts when not under its own id in the oracle's words
    (`discovery.oracle`: states.<id>, other.<id>, and rests_on.<id> where the question takes more
    for granted than it quotes): clause `clause` whole as the spec gives it in each text, the quotes
    of the words file's German/Spanish mismatch `mismatch`, or the words of question `question`."""

    clause: str | None = None
    mismatch: str | None = None
    question: str | None = None


@dataclass(frozen=True)
class Question:
    """One thing the texts state, asked of an engine: `ask` returns why the engine contradicts it,
    or None (it agrees, or the question does not apply to this deck or table)."""

    id: str
    clause: str
    ask: Callable[[Game], Said | None]
    #: Where the words of the clause are quoted (German unless `lang` says otherwise), with the
    #: other text's words for the same thing (see `Quotation`): by default under the question's id.
    quoted: Quoted = Quoted()
    lang: str = "de"


@dataclass(frozen=True)
class Quotation:
    """What a question's text says, in the words of the clause (`states`, in the question's `lang`),
    the other text's words for the same thing (`other`; "" where that text lacks them: the Spanish
    copy's examples are cut off), so a designer sees which text states what, and what the question
    takes for granted beyond the quoted words (`rests_on`, "" for nothing), said where a kill is
    listed as settled, so a reader who does not take it for granted sees that it is an open
    question."""

    states: str
    other: str
    rests_on: str = ""


def quotation(question: Question, spec: Spec) -> Quotation:
    """The words `question` quotes, from the spec's words (or its clause texts)."""
    quoted = question.quoted
    if quoted.clause is not None:
        clause = spec.clauses[quoted.clause]
        return Quotation(clause.de or "", clause.es or "")
    words = words_of(spec)
    if quoted.mismatch is not None:
        mismatch = next(m for m in words.mismatches if m.key == quoted.mismatch)
        return Quotation(mismatch.de_quote, mismatch.es_quote)
    own = words.check(ORACLE).sentences
    key = quoted.question or question.id
    return Quotation(
        own[f"states.{key}"], own.get(f"other.{key}", ""), own.get(f"rests_on.{question.id}", "")
    )


# No question asks that a higher number ranks higher among singles and sets beyond the German
# examples (1 < 7 < 14, 1,1,1 < 14,14,14): neither text says so of the other numbers, so an engine
# that makes, say, the 5 the strongest rank is a silence for a designer to settle, not a kill.
QUESTIONS: tuple[Question, ...] = (
    Question("pile.single.example", "pile.single", questions.single_example),
    Question("pile.set.example", "pile.set", questions.set_example),
    Question("action.overwrite.strictly", "action.overwrite", questions.never_its_equal),
    Question("action.overwrite.match", "action.overwrite", questions.same_type_and_size),
    Question("pile.run.consecutive", "pile.run", questions.runs_consecutive),
    Question("eight.trigger.single", "eight.trigger", questions.listed_eight((EIGHT,))),
    Question("eight.trigger.set", "eight.trigger", questions.listed_eight((EIGHT, EIGHT))),
    Question("eight.trigger.run78", "eight.trigger", questions.listed_eight((7, EIGHT))),
    Question("eight.trigger.run789", "eight.trigger", questions.listed_eight((7, EIGHT, 9))),
    Question("eight.exemption.opening", "eight.exemption", questions.opening_never),
    Question("trick.winner.last", "trick.winner", questions.last_placer_wins),
    Question("trick.end.set.card", "trick.end.set", questions.set_closes),
    Question(
        "trick.end.set.placed",
        "trick.end.set",
        questions.closing_card_placeable("set"),
        Quoted(mismatch="trick.end.set.verb"),
    ),
    Question(
        "trick.end.run.placed",
        "trick.end.run",
        questions.closing_card_placeable("run"),
        Quoted(mismatch="trick.end.run.verb"),
    ),
    Question("trick.end.run.card", "trick.end.run", questions.run_closes),
    Question("deck.copies.count", "deck.copies", questions.deck_copies),
    Question("round.scoring.cards", "round.scoring", questions.penalty_adds_up),
    Question("eight.value.points", "eight.value", questions.eight_most_points, lang="es"),
    Question("match.end.score", "match.end", questions.match_ends_at_score),
    Question("match.winner.lowest", "match.winner", questions.lowest_wins),
    Question("pile.types.lead", "pile.types", questions.leads_as_typed, Quoted(clause="pile.types")),
    # Asked of every play and pass outside the four endings, in every moment (universal.py).
    Question("trick.end.four", "trick.end", every.goes_on_every),
    # The clauses that speak of every case, asked of every case (universal.py).
    Question("action.add.every", "action.add", every.adds_lengthen_every),
    Question(
        "pile.ranked.every",
        "action.overwrite",
        every.ranked_every,
        Quoted(question="action.overwrite.strictly"),
    ),
    Question("action.overwrite.every", "action.overwrite", every.overwrite_every),
    Question(
        "trick.end.set.every", "trick.end.set", every.closes_set_every, Quoted(mismatch="trick.end.set.verb")
    ),
    Question(
        "trick.end.run.every", "trick.end.run", every.closes_run_every, Quoted(mismatch="trick.end.run.verb")
    ),
    Question("eight.trigger.every", "eight.trigger", every.eight_every),
)


@dataclass(frozen=True)
class Kill:
    """What caught a mutant: a question or an invariant, the clause it cites (None: an invariant
    that encodes a rule no clause writes), and what happened."""

    by: str
    clause: str | None
    #: what happened, as a sentence of the words file with its blanks
    said: Said

    @property
    def unwritten(self) -> bool:
        return self.clause is None


def question_of(kill: Kill) -> Question | None:
    """The question that caught a mutant (None: an invariant, which states its clause whole)."""
    return next((q for q in QUESTIONS if q.id == kill.by), None)


def _asked(question: Question, game: Game) -> Kill | None:
    try:
        answer = question.ask(game)
    except (ValueError, SpecError, KeyError, IndexError) as exc:
        answer = oracle("raised", error=type(exc).__name__, text=str(exc))
    return Kill(question.id, question.clause, answer) if answer is not None else None


def ask_questions(game: Game) -> Kill | None:
    """The first question the engine contradicts."""
    return next(contradictions(game), None)


def contradictions(game: Game) -> Iterator[Kill]:
    """The questions the engine contradicts, asked one at a time (a caller may stop at the first)."""
    for question in QUESTIONS:
        kill = _asked(question, game)
        if kill is not None:
            yield kill


def contradicted(game: Game) -> tuple[Kill, ...]:
    """Every question the engine contradicts. The reference engine contradicts none under rules
    that say what the texts say; under a spec that changes a number the texts state (3 copies where
    they say 4) it contradicts that question, which then tells no mutant from it."""
    return tuple(contradictions(game))
