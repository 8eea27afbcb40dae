"""The fuzz harness's speed, against a fast engine and against `535-check serve`, and shrinking.

    python benchmarks/bench_protocol.py                  # throughput, this tree and the baseline
    python benchmarks/bench_protocol.py --bugs           # and every planted bug of examples/engine535.py
    python benchmarks/bench_protocol.py --baseline none  # this tree only

Throughput: `fuzz --examples N --seed S` against two engines, each run in a fresh process:
- a recorded-reply engine (benchmarks/recorded_engine.py): the reference's answers to the very
  requests this harness sends for (N, S), recorded beforehand and replayed without any JSON work,
  so its cost is a line read and a write per request (its own rate alone is printed too): the
  figure is the harness's;
- `535-check serve`, the reference over a pipe.
The same is measured for the baseline, the tree at BASELINE (`git archive`, run from a temporary
directory), in the same run, interleaved, best of --repeat: the ratios are this tree's rate over
the baseline's on the same machine under the same load. Both trees run from their source in the
same way (PYTHONPATH, pure Python): the baseline has no compiled engine, so this tree's compiled
build (`pip install .`) would credit the compiler with the harness's work. Rates are requests per
wall second; the CPU seconds of the harness and of the engine are printed beside them (the machine
is shared, and a busy machine shows in wall time first).

--bugs: for each planted bug and seed, the seconds to the first divergence and in all (with the
default 40 s shrink budget), and the size of the replay (moves, cards dealt, players);
--bugs-baseline does the same with the baseline harness (slow: its shrinking can use the budget).

Targets (issue 12, item 2): at least 10,000 requests/s against the fast engine; at least 2x the
baseline's rate against `535-check serve`; every planted bug's replay within 10 moves.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded_engine.py"
EXAMPLE = ROOT / "examples" / "engine535.py"
#: The tree before the fuzz harness work of issue 12 (item 2): "today" in the issue's targets.
BASELINE = "577bdb8"
COMPONENTS = ("executor", "spec", "engine", "checks", "reports", "protocol", "cli")
FAST_TARGET = 10_000
SERVE_RATIO_TARGET = 2.0
REPLAY_MOVES_TARGET = 10
BUGS = (
    "lead-pass",
    "opening-eight",
    "run-gap",
    "set-close",
    "eight-points",
    "passed-winner",
    "run-order",
    "late-penalty",
    "match-end-over",
    "six-set-close",
    "five-winner-lead",
)


# ---- the measurements, each in its own process -------------------------------------------------


def measure(command: str, examples: int, seed: int, shrink_budget: float | None) -> dict[str, Any]:
    """Run the fuzzer in this process against `command`; what it did and what it cost."""
    try:
        from five35.checks.fuzz.differential import fuzz
    except ModuleNotFoundError:  # a baseline tree from before the fuzzer moved out of protocol/
        from five35.protocol.fuzz import fuzz  # type: ignore[no-redef]
    from five35.protocol.client import SubprocessEngine
    from five35.protocol.compare import negotiate
    from five35.spec import load_spec

    spec = load_spec()
    engine = SubprocessEngine(command, timeout=30)
    try:
        ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
        cpu, wall = time.process_time(), time.perf_counter()
        result = fuzz(ruleset, engine, examples=examples, seed=seed, shrink_budget=shrink_budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        engine.close()  # waits for the engine: its CPU time is then the children's
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    witness = result.witness
    out: dict[str, Any] = {
        "requests": result.requests,
        "rounds": result.examples,
        "moves": result.moves,
        "seconds": wall,
        "harness_cpu": cpu,
        "engine_cpu": children.ru_utime + children.ru_stime,
        "fault": str(result.fault) if result.fault else None,
        "divergence": None,
    }
    if witness is not None and witness.divergence is not None:
        out["divergence"] = {
            "round": result.first_found_at,
            "detect_s": result.seconds_to_detect,
            "request": witness.divergence.request,
            "replay_moves": len(witness.moves),
            "replay_cards": witness.deal.cards,
            "players": witness.deal.players,
            "scores": list(witness.deal.scores or ()),
        }
    return out


class Tree:
    """A five35 tree to run from its source: this checkout, or a commit extracted into a temporary
    directory; `path` holds it as the package five35 (PYTHONPATH=path)."""

    def __init__(self, name: str, path: Path) -> None:
        self.name = name
        self.path = path

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": str(self.path)}

    @property
    def serve(self) -> str:
        code = "from five35.cli import main; main()"
        return f"env PYTHONPATH={shlex.quote(str(self.path))} {sys.executable} -c {shlex.quote(code)} serve"

    def python(self, *args: str, timeout: float = 900) -> str:
        done = subprocess.run(
            [sys.executable, *args],
            env=self.env,
            cwd=tempfile.gettempdir(),  # not ROOT: the checkout's folders are not five35 there
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{self.name}: {' '.join(args[:3])}: {done.stderr.strip()[-800:]}")
        return done.stdout

    def run(
        self, command: str, examples: int, seed: int, shrink_budget: float | None = None
    ) -> dict[str, Any]:
        budget = "none" if shrink_budget is None else str(shrink_budget)
        args = ["--measure", command, "--examples", str(examples), "--seed", str(seed), "--budget", budget]
        return json.loads(self.python(str(Path(__file__).resolve()), *args))  # type: ignore[no-any-return]

    def record(self, path: Path, examples: int, seed: int) -> int:
        code = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); from pathlib import Path; "
            f"import recorded_engine; print(recorded_engine.record(Path({str(path)!r}), {examples}, {seed}))"
        )
        return int(self.python("-c", code).strip())


def this_tree(into: Path) -> Tree:
    """This checkout's source as the package five35 under `into` (links to its folders)."""
    target = into / "five35"
    target.mkdir(parents=True)
    (target / "__init__.py").symlink_to(ROOT / "__init__.py")
    for folder in COMPONENTS:
        (target / folder).symlink_to(ROOT / folder, target_is_directory=True)
    return Tree("this tree", into)


