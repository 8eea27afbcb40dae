"""The one executor: results in order whatever finishes first, errors and early stops end every
worker at once, workers leave SIGINT to the parent, and any object with `workers` and `map` can
stand in for it (as a cluster executor would)."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from five35.engine.simulate import simulate, simulate_parallel
from five35.executor import LONG_WORK_GC, MAX_JOBS, Executor, LocalExecutor, WorkerDied, local
from five35.spec import Ruleset, load_spec


def _square_after(delay: float, x: int) -> int:
    time.sleep(delay)
    return x * x


def _fail_on(bad: int, x: int, delay: float = 0.05) -> int:
    if x == bad:
        raise ValueError(f"unit {x} failed")
    time.sleep(delay)
    return x


def _die(x: int) -> int:
    if x == 1:
        os._exit(7)
    time.sleep(0.2)
    return x


def _sigint_disposition(_: int) -> tuple[int, Any]:
    return os.getpid(), signal.getsignal(signal.SIGINT)


def _spin(seconds: float) -> int:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return os.getpid()


def _gc_thresholds(_: int) -> tuple[int, ...]:
    return gc.get_threshold()


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children() -> list[int]:
    me = os.getpid()
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                out.append(int(entry.name))
    return out


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_the_units_order(jobs: int) -> None:
    # The first units take longest, so with two workers later units finish first.
    delays = [0.3, 0.2, 0.1, 0.0, 0.0, 0.05]
    results = list(LocalExecutor(jobs).map(_square_after, delays, range(len(delays))))
    assert results == [x * x for x in range(len(delays))]


def test_workers_and_the_command_collect_garbage_as_long_work_wants() -> None:
    # Workers forked from a process with the default thresholds (a notebook, a test) set their own.
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        assert set(LocalExecutor(2).map(_gc_thresholds, range(4))) == {LONG_WORK_GC}
    finally:
        gc.set_threshold(*before)
    # The command sets them before any command runs (here `rules`, which forks no worker).
    probe = (
        "import gc, sys; from five35.cli import main; m = sys.modules['five35.cli.main'];"
        "m.Five35Group.invoke = lambda self, ctx: print(gc.get_threshold()) or 0;"
        "sys.argv = ['535-check', 'rules']; main()"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == str(LONG_WORK_GC), done.stderr


def test_no_units_and_one_unit() -> None:
    assert list(LocalExecutor(2).map(_square_after, [], [])) == []
    assert list(LocalExecutor(2).map(_square_after, [0.0], [3])) == [9]


def test_jobs_are_bounded() -> None:
    for jobs in (0, -1, MAX_JOBS + 1):
        with pytest.raises(ValueError, match="jobs"):
            LocalExecutor(jobs)


def test_a_unit_that_raises_stops_every_worker() -> None:
    started = time.monotonic()
    with pytest.raises(ValueError, match="unit 2 failed"):
        list(LocalExecutor(2).map(_fail_on, [2] * 40, range(40), [0.0, 0.0, 0.0] + [1.0] * 37))
    # The 37 units after the failing one (18 s of sleep per worker) were not waited for; the
    # bound leaves the start of two workers room on a loaded machine.
    assert time.monotonic() - started < 10.0
    assert _children() == []


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(WorkerDied, match="a worker process exited"):
        list(LocalExecutor(2).map(_die, range(4)))
    assert _children() == []


def test_closing_early_ends_the_workers_at_once() -> None:
    results = LocalExecutor(2).map(_spin, [0.1, 30.0, 30.0, 30.0])
    first = next(results)
    running = _children()
    assert first in running and len(running) == 2
    started = time.monotonic()
    results.close()
    # Far less than the 30 s spins left, with room for a loaded machine.
    assert time.monotonic() - started < 10.0
    assert [pid for pid in running if _alive(pid)] == []


def test_workers_ignore_sigint_and_the_parent_does_not() -> None:
    before = signal.getsignal(signal.SIGINT)
    seen = list(LocalExecutor(2).map(_sigint_disposition, range(6)))
    assert {disposition for _, disposition in seen} == {signal.SIG_IGN}
    assert all(pid != os.getpid() for pid, _ in seen)
    assert signal.getsignal(signal.SIGINT) == before
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == set()


class RecordingExecutor:
    """Stands in for a cluster executor: runs units here, in order, and records them."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self.units: list[tuple[Any, ...]] = []

    @property
    def workers(self) -> int:
        return self._workers

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any]) -> Generator[Any, None, None]:
        for args in zip(*iterables, strict=True):
            self.units.append(args)
            yield fn(*args)


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_spec().ruleset()


