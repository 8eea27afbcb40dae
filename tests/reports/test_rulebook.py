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
from five35.reports.rulebook import quote, render_html, render_md, rulebook, rulebook_files
from five35.spec import load_spec
from five35.spec.words import questions_of, words_of
from spec_copies import THREE_COPIES_TO_30, write_spec_copy

SPEC = load_spec()
WORDS = words_of(SPEC)
MARK = {"de": "Klarstellung", "es": "Aclaración", "en": "Clarification"}
PROPOSAL = {"de": "Vorschlag", "es": "Propuesta", "en": "Proposal"}
REPAIR = {"de": "Berichtigung", "es": "Corrección", "en": "Correction"}
CHANGE = {"de": "Änderung", "es": "Cambio", "en": "Change"}


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
    # and nothing else of the text: in the file's order, only the white space between clauses
    # differs; a damaged clause is printed restored, in a correction that quotes it as received
    source = " ".join(SPEC.sources[lang].file.read_text(encoding="utf-8").split())
    damaged = [
        clause.text(lang)
        for cid, clause in SPEC.clauses.items()
        if lang in WORDS.repairs.get(cid, {}) and clause.text(lang) is not None
    ]
    for sentence in damaged:
        assert sentence is not None
        quoted = f"«{sentence}»" if lang == "es" else f"„{sentence}“"
        repair = WORDS.repairs[next(c for c, k in SPEC.clauses.items() if k.text(lang) == sentence)][lang]
        # a line whose words arrived whole (only its dash lost) is printed with them, not quoted
        whole = repair.removeprefix("-").strip() == sentence.strip()
        assert (quoted in md or (whole and sentence in md)) and repair in md
        source = source.replace(" ".join(sentence.split()), "", 1)
    assert without_insertions(md, lang) == " ".join(source.split())
    page = html.unescape(invoke("--lang", lang, "--format", "html"))
    for sentence in source_sentences(lang):
        assert sentence in page, sentence


def test_the_german_source_keeps_its_non_breaking_spaces() -> None:
    md = invoke("--lang", "de")
    assert "In einem Zug kann ein Spieler\xa0eine, zwei oder drei Karten\xa0in einen" in md


def blocks_of(md: str, lang: str) -> list[tuple[str, str, str, str]]:
    """Every marked answer of a rulebook: (kind word, number, sentence, what it cites)."""
    kinds = "|".join((MARK[lang], PROPOSAL[lang], REPAIR[lang], CHANGE[lang]))
    return re.findall(rf"^> \*\*\[({kinds}) (\w+)\]\*\* (.+)\n> \*\((.+)\)\*$", md, re.M)


def is_open(qid: str) -> bool:
    """Open unless the profile settles every point of the question on a text or evidence, or (a
    question without points) the words file says the texts point to its answer (found here from the
    spec, independently of the rulebook module)."""
    q = next(q for q in questions_of(SPEC) if q.id == qid)
    profile = SPEC.profiles[SPEC.default_profile]
    if not q.points:
        return not q.texts_point_to_answer
    return any(profile.readings[p].basis not in ("text", "evidence") for p in q.points)


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_every_answer_is_marked_for_what_it_is_and_cites_its_question(lang: str) -> None:
    md = invoke("--lang", lang)
    rs = SPEC.ruleset()
    readings = dict(rs.reading_items)
    expected = {q.id for q in questions_of(SPEC) if q.wordings_for(readings)}
    blocks = blocks_of(md, lang)
    assert blocks, md[:500]
    cited = set()
    texts = []
    for kind, number, text, cites in blocks:
        if number.isalpha():  # a restored clause
            assert kind == REPAIR[lang]
            continue
        asked = [q for q in questions_of(SPEC) if quote(lang, q.ask[lang]) in cites]
        assert asked, cites
        for q in asked:
            assert text in {w.text[lang] for w in q.wordings_for(readings)}
            cited.add(q.id)
            # an open question's answer is a proposal, never a clarification, and says so; an
            # answer only an outside source gives against this text is a change, and says so too
            change = WORDS.rulebook[lang]["proposes_change"] in cites
            assert (kind == PROPOSAL[lang]) == is_open(q.id), (q.id, kind)
            assert (kind == CHANGE[lang]) == change, (q.id, kind)
            assert not (change and is_open(q.id))
        texts.append(text)
    assert cited == expected
    assert len(texts) == len(set(texts))
    assert "Ref" not in md and "engine" not in md.lower() and "Engine" not in md
    # the list of changes names every insertion once
    errata = md.split(f"## {WORDS.rulebook[lang]['errata']}\n")[1]
    listed = re.findall(
        rf"^- (?:{MARK[lang]}|{PROPOSAL[lang]}|{REPAIR[lang]}|{CHANGE[lang]}) (\w+),", errata, re.M
    )
    assert sorted(listed) == sorted(n for _, n, _, _ in blocks)


