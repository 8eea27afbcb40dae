"""The report's data: every finding as a section a rule designer can read, the summary and verdict,
and the variant comparison.

`report_data(data)` arranges a finished `ReportData` (five35.checks.pipeline: the checks' findings
with their witnesses, impacts, severities and proposed sentences already decided, and the variant
statistics) into plain JSON-able data, the content of report.json (described by report.schema.json);
the Markdown and HTML renderers draw from the same data, so the three files always say the same
thing. Nothing here plays the engine or decides a rule, a severity or a wording.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from five35.checks.findings import FINDING_KINDS, SEVERITIES, Failure, Finding, split_reading_key
from five35.checks.pipeline import ImpactSource, PointImpact, ReportData, Reviewed, Variant, WitnessSource
from five35.spec import Ruleset, Spec
from five35.spec.words import words_of

REPORT_FORMAT = "five35-report/1"


def evidence_table(spec: Spec) -> dict[str, dict[str, str]]:
    """The outside evidence of the spec's words file: id -> {fact, source}."""
    return {e.id: {"fact": e.fact, "source": e.source} for e in words_of(spec).evidence.values()}


def _clauses(spec: Spec, ids: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for cid in ids:
        clause = spec.clauses.get(cid)
        if clause is None:
            out.append({"id": cid, "de": None, "es": None, "defect": None})
        else:
            out.append({"id": cid, "de": clause.de, "es": clause.es, "defect": clause.defect})
    return out


def _readings(spec: Spec, ruleset: Ruleset, finding: Finding) -> list[dict[str, Any]]:
    """The finding's readings, then the two sides of its alternative where those are the choice it
    puts, then the other readings of its variation point. A finding all of whose readings are of its
    own point names them by reading; any other names them `point=reading`."""
    vps = spec.variation_points
    point = finding.variation_point if finding.variation_point in vps else None
    alt = finding.alternative if finding.alternative and finding.alternative.shown_as_readings else None
    entries: list[tuple[tuple[str, str] | None, str, str]] = []  # (point, reading) or None, name, words
    covered: set[tuple[str, str]] = set()
    for key, words in finding.readings.items():
        p, r = split_reading_key(key)
        named = (p, r) if p in vps and r in vps[p].readings else None
        if named is not None:
            if named in covered:
                continue
            covered.add(named)
        entries.append((named, key, words))
    own = [named for named, _, _ in entries if named is not None]
    bare = point is not None and alt is None and all(p == point for p, _ in own)
    if alt is not None:
        for side in (alt.played, alt.compared):
            entries.append((None, side.label, side.words))
    if point is not None:
        for r, words in vps[point].readings.items():
            if (point, r) not in covered:
                entries.append(((point, r), f"{point}={r}", words))
    out = []
    for named, name, words in entries:
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
                "name": named[1] if named and bare else name,
                "explain": words,
                "chosen": named is not None and ruleset.reading(named[0]) == named[1],
                "profiles": profiles,
            }
        )
    return out


def _evidence(spec: Spec, items: Sequence[str]) -> list[dict[str, Any]]:
    table = evidence_table(spec)
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


def _witness_source(r: Reviewed) -> str | None:
    if r.witness_source is WitnessSource.POINT:
        return r.witness_section
    return r.witness_source.value if r.witness_source else None


def _witness_note(r: Reviewed) -> str:
    f = r.finding
    alt = f.alternative
    if f.witness is None:
        if r.impact_source in (ImpactSource.POINT, ImpactSource.ALTERNATIVES):
            return "In the simulated games the readings never differed, and no check supplied a situation."
        return "This finding is about the text itself; there is no table situation to draw."
    if r.witness_source is WitnessSource.CHECK:
        if alt is not None and list(f.witness.outcomes) == list(alt.labels):
            return (
                f"The situation the finding is about, set up by the check {f.check} and played by the "
                "engine under both alternatives."
            )
        return f"The minimal situation found by the check {f.check}."
    if r.witness_source is WitnessSource.SCENE:
        found = f" The check {f.check} found: {r.check_found}." if r.check_found else ""
        return "The situation the finding is about, played by the engine under both alternatives." + found
    if r.witness_source is WitnessSource.SIMULATION:
        return (
            "No check supplied a minimal situation; this is the smallest situation in which the "
            "alternatives differed during the simulated games."
        )
    return f"The situation from the section {r.witness_section}."


