"""Protocol throughput and time-to-detect for the planted bugs.

    python benchmarks/bench_protocol.py                 # throughput against `535-check serve`
    python benchmarks/bench_protocol.py --bugs --seeds 0 1 2   # plus every planted bug, per seed

Measures, against the reference served over a pipe:
- raw request/response round trips (one `legal` at a time), and pipelined;
- the fuzzer: protocol requests per second and moves per second over --examples rounds;
and, with --bugs, for each bug of examples/engine535.py: seconds until the first divergence, seconds
including shrinking, and the size of the shrunk replay (moves, cards dealt, players).
Timings vary with the machine; the counts are deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from five35.protocol.client import SubprocessEngine
from five35.protocol.compare import negotiate
from five35.protocol.fuzz import fuzz
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"
BUGS = ("lead-pass", "opening-eight", "run-gap", "set-close", "eight-points", "passed-winner", "run-order")


def raw_round_trips(command: str, count: int) -> dict[str, float]:
    engine = SubprocessEngine(command)
    try:
        engine.hello()
        engine.new_round(4, [[1, 2, 3, 8, 8, 9, 11], [4, 5, 7, 7], [12, 13, 14], [2, 15, 15]], 0, [0] * 4)
        started = time.perf_counter()
        for _ in range(count):
            engine.legal()
        one_by_one = count / (time.perf_counter() - started)
        started = time.perf_counter()
        for _ in range(count // 50):
            engine.batch([("legal", {}), ("state", {})] * 25)
        pipelined = (count // 50) * 50 / (time.perf_counter() - started)
    finally:
        engine.close()
    return {"requests_per_s_one_by_one": round(one_by_one), "requests_per_s_pipelined": round(pipelined)}


def fuzz_throughput(command: str, examples: int, seed: int) -> dict[str, Any]:
    spec = load_spec()
    engine = SubprocessEngine(command)
    try:
        ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
        result = fuzz(ruleset, engine, examples=examples, seed=seed)
    finally:
        engine.close()
    assert result.witness is None and result.fault is None, "the reference disagrees with itself"
    return {
        "examples": examples,
        "rounds": result.examples,
        "moves": result.moves,
        "requests": result.requests,
        "seconds": round(result.seconds, 2),
        "requests_per_s": round(result.requests / result.seconds),
        "moves_per_s": round(result.moves / result.seconds),
    }


def bug_detection(bug: str, seed: int, examples: int) -> dict[str, Any]:
    spec = load_spec()
    engine = SubprocessEngine(f"{EXAMPLE} --bug {bug}")
    try:
        ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
        result = fuzz(ruleset, engine, examples=examples, seed=seed)
    finally:
        engine.close()
    witness = result.witness
    assert witness is not None and witness.divergence is not None, f"{bug} not found with seed {seed}"
    return {
        "bug": bug,
        "seed": seed,
        "round": result.first_found_at,
        "detect_s": round(result.seconds_to_detect or 0.0, 3),
        "total_s": round(result.seconds, 2),
        "replay_moves": len(witness.moves),
        "replay_cards": witness.deal.cards,
        "players": witness.deal.players,
        "request": witness.divergence.request,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", default=f"{Path(sys.executable).parent / '535-check'} serve")
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--raw", type=int, default=5000, help="round trips for the raw measurement")
    parser.add_argument("--bugs", action="store_true", help="also time the detection of every planted bug")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="seeds for --bugs")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "raw": raw_round_trips(args.serve, args.raw),
        "fuzz": fuzz_throughput(args.serve, args.examples, args.seed),
    }
    if args.bugs:
        rows = [bug_detection(bug, seed, 500) for bug in BUGS for seed in args.seeds]
        report["bugs"] = rows
        report["bugs_summary"] = {
            bug: {
                "max_detect_s": max(r["detect_s"] for r in rows if r["bug"] == bug),
                "max_total_s": max(r["total_s"] for r in rows if r["bug"] == bug),
                "median_replay_moves": statistics.median(r["replay_moves"] for r in rows if r["bug"] == bug),
            }
            for bug in BUGS
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