def test_an_answer_has_the_same_number_in_every_language() -> None:
    numbered = {}
    for lang in ("de", "es", "en"):
        md = invoke("--lang", lang)
        numbered[lang] = {
            number: frozenset(q.id for q in questions_of(SPEC) if quote(lang, q.ask[lang]) in cites)
            for _, number, _, cites in blocks_of(md, lang)
            if number.isdigit()
        }
    assert numbered["de"] == numbered["es"] == numbered["en"]
    assert sorted(map(int, numbered["de"])) == list(range(1, len(numbered["de"]) + 1))


def test_each_answer_stands_at_the_clause_it_concerns() -> None:
    md = invoke("--lang", "de")
    add, passing = md.index("-Hinzufügen:"), md.index("-Passen:")
    # the answers about adding stand after the item on adding, not after the whole list
    assert add < md.index("Auch an eine Einzelkarte können Karten angelegt werden") < passing
    assert md.index("-Überschreiben:") < md.index("Ein zentraler Stapel aus 4 oder mehr Karten") < add
    # a list is never parted from the sentence that opens it: the turn order follows the list
    assert passing < md.index("Es wird im Uhrzeigersinn gespielt")


def test_an_answer_against_this_language_s_text_is_a_correction() -> None:
    # The Spanish 'más de 5' ends a set at its fourth card with 5 players; the German '5+' at the
    # fifth, which the published answer takes: a correction of the Spanish text, backed by the
    # German one, and a clarification of the German.
    es = invoke("--lang", "es")
    five = [b for b in blocks_of(es, "es") if "Con 5 o 6 jugadores la quinta carta de un set" in b[2]]
    assert [b[0] for b in five] == [REPAIR["es"]]
    de = invoke("--lang", "de")
    five = [b for b in blocks_of(de, "de") if "Bei 5 oder 6 Spielern beendet die fünfte Karte" in b[2]]
    assert [b[0] for b in five] == [MARK["de"]]


def test_an_answer_only_an_outside_source_gives_against_both_texts_is_a_proposed_change() -> None:
    # Both texts say an add makes sets and runs longer (a single is neither); the published answer
    # lets an add extend a single because Board Game Arena plays so: no text of the rules says
    # it, so the rulebooks mark it as a change of their own rather than as a correction.
    for lang, sentence in (
        ("en", "Cards may also be added to a single card"),
        ("de", "Auch an eine Einzelkarte"),
        ("es", "También se pueden añadir cartas a una carta individual"),
    ):
        md = invoke("--lang", lang)
        (block,) = [b for b in blocks_of(md, lang) if sentence in b[2]]
        assert block[0] == CHANGE[lang]
        assert block[3].startswith(WORDS.rulebook[lang]["proposes_change"])


def test_the_spanish_rulebook_repairs_its_damaged_examples_and_title() -> None:
    md = invoke("--lang", "es")
    for clause, repaired in WORDS.repairs.items():
        assert f"**[{REPAIR['es']}" in md
        assert repaired["es"] in md, clause
    # a damaged sentence is printed once, restored, its received form quoted in the note (and
    # the list of changes says what it stands in place of)
    assert "-Individual: Cualquier carta única. (1\n" not in md
    assert "el texto recibido dice «-Individual: Cualquier carta única. (1»" in md
    assert "en lugar de «-Individual: Cualquier carta única. (1»" in md
    assert md.count("-Individual: Cualquier carta única. (1") == 3  # restored, quoted, listed
    # the list of changes gives the restored line the note's basis (damaged, not missing)
    listed = next(
        line for line in md.splitlines() if "en lugar de «-Individual: Cualquier carta única. (1»" in line
    )
    assert "dañado en este texto, se restituye a partir del otro texto" in listed
    assert "falta en este texto" not in listed
    # the run's line arrived with its words whole (only its line break and dash were lost): its
    # note says so rather than quote the same words as 'received'
    layout = WORDS.rulebook["es"]["basis"]["layout"]
    assert f"(fundamento: {layout})" in md
    assert "el texto recibido dice «Escalera:" not in md
    assert md.count(layout) == 2  # the note and the list of changes
    # a clarification sits after the clause it clarifies
    run = md.index("Escalera: Cualquier grupo de dos o más cartas de rango consecutivo.")
    assert run < md.index("el 6 y el 10 que faltan interrumpen la escalera") < md.index("-Superar:")


