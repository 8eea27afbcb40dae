"""`535-check check`: run the checks of an engine against the spec, for people and for CI.

Exit 0 when the checks hold, 1 on a failure (the engine differs from the spec, an invariant broke,
or a new finding under --strict), 2 on bad input or usage. The seed is printed (on stderr when
the report goes to stdout in a machine format) and is the same on every run unless --seed says
otherwise. Every input is checked, and every output file reserved, before the checks start; the
files (--output-file, --write-baseline) appear together at the end, or neither does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import cast

import click
from five35.checks.findings import LEVELS, CheckResult, EngineFactory, Level
from five35.checks.output import FORMATS, Format, render
from five35.checks.runner import BaselineError, baseline_text, load_baseline, run_checks, select_checks
from five35.engine import Game

from .main import (
    DEFAULT_SEED,
    EXIT_FAILED,
    EXIT_OK,
    SEED,
    PathGiven,
    fail_usage,
    keep_interrupts_from_z3,
    resolve,
    rules_options,
)
from .outputs import Outputs


def load_engine(spec: str) -> EngineFactory:
    """`python:module:factory` -> the factory (ruleset, players) -> Game-like; raises ValueError."""
    kind, sep, rest = spec.partition(":")
    module_name, sep2, attr = rest.partition(":")
    if kind != "python" or not sep or not sep2 or not module_name or not attr:
        raise ValueError(f"--engine: expected python:MODULE:FACTORY, got {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        # Like `python -m`, let a module in the current directory be named directly.
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"--engine: cannot import {module_name!r} ({exc})") from None
    except Exception as exc:
        raise ValueError(f"--engine: importing {module_name!r} raised {type(exc).__name__}: {exc}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise ValueError(f"--engine: module {module_name!r} has no {attr!r}")
    if not callable(factory):
        raise ValueError(f"--engine: {module_name}:{attr} is not callable")
    return cast(Callable[..., Game], factory)


@click.command("check")
@rules_options
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="ci",
    show_default=True,
    help="How much to check: quick (seconds), ci (under a minute), deep (long).",
)
@click.option(
    "--seed",
    type=SEED,
    default=DEFAULT_SEED,
    show_default=True,
    help="Seed for every random choice; the same seed gives the same checks and output.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Output: a summary table, JSON, JUnit XML, SARIF 2.1.0 or GitHub annotations.",
)
@click.option(
    "--output-file",
    type=PathGiven(dir_okay=False, path_type=Path),
    default=None,
    help="Write the output here (atomically) instead of stdout.",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=PathGiven(dir_okay=False, path_type=Path),
    default=None,
    help="Known findings (from --write-baseline); only findings not in it count as new.",
)
@click.option(
    "--write-baseline",
    type=PathGiven(dir_okay=False, path_type=Path),
    default=None,
    help="Record this run's findings as the known ones.",
)
@click.option("--strict", is_flag=True, help="Fail (exit 1) on a new finding too, not only on a failure.")
@click.option(
    "--engine",
    "engine_spec",
    default=None,
    metavar="python:MODULE:FACTORY",
    help="Check another in-process engine: FACTORY(ruleset, players) returns a Game-like object.",
)
@click.option(
    "--only",
    multiple=True,
    metavar="CHECK",
    help="Run only this check or module of checks (repeatable), e.g. graphs or invariants.matches.",
)
def check(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    level: str,
    seed: int,
    fmt: str,
    output_file: Path | None,
    baseline_path: Path | None,
    write_baseline: Path | None,
    strict: bool,
    engine_spec: str | None,
    only: tuple[str, ...],
) -> None:
    """Check the engine against the spec: Hypothesis invariants over whole matches, graph analyses,
    and (with the Z3 model) conformance, proofs, divergence witnesses and dead clauses.

    Findings (ambiguities, contradictions, dead clauses) do not fail the run unless --strict; with
    --baseline only findings the baseline does not list are new.
    """
    choice = resolve(spec_path, profile, readings)
    try:
        engine = load_engine(engine_spec) if engine_spec else Game
        selected = [check.name for check in select_checks(only or None)]
        baseline = load_baseline(baseline_path) if baseline_path is not None else None
    except (ValueError, BaselineError) as exc:
        fail_usage(str(exc))
    with Outputs() as outputs:
        # Reserved now: a path that cannot be written fails before the checks, not after them.
        report_file = outputs.file(output_file, "--output-file") if output_file is not None else None
        baseline_file = (
            outputs.file(write_baseline, "--write-baseline") if write_baseline is not None else None
        )
        keep_interrupts_from_z3()
        # The seed goes to stderr: the text summary repeats it, and JSON or XML on stdout must stay clean.
        click.echo(f"535-check check: level {level}, seed {seed} ({len(selected)} checks)", err=True)
        run = run_checks(
            choice.spec,
            choice.ruleset,
            level=cast(Level, level),
            seed=seed,
            engine=engine,
            only=selected,
            progress=_progress,
        )
        text = render(run, cast(Format, fmt), spec=choice.spec, baseline=baseline, strict=strict)
        if report_file is not None:
            report_file.write_text(text)
        if baseline_file is not None:
            baseline_file.write_text(baseline_text(run))
        outputs.commit()
    if output_file is not None:
        # With the report in a file, stdout is free for the person watching the run.
        click.echo(render(run, "text", spec=choice.spec, baseline=baseline, strict=strict), nl=False)
        click.echo(f"535-check check: wrote {output_file}", err=True)
    else:
        click.echo(text, nl=False)
    if write_baseline is not None:
        click.echo(
            f"535-check check: wrote baseline of {len(run.findings)} findings to {write_baseline}", err=True
        )
    sys.exit(EXIT_OK if run.passed(strict=strict, baseline=baseline) else EXIT_FAILED)


def _progress(name: str, result: CheckResult) -> None:
    # On stderr, so a long run shows where it is without touching a report on stdout.
    status = "ok" if result.ok else f"{len(result.failures)} failures"
    click.echo(f"  {name}: {result.seconds:.1f}s, {status}", err=True)


COMMANDS = [check]
