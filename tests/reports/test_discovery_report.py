"""The report's side of discovery (issue 13), from synthetic findings of each discovered kind (a
silence, an engine decision, a liveness finding) and proved properties: each becomes a question with
its kind in plain words, a witness, an impact and a proposed wording in English, German and Spanish;
the report lists what was proved and what discovery did; the JSON validates against the schema."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from five35.checks.findings import (
    CheckResult,
    Finding,
    FindingKind,
    Impact,
    ProvedProperty,
    SettledCandidate,
    Severity,
    Witness,
)
from five35.checks.job.questions import form_questions
from five35.checks.job.review import review
from five35.checks.job.reviewed import ReportData
from five35.reports import render_all, report_data
from five35.spec import load_spec
from five35.spec.words import words_of

SPEC = load_spec()
PAGES = words_of(SPEC).pages
RULESET = SPEC.ruleset()


def _witness(note: str) -> Witness:
    return Witness(
        summary=note,
        situation={
            "players": 3,
            "to_move": 1,
            "leading": False,
            "hand": [4, 5],
            "hands": [[9], [4, 5], [12]],
            "pile": {"kind": "single", "cards": [3]},
            "opening_has_eight": False,
            "trick": [{"player": 0, "action": "lead", "cards": [3]}],
        },
        outcomes={"engine": {"legal_moves": ["overwrite 4", "pass"]}, "mutant": {"legal_moves": ["pass"]}},
        cards=6,
    )


def _impact(share: float) -> Impact:
    return Impact(100, 535, {3: (round(share * 100), share, max(0.0, share - 0.05), share + 0.05)}, "test")


def _finding(fid: str, kind: FindingKind, topic: str, share: float, severity: Severity) -> Finding:
    return Finding(
        id=fid,
        kind=kind,
        title=f"Discovered {kind.value} {fid}",
        clauses=("action.overwrite",),
        detail="Synthetic, for the report test.",
        check="discovery",
        severity=severity,
        topic=topic,
        witness=_witness(f"witness of {fid}"),
        impact=_impact(share),
    )


PROVED = (
    ProvedProperty("trick.ends", "Every trick ends.", "z3", "every reading combination", ("trick.end",)),
    ProvedProperty(
        "move.exists", "Whoever is to move has a legal move.", "exhaustive", "2 to 4 players, 3 cards"
    ),
)


SETTLED = (
    SettledCandidate(
        "test.flip",
        "the lower single overwrites the higher",
        ("pile.single",),
        "pile.single.example",
        "(1 < 7 < 14)",
        "a single 7 does not beat a single 1",
    ),
    *(
        SettledCandidate(
            f"test.close.p{n}",
            f"with {n} players a set ends the trick one card earlier",
            ("trick.end.set",),
            "trick.end.set.card",
            "die vierte Karte",
            f"with {n} players adding card 3 of a set ends the trick, not card 4",
            says_in="de",
            other="la cuarta carta",
        )
        for n in (2, 3, 4)
    ),
)


@cache
def data() -> dict[str, Any]:
    results = (
        CheckResult(
            "discovery.mutants",
            "Mutation analysis",
            0.0,
            mutants=17,
            findings=(_finding("silence.x", FindingKind.SILENCE, "test:hook_x", 0.4, Severity.MEDIUM),),
            settled=SETTLED,
        ),
        CheckResult(
            "discovery.decisions",
            "Engine decisions",
            0.0,
            findings=(_finding("decision.x", FindingKind.DECISION, "test:decision_x", 0.02, Severity.LOW),),
        ),
        CheckResult(
            "discovery.liveness",
            "Liveness",
            0.0,
            proved=PROVED,
            findings=(_finding("liveness.x", FindingKind.LIVENESS, "test:live_x", 0.0, Severity.HIGH),),
        ),
    )
    reviewed = review(SPEC, RULESET, results, {}, {})
    questions, standalone = form_questions(SPEC, RULESET, reviewed, {})
    finished = ReportData(
        spec=SPEC,
        ruleset=RULESET,
        results=results,
        findings=reviewed,
        variants=(),
        games=100,
        seed=535,
        level="ci",
        bots=("greedy",),
        questions=questions,
        standalone=standalone,
    )
    return report_data(finished)


def _question(qid: str) -> dict[str, Any]:
    return next(q for q in data()["questions"] if q["id"] == qid)


def test_each_discovered_kind_is_a_question_with_witness_impact_and_three_wordings() -> None:
    plain = {
        "silence": "the text does not say",
        "engine_decision": "the texts leave it open",
        "liveness": "may never end",
    }
    for topic, kind in (
        ("test:hook_x", "silence"),
        ("test:decision_x", "engine_decision"),
        ("test:live_x", "liveness"),
    ):
        q = _question(f"topic.{topic}")
        assert q["kind"] == kind and q["kind_words"] == plain[kind]
        assert q["topics"] == [topic]
        assert q["scene"] is not None  # the witness, told in words
        assert q["impact"] is not None
        assert set(q["wording"]) == {"en", "de", "es"} and all(q["wording"].values())
        assert set(q["ask"]) == {"en", "de", "es"}
        assert q["wording_at"] == ["action.overwrite"]


def test_the_engine_decision_ranks_below_the_silence_that_changes_more_games() -> None:
    ranks = {q["id"]: q["rank"] for q in data()["questions"]}
    assert ranks["topic.test:hook_x"] < ranks["topic.test:decision_x"]


def test_the_report_lists_what_was_proved_and_what_discovery_did() -> None:
    d = data()
    assert [(p["name"], p["method"]) for p in d["proved"]] == [
        ("trick.ends", "z3"),
        ("move.exists", "exhaustive"),
    ]
    assert d["proved"][0]["clauses"][0]["id"] == "trick.end"
    assert d["discovery"]["mutants"] == 17
    assert d["discovery"]["mutants_by_check"] == {"discovery.mutants": 17}
    assert d["discovery"]["found"] == {"silence": 1, "engine_decision": 1, "liveness": 1}
    assert set(d["discovery"]["questions"]) == {
        "topic.test:hook_x",
        "topic.test:decision_x",
        "topic.test:live_x",
    }
    # what discovery did is the appendix's; the designer's pages say what holds, in plain words
    assert any(
        line.startswith("Testing 17 altered engines against the texts") for line in d["technical_summary"]
    )
    assert not any("altered engines" in line for line in d["verdict"])
    files = render_all(d, PAGES)
    for name in ("report.md", "report.html"):
        text = files[name]
        assert "What holds beyond the simulated games" in text, name
        for p in d["proved"]:
            # the guarantees a designer asks for on the designer's pages, every property in the appendix
            assert (p["statement"] in text) == p["shown"], (name, p["name"])
        assert "Z3" not in text and "exhaustive search" not in text, name
        for words in ("may never end", "the texts leave it open", "the text does not say"):
            assert words in text, (name, words)
    technical = files["technical.md"]
    assert "Every trick ends." in technical and "Whoever is to move has a legal move." in technical
    assert "the Z3 solver" in technical and "exhaustive search" in technical
    assert "Testing 17 altered engines" in technical
    md = files["report.md"]
    # every discovered question's proposed wording, in the three languages
    for q in d["questions"]:
        if q["topics"]:
            assert q["wording"]["de"] in md and q["wording"]["es"] in md


def test_what_a_clause_settled_is_in_the_appendix_with_the_clause_in_both_texts() -> None:
    """Issue 18, item 3: every candidate discovery considered and a clause settles, with the clause in
    German and Spanish and the reason in one sentence, where a designer can read it and disagree;
    the designer's pages keep to the questions."""
    d = data()
    entry, grouped = d["settled"]
    clause = SPEC.clauses["pile.single"]
    [quoted] = entry["clauses"]
    assert quoted["de"] == clause.de and quoted["es"] == clause.es
    files = render_all(d, PAGES)
    technical = files["technical.md"]
    assert "## Considered and settled by the texts" in technical
    assert (
        "1. **If the lower single overwrites the higher:** settled by the clause ‘the single’. The texts say "
        "“(1 < 7 < 14)”, and with this change a single 7 does not beat a single 1."
    ) in technical
    assert f"> de: {clause.de}" in technical and f"> es: {clause.es}" in technical
    # Changes that differ in one number and are settled by the same words are one entry, N listed;
    # a quote from one text says which, with the other text's words.
    assert grouped["numbers"] == ["2", "3", "4"] and grouped["also"] == ["test.close.p3", "test.close.p4"]
    assert (
        "2. **If with N players a set ends the trick one card earlier (N = 2, 3 or 4):** settled by the "
        "clause ‘the set that ends the trick’. The German text says “die vierte Karte” and the Spanish “la "
        "cuarta carta”, and with this change, for N = 2, with 2 players adding card 3 of a set ends the "
        "trick, not card 4."
    ) in technical
    for name in ("report.md", "report.html"):
        assert "test.flip" not in files[name] and "Considered and settled" not in files[name]


