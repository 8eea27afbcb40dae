"""Clarified rulebooks: the whole rule text of one language with a profile's clarifications placed
after the clauses they clarify, each marked and listed in a short errata list.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

from five35.spec import Ruleset, Spec, SpecError
from five35.spec.words import QuestionWords, no_wording, questions_of, words_of

LANGUAGES: tuple[str, ...] = ("de", "es", "en")
FORMATS: tuple[str, ...] = ("md", "html")
Format = Literal["md", "html"]


@dataclass(frozen=True)
class Insertion:
    """One marked insertion: a clarification that settles a question, or the repair of a clause."""

    number: int
    after: str | None  # the clause it follows (None: before the first clause)
    text: str
    question: QuestionWords | None  # the question a clarification settles
    basis: str  # a key of the words file's rulebook basis table
    # Other questions the same sentence settles at the same place (it is inserted once).
    also: tuple[QuestionWords, ...] = ()

    @property
    def questions(self) -> tuple[QuestionWords, ...]:
        return (self.question, *self.also) if self.question is not None else ()

    @property
    def is_repair(self) -> bool:
        return self.question is None


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
        return [i for i in self.insertions if i.after == clause]


def _locate(text: str, clause: str, start: int) -> re.Match[str] | None:
    """The clause in the source text, from `start` on; a space in the spec's clause stands for any
    run of white space in the file."""
    parts = [re.escape(p) for p in clause.split()]
    return re.compile(r"\s+".join(parts)).search(text, start)


def _layout(spec: Spec, language: str) -> tuple[str, list[Piece]]:
    """The source text of `language` cut at its clauses (English: the German text's cuts, with the
    translation in place of each clause)."""
    words = words_of(spec)
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
    """For every clause, the clause an insertion about it follows: itself, or, when it is an item
    of a list in the text (a line starting with a dash) or the sentence that introduces one (a line
    ending in a colon), the last clause of that list, so that no insertion parts a list from its
    sentence or splits it."""
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
        if item[n] or (opens[n] and n + 1 < len(lines) and item[n + 1]):
            while end + 1 < len(lines) and item[end + 1]:
                end += 1
        for clause in line:
            out[clause] = clause if end == n and not item[n] else lines[end][-1]
    return out


def _basis(spec: Spec, ruleset: Ruleset, q: QuestionWords) -> str:
    if not q.points:
        assumed = any(not spec.parameters[p].in_text for p in q.parameters if p in spec.parameters)
        return "assumed" if assumed else "engine"
    profile = spec.profiles[ruleset.profile]
    point = q.points[0]
    choice = profile.readings.get(point)
    return "--reading" if point in ruleset.overridden or choice is None else choice.basis


def _insertions(spec: Spec, ruleset: Ruleset, language: str, pieces: Sequence[Piece]) -> list[Insertion]:
    """The clarifications and repairs of one language, in the order of the text."""
    words = words_of(spec)
    present = [p.clause for p in pieces]
    order = {c: i for i, c in enumerate(spec.clauses)}
    readings = dict(ruleset.reading_items)
    raw: list[tuple[int, int, str | None, str, QuestionWords | None, str]] = []

    past_list = _past_lists(spec, language, pieces)

    def place(clause: str, lists: bool = True) -> tuple[int, str | None]:
        """Where an insertion about `clause` goes: after it, or after the nearest clause before it
        that this language has (before the text when there is none); a clarification never inside
        a list (a repair stands right after the clause it restores)."""
        if clause not in present:
            before = [c for c in present if order[c] < order.get(clause, 0)]
            if not before:
                return -1, None
            clause = before[-1]
        at = past_list[clause] if lists else clause
        return order[at], at

    for clause, repaired in words.repairs.items():
        if language in repaired and clause in spec.clauses:
            rank, after = place(clause, lists=False)
            raw.append((rank, 0, after, repaired[language], None, "repair"))
    for n, q in enumerate(questions_of(spec)):
        for w in q.wordings_for(readings):
            text = w.text.get(language)
            if text is None and q.id not in words.questions and "en" in w.text:
                # A point of the spec's own (a house rule) has the words its author wrote, in
                # English: quoted as written, and said to be so, rather than left out.
                note = words.rulebook[language].get("untranslated")
                text = f"{w.text['en']} ({note})" if note else w.text["en"]
            if text is not None and w.at in spec.clauses:
                rank, after = place(w.at)
                raw.append((rank, 1 + n, after, text, q, _basis(spec, ruleset, q)))
    raw.sort(key=lambda r: (r[0], r[1]))
    # Questions that one sentence settles together (a reading and the engine decision that goes
    # with it) give the same sentence at the same clause: the rulebook says it once.
    first: dict[tuple[str | None, str], int] = {}
    also: dict[int, list[QuestionWords]] = {}
    unique: list[tuple[int, int, str | None, str, QuestionWords | None, str]] = []
    for r in raw:
        key = (r[2], r[3])
        if key in first and r[4] is not None:
            also.setdefault(first[key], []).append(r[4])
            continue
        first[key] = len(unique)
        unique.append(r)
    return [
        Insertion(i, after, text, q, basis, tuple(also.get(i - 1, ())))
        for i, (_, _, after, text, q, basis) in enumerate(unique, 1)
    ]


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
    lead, pieces = _layout(spec, language)
    profile = spec.profiles.get(ruleset.profile)
    name = profile.title if profile else ruleset.profile
    if ruleset.overridden:
        name = f"{name} + " + ", ".join(f"{p}={ruleset.reading(p)}" for p in ruleset.overridden)
    blanks = {"game": spec.game, "profile": name}
    return Rulebook(
        language=language,
        title=own["title"].format_map(blanks),
        intro=own["intro"].format_map(blanks),
        lead=lead,
        pieces=tuple(pieces),
        insertions=tuple(_insertions(spec, ruleset, language, pieces)),
        words=own,
    )


# ---- Markdown ------------------------------------------------------------------------------------


def _label(book: Rulebook, ins: Insertion) -> str:
    key = "repair" if ins.is_repair else "clarification"
    return str(book.words[key]).format(n=ins.number)


def _cites(book: Rulebook, ins: Insertion) -> str:
    """What an insertion answers: the question in the rulebook's language, or why a repair holds."""
    if ins.question is None:
        return f"{book.words['basis_label']}: {book.words['basis']['repair']}"
    return "; ".join(
        f"{book.words['settles']} {_quote(book.language, q.ask.get(book.language) or q.ask['en'])}"
        for q in ins.questions
    )


