"""perft speed: leaves of the 535 legal-move tree per second against python-chess's perft, in one run.

    python benchmarks/bench_perft.py [--depth 7] [--chess-depth 4] [--repeats 3] [--players 4] [--seed 1]

The 535 side is `five35.protocol.perft.perft` from a standard position (round 1 of the seeded
deal, as in docs/perft.md); the chess side is the usual python-chess perft from the start position
(`legal_moves.count()` at depth 1, push/pop above it), python-chess being a benchmark-only
dependency (`pip install 'five35[bench]'`). Both count leaves, so their rates are comparable as
leaves (nodes at the last depth) per CPU second; the two take turns `--repeats` times, each sample
repeating its perft for at least half a CPU second, and each reports its best. Issue 12's target:
the 535 rate at least python-chess's.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from five35.engine import Game
from five35.engine.game import build
from five35.protocol.perft import perft, root_deal
from five35.spec import load_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import load, machine

TARGET_RATIO = 1.0

try:
    import chess
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("bench_perft: python-chess is not installed: pip install 'five35[bench]' (or pip install chess)")


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    if depth < 1:
        return 1
    count = 0
    for move in board.legal_moves:
        board.push(move)
        count += chess_perft(board, depth - 1)
        board.pop()
    return count


#: CPU seconds a sample runs at least: a perft is repeated until they have passed.
SAMPLE_SECONDS = 0.5


def best_rate(count: Callable[[], int], rates: list[float]) -> int:
    """Run `count` for at least SAMPLE_SECONDS of CPU time, append its leaves per CPU second to
    `rates`, and return the leaves of one run."""
    start = time.process_time()
    runs = 0
    while True:
        leaves = count()
        runs += 1
        elapsed = time.process_time() - start
        if elapsed >= SAMPLE_SECONDS:
            rates.append(leaves * runs / elapsed)
            return leaves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depth", type=int, default=7, help="535 perft depth (default 7)")
    parser.add_argument("--chess-depth", type=int, default=4, help="chess perft depth (default 4)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best counts (3)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), help="players (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.chess_depth < 1 or args.repeats < 1:
        parser.error("--depth, --chess-depth and --repeats must be at least 1")
    ruleset = load_spec().ruleset()
    game = Game(ruleset, args.players)
    state, _ = root_deal(game, args.seed)
    board = chess.Board()
    print(f"machine: {machine()}")
    print(f"engine: {build()}; python-chess {chess.__version__}")
    print(f"before: {load()}")
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.repeats):
        leaves = best_rate(lambda: perft(game, state, args.depth), ours)
        nodes = best_rate(lambda: chess_perft(board, args.chess_depth), theirs)
    print(f"after:  {load()}")
    print(
        f"535 perft({args.depth}), {ruleset.label()}, {args.players} players, seed {args.seed}: "
        f"{leaves:,} leaves, {max(ours):,.0f} leaves/s per CPU second (best of {args.repeats})"
    )
    print(
        f"python-chess perft({args.chess_depth}) from the start position: {nodes:,} nodes, "
        f"{max(theirs):,.0f} nodes/s per CPU second (best of {args.repeats})"
    )
    ratio = max(ours) / max(theirs)
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(f"ratio 535 / python-chess: {ratio:.2f}x  ({verdict} the {TARGET_RATIO:.1f}x target of issue 12)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
