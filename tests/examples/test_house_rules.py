"""examples/house-rules/: five spec copies, each a rule nobody wrote code for, and every command a
designer runs on them; a house rule that lets play go on for ever gets a liveness finding, never a
hang."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.checks import run_checks
from five35.cli import main
from five35.engine.engines import engine_for, engine_note, reference_lacks
from five35.engine.interpreter import NAME as INTERPRETER
from five35.engine.interpreter import SpecEngine
from five35.spec import Spec, load_spec
from five35.spec.words import words_of

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "house-rules"
HOUSE = sorted(FOLDER.glob("*.yaml"))
#: The checks made of the reference engine's own hooks: skipped, with why, on rules it does not play.
REFERENCE_ONLY = {"discovery.decisions", "discovery.mutants", "discovery.interactions"}


@cache
def _spec(path: Path) -> Spec:
    return load_spec(path)


def _house_point(spec: Spec) -> str:
    """The point the house profile plays otherwise than the published one."""
    house, published = spec.profiles["house"], spec.profiles["published"]
    changed = [
        p
        for p, c in house.readings.items()
        if p not in published.readings or published.readings[p].reading != c.reading
    ]
    assert len(changed) == 1, changed
    return changed[0]


def test_there_are_five_house_rules_and_no_python_beside_them() -> None:
    assert len(HOUSE) >= 5
    assert not list(FOLDER.rglob("*.py"))


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_the_checks_run_on_the_house_rule_played_by_the_interpreter(path: Path) -> None:
    spec = _spec(path)
    ruleset = spec.ruleset()
    assert reference_lacks(ruleset) is not None and engine_for(ruleset) is SpecEngine
    assert engine_note(ruleset, words_of(spec).engines).startswith(f"played by {INTERPRETER}")
    run = run_checks(
        spec, ruleset, level="quick", only=["invariants.matches", "graphs.beats", *REFERENCE_ONLY]
    )
    assert run.engine.endswith("SpecEngine")
    by = {r.name: r for r in run.results}
    # What the reference's hooks make says why it is not run; everything else really ran.
    for name in REFERENCE_ONLY:
        assert (
            by[name].skipped is not None and "reference engine does not play these rules" in by[name].skipped
        )
    # The 1s ending the trick is a rule the Z3 model cannot state (its opening pile is whether it
    # holds an 8): the invariants' rules model is that model, so they skip, as the next test says.
    ran = ("graphs.beats",) if path.stem == "ones-end-the-trick" else ("invariants.matches", "graphs.beats")
    for name in ran:
        assert by[name].skipped is None and by[name].error is None and by[name].examined_count > 0, name
    assert not run.failures


def test_a_rule_the_z3_model_cannot_state_skips_its_checks_with_the_reason() -> None:
    spec = _spec(FOLDER / "ones-end-the-trick.yaml")
    run = run_checks(
        spec, spec.ruleset(), level="quick", only=["proofs", "conformance", "invariants.matches"]
    )
    for r in run.results:
        assert r.error is None and not r.failures, r.name
        assert r.skipped is not None and "the Z3 model cannot state these rules" in r.skipped, r.name
        assert "opening pile" in r.skipped


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


#: The house rules whose commands run by default (a rule of play and a rule of passing); every one
#: of them under -m slow. The checks run on every one of them by default (the test above).
COMMANDS_BY_DEFAULT = ("set-overwrites-run", "passing-keeps-you-in")


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, id=p.stem, marks=[] if p.stem in COMMANDS_BY_DEFAULT else [pytest.mark.slow])
        for p in HOUSE
    ],
)
def test_rules_simulate_rulebook_and_vectors_run_and_say_the_interpreter_played(
    path: Path, tmp_path: Path
) -> None:
    spec = _spec(path)
    point = _house_point(spec)
    code, out = _cli("rules", "--spec", str(path))
    assert code == 0 and point in out and INTERPRETER in out
    code, out = _cli("simulate", "--spec", str(path), "--games", "3", "--format", "json")
    assert code == 0, out
    assert INTERPRETER in out
    book = tmp_path / "regeln.md"
    code, out = _cli("rulebook", "--spec", str(path), "--lang", "de", "--out", str(book))
    assert code == 0, out
    # The rulebook carries the house reading the profile plays.
    text = book.read_text(encoding="utf-8")
    chosen = spec.profiles["house"].readings[point].reading
    explain = spec.variation_points[point].readings[chosen]
    untranslated = words_of(load_spec()).rulebook["de"]["untranslated"]
    assert f"{explain} ({untranslated})" in text
    assert f"Grundlage: {words_of(load_spec()).rulebook['de']['basis']['house']}." in text
    code, out = _cli("vectors", "--spec", str(path), "--out", str(tmp_path / "vectors"))
    assert code == 0, out
    index = json.loads((tmp_path / "vectors" / "index.json").read_text())
    assert INTERPRETER in json.dumps(index)


def _endless(tmp_path: Path) -> Path:
    """Passing keeps a player in, and the trick ends only when one player is left: nobody leaves,
    so a trick in which everyone passes goes round for ever."""
    text = (FOLDER / "passing-keeps-you-in.yaml").read_text(encoding="utf-8")
    old = 'ends: "in_trick == 1 or passes_in_a_row == players - 1"'
    assert old in text
    path = tmp_path / "endless.yaml"
    path.write_text(text.replace(old, 'ends: "in_trick == 1"'), encoding="utf-8")
    return path


def test_a_house_rule_that_makes_play_endless_gets_a_liveness_finding(tmp_path: Path) -> None:
    spec = load_spec(_endless(tmp_path))
    run = run_checks(spec, spec.ruleset(), level="quick", only=["discovery.liveness"])
    (result,) = run.results
    assert result.error is None and result.skipped is None
    found = {f.id: f for f in result.findings}
    assert "liveness.play.no_endless_trick" in found
    witness = found["liveness.play.no_endless_trick"].witness
    assert witness is not None and witness.position is not None and witness.position.moves
    # The proofs stated for the printed pass rules are not claimed of these.
    proved = {p.name for p in result.proved}
    assert "trick.ends" not in proved and "trick.pass_leaves_trick" not in proved
    assert any("trick.ends not asked" in n for n in result.notes)


def test_the_house_rule_that_ends_by_passes_in_a_row_is_not_called_endless() -> None:
    spec = _spec(FOLDER / "passing-keeps-you-in.yaml")
    run = run_checks(spec, spec.ruleset(), level="quick", only=["discovery.liveness"])
    (result,) = run.results
    assert "liveness.play.no_endless_trick" not in {f.id for f in result.findings}
    assert "play.no_endless_trick" in {p.name for p in result.proved}


def test_simulate_stops_endless_play_with_one_line_and_exit_2(tmp_path: Path) -> None:
    code, out = _cli("simulate", "--spec", str(_endless(tmp_path)), "--games", "1")
    assert code == 2, out
    lines = [line for line in out.splitlines() if "error" in line]
    assert len(lines) == 1 and "go on for ever" in lines[0] and "Traceback" not in out
