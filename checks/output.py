"""Render a CheckRun: text summary, JSON, JUnit XML, SARIF 2.1.0, GitHub workflow annotations.

JSON and SARIF carry no timings, so the same seed gives byte-identical files; the text summary and
JUnit (whose schema has a `time` attribute) show them.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from five35.spec import Spec, dumps

from .findings import Failure, Finding
from .runner import CheckRun

Format = Literal["text", "json", "junit", "sarif", "github"]
FORMATS: tuple[Format, ...] = ("text", "json", "junit", "sarif", "github")

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/five35/five35"

# Where in the spec an invariant's rule is stated, so annotations land on the right line.
INVARIANT_CLAUSES = {
    "leader.no_pass": "lead.no_pass",
    "trick.end": "trick.end",
    "trick.winner": "trick.winner",
    "turn.next": "action.pass.out",
    "round.end": "round.end",
    "round.penalties": "round.scoring",
    "match.end": "match.end",
    "pile.caps": "trick.end.set",
    "pile.valid": "pile.types",
    "pile.result": "action.add",
    "moves.allowed": "action.choice",
    "cards.accounted": "deck.copies",
}
CHECK_CLAUSES = {"graphs.succession": "pile.run", "graphs.beats": "action.overwrite"}


def render(
    run: CheckRun,
    fmt: Format,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
) -> str:
    renderers: dict[str, Callable[[], str]] = {
        "text": lambda: render_text(run, baseline=baseline, strict=strict),
        "json": lambda: dumps(run.to_json(baseline, strict=strict)) + "\n",
        "junit": lambda: render_junit(run, baseline=baseline, strict=strict),
        "sarif": lambda: render_sarif(run, spec=spec, baseline=baseline, strict=strict),
        "github": lambda: render_github(run, spec=spec, baseline=baseline, strict=strict),
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    return renderers[fmt]()


def verdict(run: CheckRun, *, baseline: frozenset[str] | None, strict: bool) -> str:
    if run.failures:
        return "FAILED"
    if strict and run.new_findings(baseline):
        return "FAILED (new findings under --strict)"
    return "PASSED"


def summary_line(run: CheckRun, baseline: frozenset[str] | None) -> str:
    t = run.totals()
    new = len(run.new_findings(baseline))
    known = f", {new} new" if baseline is not None else ""
    return (
        f"Checked {t['exhaustive']:,} situations exhaustively, generated {t['generated']:,}, ran "
        f"{t['proofs']:,} proofs, made {t['findings']} findings{known}; {t['failures']} failures."
    )


# ---- text ---------------------------------------------------------------------------------------


def render_text(run: CheckRun, *, baseline: frozenset[str] | None = None, strict: bool = False) -> str:
    lines = [
        f"535-check check: level {run.level}, seed {run.seed}, ruleset {run.ruleset.label()}",
        f"  spec {run.spec_path}",
        f"  engine {run.engine}",
        "",
    ]
    header = ("check", "exhaustive", "generated", "proofs", "findings", "failures", "time", "")
    rows = [
        (
            r.name,
            f"{r.exhaustive:,}",
            f"{r.generated:,}",
            f"{r.proofs:,}",
            str(len(r.findings)),
            str(len(r.failures)),
            f"{r.seconds:.1f}s",
            "ok" if r.ok else "FAIL",
        )
        for r in run.results
    ]
    t = run.totals()
    rows.append(
        (
            "total",
            f"{t['exhaustive']:,}",
            f"{t['generated']:,}",
            f"{t['proofs']:,}",
            str(t["findings"]),
            str(t["failures"]),
            f"{run.seconds:.1f}s",
            "",
        )
    )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for n, row in enumerate([header, *rows]):
        if n == len(rows):
            lines.append("  ".join("-" * w for w in widths).rstrip())
        cells = [
            row[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1], strict=True)),
            row[-1],
        ]
        lines.append("  ".join(cells).rstrip())
    lines += ["", summary_line(run, baseline)]
    if run.failures:
        lines += ["", "Failures:"]
        for f in run.failures:
            lines.append(f"  [{f.check}] {_one_line(f.message)}")
            if f.witness is not None:
                scenario = f.witness.situation.get("scenario")
                if isinstance(scenario, dict):
                    lines.append(f"      replay: {_scenario_line(scenario)}")
                lines.append(
                    f"      witness: {f.witness.cards} cards; engine {f.witness.outcomes.get('engine')!r}, "
                    f"spec {f.witness.outcomes.get('spec')!r}"
                )
    findings = run.findings
    if findings:
        new = {n.id for n in run.new_findings(baseline)}
        kinds = Counter(finding.kind for finding in findings)
        by_kind = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        lines += ["", f"Findings ({by_kind}{f'; {len(new)} new' if baseline is not None else ''}):"]
        for finding in findings:
            mark = " [new]" if baseline is not None and finding.id in new else ""
            lines.append(f"  {finding.id} ({finding.kind}){mark}: {_one_line(finding.title)}")
    lines += ["", verdict(run, baseline=baseline, strict=strict)]
    return "\n".join(lines) + "\n"


def _scenario_line(scenario: dict[str, Any]) -> str:
    from .play.matches import scenario_text

    changed = scenario.get("readings", {})
    return (
        f"profile {scenario.get('profile')}, {scenario_text(scenario)}"
        if changed
        else scenario_text(scenario)
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ---- JUnit --------------------------------------------------------------------------------------

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("?", text)


def render_junit(run: CheckRun, *, baseline: frozenset[str] | None = None, strict: bool = False) -> str:
    """JUnit XML: one testcase per check, each failure a <failure>; under --strict new findings too."""
    new = run.new_findings(baseline)
    strict_case = strict and bool(new)
    tests = len(run.results) + (1 if strict else 0)
    failed = sum(1 for r in run.results if not r.ok) + (1 if strict_case else 0)
    suites = ET.Element(
        "testsuites",
        name="535-check",
        tests=str(tests),
        failures=str(failed),
        errors="0",
        time=f"{run.seconds:.3f}",
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        name=f"535-check check ({run.ruleset.label()})",
        tests=str(tests),
        failures=str(failed),
        errors="0",
        skipped="0",
        time=f"{run.seconds:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for key, value in (
        ("level", run.level),
        ("seed", str(run.seed)),
        ("spec", run.spec_path),
        ("engine", run.engine),
        ("ruleset", run.ruleset.label()),
    ):
        ET.SubElement(props, "property", name=key, value=_xml_text(value))
    for r in run.results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"five35.checks.{r.name.split('.')[0]}",
            name=r.name,
            time=f"{r.seconds:.3f}",
        )
        for f in r.failures[:1]:
            more = f" (and {len(r.failures) - 1} more)" if len(r.failures) > 1 else ""
            failure = ET.SubElement(
                case, "failure", message=_xml_text(_one_line(f.message)[:500] + more), type="five35.Failure"
            )
            failure.text = _xml_text("\n\n".join(_failure_detail(x) for x in r.failures))
        out = [
            r.title,
            f"exhaustive {r.exhaustive}, generated {r.generated}, proofs {r.proofs}, "
            f"findings {len(r.findings)}",
            *r.notes,
            *(f"finding {f.id}: {f.title}" for f in r.findings),
        ]
        ET.SubElement(case, "system-out").text = _xml_text("\n".join(out))
    if strict:
        case = ET.SubElement(
            suite, "testcase", classname="five35.checks.baseline", name="no new findings", time="0.000"
        )
        if strict_case:
            failure = ET.SubElement(
                case, "failure", message=f"{len(new)} new findings under --strict", type="five35.NewFinding"
            )
            failure.text = _xml_text("\n".join(f"{f.id} ({f.kind}): {f.title}" for f in new))
    ET.SubElement(suite, "system-out").text = _xml_text(summary_line(run, baseline))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _failure_detail(f: Failure) -> str:
    parts = [f.message]
    if f.witness is not None:
        parts.append(f"witness ({f.witness.cards} cards): {f.witness.summary}")
        scenario = f.witness.situation.get("scenario")
        if isinstance(scenario, dict):
            parts.append(f"replay: {_scenario_line(scenario)}")
        parts.append(dumps(f.witness.to_json()))
    return "\n".join(parts)


# ---- SARIF and GitHub annotations -------------------------------------------------------------


def _spec_uri(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return Path(path).as_uri()
    return Path(rel).as_posix() if not rel.startswith("..") else Path(path).resolve().as_uri()


def _failure_clause(f: Failure) -> str | None:
    invariant = f.message.split(":", 1)[0].strip()
    return INVARIANT_CLAUSES.get(invariant) or CHECK_CLAUSES.get(f.check)


def _line(spec: Spec | None, clause: str | None) -> int:
    if spec is None or clause is None or clause not in spec.clauses:
        return 1
    return spec.clauses[clause].line


def _finding_line(spec: Spec | None, f: Finding) -> int:
    point = f.variation_point
    if spec is not None and point is not None and point in spec.variation_points:
        return spec.variation_points[point].line
    return _line(spec, f.clauses[0] if f.clauses else None)


def render_sarif(
    run: CheckRun, *, spec: Spec | None = None, baseline: frozenset[str] | None = None, strict: bool = False
) -> str:
    uri = _spec_uri(run.spec_path)
    new = {f.id for f in run.new_findings(baseline)}
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []

    def location(line: int) -> list[dict[str, Any]]:
        return [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": line}}}]

    for f in run.failures:
        rule_id = f"failure/{f.check}"
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": f.check,
                "shortDescription": {"text": f"The engine breaks {f.check}"},
                "defaultConfiguration": {"level": "error"},
            },
        )
        results.append(
            {
                "ruleId": rule_id,
                "level": "error",
                "message": {"text": _one_line(f.message)},
                "locations": location(_line(spec, _failure_clause(f))),
                "properties": {
                    "readings": dict(f.readings),
                    "witness": f.witness.to_json() if f.witness else None,
                },
            }
        )
    for finding in run.findings:
        rule_id = f"finding/{finding.kind}"
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": finding.kind,
                "shortDescription": {"text": f"Rules {finding.kind}"},
                "defaultConfiguration": {"level": "warning"},
            },
        )
        is_new = finding.id in new
        results.append(
            {
                "ruleId": rule_id,
                "level": "error" if strict and is_new else ("warning" if is_new else "note"),
                "message": {"text": _one_line(f"{finding.title}. {finding.detail}")},
                "locations": location(_finding_line(spec, finding)),
                "partialFingerprints": {"findingId": finding.id},
                "baselineState": ("new" if is_new else "unchanged") if baseline is not None else None,
                "properties": {
                    "id": finding.id,
                    "clauses": list(finding.clauses),
                    "witness": finding.witness.to_json() if finding.witness else None,
                },
            }
        )
    for r in results:
        if r.get("baselineState") is None:
            r.pop("baselineState", None)
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
                "automationDetails": {"id": f"535-check/{run.level}/{run.seed}"},
                "results": results,
                "properties": {
                    "seed": run.seed,
                    "level": run.level,
                    "ruleset": run.ruleset.label(),
                    "totals": run.totals(),
                },
            }
        ],
    }
    return dumps(doc) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(
    run: CheckRun, *, spec: Spec | None = None, baseline: frozenset[str] | None = None, strict: bool = False
) -> str:
    """GitHub Actions workflow commands: failures as errors, new findings as warnings (errors under
    --strict), known findings as notices; then the summary line."""
    path = _spec_uri(run.spec_path)
    new = {f.id for f in run.new_findings(baseline)}
    lines = []

    def command(kind: str, line: int, title: str, message: str) -> str:
        props = f"file={_escape_property(path)},line={line},title={_escape_property(title)}"
        return f"::{kind} {props}::{_escape_data(message)}"

    for f in run.failures:
        lines.append(command("error", _line(spec, _failure_clause(f)), f"535-check {f.check}", f.message))
    for finding in run.findings:
        is_new = finding.id in new
        kind = ("error" if strict else "warning") if is_new else "notice"
        lines.append(
            command(
                kind,
                _finding_line(spec, finding),
                f"{finding.kind}: {finding.id}",
                f"{finding.title}. {finding.detail}",
            )
        )
    lines.append(
        f"535-check check (level {run.level}, seed {run.seed}): {summary_line(run, baseline)} "
        f"{verdict(run, baseline=baseline, strict=strict)}"
    )
    return "\n".join(lines) + "\n"
