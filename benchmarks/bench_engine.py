"""Engine speed: random playouts, legal moves generated at every step, one core.

    python benchmarks/bench_engine.py [--seconds 5 | --rounds 2000] [--seed 0] [--players 4]

Two loops are timed over the same rounds (4 players, default profile, round i dealt from seed+i):
- bare: `legal_moves`, `rng.choice`, `apply` and nothing else, the engine's own cost;
- play_game: the same through `five35.engine.simulate.play_game` with the `random` bot, what
  `535-check simulate` pays per move (bot dispatch, per-seat RNGs, one Step per move).
Rates are per CPU second of this process (the one-core figure, fair on a shared machine), with the
wall-clock rate beside them. The target is 50,000 moves per CPU second for the bare loop.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable

from five35.engine import Game
from five35.engine.simulate import play_game
from five35.spec import load_spec

TARGET_MOVES_PER_SECOND = 50_000


def bare_round(game: Game, seed: int, rng: random.Random) -> int:
    state = game.new_match(seed)
    moves = 0
    while state.phase == "play":
        state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
        moves += 1
    return moves


def bot_round(game: Game, seed: int, rng: random.Random) -> int:
    return sum(1 for _ in play_game(game, seed, ["random"], "round"))


def measure(
    play: Callable[[Game, int, random.Random], int],
    game: Game,
    seed: int,
    seconds: float | None,
    rounds: int | None,
) -> tuple[int, int, float, float]:
    """Rounds played, moves made, wall seconds and CPU seconds; stops after `rounds` or once
    `seconds` of wall time passed."""
    rng = random.Random(seed)
    played = moves = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        moves += play(game, seed + played, rng)
        played += 1
        elapsed = time.perf_counter() - start
        if (rounds is not None and played >= rounds) or (seconds is not None and elapsed >= seconds):
            return played, moves, elapsed, time.process_time() - cpu_start


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    return (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
        f"{platform.release()}, {cpu}, {os.cpu_count()} logical CPUs{load}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="time budget per loop (default 5)")
    budget.add_argument("--rounds", type=int, default=None, help="rounds per loop instead of a time budget")
    parser.add_argument("--seed", type=int, default=0, help="round i is dealt from seed+i (default 0)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    seconds = args.seconds if args.seconds is not None or args.rounds is not None else 5.0
    ruleset = load_spec().ruleset()
    game = Game(ruleset, args.players)
    print(f"machine: {machine()}")
    print(f"ruleset {ruleset.label()}, {args.players} players, seed {args.seed}, one process")
    for name, play in (("bare", bare_round), ("play_game", bot_round)):
        rounds, moves, elapsed, cpu = measure(play, game, args.seed, seconds, args.rounds)
        # CPU time is the one-core figure: wall time also counts waiting for a core on a busy machine.
        rate = moves / cpu
        verdict = ""
        if name == "bare":
            verdict = "  (meets" if rate >= TARGET_MOVES_PER_SECOND else "  (BELOW"
            verdict += f" the {TARGET_MOVES_PER_SECOND:,} moves/s target)"
        print(
            f"{name:<9}: {moves:,} moves in {rounds:,} rounds ({moves / rounds:.1f} moves per round), "
            f"{cpu:.2f} s CPU / {elapsed:.2f} s wall: {rate:,.0f} moves/s, {rounds / cpu:,.0f} rounds/s "
            f"per CPU second; {moves / elapsed:,.0f} moves/s wall{verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
