"""The questions of the report (report.json `questions`): each with its readings, the profiles' choice
and proposal, what its answer changes at the table, its clauses and findings, and the findings that
stand alone. Arranged from a finished ReportData by five35.reports.build."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..checks.findings import Failure, Finding, FindingKind
from ..checks.job.reviewed import Question, ReportData, Reviewed
from ..spec import Ruleset, Spec, SpecError
from ..spec.words_model import LANGUAGES, Words
from .at_table import outcome_json
from .plain import Plain, pct
from .sections import clause_list, evidence_list, evidence_table, scene_json


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
    # Every alternative its findings put, after the side played (the first finding's): a question
    # gathered from several mutants (each rank made the strongest) names each, so that its example
    # and its outcome table, which may show different ones, both stand among its readings.
    alternatives = [r.finding.alternative for r in members if r.finding.alternative is not None]
    sides = [alternatives[0].played, *(alt.compared for alt in alternatives)] if alternatives else []
    for i, side in enumerate(sides):
        # A discovered finding's sides are engines named by id (a mutant's name): its words
        # are the label a designer reads.
        label = side.words.rstrip(".") if q.words.topics else side.label
        if any(entry["label"] == label for entry in out):
            continue
        out.append(
            {
                "name": None,
                "points": [],
                "label": label,
                "explain": "" if q.words.topics else side.words,
                "chosen": i == 0,
                "profiles": [],
            }
        )
    return out


def _grounds(words: Words, q: Question) -> list[str]:
    """Why the proposed answer is what it is, from the words file: the question's own grounds,
    then those of the engine decisions it gathers."""
    decisions = words.decisions
    out = [q.words.grounds] if q.words.grounds else []
    return out + [d.grounds for t in q.words.topics if (d := decisions.get(t)) is not None and d.grounds]


def _question_choice(
    spec: Spec, ruleset: Ruleset, q: Question, readings: Sequence[Mapping[str, Any]], plain: Plain
) -> dict[str, Any]:
    """What the rules played answer, and on what basis."""
    say = plain.say
    chosen = [r["label"] for r in readings if r["chosen"]]
    points = q.words.points
    if not points:
        assumed = any(not spec.parameters[p].in_text for p in q.words.parameters if p in spec.parameters)
        # Settled with no reading named: the texts' own words and numbers settle it (a rule part
        # that no reading lets apply).
        by_text = not q.status.is_open and not q.status.readings
        basis = "text" if by_text else "assumed" if assumed else "engine"
        words = say.basis[basis]
        # An engine decision that departs from outside evidence says so where it gives its basis:
        # the evidence is cited, never as settling the question.
        evidence = plain.words.evidence
        departs = plain.words.departed_from(q.words.topics)
        if departs:
            words += "; " + say.and_.join(
                say.summary("departs", by=evidence[e].by or say.summary("source_of", evidence=e), evidence=e)
                for e in departs
            )
        return {
            "profile": ruleset.label(),
            "label": chosen[0] if chosen else "",
            "basis": basis,
            "basis_words": words,
            "notes": _grounds(plain.words, q),
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
        "basis_words": "; ".join(say.basis.get(b, b) for b in bases),
        "notes": [*notes, *_grounds(plain.words, q)],
    }


def _standing(spec: Spec, ruleset: Ruleset, q: Question, words: Words) -> str:
    """Where the question stands, in the words file's words: open, or answered on the basis of the
    readings that settle it (outside evidence before the texts where both play a part: the answer
    is only as firm as its least firm reading); an answer of outside sources that both texts, read
    word for word, contradict is a change to the texts."""
    templates = words.templates
    if q.status.is_open:
        return templates["standing_open"]
    profile = spec.profiles.get(q.status.profile or "")
    bases = {
        choice.basis
        for point, _ in q.status.readings
        if profile is not None and (choice := profile.readings.get(point)) is not None
    }
    basis = next((b for b in ("house", "evidence", "text") if b in bases), "text")
    if basis == "evidence" and _departs_from_texts(spec, ruleset, q):
        return templates["standing_change"]
    return templates[f"standing_{basis}"]


def _impact_rows(
    spec: Spec, q: Question, members: Sequence[Reviewed], data: ReportData, plain: Plain
) -> list[dict[str, Any]]:
    """The measured impacts a question shows: one per point, or for a question without points one
    per finding measured on its own."""
    say = plain.say.summary
    rows: list[dict[str, Any]] = []
    by_point = {r.finding.variation_point: r for r in members if r.point_section}
    for point in q.words.points:
        r = by_point.get(point)
        if r is None or r.finding.impact is None:
            continue
        vp = spec.variation_points[point]
        played = data.ruleset.reading(point)
        # the row is named by the reading measured against the one played, as the question names it
        other_readings = [rd for rd in vp.readings if rd != played]
        others = [
            q.words.readings.get(f"{point}={rd}") or q.words.readings.get(rd) or rd for rd in other_readings
        ]
        per_players = r.finding.impact.to_json()["per_players"]
        if len(other_readings) == 1:
            other_rules = spec.with_readings(data.ruleset, {point: other_readings[0]})
            _mark_undealt(plain.words, other_rules, per_players)
        rows.append(
            {
                "subject": point,
                "label": say("under_others", others=say("or").join(others)) if others else vp.question,
                "against": say("or").join(others) if others else vp.question,
                "games": r.finding.impact.games,
                "per_players": per_players,
            }
        )
    if not q.words.points:
        for r in members:
            if r.finding.impact is not None:
                alt = r.finding.alternative
                # the other side is what was measured against the rules as played; a discovered
                # finding's side is an engine named by id, so its words name it
                compared = (alt.compared.words if q.words.topics else alt.compared.label) if alt else ""
                per_players = r.finding.impact.to_json()["per_players"]
                if alt is not None:
                    _mark_undealt(plain.words, alt.compared.ruleset, per_players)
                label = (compared or plain.finding(r.finding)).rstrip(". ")
                row = {
                    "subject": r.finding.id,
                    "label": label,
                    "against": label,
                    "games": r.finding.impact.games,
                    "per_players": per_players,
                }
                # two findings measured against the same alternative over the same games: one row
                if not any(
                    o["label"] == row["label"] and o["per_players"] == row["per_players"] for o in rows
                ):
                    rows.append(row)
    return rows


def _mark_undealt(words: Words, compared: Ruleset, per_players: dict[str, dict[str, Any]]) -> None:
    """Says, in the words file's words, at which player counts the rules measured against cannot be
    dealt at all: there every match differs at the deal, and the share alone would not say why."""
    templates = words.templates
    for count, row in per_players.items():
        players = int(count)
        try:
            compared.hand_size(players)
        except SpecError:
            deck = compared.deck_size(players)
            hand = compared.asked_hand_size(players)
            row["undealt"] = (
                templates["undealt_hands"].format(players=players, hand=hand, need=hand * players, deck=deck)
                if hand
                else templates["undealt"].format(players=players, deck=deck)
            )


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


def _kind_words(spec: Spec, ruleset: Ruleset, q: Question, plain: Plain) -> str:
    """The kind of a question in words. A variation point that the texts, each read on its own word
    (the literal profiles), answer alike and otherwise than the rules played is not two readings of
    the texts: the answer played departs from what they say (the rulebooks propose it as a
    change to the text)."""
    if q.kind is FindingKind.AMBIGUITY and _departs_from_texts(spec, ruleset, q):
        return plain.words.template("texts_say_otherwise")
    return plain.words.kinds[q.kind.value]


def _departs_from_texts(spec: Spec, ruleset: Ruleset, q: Question) -> bool:
    """Whether the texts, each read on its own word (the literal profiles), answer a point of the
    question alike and otherwise than the rules played."""
    literal = spec.texts_read_literally
    for point in q.words.points:
        said = {texts.get(point) for texts in literal}
        if literal and len(said) == 1 and None not in said and ruleset.reading(point) not in said:
            return True
    return False


def _shows_difference(finding: Finding) -> bool:
    """Whether a finding's example plays out otherwise on some side it compares."""
    assert finding.witness is not None
    outcomes = finding.witness.outcomes
    return len({json.dumps(o, sort_keys=True, default=str) for o in outcomes.values()}) > 1


