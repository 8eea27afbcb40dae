"""The text against itself: its own examples against every reading, and a spec whose entries
contradict each other, reported with unsat cores named by clause ids."""

from __future__ import annotations

from pathlib import Path

from five35.checks.findings import STATUS_WORDS, CheckContext, Finding
from five35.checks.text.text_examples import check_text_examples
from five35.spec import load_spec
from five35.spec.words import embedded_words

STATUS = embedded_words().check(STATUS_WORDS)

SPEC_FILE = Path(__file__).resolve().parents[3] / "spec" / "535.yaml"


def run(path: Path | None = None, level: str = "ci") -> dict[str, Finding]:
    spec = load_spec(path)
    result = check_text_examples(CheckContext(spec, spec.ruleset(), level=level))  # type: ignore[arg-type]
    assert result.proofs > 0 and not result.failures
    return {f.id: f for f in result.findings}


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = SPEC_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "house-rules.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_the_run_example_contradicts_higher_beats_only() -> None:
    got = run()
    f = got["text.pile.run.run_order=higher_beats"]
    assert f.kind == "contradiction"
    assert set(f.unsat_core) == {"pile.run", "reading:run_order=higher_beats"}
    assert "pile.run" in f.clauses
    assert f.status.words(STATUS) == "settled by profile published: run_order=lower_beats"
    assert not any(i.startswith("text.pile.single") or i.startswith("text.pile.set.") for i in got)


def test_the_rule_of_8_sentence_against_its_readings() -> None:
    got = run()
    assert got["text.eight.trigger.any.eight_forms=listed_forms"].unsat_core == (
        "eight.trigger.any",
        "reading:eight_forms=listed_forms",
    )
    assert "text.eight.trigger.added.eight_on_add=plays_only" in got
    assert not any(i.startswith("text.eight.trigger.single") for i in got)


def test_the_german_and_spanish_texts_contradict_each_other_at_five_players() -> None:
    got = run()
    pair = got["mismatch.trick.end.set.five_players"]
    assert pair.unsat_core == ("trick.end.set@de", "trick.end.set@es")
    assert pair.clauses == ("trick.end.set",)
    # The copies do not contradict: the Spanish 'más de 5' gives 5 players no count at all (neither
    # '2-4' nor 'más de 5'), so 5 copies for them go against no word of it. The text audit names
    # the difference between the texts (tests/checks/text/test_text_audit.py).
    assert "mismatch.deck.copies.five_players" not in got
    assert "text.deck.copies@es.five_player_copies=five_is_large" not in got
    # The published profile follows the German text, so the Spanish closing of a set conflicts.
    assert got["text.trick.end.set@es.five_player_set_close=five_is_large"].status.is_open


def test_quick_checks_the_ruleset_only() -> None:
    got = run(level="quick")
    assert "text.pile.run.run_order=higher_beats" not in got
    assert "mismatch.trick.end.set.five_players" in got


def test_a_set_closing_size_above_the_copies_is_a_contradiction(tmp_path: Path) -> None:
    path = edited(
        tmp_path,
        "value: {small_game: 4, large_game: 5}\n    cites: [trick.end.set]",
        "value: {small_game: 5, large_game: 5}\n    cites: [trick.end.set]",
    )
    got = run(path)
    f = got["text.trick.end.set.reachable"]
    assert set(f.unsat_core) == {
        "parameters.copies",
        "parameters.set_closing_size",
        "trick.end.set.reachable",
    }
    assert set(f.clauses) == {"deck.copies", "trick.end.set"}
    assert f.severity == "high"
    assert {"parameters.set_closing_size", "trick.end.set@de"} == set(got["text.trick.end.set@de"].unsat_core)


def test_a_run_closing_size_above_the_longest_run_is_a_contradiction(tmp_path: Path) -> None:
    got = run(edited(tmp_path, "run_closing_size:\n    value: 5", "run_closing_size:\n    value: 6"))
    assert got["text.trick.end.run"].unsat_core == ("parameters.run_closing_size", "trick.end.run")
    reach = got["text.trick.end.run.reachable.run_gaps=gaps_break.run_wrap=no_wrap"]
    assert "parameters.run_closing_size" in reach.unsat_core
    assert {"pile.run", "trick.end.run", "deck.ranks"} <= set(reach.clauses)


def test_points_that_do_not_make_the_8_worth_the_most(tmp_path: Path) -> None:
    got = run(edited(tmp_path, "7: 2, 8: 5, 9: 2", "7: 2, 8: 1, 9: 2"))
    f = got["text.eight.value.eight_rank=by_number"]
    assert set(f.unsat_core) == {"eight.value", "parameters.points", "reading:eight_rank=by_number"}
    assert set(f.clauses) == {"deck.points", "eight.value"}


def test_a_match_end_score_the_text_does_not_state(tmp_path: Path) -> None:
    got = run(edited(tmp_path, "match_end_score:\n    value: 20", "match_end_score:\n    value: 30"))
    assert got["text.match.end"].unsat_core == ("match.end", "parameters.match_end_score")
    assert got["text.match.end"].clauses == ("match.end",)
