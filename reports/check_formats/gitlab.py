"""GitLab Code Quality: an issue per failure, warning and finding, each with a path GitLab needs."""

from __future__ import annotations

import hashlib
from typing import Any

from ...checks.findings import Severity
from ...spec import dumps
from .common import Rendering, _one_line
from .places import Place, _place

_GITLAB_SEVERITY = {Severity.HIGH: "major", Severity.MEDIUM: "minor", Severity.LOW: "info"}


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def render_gitlab(rendering: Rendering) -> str:
    """A GitLab Code Quality report (the Code Climate issue subset GitLab reads). GitLab needs a
    path for every issue: a spec outside the root is named by its package path (EMBEDDED_NAME) or
    file name, which GitLab shows without a link."""
    run = rendering.run
    new = rendering.new_ids()
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
        place = rendering.failure_place(f)
        issues.append(issue(f"535-check/{f.check}", f.message, "critical", place, f"failure/{f.check}/{n}"))
    for r in run.warned:
        place = _place(run, rendering.spec, rendering.root, ("", ""))
        for n, w in enumerate(r.warnings):
            issues.append(issue(f"535-check/{r.name}", w, "minor", place, f"warning/{r.name}/{n}"))
    for finding in rendering.ordered_findings():
        place = rendering.finding_place(finding)
        severity = (
            "critical" if rendering.strict and finding.id in new else _GITLAB_SEVERITY[finding.severity]
        )
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
