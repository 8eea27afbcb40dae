"""The report's data: the questions a rule designer settles, ranked, each with every finding about
it; the findings that stand alone; the summary and verdict; and the variant comparison.

`report_data(data)` arranges a finished `ReportData` (five35.checks.job.review: the checks' findings
with their witnesses, impacts, severities and proposed sentences already decided, and the variant
statistics) into plain JSON-able data, the content of report.json (described by report.schema.json);
the Markdown and HTML renderers draw from the same data, so the three files always say the same
thing. Its parts are arranged beside it: sections.py (one section per finding), questions.py (the
questions and the findings that stand alone), at_table.py (what an answer changes at the table, the
variants). Every text a renderer shows in prose is made there in plain words (five35.reports.plain):
ids and reading keys stay in their own fields, which the renderers print only in small print.
Nothing here plays the engine or decides a rule, a severity or a wording.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..checks.findings import FINDING_KINDS, CheckResult, Failure, ProvedProperty, SettledCandidate
from ..checks.impact.measure import COMES_UP_GAMES
from ..checks.job.reviewed import ReportData, Reviewed
from ..engine.engines import engine_note, reference_lacks
from ..spec import Ruleset, Spec
from ..spec.words import no_wording
from ..spec.words_model import PageWords, Words
from . import consistency
from .at_table import seat_advantages, variant_json
from .plain import Plain
from .questions import for_implementers, plain_verdict, question_json, standalone_groups
from .rulebook import insertion_labels
from .sections import DISCOVERED_KINDS, clause_list, evidence_table, section_json, summary_json

REPORT_FORMAT = "five35-report/3"


def _match_length(variants: Sequence[Mapping[str, Any]], ruleset: Ruleset, plain: Plain) -> str | None:
    """How long a match lasts under the rules played, by player count: with the point values and
    the score that ends a match, a figure a designer sets on purpose (None: no matches played to
    their end under these rules)."""
    played = next((v for v in variants if v["label"] == ruleset.label()), None)
    if played is None or not ruleset.match_end_score:
        return None
    means = [
        (n, hist["mean"])
        for n, stats in played["per_players"].items()
        if (hist := stats.get("rounds_per_game")) and hist.get("count")
    ]
    if not means:
        return None
    words = plain.words
    last = len(means) - 1
    by_count = [
        words.template(
            "match_length_first" if i == 0 else "match_length_last" if i == last else "match_length_next",
            mean=f"{mean:.2g}",
            players=str(n),
        )
        for i, (n, mean) in enumerate(means)
    ]
    return words.template("match_length", by_count="".join(by_count), end=str(ruleset.match_end_score))


def _technical_summary(
    questions: Sequence[Mapping[str, Any]],
    engine_notes: Sequence[Mapping[str, Any]],
    standalone: Sequence[str],
    summary: Mapping[str, Any],
    failures: Sequence[Failure],
    words: PageWords,
) -> list[str]:
    """The findings counted so that the parts add up to the whole."""
    say = words.summary
    under = sum(len(q["members"]) for q in questions)
    also = sum(len(q["also"]) for q in questions)
    notes = sum(len(n["members"]) for n in engine_notes)
    parts = [
        say("under", count=under, questions=len(questions)),
        say("also", count=also),
        say("notes", count=notes),
        say("alone", count=len(standalone)),
    ]
    rest = summary["total"] - under - also - notes - len(standalone)
    if rest:
        parts.append(say("elsewhere", count=rest))
    listed = ", ".join(parts[:-1]) + words.tables("and") + parts[-1]
    line = say("findings", total=summary["total"], parts=listed)
    checked = say("passed") if not failures else say("failed", count=len(failures))
    return [line, checked]


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
#: The check whose properties hold on the plays it explored and built, and nothing beyond them.
EXPLORED_CHECK = "discovery.interactions"


def _proved(words: Words, results: Sequence[CheckResult]) -> list[dict[str, Any]]:
    """Every property the run's checks proved (the first of a name), in plain words, by check;
    `shown` marks the ones the report lists for a designer, `explored` the ones that hold on the
    plays explored and built (not proofs beyond them)."""
    seen: dict[str, tuple[CheckResult, ProvedProperty]] = {}
    for r in results:
        for p in r.proved:
            seen.setdefault(p.name, (r, p))
    pages = words.pages
    return [
        {
            "name": p.name,
            "check": check.name,
            "check_title": check.title,
            "statement": p.statement,
            "statement_as_proved": p.statement,
            "method": p.method,
            "method_words": pages.methods[p.method],
            "scope": p.scope,
            "plain_scope": p.plain_scope,
            "group": p.group,
            "subject": p.subject,
            "where": p.where,
            "clauses": [{"id": c, "name": words.clause_name(c)} for c in p.clauses],
            "shown": p.name in DESIGNER_PROPERTIES,
            "explored": check.name == EXPLORED_CHECK,
        }
        for check, p in seen.values()
    ]


def _settled(spec: Spec, words: Words, results: Sequence[CheckResult]) -> list[dict[str, Any]]:
    """Every candidate question the run's checks considered and a clause settles (the first of a
    candidate), with the clause in both texts, for a designer to read and disagree with. Changes
    that differ only in one number (the player count, the rank) and are settled by the same words
    are one entry, the number written N and its values listed (`numbers`, `also`)."""
    seen: dict[str, SettledCandidate] = {}
    for r in results:
        for c in r.settled:
            seen.setdefault(c.candidate, c)
    groups: dict[tuple[str, str], list[SettledCandidate]] = {}
    for c in seen.values():
        groups.setdefault((c.by, _NUMBER.sub("#", c.change)), []).append(c)
    out = []
    for members in groups.values():
        first = members[0]
        entry = {
            **first.to_json(),
            "clauses": clause_list(spec, words, first.clauses),
            "numbers": [],
            "also": [],
        }
        varying = _varying_number(members)
        if varying is not None:
            values = [_NUMBER.findall(m.change)[varying] for m in members]
            entry["change"] = _with_n(first.change, varying)
            entry["numbers"] = values
            entry["also"] = [m.candidate for m in members[1:]]
            out.append(entry)
        else:
            out.extend(
                {**m.to_json(), "clauses": clause_list(spec, words, m.clauses), "numbers": [], "also": []}
                for m in members
            )
    return out


_NUMBER = re.compile(r"\d+")


def _with_n(text: str, position: int) -> str:
    """`text` with its number at `position` (among its numbers) written N."""
    hits = list(_NUMBER.finditer(text))
    hit = hits[position]
    return text[: hit.start()] + "N" + text[hit.end() :]


def _varying_number(members: Sequence[SettledCandidate]) -> int | None:
    """The one position among the numbers of the members' changes where they differ (None: a
    single member, or they differ in more than one place)."""
    if len(members) < 2:
        return None
    columns = list(zip(*(_NUMBER.findall(m.change) for m in members), strict=True))
    differing = [i for i, column in enumerate(columns) if len(set(column)) > 1]
    return differing[0] if len(differing) == 1 else None


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


def _discovery_line(discovery: Mapping[str, Any], words: PageWords) -> str | None:
    found = discovery["found"]
    if not discovery["mutants"] and not any(found.values()) and not discovery["proved"]:
        return None
    say = words.summary

    def n(count: int, noun: str) -> str:
        return say(f"{noun}_one" if count == 1 else f"{noun}_many", count=f"{count:,}")

    parts = [n(found["silence"], "gaps"), n(found["engine_decision"], "choices")]
    if found["liveness"]:
        parts.append(n(found["liveness"], "endless"))
    return say(
        "discovery",
        engines=n(discovery["mutants"], "engines"),
        found=", ".join(parts[:-1]) + words.tables("and") + parts[-1],
        questions=n(len(discovery["questions"]), "questions"),
        new=f"{len(discovery['new_questions']):,}",
        proved=n(discovery["proved"], "proved"),
    )


def _evidence_key(eid: str) -> tuple[int, str]:
    digits = "".join(ch for ch in eid if ch.isdigit())
    return (int(digits) if digits else 0, eid)


def _standalone_repairs(
    groups: Sequence[Sequence[str]],
    by_id: Mapping[str, Reviewed],
    repairs: Mapping[str, Sequence[Mapping[str, Any]]],
) -> dict[str, list[dict[str, Any]]]:
    """The rulebooks' corrections of each group's damaged clauses, language by language."""
    out: dict[str, list[dict[str, Any]]] = {}
    for group in groups:
        clauses = list(dict.fromkeys(c for fid in group for c in by_id[fid].finding.clauses))
        books: dict[str, dict[str, Any]] = {}
        for clause in clauses:
            for entry in repairs.get(clause, ()):
                book = books.setdefault(
                    entry["language"], {"language": entry["language"], "labels": [], "kinds": []}
                )
                book["labels"] += entry["labels"]
                book["kinds"] += entry["kinds"]
        if books:
            out[group[0]] = list(books.values())
    return out


def report_data(data: ReportData) -> dict[str, Any]:
    """The whole report as JSON-able data (report.json)."""
    spec, ruleset = data.spec, data.ruleset
    plain = Plain(spec, ruleset)
    # The report's own words, handed once to what writes them (the sections take them from plain).
    pages = plain.words.pages
    sections = [section_json(spec, ruleset, r, plain) for r in data.findings]
    failures = [f for r in data.results for f in r.failures]
    summary = summary_json(sections)
    by_id = {r.finding.id: r for r in data.findings}
    designer = [q for q in data.questions if not for_implementers(q, by_id)]
    questions = [question_json(spec, ruleset, q, i, by_id, data, plain) for i, q in enumerate(designer, 1)]
    placed, restored = insertion_labels(spec, ruleset)
    for q in questions:
        q["in_rulebooks"] = placed.get(q["id"], [])
    engine_notes = [
        {
            "id": q.id,
            "ask": q.words.ask["en"],
            "members": [{"id": m, "plain": plain.finding(by_id[m].finding)} for m in q.members],
            "engine_does": next((w for m in q.members if (w := by_id[m].finding.proposed_wording)), ""),
        }
        for q in data.questions
        if for_implementers(q, by_id)
    ]
    # The rulebooks answer every question of the words file the rules played have words for; one
    # that no finding of this run raised is still named, so no insertion goes unexplained.
    shown = {q["id"] for q in questions} | {n["id"] for n in engine_notes}
    rulebooks_also = [
        {
            "id": qid,
            "title": words.title,
            "ask": words.ask["en"],
            "wording": words.wording(ruleset.readings),
            "in_rulebooks": labels,
        }
        for qid, labels in placed.items()
        if qid not in shown and (words := plain.words.questions.get(qid)) is not None
    ]
    groups = standalone_groups(data.standalone, by_id)
    proved = _proved(plain.words, data.results)
    discovery = _discovery(data.results, sections, questions, proved)
    verdict = plain_verdict(questions, failures, plain)
    technical = _technical_summary(questions, engine_notes, data.standalone, summary, failures, pages)
    if reference_lacks(ruleset) is not None:
        # The last lines speak of the reference engine; these rules it does not play.
        technical[-1] = f"{engine_note(ruleset, plain.words.engines).capitalize()}."
        if failures:
            technical[-1] += pages.summary("failed_see", count=len(failures))
        # Which engine played is said on every page (the reference engine does not play these).
        verdict.append(technical[-1])

    missing_words = no_wording(spec)
    if missing_words is not None:
        verdict.append(missing_words[:1].upper() + missing_words[1:] + ".")
    line = _discovery_line(discovery, pages)
    if line is not None:
        technical.append(line)
    used = {e["id"] for s in sections for e in s["evidence"] if e["id"]}
    used |= {e["id"] for q in questions for e in q["evidence"] if e["id"]}
    used_evidence = sorted(used, key=_evidence_key)
    table = evidence_table(plain.words)
    variants = [variant_json(v, ruleset.readings, questions, plain) for v in data.variants]
    length = _match_length(variants, ruleset, plain)
    if length is not None:
        verdict.insert(1, length)
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
        "kinds": {k.value: plain.words.kinds[k.value] for k in FINDING_KINDS},
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
        # The headings of the appendix's tables of properties stated in one form (interactions).
        "proved_groups": dict(interactions.groups) if (interactions := plain.words.interactions) else {},
        "settled": _settled(spec, plain.words, data.results),
        "questions": questions,
        "engine_notes": engine_notes,
        "rulebooks_also": rulebooks_also,
        "standalone": list(data.standalone),
        "standalone_groups": groups,
        "standalone_repairs": _standalone_repairs(groups, by_id, restored),
        "findings": sections,
        "variants": variants,
        "seat_advantages": seat_advantages(variants, questions),
        "evidence": [{"id": e, **table[e]} for e in used_evidence],
        "evidence_uncited": [
            {"id": e, **table[e]} for e in sorted(table, key=_evidence_key) if e not in used
        ],
    }
    out["consistency"] = consistency.problems(spec, out)
    return out