def test_the_report_json_with_discovery_validates() -> None:
    text = resources.files("five35.reports").joinpath("report.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    doc = json.loads(render_all(data(), PAGES)["report.json"])
    assert doc["format"] == "five35-report/3"
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_the_rulebooks_insert_a_topic_question_s_wording_at_its_clause(tmp_path: Path) -> None:
    from five35.reports.rulebook import render_md, rulebook
    from five35.spec import embedded_spec_path
    from five35.spec.words_model import WORDS_SUFFIX

    words = (
        embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX).read_text(encoding="utf-8")
    )
    entry = (
        "questions:\n"
        "  test_topic:\n"
        '    title: "A topic question"\n'
        '    topics: ["test:only_here"]\n'
        '    ask: {en: "Asked?", de: "Gefragt?", es: "¿Preguntado?"}\n'
        "    wordings:\n"
        "      - at: action.overwrite\n"
        '        en: "ENGLISH SENTENCE."\n'
        '        de: "DEUTSCHER SATZ."\n'
        '        es: "FRASE ESPAÑOLA."\n'
    )
    assert "\nquestions:\n" in words
    (tmp_path / f"house{WORDS_SUFFIX}").write_text(words.replace("\nquestions:\n", "\n" + entry, 1), "utf-8")
    spec_path = tmp_path / "house.yaml"
    spec_path.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    spec = load_spec(spec_path)
    for lang, sentence in (("en", "ENGLISH SENTENCE."), ("de", "DEUTSCHER SATZ."), ("es", "FRASE ESPAÑOLA.")):
        md = render_md(rulebook(spec, spec.ruleset(), lang))
        assert sentence in md, lang