def _quote(language: str, text: str) -> str:
    marks = {"de": ("„", "“"), "es": ("«", "»")}.get(language, ("“", "”"))
    return f"{marks[0]}{text}{marks[1]}"


def _ends_line(gap: str) -> bool:
    """Whether the white space after a clause ends its line of the text."""
    return "\n" in gap


def _md_block(book: Rulebook, ins: Insertion) -> str:
    ref = f" <small>Ref. {', '.join(q.id for q in ins.questions)}</small>" if ins.questions else ""
    return f"> **[{_label(book, ins)}]** {ins.text}\n> *({_cites(book, ins)})*{ref}"


def _short(text: str, width: int = 48) -> str:
    if len(text) <= width:
        return text
    return text[:width].rsplit(" ", 1)[0] + " …"


def _errata_md(book: Rulebook) -> list[str]:
    lines = [f"## {book.words['errata']}", ""]
    by_clause = {p.clause: p.text for p in book.pieces}
    for ins in book.insertions:
        where = (
            f"{book.words['after']} {_quote(book.language, _short(by_clause[ins.after]))}"
            if ins.after in by_clause
            else "—"
        )
        basis = book.words["basis"].get(ins.basis, ins.basis)
        if ins.question is None:
            lines.append(f"- {_label(book, ins)}, {where}: {ins.text}")
        else:
            lines.append(
                f"- {_label(book, ins)}, {where}: {_cites(book, ins)}; {book.words['basis_label']}: {basis}."
            )
    return lines


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
        line.append(piece.text)
        inserted = book.after(piece.clause)
        if inserted or _ends_line(piece.gap) or i == len(book.pieces) - 1:
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
ins.repair { border-left-color: #cc0000; background: #fbeaea; }
.mark { font: bold .8rem Helvetica, Arial, sans-serif; color: #3465a4; margin-right: .4rem; }
ins.repair .mark { color: #a40000; }
.cites { display: block; font-size: .85rem; color: #555; font-style: italic; }
small { color: #777; }
ul.errata li { margin: .3rem 0; }
@media print { body { max-width: none; margin: 0; font-size: 10.5pt; }
  ins.insertion { break-inside: avoid; } }
"""


def _html_block(book: Rulebook, ins: Insertion) -> str:
    cls = "insertion repair" if ins.is_repair else "insertion"
    ref = f" <small>Ref. {escape(', '.join(q.id for q in ins.questions))}</small>" if ins.questions else ""
    return (
        f'<ins class="{cls}" id="e{ins.number}"><span class="mark">{escape(_label(book, ins))}</span>'
        f'{escape(ins.text)}<span class="cites">{escape(_cites(book, ins))}{ref}</span></ins>'
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
        line.append(escape(piece.text))
        inserted = book.after(piece.clause)
        if inserted or _ends_line(piece.gap) or i == len(book.pieces) - 1:
            body.append("<p>" + " ".join(line) + "</p>")
            line = []
            body += [_html_block(book, ins) for ins in inserted]
    by_clause = {p.clause: p.text for p in book.pieces}
    items = []
    for ins in book.insertions:
        where = (
            f"{escape(book.words['after'])} {escape(_quote(book.language, _short(by_clause[ins.after])))}"
            if ins.after in by_clause
            else "—"
        )
        link = f'<a href="#e{ins.number}">{escape(_label(book, ins))}</a>'
        if ins.question is None:
            items.append(f"<li>{link}, {where}: {escape(ins.text)}</li>")
        else:
            basis = book.words["basis"].get(ins.basis, ins.basis)
            items.append(
                f"<li>{link}, {where}: "
                f"{escape(_cites(book, ins))}; {escape(book.words['basis_label'])}: {escape(basis)}.</li>"
            )
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


def rulebook_files(spec: Spec, ruleset: Ruleset) -> dict[str, str]:
    """Every rulebook of a ruleset, by file name: rulebook.LANG.md and rulebook.LANG.html."""
    out: dict[str, str] = {}
    for language in LANGUAGES:
        book = rulebook(spec, ruleset, language)
        out[f"rulebook.{language}.md"] = render_md(book)
        out[f"rulebook.{language}.html"] = render_html(book)
    return out
