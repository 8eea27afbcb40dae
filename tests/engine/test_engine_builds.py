"""The two builds of the engine (setup.py): compiled by mypyc, and pure Python from the source. Both
must play byte for byte the same games, and the pure-Python one must install where nothing can be
compiled.

- The installed engine (compiled after `pip install .`, the source itself in an editable checkout)
  against the source imported as pure Python in another process, over many seeded matches of every
  case of tests/engine_digests.py.
- Where the installed engine is the pure one, the compiled build is made here (setup.py build_ext,
  as `pip install .` does) and held to the same digests and to the recorded ones.
- Without a C compiler, or with FIVE35_PURE_PYTHON=1, the build succeeds and leaves no extension.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine_digests import many
from five35.engine.game import build

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT / "tests" / "engine_digests.py"
COMPONENTS = ("executor", "spec", "engine", "checks", "reports", "protocol", "cli")
#: Seeded matches per case, over 100 cases: 3 by default (about 330 matches), 12 under -m slow.
SIZES = [3, pytest.param(12, marks=pytest.mark.slow)]


def _tree(where: Path, engine: Path | None = None) -> Path:
    """A directory that imports as five35 from the checkout's source; with `engine`, its engine
    folder is a copy of the source with the compiled extensions from `engine` beside it."""
    package = where / "five35"
    package.mkdir(parents=True)
    # A regular package, as the installed five35 is: a namespace folder would lose to it on any path.
    (package / "__init__.py").symlink_to(ROOT / "__init__.py")
    for folder in COMPONENTS:
        if folder == "engine" and engine is not None:
            shutil.copytree(ROOT / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
            for built in (engine / "five35" / "engine").glob("*.so"):
                shutil.copy2(built, package / folder / built.name)
            for shared in engine.glob("*__mypyc*"):
                shutil.copy2(shared, where / shared.name)
        else:
            (package / folder).symlink_to(ROOT / folder, target_is_directory=True)
    return where


def _digests_in(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [sys.executable, str(DIGESTS), *args], capture_output=True, text=True, env=env, timeout=900
    )


def _many_in(tree: Path, matches: int) -> dict[str, Any]:
    result = _digests_in(tree, "--many", str(matches))
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def _build(tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`setup.py build_ext` into tmp/lib, with its staging and C files under tmp/work."""
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "-b", str(tmp / "lib"), "-t", str(tmp / "obj")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "FIVE35_BUILD_DIR": str(tmp / "work"), **env},
        timeout=900,
    )


@cache
def _here(matches: int) -> dict[str, str]:
    """The digests of the engine this process imports, played once: both tests below compare with
    them (tests/scheduling.py runs them in one worker)."""
    return many(matches)


def _can_compile() -> str | None:
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc (part of mypy) is not installed"
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler"
    return None


@pytest.mark.parametrize("matches", SIZES)
def test_the_installed_engine_plays_like_its_source(tmp_path: Path, matches: int) -> None:
    source = _many_in(_tree(tmp_path), matches)
    assert source["build"] == "pure Python"
    installed = _here(matches)
    assert set(installed) == set(source["digests"])
    differ = sorted(name for name, value in installed.items() if source["digests"][name] != value)
    assert not differ, f"the installed engine ({build()}) and its source differ in {differ}"


@pytest.mark.parametrize("matches", SIZES)
def test_the_compiled_engine_plays_like_its_source(tmp_path: Path, matches: int) -> None:
    if build() != "pure Python":
        pytest.skip(f"the installed engine is {build()}: the test above compares it with its source")
    why = _can_compile()
    if why is not None:
        pytest.skip(f"cannot compile here: {why}")
    made = _build(tmp_path, FIVE35_REQUIRE_COMPILED="1")
    assert made.returncode == 0, made.stderr[-3000:]
    tree = _tree(tmp_path / "compiled", engine=tmp_path / "lib")
    compiled = _many_in(tree, matches)
    assert compiled["build"].startswith("compiled by mypyc"), compiled["build"]
    source = _here(matches)  # the installed engine is the pure one here
    differ = sorted(name for name, value in source.items() if compiled["digests"].get(name) != value)
    assert not differ, f"the compiled engine and its source differ in {differ}"
    recorded = _digests_in(tree)  # and both equal the digests recorded before the engine was optimised
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr


@pytest.mark.parametrize(
    ("env", "why"),
    [({"CC": "false"}, "compiling it failed"), ({"FIVE35_PURE_PYTHON": "1"}, "FIVE35_PURE_PYTHON is set")],
    ids=["no-compiler", "asked-for"],
)
def test_the_pure_python_engine_builds_where_nothing_compiles(
    tmp_path: Path, env: dict[str, str], why: str
) -> None:
    if "CC" in env and importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypyc is not installed: the build is pure Python before any compiler is asked")
    made = _build(tmp_path, **env)
    assert made.returncode == 0, made.stderr[-3000:]
    assert f"installing the pure-Python engine: {why}" in made.stderr
    assert not list(tmp_path.glob("lib/**/*.so")), "a failed build left an extension behind"
