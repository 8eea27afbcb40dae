"""Bad command-line arguments and output paths, for every command: each is exit 2 (usage), one line
`535-check: error: PLACE: ...` naming the option, argument or file at fault, nothing on stdout, no
traceback, and no file left behind (so no output is written before the error either)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.cli.main import EXIT_USAGE
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
