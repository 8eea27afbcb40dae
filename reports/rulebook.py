"""Clarified rulebooks: the whole rule text of one language with a profile's answers placed after
the clauses they concern, each marked and listed in a short list of changes.

An answer is marked for what it is: a *clarification* where the profile settles the question on a
text or outside evidence and this language's text agrees; a *correction* where it settles it
against what this language's text says (the literal profile of this text reads it otherwise), and
wherever a damaged clause is restored; a *proposal* where the question is open (no source settles
it, or the engine's own choice). Clarifications, proposals and corrections of a question carry one
number in every language (in the spec's clause order); the restorations of damaged clauses, which
only the damaged text has, carry letters.

For German and Spanish the text is the source file itself (spec/sources/), every sentence of it
unchanged: the clauses are found in it in order (a run of spaces in the spec matches any run of
white space in the file, non-breaking spaces included) and an insertion only ever goes between two
clauses, where the file has white space. English follows the German text's layout, clause by clause,
in the words file's translation. The clarifications are the words file's question wordings under the
profile's readings (spec/535.words.yaml `questions`); a damaged or missing clause gets the words
file's repair (`repairs`). Nothing here runs a check: the rulebook of a profile is the same whatever
the checks find. The output is deterministic; writing it (atomically) is the command's business.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Literal

from ..spec import SETTLING_BASES, Ruleset, Spec, SpecError
from ..spec.words import no_wording, questions_of, words_of
from ..spec.words_model import QuestionWords, Words

LANGUAGES: tuple[str, ...] = ("de", "es", "en")
FORMATS: tuple[str, ...] = ("md", "html")
Format = Literal["md", "html"]


#: What an insertion is: an answer the sources settle, a proposal for an open question, or a
#: change to what this language's text says (a restored clause or an answer the text contradicts).
Kind = Literal["clarification", "proposal", "correction", "change"]


@dataclass(frozen=True)
class Insertion:
    """One marked insertion: the answer to a question, or the restoration of a damaged clause."""

    number: str  # "1", "2", ... for answers (the same in every language); "A", "B", ... for repairs
    after: str | None  # the clause it follows (None: before the first clause)
    text: str
    question: QuestionWords | None  # the question it answers (None: a restored clause)
    basis: str  # a key of the words file's rulebook basis table
    kind: Kind = "clarification"
    # Other questions the same sentence answers at the same place (it is inserted once).
    also: tuple[QuestionWords, ...] = ()
    # A repair of a clause this text has, damaged: the clause as received, which the repair is
    # printed in place of (the damaged line is quoted in its note, not printed twice).
    replaces: str | None = None
    # The clause a repair restores (None for an answer).
    restores: str | None = None
    # Who the outside evidence that settles it is (a basis of evidence names its sources).
    by: tuple[str, ...] = ()
    # Who plays the other answer: the outside sources an answer of the engine's departs from.
    departs: tuple[str, ...] = ()

    @property
    def questions(self) -> tuple[QuestionWords, ...]:
        return (self.question, *self.also) if self.question is not None else ()


@dataclass(frozen=True)
class Piece:
    """A clause of the rule text as the rulebook prints it, and the white space that follows it."""

    clause: str
    text: str
    gap: str


@dataclass(frozen=True)
class Rulebook:
    language: str
    title: str
    intro: str
    lead: str  # the white space before the first clause
    pieces: tuple[Piece, ...]
    insertions: tuple[Insertion, ...]
    words: Mapping[str, Any]  # the words file's rulebook words for this language

    def after(self, clause: str | None) -> list[Insertion]:
        return [i for i in self.insertions if i.after == clause and i.replaces is None]

    def replacing(self, clause: str) -> Insertion | None:
        return next((i for i in self.insertions if i.after == clause and i.replaces is not None), None)


def _locate(text: str, clause: str, start: int) -> re.Match[str] | None:
    """The clause in the source text, from `start` on; a space in the spec's clause stands for any
    run of white space in the file."""
    parts = [re.escape(p) for p in clause.split()]
    return re.compile(r"\s+".join(parts)).search(text, start)


def _layout(spec: Spec, words: Words, language: str) -> tuple[str, list[Piece]]:
    """The source text of `language` cut at its clauses (English: the German text's cuts, with the
    translation in place of each clause)."""
    base = "de" if language == "en" else language
    source = spec.sources.get(base)
    if source is None:
        raise SpecError("--lang", f"the spec has no {base} source text")
    try:
        text = source.file.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(str(source.file), f"cannot read the source text ({exc.strerror or exc})") from None
    found: list[tuple[str, int, int]] = []
    pos = 0
    for clause in spec.clauses.values():
        own = clause.text(base)
        if own is None:
            continue
        match = _locate(text, own, pos)
        if match is None:
            raise SpecError(
                spec.where("clauses", clause.id, base),
                f"is not in the source text {source.file.name} after the clauses before it",
            )
        found.append((clause.id, match.start(), match.end()))
        pos = match.end()
    lead = text[: found[0][1]] if found else text
    pieces = []
    for i, (cid, start, end) in enumerate(found):
        gap = text[end : found[i + 1][1]] if i + 1 < len(found) else text[end:]
        if language == "en":
            shown = words.clauses[cid].en if cid in words.clauses else text[start:end]
        else:
            shown = text[start:end]
        pieces.append(Piece(cid, shown, gap))
    return lead, pieces


def _past_lists(spec: Spec, language: str, pieces: Sequence[Piece]) -> dict[str, str]:
    """For every clause, the clause an insertion about it follows: itself (an item of a list too,
    so that an answer about adding stands right after the item on adding), or, for the sentence
    that introduces a list (a line ending in a colon followed by lines starting with a dash), the
    last clause of that list, so that no insertion parts a list from its sentence."""
    base = "de" if language == "en" else language
    lines: list[list[str]] = [[]]
    for piece in pieces:
        lines[-1].append(piece.clause)
        if _ends_line(piece.gap):
            lines.append([])
    lines = [line for line in lines if line]

    def source(clause: str) -> str:
        return (spec.clauses[clause].text(base) or "").strip()

    item = [source(line[0]).startswith(("-", "\u2013")) for line in lines]
    opens = [source(line[-1]).endswith(":") for line in lines]
    out: dict[str, str] = {}
    for n, line in enumerate(lines):
        end = n
        if opens[n] and not item[n] and n + 1 < len(lines) and item[n + 1]:
            while end + 1 < len(lines) and item[end + 1]:
                end += 1
        for clause in line:
            out[clause] = clause if end == n else lines[end][-1]
    return out


def _basis(spec: Spec, ruleset: Ruleset, q: QuestionWords) -> str:
    if not q.points:
        if q.texts_point_to_answer:
            return "text"
        assumed = any(not spec.parameters[p].in_text for p in q.parameters if p in spec.parameters)
        return "assumed" if assumed else "engine"
    profile = spec.profiles[ruleset.profile]
    bases = []
    for point in q.points:
        choice = profile.readings.get(point)
        if point in ruleset.overridden or choice is None:
            return "--reading"
        bases.append(choice.basis)
    # A question of several points is only as settled as its least settled point.
    return next((b for b in bases if b not in SETTLING_BASES), bases[0])


def _literal(spec: Spec, language: str) -> Mapping[str, str]:
    """What the text of `language` says, point by point: the readings its literal profile takes on
    the text's own word (basis text); English is the German text's translation."""
    source = spec.sources.get("de" if language == "en" else language)
    if source is None:
        return {}
    for profile in spec.profiles.values():
        if profile.status == "literal" and Path(profile.source).name == source.file.name:
            return profile.on_the_text
    return {}


def _kind(spec: Spec, ruleset: Ruleset, q: QuestionWords, literal: Mapping[str, str]) -> Kind:
    """A proposal while the question is open; once settled, a correction where this language's
    text says otherwise and another text of the rules (the other language's) says what the answer
    says, or a house rule settles it; a proposed change where this text says otherwise and only an
    outside source, no text of the rules, supports the answer; else a clarification."""
    basis = _basis(spec, ruleset, q)
    if basis not in SETTLING_BASES:
        return "proposal"
    readings = ruleset.readings
    against = [p for p in q.points if p in literal and literal[p] != readings.get(p)]
    if not against:
        return "clarification"
    texts = spec.texts_read_literally
    if basis == "house" or all(any(t.get(p) == readings.get(p) for t in texts) for p in against):
        return "correction"
    return "change"


def _letter(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(ord("A") + r) + out
        if n == 0:
            return out
        n -= 1


Placer = Callable[..., tuple[int, str | None]]


def _placer(spec: Spec, language: str, pieces: Sequence[Piece]) -> Placer:
    """Where an insertion about a clause goes in this language's text."""
    present = [p.clause for p in pieces]
    order = {c: i for i, c in enumerate(spec.clauses)}
    past_list = _past_lists(spec, language, pieces)

    def place(clause: str, lists: bool = True) -> tuple[int, str | None]:
        """After the clause, or after the nearest clause before it that this language has (before
        the text when there is none); never between a list and the sentence that opens it (a
        repair stands right after the clause it restores)."""
        if clause not in present:
            before = [c for c in present if order[c] < order.get(clause, 0)]
            if not before:
                return -1, None
            clause = before[-1]
        at = past_list[clause] if lists else clause
        return order[at], at

    return place


Answer = tuple[str, tuple[tuple[str, str], ...], list[QuestionWords]]  # clause, texts, questions


def _answers(spec: Spec, ruleset: Ruleset, literal: Mapping[str, str]) -> list[Answer]:
    """Every answer of the ruleset, in the words file's order. One sentence that answers several
    questions at one clause (in every language alike) is one answer, if it is of one kind for all
    of them: a settled question never shares its sentence with an open one."""
    readings = dict(ruleset.reading_items)
    answers: list[Answer] = []
    index: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    for q in questions_of(spec):
        for w in q.wordings_for(readings):
            if w.at not in spec.clauses:
                continue
            key = (w.at, tuple(sorted(w.text.items())))
            first = index.get(key)
            if first is not None and _kind(spec, ruleset, answers[first][2][0], literal) == _kind(
                spec, ruleset, q, literal
            ):
                answers[first][2].append(q)
                continue
            index.setdefault(key, len(answers))
            answers.append((w.at, key[1], [q]))
    return answers


def _insertions(
    spec: Spec, words: Words, ruleset: Ruleset, language: str, pieces: Sequence[Piece]
) -> list[Insertion]:
    """The answers and repairs of one language, in the order of the text. Answers are numbered in
    the order of the German text (the English one follows its layout), so that a number names the
    same answer in every language; a repair's letter counts the repairs of this text."""
    literal = _literal(spec, language)
    place = _placer(spec, language, pieces)
    canonical = "de" if "de" in spec.sources else language
    same_layout = language == canonical or (language == "en" and canonical == "de")
    number_place = place if same_layout else _placer(spec, canonical, _layout(spec, words, canonical)[1])
    answers = _answers(spec, ruleset, literal)
    numbered = sorted(range(len(answers)), key=lambda i: (number_place(answers[i][0])[0], i))
    number = {i: n for n, i in enumerate(numbered, 1)}

    raw: list[tuple[int, int, Insertion]] = []
    for i, (at, texts, qs) in enumerate(answers):
        text = dict(texts).get(language)
        q = qs[0]
        if text is None and q.id not in words.questions and "en" in dict(texts):
            # A point of the spec's own (a house rule) has the words its author wrote, in
            # English: quoted as written, and said to be so, rather than left out.
            note = words.rulebook[language].get("untranslated")
            text = f"{dict(texts)['en']} ({note})" if note else dict(texts)["en"]
        if text is None:
            continue
        rank, after = place(at)
        kind = _kind(spec, ruleset, q, literal)
        basis = _basis(spec, ruleset, q)
        by = _sources(spec, words, qs) if basis == "evidence" else ()
        ins = Insertion(
            str(number[i]), after, text, q, basis, kind, tuple(qs[1:]), by=by, departs=_departs(words, qs)
        )
        raw.append((rank, number[i], ins))
    received = {p.clause: p.text for p in pieces}
    repairs = sorted(
        (place(clause, lists=False), repaired[language], received.get(clause), clause)
        for clause, repaired in words.repairs.items()
        if language in repaired and clause in spec.clauses
    )
    for n, ((rank, after), text, damaged, clause) in enumerate(repairs):
        ins = Insertion(
            _letter(n), after, text, None, "repair", "correction", replaces=damaged, restores=clause
        )
        raw.append((rank, -1, ins))
    raw.sort(key=lambda r: (r[0], r[1]))
    return [ins for _, _, ins in raw]


def rulebook(spec: Spec, ruleset: Ruleset, language: str) -> Rulebook:
    """The clarified rulebook of `language` (de, es, en) under `ruleset`."""
    if language not in LANGUAGES:
        raise SpecError("--lang", f"expected one of {', '.join(LANGUAGES)}, got {language!r}")
    words = words_of(spec)
    missing = no_wording(spec)
    if missing is not None:
        # A clarified rulebook is the words file's: its translation, its clarifications' wording.
        raise SpecError("--spec", f"{missing}; write it to get a clarified rulebook")
    own = words.rulebook[language]
    lead, pieces = _layout(spec, words, language)
    profile = spec.profiles.get(ruleset.profile)
    # The rules played by their name in this language, where the words file gives one.
    name = own.get("profiles", {}).get(ruleset.profile) or (profile.title if profile else ruleset.profile)
    if ruleset.overridden and own.get("changed"):
        name = f"{name} {own['changed']}"
    # Only a house rule settles an answer for good; without one the legend does not mention them.
    house = profile is not None and any(choice.basis == "house" for choice in profile.readings.values())
    insertions = tuple(_insertions(spec, words, ruleset, language, pieces))
    # Only a text with a restored line says what its letters mean.
    lettered = any(ins.restores is not None for ins in insertions)
    blanks = {
        "game": spec.game,
        "profile": name,
        "house": own.get("house_except", "") if house else "",
        "letters": own.get("letters_note", "") if lettered else "",
    }
    return Rulebook(
        language=language,
        title=own["title"].format_map(blanks),
        intro=own["intro"].format_map(blanks),
        lead=lead,
        pieces=tuple(pieces),
        insertions=insertions,
        words=own,
    )


# ---- Markdown ------------------------------------------------------------------------------------


#: The words file's label of each kind of insertion (`repair` names a correction).
_LABEL = {
    "clarification": "clarification",
    "proposal": "proposal",
    "correction": "repair",
    "change": "change",
}
#: And how each kind cites its question.
_CITES = {
    "clarification": "settles",
    "proposal": "proposes",
    "correction": "corrects",
    "change": "proposes_change",
}


def _label(book: Rulebook, ins: Insertion) -> str:
    # A words file without a label for changes names them as proposals, which they also are.
    label = book.words.get(_LABEL[ins.kind]) or book.words["proposal"]
    return str(label).format(n=ins.number)


def _cites(book: Rulebook, ins: Insertion, received: bool = True) -> str:
    """What an insertion answers: the question in the rulebook's language, or why a repair holds
    (with the damaged clause as received, unless `received` is False: the list of changes names
    it already)."""
    if ins.question is None:
        if ins.replaces is None:
            return f"{book.words['basis_label']}: {book.words['basis']['repair']}"
        if _layout_only(ins):
            # The words arrived whole: quoting them again as received would show no damage.
            return f"{book.words['basis_label']}: {book.words['basis']['layout']}"
        if not received:
            # The list of changes says "in place of «…»" already: the same basis as the note's.
            return f"{book.words['basis_label']}: {book.words['basis']['damaged']}"
        return (
            f"{book.words['basis_label']}: {book.words['basis']['damaged']}; "
            f"{book.words['received']} {quote(book.language, ins.replaces)}"
        )
    verb = book.words[_CITES[ins.kind]]
    return "; ".join(
        f"{verb} {quote(book.language, q.ask.get(book.language) or q.ask['en'])}" for q in ins.questions
    )


def _layout_only(ins: Insertion) -> bool:
    """Whether a restored clause differs from the line as received only by the list dash that
    opens it (the line break before it lost with it)."""
    return ins.replaces is not None and ins.text.removeprefix("-").strip() == ins.replaces.strip()


def _sources(spec: Spec, words: Words, questions: Sequence[QuestionWords]) -> tuple[str, ...]:
    """Who the evidence on the questions' points is, each once, in the order the spec cites it."""
    evidence = words.evidence
    out: list[str] = []
    for q in questions:
        for point in q.points:
            vp = spec.variation_points.get(point)
            for eid in vp.evidence if vp is not None else ():
                by = evidence[eid].by if eid in evidence else None
                if by is not None and by not in out:
                    out.append(by)
    return tuple(out)


def _departs(words: Words, questions: Sequence[QuestionWords]) -> tuple[str, ...]:
    """Who plays the other answer: the outside evidence the engine's decisions on the questions'
    topics depart from, each source once."""
    out: list[str] = []
    for q in questions:
        for eid in words.departed_from(q.topics):
            by = words.evidence[eid].by
            if by is not None and by not in out:
                out.append(by)
    return tuple(out)


def _names(book: Rulebook, names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {book.words['and']} {names[-1]}"


def _basis_words(book: Rulebook, ins: Insertion) -> str:
    """The basis in the rulebook's words, naming the outside sources it rests on, or those that
    play the other answer; a basis the table lacks reads as no source's."""
    table = book.words["basis"]
    said = str(table.get(ins.basis) or table["silent"])
    if ins.by:
        said = str(book.words["according_to"]).format(basis=said, by=_names(book, ins.by))
    if ins.departs and "departs" in book.words:
        said += "; " + str(book.words["departs"]).format(by=_names(book, ins.departs))
    return said


#: The quotation marks of each language, and those of a quotation inside a quotation.
_MARKS = {"de": ("„", "“"), "es": ("«", "»"), "en": ("“", "”")}
_INNER = {"de": ("‚", "‘"), "es": ("“", "”"), "en": ("‘", "’")}


def quote(language: str, text: str) -> str:
    outer, inner = _MARKS.get(language, _MARKS["en"]), _INNER.get(language, _INNER["en"])
    # A quotation inside takes the inner marks, as the language writes them (not „…„…““).
    text = text.replace(outer[0], inner[0]).replace(outer[1], inner[1])
    return f"{outer[0]}{text}{outer[1]}"


def _ends_line(gap: str) -> bool:
    """Whether the white space after a clause ends its line of the text."""
    return "\n" in gap


def _md_block(book: Rulebook, ins: Insertion) -> str:
    return f"> **[{_label(book, ins)}]** {ins.text}\n> *({_cites(book, ins)})*"


def _short(text: str, width: int = 48) -> str:
    if len(text) <= width:
        return text
    return text[:width].rsplit(" ", 1)[0] + " …"


def _where(book: Rulebook, ins: Insertion, by_clause: Mapping[str, str]) -> str:
    """Where an insertion stands, for the list of changes: after a clause, in place of a damaged
    one, or before the text."""
    if ins.replaces is not None:
        return f"{book.words['instead_of']} {quote(book.language, _short(ins.replaces))}"
    if ins.after is not None and ins.after in by_clause:
        return f"{book.words['after']} {quote(book.language, _short(by_clause[ins.after]))}"
    return str(book.words["before_text"])


def _errata_md(book: Rulebook) -> list[str]:
    lines = [f"## {book.words['errata']}", ""]
    by_clause = {p.clause: p.text for p in book.pieces}
    for ins in book.insertions:
        lines.append(f"- {_label(book, ins)}, {_erratum(book, ins, by_clause, str)}")
    return lines


def _erratum(book: Rulebook, ins: Insertion, by_clause: Mapping[str, str], esc: Callable[[str], str]) -> str:
    """An entry of the list of changes after its label, each part through `esc` (the format's
    escaping): where the insertion stands and what it answers, with its basis where it answers a
    question."""
    where = esc(_where(book, ins, by_clause))
    if ins.question is None:
        return f"{where}: {esc(_cites(book, ins, received=False))}."
    return (
        f"{where}: {esc(_cites(book, ins))}; "
        f"{esc(str(book.words['basis_label']))}: {esc(_basis_words(book, ins))}."
    )


def render_md(book: Rulebook) -> str:
    """The rulebook as Markdown: each line of the text its own paragraph, so that a rendered page
    keeps the text's line breaks; every insertion a marked quotation block."""
    out: list[str] = [f"# {book.title}", "", f"*{book.intro}*", ""]
    for ins in book.after(None):
        out += [_md_block(book, ins), ""]
    line: list[str] = []
    for i, piece in enumerate(book.pieces):
        if i == 0 and piece.clause == "title":
            out += [f"## {piece.text}", ""]
            for ins in book.after(piece.clause):
                out += [_md_block(book, ins), ""]
            continue
        inserted = book.after(piece.clause)
        repaired = book.replacing(piece.clause)
        if repaired is not None:
            if line:
                out += [" ".join(line), ""]
                line = []
            out += [_md_block(book, repaired), ""]
        else:
            line.append(piece.text)
        if line and (inserted or _ends_line(piece.gap) or i == len(book.pieces) - 1):
            out += [" ".join(line), ""]
            line = []
        for ins in inserted:
            out += [_md_block(book, ins), ""]
    out += _errata_md(book)
    return "\n".join(out).rstrip("\n") + "\n"


# ---- HTML ----------------------------------------------------------------------------------------

_STYLE = """
body { font-family: Georgia, "Times New Roman", serif; max-width: 46rem; margin: 1.5rem auto; padding: 0 1rem;
  color: #222; line-height: 1.5; }
h1, h2 { font-family: Helvetica, Arial, sans-serif; }
h1 { font-size: 1.5rem; }
p { margin: .5rem 0; }
.intro { color: #555; font-style: italic; }
ins.insertion { display: block; text-decoration: none; border-left: 4px solid #3465a4; background: #eef2f8;
  padding: .3rem .7rem; margin: .4rem 0 .8rem; }
ins.correction { border-left-color: #cc0000; background: #fbeaea; }
ins.proposal, ins.change { border-left-color: #c4a000; background: #fcf8e3; border-left-style: dashed; }
.mark { font: bold .8rem Helvetica, Arial, sans-serif; color: #3465a4; margin-right: .4rem; }
ins.correction .mark { color: #a40000; }
ins.proposal .mark, ins.change .mark { color: #8f5902; }
.cites { display: block; font-size: .85rem; color: #555; font-style: italic; }
small { color: #777; }
ul.errata li { margin: .3rem 0; }
@media print { body { max-width: none; margin: 0; font-size: 10.5pt; }
  ins.insertion { break-inside: avoid; } }
"""


def _html_block(book: Rulebook, ins: Insertion) -> str:
    return (
        f'<ins class="insertion {ins.kind}" id="e{ins.number}"><span class="mark">'
        f"{escape(_label(book, ins))}</span>"
        f'{escape(ins.text)}<span class="cites">{escape(_cites(book, ins))}</span></ins>'
    )


def render_html(book: Rulebook) -> str:
    """The rulebook as one self-contained HTML page, without scripts."""
    body: list[str] = [f"<h1>{escape(book.title)}</h1>", f'<p class="intro">{escape(book.intro)}</p>']
    body += [_html_block(book, ins) for ins in book.after(None)]
    line: list[str] = []
    for i, piece in enumerate(book.pieces):
        if i == 0 and piece.clause == "title":
            body.append(f"<h2>{escape(piece.text)}</h2>")
            body += [_html_block(book, ins) for ins in book.after(piece.clause)]
            continue
        inserted = book.after(piece.clause)
        repaired = book.replacing(piece.clause)
        if repaired is not None:
            if line:
                body.append("<p>" + " ".join(line) + "</p>")
                line = []
            body.append(_html_block(book, repaired))
        else:
            line.append(escape(piece.text))
        if line and (inserted or _ends_line(piece.gap) or i == len(book.pieces) - 1):
            body.append("<p>" + " ".join(line) + "</p>")
            line = []
        body += [_html_block(book, ins) for ins in inserted]
    by_clause = {p.clause: p.text for p in book.pieces}
    items = []
    for ins in book.insertions:
        link = f'<a href="#e{ins.number}">{escape(_label(book, ins))}</a>'
        items.append(f"<li>{link}, {_erratum(book, ins, by_clause, escape)}</li>")
    body += [f"<h2>{escape(book.words['errata'])}</h2>", '<ul class="errata">', *items, "</ul>"]
    return (
        f'<!DOCTYPE html>\n<html lang="{book.language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(book.title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def render(book: Rulebook, fmt: Format = "md") -> str:
    return render_html(book) if fmt == "html" else render_md(book)


Labels = dict[str, list[dict[str, Any]]]


def insertion_labels(spec: Spec, ruleset: Ruleset) -> tuple[Labels, Labels]:
    """Where the three rulebooks answer each question and restore each damaged clause, so that the
    report can point a designer to them: by question id, in each language, the labels of the
    insertions that answer it ("Proposal 19"; "Vorschlag 19"; "Propuesta 19") and their kinds; by
    clause id, the corrections that restore it ("Corrección A"). Each rulebook is made once; both
    are empty where the spec has no rulebook words."""
    if no_wording(spec) is not None:
        return {}, {}
    answers: Labels = {}
    repairs: Labels = {}
    order = list(spec.clauses)
    # English first: the report a designer reads is English.
    for language in sorted(LANGUAGES, key=lambda lang: lang != "en"):
        book = rulebook(spec, ruleset, language)
        labels: dict[str, list[tuple[str, Kind]]] = {}
        for ins in book.insertions:
            for q in ins.questions:
                labels.setdefault(q.id, []).append((_label(book, ins), ins.kind))
            if ins.restores is None:
                continue
            clauses = [ins.restores]
            if _layout_only(ins) and order.index(ins.restores) > 0:
                # Only the line break before it was lost: the damage of the clause before it, whose
                # line ran on into this one.
                clauses.insert(0, order[order.index(ins.restores) - 1])
            for clause in clauses:
                repairs.setdefault(clause, []).append(
                    {"language": language, "labels": [_label(book, ins)], "kinds": [ins.kind]}
                )
        for qid, found in labels.items():
            answers.setdefault(qid, []).append(
                {
                    "language": language,
                    "labels": [label for label, _ in found],
                    "kinds": [k for _, k in found],
                }
            )
    return answers, repairs


def rulebook_files(spec: Spec, ruleset: Ruleset) -> dict[str, str]:
    """Every rulebook of a ruleset, by file name: rulebook.LANG.md and rulebook.LANG.html."""
    out: dict[str, str] = {}
    for language in LANGUAGES:
        book = rulebook(spec, ruleset, language)
        out[f"rulebook.{language}.md"] = render_md(book)
        out[f"rulebook.{language}.html"] = render_html(book)
    return out
