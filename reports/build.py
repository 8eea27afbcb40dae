"""The report's data: every finding as a section a rule designer can read, the summary and verdict,
and the variant comparison. This module only arranges what the checks (Findings), the impact
estimate and the simulation (Stats) produced; it decides no rule itself.

`report_data(...)` returns plain JSON-able data (the content of report.json, described by
report.schema.json); the Markdown and HTML renderers draw from the same data, so the three files
always say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

import yaml
from five35.checks.findings import (
    FINDING_KINDS,
    CheckResult,
    Failure,
    Finding,
    Impact,
    Severity,
    Witness,
    point_status,
)
from five35.checks.impact import (
    Alternative,
    ImpactCounts,
    alternative_witness,
    estimate_alternatives,
    finding_alternative,
)
from five35.checks.text_audit import proposal_for_point
from five35.engine.simulate import Stats
from five35.spec import Ruleset, Spec

REPORT_FORMAT = "five35-report/1"
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")


@cache
def evidence_table() -> dict[str, dict[str, str]]:
    """The outside evidence (reports/evidence.yaml): id -> {fact, source}."""
    text = resources.files("five35.reports").joinpath("evidence.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)["evidence"]
    out: dict[str, dict[str, str]] = {}
    for key, row in data.items():
        source = str(row["source"])
        # The evidence file says "same page" for facts from the page named in the row above; a
        # section quoting one fact alone must still name it.
        if row.get("same_source_as"):
            source = f"{source} ({row['same_source_as']}: {data[row['same_source_as']]['source']})"
        out[str(key)] = {"fact": str(row["fact"]), "source": source}
    return out


@dataclass(frozen=True)
class PointImpact:
    """The impact of one variation point: the Impact and the counts behind it."""

    point: str
    played: str
    compared: str
    impact: Impact
    per_players: Mapping[int, ImpactCounts]


@dataclass(frozen=True)
class Variant:
    """One column of the variant comparison: a ruleset and its stats per player count. A player
    count the ruleset cannot deal is listed in `unplayable` with the reason."""

    label: str
    title: str
    readings: Mapping[str, str]
    stats: Mapping[int, Stats]
    unplayable: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportInputs:
    """Everything a report is made from."""

    spec: Spec
    ruleset: Ruleset
    results: Sequence[CheckResult]
    impacts: Mapping[str, PointImpact]
    variants: Sequence[Variant]
    games: int
    seed: int
    level: str
    bots: Sequence[str]
    mode: str = "match"
    notes: Sequence[str] = ()
    # The impact of findings that are not one variation point, by finding id; measured here over
    # the same games when not given.
    finding_impacts: Mapping[str, PointImpact] | None = None


def _clauses(spec: Spec, ids: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for cid in ids:
        clause = spec.clauses.get(cid)
        if clause is None:
            out.append({"id": cid, "de": None, "es": None, "defect": None})
        else:
            out.append({"id": cid, "de": clause.de, "es": clause.es, "defect": clause.defect})
    return out


def _reading_of(spec: Spec, key: str, text: str, point: str | None) -> tuple[str, str] | None:
    """The (point, reading) a finding's readings entry names. Checks key them by reading name (for
    the finding's own point), by "point=reading", or by point name with the reading's own words."""
    vps = spec.variation_points
    if "=" in key:
        p, _, r = key.partition("=")
        return (p, r) if p in vps and r in vps[p].readings else None
    if key in vps:
        for r, words in vps[key].readings.items():
            if words == text:
                return (key, r)
        return None
    if point is not None and point in vps and key in vps[point].readings:
        return (point, key)
    return None


def _readings(spec: Spec, ruleset: Ruleset, finding: Finding) -> list[dict[str, Any]]:
    point = finding.variation_point if finding.variation_point in spec.variation_points else None
    entries: list[tuple[str, str, tuple[str, str] | None]] = []
    covered: set[tuple[str, str]] = set()
    for key, text in finding.readings.items():
        named = _reading_of(spec, key, text, point)
        if named is not None:
            if named in covered:
                continue
            covered.add(named)
            if "=" not in key:
                key = named[1] if named[0] == point else f"{named[0]}={named[1]}"
        entries.append((key, text, named))
    if point is not None:
        qualified = any("=" in key for key, _, _ in entries)
        for r, text in spec.variation_points[point].readings.items():
            if (point, r) not in covered:
                entries.append((f"{point}={r}" if qualified else r, text, (point, r)))
    out = []
    for name, text, named in entries:
        profiles = (
            sorted(
                p.name
                for p in spec.profiles.values()
                if p.readings.get(named[0]) is not None and p.readings[named[0]].reading == named[1]
            )
            if named
            else []
        )
        out.append(
            {
                "name": name,
                "explain": text,
                "chosen": named is not None and ruleset.reading(named[0]) == named[1],
                "profiles": profiles,
            }
        )
    return out


def _evidence(items: Sequence[str]) -> list[dict[str, Any]]:
    table = evidence_table()
    out: list[dict[str, Any]] = []
    for item in items:
        if item in table:
            out.append({"id": item, "fact": table[item]["fact"], "source": table[item]["source"]})
        else:
            # A sentence a check wrote itself, with its source inside it.
            out.append({"id": None, "fact": item, "source": None})
    return out


def _profile_choice(spec: Spec, ruleset: Ruleset, point: str | None) -> dict[str, Any] | None:
    if point is None or point not in spec.variation_points:
        return None
    profile = spec.profiles[ruleset.profile]
    choice = profile.readings.get(point)
    overridden = point in ruleset.overridden
    return {
        "profile": ruleset.label(),
        "reading": ruleset.reading(point),
        "basis": "--reading" if overridden or choice is None else choice.basis,
        "note": None if overridden or choice is None else choice.note,
    }


def _impact_json(pi: PointImpact) -> dict[str, Any]:
    data = pi.impact.to_json()
    data["played"] = pi.played
    data["compared"] = pi.compared
    data["first_change"] = {
        str(players): dict(sorted(c.first_change.items())) for players, c in sorted(pi.per_players.items())
    }
    return data


def _smallest_witness(pi: PointImpact) -> Witness | None:
    best: tuple[int, int, int] | None = None
    found: Witness | None = None
    for players, c in sorted(pi.per_players.items()):
        if c.witness is None:
            continue
        key = (c.witness.cards, players, c.witness_game)
        if best is None or key < best:
            best, found = key, c.witness
    return found


def _severity_by_impact(pi: PointImpact | None) -> Severity:
    """How much a point matters at the table: high when it changes most games at some player
    count, low when it (nearly) never does."""
    if pi is None:
        return "medium"
    top = max((row[1] for row in pi.impact.per_players.values()), default=0.0)
    if top < 0.05:
        return "low"
    # A point that only changes the deal or who moves next (a table convention) changes who gets
    # which chances, not what the rules allow: it is never more than medium.
    firsts = {change for c in pi.per_players.values() for change in c.first_change}
    convention = firsts <= {"deal", "next_turn"}
    return "high" if top >= 0.5 and not convention else "medium"


def base_point_finding(spec: Spec, ruleset: Ruleset, point: str, pi: PointImpact | None = None) -> Finding:
    """The section of a variation point no check reported on: the spec's own question and readings,
    its severity from the measured impact."""
    vp = spec.variation_points[point]
    return Finding(
        id=f"vp.{point}",
        kind="ambiguity",
        title=vp.question,
        clauses=vp.cites,
        detail=f"{vp.question} The spec's default is {vp.default}: {vp.rationale}",
        check="spec",
        severity=_severity_by_impact(pi),
        variation_point=point,
        readings=dict(vp.readings),
        evidence=vp.evidence,
        status=point_status(spec, ruleset, point),
    )


def collect_findings(
    spec: Spec,
    ruleset: Ruleset,
    results: Sequence[CheckResult],
    impacts: Mapping[str, PointImpact] | None = None,
) -> list[Finding]:
    """The checks' findings (first one of an id wins), plus a section for every variation point no
    check reported on, in a stable order: by kind, then severity, then id."""
    seen: dict[str, Finding] = {}
    for result in results:
        for finding in result.findings:
            seen.setdefault(finding.id, finding)
    for point in spec.variation_points:
        if f"vp.{point}" not in seen:
            seen[f"vp.{point}"] = base_point_finding(spec, ruleset, point, (impacts or {}).get(point))
    kinds = {k: i for i, k in enumerate(FINDING_KINDS)}
    sev = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(seen.values(), key=lambda f: (kinds.get(f.kind, 99), sev.get(f.severity, 9), f.id))


def _generic_proposal(finding: Finding) -> str:
    """A rulebook action for a finding whose check proposed no sentence and that has no variation
    point to borrow one from: what the designer has to decide, in the clauses' own terms."""
    named = ", ".join(finding.clauses) or "the rule"
    if finding.kind == "dead_clause":
        return f"Delete {named}, or state the situation in which it applies."
    if finding.kind == "contradiction":
        return f"Decide which of {named} holds and reword the others to agree with it."
    return f"Reword {named} so that it settles: {finding.title.rstrip('.?')}."


