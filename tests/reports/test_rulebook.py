"""`535-check rulebook`: the whole rule text of one language with the profile's clarifications.

German and Spanish keep every sentence of their source file unchanged (found here independently of
the rulebook module: each clause of the spec located in the file, white space as the file has it);
every insertion is marked and cites the question it settles; English is the words file's
translation; the output is deterministic and written whole or not at all."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from click.testing import CliRunner
from five35.cli import main
from five35.reports.rulebook import render_html, render_md, rulebook, rulebook_files
from five35.spec import load_spec
from five35.spec.words import questions_of, words_of

SPEC = load_spec()
WORDS = words_of(SPEC)
MARK = {"de": "Klarstellung", "es": "Aclaración", "en": "Clarification"}
REPAIR = {"de": "Berichtigung", "es": "Corrección", "en": "Correction"}


def source_sentences(lang: str) -> list[str]:
    """Every clause of `lang` exactly as its source file has it (non-breaking spaces included)."""
    text = SPEC.sources[lang].file.read_text(encoding="utf-8")
    out, pos = [], 0
    for clause in SPEC.clauses.values():
        own = clause.text(lang)
        if own is None:
            continue
        match = re.compile(r"\s+".join(re.escape(p) for p in own.split())).search(text, pos)
        assert match is not None, clause.id
        out.append(match.group(0))
        pos = match.end()
    return out


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, ["rulebook", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def without_insertions(md: str, lang: str) -> str:
    """The rulebook's text with its own lines taken out: the headings' marks, the intro, the marked
    insertions and the errata."""
    errata = WORDS.rulebook[lang]["errata"]
    body = md.split(f"\n## {errata}\n")[0]
    kept = []
    for line in body.splitlines()[3:]:  # the title and the intro
        if line.startswith("> "):
            continue
        kept.append(line.removeprefix("## "))
    return " ".join(" ".join(kept).split())


@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_source_sentence_is_unchanged(lang: str) -> None:
    md = invoke("--lang", lang)
    for sentence in source_sentences(lang):
        assert sentence in md, sentence
    # and nothing else of the text: in the file's order, only the white space between clauses differs
    source = SPEC.sources[lang].file.read_text(encoding="utf-8")
    assert without_insertions(md, lang) == " ".join(source.split())
    page = html.unescape(invoke("--lang", lang, "--format", "html"))
    for sentence in source_sentences(lang):
        assert sentence in page, sentence


def test_the_german_source_keeps_its_non_breaking_spaces() -> None:
    md = invoke("--lang", "de")
    assert "In einem Zug kann ein Spieler\xa0eine, zwei oder drei Karten\xa0in einen" in md


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_every_clarification_is_marked_and_cites_its_question(lang: str) -> None:
    md = invoke("--lang", lang)
    rs = SPEC.ruleset()
    readings = dict(rs.reading_items)
    expected = {q.id for q in questions_of(SPEC) if q.wordings_for(readings)}
    blocks = re.findall(rf"^> \*\*\[{MARK[lang]} (\d+)\]\*\* (.+)\n> \*\((.+)\)\*(.*)$", md, re.M)
    assert blocks, md[:500]
    cited = set()
    by_id = {q.id: q for q in questions_of(SPEC)}
    texts = []
    for _, text, cites, ref in blocks:
        qids = re.fullmatch(r" <small>Ref\. (\w+(?:, \w+)*)</small>", ref)
        assert qids, ref
        # one sentence that settles several questions is inserted once and cites each of them
        for qid in qids.group(1).split(", "):
            q = by_id[qid]
            assert q.ask[lang] in cites  # the question in the rulebook's language
            assert text in {w.text[lang] for w in q.wordings_for(readings)}
            cited.add(q.id)
        texts.append(text)
    assert cited == expected
    assert len(texts) == len(set(texts))
    # the errata list every insertion once, in order
    errata = md.split(f"## {WORDS.rulebook[lang]['errata']}\n")[1]
    numbers = [int(n) for n in re.findall(rf"^- (?:{MARK[lang]}|{REPAIR[lang]}) (\d+),", errata, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) == len(re.findall(rf"^> \*\*\[(?:{MARK[lang]}|{REPAIR[lang]}) \d+\]\*\*", md, re.M))


def test_the_spanish_rulebook_repairs_its_damaged_examples_and_title() -> None:
    md = invoke("--lang", "es")
    for clause, repaired in WORDS.repairs.items():
        assert f"**[{REPAIR['es']}" in md
        assert repaired["es"] in md, clause
    # the damaged sentences themselves stay as printed
    assert "-Individual: Cualquier carta única. (1\n" in md
    # a clarification sits after the clause it clarifies
    run = md.index("Escalera: Cualquier grupo de dos o más cartas de rango consecutivo.")
    assert run < md.index("el 6 y el 10 que faltan interrumpen la escalera") < md.index("-Superar:")


def test_the_english_rulebook_is_the_translation_with_its_clarifications() -> None:
    md = invoke("--lang", "en")
    for clause in SPEC.clauses:
        assert WORDS.clauses[clause].en in md, clause
    assert "Consecutive means numbers that follow each other directly" in md
    assert "Spieler" not in md.split("## Errata")[0].replace("Five Three Five Kartenspiel", "")


def test_the_clarifications_follow_the_profile_and_the_readings() -> None:
    spanish = invoke("--lang", "de", "--profile", "spanish-literal")
    assert "Bei 2 bis 5 Spielern enthält das Deck 4 Kopien jeder Karte, nur bei 6 Spielern 5." in spanish
    assert "Bei 5 oder 6 Spielern enthält das Deck 5 Kopien" not in spanish
    wrapped = invoke("--lang", "es", "--reading", "run_wrap=wrap")
    assert "al 15 le sigue el 1, así que 14,15,1 es una escalera" in wrapped
    assert "chosen on the command line" not in wrapped and "elegido en la línea de órdenes" in wrapped


def test_the_same_inputs_give_the_same_bytes(tmp_path: Path) -> None:
    for lang in ("de", "es", "en"):
        assert invoke("--lang", lang) == invoke("--lang", lang)
    again = rulebook_files(SPEC, SPEC.ruleset())
    assert again == rulebook_files(load_spec(), load_spec().ruleset())
    assert sorted(again) == [
        f"rulebook.{lang}.{ext}" for lang in ("de", "en", "es") for ext in ("html", "md")
    ]


def test_out_writes_the_file_and_takes_its_format_from_the_name(tmp_path: Path) -> None:
    out = tmp_path / "regeln.html"
    out.write_text("an old rulebook", encoding="utf-8")
    result = CliRunner().invoke(main, ["rulebook", "--lang", "de", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert page == render_html(rulebook(SPEC, SPEC.ruleset(), "de"))
    md = tmp_path / "regeln.txt"
    assert CliRunner().invoke(main, ["rulebook", "--lang", "de", "--out", str(md)]).exit_code == 0
    assert md.read_text(encoding="utf-8") == render_md(rulebook(SPEC, SPEC.ruleset(), "de"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["regeln.html", "regeln.txt"]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--lang", "fr"], ["--lang", "'fr'"]),
        ([], ["--lang"]),
        (["--lang", "de", "--format", "pdf"], ["--format", "'pdf'"]),
        (["--lang", "de", "--profile", "nope"], ["--profile", "nope"]),
        (["--lang", "de", "--reading", "run_wrap=sideways"], ["--reading", "sideways"]),
        (["--lang", "de", "--out", "missing/dir/rules.md"], ["--out", "does not exist"]),
        (["--lang", "de", "--out", "."], ["--out"]),
    ],
)
def test_bad_input_is_one_line(args: list[str], needles: list[str], tmp_path: Path) -> None:
    run_bad_input(["rulebook", *args], 2, *needles, cwd=tmp_path)
