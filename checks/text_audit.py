"""The text audit: findings read off the spec's own data, without playing a card.

- kind "defect": every damaged source text and every damaged clause the spec records.
- kind "gap": every parameter and variation point the spec marks `in_text: false`: things play
  needs that neither text defines (point values, hand size, who leads first, ...).
- kind "mismatch": where the German and the Spanish text say different things. The known
  differences are listed below as phrase pairs; a mismatch is reported only while both phrases are
  still in the spec's clauses, so a corrected house-rules copy of the spec no longer shows it. A
  clause that exists in one language only is a mismatch too.

Every finding carries a proposed rulebook sentence and the evidence ids the spec cites for it. A
finding that is not one variation point carries its own two alternatives as readings and, where it
concerns play, the table situation it is about, played by the engine under both (checks/impact.py).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace

from five35.engine import Game
from five35.spec import Ruleset, Spec

from .findings import CheckContext, CheckResult, EngineFactory, Finding, Severity, point_status
from .impact import alternative_witness, finding_alternative

CHECK_NAME = "text_audit"


@dataclass(frozen=True)
class KnownMismatch:
    """A difference between the German and the Spanish wording of one clause."""

    key: str  # stable id suffix
    clause: str
    de_pattern: str  # regex that must match the German clause
    es_pattern: str  # regex that must match the Spanish clause
    de_quote: str
    es_quote: str
    title: str
    detail: str
    proposal: str
    severity: Severity
    variation_point: str | None = None


KNOWN_MISMATCHES: tuple[KnownMismatch, ...] = (
    KnownMismatch(
        key="deck.copies.five_players",
        clause="deck.copies",
        de_pattern=r"5\+ Spielern",
        es_pattern=r"más de 5 jugadores",
        de_quote="5 pro Karte bei 5+ Spielern",
        es_quote="5 de cada una con más de 5 jugadores",
        title="Five players: German '5+' includes 5, Spanish 'más de 5' excludes it (deck size)",
        detail=(
            "German: 5 copies of each card with 5 or more players. Spanish: 5 copies only with more "
            "than 5 players, which leaves 5 players in neither bracket ('2-4' or 'más de 5'); the "
            "nearest reading gives them 4 copies (52 cards instead of 65)."
        ),
        proposal=(
            "The deck holds 4 copies of each card with 2 to 4 players and 5 copies with 5 or 6 players."
        ),
        severity="high",
        variation_point="five_player_copies",
    ),
    KnownMismatch(
        key="trick.end.set.five_players",
        clause="trick.end.set",
        de_pattern=r"5\+ Spielern",
        es_pattern=r"más de 5 jugadores",
        de_quote="oder die fünfte in einem Spiel mit 5+ Spielern",
        es_quote="o la quinta en una partida de más de 5 jugadores",
        title="Five players: German '5+' and Spanish 'más de 5' close a set at different cards",
        detail=(
            "German: with 5 players the fifth card of a set ends the trick. Spanish: only with more "
            "than 5 players; with 5 players the fourth card ends it."
        ),
        proposal=(
            "A trick ends when a player places the fourth card of a set (the fifth card with 5 or 6 players)."
        ),
        severity="high",
        variation_point="five_player_set_close",
    ),
    KnownMismatch(
        key="eight.value.worth",
        clause="eight.value",
        de_pattern=r"wertvollsten",
        es_pattern=r"más puntos valen",
        de_quote="sind die wertvollsten im Spiel",
        es_quote="son las que más puntos valen en el juego",
        title=(
            "The 8s: German 'die wertvollsten' (most valuable) against Spanish 'más puntos valen' "
            "(worth most points)"
        ),
        detail=(
            "The German can be read as strength (an 8 beats every other card) or as points; the "
            "Spanish says only that the 8s are worth the most points, and an 8 ranks between 7 and 9."
        ),
        proposal=(
            "The 8s are worth the most points at the end of a round; in play an 8 ranks between 7 and 9."
        ),
        severity="high",
        variation_point="eight_rank",
    ),
    KnownMismatch(
        key="trick.end.set.verb",
        clause="trick.end.set",
        de_pattern=r"\blegt\b.*\bzu\b",
        es_pattern=r"\bañade\b",
        de_quote="Ein Spieler legt die vierte Karte zu einem aktiven Satz",
        es_quote="Un jugador añade la cuarta carta a un set activo",
        title="Closing a set: German 'legt ... zu' (places) against Spanish 'añade' (the Add action)",
        detail=(
            "The Spanish verb is the name of the Add action ('Añadir'), so only an add closes a set; "
            "the German 'legt ... zu' is any placing. With at most 3 cards a turn a set of 4 or 5 "
            "only arises by adding, so the two agree in play today, but they part as soon as a "
            "house rule allows 4 cards a turn."
        ),
        proposal=(
            "A trick ends when a player adds the fourth card to a set (the fifth with 5 or 6 players)."
        ),
        severity="low",
    ),
    KnownMismatch(
        key="trick.end.run.verb",
        clause="trick.end.run",
        de_pattern=r"\blegt\b",
        es_pattern=r"\bañade\b",
        de_quote="Ein Spieler legt die fünfte Karte eines Laufs",
        es_quote="Un jugador añade la quinta carta de una escalera",
        title="Closing a run: German 'legt' (places) against Spanish 'añade' (the Add action)",
        detail=(
            "The Spanish names the Add action, the German any placing of the fifth card. With at "
            "most 3 cards a turn a run of 5 only arises by adding, so play agrees today."
        ),
        proposal="A trick ends when a player adds the fifth card to a run.",
        severity="low",
    ),
    KnownMismatch(
        key="round.scoring.printed",
        clause="round.scoring",
        de_pattern=r"zählen dann die Punkte",
        es_pattern=r"puntos indicados en las cartas",
        de_quote="zählen dann die Punkte der noch auf ihrer Hand befindlichen Karten",
        es_quote="se anotan entonces los puntos indicados en las cartas",
        title=(
            "Scoring: Spanish 'los puntos indicados en las cartas' says the points are printed on the cards"
        ),
        detail=(
            "The Spanish speaks of the points shown on the cards, the German only of counting the "
            "cards' points. Neither text gives the values (see the gap on points), so a reader of "
            "either text without the physical cards cannot score."
        ),
        proposal=(
            "At the end of a round every other player adds up the points printed on the cards left "
            "in their hand (the table of points per rank is given below)."
        ),
        severity="low",
    ),
    KnownMismatch(
        key="eight.trigger.cleared",
        clause="eight.trigger",
        de_pattern=r"Stich sofort beendet",
        es_pattern=r"baza se retira de inmediato",
        de_quote="wird der Stich sofort beendet",
        es_quote="la baza se retira de inmediato",
        title="Rule of 8: German 'the trick is ended' against Spanish 'the trick is cleared away'",
        detail=(
            "Both stop the trick at once; the Spanish 'se retira' (is removed) describes clearing "
            "the cards, the German the end of the trick. The winner and the next lead are the same."
        ),
        proposal=(
            "When the Rule of 8 applies, the trick ends at once: its player clears the cards and "
            "leads the next trick."
        ),
        severity="low",
    ),
)

# Rulebook sentences for the gaps the embedded spec knows; other gaps get a sentence built from the
# spec's own default reading.
GAP_PROPOSALS: dict[str, str] = {
    "points": (
        "Points per card: 1 to 5 score 1 point each, 7 and 9 score 2, 11 to 15 score 3, and each 8 scores 5."
    ),
    "hand_size": (
        "Deal 12 cards to each player with 2, 4 or 5 players, 13 with 3 players and 10 with 6 "
        "players; set the rest aside unseen."
    ),
    "deal": (
        "Deal 12 cards to each player with 2, 4 or 5 players, 13 with 3 players and 10 with 6 "
        "players; set the rest aside unseen."
    ),
    "first_leader": "Draw a player at random to lead the first trick of the game.",
    "round_leader": "The player who went out leads the first trick of the next round.",
    "turn_order": "Play passes to the left (clockwise).",
}

GAP_SEVERITY: dict[str, Severity] = {
    "points": "high",
    "hand_size": "high",
    "deal": "high",
    "first_leader": "low",
    "round_leader": "low",
    "turn_order": "low",
}


def defect_findings(spec: Spec) -> list[Finding]:
    out: list[Finding] = []
    for code, source in sorted(spec.sources.items()):
        for n, text in enumerate(source.defects, start=1):
            damaged = tuple(c.id for c in spec.clauses.values() if c.defect and c.text(code) is not None)
            out.append(
                Finding(
                    id=f"defect.source.{code}.{n}",
                    kind="defect",
                    title=f"The {source.language} text ({source.file.name}) is damaged",
                    clauses=damaged,
                    detail=text,
                    check=CHECK_NAME,
                    severity="medium",
                    proposed_wording=(
                        f"Restore the {source.language} text from the publisher's edition; until then "
                        "read the damaged passages from the other language."
                    ),
                    status="open",
                )
            )
    for clause in spec.clauses.values():
        if not clause.defect:
            continue
        intact = clause.de if clause.de else clause.es
        out.append(
            Finding(
                id=f"defect.{clause.id}",
                kind="defect",
                title=f"Clause {clause.id} is damaged in one text",
                clauses=(clause.id,),
                detail=clause.defect,
                check=CHECK_NAME,
                severity="medium",
                proposed_wording=f"Restore the clause as the intact text has it: \u201c{intact}\u201d",
                status="open",
            )
        )
    return out


def gap_findings(spec: Spec, ruleset: Ruleset) -> list[Finding]:
    out: list[Finding] = []
    for param in spec.parameters.values():
        if param.in_text:
            continue
        related = "deal" if param.name == "hand_size" and "deal" in spec.variation_points else None
        out.append(
            Finding(
                id=f"gap.parameter.{param.name}",
                kind="gap",
                title=f"Undefined: {param.name.replace('_', ' ')} (neither text gives it)",
                # A value no clause mentions is shown against the clauses of the point it feeds.
                clauses=param.cites or (spec.variation_points[related].cites if related else ()),
                detail=param.explain,
                check=CHECK_NAME,
                severity=GAP_SEVERITY.get(param.name, "medium"),
                variation_point=related,
                evidence=param.evidence,
                proposed_wording=GAP_PROPOSALS.get(
                    param.name, f"State the value of {param.name.replace('_', ' ')}: {param.value}."
                ),
                status=point_status(spec, ruleset, related) if related else "open",
            )
        )
    for vp in spec.variation_points.values():
        if vp.in_text:
            continue
        default = vp.readings[vp.default]
        out.append(
            Finding(
                id=f"gap.point.{vp.name}",
                kind="gap",
                title=f"Undefined: {vp.question}",
                clauses=vp.cites,
                detail=f"Neither text says. {vp.rationale}",
                check=CHECK_NAME,
                severity=GAP_SEVERITY.get(vp.name, "medium"),
                variation_point=vp.name,
                readings=dict(vp.readings),
                evidence=vp.evidence,
                proposed_wording=GAP_PROPOSALS.get(vp.name, default),
                status=point_status(spec, ruleset, vp.name),
            )
        )
    return out


def mismatch_findings(spec: Spec, ruleset: Ruleset) -> list[Finding]:
    out: list[Finding] = []
    for m in KNOWN_MISMATCHES:
        clause = spec.clauses.get(m.clause)
        if clause is None or clause.de is None or clause.es is None:
            continue
        if not (re.search(m.de_pattern, clause.de) and re.search(m.es_pattern, clause.es)):
            continue
        point = m.variation_point if m.variation_point in spec.variation_points else None
        vp = spec.variation_points[point] if point else None
        out.append(
            Finding(
                id=f"mismatch.{m.key}",
                kind="mismatch",
                title=m.title,
                clauses=(m.clause,),
                detail=f"German: \u201c{m.de_quote}\u201d. Spanish: \u201c{m.es_quote}\u201d. {m.detail}",
                check=CHECK_NAME,
                severity=m.severity,
                variation_point=point,
                readings=dict(vp.readings) if vp else {},
                evidence=vp.evidence if vp else (),
                proposed_wording=m.proposal,
                status=point_status(spec, ruleset, point),
            )
        )
    for clause in spec.clauses.values():
        if (clause.de is None) == (clause.es is None):
            continue
        present, missing = ("German", "Spanish") if clause.de is not None else ("Spanish", "German")
        out.append(
            Finding(
                id=f"mismatch.only_one_text.{clause.id}",
                kind="mismatch",
                title=f"Clause {clause.id} is in the {present} text only",
                clauses=(clause.id,),
                detail=f"The {missing} text has nothing that corresponds to this {present} clause.",
                check=CHECK_NAME,
                severity="low",
                proposed_wording=(
                    f"Give the {missing} text the same passage: \u201c{clause.de or clause.es}\u201d"
                ),
                status="open",
            )
        )
    return out


def with_alternatives(
    spec: Spec, ruleset: Ruleset, finding: Finding, engine: EngineFactory = Game
) -> Finding:
    """A finding that puts two alternatives of its own (two wordings, two point tables, a text as
    printed and as repaired) gets them as its readings, and the table situation it is about,
    played by `engine` and by the other alternative's engine, as its witness."""
    if finding.variation_point is not None:
        return finding  # its readings, witness and impact are its variation point's
    alt = finding_alternative(spec, ruleset, finding)
    if alt is None:
        return finding
    witness = finding.witness or alternative_witness(alt, engine)
    return replace(finding, readings=finding.readings or dict(alt.readings), witness=witness)


