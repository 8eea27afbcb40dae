"""Engine speed: random playouts, legal moves generated at every step, one core, against a naive
engine measured in the same run, under the same conditions.

    python benchmarks/bench_engine.py [--seconds 3] [--repeats 2] [--seed 0] [--players 4]

Loops play rounds (the default profile, round i dealt from seed+i), each choosing uniformly among
the legal moves at every step:
- reference: `legal_moves`, `rng.choice`, `apply` of five35.engine and nothing else, the engine's
  source run as pure Python (benchmarks/source_engine.py), as the naive engines are;
- compiled: the same loop on the installed build, where `pip install .` compiled it with mypyc
  (absent from an editable install, which runs the source);
- play_game: the installed build through `five35.engine.simulate.play_game` with the `random` bot,
  what `535-check simulate` pays per move (bot dispatch, per-seat RNGs, one Step per move);
- naive<=3: benchmarks/naive_engine.py, which enumerates every subset of at most 3 cards of the hand
  at every move (a turn places no more): the fair baseline, the headline ratio's;
- naive: the same engine enumerating every subset of the hand (4,095 of 12 cards), issue 12's
  baseline, which spends most of its time on subsets no turn can place.
The headline is reference / naive<=3: both interpreted by the same Python, both trying the moves a
turn can make; compiled / reference is what mypyc adds to the same code. The loops take turns,
`--repeats` times, so that a change in the machine's load touches all of them; each reports its
best rate. Rates are moves per CPU second of this process (the one-core figure, fair on a shared
machine), with the wall-clock rate beside them. The targets: the reference loop at least 100 times
the naive engine (issue 12), and at least 50,000 moves per CPU second (the installed build).

`--variants` adds the loop for engines that subclass Game (checks.impact.variants, one overriding
each kind of hook, and one overriding a private step method, which takes the plain path) on the
installed build: compiled, their overrides are called through Python.

`--breakdown` adds where a move's time goes on the installed build: the CPU time of one legal_moves
(leads and answers apart), one apply, one rng.choice, and of the deal per round, over the states of
recorded rounds (benchmarks/engine-profile.md tells the cProfile story). The line `engine:` says
which build is installed: compiled by mypyc (`pip install .`) or pure Python (an editable install,
FIVE35_PURE_PYTHON=1).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from five35.engine import Event, Game, Play, State, TrickEndReason
from five35.engine.game import build
from five35.engine.simulate import play_game
from five35.spec import Ruleset, load_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_engine as naive
from source_engine import source_engine

TARGET_MOVES_PER_SECOND = 50_000
TARGET_RATIO = 100

Playout = Callable[[int, random.Random], int]


def uniform_round(game: Any) -> Playout:
    """Rounds of `game` choosing uniformly among the legal moves: `legal_moves`, `rng.choice` and
    `apply`, nothing else. The loop of the reference and compiled engines here and of both engines
    in bench_interpreter.py; `Any`, since the source copies' classes are not five35.engine's."""

    def play(seed: int, rng: random.Random) -> int:
        state = game.new_match(seed)
        moves = 0
        while state.phase == "play":
            state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
            moves += 1
        return moves

    return play


def bot_round(game: Game) -> Playout:
    def play(seed: int, rng: random.Random) -> int:
        return sum(1 for _ in play_game(game, seed, ["random"], "round"))

    return play


def naive_round(players: int, largest: int | None) -> Playout:
    def play(seed: int, rng: random.Random) -> int:
        state = naive.deal(players, seed)
        moves = 0
        while not state.over:
            state = naive.apply(state, rng.choice(naive.legal_moves(state, largest)))
            moves += 1
        return moves

    return play


class Rate:
    """The best of several timed runs of one loop."""

    def __init__(self) -> None:
        self.moves = self.rounds = 0
        self.cpu = self.wall = 0.0

    @property
    def per_cpu_second(self) -> float:
        return self.moves / self.cpu if self.cpu else 0.0

    def measure(self, play: Playout, seed: int, seconds: float) -> None:
        """Play rounds seed, seed+1, ... for `seconds` of wall time; keep the run if it is faster."""
        rng = random.Random(seed)
        played = moves = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        while True:
            moves += play(seed + played, rng)
            played += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        cpu = time.process_time() - cpu_start
        if not self.cpu or moves / cpu > self.per_cpu_second:
            self.moves, self.rounds, self.cpu, self.wall = moves, played, cpu, elapsed

    def line(self, name: str) -> str:
        per_round = self.moves / self.rounds
        return (
            f"{name:<10}: {self.per_cpu_second:>10,.0f} moves/s, {self.rounds / self.cpu:>7,.0f} rounds/s "
            f"per CPU second ({self.moves:,} moves in {self.rounds:,} rounds, {per_round:.1f} per round, "
            f"{self.cpu:.2f} s CPU / {self.wall:.2f} s wall: {self.moves / self.wall:,.0f} moves/s wall)"
        )


class PlainPath(Game):
    """Overrides a private step method (as tests/planted does), so every step takes the plain path."""

    def _end_trick(
        self, state: State, trick: tuple[Play, ...], winner: int, reasons: tuple[TrickEndReason, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        return super()._end_trick(state, trick, winner, reasons)


def variant_lines(ruleset: Ruleset, players: int, seed: int, seconds: float, reference: float) -> list[str]:
    from five35.checks.impact.variants import VARIANTS

    chosen = {
        "printed_points (penalty)": VARIANTS["printed_points"],
        "no_eight_by_add (rule_of_8)": VARIANTS["no_eight_by_add"],
        "trick_taken_away (trick_winner)": VARIANTS["trick_taken_away"],
        "add_closes_only (closes, cached)": VARIANTS["add_closes_only"],
        "plain path (_end_trick)": PlainPath,
    }
    lines = []
    for name, cls in chosen.items():
        rate = Rate()
        rate.measure(uniform_round(cls(ruleset, players)), seed, seconds)
        lines.append(
            f"{name:<33} {rate.per_cpu_second:>10,.0f} moves/s, {rate.per_cpu_second / reference:.2f}x Game"
        )
    return lines


def breakdown(game: Game, seed: int) -> list[str]:
    """Microseconds per call of the pieces of a playout step, over the states of 60 rounds."""
    rng = random.Random(seed)
    steps = []
    for i in range(60):
        state = game.new_match(seed + i)
        while state.phase == "play":
            move = rng.choice(game.legal_moves(state))
            steps.append((state, move))
            state, _ = game.apply(state, move)
    leads = [s for s, _ in steps if s.pile is None]
    answers = [s for s, _ in steps if s.pile is not None]
    lists = [game.legal_moves(s) for s, _ in steps]
    legal, apply, choice, deal = game.legal_moves, game.apply, rng.choice, game.new_match

    def cost(run: Callable[[], None], calls: int) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for _ in range(20):
                run()
            best = min(best, time.process_time() - start)
        return best / 20 / calls * 1e6

    # Each loop drops what it makes, as a playout does (kept, the results would feed the cyclic
    # garbage collector, which a playout hardly wakes).
    def each(call: Callable[[Any], object], items: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for item in items:
                call(item)

        return run

    parts = {
        "legal_moves, lead": cost(each(legal, leads), len(leads)),
        "legal_moves, answer": cost(each(legal, answers), len(answers)),
        "legal_moves, all": cost(each(legal, [s for s, _ in steps]), len(steps)),
        "apply": cost(each(lambda step: apply(*step), steps), len(steps)),
        "rng.choice": cost(each(choice, lists), len(lists)),
        "deal (new_match) per round": cost(each(deal, [seed + i for i in range(60)]), 60),
    }
    per_move = parts["deal (new_match) per round"] * 60 / len(steps)
    total = parts["legal_moves, all"] + parts["apply"] + parts["rng.choice"] + per_move
    lines = [f"{name:<27} {us:8.3f} us per call" for name, us in parts.items()]
    lines.append(
        f"a move: {total:.3f} us = legal_moves {parts['legal_moves, all'] / total:.0%}, apply "
        f"{parts['apply'] / total:.0%}, rng.choice {parts['rng.choice'] / total:.0%}, "
        f"the deal {per_move / total:.0%} (its share per move; {len(leads) / len(steps):.0%} of moves lead)"
    )
    return lines


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
    return (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
        f"{platform.release()}, {cpu}, {os.cpu_count()} logical CPUs"
    )


def load() -> str:
    if not hasattr(os, "getloadavg"):
        return "load average unknown"
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def parser_with_players(doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's command line (bench_engine.py, bench_perft.py): its docstring as the help, and
    the player count every engine benchmark deals for."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), help="players (default 4)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = parser_with_players(__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="wall seconds per loop and repeat (3)")
    parser.add_argument("--repeats", type=int, default=2, help="times each loop runs; the best counts (2)")
    parser.add_argument("--seed", type=int, default=0, help="round i is dealt from seed+i (default 0)")
    parser.add_argument("--breakdown", action="store_true", help="also say where a move's time goes")
    parser.add_argument("--variants", action="store_true", help="also time engines that subclass Game")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be positive and --repeats at least 1")
    ruleset = load_spec().ruleset()
    game = Game(ruleset, args.players)
    source: type[Game] = source_engine().Game
    compiled = build() != "pure Python"
    loops: dict[str, Playout] = {
        "reference": uniform_round(source(ruleset, args.players)),
        **({"compiled": uniform_round(game)} if compiled else {}),
        "play_game": bot_round(game),
        "naive<=3": naive_round(args.players, naive.MAX_CARDS),
        "naive": naive_round(args.players, None),
    }
    print(f"machine: {machine()}")
    print(f"engine: {build()} installed; reference: the source as pure Python")
    print(f"ruleset {ruleset.label()}, {args.players} players, seed {args.seed}, one process")
    print(f"before: {load()}")
    rates = {name: Rate() for name in loops}
    for _ in range(args.repeats):
        for name, play in loops.items():
            rates[name].measure(play, args.seed, args.seconds)
    print(f"after:  {load()}")
    for name, rate in rates.items():
        print(rate.line(name))
    ref = rates["reference"].per_cpu_second
    fair = ref / rates["naive<=3"].per_cpu_second
    print(f"ratio reference / naive<=3: {fair:7.1f}x  (the fair ratio: both pure Python, 3 cards a turn)")
    ratio = ref / rates["naive"].per_cpu_second
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(
        f"ratio reference / naive:    {ratio:7.1f}x  (every subset of the hand; {verdict} the "
        f"{TARGET_RATIO}x target of issue 12)"
    )
    built = "compiled" if compiled else "reference"
    installed = rates[built].per_cpu_second
    if compiled:
        print(f"ratio compiled / reference: {installed / ref:7.2f}x  (the same code compiled by mypyc)")
    bots = rates["play_game"].per_cpu_second
    print(f"ratio play_game / {built}: {bots / installed:7.2f}x  (the same build)")
    verdict = "meets" if installed >= TARGET_MOVES_PER_SECOND else "BELOW"
    print(f"{built}: {verdict} the {TARGET_MOVES_PER_SECOND:,} moves/s target")
    if args.variants:
        print(f"engines that subclass Game (the loop on the installed build, {build()}):")
        for line in variant_lines(ruleset, args.players, args.seed, args.seconds, installed):
            print(f"  {line}")
    if args.breakdown:
        print("where a move's time goes (CPU microseconds, best of 5):")
        for line in breakdown(game, args.seed):
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
