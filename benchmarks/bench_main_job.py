"""The main job's time (issue 12, items 3 and 5): `535-check` with no arguments and
`535-check check --level ci`, wall and CPU seconds, for this tree and for a baseline commit in the
same run.

Each tree is cloned into a temporary directory and installed with `pip install .` into a venv of
its own (the compiled engine, as a user gets it; the editable install of a checkout runs the engine
as pure Python and would time something else). The commands then run in empty temporary working
directories, the trees interleaved (after, before, after, before, ...), and the best of --repeat is
kept for each: load from other processes only ever adds time. CPU seconds are those of the command
and every process it waited for (its worker processes), from getrusage(RUSAGE_CHILDREN).

    python benchmarks/bench_main_job.py                        # this tree against c2a07ae
    python benchmarks/bench_main_job.py --before 4a898c5 --repeat 3
    python benchmarks/bench_main_job.py --venv /tmp/v --before-venv /tmp/b   # installs made already

The first lines say the machine (nproc, CPU count) and the load average at the start; the last ones
the load at the end and the ratios before/after. Targets (issue 12, item 3): `535-check` at most
20 s wall, `check --level ci` at most 15 s wall, on the 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The commit before the main job's speed work (issue 12, item 3).
BASELINE = "c2a07ae"
TARGETS = {"535-check": 20.0, "535-check check --level ci": 15.0}
COMMANDS: dict[str, list[str]] = {"535-check": [], "535-check check --level ci": ["check", "--level", "ci"]}


@dataclass
class Timing:
    wall: float
    cpu: float
    code: int


def machine() -> str:
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
        f"{platform.release()}, nproc {nproc}, {os.cpu_count()} logical CPUs"
    )


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def install(tree: str, commit: str | None, work: Path, name: str) -> Path:
    """A venv with `tree` (at `commit`, when given) installed by `pip install .`; returns its bin/."""
    src = work / f"{name}-src"
    subprocess.run(["git", "clone", "--quiet", tree, str(src)], check=True)
    if commit is not None:
        subprocess.run(["git", "-C", str(src), "checkout", "--quiet", commit], check=True)
    venv = work / f"{name}-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    print(f"installing {name} ({commit or 'HEAD'}) into {venv} ...", flush=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", str(src)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return venv / "bin"


def run(bin_dir: Path, args: list[str]) -> Timing:
    """One command in an empty working directory: its wall time and the CPU of it and its children."""
    with tempfile.TemporaryDirectory(prefix="five35-bench-") as cwd:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            [str(bin_dir / "535-check"), *args],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu, proc.returncode)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", default=BASELINE, help="baseline commit (default %(default)s)")
    parser.add_argument("--no-before", action="store_true", help="time this tree only")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each command per tree (best kept)")
    parser.add_argument("--venv", type=Path, help="bin/ of a venv with this tree installed already")
    parser.add_argument("--before-venv", type=Path, help="bin/ of a venv with the baseline installed")
    parser.add_argument("--only", choices=sorted(COMMANDS), action="append", help="time only these commands")
    args = parser.parse_args()
    # With --before-venv the baseline is whatever that venv holds: say so rather than name a commit.
    baseline = args.before if args.before_venv is None else f"{args.before_venv}"
    print(f"machine: {machine()}")
    print(f"start:   {load()}")
    work = Path(tempfile.mkdtemp(prefix="five35-bench-main-"))
    try:
        trees: dict[str, Path] = {"after": args.venv or install(str(ROOT), None, work, "after")}
        if not args.no_before:
            trees["before"] = args.before_venv or install(str(ROOT), args.before, work, "before")
        commands = {k: v for k, v in COMMANDS.items() if not args.only or k in args.only}
        best: dict[tuple[str, str], Timing] = {}
        for i in range(args.repeat):
            for label, argv in commands.items():
                for tree, bin_dir in trees.items():
                    t = run(bin_dir, argv)
                    print(
                        f"  run {i + 1} {tree:<6} {label:<28} {t.wall:6.1f} s wall {t.cpu:6.1f} s CPU "
                        f"(exit {t.code}; {load()})",
                        flush=True,
                    )
                    have = best.get((tree, label))
                    if have is None or t.wall < have.wall:
                        best[(tree, label)] = t
        print(f"end:     {load()}")
        print(f"best of {args.repeat}:")
        for label in commands:
            after = best[("after", label)]
            verdict = "meets" if after.wall <= TARGETS[label] else "ABOVE"
            line = f"  {label:<28} {after.wall:6.1f} s wall {after.cpu:6.1f} s CPU "
            line += f"({verdict} {TARGETS[label]:.0f} s)"
            if ("before", label) in best:
                b = best[("before", label)]
                line += (
                    f"; before ({baseline}) {b.wall:6.1f} s wall {b.cpu:6.1f} s CPU: "
                    f"{b.wall / after.wall:.2f}x wall, {b.cpu / after.cpu:.2f}x CPU"
                )
            print(line)
        if os.getloadavg()[0] > (os.cpu_count() or 1):
            print(
                f"note: load average above {os.cpu_count()}: other processes shared the cores "
                "(the wall times show it)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
