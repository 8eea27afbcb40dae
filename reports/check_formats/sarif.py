"""SARIF 2.1.0, e.g. for GitHub code scanning: a rule per check that failed and per kind of finding."""

from __future__ import annotations

from typing import Any

from ...spec import Spec, dumps
from .common import Rendering, _one_line, _skipped_not_for_level, proved_properties
from .places import Place, spec_name

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_URI = "https://github.com/five35/five35"
#: A SARIF level for each severity of the words file's `severities.by_kind`.
_SARIF_LEVEL = {"high": "error", "medium": "warning", "low": "note"}


def _sarif_location(place: Place) -> dict[str, Any]:
    logical = {"name": place.ident or place.spec_name, "fullyQualifiedName": place.logical, "kind": "element"}
    if place.file is None:
        return {"logicalLocations": [logical]}
    return {
        "physicalLocation": {"artifactLocation": {"uri": place.file}, "region": {"startLine": place.line}},
        "logicalLocations": [logical],
    }


def render_sarif(rendering: Rendering) -> str:
    run, baseline = rendering.run, rendering.baseline
    words = rendering.words
    new = rendering.new_ids()
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    for f in run.failures:
        rule_id = f"failure/{f.check}"
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": f.check,
                "shortDescription": {"text": words.sarif("breaks", check=f.check)},
                "defaultConfiguration": {"level": "error"},
            },
        )
        results.append(
            {
                "ruleId": rule_id,
                "level": "error",
                "message": {"text": _one_line(f.message)},
                "locations": [_sarif_location(rendering.failure_place(f))],
                "properties": {
                    "readings": dict(f.readings),
                    "witness": f.witness.to_json() if f.witness else None,
                },
            }
        )
    by_kind = _kind_severity(rendering.spec)
    for finding in rendering.ordered_findings():
        rule_id = f"finding/{finding.kind}"
        noun = words.kind(finding.kind)
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": finding.kind,
                "shortDescription": {"text": words.sarif("rule", kind=noun.one, means=noun.means)},
                "defaultConfiguration": {"level": _SARIF_LEVEL.get(by_kind.get(finding.kind, ""), "warning")},
            },
        )
        is_new = finding.id in new
        result: dict[str, Any] = {
            "ruleId": rule_id,
            "level": "error" if rendering.strict and is_new else ("warning" if is_new else "note"),
            "message": {"text": _one_line(f"{finding.title}. {finding.detail}")},
            "locations": [_sarif_location(rendering.finding_place(finding))],
            "partialFingerprints": {"findingId": finding.id},
            "properties": {
                "id": finding.id,
                "severity": finding.severity.value,
                "kind": finding.kind.value,
                "topic": finding.topic,
                "clauses": list(finding.clauses),
                "witness": finding.witness.to_json() if finding.witness else None,
            },
        }
        if baseline is not None:
            result["baselineState"] = "new" if is_new else "unchanged"
        results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": _one_line(r.error.message)},
            "descriptor": {"id": r.name},
            "properties": {"inEngine": r.error.in_engine},
        }
        for r in run.errors
        if r.error is not None
    ] + [
        {
            "level": "note",
            "message": {"text": _one_line(f"{r.name} skipped: {r.skipped}")},
            "descriptor": {"id": r.name},
        }
        for r in _skipped_not_for_level(run)
    ]
    notifications += [
        {
            "level": "warning",
            "message": {"text": _one_line(w)},
            "descriptor": {"id": r.name},
        }
        for r in run.warned
        for w in r.warnings
    ]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "535-check",
                        "informationUri": TOOL_URI,
                        "rules": [rules[k] for k in sorted(rules)],
                    }
                },
                "invocations": [
                    {"executionSuccessful": not run.errors, "toolExecutionNotifications": notifications}
                ],
                "automationDetails": {"id": f"535-check/{run.level}/{run.seed}"},
                "results": results,
                "properties": {
                    "seed": run.seed,
                    "level": run.level,
                    "ruleset": run.ruleset.label(),
                    "spec": spec_name(run.spec_path, rendering.root),
                    "totals": run.totals(),
                    "skipped": [r.name for r in run.skipped],
                    "mutants": {r.name: r.mutants for r in run.results if r.mutants},
                    "proved": [p.to_json() for p in proved_properties(run)],
                },
            }
        ],
    }
    return dumps(doc) + "\n"


def _kind_severity(spec: Spec | None) -> dict[str, str]:
    """The words file's severity per discovered kind (severities.by_kind); none without a spec."""
    if spec is None:
        return {}
    from ...spec.words import words_of

    return dict(words_of(spec).kind_severity)
