"""Spec copies with other numbers against the embedded words file and the built-in comparisons
(issue 20): a words-file scene the copy's deck cannot supply is left out with a note, never an
engine fault; a comparison whose engine cannot deal the copy's table counts every game as changed
at the deal instead of stopping the job; a copy with fewer ranks loads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.checks.discovery.decisions import BothHandsAsOne
from five35.checks.findings import Alternative, Side
from five35.checks.impact.estimate import estimate_alternatives
from five35.checks.impact.scenes import scene_problem, scene_witness, skipped_scenes
from five35.checks.runner import run_checks
from five35.checks.text.text_audit import text_audit
from five35.spec import Ruleset, Spec, embedded_spec_path, load_spec
from five35.spec.words import words_of

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")
COPIES = "value: {small_game: 4, large_game: 5}\n    cites: [deck.copies]"
HANDS = "value: {2: 12, 3: 13, 4: 12, 5: 12, 6: 10}"
RANKS = "value: [1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]"
POINTS = "value: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}"

IMPACT = words_of(load_spec()).check("impact")


def _copy(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = EMBEDDED
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


#: Three copies of each card (39 cards): the scenes that hold four 3s cannot be dealt.
THREE_COPIES = (
    (COPIES, "value: {small_game: 3, large_game: 3}\n    cites: [deck.copies]"),
    (HANDS, "value: {2: 12, 3: 12, 4: 9, 5: 7, 6: 6}"),
)
#: Eleven ranks, 14 and 15 gone (44 or 55 cards): the scenes that use them cannot be dealt.
ELEVEN_RANKS = (
    (RANKS, "value: [1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13]"),
    (POINTS, "value: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3}"),
    (HANDS, "value: {2: 12, 3: 13, 4: 11, 5: 10, 6: 9}"),
)


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    return load_spec(_copy(tmp_path_factory.mktemp("three"), "three-copies.yaml", *THREE_COPIES))


@pytest.fixture(scope="module")
def eleven(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    return load_spec(_copy(tmp_path_factory.mktemp("eleven"), "eleven-ranks.yaml", *ELEVEN_RANKS))


def test_a_scene_the_deck_cannot_supply_says_why(three: Spec, eleven: Spec) -> None:
    scenes = words_of(three).scenes
    say = words_of(three).check("impact.scenes")

    def problem(scene: str, ruleset: Ruleset) -> str | None:
        found = scene_problem(scenes[scene], ruleset)
        return found.text(say) if found else None

    assert problem("set_verb", three.ruleset()) == (
        "it holds 4 cards of rank 3, and the deck has 3 of each at 2 players"
    )
    assert problem("scoring", eleven.ruleset()) == "it uses rank 15, which the deck lacks"
    five_at_most = replace(three.ruleset(), players_max=5)
    assert problem("set_past_sixth", five_at_most) == (
        "it is a table of 6 players, and the rules play 2 to 5"
    )
    # The embedded spec supplies every scene of its own words file.
    embedded = load_spec()
    assert skipped_scenes(embedded, words_of(embedded), embedded.ruleset()) == ()


def test_a_move_the_rules_refuse_leaves_the_scene_out(tmp_path: Path) -> None:
    # A turn of at most 2 cards: "lead 3,3,3" cannot set the table up.
    spec = load_spec(
        _copy(
            tmp_path,
            "two-card-turns.yaml",
            ("  max_cards_per_turn:\n    value: 3", "  max_cards_per_turn:\n    value: 2"),
        )
    )
    problem = scene_problem(words_of(spec).scenes["set_verb"], spec.ruleset())
    assert problem is not None and problem.which == "not_set_up", problem


@pytest.mark.parametrize("which", ["three", "eleven"])
def test_the_text_audit_leaves_such_scenes_out_with_a_note(
    which: str, request: pytest.FixtureRequest
) -> None:
    spec: Spec = request.getfixturevalue(which)
    run = run_checks(spec, spec.ruleset(), level="quick", only=["text_audit"])
    result = run.results[0]
    assert result.error is None and run.ok and not run.engine_crashed, result.failures
    skipped = [n for n in result.notes if n.startswith("scene ")]
    assert skipped and all(f"of 535.words.yaml is left out for {spec.path.name}" in n for n in skipped)
    assert list(skipped) == list(skipped_scenes(spec, words_of(spec), spec.ruleset()))
    # No finding keeps a scene its rules cannot set up, and every scene left is played on both sides.
    for finding in text_audit(spec, spec.ruleset()):
        alt = finding.alternative
        if alt is not None and alt.scene is not None:
            assert scene_problem(words_of(spec).scenes[alt.scene.name], alt.played.ruleset) is None
            scene_witness(alt)


def test_a_comparison_whose_engine_cannot_deal_counts_the_deal_as_changed(three: Spec) -> None:
    # Board Game Arena's two hands each at 2 players: 4 x 12 cards from a deck of 39.
    rules = three.ruleset()
    alt = Alternative(
        played=Side("one hand", "one hand of 12 each", rules),
        compared=Side("two hands", "both of BGA's two hands of 12 each", rules, BothHandsAsOne),
        method="the two-player deal",
        players=(2,),
    )
    measured = estimate_alternatives({"decision.two_player_deal": alt}, rules, 3, 535, jobs=1, say=IMPACT)
    _, per = measured["decision.two_player_deal"]
    assert per[2].games == 3 and per[2].affected == 3
    assert dict(per[2].first_change) == {"deal": 3}


def test_a_copy_with_fewer_ranks_is_not_refused_by_the_embedded_words(tmp_path: Path) -> None:
    path = _copy(tmp_path, "eleven-ranks.yaml", *ELEVEN_RANKS)
    from click.testing import CliRunner
    from five35.cli.main import main

    result = CliRunner().invoke(main, ["rules", "--spec", str(path)])
    assert result.exit_code == 0, result.output
    assert "words.yaml" not in result.stderr


def test_check_on_such_a_copy_is_no_engine_fault(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from five35.cli.main import main

    path = _copy(tmp_path, "three-copies.yaml", *THREE_COPIES)
    only = ["--only", "text_audit", "--only", "discovery.decisions"]
    result = CliRunner().invoke(main, ["check", "--level", "ci", "--spec", str(path), *only, "-v"])
    assert result.exit_code == 0, result.output
    assert "ERROR" not in result.output and "DealError" not in result.output
    assert "scene set_verb of 535.words.yaml is left out" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_report_on_a_table_no_deck_can_deal_is_one_line_at_the_key(tmp_path: Path, jobs: str) -> None:
    # The copy: 3 copies of 13 ranks and 24 cards each at 2 players. Refused at load, before
    # any work, at the hand size's own line, with --jobs 1 and 2 alike.
    edits = (THREE_COPIES[0], (HANDS, "value: {2: 24, 3: 13, 4: 9, 5: 7, 6: 6}"))
    path = _copy(tmp_path, "house.yaml", *edits)
    line = (
        path.read_text(encoding="utf-8").splitlines().index("    value: {2: 24, 3: 13, 4: 9, 5: 7, 6: 6}") + 1
    )
    run_bad_input(
        ["report", "--spec", "house.yaml", "--jobs", jobs],
        2,
        f"house.yaml:{line}: parameters.hand_size.value.2: 2 hands of 24 need 48 cards, but the deck has 39",
        cwd=tmp_path,
    )
