"""The report's data: the questions a rule designer settles, ranked, each with every finding about
it; the findings that stand alone; the summary and verdict; and the variant comparison.

`report_data(data)` arranges a finished `ReportData` (five35.checks.job.review: the checks' findings
with their witnesses, impacts, severities and proposed sentences already decided, and the variant
statistics) into plain JSON-able data, the content of report.json (described by report.schema.json);
the Markdown and HTML renderers draw from the same data, so the three files always say the same
thing. Every text a renderer shows in prose is made here in plain words (five35.reports.plain): ids
and reading keys stay in their own fields, which the renderers print only in small print. Nothing
here plays the engine or decides a rule, a severity or a wording.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..checks.findings import (
    FINDING_KINDS,
    SEVERITIES,
    CheckResult,
    Failure,
    Finding,
    FindingKind,
    ProvedProperty,
    split_reading_key,
)
from ..checks.impact.measure import COMES_UP_GAMES
from ..checks.impact.outcomes import MEASURES, MeanChange, OutcomeChange, Shares
from ..checks.job.review import (
    ImpactSource,
    PointImpact,
    Question,
    ReportData,
    Reviewed,
    Variant,
    WitnessSource,
)
from ..engine.engines import engine_note, reference_lacks
from ..spec import Ruleset, Spec
from ..spec.words import no_wording, words_of
from ..spec.words_model import LANGUAGES
from . import consistency
from .plain import KIND_WORDS, Plain, pct

REPORT_FORMAT = "five35-report/3"


def evidence_table(spec: Spec) -> dict[str, dict[str, str]]:
    """The outside evidence of the spec's words file: id -> {fact, source}."""
    return {e.id: {"fact": e.fact, "source": e.source} for e in words_of(spec).evidence.values()}


def _clauses(spec: Spec, ids: Sequence[str]) -> list[dict[str, Any]]:
    words = words_of(spec)
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


LANGUAGE_NAMES: Mapping[str, str] = {"de": "German", "es": "Spanish", "en": "English"}