def baseline_tree(rev: str, into: Path) -> Tree | None:
    """The tree at `rev`, extracted under `into`; None (with a note) where git cannot give it."""
    target = into / "five35"
    target.mkdir(parents=True)
    try:
        # A tree from before a component had its own folder (the executor lived in engine/ until
        # issue 21) has fewer of them: archive those it has.
        present = [
            folder
            for folder in COMPONENTS
            if subprocess.run(
                ["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}:{folder}"],
                capture_output=True,
                check=False,
            ).returncode
            == 0
        ]
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, *present], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"note: no baseline: git archive {rev} failed ({exc})")
        return None
    # A regular package, as an installed five35 is since the root became one: a namespace folder
    # (what a tree before that is) would lose to the installed package on any path.
    (target / "__init__.py").touch()
    return Tree(f"baseline {rev}", into)


# ---- the report -------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": model,
        "nproc": affinity,
        "cpu_count": os.cpu_count(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def rate(run: dict[str, Any]) -> float:
    return float(run["requests"] / run["seconds"])


def by_cpu(run: dict[str, Any]) -> float:
    return float(run["requests"] / run["harness_cpu"])


def best(runs: list[dict[str, Any]], key: Callable[[dict[str, Any]], float] = rate) -> dict[str, Any]:
    return max(runs, key=key)


def line(name: str, run: dict[str, Any]) -> str:
    return (
        f"  {name:<32} {rate(run):>7,.0f} requests/s {run['rounds'] / run['seconds']:>5,.0f} rounds/s  "
        f"({run['requests']:,} requests in {run['seconds']:.2f} s; CPU s: harness {run['harness_cpu']:.2f}, "
        f"{run['requests'] / run['harness_cpu']:,.0f} requests per harness CPU s; "
        f"engine {run['engine_cpu']:.2f} with its start)"
    )


def throughput(trees: list[Tree], examples: int, seed: int, repeat: int, work: Path) -> dict[str, Any]:
    recordings = {}
    for tree in trees:
        path = work / f"recording-{len(recordings)}.lines"
        recordings[tree.name] = (path, tree.record(path, examples, seed))
    engines = {
        tree.name: {
            "fast engine": f"{sys.executable} {RECORDED} {recordings[tree.name][0]}",
            "535-check serve": tree.serve,
        }
        for tree in trees
    }
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for _ in range(repeat):  # interleaved: a change of load hits every figure alike
        for kind in ("fast engine", "535-check serve"):
            for tree in trees:
                runs.setdefault((tree.name, kind), []).append(
                    tree.run(engines[tree.name][kind], examples, seed)
                )
    sys.path.insert(0, str(HERE))
    import recorded_engine

    alone = max(recorded_engine.measure_alone(recordings[trees[0].name][0]) for _ in range(repeat))
    report: dict[str, Any] = {"examples": examples, "seed": seed, "repeat": repeat, "engine_alone": alone}
    print(f"fuzz --examples {examples} --seed {seed}, best of {repeat}:")
    print(f"  the fast engine alone (the recording piped in, no harness): {alone:,.0f} requests/s")
    for kind in ("fast engine", "535-check serve"):
        for tree in trees:
            chosen = best(runs[(tree.name, kind)])
            report[f"{tree.name}: {kind}"] = {**chosen, "requests_per_s": rate(chosen)}
            print(line(f"{tree.name}: {kind}", chosen))
    current = trees[0].name
    fast = rate(best(runs[(current, "fast engine")]))
    report["fast_engine_requests_per_s"] = fast
    verdicts = [f"fast engine: {fast:,.0f} requests/s (target {FAST_TARGET:,}): {ok(fast >= FAST_TARGET)}"]
    if len(trees) > 1:
        base = trees[1].name
        for kind in ("fast engine", "535-check serve"):
            ratio = rate(best(runs[(current, kind)])) / rate(best(runs[(base, kind)]))
            report[f"ratio: {kind}"] = ratio
            target = f" (target {SERVE_RATIO_TARGET:g}x)" if kind == "535-check serve" else ""
            verdict = f": {ok(ratio >= SERVE_RATIO_TARGET)}" if target else ""
            verdicts.append(f"{kind}: {ratio:.2f}x the baseline's rate{target}{verdict}")
            # The same per CPU second of the harness: what a loaded machine moves least.
            mine, theirs = (best(runs[(name, kind)], by_cpu) for name in (current, base))
            per_cpu = by_cpu(mine) / by_cpu(theirs)
            report[f"ratio per harness CPU second: {kind}"] = per_cpu
            verdicts.append(f"{kind}: {per_cpu:.2f}x the baseline's requests per harness CPU second")
    for verdict in verdicts:
        print(f"  {verdict}")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"  note: load average {load:.1f} on {os.cpu_count()} CPUs: wall-clock rates show the load")
    return report


