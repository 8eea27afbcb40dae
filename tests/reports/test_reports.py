"""The rule-clarification report: its data, the three files, the schema, determinism, atomic
writes, and the `report` command (plus `535-check` with no command)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from five35.checks.findings import (
    CheckContext,
    CheckResult,
    Failure,
    Finding,
    FindingKind,
    ReadingRef,
    Severity,
    Status,
    Witness,
    point_readings,
)
from five35.checks.job import run as report_job
from five35.checks.job.reviewed import ReportData
from five35.checks.job.run import estimate_all, simulate_variants
from five35.checks.text.text_audit import check_text_audit
from five35.cli import main
from five35.reports import FILES, render_all, report_data, write_report
from five35.reports.render import render_html, render_markdown
from five35.reports.svg import nice_ceiling
from five35.reports.variants import variant_view
from five35.spec import Spec, load_spec
from five35.spec.words import embedded_words
from five35.spec.words_model import PageWords
from full_report import GAMES, SEED, full_report

PAGES = embedded_words().pages


def fixture_results(spec: Spec) -> list[CheckResult]:
    """Findings as the checks make them: a variation point with a minimal witness, a contradiction,
    a dead clause, a gap that borrows its point's witness; plus the real text audit."""
    witness = Witness(
        summary="Player 1 holds 1,2,3 against the run 3,4,5.",
        situation={
            "players": 3,
            "to_move": 1,
            "leading": False,
            "hand": [1, 2, 3, 9],
            "hands": [[5, 11], [1, 2, 3, 9], [14, 14]],
            "pile": {"kind": "run", "cards": [3, 4, 5]},
            "opening_has_eight": False,
            "trick": [{"player": 0, "action": "lead", "cards": [3, 4, 5]}],
        },
        outcomes={
            "lower_beats": {"legal_moves": ["overwrite 1,2,3", "pass"]},
            "higher_beats": {"legal_moves": ["pass"]},
        },
        cards=10,
    )
    checks = CheckResult(
        name="fixture",
        title="Findings made by hand for the report tests",
        seconds=0.0,
        proofs=2,
        findings=(
            Finding(
                id="vp.run_order",
                kind=FindingKind.AMBIGUITY,
                title="Which run beats which?",
                clauses=("pile.run", "action.overwrite"),
                detail="The example says 1,2,3 beats 11,12,13; 'higher-ranked' says the opposite.",
                check="fixture",
                severity=Severity.HIGH,
                variation_point="run_order",
                readings={
                    ReadingRef("run_order", "lower_beats"): "1,2,3 beats 11,12,13",
                    ReadingRef("run_order", "higher_beats"): "11,12,13 beats 1,2,3",
                },
                witness=witness,
                evidence=("E3", "E4"),
                proposed_wording="A run is beaten by a run of the same length starting lower.",
                status=Status.settled("published", [("run_order", "lower_beats")]),
            ),
            Finding(
                id="contradiction.eight_forms",
                kind=FindingKind.CONTRADICTION,
                title="The list after 'd. h.' omits 8,9",
                clauses=("eight.trigger",),
                detail="The rule says any 8; its list of examples leaves out the run 8,9.",
                check="fixture",
                severity=Severity.MEDIUM,
                variation_point="eight_forms",
                # one reading of its own point: the report names it by the reading alone
                readings={
                    ReadingRef("eight_forms", "listed_forms"): point_readings(spec, "eight_forms")[
                        ReadingRef("eight_forms", "listed_forms")
                    ]
                },
                unsat_core=("eight.trigger", "rules.trick.end.eight"),
            ),
            Finding(
                id="dead.add_past_closing",
                kind=FindingKind.DEAD_CLAUSE,
                title="add_past_closing never applies",
                clauses=("action.add",),
                detail="No set or run can grow past its closing card.",
                check="fixture",
                severity=Severity.LOW,
                readings={
                    ReadingRef(
                        "add_past_closing", "overflow"
                    ): "Yes: the trick still ends, with the longer pile."
                },
                evidence=("Checked exhaustively over all piles (fixture).",),
            ),
            Finding(
                id="gap.run_order.example",
                kind=FindingKind.GAP,
                title="The single and set examples are lost in Spanish",
                clauses=("pile.single",),
                detail="Only 'rango superior' tells the direction.",
                check="fixture",
                variation_point="run_order",
            ),
        ),
    )
    audit = check_text_audit(CheckContext(spec=spec, ruleset=spec.ruleset()))
    return [checks, audit]


