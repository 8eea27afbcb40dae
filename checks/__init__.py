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

__all__ = [
    "FINDING_KINDS",
    "LEVELS",
    "Check",
    "CheckContext",
    "CheckResult",
    "EngineFactory",
    "Failure",
    "Finding",
    "Impact",
    "Witness",
]
