"""Dead clauses: rule parts that can never apply under a reading, with the reason."""

from __future__ import annotations

from pathlib import Path

from five35.checks.findings import CheckContext, Finding
from five35.checks.text.dead_clauses import check_dead_clauses
from five35.spec import load_spec

SPEC_FILE = Path(__file__).resolve().parents[3] / "spec" / "535.yaml"


def run(path: Path | None = None) -> dict[str, Finding]:
    spec = load_spec(path)
    result = check_dead_clauses(CheckContext(spec, spec.ruleset(), level="ci"))
    assert result.proofs > 0 and not result.failures
    return {f.id: f for f in result.findings}


def test_dead_clauses_of_the_embedded_spec() -> None:
    got = run()
    over = got["dead.overwrite.size-4"]
    assert over.kind == "dead_clause" and over.severity == "low"
    assert "at most 3 cards" in over.detail
    mixed = got[
        "dead.trick.end.set.players-5.five_player_copies=five_is_small.five_player_set_close=five_is_large"
    ]
    assert {"parameters.copies", "parameters.set_closing_size"} <= set(mixed.unsat_core)
    assert mixed.status.profile == "published" and not mixed.status.is_open
    # its alternative: the rules under those readings with the clause and without it, at 5 players
    assert mixed.alternative is not None and mixed.alternative.players == (5,)
    assert mixed.alternative.compared.engine.__name__ == "SetsNeverClose"
    assert mixed.players == 5
    assert "dead.eight.trigger.unlisted_run.eight_forms=listed_forms" in got
    assert "dead.eight.trigger.added.eight_on_add=plays_only" in got
    run_overflow = got["dead.add_past_closing.run.run_gaps=gaps_break.run_wrap=no_wrap"]
    assert run_overflow.severity == "high"  # the published profile reads the rules exactly so
    assert "dead.trick.end.set.players-2" not in got
    assert "dead.trick.end.run" not in got


def test_a_set_that_closes_beyond_the_copies_makes_the_clause_dead(tmp_path: Path) -> None:
    text = SPEC_FILE.read_text(encoding="utf-8")
    old = "value: {small_game: 4, large_game: 5}\n    cites: [trick.end.set]"
    assert old in text
    path = tmp_path / "six.yaml"
    path.write_text(
        text.replace(old, "value: {small_game: 4, large_game: 6}\n    cites: [trick.end.set]"),
        encoding="utf-8",
    )
    got = run(path)
    dead = got["dead.trick.end.set.players-6"]
    assert {"parameters.copies", "parameters.set_closing_size", "trick.end.set"} <= set(dead.unsat_core)
    assert dead.severity == "low"  # under every reading


def test_quick_does_not_search() -> None:
    spec = load_spec()
    result = check_dead_clauses(CheckContext(spec, spec.ruleset(), level="quick"))
    assert not result.findings and result.notes
