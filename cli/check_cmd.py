"""`535-check check`: run the checks of an engine against the spec, for people and for CI.

Exit 0 when the checks hold, 1 on a failure (the engine differs from the spec, an invariant broke,
a check stopped with an error, or a new finding under --strict), 2 on bad input or usage, 3 when
the engine under check raised. The seed is printed (on stderr when the report goes to stdout in a
machine format) and is the same on every run unless --seed says otherwise. Every input is checked,
and every output file reserved, before the checks start; the files (--output-file,
--write-baseline) appear together at the end, or neither does. With GITHUB_STEP_SUMMARY set (as in
a GitHub Actions step), a Markdown summary is appended to it at the end.
"""

from __future__ import annotations

import math
import os
import queue
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import click
from click.shell_completion import CompletionItem

from ..checks.findings import CheckResult, EngineFactory, Level
from ..checks.runner import (
    BaselineError,
    CheckRun,
    all_checks,
    baseline_text,
    check_title,
    load_baseline,
    run_checks,
    select_checks,
)
from ..engine import Game
from ..executor import default_jobs
from ..protocol.client import EngineFault, load_factory, raised
from ..reports.check_formats import (
    FORMAT_HELP,
    FORMATS,
    Format,
    Rendering,
    plural,
    render,
    render_markdown_summary,
)
from ..spec import SpecError
from ..spec.words import embedded_words
from .common import (
    EXIT_ENGINE_FAULT,
    EXIT_FAILED,
    EXIT_OK,
    PROG,
    PathGiven,
    cli_executor,
    detail,
    examples_epilog,
    executor_options,
    fail_usage,
    file_option,
    format_option,
    info,
    keep_interrupts_from_z3,
    level_option,
    option_place,
    resolve,
    rules_options,
    seed_option,
    solver_rlimit_option,
)
from .outputs import Outputs, append_text, check_appendable
from .progress import Ticker

#: The environment variable GitHub Actions names the job summary file by.
STEP_SUMMARY = "GITHUB_STEP_SUMMARY"

EXAMPLES = [
    "535-check check --level quick                         # a few seconds",
    "535-check check --format sarif --output-file check.sarif",
    "535-check check --write-baseline findings.json        # once: today's findings are known",
    "535-check check --baseline findings.json --strict     # then: fail on new ones too",
    "535-check check --level quick house-rules.535.yaml    # check spec files (as the pre-commit hook)",
    "535-check check --level deep --executor dask --scheduler tcp://10.0.0.5:8786",
]


#: Seconds an --engine module may take to import, by default (a module that hangs must not hang check).
IMPORT_TIMEOUT = 30.0


