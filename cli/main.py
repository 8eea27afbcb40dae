"""`535-check`: the thin command-line shell over the five35 library.

Exit codes (documented in the README):
  0  success (and, for `check`, the checks hold)
  1  a check failed / a divergence was found (engine faults are 3)
  2  bad input or usage: a bad option, a spec file that does not load, an unknown profile or reading
  3  an engine under test misbehaved (crash, timeout, malformed output) -- `fuzz`, `replay`, `perft`
 130 interrupted

Every command takes the shared options --spec, --profile and --reading POINT=VALUE, resolved here
into a Spec and a Ruleset; the commands themselves only call the library.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click
from five35.spec import Ruleset, Spec, SpecError, load_spec

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_ENGINE_FAULT = 3
EXIT_INTERRUPTED = 130

F = TypeVar("F", bound=Callable[..., Any])


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


def rules_options(func: F) -> F:
    """The options every command shares: --spec, --profile, --reading."""
    func = click.option(
        "--reading",
        "readings",
        multiple=True,
        metavar="POINT=VALUE",
        help="Choose a reading for a variation point (repeatable); overrides the profile.",
    )(func)
    func = click.option(
        "--profile", default=None, help="Named profile from the spec (default: the spec's default)."
    )(func)
    func = click.option(
        "--spec",
        "spec_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Spec file to use instead of the embedded one (e.g. a house-rules copy).",
    )(func)
    return func


def resolve(spec_path: Path | None, profile: str | None, readings: tuple[str, ...]) -> RulesChoice:
    """Load the spec and resolve the ruleset; raises SpecError with a one-line message."""
    spec = load_spec(spec_path)
    return RulesChoice(spec, spec.ruleset(profile, parse_readings(readings)))


def fail_usage(message: str) -> None:
    """Print a one-line error and exit 2."""
    click.echo(f"535-check: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


class Five35Group(click.Group):
    """Turns every expected error into one line and a documented exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpecError as exc:
            fail_usage(str(exc))
        except KeyboardInterrupt:
            click.echo("535-check: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.exit(EXIT_OK)


@click.group(cls=Five35Group, invoke_without_command=True)
@click.version_option(package_name="five35", prog_name="535-check")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Check the rules of 535 against the reference engine, write rule-clarification reports, and
    fuzz other engines against it.

    Run with no command to check the embedded spec and write the report (see `default` below).
    """
    if ctx.invoked_subcommand is None:
        from .default_job import default_job

        ctx.exit(default_job())


def _register() -> None:
    # Each command lives in its own module, so the commands stay independent of each other.
    from . import check_cmd, protocol_cmds, report_cmd, rules_cmd, simulate_cmd

    for module in (rules_cmd, simulate_cmd, check_cmd, report_cmd, protocol_cmds):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
