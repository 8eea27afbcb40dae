"""The checks built on the Z3 model, in the order the check runner runs them.

Each is `check(ctx: CheckContext) -> CheckResult` (checks/findings.py), honours ctx.level, ctx.seed
and ctx.engine, and is independent of the others.
"""

from __future__ import annotations

from .conformance import check_conformance
from .dead_clauses import check_dead_clauses
from .divergence import check_divergence
from .findings import CheckFn
from .proofs import check_proofs
from .text_examples import check_text_examples

CHECKS: list[CheckFn] = [
    check_conformance,
    check_proofs,
    check_divergence,
    check_text_examples,
    check_dead_clauses,
]

__all__ = [
    "CHECKS",
    "check_conformance",
    "check_dead_clauses",
    "check_divergence",
    "check_proofs",
    "check_text_examples",
]
