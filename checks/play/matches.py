"""Whole matches under generated rulesets and starts, every invariant at every step.

`MatchMachine` is a Hypothesis state machine: it draws a ruleset (the one under check, a profile or
a random combination of readings) and a start (a seeded deal or drawn hands,
five35.checks.oracles.strategies), plays legal moves round after round, and checks every state and
step with the invariants (five35.checks.play.invariants). A broken invariant is shrunk by
Hypothesis to a short `Scenario` (start and moves) that `replay` plays again and `scenario_text`
writes out for a person; `check_matches` is the check the runner registers as
"invariants.matches".
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.reporting import with_reporter
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from hypothesis.strategies import SearchStrategy

from ...engine import Game, Move, State
from ...engine.engines import Engine
from ...engine.state import Event
from ...spec import Ruleset, Spec
from ...spec.vocabulary import UnimplementedReading, Vocabulary
from ...spec.words import words_of
from ...spec.words_model import CheckWords
from ..findings import CheckContext, CheckResult, EngineFactory, Failure, Level, ModelLimit, Witness
from ..hypothesis_env import hypothesis_settings, private_hypothesis_home
from ..oracles.rules_model import RULES_VOCABULARY, SpecRules
from ..oracles.strategies import Setup, setups
from .invariants import (
    Violation,
    roundtrip_violations,
    situation,
    state_cards,
    state_violations,
    step_violations,
)


@dataclass
class Scenario:
    """A start and the moves since: replays a failure exactly (see `replay`)."""

    setup: Setup
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**self.setup.to_json(), "moves": list(self.moves)}


def replay(
    game: Engine, setup: Setup, moves: list[str]
) -> Iterator[tuple[State, str, State, tuple[Event, ...]]]:
    """Replay a scenario: yields (before, move, after, events) for each move ("next_round" too)."""
    state = setup.start(game)
    for text in moves:
        if text == "next_round":
            after, events = game.next_round(state), cast(tuple[Event, ...], ())
        else:
            after, events = game.apply(state, Move.parse(text))
        yield state, text, after, events
        state = after


SCENARIO_WORDS = "play.scenario"  # the group of the words file's check sentences that word a scenario


def scenario_text(data: Mapping[str, Any], say: CheckWords) -> str:
    """A scenario as a few readable lines a person can replay by hand, in the words `say` (the
    check words SCENARIO_WORDS)."""
    start = data["start"]
    if "hands" in start:
        begin = say(
            "dealt",
            players=data["players"],
            hands=start["hands"],
            leader=start["leader"],
            scores=start["scores"],
        )
    else:
        begin = say("seeded", players=data["players"], seed=start["deal_seed"])
    moves = ", ".join(data["moves"]) or say("no_moves")
    return say("scenario", begin=begin, moves=moves)


# ---- the Hypothesis state machine ---------------------------------------------------------------


class InvariantBroken(AssertionError):
    """An invariant failed; carries the violation, the situation and the scenario that reach it."""

    def __init__(
        self, violation: Violation, scenario: dict[str, Any], witness_situation: dict[str, Any], cards: int
    ) -> None:
        super().__init__(f"{violation.invariant}: {violation.message}")
        self.violation = violation
        self.scenario = scenario
        self.situation = witness_situation
        self.cards = cards


# The verdicts kept (a few hundred bytes each): level deep checks some hundred thousand states.
MAX_VERDICTS = 200_000


@dataclass
class MachineStats:
    examples: int = 0
    states: int = 0
    steps: int = 0
    matches_finished: int = 0
    rulesets: set[str] = field(default_factory=set)


class MatchMachine(RuleBasedStateMachine):
    """Whole matches under generated rulesets and starts; every invariant at every step.

    Configure a subclass with `machine_for` (the spec, the ruleset under check, the engine).
    """

    spec: ClassVar[Spec]
    #: The words of the invariants' failures (check `invariants`).
    say: ClassVar[CheckWords]
    setup_strategy: ClassVar[SearchStrategy[Setup]]
    engine: ClassVar[EngineFactory]
    stats: ClassVar[MachineStats]
    games: ClassVar[dict[tuple[Ruleset, int], tuple[Engine, SpecRules]]]
    # What the invariants said of a state or a step already checked under the same ruleset and table:
    # Hypothesis replays the prefixes of earlier examples while it generates new ones, so about half
    # the states and steps of a run come again. A verdict is a function of its key (the engine is
    # asked again only if it plays the same state otherwise, which the replay check catches).
    verdicts: ClassVar[dict[tuple[object, ...], list[Violation]]]
    replays: ClassVar[dict[tuple[Setup, tuple[str, ...]], tuple[State, list[Violation]]]]

    def __init__(self) -> None:
        super().__init__()
        self.game: Engine | None = None
        self.spec_rules: SpecRules | None = None
        self.table: tuple[Ruleset, int] | None = None
        self.state: State | None = None
        self.scenario: Scenario | None = None

    # -- helpers

    def _fail(self, violation: Violation, before: State) -> None:
        assert self.game is not None and self.scenario is not None
        raise InvariantBroken(
            violation, self.scenario.to_json(), situation(self.game, before), state_cards(self.game, before)
        )

    def _verdict(self, key: tuple[object, ...], check: Callable[[], list[Violation]]) -> list[Violation]:
        """`check()`'s violations, asked once per key (see `verdicts`)."""
        found = self.verdicts.get(key)
        if found is None:
            found = check()
            if len(self.verdicts) < MAX_VERDICTS:
                self.verdicts[key] = found
        return found

    def _check_state(self, state: State) -> None:
        game, rules = self.game, self.spec_rules
        assert game is not None and rules is not None
        self.stats.states += 1
        found = self._verdict((self.table, state), lambda: state_violations(game, rules, state, self.say))
        if found:
            self._fail(found[0], state)

    def _step(self, move: Move) -> None:
        assert self.game is not None and self.spec_rules is not None
        assert self.state is not None and self.scenario is not None
        before = self.state
        self.scenario.moves.append(str(move))
        self.stats.steps += 1
        try:
            after, events = self.game.apply(before, move)
        except Exception as exc:
            self._fail(
                Violation(
                    "engine.raised",
                    self.say("move_raised", move=move, exception=type(exc).__name__, error=exc),
                ),
                before,
            )
            return
        game, rules = self.game, self.spec_rules
        found = self._verdict(
            (self.table, before, move, after, events),
            lambda: step_violations(game, rules, before, move, after, events, self.say),
        )
        if found:
            self._fail(found[0], before)
        self.state = after
        self._check_state(after)

    def _moves(self) -> tuple[Move, ...]:
        assert self.game is not None and self.state is not None
        try:
            return self.game.legal_moves(self.state)
        except Exception as exc:
            self._fail(
                Violation("engine.raised", self.say("raised", exception=type(exc).__name__, error=exc)),
                self.state,
            )
            raise

    def _check_replay(self) -> None:
        """game.deterministic: a fresh engine, the same start and the same moves reach the same state."""
        assert self.scenario is not None and self.state is not None and self.spec_rules is not None
        setup = self.scenario.setup
        key = (setup, tuple(self.scenario.moves))
        if key in self.replays:
            # The same start and moves replayed on a fresh engine before: the state it reached then
            # stands for this replay too.
            last, found = self.replays[key]
        else:
            fresh = type(self).engine(setup.ruleset, setup.players)
            last = setup.start(fresh)
            for _, _, after, _ in replay(fresh, setup, self.scenario.moves):
                last = after
            found = roundtrip_violations(fresh, last, self.say, deep=True)
            if len(self.replays) < MAX_VERDICTS:
                self.replays[key] = (last, found)
        if last != self.state:
            self._fail(
                Violation("game.deterministic", self.say("replay_differs")),
                self.state,
            )
        if found:
            self._fail(found[0], self.state)

    # -- rules

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        setup = data.draw(self.setup_strategy, label="setup")
        self.stats.examples += 1
        self.stats.rulesets.add(setup.ruleset.label())
        key = (setup.ruleset, setup.players)
        if key not in self.games:
            # Building an engine precomputes every pile; shrinking replays thousands of examples.
            self.games[key] = (
                type(self).engine(setup.ruleset, setup.players),
                SpecRules(setup.ruleset, setup.players, words_of(self.spec).check("oracles")),
            )
        self.game, self.spec_rules = self.games[key]
        self.table = key
        self.scenario = Scenario(setup)
        state = setup.start(self.game)
        self.state = state
        if setup.hands is None and self.game.new_match(setup.seed) != state:
            self._fail(Violation("game.deterministic", self.say("deals_differ", seed=setup.seed)), state)
        self._check_state(state)

    @precondition(lambda self: self.state is not None and self.state.phase == "play")
    @rule(pick=st.integers(0, 63))
    def play(self, pick: int) -> None:
        moves = self._moves()
        self._step(moves[pick % len(moves)])

    @precondition(lambda self: self.state is not None and self.state.phase == "play")
    @rule(steps=st.integers(1, 400), seed=st.integers(0, 255))
    def play_on(self, steps: int, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            assert self.state is not None
            if self.state.phase != "play":
                break
            moves = self._moves()
            self._step(moves[rng.randrange(len(moves))])

    @precondition(lambda self: self.state is not None and self.state.phase == "round_over")
    @rule()
    def next_round(self) -> None:
        assert self.game is not None and self.state is not None and self.scenario is not None
        self._check_replay()
        before = self.state
        try:
            self.state = self.game.next_round(before)
        except Exception as exc:
            raised = self.say("next_round_raised", exception=type(exc).__name__, error=exc)
            self._fail(Violation("engine.raised", raised), before)
        self.scenario.moves.append("next_round")
        self._check_state(self.state)

    @precondition(lambda self: self.state is not None and self.state.phase == "match_over")
    @rule(seed=st.integers(0, 2**16))
    def another_match(self, seed: int) -> None:
        """After a match, check it replays, then deal a new match under the same ruleset."""
        assert self.game is not None and self.scenario is not None
        self._check_replay()
        self.stats.matches_finished += 1
        old = self.scenario.setup
        setup = Setup(old.ruleset, old.players, seed)
        self.scenario = Scenario(setup)
        self.state = setup.start(self.game)
        self._check_state(self.state)


def machine_for(
    spec: Spec,
    base: Ruleset,
    engine: EngineFactory = Game,
    *,
    profiles: bool = True,
    combinations: bool = True,
    run_seed: int | None = None,
) -> type[MatchMachine]:
    """A MatchMachine subclass for one spec, ruleset under check and engine.

    With `run_seed`, Hypothesis draws from that seed (so `--seed` changes the matches played).
    """
    attrs: dict[str, Any] = {
        "spec": spec,
        "say": words_of(spec).check("invariants"),
        "setup_strategy": setups(spec, base, profiles=profiles, combinations=combinations),
        "engine": staticmethod(engine),
        "stats": MachineStats(),
        "games": {},
        "verdicts": {},
        "replays": {},
    }
    machine = type("MatchMachine", (MatchMachine,), attrs)
    if run_seed is not None:
        machine = hypothesis_seed(run_seed)(machine)
    return machine


@dataclass(frozen=True)
class Budget:
    examples: int
    steps: int


BUDGETS: Mapping[Level, Budget] = {
    "quick": Budget(examples=25, steps=12),
    "ci": Budget(examples=100, steps=25),
    "deep": Budget(examples=1500, steps=60),
}


def run_machine(
    machine: type[MatchMachine], examples: int, steps: int
) -> tuple[InvariantBroken | None, list[str]]:
    """Run the machine; returns the shrunk failure (if any) and what Hypothesis would have printed."""
    printed: list[str] = []
    with private_hypothesis_home(), with_reporter(lambda value: printed.append(str(value))):
        try:
            # Typed only in newer Hypothesis releases; calling through Any keeps mypy quiet on both.
            runner: Any = run_state_machine_as_test
            runner(machine, settings=hypothesis_settings(examples, steps=steps))
        except InvariantBroken as broken:
            return broken, printed
    return None, printed


def _require_engine(ctx: CheckContext) -> None:
    """The machine draws rulesets from every reading of the spec and plays each on the engine under
    check: a reading the engine does not declare would stop it midway, which Hypothesis takes for
    flaky data generation. Refused here instead, before any match, so the runner can leave it out."""
    vocabulary = getattr(ctx.engine, "VOCABULARY", None)
    if not isinstance(vocabulary, Vocabulary):
        return  # an engine that declares no vocabulary says what it cannot play when asked
    for point, vp in ctx.spec.variation_points.items():
        for reading in vp.readings:
            if point in vocabulary.points and not vocabulary.implements(point, reading):
                raise UnimplementedReading(getattr(ctx.engine, "__name__", "the engine"), point, reading)


def check_matches(ctx: CheckContext) -> CheckResult:
    """Whole matches (Hypothesis state machine), every invariant at every step. Raises
    UnimplementedReading for a reading the rules model cannot state."""
    RULES_VOCABULARY.require_ruleset(ctx.ruleset)
    RULES_VOCABULARY.require_spec(ctx.spec)
    _require_engine(ctx)
    started = time.perf_counter()
    budget = BUDGETS[ctx.level]
    machine = machine_for(ctx.spec, ctx.ruleset, ctx.engine, run_seed=ctx.seed)
    failures: list[Failure] = []
    say = ctx.words.check("invariants.matches")
    try:
        broken, _ = run_machine(machine, budget.examples, budget.steps)
    except ModelLimit:
        raise  # the rules model cannot state these rules: the runner skips the check with why
    except Exception as exc:  # a crash inside the engine that escaped the step checks
        broken = None
        failures.append(
            Failure("invariants.matches", say("stopped", exception=type(exc).__name__, error=exc))
        )
    if broken is not None:
        failures.append(machine_failure(broken, words_of(ctx.spec).check(SCENARIO_WORDS)))
    stats = machine.stats
    notes = (
        say(
            "read",
            examples=stats.examples,
            rulesets=len(stats.rulesets),
            steps=stats.steps,
            states=stats.states,
            finished=stats.matches_finished,
        ),
    )
    return CheckResult(
        name="invariants.matches",
        title=say.title,
        seconds=time.perf_counter() - started,
        generated=stats.states,
        failures=tuple(failures),
        notes=notes,
    )


def machine_failure(broken: InvariantBroken, say: CheckWords) -> Failure:
    """A shrunk state-machine failure as a Failure whose witness replays it (its scenario in the
    words `say`, see scenario_text)."""
    scenario = broken.scenario
    v = broken.violation
    return Failure(
        check="invariants.matches",
        message=f"{v.invariant}: {v.message}",
        readings=dict(scenario["readings"]),
        witness=Witness(
            summary=f"{v.invariant}: {v.message}. Replay: {scenario_text(scenario, say)}",
            situation={**broken.situation, "scenario": scenario},
            outcomes={"engine": v.actual, "spec": v.expected},
            cards=broken.cards,
        ),
    )
