"""five35.checks: checks of the spec against the engine; they produce typed Findings.

The public API stays at the top: findings.py (Finding, CheckResult, CheckContext, ...), runner.py
(run_checks and the one registry CHECKS) and hypothesis_env.py (how every Hypothesis run is set
up). The checks live in sub-packages by concept: oracles/ (the rules stated independently of the
engine: the Z3 model, SpecRules, situations, strategies), play/ (checks that play the engine),
solver/ (Z3 proofs and divergence witnesses), text/ (checks of the rule texts), discovery/ (what
nobody wrote into the spec), fuzz/ (another engine against the reference, through the engine
protocol), impact/ (how much a finding matters in play, and the variant engines it compares) and
job/ (the report job: the one orchestrator, and the findings finished for the report).
"""

from typing import TYPE_CHECKING, Any

from .findings import (
    FINDING_KINDS,
    LEVELS,
    SEVERITIES,
    Alternative,
    Check,
    CheckContext,
    CheckResult,
    EngineFactory,
    Failure,
    Finding,
    FindingKind,
    Impact,
    ProvedProperty,
    Scene,
    Severity,
    Side,
    Status,
    Witness,
)

if TYPE_CHECKING:
    from .runner import CHECKS, CheckRun, load_baseline, run_checks, save_baseline

#: What the runner gives the package's API, imported on first use: the runner imports every check
#: (Z3, Hypothesis, networkx), and a module that needs only the findings' types (the engine
#: protocol's commands, the report's renderers) should not pay for them.
_FROM_RUNNER = frozenset({"CHECKS", "CheckRun", "load_baseline", "run_checks", "save_baseline"})


def __getattr__(name: str) -> Any:
    if name in _FROM_RUNNER:
        from . import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHECKS",
    "FINDING_KINDS",
    "LEVELS",
    "SEVERITIES",
    "Alternative",
    "Check",
    "CheckContext",
    "CheckResult",
    "CheckRun",
    "EngineFactory",
    "Failure",
    "Finding",
    "FindingKind",
    "Impact",
    "ProvedProperty",
    "Scene",
    "Severity",
    "Side",
    "Status",
    "Witness",
    "load_baseline",
    "run_checks",
    "save_baseline",
]
