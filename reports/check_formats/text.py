"""The text summary, for people: a table of the checks, then what failed, what was found, the verdict."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ...engine.engines import engine_note
from ...spec.words_model import FormatWords, Words
from .common import (
    _one_line,
    _scenario_line,
    discovery_lines,
    kind_count,
    plural,
    status_word,
    summary_line,
    verdict,
)

if TYPE_CHECKING:
    from ...checks.runner import CheckRun


def render_text(
    run: CheckRun,
    words: FormatWords,
    all_words: Words,
    *,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
) -> str:
    say = words.text
    lines = [
        say("head", level=run.level, seed=run.seed, ruleset=run.ruleset.label()),
        f"  spec {run.spec_path}",
        f"  engine {run.engine}",
        f"  rules {engine_note(run.ruleset, all_words.engines)}",
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
            status_word(r),
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
    lines += ["", summary_line(run, baseline, words)]
    skipped = run.skipped
    if skipped:
        lines += ["", "Skipped:"]
        lines += [f"  [{r.name}] {r.skipped}" for r in skipped]
    if run.warned:
        lines += ["", "Warnings:"]
        lines += [f"  [{r.name}] {_one_line(w)}" for r in run.warned for w in r.warnings]
    if run.failures:
        lines += ["", "Failures:"]
        for r in run.results:
            if r.error is not None:
                where = say("in_engine") if r.error.in_engine else say("in_check")
                lines.append(f"  [{r.name}] ERROR {where}: {_one_line(r.error.message)}")
                continue
            for f in r.failures:
                lines.append(f"  [{f.check}] {_one_line(f.message)}")
                if f.witness is not None:
                    scenario = f.witness.situation.get("scenario")
                    if isinstance(scenario, dict):
                        lines.append(f"      replay: {_scenario_line(scenario, all_words)}")
                    lines.append(
                        f"      witness: {plural(f.witness.cards, 'card')}; engine "
                        f"{f.witness.outcomes.get('engine')!r}, spec {f.witness.outcomes.get('spec')!r}"
                    )
    findings = run.findings
    if findings:
        new = {n.id for n in run.new_findings(baseline)}
        kinds = Counter(finding.kind for finding in findings)
        by_kind = ", ".join(kind_count(n, kind, words) for kind, n in sorted(kinds.items()))
        lines += ["", f"Findings ({by_kind}{f'; {len(new)} new' if baseline is not None else ''}):"]
        for finding in findings:
            mark = " [new]" if baseline is not None and finding.id in new else ""
            lines.append(f"  {finding.id} ({finding.kind}){mark}: {_one_line(finding.title)}")
    discovered = discovery_lines(run, words)
    if discovered:
        lines += ["", *discovered]
    lines += ["", verdict(run, baseline=baseline, strict=strict, words=words)]
    return "\n".join(lines) + "\n"
