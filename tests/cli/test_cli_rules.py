"""`535-check rules`: the spec listed as JSON and as text; bad options are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_tools import assert_one_line_usage_error
from click.testing import CliRunner, Result
from five35.cli.main import main
from five35.spec import embedded_spec_path, load_spec


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["rules", *args])


def test_json_lists_variation_points_readings_and_bilingual_clauses() -> None:
    result = run("--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    spec = load_spec()
    points = data["variation_points"]
    assert len(points) >= 10
    for vp in points:
        assert len(vp["readings"]) >= 2, vp["name"]
        assert all(r["explain"] for r in vp["readings"])
        assert vp["question"] and vp["rationale"]
        assert vp["default"] in {r["name"] for r in vp["readings"]}
        assert vp["clauses"], vp["name"]
        for cited in vp["clauses"]:
            clause = spec.clauses[cited["id"]]
            assert cited["de"] == clause.de and cited["es"] == clause.es
    both = 0
    for clause in data["clauses"]:
        source = spec.clauses[clause["id"]]
        assert clause["de"] == source.de
        assert clause["es"] == source.es
        if source.de is not None and source.es is not None:
            assert clause["de"] and clause["es"]
            both += 1
    assert both >= 20
    assert {p["name"] for p in data["profiles"]} == {"published", "german-literal", "spanish-literal"}
    for profile in data["profiles"]:
        assert set(profile["readings"]) == {vp["name"] for vp in points}
        assert all(c["basis"] for c in profile["readings"].values())
    assert data["rules"] and data["parameters"]


def test_json_carries_the_resolved_ruleset() -> None:
    data = json.loads(run("--format", "json").stdout)
    assert data["ruleset"]["profile"] == "published"
    assert data["ruleset"]["overridden"] == []
    data = json.loads(
        run("--format", "json", "--profile", "german-literal", "--reading", "run_wrap=wrap").stdout
    )
    assert data["ruleset"]["profile"] == "german-literal"
    assert data["ruleset"]["readings"]["run_wrap"] == "wrap"
    assert data["ruleset"]["readings"]["add_to_single"] == "not_allowed"
    assert data["ruleset"]["overridden"] == ["run_wrap"]


def test_json_is_stable() -> None:
    assert run("--format", "json").stdout == run("--format", "json").stdout


def test_text_lists_everything_and_marks_the_reading_in_use() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    text = result.stdout
    spec = load_spec()
    for name in (*spec.variation_points, *spec.profiles, *spec.clauses, *spec.parameters):
        assert name in text
    assert "> no_wrap (default, in use):" in text
    assert "  wrap: The ranks form a circle" in text
    assert "Ruleset in use: published" in text
    assert all(len(line) <= 100 for line in text.splitlines())

    changed = run("--reading", "run_wrap=wrap").stdout
    assert "  no_wrap (default):" in changed
    assert "> wrap (in use):" in changed
    assert "run_wrap              = wrap  (chosen with --reading)" in changed


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--reading", "run_wrap=sideways"], ["--reading", "sideways"]),
        (["--reading", "no_such_point=x"], ["--reading", "no_such_point"]),
        (["--reading", "run_wrap"], ["--reading", "POINT=VALUE"]),
        (["--profile", "house"], ["--profile", "house"]),
    ],
)
def test_bad_options_are_one_line_usage_errors(args: list[str], needles: list[str]) -> None:
    assert_one_line_usage_error(run(*args), *needles)


def test_misspelt_spec_key_is_one_line_usage_error(tmp_path: Path) -> None:
    text = embedded_spec_path().read_text(encoding="utf-8")
    bad = tmp_path / "house.yaml"
    bad.write_text(text.replace("    question: ", "    questoin: ", 1), encoding="utf-8")
    assert_one_line_usage_error(run("--spec", str(bad)), str(bad), "questoin")


def test_missing_spec_file_is_one_line_usage_error(tmp_path: Path) -> None:
    missing = tmp_path / "absent.yaml"
    assert_one_line_usage_error(run("--spec", str(missing)), str(missing))
