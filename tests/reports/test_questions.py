"""The report's unit is the question a designer settles: every finding of report.json belongs to
exactly one question or stands alone, the questions are ranked for action, every question has its
proposed wording in English, German and Spanish, and no heading or prose line of report.md carries
an id, a reading key, "-1", "None" or "none"."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from five35.checks.findings import SEVERITIES, Finding, FindingKind, ReadingRef
from five35.checks.job import run as report_job
from five35.checks.job.questions import assign, points_at_stake
from five35.reports import render_all, report_data
from five35.reports.plain import Plain, pct
from five35.reports.questions import plain_verdict
from five35.reports.rulebook import render_md, rulebook
from five35.spec import embedded_spec_path, load_spec
from five35.spec.words import questions_of, words_of
from five35.spec.words_model import LANGUAGES, WORDS_SUFFIX
from full_report import full_report
from test_reports import _validate, fixture_data

SPEC = load_spec()
WORDS = words_of(SPEC)
PAGES = WORDS.pages


def _full() -> dict[str, Any]:
    return full_report()[0]


# ---- every finding once ------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["fixture", "full"])
def test_every_finding_belongs_to_exactly_one_question_or_stands_alone(which: str) -> None:
    data = fixture_data() if which == "fixture" else _full()
    members = [m for q in data["questions"] for m in q["members"]]
    members += [a["id"] for q in data["questions"] for a in q["also"]]
    members += [m["id"] for n in data["engine_notes"] for m in n["members"]]
    ids = [s["id"] for s in data["findings"]]
    assert len(members) == len(set(members))
    assert sorted(members + data["standalone"]) == sorted(ids)
    owner = {m: q["id"] for q in data["questions"] for m in q["members"]}
    owner |= {a["id"]: q["id"] for q in data["questions"] for a in q["also"]}
    owner |= {m["id"]: n["id"] for n in data["engine_notes"] for m in n["members"]}
    for s in data["findings"]:
        assert s["question"] == owner.get(s["id"]), s["id"]
    _validate(json.loads(render_all(data, PAGES)["report.json"]))


def test_the_five_player_question_gathers_what_the_issue_counted() -> None:
    """Issue 9: the five-player question appeared as 14 separate findings."""
    data = _full()
    (five,) = [q for q in data["questions"] if q["id"] == "five_players"]
    sections = {s["id"]: s for s in data["findings"]}
    # Discovery adds what the liveness proofs found under the mixed five-player readings (a set
    # that cannot reach its closing size with 4 copies): those belong here too.
    discovered = [m for m in five["members"] if sections[m]["check"].startswith("discovery.")]
    assert all(
        any(r["name"].startswith("five_player_") for r in sections[m]["readings"]) for m in discovered
    ), discovered
    counted = [m for m in five["members"] if m not in discovered]
    # 14 then, less the false one: 5 copies for 5 players contradicts no word of the Spanish, whose
    # 'más de 5' gives 5 players no count.
    assert len(counted) == 13
    points = {sections[m]["variation_point"] for m in counted}
    assert points == {"five_player_copies", "five_player_set_close", None}
    kinds = {sections[m]["kind"] for m in counted}
    assert kinds == {"ambiguity", "contradiction", "dead_clause", "mismatch"}
    # the points' own sections first
    assert five["members"][:2] == ["vp.five_player_copies", "vp.five_player_set_close"]
    # the two verb mismatches are one question, the damaged texts stand alone
    (verb,) = [q for q in data["questions"] if q["id"] == "closing_verb"]
    assert [sections[m]["kind"] for m in verb["members"]] == ["mismatch", "mismatch"]
    assert {sections[f]["kind"] for f in data["standalone"]} == {"defect", "mismatch"}


def test_a_reading_that_cannot_deal_a_table_says_so_where_its_games_changed_are_shown() -> None:
    """With 4 copies (52 cards) Board Game Arena's 12 cards each cannot be dealt to 5 players: the
    five-player question says that rather than '100 % of games changed', and its outcome table
    names the reading it was played against (the set-closing one: the other cannot be dealt)."""
    data = _full()
    (five,) = [q for q in data["questions"] if q["id"] == "five_players"]
    rows = {row["subject"]: row for row in five["impacts"]}
    copies = rows["five_player_copies"]["per_players"]
    assert (
        copies["5"]["undealt"]
        == "cannot be dealt with the hand sizes played (5 hands of 12 cards need 60; the deck has 52)"
    )
    assert all("undealt" not in copies[n] for n in copies if n != "5")
    assert all("undealt" not in row for row in rows["five_player_set_close"]["per_players"].values())
    assert five["impact"]["subject"] == "five_player_set_close"
    assert five["at_table_against"] == rows["five_player_set_close"]["against"]
    md = render_all(data, PAGES)["report.md"]
    assert (
        "5: cannot be dealt with the hand sizes played (5 hands of 12 cards need 60; the deck has 52)" in md
    )
    assert f"The reading played → the other reading ({five['at_table_against']})" in md


def test_a_point_the_two_texts_answer_differently_is_a_german_spanish_difference() -> None:
    """German '5+' and Spanish 'más de 5', each read on its own word (the literal profiles), answer
    the five-player points differently: the question says the texts differ, not that they can be
    read two ways; a point the literal profiles read alike stays an ambiguity."""
    data = _full()
    by_id = {q["id"]: q for q in data["questions"]}
    assert by_id["five_players"]["kind"] == "mismatch"
    assert by_id["five_players"]["kind_words"] == "German and Spanish differ"
    assert by_id["run_gaps"]["kind"] == "ambiguity"


def test_the_grouping_follows_typed_fields_and_the_words_file(tmp_path: Path) -> None:
    """Not ids: a finding with no variation point goes by its alternative's engine, else by the
    points its readings turn on; moving a point out of a question in the words file moves its
    findings with it."""
    rs = SPEC.ruleset()
    finding = Finding(
        id="made.up.id",
        kind=FindingKind.CONTRADICTION,
        title="t",
        clauses=("deck.copies",),
        detail="d",
        check="test",
        readings={
            ReadingRef("add_past_closing", "capped"): "",
            # both readings: the finding does not turn on this point
            ReadingRef("add_past_closing", "overflow"): "",
            ReadingRef("five_player_copies", "five_is_small"): "",  # not the played reading: at stake
            ReadingRef("five_player_set_close", "five_is_large"): "",
        },
    )
    assert points_at_stake(SPEC, rs, finding.readings) == ["five_player_copies"]
    assert assign(SPEC, rs, [finding]) == {"made.up.id": "five_players"}
    text = (embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX)).read_text("utf-8")
    old = "    points: [five_player_copies, five_player_set_close]\n"
    assert old in text
    house = tmp_path / "house.yaml"
    house.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    split = text.replace(old, "    points: [five_player_set_close]\n")
    split = split.replace("      - when: {five_player_copies: five_is_large}", "      - when: {}", 1)
    split = split.replace("      - when: {five_player_copies: five_is_small}", "      - when: {}", 1)
    split = re.sub(r"      five_player_copies=five_is_(large|small): .*\n", "", split)
    (tmp_path / f"house{WORDS_SUFFIX}").write_text(split, encoding="utf-8")
    spec = load_spec(house)
    # the point no question lists is a question of its own, in the spec's words
    assert assign(spec, spec.ruleset(), [finding]) == {"made.up.id": "five_player_copies"}
    own = [q for q in questions_of(spec) if q.id == "five_player_copies"]
    assert own and own[0].ask["en"] == spec.variation_points["five_player_copies"].question


def test_questions_are_ranked_for_action() -> None:
    data = _full()
    assert [q["rank"] for q in data["questions"]] == list(range(1, len(data["questions"]) + 1))
    sev = {s.value: i for i, s in enumerate(SEVERITIES)}

    # As the report says: by what the answer changes at the table (the size of its largest clear
    # change), then severity, then the share of games changed, then open before answered;
    # questions of wording only after those, unmeasured questions last.
    def key(q: dict[str, Any]) -> tuple[bool, bool, float, int, float, bool]:
        share = q["impact"]["share"] if q["impact"] else -1.0
        effect = q["impact"]["effect"] if q["impact"] else 0.0
        return (
            not q["impact"],
            q["wording_only"],
            -effect,
            sev[q["severity"]],
            -share,
            q["status"] != "open",
        )

    # The order is the key's, engine decisions included: the order the report states.
    keys = [key(q) for q in data["questions"]]
    assert keys == sorted(keys)
    # the question no game changes comes after every one that changes most games
    last_often = max(
        i for i, q in enumerate(data["questions"]) if q["impact"] and q["impact"]["share"] >= 0.5
    )
    never = [i for i, q in enumerate(data["questions"]) if q["impact"] and q["impact"]["share"] == 0]
    assert never and min(never) > last_often


def test_the_first_section_of_report_md_lists_the_questions_ranked() -> None:
    md = render_all(_full(), PAGES)["report.md"]
    sections = re.findall(r"^## (.+)$", md, re.M)
    assert sections[0] == "Questions to settle"
    first = md.split("## Questions to settle\n")[1].split("\n## ")[0]
    for q in _full()["questions"]:
        assert f"\n{q['rank']}. **{q['ask']['en']}**\n" in first, q["id"]
        row = first.split(f"{q['rank']}. **{q['ask']['en']}**")[1].split("\n\n")[0]
        # an open question's wording is a proposal; a settled one's is the wording itself
        wording = "Proposed:" if q["status"] == "open" else "Wording:"
        for part in ("Games changed:", "Evidence:", "Readings:", "Basis:", wording):
            assert part in row, (q["id"], part)
        if q["readings"]:
            assert "(played)" in row


# ---- words in three languages ------------------------------------------------------------------


def test_every_question_has_its_wording_in_three_languages_for_every_reading() -> None:
    for q in questions_of(SPEC):
        assert set(q.ask) == set(LANGUAGES), q.id
        # Only a question gathered by discovery alone may leave the rulebooks alone: a property
        # that is proved, a decision that cannot show while another clarification holds.
        assert q.wordings or not (q.points or q.parameters or q.variants), q.id
        for w in q.wordings:
            assert set(w.text) == set(LANGUAGES) and all(w.text.values()), q.id
        for point in q.points:
            for reading in SPEC.variation_points[point].readings:
                assert [w for w in q.wordings if w.when.get(point) == reading], (q.id, point, reading)
                assert reading in q.readings or f"{point}={reading}" in q.readings, (q.id, reading)
        for name in SPEC.profiles:
            readings = dict(SPEC.ruleset(name).reading_items)
            assert not q.wordings or all(q.wording(readings, lang) for lang in LANGUAGES), (q.id, name)
    for q in _full()["questions"]:
        assert set(q["wording"]) == set(LANGUAGES) or not q["wording"], q["id"]


def test_the_wordings_use_the_texts_own_terms() -> None:
    """The aligned glossary (seeds/README.md): a German wording about a run says Lauf, a Spanish one
    escalera; never the other language's word."""
    glossary = [  # English, German, Spanish
        (r"\bruns?\b", r"l[aä]uf", r"escalera"),
        (r"\btricks?\b", r"stich", r"baza"),
        (r"\bsets?\b(?! aside)", r"s[aä]tz", r"\bsets?\b"),
        (r"\bsingle\b", r"einzel", r"individual"),  # "eine einzelne 8", as the German text says
    ]
    for q in questions_of(SPEC):
        for w in q.wordings:
            for en, de, es in glossary:
                if re.search(en, w.text["en"], re.I):
                    assert re.search(de, w.text["de"], re.I), (q.id, de, w.text["de"])
                    assert re.search(es, w.text["es"], re.I), (q.id, es, w.text["es"])
            assert "Stich" not in w.text["es"] and "baza" not in w.text["de"], q.id