def ok(passed: bool) -> str:
    return "met" if passed else "NOT MET"


def bugs(tree: Tree, seeds: list[int], examples: int) -> list[dict[str, Any]]:
    rows = []
    print(f"planted bugs ({tree.name}; fuzz --examples {examples}, default shrink budget 40 s):")
    for bug in BUGS:
        for seed in seeds:
            command = f"{sys.executable} {EXAMPLE} --bug {bug}"
            try:
                run = tree.run(command, examples, seed, shrink_budget=40.0)
            except RuntimeError as exc:  # a tree that cannot run the bug: say so, go on
                print(f"  {bug:<18} seed {seed}: not run ({str(exc).splitlines()[-1][:100]})")
                continue
            found = run["divergence"]
            if found is None:
                print(f"  {bug:<18} seed {seed}: NOT FOUND in {run['rounds']} rounds")
                rows.append({"bug": bug, "seed": seed, "found": False})
                continue
            row = {"bug": bug, "seed": seed, "found": True, "total_s": run["seconds"], **found}
            rows.append(row)
            print(
                f"  {bug:<18} seed {seed}: round {found['round']:>4}, found in {found['detect_s']:6.2f} s, "
                f"{run['seconds']:6.2f} s in all; replay: {found['replay_moves']:>2} moves, "
                f"{found['replay_cards']:>2} cards, {found['players']} players, scores {found['scores']} "
                f"({found['request']})"
            )
    found = [r for r in rows if r["found"]]
    if found:
        longest = max(r["replay_moves"] for r in found)
        print(
            f"  longest replay: {longest} moves (target {REPLAY_MOVES_TARGET}): "
            f"{ok(longest <= REPLAY_MOVES_TARGET and len(found) == len(rows))}; "
            f"median time in all {statistics.median(r['total_s'] for r in found):.2f} s, "
            f"longest {max(r['total_s'] for r in found):.2f} s"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each throughput figure (best kept)")
    parser.add_argument("--baseline", default=BASELINE, help="git revision to compare with, or 'none'")
    parser.add_argument("--bugs", action="store_true", help="time and size every planted bug's replay")
    parser.add_argument("--bugs-baseline", action="store_true", help="the same with the baseline harness")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="seeds for --bugs")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--budget", default="none", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        budget = None if args.budget == "none" else float(args.budget)
        print(json.dumps(measure(args.measure, args.examples, args.seed, budget)))
        return
    report: dict[str, Any] = {"machine_before": machine()}
    print("machine: " + json.dumps(report["machine_before"]))
    work = Path(tempfile.mkdtemp(prefix="five35-bench-"))
    try:
        trees = [this_tree(work / "this")]
        if args.baseline != "none":
            base = baseline_tree(args.baseline, work / "baseline")
            if base is not None:
                trees.append(base)
        report["throughput"] = throughput(trees, args.examples, args.seed, args.repeat, work)
        if args.bugs:
            report["bugs"] = bugs(trees[0], args.seeds, args.examples)
        if args.bugs_baseline and len(trees) > 1:
            report["bugs_baseline"] = bugs(trees[1], args.seeds, args.examples)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["machine_after"] = machine()
    print(f"load after: {report['machine_after']['loadavg']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
