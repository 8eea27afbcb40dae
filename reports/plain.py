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

from ..checks.findings import (
    DeadPart,
    Finding,
    FindingKind,
    OutcomeMoves,
    ReadingRef,
    Side,
    Witness,
    asked_key,
)
from ..engine import Move
from ..spec import Ruleset, Spec
from ..spec.words import questions_of, words_of
from ..spec.words_model import PlainWords


def player(seat: Any) -> str:
    """A seat as people number it."""
    return f"player {int(seat) + 1}"


def cards_text(cards: Iterable[Any]) -> str:
    return ",".join(str(int(c)) for c in cards)


def quoted(text: str) -> str:
    return f"\u2018{text}\u2019"


def play_words(say: PlainWords, action: str, cards: Iterable[Any], infinitive: bool = False) -> str:
    """A move's action and cards as words: add 4,5 as "adds 4,5" (or "add 4,5"); an action that is
    no move's, as it is."""
    table = say.infinitives if infinitive else say.verbs
    return f"{table.get(action, action)} {cards_text(cards)}".strip()


def move_words(say: PlainWords, move: Move | None, shown: Any, infinitive: bool = False) -> str:
    """A witness's move as words: "adds 4,5" (or "add 4,5"), from the move the witness carries
    typed; what its data records where it carries none (no move: a side that does not play it), as
    it is."""
    if move is None:
        return str(shown)
    return play_words(say, move.action, move.cards, infinitive=infinitive)


def pile_words(say: PlainWords, pile: Any) -> str:
    if not isinstance(pile, Mapping) or not pile.get("cards"):
        return say.scenes("empty_pile")
    return say.scenes("pile", kind=str(pile.get("kind", "pile")), cards=cards_text(pile["cards"]))


