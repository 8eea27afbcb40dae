"""Keep Hypothesis' working files out of the checkout (they go to the temp directory), and hand the
longest tests to the worker processes first."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / "five35-hypothesis"))

#: Tests that take a minute or so each on the 2-core machine, longest first. pytest-xdist hands out
#: the xdist_group scopes first (largest first), then the other tests in this order: one of these
#: started last would leave a worker alone with it at the end of the run.
LONGEST_FIRST = (
    "tests/test_ci_integrations.py::test_the_pre_commit_hook_checks_changed_spec_files",
    "tests/engine/test_engine_builds.py::",
    "tests/checks/solver/test_divergence_canonical.py::",
    "tests/test_lint.py::",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the rest keep their order