def finding_alternatives(
    spec: Spec, ruleset: Ruleset, findings: Sequence[Finding], impacts: Mapping[str, PointImpact]
) -> dict[str, Alternative]:
    """The alternatives of every finding whose impact neither its check nor its variation point
    gives: these are measured on their own, over the same seeded games."""
    out: dict[str, Alternative] = {}
    for finding in findings:
        point = _point_of(spec, finding)
        if finding.impact is not None or (point is not None and point in impacts):
            continue
        alt = finding_alternative(spec, ruleset, finding)
        if alt is not None:
            out[finding.id] = alt
    return out


def measure_finding_impacts(
    alts: Mapping[str, Alternative],
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str],
    jobs: int = 1,
) -> dict[str, PointImpact]:
    measured = estimate_alternatives(list(alts.values()), ruleset, games, seed, bots, jobs)
    return {
        fid: PointImpact(fid, alts[fid].labels[0], alts[fid].labels[1], impact, per)
        for fid, (impact, per) in measured.items()
    }


def _point_of(spec: Spec, finding: Finding) -> str | None:
    point = finding.variation_point
    if point is None and finding.id.startswith("vp.") and finding.id[3:] in spec.variation_points:
        point = finding.id[3:]
    return point


def _with_alternative_readings(finding: Finding, alt: Alternative | None) -> Finding:
    """A finding without readings of its own shows its alternatives' as its readings; a dead clause
    shows them beside the readings it hinges on, since its witness and impact are labelled by them."""
    if alt is None or (finding.readings and finding.kind != "dead_clause"):
        return finding
    merged = dict(finding.readings)
    for name, words in alt.readings.items():
        merged.setdefault(name, words)
    return replace(finding, readings=merged)


