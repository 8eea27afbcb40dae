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

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..spec import Spec
from ..spec.words import words_of
from ..spec.words_model import Sentences

#: The basis on which a profile's reading counts as settled by the rule texts themselves.
TEXT_BASIS = "text"


def _settled_by_text(spec: Spec, data: Mapping[str, Any], say: Sentences) -> Iterator[str]:
    literal = {name: profile.on_the_text for name, profile in spec.profiles.items() if profile.on_the_text}
    readings = data["ruleset"]["readings"]
    for q in data["questions"]:
        if q["status"] != "settled" or q["choice"]["basis"] != TEXT_BASIS:
            continue
        if not q["clauses"]:
            yield say("no_clause", rank=q["rank"], title=q["title"])
        for profile, read in literal.items():
            other = [p for p in q["points"] if p in read and read[p] != readings.get(p)]
            if other:
                title = spec.profiles[profile].title
                yield say("literal_other", rank=q["rank"], title=q["title"], profile=title)


def _shared_wordings(data: Mapping[str, Any], say: Sentences, joint: str) -> Iterator[str]:
    by_text: dict[str, list[Mapping[str, Any]]] = {}
    for q in data["questions"]:
        text = q["wording"].get("en")
        if text:
            by_text.setdefault(text, []).append(q)
    for text, qs in by_text.items():
        if len({q["status"] for q in qs}) > 1:
            names = joint.join(say("shared_question", rank=q["rank"], title=q["title"]) for q in qs)
            yield say("shared", questions=names, text=text)


def _rulebook_kinds(data: Mapping[str, Any], say: Sentences) -> Iterator[str]:
    for q in data["questions"]:
        for book in q["in_rulebooks"]:
            kinds = set(book["kinds"])
            labels = ", ".join(book["labels"])
            if q["status"] == "open" and kinds - {"proposal"}:
                yield say(
                    "open_settled", rank=q["rank"], title=q["title"], language=book["language"], labels=labels
                )
            elif q["status"] != "open" and "proposal" in kinds:
                yield say(
                    "settled_proposal",
                    rank=q["rank"],
                    title=q["title"],
                    standing=q["standing"],
                    language=book["language"],
                    labels=labels,
                )


def _scenes(data: Mapping[str, Any], say: Sentences) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for q in data["questions"]:
        if q.get("scene"):
            yield say("of_question", rank=q["rank"], title=q["title"]), q["scene"]
    for f in data["findings"]:
        if f.get("scene"):
            yield say("of_finding", id=f["id"]), f["scene"]


def _self_contradicting_examples(data: Mapping[str, Any], say: Sentences, scenes: Sentences) -> Iterator[str]:
    # A round that ends while its trick goes on: the words of one outcome that say both, in the
    # scenes' own words (a player who goes out, or a round that ends without one).
    goes_on = scenes("goes_on")
    ending = (scenes("goes_out", player=""), scenes("round_ends"))
    for where, scene in _scenes(data, say):
        for outcome in scene.get("outcomes", []):
            words = str(outcome.get("words", ""))
            parts = words.split("; ")
            going = [i for i, part in enumerate(parts) if goes_on in part]
            ends = [i for i, part in enumerate(parts) if any(end in part for end in ending)]
            # A trick that goes on after the move, in the same move as the round's end.
            if going and ends and min(ends) > min(going):
                yield say("goes_on_ends", where=where, words=words)


def _counts(data: Mapping[str, Any], say: Sentences) -> Iterator[str]:
    summary = data["summary"]
    if summary["open"] + summary["settled"] != summary["total"]:
        yield say(
            "open_settled_sum", open=summary["open"], settled=summary["settled"], total=summary["total"]
        )
    kinds = sum(row["total"] for row in summary["by_kind"].values())
    if kinds != summary["total"]:
        yield say("by_kind_sum", kinds=kinds, total=summary["total"])
    for kind, row in summary["by_kind"].items():
        if sum(v for k, v in row.items() if k != "total") != row["total"]:
            yield say("row_sum", kind=kind)
    # Every finding stands in exactly one place: under a question, beside one as also checked, in
    # the notes for engine implementers, or alone. The appendix's count is made of these places.
    placed = [m for q in data["questions"] for m in q["members"]]
    placed += [a["id"] for q in data["questions"] for a in q["also"]]
    placed += [m["id"] for n in data["engine_notes"] for m in n["members"]]
    placed += list(data["standalone"])
    if sorted(placed) != sorted(f["id"] for f in data["findings"]):
        yield say("placed", placed=len(placed), total=summary["total"])


def problems(spec: Spec, data: Mapping[str, Any]) -> list[str]:
    """Every inconsistency of the report data, one plain sentence each (none: the report holds)."""
    plain = words_of(spec).plain
    say = plain.consistency
    found: Sequence[Iterator[str]] = (
        _settled_by_text(spec, data, say),
        _shared_wordings(data, say, plain.and_),
        _rulebook_kinds(data, say),
        _self_contradicting_examples(data, say, plain.scenes),
        _counts(data, say),
    )
    return [line for lines in found for line in lines]
