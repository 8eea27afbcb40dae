"""The embedded spec's report with the real checks at level ci, built once per worker process: the
report tests read it, and the solver's determinism test holds a fresh process's Z3 checks to its
results (tests/scheduling.py runs them all in one worker, the "full_report" group)."""

from __future__ import annotations

from functools import cache
from typing import Any

from five35.checks.findings import CheckResult
from five35.checks.job import run as report_job
from five35.checks.runner import run_checks, select_checks
from five35.reports import report_data
from five35.spec import load_spec

#: The seed and the games per reading of the report (a few: the checks are what the tests read).
SEED = 5
GAMES = 3


#: The checks that hold only the engine to the model (conformance, the invariants over whole
#: matches, the endgame graphs, the interpreter against the reference): the reference engine passes
#: them (their own tests run them at level ci), so they add no finding to the report, and leaving
#: them out spares a third of the fixture.
ENGINE_ONLY = ("conformance", "interpreter", "invariants.matches", "graphs.endgames")


@cache
def full_report() -> tuple[dict[str, Any], list[CheckResult]]:
    """The embedded spec's report with the real checks at level ci but ENGINE_ONLY, over a few
    games."""
    spec = load_spec()
    ruleset = spec.ruleset()
    checks = [c.name for c in select_checks(None) if c.name not in ENGINE_ONLY]
    run = run_checks(spec, ruleset, level="ci", seed=SEED, only=checks)
    data = report_job.report_result(
        spec,
        ruleset,
        games=GAMES,
        seed=SEED,
        level="ci",
        bots=("greedy", "cautious", "random"),
        variants=False,
        results=run.results,
    )
    return report_data(data), list(data.results)
