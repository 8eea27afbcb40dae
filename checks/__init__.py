"""five35.checks: checks of the spec against the engine; they produce typed Findings.

The public API stays at the top: findings.py (Finding, CheckResult, CheckContext, ...), runner.py
(run_checks and the one registry CHECKS), pipeline.py (findings finished for the report),
output.py (text, JSON, JUnit, SARIF, ...) and hypothesis_env.py (how every Hypothesis run is set
up). The checks live in sub-packages by concept: oracles/ (the rules stated independently of the
engine: the Z3 model, SpecRules, situations, strategies), play/ (checks that play the engine),
solver/ (Z3 proofs and divergence witnesses), text/ (checks of the rule texts) and impact/ (how
much a finding matters in play, and the variant engines it compares).
"""

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
from .runner import CHECKS, CheckRun, load_baseline, run_checks, save_baseline

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
