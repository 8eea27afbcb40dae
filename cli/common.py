"""What every command of `535-check` shares: the exit codes, the option types and the shared
options (--spec, --profile, --reading; --executor, --jobs, --scheduler; -q, -v), and the one-line
error.

Exit codes (documented in the README):
  0  success (and, for `check`, the checks hold)
  1  a check failed / a divergence was found (engine faults are 3)
  2  bad input or usage: a bad option, a spec file that does not load, an unknown profile or reading
  3  an engine under test misbehaved (crash, timeout, malformed output) -- `fuzz`, `replay`, `perft`;
     also a worker process that died under a command
 130 interrupted (Ctrl-C, SIGINT)
 143 terminated (SIGTERM)

The shared options are resolved here into a Spec and a Ruleset; the commands themselves only call
the library.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem

from ..checks.findings import DEFAULT_SOLVER_RLIMIT, LEVELS, MAX_SOLVER_RLIMIT
from ..engine.simulate import DEFAULT_SEED
from ..executor import (
    DASK_HINT,
    EXECUTORS,
    MAX_JOBS,
    DaskExecutor,
    ExecutorUnavailable,
    LocalExecutor,
    make_executor,
)
from ..spec import Ruleset, Spec, SpecError, load_spec

__all__ = [
    "DEFAULT_SEED",
    "EXIT_ENGINE_FAULT",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "JOBS",
    "PROG",
    "SEED",
    "SOLVER_RLIMIT",
    "PathGiven",
    "RulesChoice",
    "cli_executor",
    "detail",
    "examples_epilog",
    "executor_options",
    "fail_usage",
    "file_option",
    "format_option",
    "games_option",
    "info",
    "jobs_option",
    "keep_interrupts_from_z3",
    "level_option",
    "one_line",
    "out_dir_option",
    "parse_readings",
    "resolve",
    "rules_options",
    "seed_option",
    "solver_rlimit_option",
    "verbosity",
    "verbosity_options",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_ENGINE_FAULT = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143, what a shell reports for a process ended by SIGTERM

PROG = "535-check"

F = TypeVar("F", bound=Callable[..., Any])

#: The one type of every seed option: a whole number a 64-bit engine can hold too.
SEED = click.IntRange(0, 2**63 - 1)
#: Worker processes.
JOBS = click.IntRange(1, MAX_JOBS)
#: Z3's resource limit on each query of the checks (checks/findings.py, DEFAULT_SOLVER_RLIMIT).
SOLVER_RLIMIT = click.IntRange(1, MAX_SOLVER_RLIMIT)

#: Where the [tool.five35] a run uses is kept in click's context (cli/main.py puts it there).
CONFIG_KEY = "five35.config"


@dataclass(frozen=True)
class RulesChoice:
    """What the shared options chose: the loaded spec and the resolved ruleset."""

    spec: Spec
    ruleset: Ruleset


def parse_readings(values: tuple[str, ...]) -> dict[str, str]:
    readings: dict[str, str] = {}
    for value in values:
        point, sep, reading = value.partition("=")
        if not sep or not point or not reading:
            raise SpecError("--reading", f"expected POINT=VALUE, got {value!r}")
        readings[point.strip()] = reading.strip()
    return readings


# ---- -q / -v ------------------------------------------------------------------------------------

_VERBOSITY = "five35.verbosity"


def verbosity() -> int:
    """-1 or less with -q, 0 by default, 1 or more with -v (the flags add up, before or after the
    command's name)."""
    ctx = click.get_current_context(silent=True)
    return int(ctx.meta.get(_VERBOSITY, 0)) if ctx is not None else 0


def info(message: str) -> None:
    """A line for the person watching (the seed, progress, what was written): stderr, not with -q."""
    if verbosity() >= 0:
        click.echo(message, err=True)


def detail(message: str) -> None:
    """A line only -v asks for."""
    if verbosity() > 0:
        click.echo(message, err=True)


def _count_into_verbosity(step: int) -> Callable[[click.Context, click.Parameter, int], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: int) -> None:
        if value and not ctx.resilient_parsing:
            ctx.meta[_VERBOSITY] = ctx.meta.get(_VERBOSITY, 0) + step * value

    return callback


def verbosity_options() -> list[click.Option]:
    """-q and -v, fresh for each command they are added to."""
    return [
        click.Option(
            ["-q", "--quiet"],
            count=True,
            expose_value=False,
            callback=_count_into_verbosity(-1),
            help="Print less on stderr: no progress lines or notes, only errors.",
        ),
        click.Option(
            ["-v", "--verbose"],
            count=True,
            expose_value=False,
            callback=_count_into_verbosity(1),
            help="Print more on stderr (each check's notes, each phase's timing).",
        ),
    ]


# ---- shell completion ---------------------------------------------------------------------------


def _completion_spec(ctx: click.Context) -> Spec | None:
    """The spec the command line (or [tool.five35]) names, for completing its profiles and readings;
    None when it does not load: a completion must never fail."""
    path = ctx.params.get("spec_path")
    try:
        if path is None:
            from . import config as project_config

            found = project_config.load()
            path = found.path_value("spec") if found is not None else None
        return load_spec(path)
    except Exception:
        return None


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    spec = _completion_spec(ctx)
    if spec is None:
        return []
    return [
        CompletionItem(name, help=profile.title)
        for name, profile in spec.profiles.items()
        if name.startswith(incomplete)
    ]


def complete_readings(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """POINT= while the point is being typed, then POINT=READING for that point's readings."""
    spec = _completion_spec(ctx)
    if spec is None:
        return []
    point, sep, _ = incomplete.partition("=")
    if not sep:
        return [
            CompletionItem(f"{name}=", help=vp.question)
            for name, vp in spec.variation_points.items()
            if name.startswith(incomplete)
        ]
    vp = spec.variation_points.get(point)
    if vp is None:
        return []
    items = [CompletionItem(f"{point}={r}", help=words) for r, words in vp.readings.items()]
    return [item for item in items if item.value.startswith(incomplete)]


def _no_empty_profile(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    # `--profile=` (an unset shell variable) would otherwise quietly mean the default profile.
    if value is not None and not value.strip():
        raise click.BadParameter("expected a profile name, got an empty string", ctx, param)
    return value


def rules_options(func: F) -> F:
    """The options every command shares: --spec, --profile, --reading."""
    func = click.option(
        "--reading",
        "readings",
        multiple=True,
        metavar="POINT=VALUE",
        shell_complete=complete_readings,
        help="Choose a reading for a variation point (repeatable); overrides the profile.",
    )(func)
    func = click.option(
        "--profile",
        default=None,
        callback=_no_empty_profile,
        shell_complete=complete_profiles,
        help="Named profile from the spec (default: the spec's default).",
    )(func)
    func = click.option(
        "--spec",
        "spec_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Spec file to use instead of the embedded one (e.g. a house-rules copy).",
    )(func)
    return func


# ---- --executor / --scheduler -------------------------------------------------------------------


def executor_options(func: F) -> F:
    """--executor and --scheduler: where the long work's units run (cli_executor builds it)."""
    func = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="The Dask scheduler to send the work to, e.g. tcp://10.0.0.5:8786 (with --executor dask).",
    )(func)
    func = click.option(
        "--executor",
        "executor_kind",
        type=click.Choice(EXECUTORS),
        default="local",
        show_default=True,
        help="Where the work runs: local (processes on this machine) or dask (a Dask distributed "
        f"cluster, at --scheduler; needs {DASK_HINT}). The output is the same either way.",
    )(func)
    return func


def solver_rlimit_option(func: F) -> F:
    """--solver-rlimit: Z3's resource limit on each query of the checks (check, report)."""
    return click.option(
        "--solver-rlimit",
        type=SOLVER_RLIMIT,
        default=DEFAULT_SOLVER_RLIMIT,
        show_default=True,
        metavar="N",
        help="Z3's resource limit on each query of the checks: a count of its steps, not a time, so a "
        "check answers the same on any machine under any load. Raise it when a check fails with "
        "'Z3 answered unknown'.",
    )(func)


# ---- options several commands have, each with help words of its own ------------------------------
# One definition of each, so that an option of the same name takes the same values (its type and
# range) whichever command it is given to.


def seed_option(help: str, metavar: str | None = "S") -> Callable[[F], F]:
    """--seed: a SEED, by default DEFAULT_SEED."""
    return click.option(
        "--seed", type=SEED, default=DEFAULT_SEED, show_default=True, metavar=metavar, help=help
    )


def games_option(default: int, help: str) -> Callable[[F], F]:
    """--games N: how many games to simulate, at least one."""
    return click.option(
        "--games", type=click.IntRange(min=1), default=default, show_default=True, metavar="N", help=help
    )


def jobs_option(default: int, metavar: str, help: str) -> Callable[[F], F]:
    """--jobs: worker processes here, 1 to MAX_JOBS."""
    return click.option("--jobs", type=JOBS, default=default, show_default=True, metavar=metavar, help=help)


def level_option(help: str) -> Callable[[F], F]:
    """--level: how thoroughly the checks run, by default ci."""
    return click.option("--level", type=click.Choice(LEVELS), default="ci", show_default=True, help=help)


def format_option(choices: Sequence[str], default: str, help: str) -> Callable[[F], F]:
    """--format, given to the command as `fmt`."""
    return click.option(
        "--format", "fmt", type=click.Choice(choices), default=default, show_default=True, help=help
    )


def file_option(*param_decls: str, help: str) -> Callable[[F], F]:
    """An optional file path (not a directory; an empty string refused), by default None."""
    return click.option(*param_decls, type=PathGiven(dir_okay=False, path_type=Path), default=None, help=help)


def out_dir_option(help: str, **attrs: Any) -> Callable[[F], F]:
    """--out: the directory a command writes its files into (`attrs`: its default, or required)."""
    return click.option("--out", "out", type=PathGiven(file_okay=False, path_type=Path), help=help, **attrs)


def option_place(option: str, param: str) -> str:
    """The option, or the [tool.five35] line when the value came from there."""
    ctx = click.get_current_context(silent=True)
    config = ctx.meta.get(CONFIG_KEY) if ctx is not None else None
    from_config = ctx is not None and ctx.get_parameter_source(param) is ParameterSource.DEFAULT_MAP
    if ctx is not None and config is not None and from_config:
        return str(config.place(param.removesuffix("_kind")))
    return option


def cli_executor(kind: str, jobs: int, scheduler: str | None) -> LocalExecutor | DaskExecutor:
    """The executor --executor, --jobs and --scheduler ask for; SpecError (exit 2) naming the
    option when they do not fit together, dask is missing or the scheduler does not answer."""
    ctx = click.get_current_context(silent=True)
    if kind == "local" and scheduler is not None:
        raise SpecError(option_place("--scheduler", "scheduler"), "only used with --executor dask")
    if kind == "dask":
        if scheduler is None:
            raise SpecError(option_place("--executor", "executor_kind"), "dask needs --scheduler ADDRESS")
        jobs_given = ctx is not None and ctx.get_parameter_source("jobs") is ParameterSource.COMMANDLINE
        if jobs_given:
            raise SpecError("--jobs", "not used with --executor dask (the cluster's workers run the work)")
    try:
        return make_executor(kind, jobs, scheduler)
    except ExecutorUnavailable as exc:
        if exc.argument == "scheduler":
            raise SpecError(option_place("--scheduler", "scheduler"), str(exc)) from None
        raise SpecError(option_place("--executor", "executor_kind"), str(exc)) from None


class PathGiven(click.Path):
    """click.Path that refuses an empty string: that is a shell variable that was not set, not the
    current directory Path("") would quietly become."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("expected a path, got an empty string", param, ctx)
        return super().convert(value, param, ctx)


def resolve(spec_path: Path | None, profile: str | None, readings: tuple[str, ...]) -> RulesChoice:
    """Load the spec and resolve the ruleset; raises SpecError with a one-line message (naming
    pyproject.toml's line when the profile came from [tool.five35])."""
    spec = load_spec(spec_path)
    try:
        return RulesChoice(spec, spec.ruleset(profile, parse_readings(readings)))
    except SpecError as exc:
        ctx = click.get_current_context(silent=True)
        config = ctx.meta.get(CONFIG_KEY) if ctx is not None else None
        from_config = ctx is not None and ctx.get_parameter_source("profile") is ParameterSource.DEFAULT_MAP
        if exc.where == "--profile" and from_config and config is not None:
            raise SpecError(config.place("profile"), exc.message) from None
        raise


def fail_usage(message: str) -> NoReturn:
    """Print a one-line error and exit 2."""
    click.echo(f"{PROG}: error: {one_line(message)}", err=True)
    sys.exit(EXIT_USAGE)


def keep_interrupts_from_z3() -> None:
    """Let Ctrl-C reach Python during a Z3 solve.

    By default Z3 takes SIGINT for itself while it solves: it cancels that one query (which then
    answers "unknown") and the run goes on, so the user's Ctrl-C is lost. Without its handler the
    signal waits for the query to return (each takes well under a second here) and stops the run.
    """
    try:
        import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
    except ImportError:
        return
    z3.set_param("ctrl_c", False)


def one_line(text: str) -> str:
    return " ".join(text.split())


def examples_epilog(lines: Sequence[str]) -> str:
    """An epilog of example command lines, kept as they are (click's \\b) rather than rewrapped."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
