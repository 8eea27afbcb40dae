"""The test suite's time (issue 20, item 5): the README's test command on a fresh clone, on an idle
machine and with CPU-bound processes beside it, wall and CPU seconds and the load average.

    python benchmarks/bench_suite.py                      # this tree: idle, then with 2 busy processes
    python benchmarks/bench_suite.py --busy 0 --before ec6139d
    python benchmarks/bench_suite.py --venv /tmp/v/bin    # an install made already (of this tree)

The tree (HEAD, or --before's commit) is cloned into a temporary directory and installed with
`pip install '.[test]'` into a venv of its own, as CI does; then `python -m pytest` runs there with
the venv first on PATH (CI installs into the Python on PATH). For each count of --busy, that many
`python -c 'while True: pass'` run beside it and are ended after. CPU seconds are those of pytest
and every process it waited for (getrusage(RUSAGE_CHILDREN)); the load average is sampled every
5 s. Other work on the machine shows in the load figures. The targets (issue 20; README, "The
tests"): within 300 s on the idle 2-core machine, and passing with two busy processes beside it.
Beside them the suite has about 1.2 of the 2 cores (3 workers among 5 CPU-bound processes), so its
time there is reported, not held to 300 s: its CPU alone is more than that.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 300.0


def install(commit: str | None, work: Path) -> Path:
    src = work / "src"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(src)], check=True)
    if commit is not None:
        subprocess.run(["git", "-C", str(src), "checkout", "--quiet", commit], check=True)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    print(f"installing {commit or 'HEAD'} into {venv} ...", flush=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", ".[test]"],
        cwd=src,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return venv / "bin"


def run(bin_dir: Path, tree: Path, busy: int, log: Path) -> str:
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    loads: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(5.0):
            loads.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "CI": "true"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        code = subprocess.run(
            [str(bin_dir / "python"), "-m", "pytest"], cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT
        ).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done.set()
    for spinner in spinners:
        spinner.kill()
        spinner.wait()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = log.read_text(encoding="utf-8").strip().splitlines()
    summary = lines[-1].strip("= ") if lines else "(no output)"
    spread = (
        f"load {min(loads):.1f}-{max(loads):.1f}, median {statistics.median(loads):.1f}"
        if loads
        else "load ?"
    )
    if busy:
        verdict = "passes beside them" if code == 0 else "FAILS beside them"
    else:
        verdict = (
            f"meets the {TARGET:.0f} s target"
            if wall <= TARGET and code == 0
            else f"MISSES the {TARGET:.0f} s target"
        )
    return f"{busy} busy: {wall:7.1f} s wall, {cpu:7.1f} s CPU, exit {code} ({summary}); {spread}; {verdict}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", help="time this commit instead of HEAD")
    parser.add_argument("--venv", type=Path, help="bin/ of a venv with this tree installed already")
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 2], help="busy processes beside (0 2)")
    args = parser.parse_args()
    print(f"machine: nproc {len(os.sched_getaffinity(0))}, load average {os.getloadavg()[0]:.2f}")
    work = Path(tempfile.mkdtemp(prefix="five35-bench-suite-"))
    try:
        if args.venv is not None:
            bin_dir, tree = args.venv, ROOT
        else:
            bin_dir, tree = install(args.before, work), work / "src"
        for busy in args.busy:
            print(run(bin_dir, tree, busy, work / f"pytest-{busy}.log"), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
