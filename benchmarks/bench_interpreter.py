"""The spec interpreter's speed against the reference engine's, both pure Python, in one run.

    python benchmarks/bench_interpreter.py [--seconds 3] [--repeats 3] [--seed 0] [--players 4] [--spec F]

Two loops play rounds of the same ruleset (the default profile, round i dealt from seed+i), each
choosing uniformly among the legal moves at every step: `legal_moves`, `rng.choice`, `apply` and
nothing else. One runs the reference engine imported from its source as pure Python
(benchmarks/source_engine.py, so that mypyc's compile does not count for the reference), the other
the spec interpreter (engine/interpreter.py, which is never compiled), which compiles the spec's
rules to closures once and works out each central pile's moves when it is first met. The loops take
turns, `--repeats` times, so that a change in the machine's load touches both; each reports its
best rate in moves per CPU second of this process. The target (issue 17): the interpreter at least
a quarter of the reference engine's rate.

With `--spec F` (a house-rules copy the reference engine does not play) only the interpreter runs,
and its rate is printed beside the embedded spec's reference rate for scale.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

from five35.spec import load_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import Playout, uniform_round
from source_engine import source_engine

TARGET_RATIO = 0.25


def rate(play: Playout, seconds: float, seed: int) -> float:
    """Moves per CPU second over whole rounds played for about `seconds` of CPU time."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    i = 0
    while time.process_time() - start < seconds:
        moves += play(seed + i, rng)
        i += 1
    return moves / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--spec", type=Path, default=None)
    args = parser.parse_args(argv)

    embedded = load_spec().ruleset()
    source = source_engine()
    reference = source.Game(embedded, args.players)
    target = load_spec(args.spec).ruleset() if args.spec else embedded
    # The interpreter from the same source copy: both loops run the same pure-Python values.
    interpreter = importlib.import_module(f"{source.__name__}.interpreter").SpecEngine(target, args.players)
    loops = {
        "reference (pure Python)": uniform_round(reference),
        "spec interpreter": uniform_round(interpreter),
    }
    best = dict.fromkeys(loops, 0.0)
    for _ in range(args.repeats):
        for name, play in loops.items():
            best[name] = max(best[name], rate(play, args.seconds, args.seed))
    print(f"ruleset: {target.label()} ({args.spec or 'embedded spec'}), {args.players} players")
    for name, value in best.items():
        print(f"{name:<24} {value:>10,.0f} moves per CPU second")
    ratio = best["spec interpreter"] / best["reference (pure Python)"]
    print(f"interpreter / reference: {ratio:.2f} (target at least {TARGET_RATIO})")
    return 0 if ratio >= TARGET_RATIO or args.spec else 1


if __name__ == "__main__":
    raise SystemExit(main())
