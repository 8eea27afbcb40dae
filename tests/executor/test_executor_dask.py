"""The Dask executor against a real cluster (a distributed.LocalCluster of two worker processes,
started once for the module, in a process of its own): the same results as a local run, byte for
byte, for simulate, the impact estimate, a fuzz campaign and check --level deep; a worker killed
while its units run is replaced and its units run again with the same result; and every way to ask
for it wrongly is one line, exit 2."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

# Only whether it is there (importing it costs every worker that collects this module half a
# second): the Dask tests are part of the suite, so a missing dask is a failure, not a skip.
if importlib.util.find_spec("distributed") is None:
    pytest.fail("dask is not installed: pip install '.[test]' (it brings dask[distributed])", pytrace=False)

from cli_tools import run_bad_input
from five35.checks.fuzz.differential import fuzz_campaign
from five35.checks.job import run as report_job
from five35.checks.runner import run_checks
from five35.cli import main
from five35.engine.simulate import simulate, simulate_parallel
from five35.executor import DaskExecutor, ExecutorUnavailable, LocalExecutor, WorkerDied, make_executor
from five35.executor import cluster as cluster_module
from five35.protocol.replay import replay_json
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine535.py'}"
SPEC = load_spec()
RULES = SPEC.ruleset(None)


# The cluster runs in a process of its own, as a real one would: its worker processes and their
# multiprocessing helpers are then no children of the test process (tests/executor/test_executor.py
# counts those), and all of them end with it.
CLUSTER = """
import logging, sys
import distributed

if __name__ == "__main__":
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()  # until the tests close it
"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    script = tmp_path_factory.mktemp("cluster") / "cluster.py"
    script.write_text(CLUSTER)
    # The workers import what the tests send by name (this module's functions), as a real
    # cluster's workers import five35: they get this process's import path.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        address = proc.stdout.readline().strip()
        assert address.startswith("tcp://"), f"the LocalCluster did not start (exit code {proc.poll()})"
        yield address
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


@pytest.fixture(scope="module")
def dask(cluster: str) -> Iterator[DaskExecutor]:
    with DaskExecutor(cluster) as executor:
        yield executor


def _square_after(delay: float, x: int) -> int:
    time.sleep(delay)
    return x * x


def _logged_square(log: str, delay: float, x: int) -> int:
    # Each run of a unit leaves a line: a unit run twice (its worker killed) leaves two.
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"{x} {os.getpid()}\n")
    time.sleep(delay)
    return x * x


def _fail_on(bad: int, x: int) -> int:
    if x == bad:
        raise ValueError(f"unit {x} failed")
    return x


def _spec_error_on(bad: int, x: int) -> int:
    from five35.spec import SpecError

    if x == bad:
        raise SpecError("house.yaml:179: parameters.hand_size", "2 hands of 24 need 48 cards")
    return x


def test_results_come_back_in_order_whatever_finishes_first(dask: DaskExecutor) -> None:
    assert dask.workers == 2
    delays = [0.3, 0.0, 0.2, 0.0, 0.1]
    assert list(dask.map(_square_after, delays, range(5))) == [0, 1, 4, 9, 16]


def test_a_unit_that_raises_raises_its_own_error(dask: DaskExecutor) -> None:
    with pytest.raises(ValueError, match="unit 2 failed"):
        list(dask.map(_fail_on, [2] * 4, range(4)))


def test_an_error_whose_init_takes_other_arguments_arrives_whole(dask: DaskExecutor) -> None:
    from five35.spec import SpecError

    with pytest.raises(SpecError) as raised:
        list(dask.map(_spec_error_on, [1] * 3, range(3)))
    assert (raised.value.where, raised.value.message) == (
        "house.yaml:179: parameters.hand_size",
        "2 hands of 24 need 48 cards",
    )


def test_simulate_on_the_cluster_equals_one_process(dask: DaskExecutor, tmp_path: Path) -> None:
    seeds = range(3, 15)
    local = simulate(RULES, 4, seeds, ["random", "greedy"] * 2, "match", base_seed=11)
    on_cluster = simulate_parallel(
        RULES, 4, seeds, ["random", "greedy"] * 2, "match", base_seed=11, executor=dask
    )
    assert on_cluster == local
    args = ["simulate", "--games", "9", "--players", "3", "--seed", "5", "--format", "json"]
    alone = CliRunner().invoke(main, args)
    spread = CliRunner().invoke(main, [*args, "--executor", "dask", "--scheduler", dask.scheduler])
    assert alone.exit_code == spread.exit_code == 0, spread.output
    assert spread.stdout == alone.stdout


def test_the_impact_estimate_on_the_cluster_equals_one_process(dask: DaskExecutor) -> None:
    local = report_job.estimate_all(SPEC, RULES, 3, 535, jobs=1)
    on_cluster = report_job.estimate_all(SPEC, RULES, 3, 535, executor=dask)
    assert on_cluster == local
    assert json.dumps(repr(on_cluster)) == json.dumps(repr(local))


