"""`535-check report`: the rule-clarification report (report.md, report.html, report.json)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click
from five35.checks.findings import LEVELS, Level
from five35.reports import job as report_job
from five35.spec import Ruleset, Spec, SpecError

from .main import EXIT_FAILED, EXIT_OK, resolve, rules_options

# Measured on the 2-core machine: 200 matches per player count for the impact of all 16 points and
# for the three profiles' comparison take about 30 s together, leaving the checks at level ci their
# 60 s within the 2-minute budget.
DEFAULT_GAMES = 200
DEFAULT_OUT = Path("535-report")
# The seed `535-check check` uses, so that the report's checks and exit code are those of `check`.
DEFAULT_SEED = 535
# The simulation splits into units of games that worker processes share; the report is the same for
# any number of workers.
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


def _whole(option: str, text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise SpecError(option, f"expected a whole number, got {text!r}") from None
    if value < low:
        raise SpecError(option, f"{value} is below the minimum {low}")
    return value


def run_report(
    spec: Spec, ruleset: Ruleset, out: Path, games: int, seed: int, level: Level, jobs: int = DEFAULT_JOBS
) -> int:
    """Run the checks, the impact estimate and the variant comparison, write the report, print
    where it went; returns the exit code (1 when a check failed, as `535-check check`)."""
    if out.exists() and not out.is_dir():
        raise SpecError("--out", f"{out} exists and is not a directory")
    try:
        # Fail before the long work, not after it, when the report cannot be written.
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpecError("--out", f"cannot create {out} ({exc.strerror})") from None
    start = time.perf_counter()
    click.echo(f"535-check report: running the checks at level {level}", err=True)
    results, notes = report_job.run_all_checks(spec, ruleset, level, seed)
    click.echo(
        f"535-check report: simulating {games} matches per player count (seed {seed}, {jobs} workers)",
        err=True,
    )
    total = report_job.work_units(spec, ruleset, games)
    with click.progressbar(length=total, label="simulating", file=sys.stderr, show_pos=True) as bar:
        try:
            run = report_job.make_report(
                spec,
                ruleset,
                out,
                games=games,
                seed=seed,
                level=level,
                progress=bar.update,
                jobs=jobs,
                results=results,
                notes=notes,
            )
        except OSError as exc:
            raise SpecError("--out", f"cannot write the report into {out} ({exc.strerror})") from None
    seconds = time.perf_counter() - start
    summary = run.data["summary"]
    kinds = ", ".join(f"{v['total']} {k}" for k, v in summary["by_kind"].items() if v["total"])
    click.echo(f"report written to {out}/: report.md, report.html, report.json")
    click.echo(
        f"{summary['total']} findings ({kinds}); {summary['open']} open; "
        f"{len(run.data['failures'])} check failures; seed {seed}; {seconds:.1f} s"
    )
    return EXIT_FAILED if run.failures else EXIT_OK


@click.command(
    "report",
    help="Write the rule-clarification report for rule designers: report.md, report.html (one "
    "self-contained file) and report.json (schema: five35/reports/report.schema.json). One section "
    "per finding: the clauses in German and Spanish, the readings, a table situation, how often it "
    "matters in simulated play, outside evidence, a proposed wording and its status; then a "
    "comparison of the named profiles in play. The same spec and seed give byte-identical files. "
    "Exit 1 when a check fails (as `check`).",
)
@rules_options
@click.option(
    "--out", "out", default=str(DEFAULT_OUT), show_default=True, help="Directory to write the report into."
)
@click.option(
    "--games",
    "games_text",
    default=str(DEFAULT_GAMES),
    show_default=True,
    metavar="N",
    help="Simulated matches per player count, for the impact estimate and for each variant (sets the cost).",
)
@click.option(
    "--seed",
    "seed_text",
    default=str(DEFAULT_SEED),
    show_default=True,
    metavar="S",
    help="Seed of the checks and base seed of every simulated game.",
)
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="ci",
    show_default=True,
    help="How thoroughly the checks run.",
)
@click.option(
    "--jobs",
    "jobs_text",
    default=str(DEFAULT_JOBS),
    show_default=True,
    metavar="N",
    help="Worker processes for the simulation (the report is the same for any N).",
)
def report(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    out: str,
    games_text: str,
    seed_text: str,
    level: Level,
    jobs_text: str,
) -> None:
    games = _whole("--games", games_text, 1)
    seed = _whole("--seed", seed_text, 0)
    jobs = _whole("--jobs", jobs_text, 1)
    rules = resolve(spec_path, profile, readings)
    sys.exit(run_report(rules.spec, rules.ruleset, Path(out), games, seed, level, jobs))


COMMANDS = [report]
