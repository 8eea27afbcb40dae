"""Differential fuzzing: the reference agrees with itself, and every planted bug is found and shrunk."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_tools import within
from click.testing import CliRunner
from five35.checks.fuzz.differential import fuzz
from five35.checks.fuzz.shrink import by_seat, shrink
from five35.cli import main
from five35.engine import Position
from five35.protocol.client import InProcessEngine, SubprocessEngine
from five35.protocol.compare import Games, negotiate, script
from five35.protocol.server import ReferenceEngine
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"
SERVE = f"{Path(sys.executable).parent / '535-check'} serve"
#: A fuzz run's bound on the clock: only a hang; its promise is in CPU seconds (within).
WALL_SECONDS = 300.0

# bug -> (the request where it shows, words in the divergence summary: one of those between |)
BUGS = {
    "lead-pass": ("legal", "engine adds [pass]"),
    "opening-eight": ("apply", "rule_of_8"),
    "run-gap": ("legal", "adds [add 7]|5,7"),  # a 7 onto a 5, or a lead of 5,7
    "set-close": ("apply", "set_closed"),
    "eight-points": ("apply", "round_end"),
    "passed-winner": ("apply", "all_passed"),
    "run-order": ("legal", "overwrite"),
}
# Bugs that only show late in a match or at a full table: bug -> (the requests where it may show,
# words in the summary, the players its replay must keep).
LATE_BUGS = {
    "late-penalty": (("apply",), "round_end", None),
    "match-end-over": (("apply",), "match_end", None),
    "six-set-close": (("apply", "legal"), "add", 6),
    "five-winner-lead": (("state", "legal"), "to_move", 5),
}
MAX_LATE_REPLAY_MOVES = 10


def test_reference_server_agrees_with_itself_over_a_pipe() -> None:
    spec = load_spec()
    engine = SubprocessEngine(SERVE)
    try:
        ruleset, notes = negotiate(spec, spec.ruleset(), engine.hello(), {})
        result = fuzz(ruleset, engine, examples=60, seed=11)
    finally:
        engine.close()
    assert notes == ()
    assert result.witness is None and result.fault is None
    assert result.rounds_ended >= 50 and result.requests > 1000


@pytest.mark.parametrize("profile", ["german-literal", "spanish-literal"])
def test_reference_agrees_with_itself_in_process_under_each_profile(profile: str) -> None:
    spec = load_spec()
    engine = InProcessEngine(ReferenceEngine(spec.ruleset(profile)), profile)
    ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
    assert ruleset.readings == spec.ruleset(profile).readings
    result = fuzz(ruleset, engine, examples=40, seed=5)
    assert result.witness is None and result.fault is None


def test_the_clean_example_engine_agrees() -> None:
    spec = load_spec()
    engine = SubprocessEngine(EXAMPLE)
    try:
        ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
        result = fuzz(ruleset, engine, examples=80, seed=2)
    finally:
        engine.close()
    assert result.witness is None and result.fault is None and result.rounds_ended >= 60


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_fuzz_finds_each_planted_bug(bug: str, tmp_path: Path) -> None:
    request, words = BUGS[bug]
    replay = tmp_path / "replay.json"
    # The default shrink budget (40 s): a shrunk replay is the same on every run only when shrinking
    # finishes within it; each of these bugs shrinks in under a second on the 2-core machine.
    with within(cpu=30, wall=WALL_SECONDS):
        result = CliRunner().invoke(
            main,
            [
                "fuzz",
                "--engine",
                f"{EXAMPLE} --bug {bug}",
                "--examples",
                "500",
                "--seed",
                "0",
                "--replay-out",
                str(replay),
            ],
        )
    assert result.exit_code == 1, result.output
    assert f"replay written to {replay}" in result.output
    data = json.loads(replay.read_text())
    divergence = data["divergence"]
    assert divergence["request"] == request, divergence
    assert any(w in divergence["summary"] for w in words.split("|")), divergence
    # Shrunk: a small deal and a handful of moves.
    assert data["deal"]["players"] <= 3
    assert sum(len(h) for h in data["deal"]["hands"]) <= 8 and len(data["moves"]) <= 5
    # The replay reproduces it on the buggy engine, and the clean engine passes it.
    again = CliRunner().invoke(main, ["replay", str(replay), "--engine", f"{EXAMPLE} --bug {bug}"])
    assert again.exit_code == 1 and "reference" in again.output and divergence["summary"] in again.output
    clean = CliRunner().invoke(main, ["replay", str(replay), "--engine", EXAMPLE])
    assert clean.exit_code == 0 and "no divergence" in clean.output


def _fuzz_cli(bug: str, replay: Path, *extra: str) -> Any:
    return CliRunner().invoke(
        main,
        ["fuzz", "--engine", f"{EXAMPLE} --bug {bug}", "--seed", "0", "--replay-out", str(replay), *extra],
    )


@pytest.mark.parametrize("bug", sorted(LATE_BUGS))
def test_late_and_full_table_bugs_shrink_to_short_replays(bug: str, tmp_path: Path) -> None:
    """A bug that shows only near the end of a match or at 5 or 6 players is found, and its replay
    (with the default shrink budget) starts from a round with the scores it needs, at the table
    it needs, within MAX_LATE_REPLAY_MOVES moves."""
    requests, words, players = LATE_BUGS[bug]
    replay = tmp_path / "replay.json"
    with within(cpu=30, wall=WALL_SECONDS):
        result = _fuzz_cli(bug, replay, "--examples", "500")
    assert result.exit_code == 1, result.output
    data = json.loads(replay.read_text())
    divergence, deal = data["divergence"], data["deal"]
    assert divergence["request"] in requests and words in divergence["summary"], divergence
    assert len(data["moves"]) <= MAX_LATE_REPLAY_MOVES, data["moves"]
    if players is not None:
        assert deal["players"] == players
    else:
        assert deal["players"] == 2 and sum(len(h) for h in deal["hands"]) <= 8
    if bug == "late-penalty":
        assert max(deal["scores"]) >= 15  # the halved penalty needs a player at 15 or more
    again = CliRunner().invoke(main, ["replay", str(replay), "--engine", f"{EXAMPLE} --bug {bug}"])
    assert again.exit_code == 1 and divergence["summary"] in again.output
    clean = CliRunner().invoke(main, ["replay", str(replay), "--engine", EXAMPLE])
    assert clean.exit_code == 0 and "no divergence" in clean.output


def _random_round(games: Games, players: int, seed: int, scores: int) -> tuple[Position, list[Any]]:
    """A whole round from a seeded deal with every seat at `scores`: its deal and (seat, move)s."""
    game = games(players)
    rng = random.Random(seed)
    dealt = game.new_match(seed=seed)
    deal = Position(
        tuple(tuple(game.hand(dealt, p)) for p in range(players)), dealt.to_move, (scores,) * players
    )
    plays = []
    state = game.play_from(deal)
    while state.phase == "play":
        move = rng.choice(game.legal_moves(state))
        plays.append((state.to_move, move))
        state, _ = game.apply(state, move)
    return deal, plays


def test_a_witness_from_a_whole_round_shrinks_to_its_last_moves() -> None:
    """A divergence at the end of a whole 6-player round of 10-card hands (dozens of moves, every
    score near the end of the match) shrinks to a round of a few cards and at most 10 moves: the
    round restarts late, seats, moves and cards go, and the score the bug needs stays."""
    games = Games(load_spec().ruleset())
    deal, plays = _random_round(games, 6, 4, 16)
    moves = tuple(m for _, m in plays)
    assert len(moves) >= 30
    engine = SubprocessEngine(f"{EXAMPLE} --bug late-penalty")
    try:
        engine.hello()
        witness = games.play(engine, deal, script(moves))
        assert witness.divergence is not None and witness.moves == moves
        small, runs = shrink(games, engine, witness, counts=(2, 3, 4, 5, 6))
        again = games.play(engine, small.deal, script(small.moves))
    finally:
        engine.close()
    assert small.divergence is not None and "round_end" in small.divergence.summary
    assert len(small.moves) <= MAX_LATE_REPLAY_MOVES and small.deal.cards <= 4 and small.deal.players == 2
    assert max(small.deal.scores or (0,)) >= 15
    assert 0 < runs < 2000
    assert again.divergence == small.divergence  # the shrunk witness replays as it is


def test_seat_scripts_replay_a_witness_exactly() -> None:
    """by_seat gives every seat its own moves: on the witness itself that is the witness."""
    ruleset = load_spec().ruleset()
    games = Games(ruleset)
    deal, plays = _random_round(games, 4, 1, 0)
    engine = InProcessEngine(ReferenceEngine(ruleset), "reference")
    flat = games.play(engine, deal, script(tuple(m for _, m in plays)))
    keyed = games.play(engine, deal, by_seat(tuple(plays)))
    assert flat.divergence is None and flat.ended and len(flat.moves) == len(plays)
    assert keyed.moves == flat.moves and keyed.seen == flat.seen


class Lenient:
    """Accepts every move the reference refuses (the fuzzer's illegal probes must catch it)."""

    def __init__(self) -> None:
        self.inner = ReferenceEngine(load_spec().ruleset())

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.inner.handle(request)
        if request["type"] == "apply" and not answer["ok"]:
            return {"id": request["id"], "type": "apply", "ok": True, "events": []}
        return answer


def test_illegal_probes_catch_an_engine_that_accepts_anything() -> None:
    spec = load_spec()
    result = fuzz(
        spec.ruleset(), InProcessEngine(Lenient(), "lenient"), examples=200, seed=3, shrink_budget=1
    )
    assert result.witness is not None and result.witness.divergence is not None
    assert "accepts the illegal move" in result.witness.divergence.summary


def test_the_summary_names_every_count(tmp_path: Path) -> None:
    """The rounds generated are accounted for (each played to the end, stopped at the move cap,
    cut short by Hypothesis, or diverged), and the speed is on stderr, in the output only with
    --timings (the output then differs from run to run)."""
    args = ["fuzz", "--engine", "python:five35.protocol.server:reference_engine", "--examples", "30"]
    text = CliRunner().invoke(main, [*args, "--replay-out", str(tmp_path / "r.json")])
    assert text.exit_code == 0, text.output
    assert "searched " in text.stdout and " rounds for --examples 30 (" in text.stdout
    assert " played to the end" in text.stdout and "speed:" not in text.stdout
    assert "requests/s" in text.stderr and "rounds/s" in text.stderr
    report = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    rounds = report["rounds"]
    assert report["examples"] == 30 and rounds["generated"] >= 30 and rounds["diverged"] == 0
    stopped = ("played_to_the_end", "stopped_at_the_move_cap", "cut_short_by_hypothesis", "diverged")
    assert sum(rounds[k] for k in stopped) == rounds["generated"]
    assert report["requests"]["total"] == report["requests"]["searching"] > rounds["generated"] * 3
    assert "timing" not in report
    timed = json.loads(CliRunner().invoke(main, [*args, "--format", "json", "--timings"]).stdout)
    assert timed["timing"]["requests_per_second"] > 0 and timed["timing"]["rounds_per_second"] > 0
    assert {k: v for k, v in timed.items() if k != "timing"} == report
    shown = CliRunner().invoke(main, [*args, "--timings"])
    assert "speed: " in shown.stdout and "requests/s" in shown.stdout


def test_same_seed_same_output(tmp_path: Path) -> None:
    outputs = []
    for run in range(2):
        replay = tmp_path / f"r{run}.json"
        result = CliRunner().invoke(
            main,
            [
                "fuzz",
                "--engine",
                "python:five35.protocol.server:reference_engine",
                "--examples",
                "30",
                "--seed",
                "9",
                "--format",
                "json",
                "--replay-out",
                str(replay),
            ],
        )
        assert result.exit_code == 0
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0])
    assert report["result"] == "agree" and report["seed"] == 9 and report["rounds"]["generated"] >= 30


def test_time_budget_stops_the_run() -> None:
    spec = load_spec()
    engine = InProcessEngine(ReferenceEngine(spec.ruleset()), "reference")
    started = time.monotonic()
    result = fuzz(spec.ruleset(), engine, examples=100_000, seed=1, time_budget=1.0)
    # The budget is on the clock; the bound leaves room for the example under way on a busy machine.
    assert time.monotonic() - started < 1.0 + 10
    assert result.budget_exhausted and result.witness is None and result.examples < 100_000


def test_player_counts_can_be_restricted() -> None:
    result = CliRunner().invoke(
        main, ["fuzz", "--engine", "python:five35.protocol.server:reference_engine", "--players", "1-3"]
    )
    assert result.exit_code == 2 and "--players" in result.output
