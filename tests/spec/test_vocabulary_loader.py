"""The spec against the engine's vocabulary: what no code implements is an error where it is written,
unless it is marked `unimplemented: true`, which keeps it as a proposal that no command plays."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_tools import run_bad_input
from click.testing import CliRunner
from five35.cli.main import main
from five35.engine import Game
from five35.engine.engines import (
    INTERPRETER,
    REFERENCE,
    ReferenceLacks,
    engine_name,
    lacks_words,
    make_engine,
    reference_lacks,
)
from five35.engine.interpreter import SpecEngine
from five35.spec import SpecError, embedded_spec_path, load_spec
from five35.spec.vocabulary import UnimplementedReading
from five35.spec.words import words_of

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")
RUN_GAPS = "      gaps_skipped:\n"
ANY_PAIR = (
    '      any_pair: {explain: "Any two cards of neighbouring groups form a run.", unimplemented: true}\n'
)
PROPOSAL = EMBEDDED.replace(RUN_GAPS, ANY_PAIR + RUN_GAPS)
HOUSE = (
    "\n  house:\n    title: House rules\n    source: our table\n    status: house\n    extends: published\n"
    "    readings:\n      run_gaps: {reading: any_pair, basis: house}\n"
    "  house-plus:\n    title: More house rules\n    source: our table\n    status: house\n"
    "    extends: house\n"
    "\ndefault_profile:"
)
WITH_HOUSE = PROPOSAL.replace("\ndefault_profile:", HOUSE)


def _line(text: str, fragment: str) -> int:
    assert text.count(fragment) == 1, fragment
    return text[: text.index(fragment)].count("\n") + 1


def _write(tmp_path: Path, text: str, name: str = "proposal.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- the library ------------------------------------------------------------------------------------


def test_the_embedded_spec_matches_the_reference_vocabulary_exactly() -> None:
    spec = load_spec()
    vocabulary = Game.VOCABULARY
    assert list(spec.variation_points) == list(vocabulary.points)
    for name, vp in spec.variation_points.items():
        assert tuple(vp.readings) == vocabulary.points[name]
        assert vp.unimplemented == frozenset() and vp.playable == tuple(vp.readings)
    assert set(spec.parameters) == set(vocabulary.parameters)


def test_a_marked_reading_loads_as_a_proposal(tmp_path: Path) -> None:
    spec = load_spec(_write(tmp_path, PROPOSAL))
    vp = spec.variation_points["run_gaps"]
    assert vp.listed["any_pair"] == "Any two cards of neighbouring groups form a run."
    assert "any_pair" not in vp.readings  # a proposal is never among the readings engines play
    assert vp.unimplemented == frozenset({"any_pair"})
    assert vp.playable == ("gaps_break", "gaps_skipped")
    listed = {r["name"]: r["unimplemented"] for r in spec.to_json()["variation_points"][0]["readings"]}
    assert listed == {"any_pair": True, "gaps_break": False, "gaps_skipped": False}
    # The default profile does not choose it, so it resolves; counting skips the proposal.
    assert spec.ruleset().reading("run_gaps") == "gaps_break"
    assert spec.all_reading_combinations() == load_spec().all_reading_combinations()


def test_choosing_a_marked_reading_with_reading_is_refused(tmp_path: Path) -> None:
    spec = load_spec(_write(tmp_path, PROPOSAL))
    with pytest.raises(SpecError) as err:
        spec.ruleset("published", {"run_gaps": "any_pair"})
    assert err.value.where == "--reading"
    assert (
        str(err.value) == "--reading: reading run_gaps=any_pair is marked unimplemented: no engine plays it"
    )


@pytest.mark.parametrize("profile", ["house", "house-plus"])
def test_a_profile_choosing_a_marked_reading_loads_but_is_refused_at_its_line(
    profile: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, WITH_HOUSE)
    spec = load_spec(path)
    with pytest.raises(SpecError) as err:
        spec.ruleset(profile)
    # house-plus inherits the choice: the line to change is still house's.
    line = _line(WITH_HOUSE, "      run_gaps: {reading: any_pair")
    assert err.value.where == f"{path}:{line}: profiles.house.readings.run_gaps"
    assert "reading run_gaps=any_pair is marked unimplemented" in str(err.value)
    # Overriding the choice makes the profile playable.
    rules = spec.ruleset(profile, {"run_gaps": "gaps_skipped"})
    assert rules.reading("run_gaps") == "gaps_skipped" and rules.overridden == ("run_gaps",)
    Game(rules, 4)


def test_a_reading_the_reference_lacks_is_played_by_the_spec_interpreter(tmp_path: Path) -> None:
    any_pair = (
        '      any_pair:\n        explain: "Ranks next in the deck form a run, across 6 and 10."\n'
        '        rules: {ranks: {gap: "order(b) == order(a) + 1"}}\n'
    )
    path = _write(tmp_path, EMBEDDED.replace(RUN_GAPS, any_pair + RUN_GAPS))
    spec = load_spec(path)
    assert spec.variation_points["run_gaps"].playable == ("gaps_break", "any_pair", "gaps_skipped")
    ruleset = spec.ruleset(None, {"run_gaps": "any_pair"})
    assert engine_name(ruleset) == INTERPRETER
    lacks = reference_lacks(ruleset)
    assert lacks == ReferenceLacks(reading=("run_gaps", "any_pair"))
    assert lacks_words(lacks, words_of(spec).engines) == "it has no reading run_gaps=any_pair"
    with pytest.raises(UnimplementedReading):
        Game(ruleset, 4)  # the reference never plays a reading as another
    engine = make_engine(ruleset, 4)
    assert isinstance(engine, SpecEngine)
    assert engine.program.follows(5, 7) and not engine.program.follows(5, 8)
    # The readings the reference declares are still played by the reference.
    assert engine_name(spec.ruleset()) == REFERENCE


def test_a_vocabulary_parameter_the_spec_lacks_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, EMBEDDED)
    more_parameters = Game.VOCABULARY.extended(parameters=("jokers",))
    with pytest.raises(SpecError) as err:
        load_spec(path, vocabulary=more_parameters)
    line = _line(EMBEDDED, "\nparameters:") + 1
    assert (
        str(err.value)
        == f"{path}:{line}: parameters: parameter 'jokers' is missing: the engine needs its value"
    )


def test_with_readings_keeps_the_profile_and_marks_what_differs_from_it() -> None:
    spec = load_spec()
    literal = spec.ruleset("german-literal")
    wrapped = spec.with_readings(literal, {"run_wrap": "wrap"})
    assert wrapped.profile == "german-literal"
    assert wrapped.overridden == ("run_wrap",)
    assert wrapped.reading("add_to_single") == literal.reading("add_to_single") == "not_allowed"
    # german-literal already deals the whole deck: asking for it again changes nothing.
    both = spec.with_readings(wrapped, {"deal": "deal_all", "first_leader": "seat_0"})
    assert both.overridden == ("first_leader", "run_wrap")
    assert both.label() == "german-literal+first_leader=seat_0,run_wrap=wrap"
    # Back to the profile's own readings: no longer marked.
    back = spec.with_readings(both, {"run_wrap": "no_wrap", "first_leader": "drawn"})
    assert back == literal
    assert spec.with_readings(literal, {}) == literal


def test_with_readings_refuses_a_marked_reading(tmp_path: Path) -> None:
    spec = load_spec(_write(tmp_path, PROPOSAL))
    with pytest.raises(SpecError, match="run_gaps=any_pair is marked unimplemented"):
        spec.with_readings(spec.ruleset(), {"run_gaps": "any_pair"})


# ---- the command line -------------------------------------------------------------------------------


def test_rules_lists_a_marked_reading_with_its_mark(tmp_path: Path) -> None:
    _write(tmp_path, WITH_HOUSE)
    result = CliRunner().invoke(main, ["rules", "--spec", str(tmp_path / "proposal.yaml")])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "'x' marks a reading no engine implements" in text
    assert "x any_pair (unimplemented): Any two cards of neighbouring groups" in text
    assert "= any_pair (basis: house) [unimplemented: cannot be played]" in text
    plain = CliRunner().invoke(main, ["rules"]).stdout
    assert "unimplemented" not in plain


RUN_ANY_PAIR = ["--reading", "run_gaps=any_pair"]
COMMANDS = {
    "rules": ["rules"],
    "simulate": ["simulate", "--players", "4", "--games", "1", "--seed", "1"],
    "check": ["check", "--level", "quick", "--seed", "1"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_to_play_a_marked_reading(command: str, tmp_path: Path) -> None:
    _write(tmp_path, WITH_HOUSE)
    base = [*COMMANDS[command], "--spec", "proposal.yaml"]
    run_bad_input([*base, *RUN_ANY_PAIR], 2, "--reading: reading run_gaps=any_pair", cwd=tmp_path)
    line = _line(WITH_HOUSE, "      run_gaps: {reading: any_pair")
    where = f"proposal.yaml:{line}: profiles.house.readings.run_gaps"
    run_bad_input([*base, "--profile", "house"], 2, where, "marked unimplemented", cwd=tmp_path)


UNKNOWN = {
    "reading": (
        EMBEDDED.replace(RUN_GAPS, "      any_pair: \"Any two.\"\n" + RUN_GAPS),
        "any_pair: \"Any two.\"",
        "variation_points.run_gaps.readings.any_pair: a reading states the rule fragment it substitutes "
        "(rules: {RULE_ID: {PART: EXPR}})",
    ),
    "part": (
        EMBEDDED.replace('rules: {ranks: {wrap: "true"}}', 'rules: {ranks: {wrap: "true", spin: "1"}}'),
        'rules: {ranks: {wrap: "true", spin: "1"}}',
        "variation_points.run_wrap.readings.wrap.rules.ranks.spin: part 'spin' of rule ranks is used by no "
        "other part",
    ),
    "parameter": (
        EMBEDDED.replace(
            "\n  max_cards_per_turn:\n",
            "\n  jokers:\n    value: 2\n    cites: []\n    explain: Jokers.\n  max_cards_per_turn:\n",
        ),
        "  jokers:",
        "parameters.jokers: parameter 'jokers' is named by no rule, so it changes nothing",
    ),
}  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("what", list(UNKNOWN))
def test_what_no_rule_can_play_is_one_line_at_its_key(what: str, command: str, tmp_path: Path) -> None:
    text, fragment, message = UNKNOWN[what]
    _write(tmp_path, text, "house.yaml")
    place = f"house.yaml:{_line(text, fragment)}: {message}"
    run_bad_input([*COMMANDS[command], "--spec", "house.yaml"], 2, place, cwd=tmp_path)


def test_a_proposal_in_one_profile_does_not_stop_the_others(tmp_path: Path) -> None:
    """Sweeps over "every profile" (the graphs, the strategies, the report's variants) take the
    playable ones, and a point's `readings` never offer a proposal to a sweep."""
    spec = load_spec(_write(tmp_path, WITH_HOUSE))
    assert "house" in spec.profiles and "house" not in spec.playable_profiles
    assert "house-plus" not in spec.playable_profiles  # it inherits the proposal
    assert spec.playable_profiles == ("published", "german-literal", "spanish-literal")
    assert "any_pair" not in spec.variation_points["run_gaps"].readings
    result = CliRunner().invoke(
        main, ["check", "--spec", str(tmp_path / "proposal.yaml"), "--level", "quick", "--only", "graphs"]
    )
    assert result.exit_code == 0, result.output
