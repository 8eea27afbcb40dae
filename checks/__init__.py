"""five35.checks: checks of the spec against the engine; they produce typed Findings."""

from .findings import (
    FINDING_KINDS,
    LEVELS,
    Check,
    CheckContext,
    CheckResult,
    EngineFactory,
    Failure,
    Finding,
    Impact,
    Witness,
)
from .runner import CheckRun, load_baseline, run_checks, save_baseline

__all__ = [
    "FINDING_KINDS",
    "LEVELS",
    "Check",
    "CheckContext",
    "CheckResult",
    "CheckRun",
    "EngineFactory",
    "Failure",
    "Finding",
    "Impact",
    "Witness",
    "load_baseline",
    "run_checks",
    "save_baseline",
]
