"""The `interpreter` check: the engine under check played side by side with the spec interpreter."""

from __future__ import annotations

import pytest
from five35.checks.findings import CheckContext
from five35.checks.play.interpreter import check_interpreter
from five35.engine import Game
from five35.spec import load_spec

from tests.planted import BUGS


def test_the_reference_engine_agrees_with_the_rules_move_for_move() -> None:
    spec = load_spec()
    for profile in spec.playable_profiles:
        ctx = CheckContext(spec=spec, ruleset=spec.ruleset(profile), level="quick", seed=3)
        result = check_interpreter(ctx)
        assert result.ok and result.generated > 500, (profile, result.failures)


# Bugs that random play meets within a few matches at level ci; the others need positions a
# random bot rarely plays into (the conformance, invariant and fuzz checks catch those).
CAUGHT = ("RunsCrossGaps", "ExemptionIgnored", "FirstPlacerWins", "EqualPileOverwrites", "PenaltyCountsCards")


@pytest.mark.parametrize("name", CAUGHT)
def test_a_planted_bug_departs_from_the_rules_with_a_witness(name: str) -> None:
    engine = next(cls for cls, _rule in BUGS.values() if cls.__name__ == name)
    assert issubclass(engine, Game)
    spec = load_spec()
    ruleset = spec.ruleset("german-literal" if name == "EqualPileOverwrites" else None)
    result = check_interpreter(CheckContext(spec=spec, ruleset=ruleset, level="ci", seed=1, engine=engine))
    assert not result.ok
    failure = result.failures[0]
    assert failure.witness is not None and failure.witness.position is not None
    # The witness replays: the interpreter reaches the step where the two part.
    from five35.engine.interpreter import SpecEngine

    SpecEngine(ruleset, failure.witness.position.players).play_from(failure.witness.position)
