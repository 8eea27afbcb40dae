"""What `535-check` does with no command: check the embedded spec at level ci and write the report
into ./535-report/, then say where it went. The exit code is the one `check` would give."""

from __future__ import annotations

from five35.spec import load_spec

from .main import DEFAULT_SEED
from .report_cmd import DEFAULT_GAMES, DEFAULT_OUT, run_report


def default_job() -> int:
    spec = load_spec()
    # No option names the directory here, so an error about it names the path.
    return run_report(
        spec, spec.ruleset(), DEFAULT_OUT, DEFAULT_GAMES, DEFAULT_SEED, "ci", place=f"./{DEFAULT_OUT}"
    )