def _section(
    spec: Spec,
    ruleset: Ruleset,
    finding: Finding,
    by_id: Mapping[str, Finding],
    impacts: Mapping[str, PointImpact],
    alts: Mapping[str, Alternative] | None = None,
    finding_impacts: Mapping[str, PointImpact] | None = None,
) -> dict[str, Any]:
    point = _point_of(spec, finding)
    alt = (alts or {}).get(finding.id)
    if alt is None and (finding.witness is None or finding.witness.cards == 0):
        # Not measured on its own (its point's impact covers it), but its alternatives still give
        # the table situation it is about.
        alt = finding_alternative(spec, ruleset, finding)
    pi = impacts.get(point) if point else None
    own = (finding_impacts or {}).get(finding.id)
    impact_pi = pi or own
    impact = finding.impact or (impact_pi.impact if impact_pi else None)
    if finding.impact is not None:
        impact_source: str | None = "check"
    elif pi is not None:
        impact_source = f"vp.{point}"
    elif own is not None:
        impact_source = "alternatives"
    else:
        impact_source = None

    witness, witness_source = finding.witness, "check" if finding.witness else None
    check_note = ""
    if witness is not None and witness.cards == 0 and alt is not None:
        # The check proved that no situation exists (a dead clause, a failed property); the
        # closest table situation shows it in cards, played under both alternatives.
        scene = alternative_witness(alt)
        if scene is not None:
            check_note = f" The check {finding.check} found: {witness.summary}."
            witness, witness_source = scene, "scene"
    if witness is None and point:
        vp_finding = by_id.get(f"vp.{point}")
        if vp_finding is not None and vp_finding is not finding and vp_finding.witness is not None:
            witness, witness_source = vp_finding.witness, f"vp.{point}"
    if witness is None and alt is not None:
        witness = alternative_witness(alt)
        witness_source = "scene" if witness else None
    if witness is None and impact_pi is not None:
        witness = _smallest_witness(impact_pi)
        witness_source = "simulation" if witness else None

    if (
        witness_source == "check"
        and witness is not None
        and alt is not None
        and list(witness.outcomes) == list(alt.labels)
    ):
        check_note = (
            f"The situation the finding is about, set up by the check {finding.check} and played by "
            "the engine under both alternatives."
        )
    if witness is not None:
        witness_note = {
            "check": check_note.strip() or f"The minimal situation found by the check {finding.check}.",
            "scene": (
                "The situation the finding is about, played by the engine under both alternatives."
                + check_note
            ),
            "simulation": (
                "No check supplied a minimal situation; this is the smallest situation in which the "
                "alternatives differed during the simulated games."
            ),
        }.get(witness_source or "", f"The situation from the section {witness_source}.")
    elif impact_pi is not None:
        witness_note = (
            "In the simulated games the readings never differed, and no check supplied a situation."
        )
    else:
        witness_note = "This finding is about the text itself; there is no table situation to draw."

    if impact is None:
        impact_note: str | None = (
            "Not measured in this run."
            if point or alt
            else "Not measurable: the finding has no alternative reading to play against."
        )
    elif impact_source == f"vp.{point}" and finding.id != f"vp.{point}":
        impact_note = (
            f"This finding turns on the variation point {point}: the impact shown is that point's, "
            f"{impact_pi.played if impact_pi else ''} against {impact_pi.compared if impact_pi else ''}, "
            "measured over the same games."
        )
    elif impact_source == "alternatives":
        impact_note = "Measured for this finding: its two alternatives played over the same seeded games."
    else:
        impact_note = None

    proposal = (
        finding.proposed_wording
        or (proposal_for_point(spec, point) if point else None)
        or _generic_proposal(finding)
    )
    shown = _with_alternative_readings(replace(finding, variation_point=point), alt)
    impact_json = None
    if impact is not None:
        reused = impact_pi is not None and impact is impact_pi.impact
        impact_json = _impact_json(impact_pi) if impact_pi and reused else impact.to_json()
        impact_json["source"] = impact_source
    return {
        "id": finding.id,
        "kind": finding.kind,
        "severity": finding.severity,
        "title": finding.title,
        "detail": finding.detail,
        "check": finding.check,
        "status": finding.status,
        "variation_point": point,
        "clauses": _clauses(spec, finding.clauses),
        "readings": _readings(spec, ruleset, shown),
        "witness": witness.to_json() if witness else None,
        "witness_source": witness_source,
        "witness_note": witness_note,
        "impact": impact_json,
        "impact_note": impact_note,
        "evidence": _evidence(finding.evidence),
        "proposed_wording": proposal,
        "profile_choice": _profile_choice(spec, ruleset, point),
        "unsat_core": list(finding.unsat_core),
    }


