"""What `535-check` does with no command: check the embedded spec at level ci and write the report
into ./535-report/, then say where it went. The exit code is the one `check` would give."""

from __future__ import annotations

from five35.spec import load_spec

from .report_cmd import DEFAULT_GAMES, DEFAULT_OUT, DEFAULT_SEED, run_report


def default_job() -> int:
    spec = load_spec()
    return run_report(spec, spec.ruleset(), DEFAULT_OUT, DEFAULT_GAMES, DEFAULT_SEED, "ci")
