"""One section of the report per finding (report.json `sections`): its clauses in both texts, the
readings it compares, its witness or scene, its impact, and the summary of all sections. Arranged
from a finished ReportData by five35.reports.build; nothing here decides anything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checks.findings import FINDING_KINDS, SEVERITIES, STATUS_WORDS, Finding, FindingKind
from ..checks.job.reviewed import ImpactSource, PointImpact, Reviewed, WitnessSource
from ..spec import Ruleset, Spec
from ..spec.words_model import Sentences, Words
from .plain import Plain


def evidence_table(words: Words) -> dict[str, dict[str, str]]:
    """The outside evidence of a spec's words file: id -> {fact, source}."""
    return {e.id: {"fact": e.fact, "source": e.source} for e in words.evidence.values()}


#: The kinds discovery finds on its own (issue 13), in the order the report counts them.
DISCOVERED_KINDS = (FindingKind.SILENCE, FindingKind.DECISION, FindingKind.LIVENESS)


def clause_list(spec: Spec, words: Words, ids: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for cid in ids:
        clause = spec.clauses.get(cid)
        name = words.clause_name(cid)
        if clause is None:
            out.append({"id": cid, "name": name, "de": None, "es": None, "defect": None})
        else:
            row = {"id": cid, "name": name, "de": clause.de, "es": clause.es, "defect": clause.defect}
            # Another game's text in its own language (English): shown where 535's two are.
            row.update((code, text) for code, text in clause.texts if code not in ("de", "es"))
            out.append(row)
    return out


def _repairs(words: Words, clauses: Sequence[str]) -> list[dict[str, str]]:
    """What the words file restores in a damaged or missing clause, per language."""
    return [
        {
            "clause": c,
            "name": words.clause_name(c),
            "language": words.plain.languages.get(lang, lang),
            "text": text,
        }
        for c in clauses
        for lang, text in sorted(words.repairs.get(c, {}).items())
    ]


def _readings(spec: Spec, ruleset: Ruleset, finding: Finding) -> list[dict[str, Any]]:
    """The finding's readings, then the two sides of its alternative where those are the choice it
    puts, then the other readings of its variation point. A finding all of whose readings are of its
    own point names them by reading; any other names them `point=reading`."""
    vps = spec.variation_points
    point = finding.variation_point if finding.variation_point in vps else None
    alt = finding.alternative
    if alt is not None and not alt.shown_as_readings and finding.kind not in DISCOVERED_KINDS:
        alt = None  # its sides only restate readings it names; a discovered finding names none
    entries: list[tuple[tuple[str, str] | None, str, str]] = []  # (point, reading) or None, name, words
    covered: set[tuple[str, str]] = set()
    for key, words in finding.readings.items():
        p, r = key.point, key.reading
        named = (p, r) if p in vps and r in vps[p].readings else None
        if named is not None:
            if named in covered:
                continue
            covered.add(named)
        entries.append((named, str(key), words))
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


def evidence_list(words: Words, items: Sequence[str]) -> list[dict[str, Any]]:
    table = evidence_table(words)
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


def _witness_note(r: Reviewed, say: Sentences) -> str:
    f = r.finding
    alt = f.alternative
    if f.witness is None:
        if r.impact_source in (ImpactSource.POINT, ImpactSource.ALTERNATIVES):
            return say("never_differed")
        return say("about_text")
    if r.witness_source is WitnessSource.CHECK:
        if alt is not None and list(f.witness.outcomes) == list(alt.labels):
            return say("set_up_by_check", check=f.check)
        return say("minimal_by_check", check=f.check)
    if r.witness_source is WitnessSource.SCENE:
        found = say("check_found", check=f.check, found=r.check_found) if r.check_found else ""
        return say("scene") + found
    if r.witness_source is WitnessSource.SIMULATION:
        return say("simulation")
    return say("from_section", section=r.witness_section)


def _impact(r: Reviewed, say: Sentences) -> tuple[dict[str, Any] | None, str | None]:
    f = r.finding
    point = f.variation_point
    if f.impact is None:
        measurable = point is not None or f.alternative is not None
        return None, say("not_measured") if measurable else say("not_measurable")
    data = _impact_json(r.measured) if r.measured is not None else f.impact.to_json()
    if r.impact_source is ImpactSource.POINT:
        data["source"] = r.impact_section
    else:
        data["source"] = r.impact_source.value if r.impact_source else None
    note: str | None = None
    if r.impact_source is ImpactSource.POINT and not r.point_section:
        played = r.measured.played if r.measured else ""
        compared = r.measured.compared if r.measured else ""
        note = say("point_impact", point=point, played=played, compared=compared)
    elif r.impact_source is ImpactSource.ALTERNATIVES:
        note = say("alternatives_impact")
    return data, note


def scene_json(plain: Plain, f: Finding) -> dict[str, Any] | None:
    """A finding's witness as a scene; a discovered finding's sides are engines named by id (a
    mutant's name), so each outcome is labelled with its side's words instead."""
    if f.witness is None:
        return None
    alt = f.alternative
    scene = plain.scene(f.witness, f.variation_point, (alt.played, alt.compared) if alt is not None else ())
    if f.kind in DISCOVERED_KINDS and alt is not None:
        words = {side.label: side.words for side in (alt.played, alt.compared) if side.words}
        scene["outcomes"] = [
            {**o, "label": words.get(str(key), o["label"])}
            for key, o in zip(f.witness.outcomes, scene["outcomes"], strict=True)
        ]
    return scene


def section_json(spec: Spec, ruleset: Ruleset, r: Reviewed, plain: Plain) -> dict[str, Any]:
    f = r.finding
    # The sections' words, handed with the words the Plain was made with.
    say = plain.words.pages.sections
    impact, impact_note = _impact(r, say)
    return {
        "id": f.id,
        "question": r.question,
        "plain": plain.finding(f),
        "scene": scene_json(plain, f) if f.witness else None,
        "scene_borrowed": r.witness_source is WitnessSource.POINT,
        "scene_about": f.alternative.scene.describe if f.alternative and f.alternative.scene else None,
        "repairs": _repairs(plain.words, f.clauses),
        "kind": f.kind.value,
        "kind_words": plain.words.kinds[f.kind.value],
        "severity": f.severity.value,
        "title": f.title,
        "detail": f.detail,
        "check": f.check,
        "also_by": list(f.also_by),
        "status": f.status.words(plain.words.check(STATUS_WORDS)),
        "settled_by": None if f.status.is_open else f.status.to_json(),
        "variation_point": f.variation_point,
        "players": f.players,
        "clauses": clause_list(spec, plain.words, f.clauses),
        "readings": _readings(spec, ruleset, f),
        "alternative": f.alternative.to_json() if f.alternative else None,
        "witness": f.witness.to_json() if f.witness else None,
        "witness_source": _witness_source(r),
        "witness_note": _witness_note(r, say),
        "impact": impact,
        "impact_note": impact_note,
        "evidence": evidence_list(plain.words, f.evidence),
        "proposed_wording": f.proposed_wording or "",
        "profile_choice": _profile_choice(spec, ruleset, f.variation_point),
        "unsat_core": list(f.unsat_core),
        "trick_end_reasons": [reason.value for reason in f.trick_end_reasons],
    }


def summary_json(sections: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
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
