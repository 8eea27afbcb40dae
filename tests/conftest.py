"""Keep Hypothesis' working files out of the checkout (they go to the temp directory), and spread
the tests over pytest-xdist's worker processes (`-n auto --dist loadgroup` in pyproject.toml, one
worker more than the cores):
tests that share a costly fixture run in one worker, the longest are handed out first."""

from __future__ import annotations

import gc
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from five35.executor import tune_gc
from hypothesis.configuration import set_hypothesis_home_dir
from scheduling import LONGEST_FIRST, group_of

set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / "five35-hypothesis"))
# The tests run the checks in their own processes under the collector settings the command uses.
tune_gc()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores `-n auto` may use: about a tenth of the suite is waiting (a
    hanging engine waited out, a command's reply to a signal, a cluster or a browser starting), and
    the extra worker keeps the cores busy meanwhile (on the 2-core machine 337 s rather than 374 s)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtures(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return SharedFixtures(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the rest keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    # What importing and collecting made (modules, test items, strategies) lives to the end of the
    # run: the collector's full scans need not walk it again and again.
    gc.freeze()