def text_audit(spec: Spec, ruleset: Ruleset, engine: EngineFactory = Game) -> tuple[Finding, ...]:
    """Every text finding, in a stable order: defects, gaps, mismatches."""
    found = (*defect_findings(spec), *gap_findings(spec, ruleset), *mismatch_findings(spec, ruleset))
    return tuple(with_alternatives(spec, ruleset, f, engine) for f in found)


def check_text_audit(ctx: CheckContext) -> CheckResult:
    """The text audit as a check for the runner."""
    start = time.perf_counter()
    findings = text_audit(ctx.spec, ctx.ruleset, ctx.engine)
    return CheckResult(
        name=CHECK_NAME,
        title="Text audit: source defects, undefined terms and German/Spanish mismatches",
        seconds=time.perf_counter() - start,
        exhaustive=len(ctx.spec.clauses),
        findings=findings,
        notes=(
            f"{len(ctx.spec.clauses)} clauses, {len(ctx.spec.parameters)} parameters and "
            f"{len(ctx.spec.variation_points)} variation points read; {len(KNOWN_MISMATCHES)} known "
            "German/Spanish differences looked for",
        ),
    )


# Rulebook sentences settling the embedded spec's variation points the way its default profile plays
# them; a point of a house-rules spec that is not listed gets its default reading's own explanation.
POINT_PROPOSALS: dict[str, str] = {
    "run_gaps": (
        "Runs follow the printed numbers: there are no 6s or 10s, so 5,7 and 9,11 are not runs; every "
        "run lies within 1-5, 7-9 or 11-15."
    ),
    "run_wrap": "Runs do not wrap around: nothing follows 15, so 15,1 is not a run.",
    "run_order": (
        "A run is beaten by a run of the same length that starts on a lower number: 1,2,3 beats 11,12,13."
    ),
    "five_player_copies": "Use 4 copies of each card with 2 to 4 players and 5 copies with 5 or 6 players.",
    "five_player_set_close": (
        "The fourth card of a set ends the trick; with 5 or 6 players the fifth card does."
    ),
    "add_to_single": (
        "Cards may be added to a single card: adding the same number makes a set, adding the next "
        "numbers makes a run."
    ),
    "add_run_ends": "Cards may be added at either end of a run, as long as the whole pile stays one run.",
    "add_past_closing": (
        "A set or run never grows past the card that ends the trick: you may not add more cards than "
        "it takes to close it."
    ),
    "eight_forms": (
        "Any play that places an 8 ends the trick at once: a single 8, a set of 8s, or any run with an "
        "8 in it (7,8 / 7,8,9 / 8,9)."
    ),
    "eight_on_add": "Adding an 8 to the pile is playing an 8: the Rule of 8 applies.",
    "eight_exemption": (
        "If the opening play of a trick contains an 8, the Rule of 8 is off for the rest of that trick."
    ),
    "eight_rank": "In play an 8 ranks between 7 and 9; the 8s are the most valuable cards only in points.",
}


def proposal_for_point(spec: Spec, point: str) -> str | None:
    """A rulebook sentence that settles variation point `point`."""
    if point in POINT_PROPOSALS:
        return POINT_PROPOSALS[point]
    if point in GAP_PROPOSALS:
        return GAP_PROPOSALS[point]
    vp = spec.variation_points.get(point)
    return vp.readings[vp.default] if vp else None


# What the checks runner collects from this module.
CHECKS = [check_text_audit]
