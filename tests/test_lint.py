"""ruff and mypy over the whole tree, so the test command is also the lint gate.

The repository's root is the package five35 and its folders the sub-packages; mypy sees them
through a temporary tree of symlinks laid out the way they install.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPONENTS = {
    "executor": "executor",
    "spec": "spec",
    "engine": "engine",
    "checks": "checks",
    "reports": "reports",
    "protocol": "protocol",
    "cli": "cli",
}


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    result = _run(["ruff", "check", "--no-cache", "."], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean(tmp_path: Path) -> None:
    package = tmp_path / "five35"
    package.mkdir()
    (package / "__init__.py").symlink_to(ROOT / "__init__.py")
    (package / "py.typed").symlink_to(ROOT / "py.typed")
    for name, folder in COMPONENTS.items():
        if (ROOT / folder).is_dir():
            (package / name).symlink_to(ROOT / folder, target_is_directory=True)
    result = _run(
        [
            "mypy",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            # A path, not `-p five35`: with -p mypy would check an installed copy in site-packages
            # when there is one, instead of this source tree.
            "five35",
        ],
        tmp_path,
    )
    if "No module named mypy" in result.stderr:
        pytest.fail("mypy is not installed: install the test extra, pip install '.[test]'")
    assert result.returncode == 0, result.stdout + result.stderr