def test_no_proposal_deletes_a_clause() -> None:
    for s in _full()["findings"]:
        assert not re.search(r"\bdelete\b", s["proposed_wording"], re.I), s["id"]


# ---- plain words -------------------------------------------------------------------------------

SMALL = re.compile(r"<small>.*?</small>")


def forbidden_tokens(data: dict[str, Any]) -> set[str]:
    """Every id and reading key the report knows: finding ids, question ids with an underscore,
    clause ids, point names, `point=reading` keys, reading names with an underscore, check names."""
    spec = SPEC
    found = {s["id"] for s in data["findings"]} | set(spec.clauses)
    found |= {p for p in spec.variation_points} | {c["name"] for c in data["checks"]}
    found |= {f"{p}={r}" for p, vp in spec.variation_points.items() for r in vp.listed}
    found |= {r for vp in spec.variation_points.values() for r in vp.listed}
    found |= {q["id"] for q in data["questions"]}
    # plain English words that are also ids ("deal", "title", "points", "wrap") are words in prose
    return {t for t in found if re.search(r"[._=@]", t)}


def prose_lines(md: str) -> list[tuple[int, str]]:
    return [(n, SMALL.sub("", line)) for n, line in enumerate(md.splitlines(), 1)]


def test_the_designer_s_report_has_no_small_print_and_the_appendix_has_the_ids() -> None:
    files = render_all(_full(), PAGES)
    md, technical = files["report.md"], files["technical.md"]
    assert "<small>" not in md and "Ref:" not in md
    for word in ("level ci", "bots", "perft", "Z3", "discovery"):
        assert word not in md, word
    assert "(technical.md)" in md
    # every finding is in the appendix with its id, every question with its own
    for f in _full()["findings"]:
        assert f"`{f['id']}`" in technical, f["id"]
    for q in _full()["questions"]:
        assert f"Question `{q['id']}`" in technical, q["id"]