def build_fixture_inputs() -> ReportData:
    """The fixture's finished report data, computed afresh on every call."""
    spec = load_spec()
    return report_job.report_result(
        spec,
        spec.ruleset(),
        games=GAMES,
        seed=SEED,
        level="quick",
        bots=("greedy", "cautious", "random"),
        results=fixture_results(spec),
    )


fixture_inputs = cache(build_fixture_inputs)


@cache
def fixture_data() -> dict[str, Any]:
    return report_data(fixture_inputs())


@cache
def schema() -> dict[str, Any]:
    text = resources.files("five35.reports").joinpath("report.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _validate(data: Mapping[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema()).validate(data)


def _sections(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {s["id"]: s for s in data["findings"]}


# ---- the data ----------------------------------------------------------------------------------


def test_schema_is_valid_and_documented() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    undocumented: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if isinstance(sub, dict) and "description" not in sub:
                    undocumented.append(f"{path}.{name}")
            for key, value in node.items():
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    walk(schema(), "$")
    assert not undocumented


def test_report_json_validates() -> None:
    data = json.loads(render_all(fixture_data(), PAGES)["report.json"])
    _validate(data)


def test_schema_rejects_a_broken_report() -> None:
    data = json.loads(render_all(fixture_data(), PAGES)["report.json"])
    del data["findings"][0]["proposed_wording"]
    with pytest.raises(jsonschema.ValidationError):
        _validate(data)
    data = json.loads(render_all(fixture_data(), PAGES)["report.json"])
    data["findings"][0]["kind"] = "opinion"
    with pytest.raises(jsonschema.ValidationError):
        _validate(data)


def test_a_section_for_every_variation_point_and_every_finding() -> None:
    data = fixture_data()
    spec = fixture_inputs().spec
    sections = _sections(data)
    for point in spec.variation_points:
        assert f"vp.{point}" in sections
    for result in fixture_inputs().results:
        for finding in result.findings:
            assert finding.id in sections
    assert data["summary"]["total"] == len(sections) == len(data["findings"])


def test_every_section_has_every_part() -> None:
    spec = fixture_inputs().spec
    for s in fixture_data()["findings"]:
        assert s["clauses"] or s["kind"] != "ambiguity", s["id"]
        for c in s["clauses"]:
            assert c["id"] in spec.clauses
        assert s["witness"] or s["witness_note"]
        assert s["impact"] or s["impact_note"]
        assert s["proposed_wording"], s["id"]
        assert s["status"] == "open" or s["status"].startswith("settled by profile ")
        if s["id"].startswith("vp."):
            point = s["variation_point"]
            assert [r["name"] for r in s["readings"]] == list(spec.variation_points[point].readings)
            assert sum(r["chosen"] for r in s["readings"]) == 1
            assert s["impact"] is not None
            assert sorted(s["impact"]["per_players"]) == ["2", "3", "4", "5", "6"]
            assert s["profile_choice"]["reading"] == spec.ruleset().reading(point)
        for e in s["evidence"]:
            assert e["fact"]


def test_readings_are_named_however_a_check_keys_them() -> None:
    sections = _sections(fixture_data())
    contradiction = [(r["name"], r["chosen"]) for r in sections["contradiction.eight_forms"]["readings"]]
    assert contradiction == [("listed_forms", False), ("any_eight", True)]
    dead = sections["dead.add_past_closing"]["readings"]
    named = [(r["name"], r["chosen"], r["profiles"]) for r in dead]
    assert named == [("add_past_closing=overflow", False, [])]


def test_clauses_are_quoted_in_both_languages() -> None:
    section = _sections(fixture_data())["vp.five_player_copies"]
    (clause,) = section["clauses"]
    assert clause["id"] == "deck.copies"
    assert "5+ Spielern" in clause["de"]
    assert "más de 5 jugadores" in clause["es"]


def test_witness_comes_from_the_check_then_the_point_then_play() -> None:
    sections = _sections(fixture_data())
    assert sections["vp.run_order"]["witness_source"] == "check"
    assert sections["vp.run_order"]["witness"]["cards"] == 10
    # a finding about a point borrows the point's witness
    assert sections["gap.run_order.example"]["witness_source"] == "vp.run_order"
    # a point no check drew gets the smallest difference seen in the simulated games
    assert sections["vp.run_wrap"]["witness_source"] in ("simulation", None)
    # a damaged example is drawn as the situation it decides, played under both alternatives
    defect = sections["defect.pile.single"]
    assert defect["witness_source"] == "check"
    assert defect["witness"]["situation"]["pile"] == {"kind": "single", "cards": [7]}
    assert list(defect["witness"]["outcomes"]) == [r["name"] for r in defect["readings"]]
    # a finding with neither a situation nor alternatives of its own has none, and says so
    dead = sections["dead.add_past_closing"]
    assert dead["witness"] is None and "text itself" in dead["witness_note"]


def test_evidence_is_quoted_with_its_source() -> None:
    section = _sections(fixture_data())["vp.run_order"]
    by_id = {e["id"]: e for e in section["evidence"]}
    assert "2-3-4 beats 3-4-5" in by_id["E3"]["fact"]
    assert "Hiew" in by_id["E3"]["source"]
    # a check's own sentence is kept as written, without an id
    dead = _sections(fixture_data())["dead.add_past_closing"]
    assert dead["evidence"] == [
        {"id": None, "fact": "Checked exhaustively over all piles (fixture).", "source": None}
    ]
    # "same page" in the evidence file names the page it refers to
    e6 = _sections(fixture_data())["vp.add_to_single"]["evidence"][0]
    assert e6["id"] == "E6" and "boardgamearena.com" in e6["source"]
    assert {e["id"] for e in fixture_data()["evidence"]} >= {"E3", "E4", "E5", "E6", "E9"}


def test_summary_counts_by_kind_and_severity() -> None:
    data = fixture_data()
    summary = data["summary"]
    for kind, row in summary["by_kind"].items():
        assert row["total"] == sum(1 for s in data["findings"] if s["kind"] == kind)
        assert row["total"] == row["high"] + row["medium"] + row["low"]
    assert summary["by_kind"]["contradiction"]["total"] == 1
    assert summary["by_kind"]["dead_clause"]["total"] == 1
    assert summary["open"] + summary["settled"] == summary["total"]
    assert data["verdict"] and all(line.endswith(".") for line in data["verdict"])
    # under the published rules no game can take a run or set past its closing card
    never = [line for line in data["verdict"] if "no simulated game (wording only)" in line]
    assert never and "Adding past the card that ends the trick" in never[0]
    # the appendix counts the findings so that the parts add up to the whole
    counted = data["technical_summary"][0]
    parts = [int(n) for n in re.findall(r"(?:: |, | and )(\d+) ", counted)]
    assert counted.startswith(f"{summary['total']} findings: ") and sum(parts) == summary["total"], counted


def test_chart_axes_end_on_round_numbers() -> None:
    assert [nice_ceiling(v) for v in (68.7, 15.5, 2.0, 0.3, 7.33, 0.0)] == [100.0, 20.0, 2.0, 0.5, 10.0, 1.0]


def test_variant_comparison_has_every_profile() -> None:
    data = fixture_data()
    labels = [v["label"] for v in data["variants"]]
    assert labels == ["published", "german-literal", "spanish-literal"]
    for v in data["variants"]:
        assert sorted(v["per_players"]) == ["2", "3", "4", "5", "6"]
        for stats in v["per_players"].values():
            assert stats["games"] == GAMES


# ---- the files -----------------------------------------------------------------------------------


def test_the_appendix_lists_every_finding_once_and_the_pages_the_standalone_ones() -> None:
    texts = render_all(fixture_data(), PAGES)
    md, html, technical = texts["report.md"], texts["report.html"], texts["technical.md"]
    for s in fixture_data()["findings"]:
        assert technical.count(f"`{s['id']}`") == 1, s["id"]
        assert s["id"] not in md
    groups = fixture_data()["standalone_groups"]
    assert sorted(f for g in groups for f in g) == sorted(fixture_data()["standalone"])
    for group in groups:  # one section a group: a damaged text with the damaged clauses it covers
        assert html.count(f'data-finding="{group[0]}"') == 1, group
        for fid in group[1:]:
            assert html.count(fid) == 1 and f'data-finding="{fid}"' not in html, fid
    # the run-order witness: the table told in words, then drawn with card faces in the HTML
    assert "Player 2 is to move, facing the run 3,4,5, holding 1,2,3,9." in md
    assert '<span class="card rain">1</span>' in html
    assert md.count("\n### ") == len(fixture_data()["questions"]) + len(groups)


def _drawn() -> int:
    """The impact charts the report draws: one per measured row in which some game changed."""
    return sum(
        1
        for q in fixture_data()["questions"]
        for row in q["impacts"]
        if any(cell["share"] > 0 for cell in row["per_players"].values())
    )


def test_html_is_self_contained() -> None:
    html = render_all(fixture_data(), PAGES)["report.html"]
    # One inline script (filters and search); the page reads whole without it.
    assert html.count("<script") == 1 and "<script>" in html
    assert "<link" not in html
    assert not re.search(r"\ssrc=", html)
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert "@media print" in html
    # one impact chart per measurement a question shows where some game changed (none where
    # nothing differs), plus the variant charts
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == _drawn() + 6


def test_same_inputs_give_byte_identical_files(tmp_path: Path) -> None:
    first = write_report(tmp_path / "a", fixture_data(), PAGES)
    # Everything computed again, not taken from the cached fixture.
    again = report_data(build_fixture_inputs())
    second = write_report(tmp_path / "b", again, PAGES)
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert str(tmp_path) not in first[0].read_text(encoding="utf-8")


def test_worker_processes_do_not_change_the_results() -> None:
    spec = load_spec()
    rs = spec.ruleset()
    assert estimate_all(spec, rs, 4, 9, jobs=2) == estimate_all(spec, rs, 4, 9, jobs=1)
    assert simulate_variants(spec, rs, 3, 9, jobs=2) == simulate_variants(spec, rs, 3, 9, jobs=1)


def _listing(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def test_an_error_mid_render_leaves_the_old_report(tmp_path: Path) -> None:
    write_report(tmp_path, fixture_data(), PAGES)
    before = _listing(tmp_path)

    def half(data: Mapping[str, Any], words: PageWords) -> dict[str, str]:
        render_all(data, words)
        raise RuntimeError("injected failure while rendering")

    with pytest.raises(RuntimeError):
        write_report(tmp_path, {**fixture_data(), "game": "changed"}, PAGES, half)
    assert _listing(tmp_path) == before


def test_an_interrupt_while_writing_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_report(tmp_path, fixture_data(), PAGES)
    before = _listing(tmp_path)
    calls = {"n": 0}
    real_fsync = os.fsync

    def interrupted(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_report(tmp_path, {**fixture_data(), "game": "changed"}, PAGES)
    monkeypatch.undo()
    assert _listing(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES)


def test_a_fresh_directory_gets_no_report_when_rendering_fails(tmp_path: Path) -> None:
    out = tmp_path / "new"

    def broken(data: Mapping[str, Any], words: PageWords) -> dict[str, str]:
        raise ValueError("injected")

    with pytest.raises(ValueError):
        write_report(out, fixture_data(), PAGES, broken)
    assert list(out.iterdir()) == []


# ---- the commands ------------------------------------------------------------------------------


@pytest.fixture
def text_audit_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the command tests fast: the checks are the text audit plus the fixture findings."""

    def units(spec: Spec, ruleset: Any, level: Any, seed: int, solver_rlimit: int) -> list[Any]:
        return report_job.given_checks(fixture_results(spec))

    monkeypatch.setattr(report_job, "check_units", units)


@pytest.mark.usefixtures("text_audit_only")
def test_report_command_writes_three_identical_files_per_seed(tmp_path: Path) -> None:
    runner = CliRunner()
    outs = []
    for name, jobs in (("one", "1"), ("two", "2")):
        out = tmp_path / name
        result = runner.invoke(
            main, ["report", "--out", str(out), "--games", "2", "--seed", "7", "--jobs", jobs]
        )
        assert result.exit_code == 0, result.output
        assert f"report written to {out}/" in result.stdout
        outs.append(out)
    for name in FILES:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()
    data = json.loads((outs[0] / "report.json").read_text(encoding="utf-8"))
    _validate(data)
    assert data["run"]["seed"] == 7 and data["run"]["games"] == 2
    assert data["run"]["level"] == "ci"


@pytest.mark.usefixtures("text_audit_only")
def test_report_command_takes_readings_into_the_comparison(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["report", "--out", str(tmp_path), "--games", "1", "--reading", "run_order=higher_beats"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    labels = [v["label"] for v in data["variants"]]
    assert labels[-1] == "published+run_order=higher_beats"
    assert data["ruleset"]["label"] == "published+run_order=higher_beats"
    assert _sections(data)["vp.run_order"]["profile_choice"]["basis"] == "--reading"


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["--games", "many"], "--games"),
        (["--games", "0"], "--games"),
        (["--seed", "-1"], "--seed"),
        (["--jobs", "0"], "--jobs"),
        (["--profile", "nope"], "--profile"),
        (["--reading", "run_order=sideways"], "--reading"),
    ],
)
def test_report_command_bad_input_is_one_line(args: list[str], where: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["report", "--out", str(tmp_path / "r"), *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0] and "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


@pytest.mark.usefixtures("text_audit_only")
def test_report_command_out_must_be_a_directory(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "--out", str(target), "--games", "1"])
    assert result.exit_code == 2
    assert "--out" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_report_command_exits_1_when_a_check_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(spec: Spec, ruleset: Any, level: Any, seed: int, solver_rlimit: int) -> list[Any]:
        broken = CheckResult(
            name="planted",
            title="A check that finds the engine wrong",
            seconds=0.0,
            failures=(Failure(check="planted", message="the engine let a player pass while leading"),),
        )
        return report_job.given_checks([broken])

    monkeypatch.setattr(report_job, "check_units", failing)
    result = CliRunner().invoke(main, ["report", "--out", str(tmp_path), "--games", "1"])
    assert result.exit_code == 1, result.output
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["failures"][0]["message"].startswith("the engine let")
    assert "the engine let a player pass" in (tmp_path / "technical.md").read_text(encoding="utf-8")
    assert "failed" in (tmp_path / "report.md").read_text(encoding="utf-8")


@pytest.mark.usefixtures("text_audit_only")
def test_no_command_writes_the_report_into_535_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from five35.cli import default_job

    monkeypatch.setattr(default_job, "DEFAULT_GAMES", 1)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 0, result.output
    assert "report written to 535-report/" in result.stdout
    # the clarified rulebooks of the default profile beside the report
    books = [f"rulebook.{lang}.{ext}" for lang in ("de", "es", "en") for ext in ("md", "html")]
    assert sorted(p.name for p in (tmp_path / "535-report").iterdir()) == sorted([*FILES, *books])
    assert all(name in result.stdout for name in books)
    _validate(json.loads((tmp_path / "535-report" / "report.json").read_text(encoding="utf-8")))
    german = (tmp_path / "535-report" / "rulebook.de.md").read_text(encoding="utf-8")
    assert german.startswith("# 535 (Five Three Five): die Regeln mit Klarstellungen")


def test_the_real_checks_feed_the_report() -> None:
    """Without stand-ins: whatever checks are installed run, and the text audit is among them once."""
    spec = load_spec()
    results, notes = report_job.run_all_checks(spec, spec.ruleset(), "quick", 0, only=["graphs.succession"])
    names = [r.name for r in results]
    assert names.count("text_audit") == 1
    assert len(names) == 2 and not notes  # the runner's one check, then the text audit


# ---- the acceptance test of issue 4 ----------------------------------------------------------------


def test_every_settled_candidate_of_a_full_report_quotes_its_clause() -> None:
    """The embedded spec's candidates that a clause settles (discovery.mutants at level ci) reach
    report.json and the appendix, each with its clause word for word in both texts."""
    data, results = full_report()
    settled = [c for r in results for c in r.settled]
    assert settled and [c["candidate"] for c in data["settled"]] == [c.candidate for c in settled]
    technical = render_all(data, PAGES)["technical.md"]
    spec = load_spec()
    for c in data["settled"]:
        assert (
            f"**If {c['change']}:**" in technical
            and f"(`{c['candidate']}`, caught by `{c['by']}`)" in technical
        )
        for quoted in c["clauses"]:
            clause = spec.clauses[quoted["id"]]
            assert f"> de: {clause.de}" in technical and f"> es: {clause.es}" in technical


def test_every_proved_property_of_a_full_report_is_stated_in_words() -> None:
    """Issue 21, item 3: the checks state what they proved in the words file's words (no regex turns
    ids into words afterwards), so no statement or scope holds a spec id, a point's or a decision's."""
    data, _ = full_report()
    spec = load_spec()
    ids = {*spec.clauses, *spec.variation_points, *spec.parameters, "legal_moves", "next_to_move"}
    ids = {i for i in ids if "_" in i or "." in i}  # "deal" or "pile" may be English too
    for p in data["proved"]:
        assert p["statement"] == p["statement_as_proved"], p["name"]
        words = set(re.findall(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*", f"{p['statement']} {p['scope']}"))
        assert not words & ids, (p["name"], words & ids)


def test_every_finding_of_a_full_report_has_all_seven_parts() -> None:
    data, results = full_report()
    spec = load_spec()
    sections = _sections(data)
    for point in spec.variation_points:
        assert f"vp.{point}" in sections
    for result in results:
        for finding in result.findings:
            assert finding.id in sections
    assert len(sections) > len(spec.variation_points)
    for s in data["findings"]:
        where = s["id"]
        # (a) the clauses, quoted from the spec with their ids
        assert s["clauses"], where
        for c in s["clauses"]:
            assert c["id"] in spec.clauses and (c["de"] or c["es"]), where
        # A discovered finding without an alternative (a property that fails, an engine decision
        # about counting, not play) has no other side to read, draw or measure: its detail says why.
        # (Found by discovery: its kind may also be a gap or a dead clause, as a liveness property's
        # failure that is not a game that may never end.)
        if s["check"].startswith("discovery.") and s["alternative"] is None:
            assert s["detail"] and s["proposed_wording"], where
            assert s["status"] == "open" or s["status"].startswith("settled by profile "), where
            continue
        # (b) at least two readings, each in plain words
        assert len(s["readings"]) >= 2 and all(r["explain"] for r in s["readings"]), where
        # (c) a table situation with what each alternative lets happen next
        w = s["witness"]
        assert w and w["summary"] and w["outcomes"], where
        assert w["situation"].get("players"), where
        # (d) impact per player count with an interval
        impact = s["impact"]
        assert impact and impact["games"] == GAMES and impact["per_players"], where
        for row in impact["per_players"].values():
            assert row["ci_low"] <= row["share"] <= row["ci_high"], where
        # (e) the outside evidence the spec lists
        cited = next((f.evidence for r in results for f in r.findings if f.id == where), ())
        assert len(s["evidence"]) >= len(cited), where
        # (f) a proposed sentence, (g) a status
        assert s["proposed_wording"], where
        assert s["status"] == "open" or s["status"].startswith("settled by profile "), where
    _validate(data)


def test_findings_that_cannot_change_play_measure_zero_and_the_rest_do_not() -> None:
    sections = _sections(full_report()[0])

    def affected(fid: str) -> int:
        return sum(row["affected"] for row in sections[fid]["impact"]["per_players"].values())

    for fid in (
        "mismatch.trick.end.set.verb",
        "mismatch.trick.end.run.verb",
        "mismatch.eight.trigger.cleared",
        "defect.pile.single",
        "dead.overwrite.size-4",
    ):
        assert sections[fid]["impact"]["source"] == "alternatives", fid
        assert affected(fid) == 0, fid
    points = sections["gap.parameter.points"]
    assert points["impact"]["source"] == "alternatives"
    assert affected("gap.parameter.points") > 0
    assert points["witness"]["outcomes"]["points by the number on the card"]["after lead 3"]["penalties"] == [
        0,
        32,
    ]
    # a finding about one variation point shows that point's impact and says so
    mismatch = sections["mismatch.deck.copies.five_players"]
    assert mismatch["impact"]["source"] == "vp.five_player_copies"
    assert "five_player_copies" in mismatch["impact_note"]


def test_arranging_a_finished_report_plays_no_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report only arranges: with the engine unable to move, the same finished data gives the
    same report.json."""
    from five35.engine import Game

    finished = fixture_inputs()
    before = render_all(report_data(finished), PAGES)["report.json"]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the report played the engine")

    for name in ("legal_moves", "apply", "play_from", "start_round", "new_match"):
        monkeypatch.setattr(Game, name, refuse)
    assert render_all(report_data(finished), PAGES)["report.json"] == before


# ---- charts ----------------------------------------------------------------------------------------


def test_every_chart_is_as_wide_as_its_title_and_a_zero_bar_shows() -> None:
    from html import unescape

    from five35.reports.svg import impact_bars, title_width

    html = render_all(fixture_data(), PAGES)["report.html"]
    charts = re.findall(r'<svg [^>]*width="(\d+)"[^>]*>\s*<title>([^<]*)</title>', html)
    assert len(charts) == _drawn() + 6
    for width, title in charts:
        assert int(width) >= title_width(unescape(title)), title
    long_title = "Games changed: " + "a very long description of what was measured " * 3
    svg = impact_bars(long_title, "x", {"2": {"share": 0.0, "ci_low": 0.0, "ci_high": 0.02}}, PAGES.charts)
    assert f'width="{title_width(long_title)}"' in svg
    # a share of 0: a mark on the baseline, labelled 0%, not an invisible bar of height 0
    assert re.search(r'<rect class="zero" [^>]*height="2"', svg) and ">0%</text>" in svg


def test_the_means_of_the_profile_comparison_carry_intervals() -> None:
    from five35.reports.variants import mean_interval, variant_view

    view = variant_view(fixture_data()["variants"], PAGES)
    for metric in view["metrics"]:
        for row in metric["rows"]:
            for cell in row["cells"]:
                assert cell is not None and cell[1] <= cell[0] <= cell[2], metric["key"]
    # the mean of 1, 2, 3 (twice each): 2, with a 95% interval from its standard error
    mean, lo, hi = mean_interval({"count": 6, "histogram": [[1, 2], [2, 2], [3, 2]]}) or (0, 0, 0)
    assert mean == 2.0 and round(hi - 2.0, 3) == round(2.0 - lo, 3) == round(
        1.959964 * (0.8**0.5) / 6**0.5, 3
    )


def test_the_report_says_its_figures_rest_on_what_the_rules_assume() -> None:
    data = fixture_data()
    assumed = [q["title"] for q in data["questions"] if q["choice"]["basis"] == "assumed"]
    assert assumed == ["The point value of each card"]
    sentence = (
        "rests on what these rules assume where neither text gives a value (the point value of each card)"
    )
    assert sentence in render_markdown(data, PAGES) and sentence in render_html(data, PAGES)
    # rules that assume nothing say nothing of it
    bare = {**data, "questions": [q for q in data["questions"] if q["choice"]["basis"] != "assumed"]}
    assert "neither text gives a value" not in render_markdown(bare, PAGES)
    # what outside sources supply where the texts are silent is named too
    supplied = [q for q in data["questions"] if q["kind"] == "gap" and q["choice"]["basis"] == "evidence"]
    named = "; ".join(q["title"][0].lower() + q["title"][1:] for q in supplied)
    sentence = f"It rests as well on what outside sources give where the texts say nothing ({named})."
    assert supplied and sentence in render_markdown(data, PAGES) and sentence in render_html(data, PAGES)
    quiet = {**data, "questions": [q for q in data["questions"] if q not in supplied]}
    assert "what outside sources give where the texts say nothing" not in render_markdown(quiet, PAGES)


def test_each_rule_version_shows_who_wins_by_seat() -> None:
    data = fixture_data()
    md = render_all(data, PAGES)["report.md"]
    view = variant_view(data["variants"], PAGES)
    assert [t["label"] for t in view["seats"]] == [v["title"] for v in data["variants"]]
    for v, table in zip(data["variants"], view["seats"], strict=True):
        assert f"**Who wins, by seat: {v['title']}**" in md
        for row in table["rows"]:
            stats = v["per_players"][str(row["players"])]
            won = {s["seat"]: s["wins"] / stats["games"] for s in stats["seats"]}
            # a seat at the table has its share; the seats beyond the player count are empty
            assert [c[0] if c else None for c in row["cells"]] == [
                round(won[i], 4) if i < row["players"] else None for i in range(len(row["cells"]))
            ]
    # Under each table, whether some seat wins clearly more often than another (the report's
    # seat_advantages, corrected over every version and player count).
    tested = sum(len(v["seat_balance_p"]) for v in data["variants"])
    for v in data["variants"]:
        clear = [a["players"] for a in data["seat_advantages"] if a["label"] == v["label"]]
        sentence = (
            f"A clear seat advantage with {' and '.join(map(str, clear))} players"
            if clear
            else "No clear seat advantage at any player count"
        )
        assert f"{sentence}" in md and f"corrected for all {tested} combinations" in md
        assert "a chi-square test that every seat wins equally often, at 5 %" in md
    # A planted advantage names the questions the version answers otherwise and whether their own
    # comparisons show the seats moving.
    label = data["variants"][0]["label"]
    for changed, says in (
        ([], "none of those questions' own comparisons shows"),
        ([3], "the comparison of question 3 shows"),
    ):
        advantage = {
            "label": label,
            "players": 2,
            "p": 0.0,
            "tests": tested,
            "questions": [1, 3],
            "seat_changed_in": changed,
        }
        md = render_all({**data, "seat_advantages": [advantage]}, PAGES)["report.md"]
        assert "A clear seat advantage with 2 players" in md
        assert (
            "This version answers questions 1, 3 otherwise than the rules played; "
            f"{says} a clear change of who wins by seat with 2 players." in md
        )
    # The report's data names them from its questions' own comparisons.
    from five35.reports.at_table import seat_advantages

    questions = [
        {"at_table": None},
        {"at_table": {"per_players": {"2": {"real": ["winner_seat"]}}}},
    ]
    variants = [
        {"label": "x", "seat_balance_p": {"2": 1e-9}, "answers_otherwise": [{"question": 1}, {"question": 2}]}
    ]
    (found,) = seat_advantages(variants, questions)
    assert found["questions"] == [1, 2] and found["seat_changed_in"] == [2]
