"""The habits a command-line user expects: -h and an example in every help, -q/-v, defaults in
pyproject.toml, shell completion, one style for bad numbers, plurals, progress in a CI log."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.shell_completion import BashComplete
from click.testing import CliRunner
from five35.cli import main, progress
from five35.cli.config import key_lines
from five35.cli.main import COMMAND_MODULES
from five35.reports.check_formats import plural
from five35.spec import load_spec

from tests.cli_tools import run_bad_input

SPEC = load_spec()
CTX = click.Context(main)
COMMANDS = main.list_commands(CTX)


def command(name: str) -> click.Command:
    found = main.get_command(CTX, name)
    assert found is not None, name
    return found


def test_every_command_module_states_the_commands_the_group_lists_for_it() -> None:
    stated: dict[str, str] = {}
    for module in sorted(set(COMMAND_MODULES.values())):
        for cmd in importlib.import_module(f"five35.cli.{module}").COMMANDS:
            stated[cmd.name] = module
    assert stated == COMMAND_MODULES
    assert all(command(name).name == name for name in COMMANDS)


def test_a_command_imports_only_its_own_module() -> None:
    # `serve` answers an engine's requests: it must not wait for every check (Z3, Hypothesis) to load.
    probe = (
        "import sys, click; from five35.cli.main import main; "
        "main.get_command(click.Context(main), 'serve'); "
        "heavy = ('five35.checks.runner', 'hypothesis', 'z3', 'networkx'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def help_text(*args: str) -> str:
    result = CliRunner().invoke(main, [*args])
    assert result.exit_code == 0, result.output
    return result.stdout


# ---- help ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", *COMMANDS])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_help_shows_an_example(command: str, flag: str) -> None:
    text = help_text(*([command] if command else []), flag)
    assert re.search(r"^\s*Examples?:", text, re.MULTILINE), text
    examples = [
        line.strip().removeprefix("Example:").strip()
        for line in text.splitlines()
        if line.strip().removeprefix("Example:").strip().startswith("535-check")
    ]
    assert examples, text
    for example in examples:
        words = example.split("#")[0].split()
        if len(words) > 1 and not words[1].startswith("-"):
            assert words[1] in COMMANDS, example  # an example names a command that exists


def test_the_top_level_help_refers_to_nothing_missing() -> None:
    text = help_text("-h")
    assert "see `default` below" not in text
    for quoted in re.findall(r"`535-check ([a-z]+)`", text):
        assert quoted in COMMANDS
    assert "-q, --quiet" in text and "-v, --verbose" in text


@pytest.mark.parametrize("name", ["fuzz", "replay", "perft", "check", "simulate", "rules"])
def test_every_format_option_is_described(name: str) -> None:
    option = next(p for p in command(name).params if p.name == "fmt")
    assert isinstance(option, click.Option) and option.help and len(option.help) > 20


# ---- -q / -v ------------------------------------------------------------------------------------


def test_quiet_and_verbose_change_stderr_only() -> None:
    args = ["check", "--level", "quick", "--only", "text_audit"]
    plain = CliRunner().invoke(main, args)
    quiet = CliRunner().invoke(main, [*args, "-q"])
    before = CliRunner().invoke(main, ["-q", *args])  # before the command's name works too
    verbose = CliRunner().invoke(main, [*args, "-v"])
    assert plain.exit_code == quiet.exit_code == verbose.exit_code == 0
    strip = re.compile(r"\d+\.\ds")  # timings
    assert {strip.sub("", r.stdout) for r in (plain, quiet, before, verbose)} == {strip.sub("", plain.stdout)}
    assert "seed 535" in plain.stderr and "text_audit:" in plain.stderr
    assert quiet.stderr == "" and before.stderr == ""
    assert verbose.stderr.startswith(plain.stderr.splitlines()[0])
    assert "clauses" in verbose.stderr and len(verbose.stderr) > len(plain.stderr)  # the check's notes


def test_quiet_keeps_errors() -> None:
    result = CliRunner().invoke(main, ["check", "-q", "--level", "slow"])
    assert result.exit_code == 2 and result.stderr.startswith("535-check: error: --level")


# ---- [tool.five35] -------------------------------------------------------------------------------


def write_pyproject(directory: Path, body: str) -> Path:
    """A project's pyproject.toml: top-level keys of `body` first (TOML puts keys after a table
    header into that table), then a [project] table, then the tables of `body`."""
    path = directory / "pyproject.toml"
    top, _, tables = body.partition("[")
    tables = "[" + tables if tables else ""
    path.write_text(top + '[project]\nname = "house-rules"\n\n' + tables, encoding="utf-8")
    return path


def test_pyproject_gives_defaults_the_command_line_overrides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(SPEC.path.read_text(encoding="utf-8"), encoding="utf-8")
    write_pyproject(
        tmp_path,
        '[tool.five35]\nlevel = "quick"\nformat = "json"\nspec = "rules/house.yaml"\n'
        'profile = "german-literal"\n',
    )
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # the nearest pyproject.toml above the working directory
    import json

    result = CliRunner().invoke(main, ["check", "--only", "text_audit"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["level"] == "quick" and data["ruleset_label"].startswith("german-literal")
    assert Path(data["spec"]).resolve() == (tmp_path / "rules" / "house.yaml").resolve()
    override = CliRunner().invoke(
        main, ["check", "--only", "text_audit", "--format", "text", "--profile", "published"]
    )
    assert override.exit_code == 0 and "ruleset published" in override.stdout
    assert "[default: quick]" in help_text("check", "-h")
    rules = CliRunner().invoke(main, ["rules", "--format", "json"])
    assert (
        json.loads(rules.stdout)["ruleset"]["profile"] == "german-literal"
    )  # spec and profile: every command


@pytest.mark.parametrize(
    ("body", "needles"),
    [
        ('[tool.five35]\nlevel = "fast"\n', ("pyproject.toml:5: tool.five35.level", "got 'fast'")),
        ('[tool.five35]\nlevel = "ci"\nformat = "xml"\n', ("pyproject.toml:6: tool.five35.format", "gitlab")),
        (
            "[tool.five35]\nlevel = 3\n",
            ("pyproject.toml:5: tool.five35.level", "expected a non-empty string"),
        ),
        ('[tool.five35]\nprofle = "x"\n', ("pyproject.toml:5: tool.five35.profle", "unknown setting")),
        (
            '[tool]\nfive35.spec = "nope.yaml"\n',
            ("pyproject.toml:5: tool.five35.spec", "no file 'nope.yaml'"),
        ),
        ('tool.five35.baseline = "b.json"\n', ("pyproject.toml:1: tool.five35.baseline", "no file")),
        (
            '[tool.five35]\nprofile = "house"\n',
            ("pyproject.toml:5: tool.five35.profile", "unknown profile 'house'"),
        ),
        ("[tool.five35]\nlevel = [\n", ("pyproject.toml:", "not valid TOML")),
        (
            '[tool.five35]\nsolver-rlimit = "big"\n',
            (
                "pyproject.toml:5: tool.five35.solver-rlimit",
                "expected a whole number from 1 to 4294967295, got 'big'",
            ),
        ),
        ("[tool.five35]\nsolver-rlimit = 0\n", ("pyproject.toml:5: tool.five35.solver-rlimit", "got 0")),
        (
            "[tool.five35]\nsolver-rlimit = true\n",
            ("pyproject.toml:5: tool.five35.solver-rlimit", "got true"),
        ),
        (
            "[tool.five35]\nsolver-rlimit = 4294967296\n",
            ("pyproject.toml:5: tool.five35.solver-rlimit", "got 4294967296"),
        ),
        ('[tool]\nfive35 = "quick"\n', ("pyproject.toml:5: tool.five35", "expected a table")),
    ],
)
def test_a_bad_pyproject_value_is_one_line_naming_its_line(
    tmp_path: Path, body: str, needles: tuple[str, ...]
) -> None:
    write_pyproject(tmp_path, body)
    run_bad_input(["check", "--level", "quick", "--only", "text_audit"], 2, *needles, cwd=tmp_path)


def test_pyproject_sets_the_solver_limit_and_the_command_line_overrides_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from five35.checks.oracles import z3model

    monkeypatch.setattr(z3model, "_MEMO", {})  # the proofs asked again, under this limit
    write_pyproject(tmp_path, '[tool.five35]\nlevel = "quick"\nformat = "json"\nsolver-rlimit = 1000\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--only", "proofs"])
    assert result.exit_code == 1, result.output
    [failure] = json.loads(result.stdout)["failures"]
    assert "resource limit of 1,000 steps per query" in failure["message"]
    assert "--solver-rlimit N (or solver-rlimit = N in [tool.five35]" in failure["message"]
    override = CliRunner().invoke(main, ["check", "--only", "proofs", "--solver-rlimit", "200000000"])
    assert override.exit_code == 0, override.output
    for command in ("check", "report"):
        assert "[default: 1000;" in " ".join(help_text(command, "-h").split())


def test_key_lines_finds_every_spelling() -> None:
    text = "\n".join(
        [
            'tool.five35.level = "ci"',  # 1
            "[tool]",  # 2
            'five35.format = "json"',  # 3
            "[tool.five35]",  # 4
            "# a comment",  # 5
            '"spec" = "x.yaml"',  # 6
            "[tool.ruff]",  # 7
            'profile = "not ours"',  # 8
        ]
    )
    assert key_lines(text) == {"level": 1, "format": 3, "": 4, "spec": 6}


# ---- completion ---------------------------------------------------------------------------------


def completions(args: list[str], incomplete: str) -> list[str]:
    return [
        item.value
        for item in BashComplete(main, {}, "535-check", "_535_CHECK_COMPLETE").get_completions(
            args, incomplete
        )
    ]


def test_completion_offers_profiles_points_readings_and_checks(tmp_path: Path) -> None:
    assert completions(["check", "--profile"], "") == list(SPEC.profiles)
    assert completions(["simulate", "--profile"], "ger") == ["german-literal"]
    points = completions(["rules", "--reading"], "")
    assert points == [f"{p}=" for p in SPEC.variation_points]
    assert completions(["rules", "--reading"], "run_wrap=") == [
        f"run_wrap={r}" for r in SPEC.variation_points["run_wrap"].readings
    ]
    assert completions(["check", "--only"], "graphs") == [
        "graphs",
        "graphs.succession",
        "graphs.beats",
        "graphs.endgames",
    ]
    # From the spec the command line names: a house-rules copy with a profile of its own.
    house = tmp_path / "house.yaml"
    extra = '  house:\n    title: "House"\n    source: "us"\n    status: literal\n    extends: published\n'
    house.write_text(SPEC.path.read_text(encoding="utf-8").replace("profiles:\n", "profiles:\n" + extra, 1))
    assert "house" in load_spec(house).profiles
    assert completions(["check", "--spec", str(house), "--profile"], "h") == ["house"]
    assert completions(["check", "--spec", str(tmp_path / "missing.yaml"), "--profile"], "") == []


# ---- numbers and plurals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--players", "four"], "--players: expected a whole number, got four"),
        (["simulate", "--games", "0"], "--games: expected a whole number of at least 1, got 0"),
        (["report", "--games", "many"], "--games: expected a whole number of at least 1, got many"),
        (["check", "--seed", "-1"], "--seed: expected a whole number from 0 to 9223372036854775807, got -1"),
        (["simulate", "--jobs", "0"], "--jobs: expected a whole number from 1 to 64, got 0"),
        (
            ["perft", "--players", "1", "--seed", "1", "--depth", "1"],
            "--players: expected a whole number from 2 to 12, got 1",
        ),
        (
            ["fuzz", "--engine", "x", "--timeout", "-1"],
            "--timeout: expected a number above 0 and at most 86400, got -1.0",
        ),
        (
            ["fuzz", "--engine", "x", "--time-budget", "soon"],
            "--time-budget: expected a number above 0 and at most 86400",
        ),
    ],
)
def test_every_bad_number_is_said_the_same_way(tmp_path: Path, args: list[str], message: str) -> None:
    run_bad_input(args, 2, message, cwd=tmp_path)


def test_plural() -> None:
    assert [plural(n, "failure") for n in (0, 1, 2)] == ["0 failures", "1 failure", "2 failures"]
    assert plural(1, "match", "matches") == "1 match" and plural(1204, "card") == "1,204 cards"
    assert [plural(2, k) for k in ("mismatch", "ambiguity", "gap")] == [
        "2 mismatches",
        "2 ambiguities",
        "2 gaps",
    ]


def test_messages_count_in_the_singular_when_there_is_one() -> None:
    check = CliRunner().invoke(main, ["check", "--level", "quick", "--only", "text_audit"])
    assert "(1 check)" in check.stderr and "1 checks" not in check.stderr
    simulate = CliRunner().invoke(main, ["simulate", "--games", "1", "--players", "2"])
    assert "535-check simulate: 1 match," in simulate.stdout
    assert not re.search(
        r"\b1 (matches|rounds|games|failures|cards|findings|checks)\b", simulate.stdout + check.stdout
    )


# ---- progress in a CI log ----------------------------------------------------------------------


def test_simulate_prints_progress_lines_on_stderr_in_a_non_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "INTERVAL", 0.05)
    result = CliRunner().invoke(main, ["simulate", "--games", "400", "--players", "4", "--mode", "match"])
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("535-check simulate: ")]
    assert lines, result.stderr
    assert all(re.fullmatch(r"535-check simulate: [\d,]+/400 games, \d+ s", line) for line in lines), lines
    assert "535-check simulate:" not in result.stdout.replace("535-check simulate: 400 matches", "")
    quiet = CliRunner().invoke(main, ["simulate", "--games", "400", "-q"])
    assert quiet.stderr == ""


def test_check_prints_progress_lines_naming_the_running_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "INTERVAL", 0.05)
    result = CliRunner().invoke(
        main, ["check", "--level", "quick", "--only", "invariants", "--only", "graphs"]
    )
    assert result.exit_code == 0
    lines = [
        line for line in result.stderr.splitlines() if re.match(r"535-check check: \d+/4 checks done", line)
    ]
    assert lines and all(re.search(r", \d+ s(, now [a-z_.]+)?$", line) for line in lines), result.stderr
    assert "checks done" not in result.stdout


def test_report_prints_progress_lines_in_a_non_tty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "INTERVAL", 0.05)
    result = CliRunner().invoke(
        main, ["report", "--out", str(tmp_path / "r"), "--games", "4", "--level", "quick", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"^535-check report: \d+/\d+ checks done, \d+ s", result.stderr, re.MULTILINE), (
        result.stderr
    )
    counts = [
        (int(done.replace(",", "")), int(total.replace(",", "")))
        for done, total in re.findall(
            r"^535-check report: ([\d,]+)/([\d,]+) games simulated", result.stderr, re.M
        )
    ]
    assert counts, result.stderr
    # The bar's total is every game it counts (it once counted the matches played to their end
    # beyond it: 5,000/4,000).
    assert all(done <= total for done, total in counts), counts
    assert "535-check report:" not in result.stdout