@pytest.mark.parametrize("which", ["fixture", "full"])
def test_no_heading_or_prose_line_carries_an_id_or_an_engine_value(which: str) -> None:
    data = fixture_data() if which == "fixture" else _full()
    md = render_all(data, PAGES)["report.md"]
    tokens = forbidden_tokens(data)
    bad: list[str] = []
    for n, line in prose_lines(md):
        for token in re.findall(r"[\w.@=+-]+", line):
            token = token.strip(".-")
            if token in tokens:
                bad.append(f"{n}: id {token}")
        if re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", line):
            bad.append(f"{n}: snake_case {re.findall(r'[a-z0-9]+_[a-z0-9_]+', line)}")
        if re.search(r"(?<![\w])-1\b", line):
            bad.append(f"{n}: -1")
        if re.search(r"\bnone\b", line, re.I):
            bad.append(f"{n}: none/None: {line[:80]}")
        if re.search(r"\b(True|False|null)\b", line):
            bad.append(f"{n}: a literal: {line[:80]}")
    assert not bad, bad[:20]


def test_witnesses_are_told_as_scenes_with_players_from_one() -> None:
    data = _full()
    md = render_all(data, PAGES)["report.md"]
    assert "Player 0" not in md and "player 0" not in md
    scenes = [q["scene"] for q in data["questions"] if q["scene"]]
    assert len(scenes) >= len(SPEC.variation_points) - 2
    for scene in scenes:
        assert scene["setup"] and scene["outcomes"]
        for outcome in scene["outcomes"]:
            assert outcome["label"] and outcome["words"].endswith(".")
    # the run-order scene: who leads what, who is to move holding what, what each reading allows
    (order,) = [q for q in data["questions"] if q["id"] == "run_order"]
    assert re.search(
        r"Player \d leads [\d,]+\. Player \d is to move, facing the run", order["scene"]["setup"]
    )


