"""The Markdown job summary (GITHUB_STEP_SUMMARY): the verdict, then tables of checks, failures, findings."""

from __future__ import annotations

from .common import Rendering, _one_line, discovery_lines, status_word, summary_line
from .places import Place, spec_name


def _md(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def render_markdown_summary(rendering: Rendering) -> str:
    """The job summary: the verdict, the checks table, the failures and the findings table."""
    run, baseline = rendering.run, rendering.baseline
    new = rendering.new_ids()
    lines = [
        "## " + rendering.words.job_summary("title", verdict=rendering.verdict()),
        "",
        f"Level {run.level}, seed {run.seed}, ruleset `{run.ruleset.label()}`, spec "
        f"`{spec_name(run.spec_path, rendering.root)}`. {summary_line(run, baseline, rendering.words)}",
        "",
        "| check | status | exhaustive | generated | proofs | findings | failures | time |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in run.results:
        status = status_word(r)
        if r.skipped is not None:
            status = f"skipped: {_md(r.skipped)}"
        elif r.error is not None:
            status = f"ERROR: {_md(r.error.message)}"
        elif r.ok and r.warnings:
            status = f"warning: {_md('; '.join(r.warnings))}"
        lines.append(
            f"| {r.name} | {status} | {r.exhaustive:,} | {r.generated:,} | {r.proofs:,} | "
            f"{len(r.findings)} | {len(r.failures)} | {r.seconds:.1f}s |"
        )
    if run.failures:
        lines += [
            "",
            f"### Failures ({len(run.failures)})",
            "",
            "| check | where | failure |",
            "|---|---|---|",
        ]
        for f in run.failures:
            lines.append(f"| {f.check} | {_where(rendering.failure_place(f))} | {_md(f.message)[:300]} |")
    discovered = discovery_lines(run, rendering.words)
    if discovered:
        lines += ["", "### Discovery", ""]
        lines += [
            f"- {_md(line)}" if not line.startswith("  ") else f"  - {_md(line)}" for line in discovered
        ]
    findings = rendering.ordered_findings()
    if findings:
        counted = f"{len(findings)}; {len(new)} new" if baseline is not None else f"{len(findings)}"
        lines += [
            "",
            f"### Findings ({counted})",
            "",
            "| finding | kind | severity | status | where | title |",
            "|---|---|---|---|---|---|",
        ]
        for finding in findings:
            state = ("**new**" if finding.id in new else "known") if baseline is not None else "-"
            lines.append(
                f"| `{finding.id}` | {finding.kind} | {finding.severity} | {state} | "
                f"{_where(rendering.finding_place(finding))} | {_md(finding.title)} |"
            )
    return "\n".join(lines) + "\n"


def _where(place: Place) -> str:
    if place.file is not None:
        return f"`{place.file}:{place.line}`"
    return _md(place.words())
