"""How the suite is spread over pytest-xdist's worker processes (tests/conftest.py uses it; so does
tests/test_scheduling.py, which holds it to the tests that exist)."""

from __future__ import annotations

#: Tests that share an in-process cache or a module fixture too costly to build in each worker, by
#: node id prefix, with the group that runs them in one worker process. (Not xdist_group marks:
#: pytest-xdist 3.8 groups by rewriting a node's id, which pytest 9 no longer reads.)
SHARED = (
    ("tests/executor/test_executor_dask.py::", "dask"),  # one LocalCluster
    ("tests/reports/test_report_browser.py::", "browser"),  # one Chromium
    ("tests/reports/test_questions.py::", "full_report"),  # test_reports.full_report(), cached
    ("tests/reports/test_consistency.py::", "full_report"),
    ("tests/reports/test_reports.py::test_every_finding_of_a_full_report_", "full_report"),
    ("tests/reports/test_reports.py::test_every_settled_candidate_of_a_full_report_", "full_report"),
    ("tests/reports/test_reports.py::test_every_proved_property_of_a_full_report_", "full_report"),
    ("tests/reports/test_reports.py::test_findings_that_cannot_change_play_", "full_report"),
    # the Z3 checks of a fresh process against the report's (tests/full_report.py)
    ("tests/checks/solver/test_solver_determinism.py::test_the_z3_checks_at_level_ci_", "full_report"),
    ("tests/checks/discovery/test_hidden_points.py::", "hidden_points"),  # the recall fixture
    ("tests/protocol/test_vectors.py::", "vectors"),  # the suites, files and witnesses, cached
    ("tests/cli/test_issue11_examples.py::", "issue11"),  # outcomes starts every selected example
    ("tests/checks/oracles/test_compiled_agreement.py::", "compiled_agreement"),  # the swept domain
    ("tests/checks/solver/test_divergence.py::", "divergence"),  # the witnesses, memoised per process
    ("tests/checks/solver/test_divergence_canonical.py::", "divergence"),
    ("tests/test_architecture.py::", "architecture"),  # the import graph, read once
    ("tests/checks/discovery/test_interactions.py::", "interactions"),  # the check's module fixture
    # the source's digests, played once (test_engine_builds._here)
    ("tests/engine/test_engine_builds.py::test_the_installed_engine_plays_like_its_source", "engine_builds"),
    ("tests/engine/test_engine_builds.py::test_the_compiled_engine_plays_like_its_source", "engine_builds"),
)

#: Tests that take a minute or so each on the 2-core machine, longest first. The scheduler hands
#: out the shared groups first (largest first), then the other tests in this order: one of these
#: started last would leave a worker alone with it at the end of the run.
LONGEST_FIRST = (
    "tests/engine/test_engine_builds.py::",
    "tests/checks/solver/test_divergence_canonical.py::",
    "tests/checks/oracles/test_compiled_agreement.py::",
    "tests/test_lint.py::",
)


def group_of(nodeid: str) -> str:
    """The scope a test is scheduled in: its SHARED group, or the test alone."""
    return next((group for prefix, group in SHARED if nodeid.startswith(prefix)), nodeid)
