"""Bad command-line arguments and output paths, for every command: each is exit 2 (usage), one line
`535-check: error: PLACE: ...` naming the option, argument or file at fault, nothing on stdout, no
traceback, and no file left behind (so no output is written before the error either)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.cli.common import EXIT_USAGE
from five35.spec.limits import MAX_DEPTH, MAX_FILE_BYTES

Setup = Callable[[Path], None]


def _nothing(_: Path) -> None:
    return None


def _file(name: str, text: str) -> Setup:
    def make(cwd: Path) -> None:
        (cwd / name).write_text(text, encoding="utf-8")

    return make


def _dangling_link(name: str) -> Setup:
    def make(cwd: Path) -> None:
        os.symlink(cwd / "nowhere", cwd / name)

    return make


def _directory(name: str) -> Setup:
    def make(cwd: Path) -> None:
        (cwd / name).mkdir()

    return make


def _big_file(name: str) -> Setup:
    def make(cwd: Path) -> None:
        (cwd / name).write_bytes(b" " * (MAX_FILE_BYTES + 1))

    return make


BASELINE_FORMAT = '{"format": "five35-baseline/1", "findings": %s}'
# The checks these runs would do are never reached; a quick selection keeps a mistake cheap.
QUICK = ["--level", "quick", "--only", "graphs.beats"]

CASES: list[tuple[str, list[str], Setup, tuple[str, ...]]] = [
    # ---- rules
    ("rules-format", ["rules", "--format", "yaml"], _nothing, ("--format", "yaml")),
    ("rules-profile", ["rules", "--profile", "house"], _nothing, ("--profile", "house")),
    ("rules-reading-no-value", ["rules", "--reading", "run_wrap"], _nothing, ("--reading", "POINT=VALUE")),
    (
        "rules-reading-unknown",
        ["rules", "--reading", "run_wrap=sideways"],
        _nothing,
        ("--reading", "sideways"),
    ),
    ("rules-spec-missing", ["rules", "--spec", "missing.yaml"], _nothing, ("missing.yaml",)),
    ("rules-spec-directory", ["rules", "--spec", "d"], _directory("d"), ("--spec", "d")),
    ("rules-unknown-option", ["rules", "--bogus"], _nothing, ("--bogus", "no such option")),
    ("rules-extra-argument", ["rules", "extra"], _nothing, ("rules", "extra")),
    # ---- simulate
    ("simulate-players-low", ["simulate", "--players", "1"], _nothing, ("--players", "1")),
    ("simulate-players-word", ["simulate", "--players", "four"], _nothing, ("--players", "four")),
    ("simulate-games-zero", ["simulate", "--games", "0"], _nothing, ("--games", "0")),
    ("simulate-games-negative", ["simulate", "--games", "-5"], _nothing, ("--games", "-5")),
    ("simulate-seed-negative", ["simulate", "--seed", "-1"], _nothing, ("--seed", "-1")),
    ("simulate-seed-fraction", ["simulate", "--seed", "1.5"], _nothing, ("--seed", "1.5")),
    ("simulate-seed-huge", ["simulate", "--seed", str(2**64)], _nothing, ("--seed", str(2**64))),
    ("simulate-seed-no-value", ["simulate", "--seed"], _nothing, ("--seed",)),
    ("simulate-jobs-zero", ["simulate", "--jobs", "0"], _nothing, ("--jobs", "0")),
    ("simulate-jobs-many", ["simulate", "--jobs", "65"], _nothing, ("--jobs", "65")),
    ("simulate-mode", ["simulate", "--mode", "tournament"], _nothing, ("--mode", "tournament")),
    ("simulate-bots-unknown", ["simulate", "--bots", "random,clever"], _nothing, ("--bots", "clever")),
    ("simulate-format", ["simulate", "--format", "xml"], _nothing, ("--format", "xml")),
    # ---- check
    ("check-level", ["check", "--level", "slow"], _nothing, ("--level", "slow")),
    ("check-seed-negative", ["check", *QUICK, "--seed", "-3"], _nothing, ("--seed", "-3")),
    ("check-format", ["check", *QUICK, "--format", "pdf"], _nothing, ("--format", "pdf")),
    ("check-only-unknown", ["check", *QUICK[:2], "--only", "nope"], _nothing, ("nope",)),
    # `--only=` (an unset shell variable) must not quietly select every check.
    ("check-only-empty", ["check", *QUICK[:2], "--only="], _nothing, ("--only", "empty string")),
    # ... nor `--profile=` quietly mean the default profile, in any command.
    ("check-profile-empty", ["check", *QUICK, "--profile="], _nothing, ("--profile", "empty string")),
    ("rules-profile-empty", ["rules", "--profile="], _nothing, ("--profile", "empty string")),
    ("simulate-profile-blank", ["simulate", "--profile", " "], _nothing, ("--profile", "empty string")),
    ("check-timeout-nan", ["check", *QUICK, "--timeout", "nan"], _nothing, ("--timeout", "nan")),
    ("check-timeout-zero", ["check", *QUICK, "--timeout", "0"], _nothing, ("--timeout", "0")),
    # Names over 255 bytes: Path.is_dir() raises on them instead of answering.
    (
        "check-output-name-too-long",
        ["check", *QUICK, "--output-file", "o" * 256],
        _nothing,
        ("--output-file", "too long"),
    ),
    ("report-out-name-too-long", ["report", "--out", "o" * 256], _nothing, ("--out", "too long")),
    ("check-engine-kind", ["check", *QUICK, "--engine", "java:x"], _nothing, ("--engine", "java:x")),
    (
        "check-engine-module",
        ["check", *QUICK, "--engine", "python:no_such_module_x:make"],
        _nothing,
        ("--engine", "no_such_module_x"),
    ),
    (
        "check-output-no-directory",
        ["check", *QUICK, "--output-file", "nodir/x.xml"],
        _nothing,
        ("--output-file", "nodir"),
    ),
    (
        "check-output-is-directory",
        ["check", *QUICK, "--output-file", "d"],
        _directory("d"),
        ("--output-file",),
    ),
    (
        # Found: out.xml used to be written before the baseline failed.
        "check-baseline-unwritable-after-output",
        ["check", *QUICK, "--output-file", "out.xml", "--write-baseline", "/proc/x.json"],
        _nothing,
        ("--write-baseline", "/proc"),
    ),
    (
        "check-output-twice",
        ["check", *QUICK, "--output-file", "a.json", "--write-baseline", "a.json"],
        _nothing,
        ("--write-baseline", "a.json", "--output-file"),
    ),
    (
        # As root, a rename onto /dev/null would replace the device with a file.
        "check-output-device",
        ["check", *QUICK, "--write-baseline", "/dev/null"],
        _nothing,
        ("--write-baseline", "/dev/null", "not a regular file"),
    ),
    ("check-output-stdout", ["check", *QUICK, "--output-file", "/dev/stdout"], _nothing, ("--output-file",)),
    ("check-output-empty", ["check", *QUICK, "--output-file", ""], _nothing, ("--output-file", "empty")),
    ("check-baseline-missing", ["check", *QUICK, "--baseline", "missing.json"], _nothing, ("missing.json",)),
    ("check-baseline-directory", ["check", *QUICK, "--baseline", "d"], _directory("d"), ("d", "baseline")),
    (
        "check-baseline-not-json",
        ["check", *QUICK, "--baseline", "b.json"],
        _file("b.json", '{"format": \n'),
        ("b.json", "line 2", "not valid JSON"),
    ),
    (
        "check-baseline-too-deep",
        ["check", *QUICK, "--baseline", "b.json"],
        _file("b.json", "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)),
        ("b.json", "nested"),
    ),
    (
        "check-baseline-too-big",
        ["check", *QUICK, "--baseline", "b.json"],
        _big_file("b.json"),
        ("b.json", "over the limit"),
    ),
    (
        "check-baseline-format",
        ["check", *QUICK, "--baseline", "b.json"],
        _file("b.json", '{"format": "junit"}'),
        ("b.json", "format"),
    ),
    (
        "check-baseline-findings",
        ["check", *QUICK, "--baseline", "b.json"],
        _file("b.json", BASELINE_FORMAT % '"all"'),
        ("b.json", "findings"),
    ),
    (
        "check-baseline-entry",
        ["check", *QUICK, "--baseline", "b.json"],
        _file("b.json", BASELINE_FORMAT % '[{"id": "a"}, {"kind": "x"}]'),
        ("b.json", "findings[1]"),
    ),
    ("check-nan-seed", ["check", *QUICK, "--seed", "nan"], _nothing, ("--seed", "nan")),
    # ---- report
    ("report-games-zero", ["report", "--games", "0"], _nothing, ("--games", "0")),
    ("report-games-word", ["report", "--games", "many"], _nothing, ("--games", "many")),
    ("report-seed-negative", ["report", "--seed", "-1"], _nothing, ("--seed", "-1")),
    ("report-jobs-zero", ["report", "--jobs", "0"], _nothing, ("--jobs", "0")),
    (
        "report-solver-rlimit-zero",
        ["report", "--solver-rlimit", "0"],
        _nothing,
        ("--solver-rlimit", "expected a whole number from 1 to 4294967295, got 0"),
    ),
    (
        "check-solver-rlimit-too-large",
        ["check", *QUICK, "--solver-rlimit", "4294967296"],
        _nothing,
        ("--solver-rlimit", "got 4294967296"),
    ),
    (
        "check-solver-rlimit-word",
        ["check", *QUICK, "--solver-rlimit", "lots"],
        _nothing,
        ("--solver-rlimit", "lots"),
    ),
    ("report-level", ["report", "--level", "slow"], _nothing, ("--level", "slow")),
    ("report-out-is-file", ["report", "--out", "f"], _file("f", "x"), ("--out", "f")),
    ("report-out-under-file", ["report", "--out", "f/r"], _file("f", "x"), ("--out", "f")),
    ("report-out-unwritable", ["report", "--out", "/proc/r"], _nothing, ("--out", "/proc")),
    ("report-out-dangling-link", ["report", "--out", "r"], _dangling_link("r"), ("--out", "r")),
    ("report-out-empty", ["report", "--out", ""], _nothing, ("--out", "empty")),
    ("report-out-system", ["report", "--out", "/dev/shm/r"], _nothing, ("--out", "/dev")),
    ("report-profile", ["report", "--profile", "house"], _nothing, ("--profile", "house")),
    # ---- serve
    ("serve-profile", ["serve", "--profile", "house"], _nothing, ("--profile", "house")),
    ("serve-reading", ["serve", "--reading", "nope=x"], _nothing, ("--reading", "nope")),
    ("serve-unknown-option", ["serve", "--port", "80"], _nothing, ("--port",)),
    # ---- fuzz
    ("fuzz-no-engine", ["fuzz"], _nothing, ("--engine", "missing")),
    ("fuzz-examples-zero", ["fuzz", "--engine", "x", "--examples", "0"], _nothing, ("--examples", "0")),
    ("fuzz-time-budget", ["fuzz", "--engine", "x", "--time-budget", "0"], _nothing, ("--time-budget",)),
    ("fuzz-seed", ["fuzz", "--engine", "x", "--seed", "s"], _nothing, ("--seed", "s")),
    ("fuzz-seed-negative", ["fuzz", "--engine", "x", "--seed", "-2"], _nothing, ("--seed", "-2")),
    ("fuzz-players", ["fuzz", "--engine", "x", "--players", "9"], _nothing, ("--players", "9")),
    (
        "fuzz-replay-out-no-directory",
        ["fuzz", "--engine", "x", "--replay-out", "nodir/r.json"],
        _nothing,
        ("--replay-out", "nodir"),
    ),
    # ---- replay
    ("replay-no-file", ["replay", "--engine", "x"], _nothing, ("FILE", "missing")),
    ("replay-no-engine", ["replay", "r.json"], _file("r.json", "{}"), ("--engine", "missing")),
    ("replay-missing-file", ["replay", "missing.json", "--engine", "x"], _nothing, ("missing.json",)),
    ("replay-not-json", ["replay", "r.json", "--engine", "x"], _file("r.json", "{"), ("r.json",)),
    # ---- perft
    ("perft-depth", ["perft", "--players", "4", "--seed", "1", "--depth", "13"], _nothing, ("--depth", "13")),
    ("perft-players", ["perft", "--players", "1", "--seed", "1", "--depth", "1"], _nothing, ("--players",)),
    ("perft-no-seed", ["perft", "--players", "4", "--depth", "1"], _nothing, ("--seed", "missing")),
    (
        "perft-seed-word",
        ["perft", "--players", "4", "--seed", "x", "--depth", "1"],
        _nothing,
        ("--seed", "x"),
    ),
    (
        "perft-seed-negative",
        ["perft", "--players", "4", "--seed", "-1", "--depth", "1"],
        _nothing,
        ("--seed", "-1"),
    ),
    # ---- the default job (no command) and the top level
    ("default-out-is-file", [], _file("535-report", "x"), ("535-report", "not a directory")),
    ("default-out-dangling-link", [], _dangling_link("535-report"), ("535-report", "not a directory")),
    ("top-unknown-option", ["--bogus"], _nothing, ("--bogus", "no such option")),
    ("top-unknown-command", ["simulat"], _nothing, ("simulat", "no such command", "simulate")),
]


def test_there_are_enough_cases_for_every_command() -> None:
    assert len(CASES) >= 45
    assert len({name for name, *_ in CASES}) == len(CASES)
    commands = {args[0] if args and not args[0].startswith("-") else "" for _, args, _, _ in CASES}
    assert commands >= {"rules", "simulate", "check", "report", "serve", "fuzz", "replay", "perft", ""}


@pytest.mark.parametrize(("args", "setup", "needles"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_naming_the_place(
    tmp_path: Path, args: list[str], setup: Setup, needles: tuple[str, ...]
) -> None:
    setup(tmp_path)
    run_bad_input(args, EXIT_USAGE, *needles, cwd=tmp_path)


def test_help_has_a_short_alias() -> None:
    from click.testing import CliRunner
    from five35.cli.main import main

    for args in (["-h"], ["simulate", "-h"], ["check", "-h"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("Usage: ")


# ---- the surfaces added since the first hostile-input work (issue 20) ------------------------------
#
# merge, vectors, rulebook, [tool.five35], --executor/--scheduler, --campaign, --root,
# GITHUB_STEP_SUMMARY and shell completion: each refuses bad input in one line with the documented
# exit code, leaves nothing behind, and does so at once. "At once" is measured in CPU seconds of this
# process (a loaded machine stretches the wall clock, not the work), with a wall-clock bound only to
# catch a hang.

CPU_BOUND = 5.0  # seconds of CPU a refusal may take
HANG_BOUND = 30.0  # wall-clock seconds past which a refusal is a hang, on any machine

Env = dict[str, str | None]
EXAMPLE_ENGINE = f"python {Path(__file__).resolve().parents[2] / 'examples' / 'engine535.py'}"


def _simulate_part(name: str, *extra: str) -> str:
    from click.testing import CliRunner
    from five35.cli.main import main

    args = ["simulate", "--players", "3", "--seed", "9", "--format", "json", *extra]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _parts(*edits: tuple[str, Callable[[str], str]]) -> Setup:
    """Two adjacent parts of one campaign, a.json and b.json, with b.json then edited."""

    def make(cwd: Path) -> None:
        (cwd / "a.json").write_text(_simulate_part("a", "--games", "2"))
        text = _simulate_part("b", "--games", "2", "--first-game", "2")
        for _, edit in edits:
            text = edit(text)
        (cwd / "b.json").write_text(text)

    return make


def _pyproject(text: str) -> Setup:
    return _file("pyproject.toml", text)


def _bytes(name: str, data: bytes) -> Setup:
    def make(cwd: Path) -> None:
        (cwd / name).write_bytes(data)

    return make


def _link_into_nowhere(name: str) -> Setup:
    """A link to a file in a directory that does not exist: appending through it cannot work."""

    def make(cwd: Path) -> None:
        os.symlink(cwd / "gone" / name, cwd / name)

    return make


def _fifo(name: str) -> Setup:
    def make(cwd: Path) -> None:
        os.mkfifo(cwd / name)

    return make


def _both(*setups: Setup) -> Setup:
    def make(cwd: Path) -> None:
        for setup in setups:
            setup(cwd)

    return make


COMPLETE = "_535_CHECK_COMPLETE"

#: (name, arguments, setup, environment, exit code, words the one line must hold)
SURFACES: list[tuple[str, list[str], Setup, Env, int, tuple[str, ...]]] = [
    # ---- merge: parts cut short, tampered, or not files at all
    (
        "merge-truncated-part",
        ["merge", "a.json", "b.json"],
        _parts(("cut", lambda t: t[: len(t) // 2])),
        {},
        2,
        ("b.json", "not valid JSON"),
    ),
    (
        "merge-part-with-a-key-twice",
        ["merge", "a.json", "b.json"],
        _parts(("twice", lambda t: t.replace("{", '{"first_game": 0, ', 1))),
        {},
        2,
        ("b.json", "'first_game' appears twice"),
    ),
    (
        "merge-part-with-stats-edited",
        ["merge", "a.json", "b.json"],
        _parts(("games", lambda t: t.replace('"games": 2', '"games": 3', 1))),
        {},
        2,
        ("b.json",),
    ),
    ("merge-part-is-a-directory", ["merge", "d"], _directory("d"), {}, 2, ("d", "directory")),
    ("merge-part-is-empty", ["merge", "e.json"], _file("e.json", ""), {}, 2, ("e.json", "not valid JSON")),
    ("merge-part-is-endless", ["merge", "/dev/zero"], _nothing, {}, 2, ("/dev/zero", "over the limit")),
    ("merge-part-not-utf8", ["merge", "x.json"], _bytes("x.json", b'{"\xff": 1}'), {}, 2, ("x.json",)),
    # ---- vectors: an --out that cannot become the suite's directory
    ("vectors-out-is-a-file", ["vectors", "--out", "f"], _file("f", "x"), {}, 2, ("--out", "f", "file")),
    ("vectors-out-under-a-file", ["vectors", "--out", "f/v"], _file("f", "x"), {}, 2, ("--out", "f")),
    ("vectors-out-system", ["vectors", "--out", "/proc/v"], _nothing, {}, 2, ("--out", "/proc")),
    ("vectors-out-empty", ["vectors", "--out", ""], _nothing, {}, 2, ("--out", "empty")),
    ("vectors-seed", ["vectors", "--out", "v", "--seed", "-1"], _nothing, {}, 2, ("--seed", "-1")),
    # ---- rulebook
    ("rulebook-lang", ["rulebook", "--lang", "fr"], _nothing, {}, 2, ("--lang", "fr")),
    ("rulebook-no-lang", ["rulebook"], _nothing, {}, 2, ("--lang", "missing")),
    (
        "rulebook-out-is-a-directory",
        ["rulebook", "--lang", "de", "--out", "d"],
        _directory("d"),
        {},
        2,
        ("--out",),
    ),
    (
        "rulebook-out-under-a-file",
        ["rulebook", "--lang", "de", "--out", "f/r.md"],
        _file("f", "x"),
        {},
        2,
        ("--out", "'f' is not a directory"),
    ),
    (
        "rulebook-out-device",
        ["rulebook", "--lang", "es", "--out", "/dev/null"],
        _nothing,
        {},
        2,
        ("/dev/null",),
    ),
    (
        "rulebook-format",
        ["rulebook", "--lang", "en", "--format", "pdf"],
        _nothing,
        {},
        2,
        ("--format", "pdf"),
    ),
    # ---- [tool.five35] in pyproject.toml
    ("config-not-toml", ["rules"], _pyproject("[tool.five35\n"), {}, 2, ("pyproject.toml:1", "TOML")),
    (
        "config-unknown-key",
        ["rules"],
        _pyproject('[tool.five35]\nlevle = "ci"\n'),
        {},
        2,
        ("pyproject.toml:2: tool.five35.levle", "unknown setting"),
    ),
    (
        "config-bad-level",
        ["rules"],
        _pyproject('[tool.five35]\nlevel = "slow"\n'),
        {},
        2,
        ("pyproject.toml:2: tool.five35.level", "slow"),
    ),
    ("config-number", ["rules"], _pyproject("[tool.five35]\nlevel = 3\n"), {}, 2, ("tool.five35.level", "3")),
    (
        "config-sub-table",
        ["rules"],
        _pyproject("[tool.five35.extra]\nx = 1\n"),
        {},
        2,
        ("pyproject.toml:1: tool.five35.extra",),
    ),
    ("config-not-a-table", ["rules"], _pyproject("[tool]\nfive35 = 3\n"), {}, 2, ("tool.five35", "table")),
    (
        "config-spec-missing",
        ["rules"],
        _pyproject('[tool.five35]\nspec = "house.yaml"\n'),
        {},
        2,
        ("tool.five35.spec", "house.yaml"),
    ),
    (
        "config-profile-unknown",
        ["rules"],
        _pyproject('[tool.five35]\nprofile = "house"\n'),
        {},
        2,
        ("pyproject.toml:2: tool.five35.profile", "house"),
    ),
    (
        "config-dask-without-scheduler",
        ["simulate", "--games", "1"],
        _pyproject('[tool.five35]\nexecutor = "dask"\n'),
        {},
        2,
        ("pyproject.toml:2: tool.five35.executor", "--scheduler"),
    ),
    (
        "config-only-not-an-array",
        ["check", "--level", "quick"],
        _pyproject('[tool.five35]\nonly = "graphs"\n'),
        {},
        2,
        ("pyproject.toml:2: tool.five35.only", "array"),
    ),
    (
        "config-only-unknown-check",
        ["check", "--level", "quick"],
        _pyproject('[tool.five35]\nlevel = "quick"\nonly = ["graphs", "grpahs"]\n'),
        {},
        2,
        ("pyproject.toml:3: tool.five35.only", "'grpahs'"),
    ),
    (
        "config-not-utf8",
        ["rules"],
        _bytes("pyproject.toml", b"[tool.five35]\nlevel = '\xff'\n"),
        {},
        2,
        ("pyproject.toml", "UTF-8"),
    ),
    # ---- --executor / --scheduler (a silent scheduler: test_a_scheduler_that_never_answers_...)
    (
        "scheduler-not-an-address",
        ["simulate", "--games", "1", "--executor", "dask", "--scheduler", "not an address"],
        _nothing,
        {},
        2,
        ("--scheduler", "not a Dask scheduler address"),
    ),
    (
        "scheduler-port-out-of-range",
        ["simulate", "--games", "1", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:99999"],
        _nothing,
        {},
        2,
        ("--scheduler", "port 99999"),
    ),
    (
        "scheduler-refused",
        ["simulate", "--games", "1", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"],
        _nothing,
        {},
        2,
        ("--scheduler", "cannot reach a Dask scheduler at tcp://127.0.0.1:9"),
    ),
    (
        "scheduler-with-local",
        ["simulate", "--games", "1", "--scheduler", "tcp://127.0.0.1:8786"],
        _nothing,
        {},
        2,
        ("--scheduler", "--executor dask"),
    ),
    ("executor-unknown", ["report", "--executor", "ray"], _nothing, {}, 2, ("--executor", "ray")),
    # ---- fuzz --campaign
    ("campaign-zero", ["fuzz", "--engine", "x", "--campaign", "0"], _nothing, {}, 2, ("--campaign", "0")),
    ("campaign-word", ["fuzz", "--engine", "x", "--campaign", "many"], _nothing, {}, 2, ("--campaign",)),
    ("campaign-huge", ["fuzz", "--engine", "x", "--campaign", "10000001"], _nothing, {}, 2, ("--campaign",)),
    (
        "campaign-jobs-alone",
        ["fuzz", "--engine", "x", "--jobs", "2"],
        _nothing,
        {},
        2,
        ("--jobs", "--campaign"),
    ),
    (
        "campaign-replay-out-under-a-file",
        ["fuzz", "--engine", EXAMPLE_ENGINE, "--campaign", "2", "--replay-out", "f/r.json"],
        _file("f", "x"),
        {},
        2,
        ("--replay-out",),
    ),
    # ---- check --root
    ("root-missing", ["check", *QUICK, "--root", "nowhere"], _nothing, {}, 2, ("--root", "nowhere")),
    ("root-is-a-file", ["check", *QUICK, "--root", "f"], _file("f", "x"), {}, 2, ("--root", "f")),
    ("root-empty", ["check", *QUICK, "--root", ""], _nothing, {}, 2, ("--root", "empty")),
    # ---- GITHUB_STEP_SUMMARY: refused before the checks run
    (
        "summary-is-a-directory",
        ["check", *QUICK],
        _directory("s"),
        {"GITHUB_STEP_SUMMARY": "s"},
        2,
        ("GITHUB_STEP_SUMMARY", "s is not a regular file"),
    ),
    (
        "summary-link-into-nowhere",
        ["check", *QUICK],
        _link_into_nowhere("s.md"),
        {"GITHUB_STEP_SUMMARY": "s.md"},
        2,
        ("GITHUB_STEP_SUMMARY", "s.md", "in no directory"),
    ),
    (
        "summary-no-directory",
        ["check", *QUICK],
        _nothing,
        {"GITHUB_STEP_SUMMARY": "nodir/s.md"},
        2,
        ("GITHUB_STEP_SUMMARY", "nodir"),
    ),
    (
        "summary-device",
        ["check", *QUICK],
        _nothing,
        {"GITHUB_STEP_SUMMARY": "/dev/null"},
        2,
        ("GITHUB_STEP_SUMMARY", "/dev"),
    ),
    (
        "summary-fifo",
        ["check", *QUICK],
        _fifo("s.fifo"),
        {"GITHUB_STEP_SUMMARY": "s.fifo"},
        2,
        ("GITHUB_STEP_SUMMARY", "s.fifo"),
    ),
    # ---- shell completion: a bad completion environment
    (
        "completion-unknown-shell",
        [],
        _nothing,
        {COMPLETE: "tcsh_source"},
        2,
        (COMPLETE, "unknown shell 'tcsh'"),
    ),
    (
        "completion-unknown-instruction",
        [],
        _nothing,
        {COMPLETE: "bash_install"},
        2,
        (COMPLETE, "bash_source or bash_complete"),
    ),
    (
        "completion-cword-not-a-number",
        [],
        _nothing,
        {COMPLETE: "bash_complete", "COMP_WORDS": "535-check rules --profile ", "COMP_CWORD": "x"},
        2,
        ("COMP_CWORD", "'x'"),
    ),
    (
        "completion-cword-missing",
        [],
        _nothing,
        {COMPLETE: "zsh_complete", "COMP_WORDS": "535-check rules --profile ", "COMP_CWORD": None},
        2,
        ("COMP_CWORD", "missing"),
    ),
]


def test_every_new_surface_has_its_own_bad_input() -> None:
    assert len({name for name, *_ in SURFACES}) == len(SURFACES)
    groups = {name.split("-")[0] for name, *_ in SURFACES}
    expected = {"merge", "vectors", "rulebook", "config", "scheduler", "executor", "campaign", "root"}
    assert groups >= expected | {"summary", "completion"}


def _cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize(
    ("args", "setup", "env", "code", "needles"), [c[1:] for c in SURFACES], ids=[c[0] for c in SURFACES]
)
def test_a_new_surface_refuses_bad_input_in_one_line_at_once(
    tmp_path: Path, args: list[str], setup: Setup, env: Env, code: int, needles: tuple[str, ...]
) -> None:
    setup(tmp_path)
    cpu, wall = _cpu(), time.monotonic()
    run_bad_input(args, code, *needles, cwd=tmp_path, env={"GITHUB_STEP_SUMMARY": None, **env})
    assert _cpu() - cpu < CPU_BOUND
    assert time.monotonic() - wall < HANG_BOUND


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A TCP port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join(2)
        for connection in accepted:
            connection.close()
        server.close()


def test_a_scheduler_that_accepts_and_never_answers_is_refused_within_its_limit(
    tmp_path: Path, silent_port: int
) -> None:
    from five35.executor import PROBE_TIMEOUT

    address = f"tcp://127.0.0.1:{silent_port}"
    wall = time.monotonic()
    run_bad_input(
        ["simulate", "--games", "1", "--executor", "dask", "--scheduler", address],
        2,
        "--scheduler",
        f"cannot reach a Dask scheduler at {address} (no answer within {PROBE_TIMEOUT:g} s)",
        cwd=tmp_path,
    )
    # The limit is a socket timeout: a loaded machine adds start-up time, not waiting time.
    assert PROBE_TIMEOUT < 5
    assert time.monotonic() - wall < PROBE_TIMEOUT + HANG_BOUND / 2
