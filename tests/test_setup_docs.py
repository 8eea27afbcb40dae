"""The README's set-up is what CI runs: exactly two commands, and `.ci/run` runs the second one,
word for word, and nothing else; that command installs what the tests need (Chromium for the
browser test) only when it is missing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "the set-up section has one shell block"
    return [line for line in blocks[0].splitlines() if line.strip()]


def _ci_commands() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    body = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    # Shell settings and moving to the checkout's root are not steps of their own.
    return [line for line in body if line not in ("set -euo pipefail", 'cd "$(dirname "$0")/.."')]


def test_the_readme_has_exactly_two_setup_commands() -> None:
    commands = _setup_commands()
    assert len(commands) == 2, commands
    assert commands[0].startswith("pip install . && 535-check")
    assert commands[1].endswith("pip install '.[test]' && python -m pytest")


def test_ci_runs_the_readme_test_command_and_nothing_else() -> None:
    assert _ci_commands() == [_setup_commands()[1]]
    result = subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_test_command_installs_chromium_only_when_missing() -> None:
    command = _setup_commands()[1]
    guard, _, rest = command.partition(" || ")
    assert guard == "(test -x /usr/bin/chromium"
    assert "apt-get update" in rest and "apt-get install -y -qq chromium" in rest
    # The browser test drives exactly the binary the guard looks for.
    browser_test = (ROOT / "tests" / "reports" / "test_report_browser.py").read_text(encoding="utf-8")
    assert '"/usr/bin/chromium"' in browser_test
