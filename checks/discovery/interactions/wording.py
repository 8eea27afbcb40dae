"""The words of the findings: rules, readings, moments, the scope and the clauses' own words for a
rule acting at once, as the words file and the texts give them."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ....spec import Spec
from ....spec.words_model import CheckWords, InteractionWords, Words
from .step import _marker
from .verdicts import Search, Verdict


def _marker_list(spec: Spec, clauses: Sequence[str], markers: Mapping[str, Sequence[str]]) -> list[str]:
    """The words of `clauses` that say a rule acts at once, as each text writes them."""
    found: list[str] = []
    for cid in clauses:
        clause = spec.clauses.get(cid)
        for code, words in markers.items():
            word = _marker(clause.text(code), words) if clause is not None else ""
            if word and word not in found:
                found.append(word)
    return found


def _markers_in(spec: Spec, clauses: Sequence[str], markers: Mapping[str, Sequence[str]]) -> str:
    """The words of `clauses` that say a rule acts at once, as each text writes them, joined."""
    return " / ".join(_marker_list(spec, clauses, markers))


def _reading_words(spec: Spec, words: Words, point: str, reading: str) -> str:
    """A reading as the words file names it: its short name and its question's title."""
    for q in words.questions.values():
        if point in q.points:
            label = q.readings.get(reading) or q.readings.get(f"{point}={reading}")
            if label:
                return f"\u2018{label}\u2019 ({q.title})"
    return f"\u2018{spec.variation_points[point].readings[reading]}\u2019"


def _players(s: Search, say: CheckWords) -> str:
    return _counts_text(s.player_counts, say)


def _counts_text(player_counts: Collection[int], say: CheckWords) -> str:
    counts = sorted(player_counts)
    if not counts:
        return say("no_players")
    return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])


def _scope(s: Search, say: CheckWords) -> str:
    """For the notes: the ruleset and how much was explored."""
    return say(
        "scope",
        label=s.ruleset.label(),
        deals=s.deals,
        players=_players(s, say),
        states=s.states,
        plays=s.plays,
        built=s.built,
        built_players=_counts_text(s.built_players, say),
    )


def _rule_names(spec: Spec, words: Words, rules: Sequence[str], say: CheckWords) -> str:
    """Rules by the words file's clause names where a rule is a clause by its own id; else by its
    name in `rule_mutations.rules`, else by the first clause it cites (a designer reads clauses, not
    the spec's rule ids; the order of the ranks is not 'the run' it cites first)."""
    named = words.rule_mutations.rules if words.rule_mutations is not None else {}
    by_id = {r.id: r for r in spec.rules}
    names: list[str] = []
    for rid in rules:
        clause = rid if rid in spec.clauses else next(iter(by_id[rid].cites), rid)
        own = named[rid].name if rid in named and rid not in spec.clauses else None
        name = f"\u2018{own or words.clause_name(clause)}\u2019"
        kind = by_id[rid].kind if rid in by_id else None
        said = words.interactions.kind_rule if words.interactions is not None else ""
        if kind is not None and said:
            name = said.format(name=name, kind=kind)
        if name not in names:
            names.append(name)
    return ", ".join(names[:-1]) + say("and") + names[-1] if len(names) > 1 else "".join(names)


def _moments(moments: Sequence[str], say: CheckWords) -> str:
    said = [m.replace("_", " ") for m in moments]
    return ", ".join(said[:-1]) + say("or") + said[-1] if len(said) > 1 else "".join(said)


def _order_words(spec: Spec, words: InteractionWords, blanks: Mapping[str, str], trial: Verdict) -> str:
    """What the order of rules that meet under another reading does there (`trial`, the verdict of
    the plays built under it), in the words file's words: every order the same, or it changes an
    outcome and the texts fix it (with the clauses' own words where a rule acting at once fixes it,
    'sofort'), or no clause says which comes first."""
    if not trial.differ:
        return words.meets_order["same"].format(**blanks)
    if trial.unsettled or trial.settled_by is None:
        return words.meets_order["open"].format(**blanks)
    how, cited = trial.settled_by
    quoted = [f"\u2018{w}\u2019" for w in _marker_list(spec, cited, words.at_once)]
    said = " / ".join(quoted) if how == "at_once" and quoted else ", ".join(cited)
    return words.meets_order["fixed"].format(**blanks, clauses=said)
