"""Findings and witnesses in the rulebook's plain words, for the report's prose.

The checks name things by id (clauses, points, readings as `point=reading`, seats from 0); the report
names them as the rulebook does: clauses by their plain names and readings by their short names from
the words file (spec/535.words.yaml), players numbered from 1 (player 1 sits in seat 0), cards by
number. Ids appear in the report only in small print. Nothing here plays the engine: a witness is
told from the table situation, the position and the outcomes its check recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..checks.findings import Finding, FindingKind, ReadingRef
from ..engine import TrickEndReason
from ..spec import Ruleset, Spec
from ..spec.words import questions_of, words_of

#: How a trick ends, in words.
TRICK_ENDS: Mapping[str, str] = {
    TrickEndReason.ALL_PASSED: "all but one passed",
    TrickEndReason.SET_CLOSED: "the set is closed",
    TrickEndReason.RUN_CLOSED: "the run is closed",
    TrickEndReason.RULE_OF_8: "the Rule of 8",
}
LANGUAGE_NAMES: Mapping[str, str] = {"de": "German", "es": "Spanish", "en": "English"}
_VERBS = {"lead": "leads", "overwrite": "overwrites with", "add": "adds", "pass": "passes"}
_INFINITIVES = {"lead": "lead", "overwrite": "overwrite with", "add": "add", "pass": "pass"}


def player(seat: Any) -> str:
    """A seat as people number it."""
    return f"player {int(seat) + 1}"


def cards_text(cards: Iterable[Any]) -> str:
    return ",".join(str(int(c)) for c in cards)


def quoted(text: str) -> str:
    return f"\u2018{text}\u2019"


def split_move(text: str) -> tuple[str, list[int]] | None:
    """A move as the report's data writes it ("add 4,5", `str(Move)`): its action and cards, or None
    for text that is no move (shown as it is)."""
    action, _, rest = str(text).partition(" ")
    if action not in _VERBS:
        return None
    try:
        return action, [int(c) for c in rest.split(",") if c]
    except ValueError:
        return None


def move_words(text: str, infinitive: bool = False) -> str:
    """A move as words: "add 4,5" as "adds 4,5" (or "add 4,5")."""
    parsed = split_move(text)
    if parsed is None:
        return str(text)
    action, cards = parsed
    verb = (_INFINITIVES if infinitive else _VERBS)[action]
    return f"{verb} {cards_text(cards)}".strip()


def pile_words(pile: Any) -> str:
    if not isinstance(pile, Mapping) or not pile.get("cards"):
        return "an empty pile"
    kind = str(pile.get("kind", "pile"))
    return f"the {kind} {cards_text(pile['cards'])}"


class Plain:
    """The spec's and the words file's names for one report: clauses, readings, rulesets."""

    def __init__(self, spec: Spec, ruleset: Ruleset) -> None:
        self.spec = spec
        self.ruleset = ruleset
        self.words = words_of(spec)
        self.labels: dict[tuple[str, str], str] = {}
        for q in questions_of(spec):
            for point in q.points:
                vp = spec.variation_points[point]
                for reading, explain in vp.listed.items():
                    shared = q.readings.get(reading, explain.rstrip("."))
                    self.labels[(point, reading)] = q.readings.get(f"{point}={reading}", shared)
        self.by_reading: dict[str, str] = {}
        for (_, reading), label in self.labels.items():
            self.by_reading.setdefault(reading, label)

    # ---- names ---------------------------------------------------------------------------------

    def clause(self, cid: str) -> str:
        return self.words.clause_name(cid)

    def clauses(self, ids: Sequence[str]) -> str:
        return _join([self.clause(c) for c in ids]) or "the rules"

    def reading(self, point: str, reading: str) -> str:
        return self.labels.get((point, reading), reading.replace("_", " "))

    def readings(self, keys: Iterable[ReadingRef]) -> str:
        """Readings by their short names, quoted and joined."""
        return _join([quoted(self.reading(key.point, key.reading)) for key in keys])

    def at_stake(self, readings: Iterable[ReadingRef]) -> list[ReadingRef]:
        """The readings of the points a finding turns on: a point all of whose readings it lists
        does not matter to it."""
        keys = list(readings)
        named: dict[str, set[str]] = {}
        for key in keys:
            named.setdefault(key.point, set()).add(key.reading)
        vps = self.spec.variation_points
        return [k for k in keys if k.point not in vps or not set(vps[k.point].readings) <= named[k.point]]

    def side(self, key: str, point: str | None = None) -> str:
        """An outcome's key as words: a reading of `point`, readings as `point=reading, ...`, the
        played ruleset's label, or an alternative's own label (already words)."""
        vps = self.spec.variation_points
        if point is not None and point in vps and key in vps[point].listed:
            return self.reading(point, key)
        if key == self.ruleset.label():
            return "the rules as played"
        if "=" in key:
            # An outcome keyed by the readings it was played under, as the impact names a side.
            pairs = [k.strip().partition("=")[::2] for k in key.split(",")]
            if all(p in vps for p, _ in pairs):
                return " and ".join(self.reading(p, r) for p, r in pairs)
        return key

    def ruleset_words(self) -> str:
        profile = self.spec.profiles.get(self.ruleset.profile)
        title = profile.title if profile else self.ruleset.profile
        if not self.ruleset.overridden:
            return title
        changed = _join([quoted(self.reading(p, self.ruleset.reading(p))) for p in self.ruleset.overridden])
        return f"{title}, with {changed}"

    # ---- findings --------------------------------------------------------------------------------

    def _players(self, finding: Finding) -> str:
        return f" with {finding.players} players" if finding.players is not None else ""

    def _languages(self, finding: Finding) -> list[str]:
        """The texts a contradiction quotes, from its unsat core (`clause@de`)."""
        found = []
        for entry in finding.unsat_core:
            _, at, lang = entry.partition("@")
            if at and lang in LANGUAGE_NAMES and LANGUAGE_NAMES[lang] not in found:
                found.append(LANGUAGE_NAMES[lang])
        return found

    def finding(self, finding: Finding) -> str:
        """One sentence that says what a finding found, without ids."""
        kind = finding.kind
        under = self.readings(self.at_stake(finding.readings))
        players = self._players(finding)
        clauses = self.clauses(finding.clauses)
        if kind is FindingKind.AMBIGUITY:
            return f"The readings play the same situation differently ({clauses})."
        if kind is FindingKind.CONTRADICTION:
            langs = self._languages(finding)
            text = f"the {' and the '.join(langs)} text of {clauses}" if langs else f"what {clauses} say"
            # A text example's contradiction holds the clauses to their words as they stand.
            literally = "" if langs else ", read word for word"
            if under:
                return f"Under {under}{players}, the rules contradict {text}{literally}."
            return f"The rules contradict {text}{players} under every reading{literally}."
        if kind is FindingKind.DEAD_CLAUSE:
            where = f" under {under}" if under else " whatever the readings"
            part = finding.title.split(": ", 1)[1] if ": " in finding.title else f"A part of {clauses}"
            return f"{_capital(self._reading_names(part))} can never happen{players}{where}."
        if kind is FindingKind.MISMATCH:
            return self._mismatch(finding)
        if kind is FindingKind.DEFECT:
            clause = self.spec.clauses.get(finding.clauses[0]) if len(finding.clauses) == 1 else None
            if clause is not None and clause.defect:
                return f"{_capital(self.clause(clause.id))} is damaged in one text: {clause.defect}"
            return f"A source text is damaged: {finding.detail}"
        # A gap: its title is plain ("Undefined: ...").
        return finding.title.replace("_", " ")

    def _reading_names(self, text: str) -> str:
        """A check's "(reading overflow)" as the reading's short name."""
        out = text
        for reading, label in self.by_reading.items():
            out = out.replace(f"(reading {reading})", f"(if {quoted(label)})")
        return out.rstrip(".")

    def _mismatch(self, finding: Finding) -> str:
        clause = self.spec.clauses.get(finding.clauses[0]) if finding.clauses else None
        if clause is not None and (clause.de is None) != (clause.es is None):
            present, missing = ("German", "Spanish") if clause.de is not None else ("Spanish", "German")
            named = self.clause(clause.id)
            return f"Only the {present} text has {named}; the {missing} text has nothing like it."
        for row in self.words.mismatches:
            if row.clause in finding.clauses and row.variation_point == finding.variation_point:
                return f"{row.title}."
        return f"The German and the Spanish text of {self.clause(finding.clauses[0])} say different things."

    # ---- witnesses -------------------------------------------------------------------------------

    def scene(self, witness: Mapping[str, Any], point: str | None = None) -> dict[str, Any]:
        """A witness as a short scene: the table (`setup`), then what happens under each side
        (`outcomes`: label and words; `same` when every side gives the same)."""
        sit = witness.get("situation", {})
        setup = _setup(sit)
        needs = sit.get("needs_readings")
        named = ""
        if isinstance(needs, Mapping) and needs:
            named = _join([quoted(self.reading(str(p), str(r))) for p, r in needs.items()])
            setup += f" (A table that arises only under {named}.)"
        resting = sit.get("rests_on")
        if isinstance(resting, Mapping) and resting:
            # The example hangs on the answer played to another question: said, never left unsaid.
            needed = _join([quoted(self.reading(str(p), str(r))) for p, r in resting.items()])
            played = (
                "the answers played to other questions"
                if len(resting) > 1
                else "the answer played to another question"
            )
            setup += f" (It needs {needed}, {played}.)"
        only = sit.get("only_under")
        if isinstance(only, list) and only and point is not None:
            # The other readings' decks hold too few copies of a card on this table.
            dealt = _join([quoted(self.reading(point, str(r))) for r in only])
            setup += f" (Only {dealt} has enough copies of these cards for this table.)"
        outcomes = witness.get("outcomes", {})
        mover = sit.get("to_move")
        told = [
            {"label": self.side(str(key), point), "words": _outcome(value, mover)}
            for key, value in outcomes.items()
        ]
        same = len({o["words"] for o in told}) == 1 and len(told) > 1
        return {"setup": setup, "outcomes": told, "same": same, "needs": named}


def _join(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _setup(sit: Mapping[str, Any]) -> str:
    parts: list[str] = []
    players = sit.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        parts.append(f"{players} players")
    if "deck" in sit:
        parts.append(f"a deck of {sit['deck']} cards")
    if "seed" in sit:
        # The seed that replays it is the technical appendix's; a designer meets a match.
        # A deal's witness before any card is played: the first trick of the match.
        opening = sit.get("leading") is True and sit.get("pile") is None and "trick" not in sit
        parts.append(
            "as one of the simulated matches begins" if opening else "in one of the simulated matches"
        )
    head = ", ".join(parts)
    sentences = [_capital(head) + "." if head else ""]
    if "round_leader" in sit and "went_out" in sit:
        leader, out = sit["round_leader"], sit["went_out"]
        if leader == out:
            sentences.append(f"{_capital(player(leader))} led the round and went out.")
        else:
            sentences.append(f"{_capital(player(leader))} led the round; {player(out)} went out.")
    trick = sit.get("trick") or []
    if trick and "round_leader" not in sit:
        plays = "; ".join(
            player(t.get("player", 0))
            + " "
            + move_words(f"{t.get('action', '')} {cards_text(t.get('cards', []))}")
            for t in trick
        )
        sentences.append(_capital(plays) + ".")
    if sit.get("opening_has_eight"):
        sentences.append("The trick's opening pile holds an 8.")
    passed = sit.get("passed") or []
    if passed:
        sentences.append(
            _capital(_join([player(p) for p in passed]))
            + (" has" if len(passed) == 1 else " have")
            + " passed."
        )
    mover = sit.get("to_move")
    if mover is not None:
        hand = sit.get("hand")
        if hand is None and isinstance(sit.get("hands"), list) and int(mover) < len(sit["hands"]):
            hand = sit["hands"][int(mover)]
        holding = f", holding {cards_text(hand)}" if hand else ""
        if sit.get("pile"):
            sentences.append(
                f"{_capital(player(mover))} is to move, facing {pile_words(sit['pile'])}{holding}."
            )
        else:
            sentences.append(f"{_capital(player(mover))} is to lead{holding}.")
        hands = sit.get("hands")
        if isinstance(hands, list):
            # The other hands too, where the scene has them: what they hold is what they score.
            held = [
                f"{player(seat)} holds {cards_text(h)}"
                for seat, h in enumerate(hands)
                if seat != int(mover) and isinstance(h, list) and h
            ]
            if held:
                sentences.append(_capital(_join(held)) + ".")
    return " ".join(s for s in sentences if s)


def _after(value: Any, mover: Any) -> str:
    """What one move leads to, as a scene records it."""
    if not isinstance(value, Mapping):
        return "that is not allowed" if value == "not allowed" else str(value)
    parts: list[str] = []
    if value.get("trick_ends"):
        reasons = [TRICK_ENDS.get(r, str(r).replace("_", " ")) for r in value.get("trick_end_reasons", [])]
        why = f" ({_join(reasons)})" if reasons else ""
        winner = value.get("trick_winner")
        won = f", won by {player(winner)}" if winner is not None else ""
        parts.append(f"the trick ends{why}{won}")
    elif not value.get("round_ends"):
        # A move that ends the round ends its trick with it: the trick does not go on.
        pile = value.get("pile")
        parts.append(f"the trick goes on with {pile_words(pile)}" if pile else "the trick goes on")
    if value.get("round_ends"):
        out = value.get("went_out")
        parts.append(f"{player(out)} goes out" if out is not None else "the round ends")
    penalties = value.get("penalties")
    if isinstance(penalties, list) and penalties:
        scored = ", ".join(f"{player(s)} {p}" for s, p in enumerate(penalties))
        parts.append(f"penalty points: {scored}")
    nxt = value.get("next_to_move")
    if nxt is not None and not value.get("round_ends") and not value.get("trick_ends"):
        parts.append(f"{player(nxt)} moves next")
    return "; ".join(parts)


def _outcome(value: Any, mover: Any) -> str:
    """What happens under one side: the recorded move and its result, in words."""
    if not isinstance(value, Mapping):
        return "yes" if value is True else "no" if value is False else str(value)
    if "move" in value and "legal" in value:
        who = _capital(player(mover)) if mover is not None else "The player"
        if not value["legal"]:
            return f"{who} may not {move_words(str(value['move']), infinitive=True)}."
        text = f"{who} {move_words(str(value['move']))}"
        ends = value.get("trick_end") or []
        if ends:
            reasons = _join([TRICK_ENDS.get(r, str(r).replace("_", " ")) for r in ends])
            winner = value.get("winner")
            won = f", won by {player(winner)}" if winner is not None and winner != mover else ""
            text += f", which ends the trick ({reasons}){won}"
            if winner is not None and not value.get("round_end"):
                text += f"; {player(winner)} leads the next trick"
        elif not value.get("round_end") and isinstance(value.get("pile"), Mapping):
            # Said, so that a scene shows what the trick does under each reading, not only the move.
            text += f"; the trick goes on with {pile_words(value['pile'])}"
        if value.get("round_end"):
            out = value.get("went_out")
            if out is not None and out == mover:
                text += " and goes out"
            elif out is not None:
                text += f"; {player(out)} goes out"
        return text + "."
    parts: list[str] = []
    if "hand_size" in value:
        parts.append(f"hands of {value['hand_size']} cards, {value.get('set_aside', 0)} set aside")
    if "leader" in value:
        parts.append(f"{player(value['leader'])} leads the first trick")
    if "next_round_leader" in value:
        parts.append(f"{player(value['next_round_leader'])} leads the next round")
    if "copies_of_each_card" in value:
        parts.append(f"{value['copies_of_each_card']} copies of each card")
    if "set_closes_at" in value:
        parts.append(f"a set closes at {value['set_closes_at']} cards")
    if "played" in value:
        who = player(mover) if mover is not None else "the player"
        parts.append(f"after {who} {move_words(str(value['played']))}: {_after(value, mover)}")
    for key, after in value.items():
        if str(key).startswith("after "):
            move = move_words(str(key).removeprefix("after "))
            who = player(mover) if mover is not None else "the player"
            parts.append(f"when {who} {move}, {_after(after, mover)}")
    if "next_to_move" in value and "played" not in value:
        parts.append(f"{player(value['next_to_move'])} moves next")
    if not parts and "legal_moves" in value:
        moves = value["legal_moves"]
        if isinstance(moves, list):
            parts.append("allowed: " + ("; ".join(move_words(m) for m in moves) or "nothing"))
    text = "; ".join(parts) if parts else "nothing changes"
    return _capital(text) + "."


def pct(value: float) -> str:
    """A share as people write it: whole percent, with one decimal below 10 % (where 0.5 % and 1.9 %
    are different statements) and just below 100 %."""
    percent = value * 100
    text = f"{percent:.0f}" if 10 <= percent <= 99 else f"{percent:.1f}".rstrip("0").rstrip(".")
    return f"{text} %"
