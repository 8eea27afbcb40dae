"""The clauses are the rule texts: each quotes its source exactly, and together, in order, they cover
every word of both texts, German and Spanish aligned clause by clause."""

from __future__ import annotations

import re

import pytest
from five35.spec import Spec
from scenario_tools import spec

LANGUAGES = ("de", "es")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _walk(spec_: Spec, code: str) -> tuple[int, str | None]:
    """Read the source text clause by clause in file order; returns how far the clauses got (in
    non-whitespace characters) and the first clause that does not continue the text there."""
    body = _squash(spec_.sources[code].file.read_text(encoding="utf-8"))
    pos = 0
    for clause in spec_.clauses.values():
        quote = clause.text(code)
        if quote is None:
            continue
        squashed = _squash(quote)
        if body[pos : pos + len(squashed)] != squashed:
            return pos, clause.id
        pos += len(squashed)
    return pos, None


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_clause_quotes_its_source_exactly(code: str) -> None:
    s = spec()
    body = " ".join(s.sources[code].file.read_text(encoding="utf-8").split())
    quoted = [c for c in s.clauses.values() if c.text(code) is not None]
    assert len(quoted) >= 30
    for clause in quoted:
        text = clause.text(code)
        assert text is not None
        assert text == text.strip(), f"{clause.id} ({code}) has stray whitespace"
        assert " ".join(text.split()) in body, f"{clause.id} ({code}) is not in the {code} text"


@pytest.mark.parametrize("code", LANGUAGES)
def test_clauses_in_order_cover_the_whole_source(code: str) -> None:
    s = spec()
    body = _squash(s.sources[code].file.read_text(encoding="utf-8"))
    pos, stuck = _walk(s, code)
    assert stuck is None, f"clause {stuck} ({code}) does not continue the text at: {body[pos : pos + 60]!r}"
    assert pos == len(body), f"text left unquoted after the last clause: {body[pos : pos + 60]!r}"


def test_german_and_spanish_are_aligned() -> None:
    s = spec()
    for clause in s.clauses.values():
        if clause.id == "title":
            # The Spanish text has no title line; the source entry says so.
            assert clause.es is None and clause.de is not None
            continue
        assert clause.de and clause.es, f"{clause.id} lacks one of the two languages"


def test_spanish_defects_are_recorded_where_the_text_was_cut() -> None:
    """The Spanish pile examples lost '< 7 < 14)' and '< 14,14,14)': the clauses must say so."""
    s = spec()
    for cid in ("pile.single", "pile.set"):
        clause = s.clauses[cid]
        assert clause.es is not None and clause.es.endswith(("(1", "(1,1,1"))
        assert clause.defect, f"{cid} quotes a damaged text without recording the defect"
    assert s.sources["es"].defects


def test_walk_detects_a_clause_out_of_order() -> None:
    """The coverage check itself can fail: swapping two clauses breaks the walk."""
    s = spec()
    items = list(s.clauses.items())
    items[3], items[4] = items[4], items[3]
    swapped = Spec(**{**s.__dict__, "clauses": dict(items)})
    _, stuck = _walk(swapped, "de")
    assert stuck == items[3][0]