def test_the_english_rulebook_is_the_translation_with_its_clarifications() -> None:
    md = invoke("--lang", "en")
    for clause in SPEC.clauses:
        assert WORDS.clauses[clause].en in md, clause
    assert "Consecutive means numbers that follow each other directly" in md
    assert "Spieler" not in md.split(f"## {WORDS.rulebook['en']['errata']}")[0].replace(
        "Five Three Five Kartenspiel", ""
    )


def test_the_clarifications_follow_the_profile_and_the_readings() -> None:
    spanish = invoke("--lang", "de", "--profile", "spanish-literal")
    assert "Bei 2 bis 5 Spielern enthält das Deck 4 Kopien jeder Karte, nur bei 6 Spielern 5." in spanish
    assert "Bei 5 oder 6 Spielern enthält das Deck 5 Kopien" not in spanish
    wrapped = invoke("--lang", "es", "--reading", "run_wrap=wrap")
    assert "al 15 le sigue el 1, así que 15,1 es una escalera" in wrapped
    # a reading chosen on the command line is an open answer: a proposal, on that basis
    assert f"{WORDS.rulebook['es']['basis']['--reading']}." in wrapped
    assert "Propuesta" in wrapped


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


def test_a_spec_copy_with_other_numbers_is_described_with_its_own(tmp_path: Path) -> None:
    # 3 copies of each rank, other hands, a match to 30, and an 8 worth 6 points.
    changes = (*THREE_COPIES_TO_30, ("8: 5, 9: 2", "8: 6, 9: 2"))
    spec = load_spec(write_spec_copy(tmp_path / "copy.yaml", changes))
    for lang, copies, points, deal in (
        ("en", "holds 3 copies of each card", "and each 8 five points", "dealt 13 cards"),
        ("de", "enthält das Deck 3 Kopien jeder Karte", "jede 8 fünf Punkte", "13 Karten"),
        ("es", "la baraja contiene 3 copias de cada carta", "cada 8, cinco puntos", "13 cartas"),
    ):
        md = render_md(rulebook(spec, spec.ruleset(), lang))
        assert copies in md, lang
        # the point table and the deal the words file spells out are not this copy's: left out
        answers = "".join(b[2] for b in blocks_of(md, lang))
        assert points not in answers and deal not in answers, lang
    embedded = render_md(rulebook(SPEC, SPEC.ruleset(), "en"))
    assert "holds 5 copies of each card" in embedded and "and each 8 five points" in embedded
    assert "dealt 13 cards" in embedded
    assert "jede 8 fünf Punkte" in render_md(rulebook(SPEC, SPEC.ruleset(), "de"))
    assert "cada 8, cinco puntos" in render_md(rulebook(SPEC, SPEC.ruleset(), "es"))


def test_a_decision_names_the_spec_s_numbers(tmp_path: Path) -> None:
    # With 3 copies of 13 ranks two players are dealt 12 of 39 cards: 15 are set aside, not 28.
    spec = load_spec(write_spec_copy(tmp_path / "copy.yaml", THREE_COPIES_TO_30))
    engine = words_of(spec).decisions["two_player_hands"].engine
    assert engine.words == "With 2 players each player is dealt 12 cards; the other 15 cards are set aside."
    other = words_of(SPEC).decisions["two_player_hands"].other
    assert "one hand of 24 cards" in other.words and "{" not in other.words + other.label
    assert "28 set aside" in words_of(SPEC).decisions["two_player_hands"].why


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_a_basis_of_outside_evidence_names_its_source(lang: str) -> None:
    md = invoke("--lang", lang)
    errata = md.split(f"\n## {WORDS.rulebook[lang]['errata']}\n")[1]
    supported = WORDS.rulebook[lang]["basis"]["evidence"]
    # the deal follows Board Game Arena's; whether runs stop at the gaps, a review of the game
    assert errata.count(f"{supported} (Board Game Arena).") >= 2
    assert f"{supported} (Opinionated Gamers)." in errata
    # and no inserted rule sentence speaks of Board Game Arena (its two hands of 12 are the
    # question's, not a rule's)
    assert not [b[2] for b in blocks_of(md, lang) if "Board Game Arena" in b[2]]


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_a_proposal_that_departs_from_outside_evidence_names_who_plays_the_other_answer(lang: str) -> None:
    md = invoke("--lang", lang)
    errata = md.split(f"\n## {WORDS.rulebook[lang]['errata']}\n")[1]
    departs = str(WORDS.rulebook[lang]["departs"]).format(by="Board Game Arena")
    # the two-player deal: one hand of 12 proposed, Board Game Arena deals two (E5)
    lines = [line for line in errata.splitlines() if departs in line]
    assert len(lines) == 1
    assert str(WORDS.rulebook[lang]["proposes"]) in lines[0]