def load_engine(spec: str, timeout: float = IMPORT_TIMEOUT) -> EngineFactory:
    """`python:module:factory` -> the factory (ruleset, players) -> Game-like.

    As for the protocol's in-process engines (`load_factory`): SpecError naming --engine for a bad
    value, a module that does not exist or no callable factory; EngineFault when the engine's own
    code fails while it is imported (an exception, a syntax error, sys.exit()) or takes over
    `timeout` seconds, the import running in a daemon thread that is left behind if it hangs."""
    kind, sep, rest = spec.partition(":")
    module_name, sep2, attr = rest.partition(":")
    if kind != "python" or not sep or not sep2 or not module_name or not attr:
        raise SpecError("--engine", f"expected python:MODULE:FACTORY, got {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        # Like `python -m`, let a module in the current directory be named directly.
        sys.path.insert(0, str(Path.cwd()))
    results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()

    def load() -> None:
        try:
            results.put((True, load_factory(rest)))
        except BaseException as exc:  # the engine's code: SystemExit too is its, not ours
            results.put((False, exc))

    threading.Thread(target=load, name=f"five35 import {module_name}", daemon=True).start()
    try:
        ok, value = results.get(timeout=timeout)
    except queue.Empty:
        raise EngineFault("timeout", f"{spec}: importing {module_name} took over {timeout:g} s") from None
    if not ok:
        if isinstance(value, SpecError | EngineFault):
            raise value
        raise EngineFault("start", f"{spec}: {raised(value)}")
    return cast(Callable[..., Game], value)


def complete_checks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Every check's name, and the module names before their dots (`graphs`)."""
    names: dict[str, str] = {}
    words = embedded_words()  # no spec is given yet while the shell completes a name
    for check in all_checks():
        group = check.name.partition(".")[0]
        if group != check.name:
            names.setdefault(group, f"every {group} check")
        names[check.name] = check_title(check, words)
    return [CompletionItem(n, help=h) for n, h in names.items() if n.startswith(incomplete)]


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    # FloatRange lets nan through: every comparison with nan is false.
    if not math.isfinite(value):
        raise click.BadParameter(f"expected a finite number of seconds, got {value}", ctx, param)
    return value


def exit_code(run: CheckRun, *, strict: bool, baseline: frozenset[str] | None) -> int:
    if run.passed(strict=strict, baseline=baseline):
        return EXIT_OK
    return EXIT_ENGINE_FAULT if run.engine_crashed else EXIT_FAILED


@click.command("check", epilog=examples_epilog(EXAMPLES))
@click.argument(
    "spec_files",
    nargs=-1,
    type=PathGiven(dir_okay=False, path_type=Path),
    metavar="[SPEC]...",
)
@rules_options
@level_option("How much to check: quick (seconds), ci (under a minute), deep (long).")
@seed_option("Seed for every random choice; the same seed gives the same checks and output.", metavar=None)
@format_option(
    FORMATS,
    "text",
    "Output: " + "; ".join(f"{name}: {words}" for name, words in FORMAT_HELP.items()) + ".",
)
@file_option("--output-file", help="Write the output here (atomically) instead of stdout.")
@file_option(
    "--sarif-file",
    help="Also write SARIF 2.1.0 here, whatever --format prints (e.g. annotations on stdout and "
    "SARIF for code scanning from one run).",
)
@click.option(
    "--root",
    type=PathGiven(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="Make the paths in annotations, SARIF, JUnit and GitLab reports relative to this directory "
    "(default: the working directory); a spec outside it is named, not linked.",
)
@file_option(
    "--baseline",
    "baseline_path",
    help="Known findings (from --write-baseline); only findings not in it count as new.",
)
@file_option("--write-baseline", help="Record this run's findings as the known ones.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on a new finding too, not only on a failure.")
@click.option(
    "--engine",
    "engine_spec",
    default=None,
    metavar="python:MODULE:FACTORY",
    help="Check another in-process engine: FACTORY(ruleset, players) returns a Game-like object.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=86400),
    callback=_finite,
    default=IMPORT_TIMEOUT,
    show_default=True,
    help="Seconds the --engine module may take to import; longer is an engine fault (exit 3).",
)
@click.option(
    "--only",
    multiple=True,
    metavar="CHECK",
    shell_complete=complete_checks,
    help="Run only this check or module of checks (repeatable), e.g. graphs or invariants.matches.",
)
@solver_rlimit_option
@executor_options
def check(
    spec_files: tuple[Path, ...],
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    level: str,
    seed: int,
    fmt: str,
    output_file: Path | None,
    sarif_file: Path | None,
    root: Path | None,
    baseline_path: Path | None,
    write_baseline: Path | None,
    strict: bool,
    engine_spec: str | None,
    timeout: float,
    only: tuple[str, ...],
    solver_rlimit: int,
    executor_kind: str,
    scheduler: str | None,
) -> None:
    """Check the engine against the spec: Hypothesis invariants over whole matches, graph analyses,
    and (with the Z3 model) conformance, proofs, divergence witnesses and dead clauses.

    Findings (ambiguities, contradictions, dead clauses) do not fail the run unless --strict; with
    --baseline only findings the baseline does not list are new. SPEC files given as arguments are
    checked one after the other, each as with --spec (text output only when there are several).

    At --level deep the checks run side by side: in worker processes here (--executor local), or
    on a Dask cluster (--executor dask --scheduler ADDRESS); the output is the same as one by one.
    At --level ci they run side by side in worker processes here.
    """
    ctx = click.get_current_context()
    for option, param in (("--executor", "executor_kind"), ("--scheduler", "scheduler")):
        if level != "deep" and ctx.get_parameter_source(param) is click.core.ParameterSource.COMMANDLINE:
            fail_usage(f"{option}: the checks run through an executor at --level deep only")
    if spec_files:
        if ctx.get_parameter_source("spec_path") is click.core.ParameterSource.COMMANDLINE:
            fail_usage("SPEC: give spec files as arguments or with --spec, not both")
        if len(spec_files) > 1 and (fmt != "text" or output_file or write_baseline or sarif_file):
            fail_usage("SPEC: several spec files are checked with --format text and no output files only")
    try:
        engine = load_engine(engine_spec, timeout) if engine_spec else None
        selected = [c.name for c in select_checks(only or None)]
        baseline = load_baseline(baseline_path) if baseline_path is not None else None
    except ValueError as exc:
        message = str(exc)
        if message.startswith(("no check called", "only:")):
            # --only, or the [tool.five35] line that gave the checks
            message = f"{option_place('--only', 'only')}: " + message.removeprefix("only: ")
        fail_usage(message)
    except BaselineError as exc:
        fail_usage(str(exc))
    except EngineFault as fault:
        click.echo(f"{PROG}: error: --engine: {fault}", err=True)
        sys.exit(EXIT_ENGINE_FAULT)
    summary_file = _step_summary()
    targets = list(spec_files) if spec_files else [spec_path]
    # Every spec loads before any check runs: a typo in the last file fails at once.
    choices = [resolve(target, profile, readings) for target in targets]
    # Built before the checks (an unreachable scheduler fails at once); closed with the command.
    # At ci too, in worker processes here: spread over the cores, `check --level ci` keeps within
    # its 15 s (issue 12); the executor options stay a deep-level choice.
    executor = cli_executor(executor_kind, default_jobs(), scheduler) if level != "quick" else None
    if executor is not None:
        ctx.with_resource(executor)
    codes = []
    for choice in choices:
        with Outputs() as outputs:
            # Reserved now: a path that cannot be written fails before the checks, not after them.
            report_file = outputs.file(output_file, "--output-file") if output_file is not None else None
            baseline_file = (
                outputs.file(write_baseline, "--write-baseline") if write_baseline is not None else None
            )
            sarif_out = outputs.file(sarif_file, "--sarif-file") if sarif_file is not None else None
            keep_interrupts_from_z3()
            # The seed goes to stderr: the text summary repeats it, and JSON or XML on stdout must stay clean.
            info(f"535-check check: level {level}, seed {seed} ({plural(len(selected), 'check')})")
            with Ticker("check", "checks done", len(selected)) as ticker:
                run = run_checks(
                    choice.spec,
                    choice.ruleset,
                    level=cast(Level, level),
                    seed=seed,
                    engine=engine,
                    only=selected,
                    progress=_progress(ticker, selected),
                    executor=executor,
                    solver_rlimit=solver_rlimit,
                )
            full_list = f"the job summary ({STEP_SUMMARY})" if summary_file is not None else None
            text = render(
                run,
                cast(Format, fmt),
                spec=choice.spec,
                baseline=baseline,
                strict=strict,
                root=root,
                full_list=full_list,
            )
            if report_file is not None:
                report_file.write_text(text)
            if baseline_file is not None:
                baseline_file.write_text(baseline_text(run))
            if sarif_out is not None:
                sarif = render(run, "sarif", spec=choice.spec, baseline=baseline, strict=strict, root=root)
                sarif_out.write_text(sarif)
            outputs.commit()
        if output_file is not None:
            # With the report in a file, stdout is free for the person watching the run.
            click.echo(render(run, "text", spec=choice.spec, baseline=baseline, strict=strict), nl=False)
            info(f"535-check check: wrote {output_file}")
        else:
            click.echo(text, nl=False)
        if write_baseline is not None:
            found = plural(len(run.findings), "finding")
            info(f"535-check check: wrote a baseline of {found} to {write_baseline}")
        if sarif_file is not None:
            info(f"535-check check: wrote {sarif_file}")
        if summary_file is not None:
            markdown = render_markdown_summary(
                Rendering(run, spec=choice.spec, baseline=baseline, strict=strict, root=root)
            )
            append_text(summary_file, markdown, STEP_SUMMARY)
            detail(f"535-check check: appended the summary to {summary_file}")
        codes.append(exit_code(run, strict=strict, baseline=baseline))
    # The worst: an engine fault, then a failure.
    sys.exit(max(codes))


def _step_summary() -> Path | None:
    """GitHub's job summary file, when the environment names one; checked before the work."""
    value = os.environ.get(STEP_SUMMARY, "")
    if not value.strip():
        return None
    path = Path(value)
    try:
        check_appendable(path, STEP_SUMMARY)
    except SpecError as exc:
        fail_usage(str(exc))
    return path


def _progress(ticker: Ticker, names: list[str]) -> Callable[[str, CheckResult], None]:
    ticker.doing = names[0] if names else ""
    following = dict(zip(names, [*names[1:], ""], strict=True))

    def report(name: str, result: CheckResult) -> None:
        # On stderr, so a long run shows where it is without touching a report on stdout.
        ticker.update()
        ticker.doing = following.get(name, "")
        if result.skipped is not None:
            status = "skipped"
        elif result.error is not None:
            status = f"error: {result.error.message}"
        elif not result.ok:
            status = plural(len(result.failures), "failure")
        else:
            status = f"warning: {'; '.join(result.warnings)}" if result.warnings else "ok"
        info(f"  {name}: {result.seconds:.1f}s, {status}")
        for note in result.notes:
            detail(f"      {note}")

    return report


COMMANDS = [check]
