"""The report's claims held to the texts and to the report's own evidence, before it is written.

Each rule here is a way a report has been wrong before, checked on the data every output is
rendered from (report.json), so the Markdown, the HTML and the rulebooks cannot disagree with it:

- a question is "settled by the rule texts" only where the texts decide it: a clause of the text
  is cited, and no text read word for word (a literal profile's reading on the text's own word)
  gives another answer;
- a question that is settled never shares its wording with one that is open: the rulebooks would
  print the open answer as settled;
- the rulebooks print an open question's answer as a proposal and a settled one's as a
  clarification, a correction or a change, as the report calls them;
- an example never contradicts itself: a move that ends the round does not let the trick go on;
- the summary adds up: open and settled findings make the whole, each kind's row its total, and
  every finding stands in exactly one place (under a question, beside one, in the notes for engine
  implementers, or alone), so the appendix's count of them adds up.

`problems` returns one plain sentence per problem; the report job puts them in report.json
(`consistency`) and the command prints each as a warning, so a wrong claim is seen before a
designer reads it. The embedded spec's report has none (tests/reports/test_consistency.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..spec import Spec

#: The basis on which a profile's reading counts as settled by the rule texts themselves.
TEXT_BASIS = "text"


def _settled_by_text(spec: Spec, data: Mapping[str, Any]) -> Iterator[str]:
    literal = {name: profile.on_the_text for name, profile in spec.profiles.items() if profile.on_the_text}
    readings = data["ruleset"]["readings"]
    for q in data["questions"]:
        if q["status"] != "settled" or q["choice"]["basis"] != TEXT_BASIS:
            continue
        if not q["clauses"]:
            yield f"Question {q['rank']} ({q['title']}) is settled by the rule texts, but cites no clause."
        for profile, read in literal.items():
            other = [p for p in q["points"] if p in read and read[p] != readings.get(p)]
            if other:
                title = spec.profiles[profile].title
                yield (
                    f"Question {q['rank']} ({q['title']}) is settled by the rule texts, but {title} "
                    "gives another answer: the texts do not decide it."
                )


def _shared_wordings(data: Mapping[str, Any]) -> Iterator[str]:
    by_text: dict[str, list[Mapping[str, Any]]] = {}
    for q in data["questions"]:
        text = q["wording"].get("en")
        if text:
            by_text.setdefault(text, []).append(q)
    for text, qs in by_text.items():
        if len({q["status"] for q in qs}) > 1:
            names = " and ".join(f"{q['rank']} ({q['title']})" for q in qs)
            yield f"Questions {names} share one wording, but one is open and one settled: “{text}”"


def _rulebook_kinds(data: Mapping[str, Any]) -> Iterator[str]:
    for q in data["questions"]:
        for book in q["in_rulebooks"]:
            kinds = set(book["kinds"])
            if q["status"] == "open" and kinds - {"proposal"}:
                yield (
                    f"Question {q['rank']} ({q['title']}) is open, but the {book['language']} rulebook "
                    f"prints its answer as settled ({', '.join(book['labels'])})."
                )
            elif q["status"] != "open" and "proposal" in kinds:
                yield (
                    f"Question {q['rank']} ({q['title']}) is {q['standing']}, but the {book['language']} "
                    "rulebook prints its answer as a proposal for an open question "
                    f"({', '.join(book['labels'])})."
                )


def _scenes(data: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for q in data["questions"]:
        if q.get("scene"):
            yield f"question {q['rank']} ({q['title']})", q["scene"]
    for f in data["findings"]:
        if f.get("scene"):
            yield f"finding {f['id']}", f["scene"]


#: A round that ends while its trick goes on: the words of one outcome that say both.
_GOES_ON = re.compile(r"the trick goes on")
_ROUND_ENDS = re.compile(r"\bgoes out\b|\bthe round ends\b")


def _self_contradicting_examples(data: Mapping[str, Any]) -> Iterator[str]:
    for where, scene in _scenes(data):
        for outcome in scene.get("outcomes", []):
            words = str(outcome.get("words", ""))
            parts = words.split("; ")
            goes_on = [i for i, part in enumerate(parts) if _GOES_ON.search(part)]
            ends = [i for i, part in enumerate(parts) if _ROUND_ENDS.search(part)]
            # A trick that goes on after the move, in the same move as the round's end.
            if goes_on and ends and min(ends) > min(goes_on):
                yield f"The example of {where} lets the trick go on and the round end in one move: “{words}”"


def _counts(data: Mapping[str, Any]) -> Iterator[str]:
    summary = data["summary"]
    if summary["open"] + summary["settled"] != summary["total"]:
        yield (
            f"The summary's open and settled findings ({summary['open']} + {summary['settled']}) "
            f"do not make {summary['total']}."
        )
    kinds = sum(row["total"] for row in summary["by_kind"].values())
    if kinds != summary["total"]:
        yield f"The summary's findings by kind add up to {kinds}, not {summary['total']}."
    for kind, row in summary["by_kind"].items():
        if sum(v for k, v in row.items() if k != "total") != row["total"]:
            yield f"The summary's row for {kind} does not add up to its total."
    # Every finding stands in exactly one place: under a question, beside one as also checked, in
    # the notes for engine implementers, or alone. The appendix's count is made of these places.
    placed = [m for q in data["questions"] for m in q["members"]]
    placed += [a["id"] for q in data["questions"] for a in q["also"]]
    placed += [m["id"] for n in data["engine_notes"] for m in n["members"]]
    placed += list(data["standalone"])
    if sorted(placed) != sorted(f["id"] for f in data["findings"]):
        yield (
            f"The appendix's count of the findings does not add up: {len(placed)} placed under questions, "
            f"beside them, in the notes or alone, of {summary['total']} findings."
        )


def problems(spec: Spec, data: Mapping[str, Any]) -> list[str]:
    """Every inconsistency of the report data, one plain sentence each (none: the report holds)."""
    found: Sequence[Iterator[str]] = (
        _settled_by_text(spec, data),
        _shared_wordings(data),
        _rulebook_kinds(data),
        _self_contradicting_examples(data),
        _counts(data),
    )
    return [line for lines in found for line in lines]
