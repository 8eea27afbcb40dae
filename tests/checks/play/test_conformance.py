"""Conformance: the reference engine agrees with the Z3 model on the bounded domain, and engines
with planted bugs are caught with a small witness that replays on the engine."""

from __future__ import annotations

from typing import Any

import pytest
from five35.checks.findings import CheckContext
from five35.checks.oracles.situations import Situation, build_state, pile_key
from five35.checks.oracles.z3model import Model
from five35.checks.play.conformance import (
    Tally,
    check_conformance,
    compare_situation,
    generated,
    model_answer,
    situation_for,
)
from five35.engine import PASS, Game, Move, Pile, State
from five35.engine.options import Option
from five35.spec import Ruleset, dumps, load_spec

SPEC = load_spec()


class RunsCrossTheGaps(Game):
    def follows(self, a: int, b: int) -> bool:
        ranks = self.ruleset.ranks
        i = ranks.index(a)
        return i + 1 < len(ranks) and ranks[i + 1] == b


class ExemptionIgnored(Game):
    def rule_of_8(self, option: Option, state: State) -> bool:
        if state.pile is None:
            return False
        if option.move.action == "add" and not self.eight_on_add:
            return False
        return option.has_eight


class LeaderMayPass(Game):
    def legal_moves(self, state: State) -> tuple[Move, ...]:
        moves = super().legal_moves(state)
        return (*moves, PASS) if state.pile is None and state.phase == "play" else moves


class SetClosesAtFourWithFive(Game):
    def __init__(self, ruleset: Ruleset, players: int) -> None:
        super().__init__(ruleset, players)
        if players == 5:
            self.set_closing_size = 4


class WrongTrickWinner(Game):
    def _end_trick(self, state: State, trick: Any, winner: int, reasons: tuple[str, ...]) -> Any:
        return super()._end_trick(state, trick, (winner + 1) % self.players, reasons)


class CrashesOnRuns(Game):
    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind == "run" and old.kind == "run":
            raise RuntimeError("boom")
        return super().beats(new, old)


def test_the_reference_engine_conforms_at_quick_and_ci() -> None:
    for level in ("quick", "ci"):
        result = check_conformance(CheckContext(SPEC, SPEC.ruleset(), level=level))  # type: ignore[arg-type]
        assert result.ok, [f.message for f in result.failures]
        assert result.exhaustive > 10_000
        assert "compared exhaustively" in result.notes[0]


def test_the_literal_profiles_conform_too() -> None:
    for profile in ("german-literal", "spanish-literal"):
        result = check_conformance(CheckContext(SPEC, SPEC.ruleset(profile), level="quick"))
        assert result.ok, [f.message for f in result.failures]


@pytest.mark.parametrize(
    ("engine", "max_cards", "move"),
    [
        (RunsCrossTheGaps, 3, "lead 5,7"),
        (ExemptionIgnored, 3, None),
        (LeaderMayPass, 1, "pass"),
        (SetClosesAtFourWithFive, 5, None),
        (WrongTrickWinner, 3, None),
    ],
)
def test_planted_bugs_are_caught_with_a_small_witness(
    engine: type[Game], max_cards: int, move: str | None
) -> None:
    result = check_conformance(CheckContext(SPEC, SPEC.ruleset(), level="quick", engine=engine))
    assert not result.ok
    smallest = min(result.failures, key=lambda f: f.witness.cards if f.witness else 99)
    assert smallest.witness is not None
    assert smallest.witness.cards <= max_cards
    assert smallest.witness.outcomes["engine"] != smallest.witness.outcomes["model"]
    if move is not None:
        assert (
            smallest.witness.situation["move"]
            == Move.from_json(
                {
                    "action": move.split()[0],
                    "cards": [int(c) for c in (move.split()[1].split(",") if " " in move else [])],
                }
            ).to_json()
        )
    dumps([f.to_json() for f in result.failures])  # JSON-able


def test_a_witness_replays_on_the_engine() -> None:
    result = check_conformance(CheckContext(SPEC, SPEC.ruleset(), level="quick", engine=ExemptionIgnored))
    w = min(result.failures, key=lambda f: f.witness.cards if f.witness else 99).witness
    assert w is not None
    s = w.situation
    pile = Pile.from_json(s["pile"]) if s["pile"] else None
    sit = Situation(
        s["players"], pile, s["opening_has_eight"], tuple(s["hand"]), s["to_move"], s["last_player"]
    )
    move = Move.from_json(s["move"])
    bad = ExemptionIgnored(SPEC.ruleset(), s["players"])
    good = Game(SPEC.ruleset(), s["players"])
    _, bad_events = bad.apply(build_state(bad, sit), move)
    _, good_events = good.apply(build_state(good, sit), move)
    assert bad_events != good_events


def test_an_engine_that_crashes_is_a_failure_not_a_crash() -> None:
    result = check_conformance(CheckContext(SPEC, SPEC.ruleset(), level="quick", engine=CrashesOnRuns))
    assert not result.ok
    assert any("RuntimeError" in str(f.witness.outcomes) for f in result.failures if f.witness)


def test_model_answer_for_passes_and_leads() -> None:
    rs = SPEC.ruleset()
    model = Model.concrete(rs)
    lead = situation_for(rs, 3, None, False)
    assert model_answer(model, rs, lead, pile_key(model, None), PASS) == {"legal": False}
    single = Pile("single", (1,))
    facing = situation_for(rs, 2, single, False)
    answer = model_answer(model, rs, facing, pile_key(model, single), PASS)
    assert answer["trick_end"] == ["all_passed"] and answer["winner"] == facing.last_player == 1


def test_compare_situation_finds_nothing_on_the_reference_engine() -> None:
    rs = SPEC.ruleset(None, {"run_wrap": "wrap", "add_run_ends": "top_end"})
    model = Model.concrete(rs)
    game = Game(rs, 4)
    pile = Pile("run", (14, 15))
    sit = situation_for(rs, 4, pile, True)
    tally = Tally()
    assert compare_situation(game, model, rs, sit, pile_key(model, pile), "t", tally, ()) == []
    assert tally.compared > 10


def test_hypothesis_generated_situations_find_a_planted_bug_deterministically() -> None:
    ctx = CheckContext(SPEC, SPEC.ruleset(), level="deep", seed=7, engine=RunsCrossTheGaps)
    first = generated(ctx, Tally(), examples=200)
    second = generated(ctx, Tally(), examples=200)
    assert first, "the generated situations should hit runs across the gaps"
    assert [d.key() for d in first] == [d.key() for d in second]
    clean = generated(CheckContext(SPEC, SPEC.ruleset(), level="deep", seed=7), Tally(), examples=30)
    assert clean == []


def test_the_same_seed_gives_the_same_json() -> None:
    ctx = CheckContext(SPEC, SPEC.ruleset(), level="quick", engine=WrongTrickWinner)
    assert dumps(check_conformance(ctx).to_json()) == dumps(check_conformance(ctx).to_json())