def _plays_everywhere(finding: Finding) -> bool:
    """Whether a finding's table is one every side it compares can deal and reach (no reading named
    that it needs, no answer's deck short of its cards)."""
    assert finding.witness is not None
    sit = finding.witness.situation
    return not sit.get("only_under") and not sit.get("needs_readings")


def question_json(
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
    table = evidence_table(plain.words)
    for r in members:
        evidence_ids += [e for e in r.finding.evidence if e in table and e not in evidence_ids]
    # The example: the first table where the sides play differently and every side compared can
    # deal and reach it, else the first where they differ (a table where all play alike, or that
    # only one answer's deck can hold, shows little of the other).
    shown = [r for r in members if r.finding.witness is not None]
    head = min(
        shown,
        key=lambda r: (not _shows_difference(r.finding), not _plays_everywhere(r.finding)),
        default=None,
    )
    counts: dict[str, int] = {}
    for r in members:
        counts[r.finding.kind.value] = counts.get(r.finding.kind.value, 0) + 1
    impact = q.impact
    impact_rows = _impact_rows(spec, q, members, data, plain)
    return {
        "id": q.id,
        "rank": rank,
        "title": q.words.title,
        "ask": dict(q.words.ask),
        "kind": q.kind.value,
        "kind_words": _kind_words(spec, ruleset, q, plain),
        "severity": q.severity.value,
        "status": "open" if q.status.is_open else "settled",
        "standing": _standing(spec, ruleset, q, plain.words),
        "settled_by": None if q.status.is_open else q.status.to_json(),
        "points": list(q.words.points),
        "parameters": list(q.words.parameters),
        "topics": list(q.words.topics),
        # the topics discovery found this question by (its members'; not the silences it was also
        # checked against): what the "found by discovery" mark shows
        "found_by": sorted({r.finding.topic for r in members if r.finding.topic is not None}),
        "new": not (q.words.points or q.words.parameters or q.words.variants),
        "clauses": clause_list(spec, plain.words, _question_clauses(spec, q, members, ruleset)),
        "readings": readings,
        "choice": _question_choice(spec, ruleset, q, readings, plain),
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
        "at_table": None if impact is None or impact.outcome is None else outcome_json(impact.outcome),
        # the other side of that comparison, in the words of its row of impacts
        "at_table_against": None
        if impact is None
        else next((row["against"] for row in impact_rows if row["subject"] == impact.subject), None),
        "wording_only": impact is not None and impact.wording_only,
        "impacts": impact_rows,
        "evidence": evidence_list(plain.words, evidence_ids),
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
        "scene": scene_json(plain, head.finding) if head is not None else None,
        "scene_from": head.finding.id if head is not None else None,
        "rests_on": sorted(_rests_on(head.finding, "rests_on")) if head is not None else [],
        "needs_other": sorted(_rests_on(head.finding, "needs_readings")) if head is not None else [],
    }


def _rests_on(finding: Finding, key: str) -> list[str]:
    """The points whose answers the finding's example needs (the divergence check names them): as
    played (`rests_on`), or another answer than the one played (`needs_readings`)."""
    resting = finding.witness.situation.get(key) if finding.witness is not None else None
    return [str(p) for p in resting] if isinstance(resting, Mapping) else []


def standalone_groups(standalone: Sequence[str], by_id: Mapping[str, Reviewed]) -> list[list[str]]:
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


def for_implementers(q: Question, by_id: Mapping[str, Reviewed]) -> bool:
    """Whether a question is a note for engine implementers rather than a designer's question: an
    engine decision that no engine variant plays the other way (none of its findings has an
    alternative, so no game at the table can differ and nothing was measured); it is about how an
    engine or its tools count positions, not about play."""
    return (
        q.kind is FindingKind.DECISION
        and q.impact is None
        and all(by_id[m].finding.alternative is None for m in q.members)
    )


def _share_words(q: Mapping[str, Any], plain: Plain) -> str:
    """A question's largest share of games changed. Where the question has several readings
    measured apart, it names the one the share is of, and says which of the others cannot be
    dealt at all (every game there differs at the deal, which tells nothing of play)."""
    impact = q["impact"]
    if not impact:
        return plain.say.summary("not_measured")
    share = plain.say.summary("share", share=pct(impact["share"]), players=impact["players"])
    if len(q["impacts"]) < 2 or not q.get("at_table_against"):
        return share
    words = [plain.words.template("share_under", share=share, against=q["at_table_against"])]
    for row in q["impacts"]:
        undealt = next((c["undealt"] for c in row["per_players"].values() if c.get("undealt")), None)
        if undealt and row.get("against"):
            words.append(plain.words.template("share_undealt", against=row["against"], undealt=undealt))
    return "; ".join(words)


def plain_verdict(
    questions: Sequence[Mapping[str, Any]], failures: Sequence[Failure], plain: Plain
) -> list[str]:
    """The designer's summary: the questions, what changes play, what is urgent."""
    say = plain.say.summary
    rules = plain.ruleset_words()
    open_q = [q for q in questions if q["status"] == "open"]
    answered: dict[str, int] = {}
    for q in questions:
        if q["status"] != "open":
            answered[q["standing"]] = answered.get(q["standing"], 0) + 1
    lines = [
        say(
            "to_settle",
            questions=say("question_one" if len(questions) == 1 else "question_many", count=len(questions)),
            rules=rules[:1].lower() + rules[1:],
            open=len(open_q),
            are=say("is" if len(open_q) == 1 else "are"),
            answered="".join(say("answered", count=n, standing=standing) for standing, n in answered.items()),
        )
    ]
    clear = [q for q in questions if q["at_table"] and q["at_table"]["real"]]
    if clear:
        lines.append(say("clear", questions="; ".join(q["title"] for q in clear)))
    # One line, most consequential first: a share of games changed says how often the two answers
    # part at some step, not what that changes (turning the other way round the table changes
    # every game and nothing about who wins), so it does not order these questions.
    unclear = [
        q
        for q in questions
        if q["impact"] and q["impact"]["share"] > 0 and not (q["at_table"] and q["at_table"]["real"])
    ]
    if unclear:
        lines.append(
            plain.words.template(
                "no_clear_change",
                questions="; ".join(f"{q['title']} ({_share_words(q, plain)})" for q in unclear),
            )
        )
    never = [q for q in questions if q["wording_only"]]
    if never:
        lines.append(
            say(
                "wording_only_one" if len(never) == 1 else "wording_only_many",
                count=len(never),
                questions="; ".join(q["title"] for q in never),
            )
        )
    # A question whose answer other questions' examples rest on is best settled first.
    by_point = {p: q for q in questions for p in q["points"]}
    resting: dict[str, list[Mapping[str, Any]]] = {}
    for q in questions:
        for point in q["rests_on"]:
            base = by_point.get(point)
            # An example that needs another answer of the same question than the one played does
            # not rest on the answer played.
            if base is None or base is q or set(base["points"]) & set(q["needs_other"]):
                continue
            if q not in resting.setdefault(base["id"], []):
                resting[base["id"]].append(q)
    for base in questions:
        if base["id"] in resting:
            lines.append(
                plain.words.template(
                    "settle_first",
                    title=base["title"],
                    rank=str(base["rank"]),
                    questions=", ".join(
                        say("resting", rank=q["rank"], title=q["title"]) for q in resting[base["id"]]
                    ),
                )
            )
    settled = plain.words.template("standing_house")
    high = [q for q in questions if q["severity"] == "high" and q["standing"] != settled]
    if high:
        lines.append(
            plain.words.template(
                "high_unsettled",
                count=str(len(high)),
                questions="; ".join(
                    plain.words.template("high_unsettled_item", title=q["title"], standing=q["standing"])
                    for q in high
                ),
            )
        )
    if failures:
        lines.append(say("failed", count=len(failures)))
    return lines
