"""The check `discovery.interactions`: the search's verdicts, and the Z3 proof for rules that never
met, as proved properties, notes, settled questions and silences."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from ....engine import Game
from ....spec import Ruleset, SpecError
from ...findings import (
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    ProvedProperty,
    SettledCandidate,
    Severity,
    Witness,
    kind_severity,
)
from ...oracles.z3model import memo, spec_digest
from ..liveness.outcome import players_text
from .apart import proved_apart
from .search import search
from .wording import (
    _counts_text,
    _markers_in,
    _moments,
    _order_words,
    _players,
    _reading_words,
    _rule_names,
    _scope,
)

CHECK = "discovery.interactions"


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def check_interactions(ctx: CheckContext) -> CheckResult:
    started = time.perf_counter()
    spec, ruleset = ctx.spec, ctx.ruleset
    words = ctx.words.interactions
    if words is None:
        raise SpecError(ctx.words.where("interactions"), "the words file has no interactions section")
    # Registered reference_only: the runner gives it the reference engine (or a test its subclass).
    engine = cast(Callable[[Ruleset, int], Game], ctx.engine)
    found = search(spec, ruleset, engine=engine, level=ctx.level, seed=ctx.seed, at_once_words=words.at_once)
    rules = {r.id: r for r in spec.rules}
    proved: list[ProvedProperty] = []
    findings: list[Finding] = []
    settled: list[SettledCandidate] = []
    notes: list[str] = []
    counts: dict[str, int] = {}
    say = ctx.words.check(CHECK)
    scope = _scope(found, say)
    # Only what holds in the deals explored is claimed, and the scope says exactly that much.
    proved_scope = words.scope.format(
        deals=found.deals,
        players=_players(found, say),
        cards=found.most_cards,
        built=found.built,
        built_players=_counts_text(found.built_players, say),
    )
    # Rules that never met on the plays explored: where the compiled model can say when each rule
    # applies, the solver proves it for every pile and play (in a Z3 context of its own, once per
    # process), and the scope says so.
    asked = tuple(
        (v.candidate.topic, tuple(rules[r] for r in v.candidate.all_rules), v.candidate.moments)
        for v in found.verdicts
        if v.status == "dead" and v.candidate.how != "follows"
    )
    key = ("interactions.apart", spec_digest(spec), ruleset, ctx.solver_rlimit, tuple(t for t, _, _ in asked))
    apart_topics = (
        memo(key, lambda: proved_apart(ruleset, asked, ctx.solver_rlimit))
        if words.apart_scope
        else frozenset()
    )
    for v in found.verdicts:
        c = v.candidate
        counts[v.status] = counts.get(v.status, 0) + 1
        blanks = {
            "rules": _rule_names(spec, ctx.words, c.all_rules, say),
            "moment": _moments(c.moments, say),
            "decisions": ", ".join(words.decisions.get(d, d.replace("_", " ")) for d in c.overlap),
            "plays": str(v.occurs),
            "differ": str(v.differ),
            "reading": _reading_words(spec, ctx.words, v.meets_under.point, v.meets_under.reading)
            if v.meets_under is not None
            else "",
        }
        clauses = tuple(dict.fromkeys(cl for r in c.all_rules for cl in rules[r].cites))
        if v.status == "same":
            # What holds under the readings played may not under another: said beside it.
            elsewhere = ""
            if v.differs_under is not None and words.same_elsewhere and words.meets_order:
                e = v.differs_under
                changed = {**blanks, "reading": _reading_words(spec, ctx.words, e.point, e.reading)}
                elsewhere = " " + words.same_elsewhere.format(**changed)
                elsewhere += " " + _order_words(spec, words, changed, e.trial)
            proved.append(
                ProvedProperty(
                    name=c.topic,
                    statement=words.same.format(**blanks) + elsewhere,
                    method="exhaustive",
                    scope=proved_scope,
                    clauses=clauses,
                    group="same" if words.where_same else "",
                    subject=blanks["rules"],
                    where=words.where_same.format(**blanks) + (f".{elsewhere}" if elsewhere else ""),
                )
            )
        elif v.status == "dead":
            # Listed with what was proved: that two rules never meet is worth a designer's reading
            # (the Rule of 8 never closes a set when the opening pile's 8 switches it off).
            template = words.dead_follows if c.how == "follows" else words.dead
            # Where another reading lets them meet: that reading, and what their order does there.
            meets = ""
            if v.meets_under is not None:
                meets = words.elsewhere.format(**blanks)
                if words.meets_order:
                    meets += " " + _order_words(spec, words, blanks, v.meets_under.trial)
            apart = c.topic in apart_topics
            proved.append(
                ProvedProperty(
                    name=c.topic,
                    statement=template.format(**blanks) + (f" {meets}" if meets else ""),
                    method="z3" if apart else "exhaustive",
                    scope=words.apart_scope.format(
                        players=players_text(ruleset.players_min, ruleset.players_max)
                    )
                    if apart
                    else proved_scope,
                    clauses=clauses,
                    group=("apart" if apart else "follows" if c.how == "follows" else "dead")
                    if words.where_dead
                    else "",
                    subject=blanks["rules"],
                    where=words.where_dead.format(**blanks) + (f". {meets}" if meets else ""),
                )
            )
        elif v.status == "unevaluated":
            notes.append(words.unevaluated.format(**blanks))
        elif v.status == "fixed":
            assert v.settled_by is not None
            how, cited = v.settled_by
            template = words.fixed_needs if how == "needs" else words.fixed_at_once
            notes.append(template.format(**blanks, clauses=", ".join(cited)))
            # A question the texts settle: listed with the clauses, for a designer to disagree with.
            settled.append(
                SettledCandidate(
                    c.topic,
                    words.settled_change.format(**blanks),
                    tuple(cited),
                    f"interactions.{how}",
                    "" if how == "needs" else _markers_in(spec, cited, words.at_once),
                    (words.settled_needs if how == "needs" else words.settled_at_once).format(**blanks),
                )
            )
        else:
            assert v.differing is not None
            position, move, outcomes = v.differing
            findings.append(
                Finding(
                    id=c.topic,
                    kind=FindingKind.SILENCE,
                    title=words.silence_title.format(**blanks),
                    clauses=clauses,
                    detail=words.silence_detail.format(**blanks),
                    check=CHECK,
                    severity=kind_severity(spec, FindingKind.SILENCE, Severity.MEDIUM),
                    players=position.players,
                    witness=Witness(
                        summary=say("witness", move=move, moves=len(position.moves)),
                        situation={
                            "players": position.players,
                            "hands": [list(h) for h in position.hands],
                            "move": move.to_json(),
                        },
                        outcomes={o: {d: _json(x) for d, x in dec.items()} for o, dec in outcomes.items()},
                        cards=position.cards,
                        position=position,
                    ),
                    topic=c.topic,
                )
            )
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    notes.insert(0, say("read", candidates=len(found.verdicts), verdicts=summary, scope=scope))
    return CheckResult(
        name=CHECK,
        title=say.title,
        seconds=time.perf_counter() - started,
        exhaustive=found.plays,
        proved=tuple(proved),
        findings=tuple(findings),
        notes=tuple(notes),
        settled=tuple(settled),
    )