class Plain:
    """The spec's and the words file's names for one report: clauses, readings, rulesets."""

    def __init__(self, spec: Spec, ruleset: Ruleset) -> None:
        self.spec = spec
        self.ruleset = ruleset
        self.words = words_of(spec)
        #: The report's own prose, handed down to what writes it.
        self.say = self.words.plain
        self.labels: dict[tuple[str, str], str] = {}
        for q in questions_of(spec):
            for point in q.points:
                vp = spec.variation_points[point]
                for reading, explain in vp.listed.items():
                    shared = q.readings.get(reading, explain.rstrip("."))
                    self.labels[(point, reading)] = q.readings.get(f"{point}={reading}", shared)

    # ---- names ---------------------------------------------------------------------------------

    def clause(self, cid: str) -> str:
        return self.words.clause_name(cid)

    def clauses(self, ids: Sequence[str]) -> str:
        return self.join([self.clause(c) for c in ids]) or self.say.findings("no_clause")

    def reading(self, point: str, reading: str) -> str:
        return self.labels.get((point, reading), reading.replace("_", " "))

    def readings(self, keys: Iterable[ReadingRef]) -> str:
        """Readings by their short names, quoted and joined."""
        return self.join([quoted(self.reading(key.point, key.reading)) for key in keys])

    def at_stake(self, readings: Iterable[ReadingRef]) -> list[ReadingRef]:
        """The readings of the points a finding turns on: a point all of whose readings it lists
        does not matter to it."""
        keys = list(readings)
        named: dict[str, set[str]] = {}
        for key in keys:
            named.setdefault(key.point, set()).add(key.reading)
        vps = self.spec.variation_points
        return [k for k in keys if k.point not in vps or not set(vps[k.point].readings) <= named[k.point]]

    def side(self, key: str, point: str | None, named: Mapping[str, Sequence[ReadingRef]]) -> str:
        """An outcome's key as words: a reading of `point`, the played ruleset's label, a side named
        by the readings it was played under (`named`: a side's label -> its readings), or an
        alternative's own label (already words)."""
        vps = self.spec.variation_points
        if point is not None and point in vps and key in vps[point].listed:
            return self.reading(point, key)
        if key == self.ruleset.label():
            return self.say.findings("as_played")
        refs = named.get(key)
        if refs and all(ref.point in vps for ref in refs):
            # An outcome keyed by the readings it was played under, as the impact names a side.
            return self.say.and_.join(self.reading(ref.point, ref.reading) for ref in refs)
        return key

    def ruleset_words(self) -> str:
        profile = self.spec.profiles.get(self.ruleset.profile)
        title = profile.title if profile else self.ruleset.profile
        if not self.ruleset.overridden:
            return title
        changed = self.join(
            [quoted(self.reading(p, self.ruleset.reading(p))) for p in self.ruleset.overridden]
        )
        return self.say.findings("changed", title=title, changed=changed)

    # ---- findings --------------------------------------------------------------------------------

    def join(self, items: Sequence[str]) -> str:
        """Items as a list in words: "a, b and c"."""
        return _join(items, self.say.and_)

    def _players(self, finding: Finding) -> str:
        return self.say.findings("players", players=finding.players) if finding.players is not None else ""

    def _languages(self, finding: Finding) -> list[str]:
        """The texts a contradiction quotes, by name (the languages its unsat core holds)."""
        found = []
        for lang in finding.texts:
            named = self.say.languages.get(lang)
            if named is not None and named not in found:
                found.append(named)
        return found

    def finding(self, finding: Finding) -> str:
        """One sentence that says what a finding found, without ids."""
        kind = finding.kind
        under = self.readings(self.at_stake(finding.readings))
        players = self._players(finding)
        clauses = self.clauses(finding.clauses)
        say = self.say.findings
        if kind is FindingKind.AMBIGUITY:
            return say("ambiguity", clauses=clauses)
        if kind is FindingKind.CONTRADICTION:
            langs = self._languages(finding)
            text = (
                say("texts_of", languages=say("languages_and").join(langs), clauses=clauses)
                if langs
                else say("what_say", clauses=clauses)
            )
            # A text example's contradiction holds the clauses to their words as they stand.
            literally = "" if langs else say("literally")
            if under:
                return say(
                    "contradiction_under", under=under, players=players, text=text, literally=literally
                )
            return say("contradiction", text=text, players=players, literally=literally)
        if kind is FindingKind.DEAD_CLAUSE:
            where = say("dead_under", under=under) if under else say("dead_whatever")
            part = self._dead_part(finding.check, finding.dead_part) if finding.dead_part else None
            part = part or say("dead_part", clauses=clauses)
            return say("dead_clause", part=_capital(part), players=players, where=where)
        if kind is FindingKind.MISMATCH:
            return self._mismatch(finding)
        if kind is FindingKind.DEFECT:
            clause = self.spec.clauses.get(finding.clauses[0]) if len(finding.clauses) == 1 else None
            if clause is not None and clause.defect:
                return say("defect_clause", clause=_capital(self.clause(clause.id)), defect=clause.defect)
            return say("defect_source", detail=finding.detail)
        # A gap: its title is plain ("Undefined: ...").
        return finding.title.replace("_", " ")

    def _dead_part(self, check: str, part: DeadPart) -> str:
        """A dead clause's part in its check's words, the readings it exists under only by their
        short names (the check's own words for a reading no question names)."""
        say = self.words.check(check)
        only = " ".join(
            self.say.findings("dead_reading", label=quoted(self.labels[(r.point, r.reading)]))
            if (r.point, r.reading) in self.labels
            else say("only_reading", reading=r.reading)
            for r in part.only_under
        )
        return part.words(say, only)

    def _mismatch(self, finding: Finding) -> str:
        clause = self.spec.clauses.get(finding.clauses[0]) if finding.clauses else None
        if clause is not None and (clause.de is None) != (clause.es is None):
            german, spanish = self.say.languages["de"], self.say.languages["es"]
            present, missing = (german, spanish) if clause.de is not None else (spanish, german)
            return self.say.findings(
                "only_one_text", present=present, clause=self.clause(clause.id), missing=missing
            )
        for row in self.words.mismatches:
            if row.clause in finding.clauses and row.variation_point == finding.variation_point:
                return f"{row.title}."
        return self.say.findings("texts_differ", clause=self.clause(finding.clauses[0]))

    # ---- witnesses -------------------------------------------------------------------------------

    def scene(self, witness: Witness, point: str | None = None, sides: Iterable[Side] = ()) -> dict[str, Any]:
        """A witness as a short scene: the table (`setup`), then what happens under each side
        (`outcomes`: label and words; `same` when every side gives the same). `sides` are the
        finding's alternative's, whose labels may key the outcomes."""
        by_label = {side.label: side.readings for side in sides if side.readings}
        say = self.say
        sit = witness.situation
        setup = _setup(say, sit)
        needs = sit.get("needs_readings")
        named = ""
        if isinstance(needs, Mapping) and needs:
            named = self.join([quoted(self.reading(str(p), str(r))) for p, r in needs.items()])
            setup += say.scenes("needs", readings=named)
        resting = sit.get("rests_on")
        if isinstance(resting, Mapping) and resting:
            # The example hangs on the answer played to another question: said, never left unsaid.
            needed = self.join([quoted(self.reading(str(p), str(r))) for p, r in resting.items()])
            played = say.scenes("played_many" if len(resting) > 1 else "played_one")
            setup += say.scenes("rests_on", readings=needed, played=played)
        only = sit.get("only_under")
        if isinstance(only, list) and only and point is not None:
            # The other readings' decks hold too few copies of a card on this table.
            dealt = self.join([quoted(self.reading(point, str(r))) for r in only])
            setup += say.scenes("only_dealt", readings=dealt)
        mover = sit.get("to_move")
        told = [
            {
                "label": self.side(str(key), point, by_label),
                "words": _outcome(say, value, mover, witness.asked, witness.moves.get(str(key))),
            }
            for key, value in witness.outcomes.items()
        ]
        same = len({o["words"] for o in told}) == 1 and len(told) > 1
        return {"setup": setup, "outcomes": told, "same": same, "needs": named}