def test_check_deep_on_the_cluster_equals_the_serial_run(dask: DaskExecutor) -> None:
    only = ["text_examples", "graphs.succession", "graphs.beats", "text_audit"]
    serial = run_checks(SPEC, RULES, level="deep", seed=7, only=only)
    spread = run_checks(SPEC, RULES, level="deep", seed=7, only=only, executor=dask)
    assert [r.name for r in spread.results] == [r.name for r in serial.results] == only
    assert json.dumps(spread.to_json(), sort_keys=True) == json.dumps(serial.to_json(), sort_keys=True)


def _campaign_json(runs: list[Any]) -> list[Any]:
    out = []
    for run in runs:
        assert run.result is not None and run.fault is None
        witness = run.result.witness
        out.append(
            (run.seed, run.result.to_json(), replay_json(RULES, "e", run.seed, witness) if witness else None)
        )
    return out


def test_a_fuzz_campaign_on_the_cluster_equals_one_process(dask: DaskExecutor) -> None:
    target = f"{EXAMPLE} --bug run-gap"
    kwargs: dict[str, Any] = {
        "runs": 3,
        "base_seed": 4,
        "examples": 100,
        "timeout": 10.0,
        "max_line": 1 << 20,
        "player_counts": (2, 3, 4),
    }
    local = fuzz_campaign(RULES, target, executor=LocalExecutor(1), **kwargs)
    on_cluster = fuzz_campaign(RULES, target, executor=dask, **kwargs)
    assert _campaign_json(on_cluster) == _campaign_json(local)
    assert all(run.diverged for run in on_cluster)


# The planted bugs a campaign must find, with the rounds each run generates (the late and
# full-table bugs need more).
PLANTED = {
    "lead-pass": 100,
    "opening-eight": 200,
    "run-gap": 100,
    "set-close": 200,
    "eight-points": 200,
    "passed-winner": 200,
    "run-order": 200,
    "late-penalty": 500,
    "match-end-over": 500,
    "six-set-close": 500,
    "five-winner-lead": 500,
}


def test_fuzz_campaign_on_the_cluster_finds_every_planted_bug(dask: DaskExecutor, tmp_path: Path) -> None:
    listed = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "engine535.py"), "--list-bugs"],
        capture_output=True,
        text=True,
    )
    assert {line.split(":")[0] for line in listed.stdout.splitlines() if line.strip()} == set(PLANTED)
    for bug, examples in PLANTED.items():
        out = tmp_path / bug
        out.mkdir()
        os.chdir(out)
        try:
            result = CliRunner().invoke(
                main,
                [
                    "fuzz",
                    "--engine",
                    f"{EXAMPLE} --bug {bug}",
                    "--campaign",
                    "2",
                    "--examples",
                    str(examples),
                    "--executor",
                    "dask",
                    "--scheduler",
                    dask.scheduler,
                    "--format",
                    "json",
                ],
            )
        finally:
            os.chdir(ROOT)
        assert result.exit_code == 1, (bug, result.output)
        data = json.loads(result.stdout)
        first = data["first_divergence"]
        assert first is not None, bug
        diverged = [r for r in data["runs"] if r["result"] == "divergence"]
        # Every diverging seed kept its replay, named with its seed; the first is the first in seed order.
        assert sorted(p.name for p in out.iterdir()) == sorted(
            f"535-replay-seed{r['seed']}.json" for r in diverged
        )
        assert first["seed"] == diverged[0]["seed"] and first["index"] == min(r["index"] for r in diverged)


def test_asking_for_the_executor_wrongly_is_one_line_exit_2(tmp_path: Path) -> None:
    run_bad_input(
        ["simulate", "--scheduler", "tcp://127.0.0.1:8786"], 2, "--scheduler", "--executor dask", cwd=tmp_path
    )
    run_bad_input(["simulate", "--executor", "dask"], 2, "--executor", "--scheduler", cwd=tmp_path)
    run_bad_input(["report", "--executor", "dask", "--out", "r"], 2, "--executor", cwd=tmp_path)
    run_bad_input(["simulate", "--executor", "cluster"], 2, "--executor", cwd=tmp_path)
    run_bad_input(
        ["simulate", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"],
        2,
        "--jobs",
        cwd=tmp_path,
    )
    run_bad_input(
        ["check", "--level", "ci", "--executor", "dask"], 2, "--executor", "--level deep", cwd=tmp_path
    )
    run_bad_input(
        ["fuzz", "--engine", EXAMPLE, "--executor", "dask"], 2, "--executor", "--campaign", cwd=tmp_path
    )


def test_an_unreachable_scheduler_is_one_line_exit_2_within_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The limit is 10 s; a shorter one keeps the test short, the path is the same. Unheeded, Dask's
    # own 30 s would apply: the bound tells the two apart and leaves room for a loaded machine.
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 1.5)
    started = time.monotonic()
    run_bad_input(
        ["simulate", "--games", "2", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"],
        2,
        "--scheduler",
        "cannot reach a Dask scheduler at tcp://127.0.0.1:9",
        cwd=tmp_path,
    )
    assert time.monotonic() - started < 1.5 + 10


def test_without_dask_installed_the_dask_executor_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A None entry in sys.modules makes `import distributed` raise ImportError, as on a machine without it.
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ExecutorUnavailable, match="pip install 'five35\\[dask\\]'"):
        make_executor("dask", 1, "tcp://127.0.0.1:8786")
    run_bad_input(
        ["simulate", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786"],
        2,
        "--executor",
        "dask is not installed",
        cwd=tmp_path,
    )


def test_make_executor_refuses_what_cannot_work() -> None:
    with pytest.raises(ExecutorUnavailable) as local_with_scheduler:
        make_executor("local", 1, "tcp://x:1")
    assert local_with_scheduler.value.argument == "scheduler"
    with pytest.raises(ExecutorUnavailable) as unknown:
        make_executor("cluster", 1, None)
    assert unknown.value.argument == "kind"
    assert isinstance(make_executor("local", 2, None), LocalExecutor)


def test_pyproject_can_send_the_work_to_the_cluster(
    dask: DaskExecutor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["simulate", "--games", "6", "--seed", "2", "--format", "json"]
    alone = CliRunner().invoke(main, args)
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.five35]\nexecutor = "dask"\nscheduler = "{dask.scheduler}"\n'
    )
    monkeypatch.chdir(tmp_path)
    spread = CliRunner().invoke(main, args)
    assert spread.exit_code == 0, spread.output
    assert spread.stdout == alone.stdout
    # The command line still wins: --executor local has no use for the table's scheduler.
    run_bad_input([*args, "--executor", "local"], 2, "pyproject.toml:3: tool.five35.scheduler", cwd=tmp_path)