def test_a_clause_quoted_under_a_standalone_finding_is_quoted_there() -> None:
    """ "quoted under finding N above" names the finding that quotes the clause (it once named the
    clause's place in its own finding's list)."""
    md = render_all(_full(), PAGES)["report.md"]
    part = md.split("## Findings that stand alone", 1)
    assert len(part) == 2
    sections = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r"^### (\d+)\. (.*?)(?=^### |\Z)", part[1], re.M | re.S)
    }
    refs = re.findall(r"^> \*(.+?)\*: quoted under finding (\d+) above\.$", part[1], re.M)
    for name, number in refs:
        assert f"> *{name}*\n" in sections[int(number)], (name, number)
    # A damaged text and the damaged clauses it covers are one finding's section: no clause is
    # quoted in full twice there.
    quoted = re.findall(r"^> \*(.+?)\*$", part[1], re.M)
    assert quoted and len(quoted) == len(set(quoted)), quoted
    groups = _full()["standalone_groups"]
    assert len(sections) == len(groups) < len(_full()["standalone"])


def test_severity_follows_what_the_answer_changes_at_the_table() -> None:
    """As the report says: high where the answer clearly changes the outcome, at most medium where
    both readings were played and nothing changed clearly (the words file's severities.by_outcome)."""
    questions = _full()["questions"]
    compared = [q for q in questions if q["at_table"] and q["at_table"]["per_players"]]
    assert compared
    for q in compared:
        if q["at_table"]["real"]:
            assert q["severity"] == "high", q["id"]
        else:
            assert q["severity"] != "high", q["id"]