def test_simulate_runs_on_any_executor(ruleset: Ruleset) -> None:
    executor = RecordingExecutor(3)
    checked: Executor = executor  # the protocol is all simulate_parallel needs
    done: list[int] = []
    stats = simulate_parallel(
        ruleset, 4, range(24), ["random"], "match", base_seed=11, executor=checked, progress=done.append
    )
    assert stats == simulate(ruleset, 4, range(24), ["random"], "match", base_seed=11)
    # Cut into a few parts per worker, in order, covering the range once.
    parts = [args[2] for args in executor.units]
    assert len(parts) == 12 and [i for part in parts for i in part] == list(range(24))
    assert done == [len(part) for part in parts]


DEEP = ["text_examples", "graphs.succession", "graphs.beats", "text_audit"]


def test_check_deep_sends_each_check_as_a_unit_and_keeps_the_registry_order(ruleset: Ruleset) -> None:
    import json

    from five35.checks.runner import run_checks

    spec = load_spec()
    executor = RecordingExecutor(2)
    seen: list[str] = []
    spread = run_checks(
        spec,
        ruleset,
        level="deep",
        seed=3,
        only=DEEP,
        executor=executor,
        progress=lambda n, r: seen.append(n),
    )
    # The check name, then the rlimit and the unit's share of the check (one share each here).
    assert [args[-3] for args in executor.units] == DEEP == seen
    assert {args[-1] for args in executor.units} == {(0, 1)}
    processes = run_checks(spec, ruleset, level="deep", seed=3, only=DEEP, executor=LocalExecutor(2))
    serial = run_checks(spec, ruleset, level="deep", seed=3, only=DEEP)
    texts = {json.dumps(run.to_json(), sort_keys=True) for run in (spread, processes, serial)}
    assert len(texts) == 1
    # An executor given is used at any level (check passes one at ci too), in the same order.
    quick = RecordingExecutor(2)
    run_checks(spec, ruleset, level="quick", seed=3, only=DEEP, executor=quick)
    assert [args[-3] for args in quick.units] == DEEP


