"""The worker scheduling (tests/scheduling.py) names tests that exist: a renamed module or test would
otherwise leave its group silently split over the workers (its fixture built in each)."""

from __future__ import annotations

import ast
from pathlib import Path

from scheduling import LONGEST_FIRST, SHARED, group_of

ROOT = Path(__file__).resolve().parent.parent


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    }


def test_every_prefix_names_a_module_and_tests_in_it() -> None:
    for prefix in [prefix for prefix, _ in SHARED] + list(LONGEST_FIRST):
        module, _, name = prefix.partition("::")
        path = ROOT / module
        assert path.is_file(), prefix
        assert any(test.startswith(name) for test in _tests_in(path)), prefix


def test_a_test_outside_the_groups_is_scheduled_alone() -> None:
    assert group_of("tests/engine/test_bots.py::test_x") == "tests/engine/test_bots.py::test_x"
    assert group_of("tests/reports/test_questions.py::test_x[full]") == "full_report"
    assert group_of("tests/reports/test_reports.py::test_the_real_checks_feed_the_report").startswith(
        "tests/"
    )
