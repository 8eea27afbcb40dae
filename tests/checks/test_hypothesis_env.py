"""The Hypothesis helper: one settings function for every run, and the switch-off of Hypothesis's
local constants, which relies on a private function. These tests fail loudly when a Hypothesis
release breaks what the switch-off replaces, or when the pin in pyproject.toml drifts from the range
the helper was checked against."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from five35.checks.findings import CheckContext
from five35.checks.hypothesis_env import (
    SUPPORTED_HYPOTHESIS,
    HypothesisIncompatible,
    hypothesis_settings,
    local_constants_hook,
    private_hypothesis_home,
)
from five35.checks.play.matches import check_matches
from five35.spec import load_spec
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import storage_directory
from hypothesis.internal.conjecture import providers

ROOT = Path(__file__).resolve().parents[2]
# Far from every constant Hypothesis ships or five35's source holds.
MARKER = 987_654_321_123


def _bounds(spec: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    low, high = re.fullmatch(r">=([\d.]+),<([\d.]+)", spec).groups()  # type: ignore[union-attr]
    return tuple(map(int, low.split("."))), tuple(map(int, high.split(".")))


def test_pyproject_pins_the_range_the_helper_was_checked_against() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert f"hypothesis{SUPPORTED_HYPOTHESIS}" in deps
    low, high = _bounds(SUPPORTED_HYPOTHESIS)
    assert low <= hypothesis.__version_info__[: len(low)] and hypothesis.__version_info__[: len(high)] < high


def test_the_private_pieces_have_the_shape_the_helper_replaces() -> None:
    module, hook = local_constants_hook()
    assert module is providers and hook is providers._get_local_constants
    assert not inspect.signature(hook).parameters
    assert isinstance(hook(), providers.Constants)
    assert isinstance(providers.CONSTANTS_CACHE.cache, dict)
    assert storage_directory(intent_to_write=False).home_directory is not None


@pytest.mark.parametrize(
    ("patch", "problem"),
    [
        ("missing", "has no _get_local_constants"),
        ("takes_random", "_get_local_constants takes arguments"),
        ("no_constants", "has no Constants class"),
    ],
)
def test_a_changed_private_function_is_refused_loudly(
    monkeypatch: pytest.MonkeyPatch, patch: str, problem: str
) -> None:
    if patch == "missing":
        monkeypatch.delattr(providers, "_get_local_constants")
    elif patch == "takes_random":
        monkeypatch.setattr(providers, "_get_local_constants", lambda random: providers.Constants())
    else:
        monkeypatch.delattr(providers, "Constants")
    with pytest.raises(HypothesisIncompatible) as refused, private_hypothesis_home():
        pass
    message = str(refused.value)
    assert problem in message and f"hypothesis{SUPPORTED_HYPOTHESIS}" in message and "\n" not in message


def _draws(inside: bool) -> list[int]:
    seen: list[int] = []

    @hypothesis_settings(300)
    @hypothesis.seed(7)
    # Narrow bounds: the marker is then the only constant Hypothesis may pick, from any pool.
    @given(st.integers(MARKER - 10**6, MARKER + 10**6))
    def draw(x: int) -> None:
        seen.append(x)

    if inside:
        with private_hypothesis_home():
            draw()
    else:
        draw()
    return seen


def test_local_constants_are_drawn_outside_and_never_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A "local" module (not in site-packages, the standard library or a test directory) with a
    # constant: Hypothesis mixes such constants into its draws unless the helper switches them off.
    (tmp_path / "five35_marker_module.py").write_text(f"MARKER = {MARKER}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("five35_marker_module")
    try:
        assert MARKER in _draws(inside=False), (
            "Hypothesis no longer draws local constants: is the patch needed?"
        )
        inside = _draws(inside=True)
        assert MARKER not in inside
        assert inside == _draws(inside=True)  # same seed, same examples
    finally:
        sys.modules.pop("five35_marker_module", None)


def test_the_home_directory_is_restored(tmp_path: Path) -> None:
    before = storage_directory(intent_to_write=False).home_directory
    original = providers._get_local_constants
    with private_hypothesis_home():
        assert storage_directory(intent_to_write=False).home_directory != before
        assert providers._get_local_constants is not original
    assert storage_directory(intent_to_write=False).home_directory == before
    assert providers._get_local_constants is original


def _fields(s: settings) -> dict[str, Any]:
    names = [
        "max_examples",
        "derandomize",
        "database",
        "verbosity",
        "phases",
        "stateful_step_count",
        "report_multiple_bugs",
        "suppress_health_check",
        "deadline",
        "print_blob",
        "backend",
    ]
    return {name: getattr(s, name) for name in names}


def test_settings_do_not_depend_on_the_loaded_profile() -> None:
    plain = _fields(hypothesis_settings(10, steps=5))
    assert plain["derandomize"] and plain["database"] is None and plain["deadline"] is None
    assert plain["max_examples"] == 10 and plain["stateful_step_count"] == 5
    assert plain["verbosity"] == Verbosity.quiet and set(plain["suppress_health_check"]) == set(HealthCheck)
    assert tuple(plain["phases"]) == (Phase.explicit, Phase.generate, Phase.shrink)
    assert Phase.explain in hypothesis_settings(10, explain=True).phases
    previous = settings.get_current_profile_name()
    # What Hypothesis loads in CI, and worse.
    settings.register_profile(
        "five35-hostile",
        max_examples=3,
        derandomize=False,
        print_blob=True,
        stateful_step_count=1,
        verbosity=Verbosity.verbose,
        phases=[Phase.generate],
        suppress_health_check=[],
        report_multiple_bugs=True,
    )
    try:
        for name in ("ci", "five35-hostile"):
            settings.load_profile(name)
            assert _fields(hypothesis_settings(10, steps=5)) == plain
    finally:
        settings.load_profile(previous)


def test_a_check_generates_the_same_alone_as_after_the_whole_library_is_loaded(tmp_path: Path) -> None:
    # Loading more local modules (here: every five35 module and the tests' helpers) must not change
    # what a seed generates; a fresh interpreter that loads only the check is the reference.
    code = textwrap.dedent(
        """
        import json, sys
        if sys.argv[1] == "all":
            import five35.checks.fuzz.differential, five35.checks.runner  # noqa: F401
            import five35.cli, five35.reports  # noqa: F401
        from five35.checks.findings import CheckContext
        from five35.checks.play.matches import check_matches
        from five35.spec import load_spec
        spec = load_spec()
        result = check_matches(CheckContext(spec, spec.ruleset(), level="quick", seed=11))
        print(json.dumps([result.generated, list(result.notes)]))
        """
    )
    outputs = [
        subprocess.run(
            [sys.executable, "-c", code, which], cwd=tmp_path, capture_output=True, text=True, check=True
        ).stdout
        for which in ("alone", "all")
    ]
    assert outputs[0] == outputs[1] and outputs[0].strip()
    assert list(tmp_path.iterdir()) == []
    # And inside this test session, with pytest and the test modules loaded.
    spec = load_spec()
    here = check_matches(CheckContext(spec, spec.ruleset(), level="quick", seed=11))
    assert json.loads(outputs[0]) == [here.generated, list(here.notes)]