def test_a_check_split_into_units_at_level_deep_is_one_result_in_the_registry_order(
    ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    from five35.checks import runner
    from five35.checks.findings import Check, CheckContext, CheckResult

    def shared(ctx: CheckContext) -> CheckResult:
        # Each unit examines its block of ten items; the merged result examines all ten, in order.
        return CheckResult("split", "", 0.0, exhaustive=len(ctx.share(range(10))), notes=(str(ctx.shard),))

    monkeypatch.setattr(
        runner, "all_checks", lambda: (Check("split", shared, title="A check in three units", shards=3),)
    )
    executor = RecordingExecutor(2)
    deep = runner.run_checks(load_spec(), ruleset, level="deep", seed=3, executor=executor)
    ci = runner.run_checks(load_spec(), ruleset, level="ci", seed=3, executor=RecordingExecutor(2))
    assert [args[-1] for args in executor.units] == [(0, 3), (1, 3), (2, 3)]
    assert [(r.name, r.exhaustive, r.notes) for r in deep.results] == [
        ("split", 10, ("(0, 3)", "(1, 3)", "(2, 3)"))
    ]
    # Below level deep a check is one unit.
    assert [(r.exhaustive, r.notes) for r in ci.results] == [(10, ("(0, 1)",))]


def test_check_deep_checks_an_engine_that_cannot_travel_here(ruleset: Ruleset) -> None:
    from five35.checks.runner import run_checks
    from five35.engine import Game

    spec = load_spec()
    executor = RecordingExecutor(2)
    # A lambda cannot be pickled to a worker process: the checks run in this process instead.
    run = run_checks(
        spec,
        ruleset,
        level="deep",
        seed=3,
        only=["graphs.beats"],
        executor=executor,
        engine=lambda r, p: Game(r, p),
    )
    assert executor.units == [] and run.ok


# ---- the real error, always (issue 20) ----------------------------------------------------------


def _raise_spec_error(x: int) -> int:
    from five35.spec import SpecError

    if x == 2:
        # SpecError(where, message): pickle's default way would call SpecError("where: message").
        raise SpecError("house.yaml:179: parameters.hand_size", "2 hands of 24 need 48 cards")
    return x


def _raise_deal_error(x: int) -> int:
    from five35.engine.cards import DealError

    if x == 1:
        raise DealError("hands", "4 cards of rank 3 in all, the deck has 3")
    return x


def _raise_unimportable(x: int) -> int:
    class Hidden(Exception):  # defined here: the parent cannot import it by name
        pass

    if x == 1:
        raise Hidden("nobody can import me")
    return x


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_a_worker_is_the_error_of_one_process(jobs: int) -> None:
    from five35.engine.cards import DealError
    from five35.spec import SpecError

    with pytest.raises(SpecError) as spec_error:
        list(LocalExecutor(jobs).map(_raise_spec_error, range(4)))
    assert spec_error.value.where == "house.yaml:179: parameters.hand_size"
    assert spec_error.value.message == "2 hands of 24 need 48 cards"
    assert str(spec_error.value) == "house.yaml:179: parameters.hand_size: 2 hands of 24 need 48 cards"
    with pytest.raises(DealError) as deal_error:
        list(LocalExecutor(jobs).map(_raise_deal_error, range(3)))
    assert deal_error.value.key == "hands"
    assert deal_error.value.message == "4 cards of rank 3 in all, the deck has 3"
    assert str(deal_error.value) == "hands: 4 cards of rank 3 in all, the deck has 3"
    assert _children() == []


def test_the_worker_s_traceback_is_the_cause_of_the_error() -> None:
    from five35.executor import RemoteTraceback
    from five35.spec import SpecError

    with pytest.raises(SpecError) as raised:
        list(LocalExecutor(2).map(_raise_spec_error, range(4)))
    cause = raised.value.__cause__
    assert isinstance(cause, RemoteTraceback)
    assert "_raise_spec_error" in str(cause) and "Traceback" in str(cause)


def test_an_exception_the_parent_cannot_import_is_named() -> None:
    from five35.executor import UnitRaised

    with pytest.raises(UnitRaised, match=r"_raise_unimportable\.<locals>\.Hidden: nobody can import me"):
        list(LocalExecutor(2).map(_raise_unimportable, range(3)))
    assert _children() == []


def _kill_self_on(bad: int, x: int) -> int:
    if x == bad:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.1)
    return x


def _named_unit(bad: int, x: int) -> str:
    return f"the unit of {x}"


def test_a_worker_killed_from_outside_is_named_with_its_unit() -> None:
    from five35.executor import describes_units

    named = describes_units(_named_unit)(_kill_self_on)
    try:
        with pytest.raises(WorkerDied) as died:
            list(LocalExecutor(2).map(named, [3] * 6, range(6)))
    finally:
        del named.__five35_unit__  # type: ignore[attr-defined]  # the attribute describes_units set
    message = str(died.value)
    assert "killed by SIGKILL (out of memory, or kill -9)" in message, message
    assert "while running unit 4 of 6: the unit of 3" in message, message
    assert _children() == []


def test_a_worker_that_exits_is_named_with_its_exit_code_and_unit() -> None:
    with pytest.raises(WorkerDied) as died:
        list(LocalExecutor(2).map(_die, range(4)))
    assert "exited with code 7 while running unit 2 of 4: _die" in str(died.value)


def test_a_killed_pool_s_manager_thread_is_done_before_the_exit_hook_can_race_it() -> None:
    """Python 3.11's exit hook writes to a process pool's wake-up pipe without its lock; a pool killed
    by an interrupt whose manager thread was still closing that pipe printed "Bad file descriptor"
    with a traceback after the one-line interrupt message. `_kill` waits for the thread."""
    for _ in range(3):
        pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
        for _ in range(4):
            pool.submit(time.sleep, 30)
        manager = pool._executor_manager_thread
        assert manager is not None and manager.is_alive()
        local._kill(pool)
        assert not manager.is_alive()
