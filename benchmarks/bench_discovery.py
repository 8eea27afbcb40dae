"""Discovery's recall and speed: the hidden-point benchmark, and the mutation check per level.

    python benchmarks/bench_discovery.py [--level ci|deep] [--seed 535] [--check-levels] [--hidden-rules]
        [--tables]

Hides each variation point of the embedded spec in turn (`Spec.without_point`: the point removed,
its default hard-wired), runs every engine mutant against that copy with the given level's budget,
and prints which points come back as silences (five35.checks.discovery.benchmark says what "comes
back" means) and which escape and why. `--check-levels` also times the check discovery.mutants at
levels quick, ci and deep on one core (CPU seconds of this process, wall beside), and the line
`engine:` says which build runs (compiled by mypyc after `pip install .`, or pure Python).

`--hidden-rules` runs the hidden-rule benchmark instead (five35.checks.discovery.rules.hidden):
every copy of the spec with one rule weakened (a condition of an `and` or a helper left out, a
strict comparison made non-strict), and whether discovery brings the rule back, killed by a
clause's question or as a silence of the mutants of the copy's rules; the weakenings that change
no play are counted apart (there is nothing to bring back).

`--tables` times the search of every deal of the small tables (the liveness check's state
properties, checks/discovery/liveness/tables.py) under the default profile: states explored per CPU
second, beside the engine's own playout rate in the same run (moves per CPU second of random
playouts of 4-player rounds: legal moves, a uniform choice, apply). The search pays for the state
key, the per-step properties and the state graph on top of the engine's moves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from five35.checks.discovery import silences
from five35.checks.discovery.benchmark import hidden_point_recall
from five35.checks.discovery.liveness.states import every_deal_of
from five35.checks.discovery.liveness.tables import TABLES
from five35.checks.discovery.rules import check as rules_check
from five35.checks.discovery.rules.hidden import hidden_rule_recall
from five35.checks.findings import LEVELS, CheckContext
from five35.engine import Game
from five35.engine.engines import make_engine
from five35.engine.game import build
from five35.spec import load_spec
from five35.spec.words import words_of


def _timed(level: str, seed: int) -> str:
    spec = load_spec()
    silences.clear_memory()
    cpu, wall = time.process_time(), time.perf_counter()
    result = silences.check_mutants(CheckContext(spec, spec.ruleset(), level, seed))  # type: ignore[arg-type]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return (
        f"level {level}: {result.mutants} mutants, {len(result.findings)} silences, "
        f"{cpu:.2f} CPU s ({wall:.2f} s wall)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=("ci", "deep"), default="ci", help="the budget per mutant")
    parser.add_argument("--seed", type=int, default=535)
    parser.add_argument("--check-levels", action="store_true", help="also time the check at every level")
    parser.add_argument("--hidden-rules", action="store_true", help="the hidden-rule benchmark instead")
    parser.add_argument("--tables", action="store_true", help="the small tables' search rate instead")
    args = parser.parse_args(argv)
    print(f"engine: {build()}")
    if args.hidden_rules:
        return _hidden_rules(args.level, args.seed)
    if args.tables:
        return _tables(args.seed)
    if args.check_levels:
        for level in LEVELS:
            print(_timed(level, args.seed))
    silences.clear_memory()
    cpu, wall = time.process_time(), time.perf_counter()
    spec = load_spec()
    recall = hidden_point_recall(spec, budget=silences.BUDGETS[args.level], seed=args.seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print("\n".join(recall.lines(words_of(spec).check(silences.NAME))))
    print(f"benchmark: {cpu:.1f} CPU s ({wall:.1f} s wall), budget {args.level}, seed {args.seed}")
    return 0


def _hidden_rules(level: str, seed: int) -> int:
    cpu, wall = time.process_time(), time.perf_counter()
    found = hidden_rule_recall(load_spec(), rules_check.BUDGETS[level], seed)  # type: ignore[index]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    live = [h for h in found if not h.dead]
    back = [h for h in live if h.back]
    killed = [h for h in back if h.back == "killed"]
    print(
        f"hidden-rule recall: {len(back)} of {len(live)} weakened rules come back "
        f"({len(killed)} killed by a clause, {sum(h.own_clause for h in killed)} of them by one the rule "
        f"cites; {sum(h.back == 'silence' for h in back)} as a silence); "
        f"{len(found) - len(live)} weakenings change no play"
    )
    for h in found:
        own = "" if h.own_clause else " by a clause the rule does not cite"
        status = "no play changes" if h.dead else (f"back, {h.back}{own}" if h.back else "escapes")
        print(f"  {h.rule}.{h.part} = {h.weakened}: {status}: {h.why}")
    print(f"benchmark: {cpu:.1f} CPU s ({wall:.1f} s wall), budget {level}, seed {seed}")
    return 0


def _playout_rate(seed: int, cpu_seconds: float) -> float:
    """Moves per CPU second of random 4-player playouts of the default profile."""
    game = Game(load_spec().ruleset(), 4)
    rng = random.Random(seed)
    moves, i, start = 0, 0, time.process_time()
    while time.process_time() - start < cpu_seconds:
        state = game.new_match(seed + i)
        i += 1
        while state.phase == "play":
            state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
            moves += 1
    return moves / (time.process_time() - start)


def _tables(seed: int) -> int:
    spec = load_spec()
    ruleset = spec.ruleset()
    failed: dict[str, Any] = {}
    cpu, wall = time.process_time(), time.perf_counter()
    count, scope, _ = every_deal_of(
        spec, ruleset, TABLES["deep"].tables, [ruleset], True, make_engine, failed
    )
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    playout = _playout_rate(seed, max(cpu, 1.0))
    print(f"small tables, default profile{scope}")
    print(f"properties broken: {', '.join(failed) or 'none'}")
    print(
        f"search: {count:,} states in {cpu:.2f} CPU s ({wall:.2f} s wall): "
        f"{count / cpu:,.0f} states per CPU s; engine playouts: {playout:,.0f} moves per CPU s "
        f"(search / playout {count / cpu / playout:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
