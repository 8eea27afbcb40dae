"""The check: every property asked over its domain (analyse), and the outcomes turned into proved
properties and findings in the words of the words file's `liveness` section."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ....spec import Ruleset, Spec, SpecError
from ....spec.words import words_of
from ....spec.words_model import CheckWords, LivenessProperty, LivenessWords, Words
from ...findings import (
    DEFAULT_SOLVER_RLIMIT,
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Level,
    ProvedProperty,
    Severity,
    Witness,
    profile_status,
    readings_of,
)
from ...oracles.z3model import MODEL_VOCABULARY, memo, spec_digest
from .endless import endless_match
from .outcome import NAME, Analysis, EndlessMatch, Outcome, players_text
from .proofs import (
    HAND_STATED,
    join,
    match_ends,
    pass_leaves_trick,
    play_places_cards,
    round_ends,
    single_is_legal,
    symbolic,
    trick_ends,
)
from .small_domains import deal, run_reachable, set_reachable, turn_order
from .states import stated_otherwise, states

MATCH_END_TOPIC = "liveness.match_end"


def _guarded(ruleset: Ruleset, name: str, prove: Callable[[], Outcome], say: CheckWords) -> Outcome:
    differ = stated_otherwise(ruleset, HAND_STATED[name])
    if not differ:
        return prove()
    return Outcome(name, "z3", {}, (), unasked=say("stated_otherwise", rules=", ".join(differ)))


def analyse(
    spec: Spec, ruleset: Ruleset, level: Level = "ci", seed: int = 0, rlimit: int = DEFAULT_SOLVER_RLIMIT
) -> Analysis:
    """Every property over its domain, and the smallest endless match where the points allow one;
    each Z3 query under the resource limit `rlimit`."""
    s = symbolic(spec, ruleset, rlimit)
    say = words_of(spec).check(NAME)
    outcomes = [
        play_places_cards(spec, s),
        _guarded(ruleset, "trick.pass_leaves_trick", lambda: pass_leaves_trick(rlimit), say),
        _guarded(ruleset, "trick.ends", lambda: trick_ends(rlimit), say),
        single_is_legal(spec, s),
        _guarded(ruleset, "round.ends", lambda: round_ends(rlimit), say),
        _guarded(ruleset, "match.ends", lambda: match_ends(ruleset, rlimit, say), say),
        turn_order(spec, ruleset),
        *states(spec, ruleset, level, seed),
        deal(spec, ruleset),
        set_reachable(spec, ruleset),
        run_reachable(spec, ruleset),
    ]
    endless = endless_match(ruleset) if min(ruleset.points.values()) <= 0 else None
    return Analysis(tuple(outcomes), endless)


def _describe(data: Mapping[str, Any], say: CheckWords) -> str:
    parts = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            value = ", ".join(f"{k}={v}" for k, v in value.items()) or say("checked_readings")
        parts.append(f"{key}={value}")
    return "; ".join(parts)


def _property_words(words: Words, name: str) -> LivenessProperty:
    """A property's words; a words file (a house spec's own) that lacks them is refused at its line."""
    got = words.liveness.properties.get(name)
    if got is None:
        where = words.where("liveness", "properties")
        raise SpecError(where, f"gives no statement and scope for the liveness property {name!r}")
    return got


def _point_names(words: Words, points: tuple[str, ...]) -> str:
    """Variation points by their questions' titles, quoted and joined (a point the words file asks
    no question of by its id); none: the one reading each rule has."""
    names = []
    for point in points:
        question = words.question_of(point)
        names.append(f"\u2018{question.title}\u2019" if question is not None else point)
    say = words.check(NAME)
    return join(names, say) or say("as_checked")


def _reading_names(spec: Spec, words: Words, readings: Mapping[str, str], quote: bool = True) -> str:
    """Readings by the plain names the words file's questions give them, quoted and joined."""
    names = []
    for point, reading in readings.items():
        label = reading.replace("_", " ")
        for q in words.questions.values():
            if point in q.points:
                vp = spec.variation_points[point]
                label = q.readings.get(
                    f"{point}={reading}", q.readings.get(reading, vp.listed.get(reading, label).rstrip("."))
                )
                break
        names.append(f"\u2018{label}\u2019" if quote else label)
    say = words.check(NAME)
    return join(names, say) or say("as_checked")