@cache
def _with_variants() -> dict[str, Any]:
    # The rule versions are compared only where the report plays them (the full report above
    # does not): a few matches, no checks.
    return report_data(
        report_job.report_result(SPEC, SPEC.ruleset(), games=4, seed=7, results=[], outcomes=False)
    )


def test_each_rule_version_says_where_it_answers_otherwise_than_the_rules_played() -> None:
    data = _with_variants()
    assert len(data["variants"]) == len(SPEC.profiles)
    played = data["ruleset"]["readings"]
    numbers = {q["id"]: n for n, q in enumerate(data["questions"], 1)}
    md = render_all(data, PAGES)["report.md"]
    for v in data["variants"]:
        expected = [
            (numbers[q["id"]], p)
            for q in data["questions"]
            for p in q["points"]
            if p in v["readings"] and v["readings"][p] != played.get(p)
        ]
        assert [(a["question"], a["point"]) for a in v["answers_otherwise"]] == expected
        if v["label"] == data["ruleset"]["label"]:
            assert not expected and f"- {v['title']}: the rules played" in md
        else:
            assert expected, v["label"]  # every published profile departs somewhere
            first = v["answers_otherwise"][0]
            chosen = ", chosen where the text is silent" if first["chosen"] else ""
            assert (
                f"- {v['title']}: answers otherwise question {first['question']} ({first['reading']}{chosen})"
                in md
            )
        # A version that reads a text word for word answers on that text's word only where it
        # takes the reading with basis text; the rest it chooses where the text is silent.
        on_the_text = SPEC.profiles[v["label"]].on_the_text if v["label"] in SPEC.profiles else {}
        for a in v["answers_otherwise"]:
            literal = v["label"] in SPEC.profiles and SPEC.profiles[v["label"]].status == "literal"
            assert a["chosen"] == (literal and on_the_text.get(a["point"]) != v["readings"][a["point"]])
    # The German text read word for word deals the whole deck by its own choice: the text never
    # says how many cards are dealt.
    german = next(v for v in data["variants"] if v["label"] == "german-literal")
    assert any(a["point"] == "deal" and a["chosen"] for a in german["answers_otherwise"])
    assert not any(a["point"] == "eight_rank" for a in german["answers_otherwise"])


def test_an_answer_is_settled_for_the_designer_only_by_a_house_rule() -> None:
    # An answer the texts point to, or one outside sources support, is the designer's to confirm:
    # the report never calls it settled.
    data = _full()
    templates = WORDS.templates
    for q in data["questions"]:
        if q["status"] == "open":
            assert q["standing"] == templates["standing_open"]
            continue
        basis = q["choice"]["basis"]
        # an outside source's answer that both texts, read word for word, contradict is a change
        change = basis == "evidence" and q["kind_words"] == templates["texts_say_otherwise"]
        assert q["standing"] == templates["standing_change" if change else f"standing_{basis}"], q["id"]
    md = render_all(data, PAGES)["report.md"]
    assert "Settled" not in md and "settled" not in md.split("## The questions in detail")[0]
    standings = {q["standing"] for q in data["questions"]}
    assert {
        templates["standing_text"],
        templates["standing_evidence"],
        templates["standing_change"],
    } <= standings