def _summary(sections: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    by_kind = {k: dict.fromkeys(SEVERITIES, 0) for k in FINDING_KINDS}
    for s in sections:
        row = by_kind.setdefault(s["kind"], dict.fromkeys(SEVERITIES, 0))
        row[s["severity"]] = row.get(s["severity"], 0) + 1
    totals = {k: sum(v.values()) for k, v in by_kind.items()}
    open_count = sum(1 for s in sections if s["status"] == "open")
    return {
        "total": len(sections),
        "open": open_count,
        "settled": len(sections) - open_count,
        "by_kind": {k: {**v, "total": totals[k]} for k, v in by_kind.items()},
        "by_severity": {sev: sum(v.get(sev, 0) for v in by_kind.values()) for sev in SEVERITIES},
    }


def _max_share(section: Mapping[str, Any]) -> tuple[float, str]:
    impact = section.get("impact")
    if not impact:
        return (-1.0, "")
    best = (-1.0, "")
    for players, row in impact["per_players"].items():
        if row["share"] > best[0]:
            best = (row["share"], players)
    return best


def _verdict(
    sections: Sequence[Mapping[str, Any]],
    summary: Mapping[str, Any],
    failures: Sequence[Failure],
    ruleset: Ruleset,
) -> list[str]:
    points = [s for s in sections if s["id"].startswith("vp.")]
    open_points = [s for s in points if s["status"] == "open"]
    lines = [
        f"The two rule texts leave {len(points)} questions that play needs answered "
        f"({len(open_points)} of them still open under {ruleset.label()}); the checks found "
        f"{summary['total'] - len(points)} further findings: "
        + ", ".join(
            f"{v['total']} {k.replace('_', ' ')}"
            for k, v in summary["by_kind"].items()
            if v["total"] and k != "ambiguity"
        )
        + "."
    ]
    measured = sorted(
        ((_max_share(s), s["variation_point"]) for s in points if s.get("impact")),
        key=lambda item: (-item[0][0], item[1] or ""),
    )
    often = [(share, players, vp) for (share, players), vp in measured if share >= 0.5]
    never = [vp for (share, _), vp in measured if share == 0.0]
    if often:
        named = ", ".join(f"{vp} ({share:.0%} of games at {players} players)" for share, players, vp in often)
        lines.append(f"The choice of reading changes most games for: {named}.")
    if never:
        lines.append(
            "No simulated game was changed by: "
            + ", ".join(sorted(never))
            + " (a reading that never matters in play may be a dead rule)."
        )
    high = [s for s in sections if s["severity"] == "high"]
    high_open = [s for s in high if s["status"] == "open"]
    if high:
        lines.append(
            f"{len(high)} findings are of high severity, {len(high_open)} of them still open: settle "
            "them before the next printing."
        )
    if failures:
        lines.append(f"The reference engine failed {len(failures)} checks: see the failures below.")
    else:
        lines.append(
            "The reference engine passed every check: the findings are about the rules, not the code."
        )
    return lines


def _variant_json(v: Variant) -> dict[str, Any]:
    return {
        "label": v.label,
        "title": v.title,
        "readings": dict(sorted(v.readings.items())),
        "per_players": {str(p): v.stats[p].to_json() for p in sorted(v.stats)},
        "unplayable": {str(p): why for p, why in sorted(v.unplayable.items())},
    }


def report_data(inputs: ReportInputs) -> dict[str, Any]:
    """The whole report as JSON-able data (report.json)."""
    spec, ruleset = inputs.spec, inputs.ruleset
    findings = collect_findings(spec, ruleset, inputs.results, inputs.impacts)
    by_id = {f.id: f for f in findings}
    alts = finding_alternatives(spec, ruleset, findings, inputs.impacts)
    # Rendering measures nothing: the report job measures these beforehand (see reports/job.py).
    finding_impacts = inputs.finding_impacts or {}
    sections = [_section(spec, ruleset, f, by_id, inputs.impacts, alts, finding_impacts) for f in findings]
    failures = [f for r in inputs.results for f in r.failures]
    summary = _summary(sections)
    used_evidence = sorted({e["id"] for s in sections for e in s["evidence"] if e["id"]}, key=_evidence_key)
    table = evidence_table()
    return {
        "format": REPORT_FORMAT,
        "game": spec.game,
        "spec": spec.label,
        "ruleset": {"label": ruleset.label(), "profile": ruleset.profile, "readings": dict(ruleset.readings)},
        "run": {
            "level": inputs.level,
            "seed": inputs.seed,
            "games": inputs.games,
            "mode": inputs.mode,
            "bots": list(inputs.bots),
            "notes": list(inputs.notes),
        },
        "summary": summary,
        "verdict": _verdict(sections, summary, failures, ruleset),
        "checks": [
            {
                "name": r.name,
                "title": r.title,
                "exhaustive": r.exhaustive,
                "generated": r.generated,
                "proofs": r.proofs,
                "findings": len(r.findings),
                "failures": len(r.failures),
                "notes": list(r.notes),
            }
            for r in inputs.results
        ],
        "failures": [f.to_json() for f in failures],
        "findings": sections,
        "variants": [_variant_json(v) for v in inputs.variants],
        "evidence": [{"id": e, **table[e]} for e in used_evidence],
    }


def _evidence_key(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)