def _join(items: Sequence[str], last: str) -> str:
    """Items as a list: each but the last after a comma, the last after `last` (the words file's
    "and")."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _setup(say: PlainWords, sit: Mapping[str, Any]) -> str:
    scenes = say.scenes
    parts: list[str] = []
    players = sit.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        parts.append(scenes("players", players=players))
    if "deck" in sit:
        parts.append(scenes("deck", deck=sit["deck"]))
    if "seed" in sit:
        # The seed that replays it is the technical appendix's; a designer meets a match.
        # A deal's witness before any card is played: the first trick of the match.
        opening = sit.get("leading") is True and sit.get("pile") is None and "trick" not in sit
        parts.append(scenes("match_begins" if opening else "in_match"))
    head = ", ".join(parts)
    sentences = [_capital(head) + "." if head else ""]
    if "round_leader" in sit and "went_out" in sit:
        leader, out = sit["round_leader"], sit["went_out"]
        if leader == out:
            sentences.append(scenes("led_and_out", leader=_capital(player(leader))))
        else:
            sentences.append(scenes("led_other_out", leader=_capital(player(leader)), out=player(out)))
    trick = sit.get("trick") or []
    if trick and "round_leader" not in sit:
        plays = "; ".join(
            player(t.get("player", 0)) + " " + play_words(say, str(t.get("action", "")), t.get("cards", []))
            for t in trick
        )
        sentences.append(_capital(plays) + ".")
    if sit.get("opening_has_eight"):
        sentences.append(scenes("opening_eight"))
    passed = sit.get("passed") or []
    if passed:
        who = _capital(_join([player(p) for p in passed], say.and_))
        sentences.append(scenes("passed_one" if len(passed) == 1 else "passed_many", players=who))
    mover = sit.get("to_move")
    if mover is not None:
        hand = sit.get("hand")
        if hand is None and isinstance(sit.get("hands"), list) and int(mover) < len(sit["hands"]):
            hand = sit["hands"][int(mover)]
        holding = scenes("holding", cards=cards_text(hand)) if hand else ""
        if sit.get("pile"):
            pile = pile_words(say, sit["pile"])
            sentences.append(scenes("to_move", player=_capital(player(mover)), pile=pile, holding=holding))
        else:
            sentences.append(scenes("to_lead", player=_capital(player(mover)), holding=holding))
        hands = sit.get("hands")
        if isinstance(hands, list):
            # The other hands too, where the scene has them: what they hold is what they score.
            held = [
                scenes("holds", player=player(seat), cards=cards_text(h))
                for seat, h in enumerate(hands)
                if seat != int(mover) and isinstance(h, list) and h
            ]
            if held:
                sentences.append(_capital(_join(held, say.and_)) + ".")
    return " ".join(s for s in sentences if s)


def _reasons(say: PlainWords, reasons: Iterable[Any]) -> str:
    """Why a trick ends, in words, joined."""
    return _join([say.trick_ends.get(r, str(r).replace("_", " ")) for r in reasons], say.and_)


def _after(say: PlainWords, value: Any, mover: Any) -> str:
    """What one move leads to, as a scene records it."""
    scenes = say.scenes
    if not isinstance(value, Mapping):
        # A move a side allows leads to a mapping (witnesses.result_of); anything else is the
        # scene's record that the side does not allow it.
        return scenes("not_allowed")
    parts: list[str] = []
    if value.get("trick_ends"):
        reasons = _reasons(say, value.get("trick_end_reasons", []))
        why = scenes("why", reasons=reasons) if reasons else ""
        winner = value.get("trick_winner")
        won = scenes("won_by", player=player(winner)) if winner is not None else ""
        parts.append(scenes("trick_ends", why=why, won=won))
    elif not value.get("round_ends"):
        # A move that ends the round ends its trick with it: the trick does not go on.
        pile = value.get("pile")
        parts.append(scenes("goes_on_with", pile=pile_words(say, pile)) if pile else scenes("goes_on"))
    if value.get("round_ends"):
        out = value.get("went_out")
        parts.append(scenes("goes_out", player=player(out)) if out is not None else scenes("round_ends"))
    penalties = value.get("penalties")
    if isinstance(penalties, list) and penalties:
        scored = ", ".join(scenes("penalty", player=player(s), points=p) for s, p in enumerate(penalties))
        parts.append(scenes("penalties", scored=scored))
    nxt = value.get("next_to_move")
    if nxt is not None and not value.get("round_ends") and not value.get("trick_ends"):
        parts.append(scenes("moves_next", player=player(nxt)))
    return "; ".join(parts)


def _outcome(
    say: PlainWords, value: Any, mover: Any, asked: Sequence[Move] = (), moves: OutcomeMoves | None = None
) -> str:
    """What happens under one side: the recorded move and its result, in words (`moves`: the
    moves the outcome names, typed)."""
    scenes = say.scenes
    moves = moves or OutcomeMoves()
    if not isinstance(value, Mapping):
        return scenes("yes") if value is True else scenes("no") if value is False else str(value)
    if "move" in value and "legal" in value:
        who = _capital(player(mover) if mover is not None else scenes("the_player"))
        if not value["legal"]:
            return scenes(
                "may_not", who=who, move=move_words(say, moves.move, value["move"], infinitive=True)
            )
        text = scenes("moves", who=who, move=move_words(say, moves.move, value["move"]))
        ends = value.get("trick_end") or []
        if ends:
            winner = value.get("winner")
            won = scenes("won_by", player=player(winner)) if winner is not None and winner != mover else ""
            text += scenes("ends_trick", reasons=_reasons(say, ends), won=won)
            if winner is not None and not value.get("round_end"):
                text += scenes("leads_next_trick", player=player(winner))
        elif not value.get("round_end") and isinstance(value.get("pile"), Mapping):
            # Said, so that a scene shows what the trick does under each reading, not only the move.
            text += scenes("goes_on_after", pile=pile_words(say, value["pile"]))
        if value.get("round_end"):
            out = value.get("went_out")
            if out is not None and out == mover:
                text += scenes("and_goes_out")
            elif out is not None:
                text += scenes("other_goes_out", player=player(out))
        return text + "."
    parts: list[str] = []
    who = player(mover) if mover is not None else scenes("the_player")
    if "hand_size" in value:
        parts.append(scenes("hands", hand=value["hand_size"], aside=value.get("set_aside", 0)))
    if "leader" in value:
        parts.append(scenes("leads_first", player=player(value["leader"])))
    if "next_round_leader" in value:
        parts.append(scenes("leads_next_round", player=player(value["next_round_leader"])))
    if "copies_of_each_card" in value:
        parts.append(scenes("copies", copies=value["copies_of_each_card"]))
    if "set_closes_at" in value:
        parts.append(scenes("set_closes", size=value["set_closes_at"]))
    if "played" in value:
        move = move_words(say, moves.played, value["played"])
        parts.append(scenes("after_played", who=who, move=move, after=_after(say, value, mover)))
    for asked_move in dict.fromkeys(asked):
        key = asked_key(asked_move)
        if key in value:
            move = play_words(say, asked_move.action, asked_move.cards)
            parts.append(scenes("when_moves", who=who, move=move, after=_after(say, value[key], mover)))
    if "next_to_move" in value and "played" not in value:
        parts.append(scenes("moves_next", player=player(value["next_to_move"])))
    if not parts and "legal_moves" in value:
        listed = value["legal_moves"]
        if isinstance(listed, list):
            typed = moves.legal or [None] * len(listed)
            allowed = "; ".join(move_words(say, m, s) for m, s in zip(typed, listed, strict=True))
            allowed = allowed or scenes("nothing")
            parts.append(scenes("allowed", moves=allowed))
    text = "; ".join(parts) if parts else scenes("nothing_changes")
    return _capital(text) + "."


def pct(value: float) -> str:
    """A share as people write it: whole percent, with one decimal below 10 % (where 0.5 % and 1.9 %
    are different statements) and just below 100 %."""
    percent = value * 100
    text = f"{percent:.0f}" if 10 <= percent <= 99 else f"{percent:.1f}".rstrip("0").rstrip(".")
    return f"{text} %"