def test_questions_of_wording_only_stand_apart_after_those_that_change_play() -> None:
    data = _full()
    flags = [q["wording_only"] for q in data["questions"]]
    assert flags == [bool(q["impact"]) and q["impact"]["share"] == 0.0 for q in data["questions"]]
    # ranked last, after every question that changes some game, and introduced once
    assert any(flags) and flags == sorted(flags)
    md = render_all(data, PAGES)["report.md"]
    first = next(q for q in data["questions"] if q["wording_only"])
    intro = md.index("Wording only: under either answer of the questions below")
    assert md.count("Wording only: under either answer") == 1
    assert intro < md.index(f"\n{first['rank']}. **{first['ask']['en']}**")
    previous = data["questions"][first["rank"] - 2]
    assert md.index(f"\n{previous['rank']}. **{previous['ask']['en']}**") < intro


def test_the_summary_names_every_question_of_high_severity_that_no_house_rule_settles() -> None:
    # An answer outside sources support is still the designer's to confirm: a high-severity
    # question answered so is listed beside the open ones, each with its standing. (The few games
    # of the full report change nothing clearly, so no question is high there: two are made so.)
    templates = WORDS.templates
    questions = [dict(q) for q in _full()["questions"]]
    opened = next(q for q in questions if q["standing"] == templates["standing_open"])
    confirm = next(q for q in questions if q["standing"] == templates["standing_evidence"])
    for q in questions:
        q["severity"] = "high" if q is opened or q is confirm else "medium"
    high = [q for q in questions if q["severity"] == "high"]
    items = "; ".join(
        templates["high_unsettled_item"].format(title=q["title"], standing=q["standing"]) for q in high
    )
    line = templates["high_unsettled"].format(count=2, questions=items)
    assert line in plain_verdict(questions, [], Plain(SPEC, SPEC.ruleset()))
    for q in questions:
        q["severity"] = "medium"
    lines = plain_verdict(questions, [], Plain(SPEC, SPEC.ruleset()))
    assert not any(v.startswith(templates["high_unsettled"].split("(")[0]) for v in lines)


def test_a_point_both_texts_answer_alike_and_the_rules_played_otherwise_is_said_to_depart() -> None:
    # Both texts, read word for word, answer such a point on their own words; a question whose
    # played answer differs says so (the rulebooks propose it as a change), and no
    # other question does.
    data = _full()
    played = dict(SPEC.ruleset().reading_items)
    literal = [p.on_the_text for p in SPEC.profiles.values() if p.on_the_text]
    departs = {
        q["id"]
        for q in data["questions"]
        if q["kind"] == "ambiguity"
        and any(
            len({t.get(p) for t in literal}) == 1
            and None not in {t.get(p) for t in literal}
            and played[p] != literal[0][p]
            for p in q["points"]
        )
    }
    assert departs  # adding to a single: both texts say sets and runs are made longer
    for q in data["questions"]:
        said = q["kind_words"] == WORDS.templates["texts_say_otherwise"]
        assert said == (q["id"] in departs), q["id"]
    md = render_md(rulebook(SPEC, SPEC.ruleset(), "en"))
    # no text of the rules says what the answer says: the rulebooks propose the change
    change = WORDS.rulebook["en"]["proposes_change"]
    for q in data["questions"]:
        if q["id"] in departs:
            assert f"{change} “{q['ask']['en']}”" in md


def test_the_summary_names_the_reading_a_share_is_of_and_the_one_that_cannot_be_dealt() -> None:
    # Five players with 4 copies cannot be dealt the hand-size table: every game there "differs"
    # at the deal. The summary says which reading its share of games is of, and that the other
    # cannot be dealt, rather than giving one share for the question's two readings.
    data = _full()
    templates = WORDS.templates
    q = next(
        q
        for q in data["questions"]
        if len(q["impacts"]) > 1
        and any(c.get("undealt") for r in q["impacts"] for c in r["per_players"].values())
    )
    undealt = next(r for r in q["impacts"] if any(c.get("undealt") for c in r["per_players"].values()))
    cell = next(c["undealt"] for c in undealt["per_players"].values() if c.get("undealt"))
    share = f"{pct(q['impact']['share'])} of games at {q['impact']['players']} players"
    words = templates["share_under"].format(share=share, against=q["at_table_against"])
    words += "; " + templates["share_undealt"].format(against=undealt["against"], undealt=cell)
    lines = plain_verdict(data["questions"], [], Plain(SPEC, SPEC.ruleset()))
    assert any(f"{q['title']} ({words})" in line for line in lines)


