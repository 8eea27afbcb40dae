"""One play as the rules see it: whether a rule applies to it, what the rules decide there applied in
each order, and which clause (a decision computed from another, a rule acting at once) settles the
order where the outcomes differ."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ....engine import Game, Move, State
from ....engine.options import Option
from ....engine.state import DECISIONS, NEEDS, OPENS, Play, RoundEnd, TrickEndReason
from ....spec import Spec
from ....spec.model import Rule
from .candidates import Candidate, _level

#: The plays the moments of a step can be.
_PLACING = ("lead", "overwrite", "add")

#: Which trick-end reason a rule that ends tricks stands for. The engine names why a trick ended
#: (TrickEndReason); the spec names the rule; this is where the two meet. A rule not listed here
#: that decides trick_ends cannot be evaluated (a note says so).
#: The trick-end reasons the engine names, by the name a trick-end rule's `reason:` gives.
_REASONS: Mapping[str, TrickEndReason] = {r.value: r for r in TrickEndReason}


@dataclass
class Step:
    """One play of a small deal: the state before, the move, what it makes, the state after."""

    game: Game
    before: State
    move: Move
    option: Option | None
    after: State
    events: tuple[Any, ...]

    @property
    def mover(self) -> int:
        seat: int = self.before.to_move
        return seat

    @cached_property
    def went_out(self) -> bool:
        return any(isinstance(e, RoundEnd) for e in self.events)

    @cached_property
    def reasons(self) -> frozenset[TrickEndReason]:
        """Why this play ends the trick, asked of the engine's hooks (closes, rule_of_8, and one
        player left for a pass), not read off its events."""
        game, before = self.game, self.before
        if self.move.action == "pass":
            passed = before.passed | (1 << self.mover)
            left = game.players - passed.bit_count()
            return frozenset({TrickEndReason.ALL_PASSED}) if left == 1 else frozenset()
        assert self.option is not None
        out = set()
        closes = game.closes(self.option.pile, self.move.action)
        if closes is not None:
            out.add(closes)
        if game.rule_of_8(self.option, before):
            out.add(TrickEndReason.RULE_OF_8)
        return frozenset(out)

    @cached_property
    def penalties(self) -> tuple[int, ...]:
        return tuple(self.game.penalty(h) for h in self.after.hands)

    @cached_property
    def moments(self) -> tuple[str, ...]:
        out: list[str] = [self.move.action]
        if self.reasons:
            out.append("trick_end")
        if self.went_out:
            out.append("round_end")
        return tuple(out)


def applies(rule: Rule, step: Step, moment: str) -> bool | None:
    """Whether `rule` applies at `moment` of `step`; None when this evaluation cannot say (a rule
    that ends tricks for a reason the engine does not name)."""
    if moment not in rule.when or moment not in step.moments:
        return False
    if rule.kind is not None:
        return step.option is not None and step.option.pile.kind == rule.kind
    if "trick_ends" in rule.decides:
        reason = _REASONS.get(rule.reason or "")
        return None if reason is None else reason in step.reasons
    if "round_ends" in rule.decides:
        return step.went_out
    return True


Decided = dict[str, Any]


def _next_active(game: Game, seat: int, passed: int) -> int:
    seat = game.next_seat(seat)
    for _ in range(game.players):
        if not passed >> seat & 1:
            return seat
        seat = game.next_seat(seat)
    return -1


def _value(decision: str, rule: Rule, step: Step, moment: str, decided: Decided) -> Any:
    """What `rule` decides about `decision` at this play, given what the rules before it decided."""
    game, before = step.game, step.before
    if decision == "legal_moves":
        return True  # every play looked at is legal; the rules' verdicts on it agree by construction
    if decision == "pile":
        if moment == "trick_end":
            return None  # the winner clears the trick
        return step.option.pile.cards if step.option is not None else before.pile
    if decision == "trick_ends":
        return True
    if decision == "trick_winner":
        return game.trick_winner((*before.trick, Play(step.mover, step.move)), (_REASONS[rule.reason or ""],))
    if decision == "next_to_move":
        if "round_ends" in rule.decides:
            return _round_leader(step)
        if moment == "trick_end":
            return decided.get("trick_winner")
        return _next_active(game, step.mover, before.passed | (1 << step.mover))
    if decision == "round_ends":
        return True
    if decision == "round_leader":
        return _round_leader(step)
    if decision == "penalties":
        return step.penalties
    if decision == "scores":
        penalties = decided.get("penalties") or step.penalties
        return tuple(s + p for s, p in zip(before.scores, penalties, strict=True))
    if decision == "match_ends":
        return max(decided.get("scores", before.scores)) >= game.ruleset.match_end_score
    if decision == "match_winner":
        scores = decided.get("scores", before.scores)
        return tuple(i for i, s in enumerate(scores) if s == min(scores))
    raise ValueError(f"no evaluation of decision {decision!r}")  # DECISIONS and this function agree


def _round_leader(step: Step) -> int:
    finished = step.after if step.after.phase != "play" else step.before
    leader: int = step.game.round_leader(finished)
    return leader


def _apply(rule: Rule, step: Step, moment: str, decided: Decided) -> None:
    for decision in rule.decides:
        decided[decision] = _value(decision, rule, step, moment, decided)


def outcome(
    spec_rules: Mapping[str, Rule],
    cand: Candidate,
    order: Sequence[str],
    step: Step,
    moment: str,
    at_once: Collection[str],
) -> Decided:
    """What the candidate's rules decide at `step` (at `moment`) when applied in `order`.

    The rules at a moment an ending opens (the candidate's `via`) apply once the rules of `moment`
    are done, since that moment follows; after a rule that acts at once, right away. A rule that
    acts at once and ends a trick or a round leaves no place for the later rules that would end
    the same (or a smaller) unit."""
    decided: Decided = {}
    ended = 0  # the level an immediate rule has ended (a trick, a round)
    later: list[tuple[Rule, str]] = []
    for rid in order:
        rule = spec_rules[rid]
        level = _level(rule)
        if ended and level and level <= ended:
            continue  # its trick or round has already ended at once
        _apply(rule, step, moment, decided)
        now = rid in at_once and level > 0
        if now:
            ended = max(ended, level)
        for decision in rule.decides if cand.via else ():
            opened = OPENS.get(decision)
            for vid in cand.via:
                if opened is not None and opened in spec_rules[vid].when:
                    if now:
                        _apply(spec_rules[vid], step, opened, decided)
                    else:
                        later.append((spec_rules[vid], opened))
    for rule, opened in later:
        _apply(rule, step, opened, decided)
    return {d: decided.get(d) for d in cand.overlap}


def _marker(text: str | None, words: Sequence[str]) -> str:
    """The first of `words` (a rule acting at once) that `text` holds, as the text writes it, or ""."""
    lowered = (text or "").lower()
    for word in words:
        at = lowered.find(word.lower())
        if at >= 0:
            return (text or "")[at : at + len(word)]
    return ""


def _at_once_rules(spec: Spec, markers: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """rule id -> its clauses that say it acts at once (a marker of the words file in the text)."""
    out: dict[str, tuple[str, ...]] = {}
    for rule in spec.rules:
        hits = []
        for cid in rule.cites:
            clause = spec.clauses.get(cid)
            if clause is None:
                continue
            if any(_marker(clause.text(code), words) for code, words in markers.items()):
                hits.append(cid)
        if hits:
            out[rule.id] = tuple(hits)
    return out


def _consistent(order: Sequence[str], rules: Mapping[str, Rule]) -> bool:
    """Whether `order` puts every rule after the rules whose decisions its own are computed from."""
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            # b comes after a: wrong when a decides something computed from one of b's decisions
            if any(y in NEEDS.get(x, ()) for x in rules[a].decides for y in rules[b].decides):
                return False
    return True


def _settle(
    rules: Mapping[str, Rule],
    cand: Candidate,
    outcomes: dict[tuple[str, ...], Decided],
    at_once: Mapping[str, tuple[str, ...]],
) -> tuple[str, tuple[str, ...]] | None:
    """The clause that fixes the order when the outcomes differ, or None."""
    orders = list(outcomes)
    by_needs = [o for o in orders if _consistent(o, rules)]
    if by_needs and len(by_needs) < len(orders) and _all_equal(outcomes[o] for o in by_needs):
        # The rule whose decision is computed from the other's cites the clause that says so.
        needing = [
            r
            for r in cand.rules
            for other in cand.rules
            if other != r
            and any(y in NEEDS.get(x, ()) for x in rules[r].decides for y in rules[other].decides)
        ]
        return "needs", tuple(c for r in needing for c in rules[r].cites)
    immediate = [r for r in cand.rules if r in at_once]
    if len(immediate) == 1:
        first = [o for o in orders if o[0] == immediate[0]]
        if _all_equal(outcomes[o] for o in first):
            return "at_once", at_once[immediate[0]]
    return None


def _all_equal(values: Iterator[Decided] | Any) -> bool:
    seen = list(values)
    return all(v == seen[0] for v in seen)


def _evaluable(rule: Rule) -> bool:
    """Whether the rules-level evaluation can play `rule`: every decision is one it computes, and a
    rule that ends tricks (or names their winner) stands for a reason the engine names."""
    if any(d not in DECISIONS for d in rule.decides):
        return False
    ends = "trick_ends" in rule.decides or "trick_winner" in rule.decides
    return rule.kind is not None or not ends or (rule.reason or "") in _REASONS
