"""The invariants: the spec's own rules (SpecRules), single-state and single-move checks on
hand-made situations, and the Hypothesis state machine over whole matches, run by pytest."""

from __future__ import annotations

from dataclasses import replace

from five35.checks.findings import CheckContext
from five35.checks.hypothesis_env import hypothesis_settings, private_hypothesis_home
from five35.checks.oracles.rules_model import SpecRules
from five35.checks.oracles.strategies import Setup
from five35.checks.play.invariants import state_violations, step_violations
from five35.checks.play.matches import check_matches, machine_for, replay, run_machine
from five35.engine import Game, Move, Pile, Position, State
from five35.engine.state import Event
from five35.spec import load_spec
from five35.spec.words import words_of

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")
SAY = words_of(SPEC).check("invariants")


def rules(**readings: str) -> SpecRules:
    return SpecRules(SPEC.ruleset(None, readings), 4, ORACLES)


def test_runs_stop_at_the_gaps_unless_the_reading_skips_them() -> None:
    assert not rules().follows(5, 7)
    assert rules(run_gaps="gaps_skipped").follows(5, 7)
    assert rules(run_gaps="gaps_skipped").follows(9, 11)
    assert not rules().follows(15, 1)
    assert rules(run_wrap="wrap").follows(15, 1)


def test_piles_and_their_order() -> None:
    r = rules()
    assert r.as_pile([3, 1, 2]) == Pile("run", (1, 2, 3))
    assert r.as_pile([4, 4]) == Pile("set", (4, 4))
    assert r.as_pile([5, 7]) is None
    assert r.beats(Pile("run", (1, 2, 3)), Pile("run", (11, 12, 13)))  # the texts' example
    assert not rules(run_order="higher_beats").beats(Pile("run", (1, 2, 3)), Pile("run", (11, 12, 13)))
    assert rules(eight_rank="strongest").beats(Pile("single", (8,)), Pile("single", (15,)))
    assert not r.beats(Pile("single", (7,)), Pile("single", (7,)))


def test_judge_applies_the_add_readings() -> None:
    r = rules()
    assert r.judge(Pile("single", (7,)), Move("add", (7,)))[0] == Pile("set", (7, 7))
    assert r.judge(Pile("single", (7,)), Move("add", (7,)))[1] is None
    assert rules(add_to_single="not_allowed").judge(Pile("single", (7,)), Move("add", (7,)))[1]
    assert r.judge(Pile("run", (2, 3)), Move("add", (1,)))[1] is None
    assert rules(add_run_ends="top_end").judge(Pile("run", (2, 3)), Move("add", (1,)))[1]
    assert rules(run_gaps="gaps_skipped").judge(Pile("run", (1, 2, 3)), Move("add", (4, 5, 7)))[1]
    assert r.judge(None, Move("pass"))[1] == "the leader may not pass"


def test_rule_of_8_readings() -> None:
    r = rules()
    assert r.rule_of_8("overwrite", (8,), Pile("single", (8,)), opening_has_eight=False)
    assert not r.rule_of_8("add", (8,), Pile("set", (8, 8)), opening_has_eight=True)
    assert rules(eight_exemption="opening_play").rule_of_8(
        "add", (8,), Pile("set", (8, 8)), opening_has_eight=True
    )
    assert not rules(eight_forms="listed_forms").rule_of_8("overwrite", (8, 9), Pile("run", (8, 9)), False)
    assert not rules(eight_on_add="plays_only").rule_of_8("add", (8,), Pile("run", (7, 8)), False)
    assert not r.rule_of_8("lead", (8,), Pile("single", (8,)), False)


def test_a_clean_start_has_no_violations() -> None:
    game = Game(BASE, 3)
    state = game.new_match(7)
    assert state_violations(game, SpecRules(BASE, 3, ORACLES), state, SAY) == []


def test_a_lost_card_is_reported() -> None:
    game = Game(BASE, 2)
    state = game.start_round([[2, 9], [4, 12]], 0)
    broken = replace(state, hands=(game.codec.pack([2]), state.hands[1]))
    found = state_violations(game, SpecRules(BASE, 2, ORACLES), broken, SAY)
    assert [v.invariant for v in found] == ["cards.accounted"]


def test_a_wrong_winner_is_reported() -> None:
    game = Game(BASE, 2)
    r = SpecRules(BASE, 2, ORACLES)
    state = game.start_round([[2, 5], [8, 9]], 0)
    state, _ = game.apply(state, Move("lead", (5,)))
    after, events = game.apply(state, Move("overwrite", (8,)))
    assert step_violations(game, r, state, Move("overwrite", (8,)), after, events, SAY) == []
    wrong = tuple(replace(e, winner=0) if hasattr(e, "winner") else e for e in events)
    found = step_violations(game, r, state, Move("overwrite", (8,)), after, wrong, SAY)
    assert "trick.winner" in [v.invariant for v in found]


def test_replay_reaches_the_same_states() -> None:
    game = Game(BASE, 2)
    setup = Setup(BASE, 2, 0, Position(((2, 5), (8, 9)), 0, (0, 0)))
    steps = list(replay(game, setup, ["lead 5", "overwrite 8", "lead 9"]))
    assert steps[-1][2].phase == "round_over"


def test_the_state_machine_passes_on_the_reference_engine() -> None:
    machine = machine_for(SPEC, BASE, Game, run_seed=1)
    broken, printed = run_machine(machine, examples=15, steps=10)
    assert broken is None, str(broken)
    assert machine.stats.states > 100
    assert printed == []


class _SecondCopyDrifts(Game):
    """Every engine made after the first marks the states it plays with another deal seed: a fresh
    engine replaying the same start and moves reaches a different state."""

    made = 0

    def __init__(self, ruleset: object, players: int) -> None:
        super().__init__(ruleset, players)  # type: ignore[arg-type]
        type(self).made += 1
        self.drifts = type(self).made > 1

    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        after, events = super().apply(state, move)
        return (replace(after, seed=after.seed + 1) if self.drifts else after), events


def test_the_replay_on_a_fresh_engine_catches_an_engine_that_plays_otherwise_the_second_time() -> None:
    # Verdicts and replays are remembered across Hypothesis's examples: the first replay of each
    # scenario still runs on a fresh engine.
    machine = machine_for(SPEC, BASE, _SecondCopyDrifts, profiles=False, combinations=False, run_seed=1)
    broken, _ = run_machine(machine, examples=15, steps=10)
    assert broken is not None and broken.violation.invariant == "game.deterministic"


def test_settings_do_not_depend_on_ci_detection() -> None:
    s = hypothesis_settings(10, steps=5)
    assert s.derandomize and s.database is None and s.deadline is None
    assert s.max_examples == 10 and s.stateful_step_count == 5


def test_check_matches_counts_what_it_generated() -> None:
    result = check_matches(CheckContext(SPEC, BASE, level="quick", seed=3))
    assert result.ok
    assert result.generated > 0
    assert "matches" in result.notes[0]


# The same machine as a plain pytest test class, so `pytest tests/` runs it with the rest.
PytestMachine = machine_for(SPEC, BASE, Game)
TestMatches = PytestMachine.TestCase
TestMatches.settings = hypothesis_settings(10, steps=10)


def setup_module() -> None:
    global _home
    _home = private_hypothesis_home()
    _home.__enter__()


def teardown_module() -> None:
    _home.__exit__(None, None, None)