@pytest.mark.parametrize(
    ("body", "needles"),
    [
        ('executor = "dask"\n', ("pyproject.toml:2: tool.five35.executor", "--scheduler")),
        ('executor = "cluster"\n', ("pyproject.toml:2: tool.five35.executor", "expected one of local, dask")),
        (
            'scheduler = "tcp://127.0.0.1:8786"\n',
            ("pyproject.toml:2: tool.five35.scheduler", "--executor dask"),
        ),
    ],
)
def test_bad_executor_settings_in_pyproject_name_their_line(
    tmp_path: Path, body: str, needles: tuple[str, ...]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.five35]\n" + body)
    run_bad_input(["simulate", "--games", "2"], 2, *needles, cwd=tmp_path)
    # The no-argument job reads the same keys, and names the same line.
    run_bad_input([], 2, needles[0], cwd=tmp_path)


def test_closing_the_results_early_stops_the_units_on_the_cluster(dask: DaskExecutor, tmp_path: Path) -> None:
    # Ten 3 s units on two workers; closed after the first, only the units already running finish
    # (a worker thread cannot be stopped, one unit per worker), the queued ones never start.
    # Counted from the units' own log, not timed: a loaded machine cannot make it fail.
    log = tmp_path / "runs.log"
    log.touch()
    results = dask.map(_logged_square, [str(log)] * 11, [0.0] + [3.0] * 10, range(11))
    assert next(results) == 0
    results.close()
    assert list(dask.map(_square_after, [0.0, 0.0], [2, 3])) == [4, 9]
    assert not any(dask.client.processing().values())
    started = [int(line.split()[0]) for line in log.read_text().splitlines()]
    assert 0 in started and len(started) <= 1 + 2, started


# ---- last: the tests that kill workers ---------------------------------------------------------
# They run after every other test of the cluster (pytest keeps a module's order within its group),
# so that none waits for the nanny to start new worker processes: how long that takes is Dask's
# affair and the machine's load, and a wait for it would be a wall-clock budget.


def test_a_killed_worker_s_units_run_again_with_the_same_result(dask: DaskExecutor, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    log.touch()
    before = dask.client.run(os.getpid)
    units = list(range(6))
    results = dask.map(_logged_square, [str(log)] * len(units), [0.8] * len(units), units)
    killed: list[int] = []

    def kill_one() -> None:
        # Once both workers are inside a unit, kill one of them outright.
        end = time.monotonic() + 120
        while time.monotonic() < end and len(log.read_text().splitlines()) < 2:
            time.sleep(0.02)
        pid = sorted(before.values())[0]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    killer = threading.Thread(target=kill_one)
    killer.start()
    got = list(results)
    killer.join()
    assert got == [x * x for x in units]
    assert killed
    runs = [line.split() for line in log.read_text().splitlines()]
    # The unit the killed worker held ran again elsewhere: more runs than units, and every unit ran.
    assert len(runs) > len(units)
    assert {int(x) for x, _ in runs} == set(units)
    assert any(int(pid) == killed[0] for _, pid in runs)
    # The worker that was killed is not among those the cluster runs on now (the nanny starts a
    # new process in its place, in its own time: not waited for, see below).
    after = dask.client.run(os.getpid)
    assert killed[0] not in after.values()


def test_a_unit_that_kills_every_worker_it_lands_on_is_worker_died(dask: DaskExecutor) -> None:
    # Past the scheduler's allowed failures the unit is given up, as WorkerDied (exit 3 in the CLI).
    with pytest.raises(WorkerDied, match="a Dask worker died each time it ran unit 1 of 1: _exit"):
        list(dask.map(os._exit, [9]))
