"""Every planted bug (tests/planted) is caught by the check runner with a small witness.

The graph checks (exhaustive small endgames, succession and beats graphs) catch each bug with the
smallest deal that shows it; the Hypothesis state machine catches them too, with a shrunk
replayable scenario (slower: shrinking replays whole matches, so only the quick ones run here).
Run with `-s` to see the table of bug, check, witness size and time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.checks.play.matches import SCENARIO_WORDS, scenario_text
from five35.checks.runner import run_checks
from five35.cli import main
from five35.engine import Game, Move
from five35.spec import load_spec
from five35.spec.words import words_of

# The planted engines are named `tests.planted` (as `--engine python:tests.planted:...` names them
# from the checkout), which needs the checkout on the path however pytest was started.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.planted import BUGS  # noqa: E402

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")
TABLE: list[str] = []


# The graph check expected to catch each bug first (all of `535-check check` runs in the CLI test).
CATCHER = {
    "RunsCrossGaps": "graphs.succession",
    "EqualPileOverwrites": "graphs.beats",
    "RunOrderReversed": "graphs.beats",
}


@pytest.mark.parametrize("name", sorted(BUGS))
def test_the_graph_checks_catch_the_bug_with_a_small_witness(name: str) -> None:
    engine, what = BUGS[name]
    started = time.perf_counter()
    check = CATCHER.get(name, "graphs.endgames")
    run = run_checks(SPEC, BASE, level="quick", seed=535, engine=engine, only=[check])
    seconds = time.perf_counter() - started
    assert not run.ok, f"{name} ({what}) was not caught"
    caught = [f for f in run.failures if f.witness is not None]
    assert caught, "a failure without a witness"
    smallest = min(caught, key=lambda f: f.witness.cards if f.witness else 0)
    assert smallest.witness is not None and smallest.witness.cards <= 12
    assert smallest.readings, "the failure names the readings it happened under"
    TABLE.append(f"{name:24} {smallest.check:18} {smallest.witness.cards:3} cards {seconds:5.1f}s  {what}")
    print(TABLE[-1])


@pytest.mark.parametrize(
    "name", ["LeaderMayPass", "EqualPileOverwrites", "FirstPlacerWins", "PenaltyCountsCards"]
)
def test_the_state_machine_catches_the_bug_with_a_replayable_scenario(name: str) -> None:
    engine, _ = BUGS[name]
    run = run_checks(SPEC, BASE, level="quick", seed=535, engine=engine, only=["invariants"])
    assert not run.ok
    failure = run.failures[0]
    assert failure.witness is not None
    scenario = failure.witness.situation["scenario"]
    assert scenario_text(scenario, words_of(SPEC).check(SCENARIO_WORDS)) in failure.witness.summary
    # Replaying the scenario on the buggy engine reaches the same violation; on the reference it does not.
    from five35.checks.oracles.rules_model import SpecRules
    from five35.checks.oracles.strategies import Setup
    from five35.checks.play.invariants import state_violations, step_violations
    from five35.checks.play.matches import replay
    from five35.engine import Position

    rs = SPEC.ruleset(scenario["profile"], scenario["readings"])
    start = scenario["start"]
    setup = (
        Setup(rs, scenario["players"], start["deal_seed"])
        if "deal_seed" in start
        else Setup(
            rs,
            scenario["players"],
            start["seed"],
            Position(
                tuple(tuple(h) for h in start["hands"]),
                start["leader"],
                tuple(start["scores"]),
                seed=start["seed"],
            ),
        )
    )
    found = []
    say = words_of(SPEC).check("invariants")
    buggy = engine(rs, scenario["players"])
    rules = SpecRules(rs, scenario["players"], ORACLES)
    found.extend(state_violations(buggy, rules, setup.start(buggy), say))
    for before, text, after, events in replay(buggy, setup, scenario["moves"]):
        found.extend(state_violations(buggy, rules, after, say))
        if text != "next_round":
            found.extend(step_violations(buggy, rules, before, Move.parse(text), after, events, say))
    assert found and failure.message.startswith(found[0].invariant)
    reference = Game(rs, scenario["players"])
    assert not state_violations(reference, rules, setup.start(reference), say)


def test_the_command_exits_1_on_a_planted_bug() -> None:
    result = CliRunner().invoke(
        main,
        [
            "check",
            "--level",
            "quick",
            "--only",
            "invariants",
            "--engine",
            "python:tests.planted:LeaderMayPass",
        ],
    )
    assert result.exit_code == 1
    assert "leader.no_pass" in result.stdout and "FAILED" in result.stdout


def test_there_are_at_least_eight_different_bugs() -> None:
    assert len(BUGS) >= 8
    assert len({cls for cls, _ in BUGS.values()}) == len(BUGS)
    assert all(issubclass(cls, Game) and cls is not Game for cls, _ in BUGS.values())