def _repairs(spec: Spec, clauses: Sequence[str]) -> list[dict[str, str]]:
    """What the words file restores in a damaged or missing clause, per language."""
    words = words_of(spec)
    return [
        {"clause": c, "name": words.clause_name(c), "language": LANGUAGE_NAMES.get(lang, lang), "text": text}
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


def _scene(plain: Plain, f: Finding) -> dict[str, Any] | None:
    """A finding's witness as a scene; a discovered finding's sides are engines named by id (a
    mutant's name), so each outcome is labelled with its side's words instead."""
    if f.witness is None:
        return None
    scene = plain.scene(f.witness.to_json(), f.variation_point)
    alt = f.alternative
    if f.kind in DISCOVERED_KINDS and alt is not None:
        words = {side.label: side.words for side in (alt.played, alt.compared) if side.words}
        scene["outcomes"] = [
            {**o, "label": words.get(str(key), o["label"])}
            for key, o in zip(f.witness.outcomes, scene["outcomes"], strict=True)
        ]
    return scene


def _section(spec: Spec, ruleset: Ruleset, r: Reviewed, plain: Plain) -> dict[str, Any]:
    f = r.finding
    impact, impact_note = _impact(r)
    return {
        "id": f.id,
        "question": r.question,
        "plain": plain.finding(f),
        "scene": _scene(plain, f) if f.witness else None,
        "scene_borrowed": r.witness_source is WitnessSource.POINT,
        "scene_about": f.alternative.scene.describe if f.alternative and f.alternative.scene else None,
        "repairs": _repairs(spec, f.clauses),
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


BASIS_WORDS: Mapping[str, str] = {
    # Said with the profile's note, which names the words or the example that decide it: a
    # question the texts' words leave open ("can be read two ways") may be decided by their example.
    "text": "the rule texts decide it",
    # Outside evidence ranges from an implementation to a reviewer reasoning from the name: it
    # supports a reading, it does not show how every table plays.
    "evidence": "outside evidence supports it",
    "silent": "no source settles it",
    "--reading": "chosen for this run",
    "engine": "no source settles it",
    "assumed": "neither text gives it",
    "house": "a house rule",
    "defective": "the text is damaged here",
}


def _profiles_choosing(spec: Spec, points: Sequence[str], reading: str) -> list[str]:
    return sorted(
        p.name
        for p in spec.profiles.values()
        if all(
            p.readings.get(point) is not None and p.readings[point].reading == reading
            for point in points
            if reading in spec.variation_points[point].listed
        )
    )


def _question_readings(
    spec: Spec, ruleset: Ruleset, q: Question, members: Sequence[Reviewed], plain: Plain
) -> list[dict[str, Any]]:
    """A question's readings: the readings of its points, one entry per reading name (points that
    share reading names, like the two five-player points, share an entry); for a question without
    points, the two sides of the first alternative its findings put."""
    vps = spec.variation_points
    out: list[dict[str, Any]] = []
    if q.words.points:
        names: list[str] = []
        for point in q.words.points:
            names += [r for r in vps[point].readings if r not in names]
        for name in names:
            points = [p for p in q.words.points if name in vps[p].readings]
            explains = list(dict.fromkeys(vps[p].readings[name] for p in points))
            label = q.words.readings.get(name) or plain.reading(points[0], name)
            out.append(
                {
                    "name": name,
                    "points": points,
                    "label": label,
                    "explain": " ".join(explains),
                    "chosen": all(ruleset.reading(p) == name for p in points),
                    "profiles": _profiles_choosing(spec, points, name),
                }
            )
        return out
    for r in members:
        alt = r.finding.alternative
        if alt is None:
            continue
        for i, side in enumerate((alt.played, alt.compared)):
            # A discovered finding's sides are engines named by id (a mutant's name): its words
            # are the label a designer reads.
            out.append(
                {
                    "name": None,
                    "points": [],
                    "label": side.words.rstrip(".") if q.words.topics else side.label,
                    "explain": "" if q.words.topics else side.words,
                    "chosen": i == 0,
                    "profiles": [],
                }
            )
        break
    return out


def _question_choice(
    spec: Spec, ruleset: Ruleset, q: Question, readings: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """What the rules played answer, and on what basis."""
    chosen = [r["label"] for r in readings if r["chosen"]]
    points = q.words.points
    if not points:
        assumed = any(not spec.parameters[p].in_text for p in q.words.parameters if p in spec.parameters)
        basis = "assumed" if assumed else "engine"
        words = BASIS_WORDS[basis]
        # An engine decision that departs from outside evidence says so where it gives its basis:
        # the evidence is cited, never as settling the question.
        decisions = words_of(spec).decisions
        evidence = words_of(spec).evidence
        departs = [
            e for t in q.words.topics if t in decisions for e in decisions[t].departs_from if e in evidence
        ]
        if departs:
            words += "; " + " and ".join(
                f"{evidence[e].by or 'the source of ' + e} plays the other answer ({e})" for e in departs
            )
        return {
            "profile": ruleset.label(),
            "label": chosen[0] if chosen else "",
            "basis": basis,
            "basis_words": words,
            "notes": [],
        }
    profile = spec.profiles[ruleset.profile]
    bases: list[str] = []
    notes: list[str] = []
    for point in points:
        choice = profile.readings.get(point)
        basis = "--reading" if point in ruleset.overridden or choice is None else choice.basis
        if basis not in bases:
            bases.append(basis)
        if (
            choice is not None
            and choice.note
            and point not in ruleset.overridden
            and choice.note not in notes
        ):
            notes.append(choice.note)
    if not chosen:
        # Points with different readings (a --reading on one of them): each point's own.
        chosen = [
            plain_label
            for plain_label in (
                r["label"] for r in readings if any(ruleset.reading(p) == r["name"] for p in r["points"])
            )
        ]
    return {
        "profile": ruleset.label(),
        "label": "; ".join(chosen),
        "basis": bases[0],
        "basis_words": "; ".join(BASIS_WORDS.get(b, b) for b in bases),
        "notes": notes,
    }


def _impact_rows(
    spec: Spec, q: Question, members: Sequence[Reviewed], data: ReportData, plain: Plain
) -> list[dict[str, Any]]:
    """The measured impacts a question shows: one per point, or for a question without points one
    per finding measured on its own."""
    rows: list[dict[str, Any]] = []
    by_point = {r.finding.variation_point: r for r in members if r.point_section}
    for point in q.words.points:
        r = by_point.get(point)
        if r is None or r.finding.impact is None:
            continue
        vp = spec.variation_points[point]
        played = data.ruleset.reading(point)
        # the row is named by the reading measured against the one played, as the question names it
        others = [
            q.words.readings.get(f"{point}={rd}") or q.words.readings.get(rd) or rd
            for rd in vp.readings
            if rd != played
        ]
        rows.append(
            {
                "subject": point,
                "label": f"Under \u2018{' or '.join(others)}\u2019" if others else vp.question,
                "games": r.finding.impact.games,
                "per_players": r.finding.impact.to_json()["per_players"],
            }
        )
    if not q.words.points:
        for r in members:
            if r.finding.impact is not None:
                alt = r.finding.alternative
                # the other side is what was measured against the rules as played; a discovered
                # finding's side is an engine named by id, so its words name it
                compared = (alt.compared.words if q.words.topics else alt.compared.label) if alt else ""
                row = {
                    "subject": r.finding.id,
                    "label": (compared or plain.finding(r.finding)).rstrip(". "),
                    "games": r.finding.impact.games,
                    "per_players": r.finding.impact.to_json()["per_players"],
                }
                # two findings measured against the same alternative over the same games: one row
                if not any(
                    o["label"] == row["label"] and o["per_players"] == row["per_players"] for o in rows
                ):
                    rows.append(row)
    return rows


def _question_clauses(spec: Spec, q: Question, members: Sequence[Reviewed], ruleset: Ruleset) -> list[str]:
    """The clauses a question is about: its points' and the ones its wordings clarify; for a
    question without points, its findings'. In the texts' order."""
    ids: set[str] = set()
    for point in q.words.points:
        ids.update(spec.variation_points[point].cites)
    ids.update(w.at for w in q.words.wordings_for(dict(ruleset.reading_items)))
    if not q.words.points:
        for r in members:
            ids.update(r.finding.clauses)
    return [c for c in spec.clauses if c in ids]


def _question(
    spec: Spec,
    ruleset: Ruleset,
    q: Question,
    rank: int,
    by_id: Mapping[str, Reviewed],
    data: ReportData,
    plain: Plain,
) -> dict[str, Any]:
    members = [by_id[m] for m in q.members]
    readings = _question_readings(spec, ruleset, q, members, plain)
    played = dict(ruleset.reading_items)
    evidence_ids: list[str] = []
    for point in q.words.points:
        evidence_ids += [e for e in spec.variation_points[point].evidence if e not in evidence_ids]
    for parameter in q.words.parameters:
        if parameter in spec.parameters:
            evidence_ids += [e for e in spec.parameters[parameter].evidence if e not in evidence_ids]
    for r in members:
        evidence_ids += [e for e in r.finding.evidence if e in evidence_table(spec) and e not in evidence_ids]
    head = next((r for r in members if r.finding.witness is not None), None)
    counts: dict[str, int] = {}
    for r in members:
        counts[r.finding.kind.value] = counts.get(r.finding.kind.value, 0) + 1
    impact = q.impact
    return {
        "id": q.id,
        "rank": rank,
        "title": q.words.title,
        "ask": dict(q.words.ask),
        "kind": q.kind.value,
        "kind_words": KIND_WORDS[q.kind],
        "severity": q.severity.value,
        "status": "open" if q.status.is_open else "settled",
        "settled_by": None if q.status.is_open else q.status.to_json(),
        "points": list(q.words.points),
        "parameters": list(q.words.parameters),
        "topics": list(q.words.topics),
        # the topics discovery found this question by (its members'; not the silences it was also
        # checked against): what the "found by discovery" mark shows
        "found_by": sorted({r.finding.topic for r in members if r.finding.topic is not None}),
        "new": not (q.words.points or q.words.parameters or q.words.variants),
        "clauses": _clauses(spec, _question_clauses(spec, q, members, ruleset)),
        "readings": readings,
        "choice": _question_choice(spec, ruleset, q, readings),
        "impact": None
        if impact is None
        else {
            "share": impact.share,
            "players": impact.players,
            "ci_low": impact.ci_low,
            "ci_high": impact.ci_high,
            "subject": impact.subject,
            "effect": round(impact.effect, 4),
        },
        "at_table": None if impact is None or impact.outcome is None else _outcome_json(impact.outcome),
        "impacts": _impact_rows(spec, q, members, data, plain),
        "evidence": _evidence(spec, evidence_ids),
        "wording": {
            lang: q.words.wording(played, lang) for lang in LANGUAGES if q.words.wording(played, lang)
        },
        "wording_at": [w.at for w in q.words.wordings_for(played) if w.at in spec.clauses],
        "members": list(q.members),
        "also": [
            {"id": fid, "plain": plain.finding(by_id[fid].finding).rstrip(".")}
            for fid in q.also
            if fid in by_id
        ],
        "counts": counts,
        "scene": _scene(plain, head.finding) if head is not None else None,
        "scene_from": head.finding.id if head is not None else None,
    }


def _standalone_groups(standalone: Sequence[str], by_id: Mapping[str, Reviewed]) -> list[list[str]]:
    """The findings that stand alone as the report shows them: a damaged text's finding with the
    damaged clauses' findings it covers (each of their clauses is one of its own), so that one
    damage is told once; every other finding on its own. The covered ones follow in the order of
    the covering finding's clauses."""
    clauses = {f: by_id[f].finding.clauses for f in standalone}
    defects = [f for f in standalone if by_id[f].finding.kind == FindingKind.DEFECT]
    cover: dict[str, str] = {}
    for f in defects:
        wider = [g for g in defects if g != f and set(clauses[f]) < set(clauses[g])]
        if wider:
            cover[f] = max(wider, key=lambda g: (len(clauses[g]), -standalone.index(g)))
    groups = []
    for f in standalone:
        if f in cover:
            continue
        order = list(clauses[f])
        covered = sorted(
            (m for m in standalone if cover.get(m) == f), key=lambda m: (order.index(clauses[m][0]), m)
        )
        groups.append([f, *covered])
    return groups


def _for_implementers(q: Question, by_id: Mapping[str, Reviewed]) -> bool:
    """Whether a question is a note for engine implementers rather than a designer's question: an
    engine decision that no engine variant plays the other way (none of its findings has an
    alternative, so no game at the table can differ and nothing was measured); it is about how an
    engine or its tools count positions, not about play."""
    return (
        q.kind is FindingKind.DECISION
        and q.impact is None
        and all(by_id[m].finding.alternative is None for m in q.members)
    )


def _share_words(impact: Mapping[str, Any] | None) -> str:
    if not impact:
        return "not measured"
    return f"{pct(impact['share'])} of games at {impact['players']} players"


def _plain_verdict(
    questions: Sequence[Mapping[str, Any]],
    failures: Sequence[Failure],
    plain: Plain,
) -> list[str]:
    """The designer's summary: the questions, what changes play, what is urgent."""
    rules = plain.ruleset_words()
    open_q = [q for q in questions if q["status"] == "open"]
    lines = [
        f"{len(questions)} question{'s' if len(questions) != 1 else ''} to settle; under "
        f"{rules[:1].lower() + rules[1:]}, {len(open_q)} of them {'is' if len(open_q) == 1 else 'are'} "
        "still open."
    ]
    clear = [q for q in questions if q["at_table"] and q["at_table"]["real"]]
    if clear:
        lines.append(
            "The answer clearly changes who wins, how long a match lasts or how far the scores lie apart "
            "for: " + "; ".join(q["title"] for q in clear) + "."
        )
    often = [
        q
        for q in questions
        if q["impact"] and q["impact"]["share"] >= 0.5 and not (q["at_table"] and q["at_table"]["real"])
    ]
    if often:
        named = "; ".join(f"{q['title']} ({_share_words(q['impact'])})" for q in often)
        lead = "Others change" if clear else "The answer changes"
        lines.append(
            f"{lead} how a game goes at some step in most games, with no clear change in who wins, "
            f"how long or how the scores lie: {named}."
        )
    some = [
        q
        for q in questions
        if q["impact"] and 0 < q["impact"]["share"] < 0.5 and not (q["at_table"] and q["at_table"]["real"])
    ]
    if some:
        named = "; ".join(f"{q['title']} ({_share_words(q['impact'])})" for q in some)
        lines.append(
            "Fewer than half of the games go otherwise at every player count, with no clear change "
            f"in who wins, how long or how the scores lie, for: {named}."
        )
    never = [q for q in questions if q["impact"] and q["impact"]["share"] == 0.0]
    if never:
        lines.append(
            f"{len(never)} question{'s change' if len(never) != 1 else ' changes'} no simulated game "
            "(wording only): " + "; ".join(q["title"] for q in never) + "."
        )
    high_open = [q for q in open_q if q["severity"] == "high"]
    if high_open:
        lines.append(
            f"{len(high_open)} open question{'s are' if len(high_open) != 1 else ' is'} of high severity: "
            + "; ".join(q["title"] for q in high_open)
            + (". Settle them" if len(high_open) != 1 else ". Settle it")
            + " before the next printing."
        )
    if failures:
        lines.append(f"{len(failures)} checks failed: see the technical appendix.")
    return lines


def _technical_summary(
    questions: Sequence[Mapping[str, Any]],
    engine_notes: Sequence[Mapping[str, Any]],
    standalone: Sequence[str],
    summary: Mapping[str, Any],
    failures: Sequence[Failure],
) -> list[str]:
    """The findings counted so that the parts add up to the whole."""
    under = sum(len(q["members"]) for q in questions)
    also = sum(len(q["also"]) for q in questions)
    notes = sum(len(n["members"]) for n in engine_notes)
    parts = [
        f"{under} under the {len(questions)} questions",
        f"{also} checked alongside a question (listed under it as also checked)",
        f"{notes} in the notes for engine implementers",
        f"{len(standalone)} standing alone",
    ]
    rest = summary["total"] - under - also - notes - len(standalone)
    if rest:
        parts.append(f"{rest} elsewhere")
    line = f"{summary['total']} findings: " + ", ".join(parts[:-1]) + " and " + parts[-1] + "."
    checked = (
        "The reference engine passed every check." if not failures else f"{len(failures)} checks failed."
    )
    return [line, checked]


#: How a property was proved, in plain words.
METHOD_WORDS: Mapping[str, str] = {
    "z3": "proved with the Z3 solver, symbolically: every case of its scope at once",
    "exhaustive": "proved by exhaustive search: every case of its scope played out one by one",
}
#: The kinds discovery finds on its own (issue 13), in the order the report counts them.
DISCOVERED_KINDS = (FindingKind.SILENCE, FindingKind.DECISION, FindingKind.LIVENESS)


#: What a rule decides (the engine's vocabulary of decisions, engine/state.py), in plain words.
DECISION_WORDS: Mapping[str, str] = {
    "deck": "the deck",
    "hands": "the hands",
    "legal_moves": "the legal moves",
    "pile": "the central pile",
    "trick_ends": "whether the trick ends",
    "trick_winner": "who takes the trick",
    "next_to_move": "who moves next",
    "round_ends": "whether the round ends",
    "round_leader": "who leads the next round",
    "penalties": "the points added",
    "scores": "the scores",
    "match_ends": "whether the match ends",
    "match_winner": "who wins the match",
}


def _plain_ids(spec: Spec, text: str) -> str:
    """A check's sentence with the clause ids, variation points and single-valued parameters in it
    told in plain words: the clause's name, the point's question title, the parameter's value (ids
    stay in the small print)."""
    words = words_of(spec)

    def name(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in spec.clauses:
            return f"‘{words.clause_name(token)}’"
        if token in spec.parameters and not isinstance(spec.parameters[token].value, (dict, list)):
            return str(spec.parameters[token].value)
        if token in DECISION_WORDS:
            return DECISION_WORDS[token]
        question = words.question_of(token) if token in spec.variation_points else None
        if question is not None:
            return f"\u2018{question.title}\u2019"
        return token

    return re.sub(r"\b[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*\b", name, text)


#: The guarantees a rule designer asks for (issue 13, item 4): every trick, round and match ends,
#: someone goes out, whoever is to move has a legal move. The report lists these; the other
#: properties are the steps of their proofs, summed up in one line with the detail in the appendix.
DESIGNER_PROPERTIES = frozenset(
    {
        "trick.ends",
        "round.ends",
        "match.ends",
        "lead.single_is_legal",
        "state.has_legal_move",
        "round.one_goes_out",
    }
)
#: The check whose properties hold on the small deals it explored: seen, not proved.
EXPLORED_CHECK = "discovery.interactions"


def _proved(spec: Spec, results: Sequence[CheckResult]) -> list[dict[str, Any]]:
    """Every property the run's checks proved (the first of a name), in plain words, by check;
    `shown` marks the ones the report lists for a designer, `explored` the ones that hold on the
    small deals explored (not proofs)."""
    seen: dict[str, tuple[CheckResult, ProvedProperty]] = {}
    for r in results:
        for p in r.proved:
            seen.setdefault(p.name, (r, p))
    words = words_of(spec)
    return [
        {
            "name": p.name,
            "check": check.name,
            "check_title": check.title,
            "statement": _plain_ids(spec, p.statement),
            "statement_as_proved": p.statement,
            "method": p.method,
            "method_words": METHOD_WORDS[p.method],
            "scope": _plain_ids(spec, p.scope),
            "clauses": [{"id": c, "name": words.clause_name(c)} for c in p.clauses],
            "shown": p.name in DESIGNER_PROPERTIES,
            "explored": check.name == EXPLORED_CHECK,
        }
        for check, p in seen.values()
    ]


def _discovery(
    results: Sequence[CheckResult],
    sections: Sequence[Mapping[str, Any]],
    questions: Sequence[Mapping[str, Any]],
    proved: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """What discovery did in this run: the mutants run (in all and per check), the findings of each
    discovered kind, the questions they gather under, and the properties proved."""
    found = {k.value: sum(1 for s in sections if s["kind"] == k.value) for k in DISCOVERED_KINDS}
    return {
        "mutants": sum(r.mutants for r in results),
        "mutants_by_check": {r.name: r.mutants for r in results if r.mutants},
        "found": found,
        "questions": [q["id"] for q in questions if q["found_by"]],
        "new_questions": [q["id"] for q in questions if q["found_by"] and q["new"]],
        "proved": len(proved),
    }


def _discovery_line(discovery: Mapping[str, Any]) -> str | None:
    found = discovery["found"]
    if not discovery["mutants"] and not any(found.values()) and not discovery["proved"]:
        return None

    def n(count: int, one: str, many: str) -> str:
        return f"{count:,} {one if count == 1 else many}"

    parts = [
        n(found["silence"], "gap in the text", "gaps in the text"),
        n(found["engine_decision"], "engine choice", "engine choices"),
    ]
    if found["liveness"]:
        parts.append(n(found["liveness"], "way play may never end", "ways play may never end"))
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    tagged = len(discovery["questions"])
    return (
        f"Testing {n(discovery['mutants'], 'altered engine', 'altered engines')} against the texts found "
        f"{listed}; {n(tagged, 'question', 'questions')} above "
        f"{'is' if tagged == 1 else 'are'} marked “found by discovery”, "
        f"{len(discovery['new_questions']):,} of them new; "
        f"{n(discovery['proved'], 'property was', 'properties were')} checked (see “What five35 proved”)."
    )


def _shares_json(s: Shares) -> list[dict[str, Any]]:
    return [
        {"label": label, "wins": n, "share": round(s.share(i), 4), "ci": [round(x, 4) for x in s.interval(i)]}
        for i, (label, n) in enumerate(zip(s.labels, s.counts, strict=True))
    ]


def _mean_json(m: MeanChange) -> dict[str, Any]:
    return {
        "played": round(m.played, 4),
        "compared": round(m.compared, 4),
        "difference": round(m.difference, 4),
        "ci": [round(m.low, 4), round(m.high, 4)],
        "p": m.p,
    }


def _outcome_json(o: OutcomeChange) -> dict[str, Any]:
    """What an answer changes at the table, as the report shows it: per player count the winner by
    seat and by style of play under both readings, match length and score spread, how often the
    rule comes up, and which of these differ for real."""
    per = {}
    for n, t in sorted(o.per_players.items()):
        per[str(n)] = {
            "games": t.games,
            "winner_by_seat": {
                "played": _shares_json(t.seats[0]),
                "compared": _shares_json(t.seats[1]),
                "p": t.seat_p,
            },
            "winner_by_style": None
            if not t.style_tested
            else {
                "played": _shares_json(t.styles[0]),
                "compared": _shares_json(t.styles[1]),
                "p": t.style_p,
            },
            "rounds": _mean_json(t.rounds),
            "spread": _mean_json(t.spread),
            "comes_up": None
            if t.comes_up is None
            else {
                "per_match": round(t.comes_up[0], 4),
                "ci": [round(t.comes_up[1], 4), round(t.comes_up[2], 4)],
                "moves_per_match": round(t.comes_up[3], 4),
                "matches": t.comes_up[4],
            },
            "real": sorted(t.real),
            "clear": sorted(t.clear),
            "sizes": {m: round(t.size(m), 4) for m in MEASURES},
            "bounds": {m: round(t.bound(m), 4) for m in MEASURES},
            "relabels_seats": t.relabels_seats,
            "effect": round(t.effect, 4),
        }
    return {
        "real": o.real,
        "relabels_seats": o.relabels_seats,
        "effect": round(o.effect, 4),
        "tests": o.tests,
        "threshold": o.threshold,
        "method": o.method,
        "per_players": per,
        "unplayed": {str(n): why for n, why in sorted(o.unplayed.items())},
    }


def _variant_json(
    v: Variant, played: Mapping[str, str], questions: Sequence[Mapping[str, Any]], plain: Plain
) -> dict[str, Any]:
    # Where the version answers a question otherwise than the rules played, so that its columns
    # can be read (a version is its answers).
    otherwise = []
    for number, q in enumerate(questions, 1):
        for point in q["points"]:
            if point in v.readings and v.readings[point] != played.get(point):
                otherwise.append(
                    {
                        "question": number,
                        "id": q["id"],
                        "point": point,
                        "reading": plain.reading(point, v.readings[point]),
                    }
                )
    return {
        "label": v.label,
        "title": v.title,
        "readings": dict(sorted(v.readings.items())),
        "answers_otherwise": otherwise,
        "per_players": {str(p): v.stats[p].to_json() for p in sorted(v.stats)},
        "unplayable": {str(p): why for p, why in sorted(v.unplayable.items())},
    }


def _evidence_key(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)


def report_data(data: ReportData) -> dict[str, Any]:
    """The whole report as JSON-able data (report.json)."""
    spec, ruleset = data.spec, data.ruleset
    plain = Plain(spec, ruleset)
    sections = [_section(spec, ruleset, r, plain) for r in data.findings]
    failures = [f for r in data.results for f in r.failures]
    summary = _summary(sections)
    by_id = {r.finding.id: r for r in data.findings}
    designer = [q for q in data.questions if not _for_implementers(q, by_id)]
    questions = [_question(spec, ruleset, q, i, by_id, data, plain) for i, q in enumerate(designer, 1)]
    engine_notes = [
        {
            "id": q.id,
            "ask": q.words.ask["en"],
            "members": [{"id": m, "plain": plain.finding(by_id[m].finding)} for m in q.members],
            "engine_does": next((w for m in q.members if (w := by_id[m].finding.proposed_wording)), ""),
        }
        for q in data.questions
        if _for_implementers(q, by_id)
    ]
    proved = _proved(spec, data.results)
    discovery = _discovery(data.results, sections, questions, proved)
    verdict = _plain_verdict(questions, failures, plain)
    technical = _technical_summary(questions, engine_notes, data.standalone, summary, failures)
    if reference_lacks(ruleset) is not None:
        # The last lines speak of the reference engine; these rules it does not play.
        technical[-1] = f"{engine_note(ruleset).capitalize()}."
        if failures:
            technical[-1] += f" {len(failures)} checks failed: see the failures below."
        # Which engine played is said on every page (the reference engine does not play these).
        verdict.append(technical[-1])

    missing_words = no_wording(spec)
    if missing_words is not None:
        verdict.append(missing_words[:1].upper() + missing_words[1:] + ".")
    line = _discovery_line(discovery)
    if line is not None:
        technical.append(line)
    used = {e["id"] for s in sections for e in s["evidence"] if e["id"]}
    used |= {e["id"] for q in questions for e in q["evidence"] if e["id"]}
    used_evidence = sorted(used, key=_evidence_key)
    table = evidence_table(spec)
    out: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "game": spec.game,
        "spec": spec.label,
        "ruleset": {"label": ruleset.label(), "profile": ruleset.profile, "readings": dict(ruleset.readings)},
        "run": {
            "level": data.level,
            "seed": data.seed,
            "games": data.games,
            "comes_up_games": min(COMES_UP_GAMES, data.games),
            "mode": data.mode,
            "bots": list(data.bots),
            "notes": list(data.notes),
        },
        "rules": plain.ruleset_words(),
        "summary": summary,
        "verdict": verdict,
        "technical_summary": technical,
        "checks": [
            {
                "name": r.name,
                "title": r.title,
                "exhaustive": r.exhaustive,
                "generated": r.generated,
                "proofs": r.proofs,
                "mutants": r.mutants,
                "proved": len(r.proved),
                "findings": len(r.findings),
                "failures": len(r.failures),
                "notes": list(r.notes),
                "warnings": list(r.warnings),
            }
            for r in data.results
        ],
        "failures": [f.to_json() for f in failures],
        "discovery": discovery,
        "proved": proved,
        "questions": questions,
        "engine_notes": engine_notes,
        "standalone": list(data.standalone),
        "standalone_groups": _standalone_groups(data.standalone, by_id),
        "findings": sections,
        "variants": [_variant_json(v, ruleset.readings, questions, plain) for v in data.variants],
        "evidence": [{"id": e, **table[e]} for e in used_evidence],
    }
    out["consistency"] = consistency.problems(spec, out)
    return out
