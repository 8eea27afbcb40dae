"""perft speed: leaves of the 535 legal-move tree per second against python-chess's perft, in one run
and under the same conditions.

    python benchmarks/bench_perft.py [--depth 7] [--chess-depth 4] [--repeats 3] [--players 4] [--seed 1]

The 535 side is `five35.protocol.perft.perft` from a standard position (round 1 of the seeded
deal, as in docs/perft.md); the chess side is the usual python-chess perft from the start position
(`legal_moves.count()` at depth 1, push/pop above it), python-chess being a benchmark-only
dependency (`pip install 'five35[bench]'`). Both count leaves, so their rates are comparable as
leaves (nodes at the last depth) per CPU second.

Same conditions on both sides: python-chess is pure Python, so the headline 535 figure is the
engine's source run as pure Python too (benchmarks/source_engine.py); the compiled build, where
`pip install .` made one, is timed beside it and compared with it, not with python-chess. Every run
starts cold on both sides: a new Game and deal (the engine keeps what it learns about piles and
hands, so a second perft of the same tree would answer from memory) and a new chess.Board. The
sides take turns `--repeats` times, each sample repeating its cold run for at least half a CPU
second, and each reports its best. Issue 12's target: the 535 rate at least python-chess's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from five35.engine import Game
from five35.engine.game import build
from five35.protocol.perft import perft, root_deal
from five35.spec import load_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import load, machine, parser_with_players
from source_engine import source_engine

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
    parser = parser_with_players(__doc__)
    parser.add_argument("--depth", type=int, default=7, help="535 perft depth (default 7)")
    parser.add_argument("--chess-depth", type=int, default=4, help="chess perft depth (default 4)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best counts (3)")
    parser.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.chess_depth < 1 or args.repeats < 1:
        parser.error("--depth, --chess-depth and --repeats must be at least 1")
    ruleset = load_spec().ruleset()
    engines: dict[str, type[Game]] = {"535 (pure Python)": source_engine().Game}
    if build() != "pure Python":
        engines["535 (compiled)"] = Game

    def cold_perft(engine: type[Game]) -> Callable[[], int]:
        def run() -> int:
            game = engine(ruleset, args.players)
            state, _ = root_deal(game, args.seed)
            return perft(game, state, args.depth)

        return run

    def cold_chess() -> int:
        return chess_perft(chess.Board(), args.chess_depth)

    print(f"machine: {machine()}")
    print(f"engine: {build()} installed; python-chess {chess.__version__}")
    print(f"before: {load()}")
    ours: dict[str, list[float]] = {name: [] for name in engines}
    theirs: list[float] = []
    leaves = nodes = 0
    for _ in range(args.repeats):
        for name, engine in engines.items():
            leaves = best_rate(cold_perft(engine), ours[name])
        nodes = best_rate(cold_chess, theirs)
    print(f"after:  {load()}")
    for name, rates in ours.items():
        print(
            f"{name} perft({args.depth}), {ruleset.label()}, {args.players} players, seed {args.seed}: "
            f"{leaves:,} leaves, {max(rates):,.0f} leaves/s per CPU second (best of {args.repeats}, cold)"
        )
    print(
        f"python-chess perft({args.chess_depth}) from the start position: {nodes:,} nodes, "
        f"{max(theirs):,.0f} nodes/s per CPU second (best of {args.repeats}, cold)"
    )
    pure = max(ours["535 (pure Python)"])
    ratio = pure / max(theirs)
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(
        f"ratio 535 / python-chess: {ratio:.2f}x  (both pure Python; {verdict} the {TARGET_RATIO:.1f}x "
        "target of issue 12)"
    )
    if "535 (compiled)" in ours:
        print(f"ratio compiled / pure Python 535: {max(ours['535 (compiled)']) / pure:.2f}x  (the same code)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
