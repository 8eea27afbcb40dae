"""GitLab Code Quality: an issue per failure, warning and finding, each with a path GitLab needs."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...checks.findings import Severity
from ...spec import Spec, dumps
from .common import _one_line
from .places import Place, _place, failure_place, finding_place, ordered_findings

if TYPE_CHECKING:
    from ...checks.runner import CheckRun


_GITLAB_SEVERITY = {Severity.HIGH: "major", Severity.MEDIUM: "minor", Severity.LOW: "info"}


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def render_gitlab(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> str:
    """A GitLab Code Quality report (the Code Climate issue subset GitLab reads). GitLab needs a
    path for every issue: a spec outside the root is named by its package path (EMBEDDED_NAME) or
    file name, which GitLab shows without a link."""
    new = {f.id for f in run.new_findings(baseline)}
    issues: list[dict[str, Any]] = []

    def issue(check_name: str, description: str, severity: str, place: Place, key: str) -> dict[str, Any]:
        return {
            "type": "issue",
            "check_name": check_name,
            "description": _one_line(description),
            "categories": ["Bug Risk"],
            "severity": severity,
            "fingerprint": _fingerprint(place.spec_name, key),
            "location": {"path": place.file or place.spec_name, "lines": {"begin": place.line}},
        }

    for n, f in enumerate(run.failures):
        place = failure_place(run, f, spec, root)
        issues.append(issue(f"535-check/{f.check}", f.message, "critical", place, f"failure/{f.check}/{n}"))
    for r in run.warned:
        place = _place(run, spec, root, ("", ""))
        for n, w in enumerate(r.warnings):
            issues.append(issue(f"535-check/{r.name}", w, "minor", place, f"warning/{r.name}/{n}"))
    for finding in ordered_findings(run, baseline):
        place = finding_place(run, finding, spec, root)
        severity = "critical" if strict and finding.id in new else _GITLAB_SEVERITY[finding.severity]
        issues.append(
            issue(
                f"535-check/{finding.kind}",
                f"{finding.id}: {finding.title}. {finding.detail}",
                severity,
                place,
                f"finding/{finding.id}",
            )
        )
    return dumps(issues) + "\n"