def _impact(r: Reviewed) -> tuple[dict[str, Any] | None, str | None]:
    f = r.finding
    point = f.variation_point
    if f.impact is None:
        measurable = point is not None or f.alternative is not None
        return None, (
            "Not measured in this run."
            if measurable
            else "Not measurable: the finding has no alternative reading to play against."
        )
    data = _impact_json(r.measured) if r.measured is not None else f.impact.to_json()
    if r.impact_source is ImpactSource.POINT:
        data["source"] = r.impact_section
    else:
        data["source"] = r.impact_source.value if r.impact_source else None
    note: str | None = None
    if r.impact_source is ImpactSource.POINT and not r.point_section:
        played = r.measured.played if r.measured else ""
        compared = r.measured.compared if r.measured else ""
        note = (
            f"This finding turns on the variation point {point}: the impact shown is that point's, "
            f"{played} against {compared}, measured over the same games."
        )
    elif r.impact_source is ImpactSource.ALTERNATIVES:
        note = "Measured for this finding: its two alternatives played over the same seeded games."
    return data, note


def _section(spec: Spec, ruleset: Ruleset, r: Reviewed) -> dict[str, Any]:
    f = r.finding
    impact, impact_note = _impact(r)
    return {
        "id": f.id,
        "kind": f.kind.value,
        "severity": f.severity.value,
        "title": f.title,
        "detail": f.detail,
        "check": f.check,
        "status": str(f.status),
        "settled_by": None if f.status.is_open else f.status.to_json(),
        "variation_point": f.variation_point,
        "players": f.players,
        "clauses": _clauses(spec, f.clauses),
        "readings": _readings(spec, ruleset, f),
        "alternative": f.alternative.to_json() if f.alternative else None,
        "witness": f.witness.to_json() if f.witness else None,
        "witness_source": _witness_source(r),
        "witness_note": _witness_note(r),
        "impact": impact,
        "impact_note": impact_note,
        "evidence": _evidence(spec, f.evidence),
        "proposed_wording": f.proposed_wording or "",
        "profile_choice": _profile_choice(spec, ruleset, f.variation_point),
        "unsat_core": list(f.unsat_core),
        "trick_end_reasons": [reason.value for reason in f.trick_end_reasons],
    }


def _summary(sections: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    severities = [s.value for s in SEVERITIES]
    by_kind = {k.value: dict.fromkeys(severities, 0) for k in FINDING_KINDS}
    for s in sections:
        row = by_kind.setdefault(s["kind"], dict.fromkeys(severities, 0))
        row[s["severity"]] = row.get(s["severity"], 0) + 1
    totals = {k: sum(v.values()) for k, v in by_kind.items()}
    open_count = sum(1 for s in sections if s["settled_by"] is None)
    return {
        "total": len(sections),
        "open": open_count,
        "settled": len(sections) - open_count,
        "by_kind": {k: {**v, "total": totals[k]} for k, v in by_kind.items()},
        "by_severity": {sev: sum(v.get(sev, 0) for v in by_kind.values()) for sev in severities},
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
    reviewed: Sequence[Reviewed],
    sections: Sequence[Mapping[str, Any]],
    summary: Mapping[str, Any],
    failures: Sequence[Failure],
    ruleset: Ruleset,
) -> list[str]:
    points = [s for r, s in zip(reviewed, sections, strict=True) if r.point_section]
    open_points = [s for s in points if s["settled_by"] is None]
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
    high_open = [s for s in high if s["settled_by"] is None]
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


def _evidence_key(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)


def report_data(data: ReportData) -> dict[str, Any]:
    """The whole report as JSON-able data (report.json)."""
    spec, ruleset = data.spec, data.ruleset
    sections = [_section(spec, ruleset, r) for r in data.findings]
    failures = [f for r in data.results for f in r.failures]
    summary = _summary(sections)
    used_evidence = sorted({e["id"] for s in sections for e in s["evidence"] if e["id"]}, key=_evidence_key)
    table = evidence_table(spec)
    return {
        "format": REPORT_FORMAT,
        "game": spec.game,
        "spec": spec.label,
        "ruleset": {"label": ruleset.label(), "profile": ruleset.profile, "readings": dict(ruleset.readings)},
        "run": {
            "level": data.level,
            "seed": data.seed,
            "games": data.games,
            "mode": data.mode,
            "bots": list(data.bots),
            "notes": list(data.notes),
        },
        "summary": summary,
        "verdict": _verdict(data.findings, sections, summary, failures, ruleset),
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
            for r in data.results
        ],
        "failures": [f.to_json() for f in failures],
        "findings": sections,
        "variants": [_variant_json(v) for v in data.variants],
        "evidence": [{"id": e, **table[e]} for e in used_evidence],
    }
