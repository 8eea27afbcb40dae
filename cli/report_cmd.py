"""`535-check report`: the rule-clarification report (report.md, report.html, technical.md and
report.json).

The report's files appear together when the run ends, or not at all: they are written into a
temporary directory beside the target (inside it, when it exists) and moved into place last.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path

import click

from ..checks.findings import DEFAULT_SOLVER_RLIMIT, CheckResult, Level
from ..checks.job import run as report_job
from ..checks.runner import all_checks
from ..executor import Executor, default_jobs
from ..reports import FILES, report_data, write_report
from ..reports.check_formats import kind_count, plural
from ..spec import Ruleset, Spec, SpecError
from ..spec.words import words_of
from .common import (
    EXIT_FAILED,
    EXIT_OK,
    cli_executor,
    detail,
    examples_epilog,
    executor_options,
    games_option,
    info,
    jobs_option,
    keep_interrupts_from_z3,
    level_option,
    out_dir_option,
    resolve,
    rules_options,
    seed_option,
    solver_rlimit_option,
)
from .outputs import Outputs
from .progress import Ticker, progress

# Matches per player count. The main job must stay within 20 s on the 2-core machine, and the
# matches are most of its CPU: 150 rather than 200 took it from 20.1-20.3 s to 17.9-18.3 s there
# (38 s of CPU to 34 s), ranked the report's questions the same and kept every clear difference
# but one (benchmarks/main-job-profile.md); `--games` asks for more.
DEFAULT_GAMES = 150
DEFAULT_OUT = Path("535-report")
# The simulation splits into units of games that worker processes share; the report is the same for
# any number of workers.
DEFAULT_JOBS = default_jobs()


def run_report(
    spec: Spec,
    ruleset: Ruleset,
    out: Path,
    games: int,
    seed: int,
    level: Level,
    jobs: int = DEFAULT_JOBS,
    place: str = "--out",
    extra_files: Mapping[str, str] | None = None,
    executor: Executor | None = None,
    solver_rlimit: int = DEFAULT_SOLVER_RLIMIT,
) -> int:
    """Run the checks, the impact estimate and the variant comparison, write the report, print
    where it went; returns the exit code (1 when a check failed, as `535-check check`). `place`
    is what an error about `out` names (the option, or the path for the default job); `extra_files`
    (name -> text) are written beside the report, together with it. `executor` runs the
    simulations (default: `jobs` worker processes here); `solver_rlimit` is Z3's resource limit on
    each query of the checks."""
    with Outputs() as outputs:
        # Reserved before the long work, so that a report that cannot be written fails at once.
        target = outputs.directory(out, place, [*FILES, *(extra_files or {})])
        keep_interrupts_from_z3()
        start = time.perf_counter()
        words = words_of(spec)  # the report's and the summary's words, read once
        checks = len(all_checks())
        info(
            f"535-check report: running the checks at level {level} ({plural(checks, 'check')}) and "
            f"simulating {plural(games, 'match', 'matches')} per player count (seed {seed}, "
            f"{plural(executor.workers if executor is not None else jobs, 'worker')})"
        )
        # The checks run beside the simulations; their count gets plain lines of its own, until the
        # last one is in (a terminal has the games' bar).
        total = report_job.work_units(spec, ruleset, games)
        with (
            Ticker("report", "checks done", checks) as ticker,
            progress("report", "games simulated", total, "checking and simulating") as advance_games,
        ):

            def advance(name: str, result: CheckResult) -> None:
                ticker.update()
                detail(f"  {name}: {result.seconds:.1f}s")
                if ticker.done == checks:
                    ticker.stop()
                    detail(
                        f"535-check report: the checks were done after {time.perf_counter() - start:.1f} s"
                    )

            try:
                finished = report_job.report_result(
                    spec,
                    ruleset,
                    games=games,
                    seed=seed,
                    level=level,
                    progress=advance_games,
                    jobs=jobs,
                    on_check=advance,
                    executor=executor,
                    solver_rlimit=solver_rlimit,
                )
                data = report_data(finished)
                write_report(target.temp, data, words.pages, extra=extra_files)
            except OSError as exc:
                raise SpecError(
                    place, f"cannot write the report into {out} ({exc.strerror or exc})"
                ) from None
        outputs.commit()
    seconds = time.perf_counter() - start
    summary = data["summary"]
    kinds = ", ".join(
        kind_count(v["total"], k, words.formats) for k, v in summary["by_kind"].items() if v["total"]
    )
    failures = len(data["failures"])
    written = ", ".join([*FILES, *(extra_files or {})])
    click.echo(f"report written to {out}/: {written}")
    for problem in data["consistency"]:
        # A claim the report's own data contradicts: the words file or the spec to mend.
        click.echo(f"warning: the report contradicts itself: {problem}", err=True)
    click.echo(
        f"{plural(summary['total'], 'finding')} ({kinds}); {summary['open']} open; "
        f"{plural(failures, 'check failure')}; seed {seed}; {seconds:.1f} s"
    )
    return EXIT_FAILED if failures else EXIT_OK


@click.command(
    "report",
    help="Write the rule-clarification report for rule designers: report.md and report.html (one "
    "self-contained file), technical.md (the ids, every finding, the checks and the proofs) and "
    "report.json (schema: five35/reports/report.schema.json). One section per question: the clauses "
    "in German and Spanish, the readings, a table situation, how often it matters in simulated play, "
    "outside evidence, a proposed wording and its status; then a comparison of the named profiles "
    "in play. The same spec and seed give byte-identical files. "
    "Exit 1 when a check fails (as `check`).",
    epilog=examples_epilog(
        [
            "535-check report                                  # ./535-report/, about a minute",
            "535-check report --out docs/report --games 50 --level quick",
            "535-check report --spec house-rules.yaml --profile german-literal",
            "535-check report --games 5000 --executor dask --scheduler tcp://10.0.0.5:8786",
        ]
    ),
)
@rules_options
@out_dir_option(
    "Directory to write the report into (made if missing; other files in it are left alone).",
    default=DEFAULT_OUT,
    show_default=True,
)
@games_option(
    DEFAULT_GAMES,
    "Simulated matches per player count, for the impact estimate and for each variant (sets the cost).",
)
@seed_option("Seed of the checks and base seed of every simulated game.")
@level_option("How thoroughly the checks run.")
@jobs_option(DEFAULT_JOBS, "N", "Worker processes for the simulation (the report is the same for any N).")
@solver_rlimit_option
@executor_options
def report(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    out: Path,
    games: int,
    seed: int,
    level: Level,
    jobs: int,
    solver_rlimit: int,
    executor_kind: str,
    scheduler: str | None,
) -> None:
    rules = resolve(spec_path, profile, readings)
    with cli_executor(executor_kind, jobs, scheduler) as executor:
        code = run_report(
            rules.spec,
            rules.ruleset,
            out,
            games,
            seed,
            level,
            jobs,
            executor=executor,
            solver_rlimit=solver_rlimit,
        )
    sys.exit(code)


COMMANDS = [report]