def _failed_finding(spec: Spec, ruleset: Ruleset, all_words: Words, o: Outcome) -> Finding:
    assert o.counterexample is not None
    words = all_words.liveness
    prop = _property_words(all_words, o.name)
    statement = prop.statement
    text = _describe(o.counterexample, all_words.check(NAME))
    readings = o.counterexample.get("readings")
    pairs = sorted(readings.items()) if isinstance(readings, Mapping) else []
    situation = dict(o.counterexample)
    chosen = ruleset.readings
    applies = all(chosen.get(p) == r for p, r in pairs)
    # A failure that is not a game that may never end (a table no deal serves, a closing size no
    # play reaches) is named for what it is, in words a designer reads: the property's own words.
    kind, title, detail = FindingKind.LIVENESS, words.failed_title, words.failed_detail
    blanks: dict[str, str] = {"statement": statement, "counterexample": text}
    if prop.failed is not None:
        kind, title, detail = FindingKind(prop.failed.kind), prop.failed.title, prop.failed.detail
        blanks |= {k: str(v) for k, v in o.counterexample.items() if not isinstance(v, Mapping)}
        # Named are the readings the counterexample changes from the checked ruleset: the ones it
        # shares with the checked rules are not what makes the table fail.
        changed = {p: r for p, r in pairs if chosen.get(p) != r}
        blanks["readings"] = _reading_names(spec, all_words, changed)
    said = detail.format_map(_Blanks(blanks))
    # The witness tells the counterexample under the readings that make it (the rules as checked
    # when it changes none), as a scene's side: "Under '4 copies ...': 5 players need 60 cards ...".
    outcomes: dict[str, Any] = {"property": "fails"}
    if prop.failed is not None:
        under = _reading_names(spec, all_words, changed, quote=False)
        outcomes = {under: prop.failed.table.format_map(_Blanks(blanks))}
    return Finding(
        id=f"liveness.{o.name}",
        kind=kind,
        title=title.format_map(_Blanks(blanks)),
        clauses=o.clauses,
        detail=said,
        check=NAME,
        severity=Severity.HIGH if applies else Severity.MEDIUM,
        readings=readings_of(spec, pairs),
        players=o.counterexample.get("players") if isinstance(o.counterexample.get("players"), int) else None,
        witness=Witness(
            summary=said if prop.failed is not None else text,
            situation=situation,
            outcomes=outcomes,
            cards=o.position.cards if o.position else 0,
            position=o.position,
        ),
        status=profile_status(ruleset, [p for p, _ in pairs], applies),
        topic=f"liveness.{o.name}",
    )


def _endless_finding(words: LivenessWords, ruleset: Ruleset, e: EndlessMatch) -> Finding:
    pos = e.position
    blanks = {
        "zero_ranks": ", ".join(map(str, e.zero_ranks)),
        "players": str(pos.players),
        "cards": str(pos.cards),
        "moves": "; ".join(f"{m}" for m in pos.moves),
        "score": str(pos.scores[0] if pos.scores else 0),
    }
    detail = words.match_end_detail.format(**blanks)
    return Finding(
        id="liveness.match_end",
        kind=FindingKind.LIVENESS,
        title=words.match_end_title.format(**blanks),
        clauses=("deck.points", "round.scoring", "match.end"),
        detail=detail,
        check=NAME,
        severity=Severity.HIGH,
        players=pos.players,
        witness=Witness(
            summary=detail,
            situation={
                "players": pos.players,
                "hands": [list(h) for h in pos.hands],
                "leader": pos.leader,
                "scores": list(pos.scores or ()),
                "moves": [str(m) for m in pos.moves],
                "zero_ranks": list(e.zero_ranks),
                # The table under which the match goes on: the checked one, at its fewest players.
                "points": {str(r): p for r, p in ruleset.point_items},
            },
            outcomes={
                "penalties": list(e.penalties),
                "scores_after": list(pos.scores or ()),
            },
            cards=pos.cards,
            position=pos,
        ),
        topic=MATCH_END_TOPIC,
    )


def check_liveness(ctx: CheckContext) -> CheckResult:
    MODEL_VOCABULARY.require_ruleset(ctx.ruleset)
    MODEL_VOCABULARY.require_spec(ctx.spec)
    started = time.perf_counter()
    all_words = ctx.words
    say = all_words.check(NAME)
    words = all_words.liveness
    key = ("liveness", spec_digest(ctx.spec), ctx.ruleset, ctx.level, ctx.seed, ctx.solver_rlimit)
    analysis = memo(key, lambda: analyse(ctx.spec, ctx.ruleset, ctx.level, ctx.seed, ctx.solver_rlimit))
    proved = []
    findings = []
    unasked = [o for o in analysis.outcomes if o.unasked is not None]
    for o in analysis.outcomes:
        if o.unasked is not None:
            if o.name == "match.ends" and analysis.endless is not None:
                findings.append(_endless_finding(words, ctx.ruleset, analysis.endless))
            continue
        if o.proved:
            scope_words = _property_words(all_words, o.name)
            # The statement and its scope are filled from the same blanks: a bound the proof found
            # is said where a designer reads the guarantee, not only in the appendix's scope.
            blanks = _Blanks(
                {
                    "spec_players": players_text(ctx.ruleset.players_min, ctx.ruleset.players_max),
                    "points": _point_names(all_words, o.points),
                    **o.blanks,
                }
            )
            proved.append(
                ProvedProperty(
                    name=o.name,
                    statement=scope_words.statement.format_map(blanks),
                    method=o.method,
                    scope=scope_words.scope.format_map(blanks),
                    clauses=o.clauses,
                    # Said to a designer only where the tables it names were all explored (a
                    # state property whose tables were cut short has no plain words for them).
                    plain_scope=(
                        scope_words.plain_scope.format_map(blanks)
                        if scope_words.plain_scope and blanks.get("tables_plain") != ""
                        else ""
                    ),
                )
            )
        elif o.name == "match.ends" and analysis.endless is not None:
            findings.append(_endless_finding(words, ctx.ruleset, analysis.endless))
        else:
            findings.append(_failed_finding(ctx.spec, ctx.ruleset, all_words, o))
    held = len(proved)
    return CheckResult(
        name=NAME,
        title=say.title,
        seconds=time.perf_counter() - started,
        proofs=sum(o.queries for o in analysis.outcomes),
        exhaustive=sum(o.cases for o in analysis.outcomes),
        proved=tuple(proved),
        findings=tuple(findings),
        notes=(
            say(
                "read",
                held=held,
                asked=len(analysis.outcomes) - len(unasked),
                proved=", ".join(f"{p.name} ({p.method})" for p in proved),
            ),
            *(say("not_asked", property=o.name, why=o.unasked) for o in unasked),
        ),
    )


class _Blanks(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""