def test_each_question_points_to_its_insertion_in_the_three_rulebooks() -> None:
    # The report and the rulebooks number differently (questions by consequence, insertions by
    # their place in the text): a question names its insertion, the same number in every language.
    data = _full()
    books = {lang: render_md(rulebook(SPEC, SPEC.ruleset(), lang)) for lang in LANGUAGES}
    md = render_all(data, PAGES)["report.md"]
    placed = [q for q in data["questions"] if q["in_rulebooks"]]
    assert len(placed) >= len(data["questions"]) - 2
    for q in placed:
        assert [x["language"] for x in q["in_rulebooks"]] == sorted(LANGUAGES, key=lambda lang: lang != "en")
        numbers = {tuple(label.split()[-1] for label in x["labels"]) for x in q["in_rulebooks"]}
        assert len(numbers) == 1
        for x in q["in_rulebooks"]:
            for label in x["labels"]:
                assert f"**[{label}]**" in books[x["language"]]
        labels = " / ".join(", ".join(x["labels"]) for x in q["in_rulebooks"])
        assert f"In the rulebooks: {labels}." in md


def test_questions_with_no_clear_change_are_summed_up_in_one_line_most_consequential_first() -> None:
    # The share of games changed does not order them: turning the other way round the table
    # changes every game and nothing about who wins.
    data = _full()
    unclear = [
        q
        for q in data["questions"]
        if q["impact"] and q["impact"]["share"] > 0 and not (q["at_table"] and q["at_table"]["real"])
    ]
    assert len(unclear) > 1
    head = WORDS.templates["no_clear_change"].split("{questions}")[0]
    line = next(v for v in data["verdict"] if v.startswith(head))
    places = [line.index(f"{q['title']} (") for q in unclear]
    assert places == sorted(places)
    assert [q["rank"] for q in unclear] == sorted(q["rank"] for q in unclear)


def test_the_summary_says_how_long_a_match_lasts_and_at_which_score_it_ends() -> None:
    from five35.reports.build import _match_length

    rs = SPEC.ruleset()
    hist = {"2": 4.805, "3": 2.667, "6": 2.02}
    variants = [
        {"label": "german-literal", "per_players": {"2": {"rounds_per_game": {"count": 200, "mean": 9.0}}}},
        {
            "label": rs.label(),
            "per_players": {n: {"rounds_per_game": {"count": 200, "mean": m}} for n, m in hist.items()},
        },
    ]
    line = _match_length(variants, rs, Plain(SPEC, rs))
    assert line is not None
    assert "4.8 rounds with 2 players, 2.7 with 3 and 2 with 6." in line and "9 rounds" not in line
    assert f" {rs.match_end_score} points" in line
    assert _match_length(variants[:1], rs, Plain(SPEC, rs)) is None


def test_a_question_s_grounds_stand_with_the_basis_of_its_answer() -> None:
    # The words file says why a proposal is what it is (and what it leaves unresolved): the report
    # prints it after the answer's basis, for a question of parameters and one of an engine decision.
    data = _full()
    md = render_all(data, PAGES)["report.md"]
    with_grounds = [q for q in questions_of(SPEC) if q.grounds]
    grounds = {d.grounds for d in WORDS.decisions.values() if d.grounds}
    assert with_grounds and grounds
    for q in data["questions"]:
        expected = [w.grounds for w in with_grounds if w.id == q["id"]]
        expected += [d.grounds for t in q["topics"] if (d := WORDS.decisions.get(t)) and d.grounds]
        assert [
            n for n in q["choice"]["notes"] if n in {*expected, *grounds, *(w.grounds for w in with_grounds)}
        ] == expected
        for g in expected:
            assert g in md
