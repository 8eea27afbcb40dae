"""Rule interactions: the pairs and triples of the spec's rules that meet on one play, and whether
the texts fix what happens then (issue 13, item 3).

The candidates come from the rules' own data, never from a list written here: every rule says at
which moments it applies (`when`) and what it decides (`decides`), in the engine's vocabulary
(five35.engine.state: MOMENTS, DECISIONS, what a decision opens, OPENS, and what it is computed
from, NEEDS). Two rules that apply at one moment are a candidate when

- they decide the same thing (both say whether the trick ends, and who wins it), or
- one decides what the other's decision is computed from (the scores a match end reads), or
- what they decide meets once the moments they open are followed: a rule that ends the trick
  opens the trick's end, where the winner leads the next trick (a third rule), while going out
  ends the round at once and decides who plays next too. Such a candidate is a triple.

Each candidate is then played: every reachable play of small deals (the endgames of
checks/play/graphs.py and a few more, explored exhaustively with the engine under check) is looked
at, and a candidate occurs at a play where all its rules apply. Beside them, plays are built where
rules meet that no small deal may reach (`construct`): every lead, and every play onto every
central pile one or two plays leave (with or without an 8 in the trick's opening pile), the mover
going out with it or not, each reached by legal play from a deal made for it. Rules that meet in
none of them cannot meet in one play (`dead`, proved over that scope); the built plays are then
tried under each other reading of the spec's points, and the first that lets them meet is named.

Where a candidate occurs, its outcome is computed under every order of its rules, by a small
rules-level evaluation (`_value`: one function per decision, asking the engine's public hooks).
A rule applied later replaces what an earlier one decided; a rule whose clause says it acts at
once (the words file's `interactions.at_once`: "sofort", "inmediatamente") ends its trick or round
before the rules after it at that moment, so those do not apply. Then:

- all orders give the same outcome at every such play: the order does not matter, a
  `ProvedProperty` (exhaustive over the deals explored);
- they differ, and a clause settles the order (a decision computed from another comes after it,
  NEEDS, cited by the rule whose decision it is; or exactly one of the rules acts at once, cited
  by its clause): fixed by that clause, a note;
- they differ and nothing settles it: a silence of the texts, a `Finding` with both outcomes;
- the rules apply to no play explored or built: they cannot meet (over that scope), a proved
  property that names the other reading under which they can, if one does.

Every order is evaluated at every play, so the verdicts are exact over the scope; the scope is
named in every statement.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any, cast

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...engine import Game, Move, Pile, Position, State
from ...engine.game import Option
from ...engine.state import (
    DECISIONS,
    MOMENTS,
    NEEDS,
    NEXT_MOMENTS,
    OPENS,
    Play,
    RoundEnd,
    TrickEndReason,
)
from ...spec import Ruleset, Spec, SpecError
from ...spec.model import Rule
from ...spec.words import words_of
from ...spec.words_model import InteractionWords
from ..findings import (
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
from ..oracles import z3model as zm
from ..oracles.z3model import memo, spec_digest
from ..play.graphs import HAND_PICKED, Deal, seeded_deals
from .liveness.outcome import players_text

CHECK = "discovery.interactions"

#: How an ending ranks: an immediate rule that ends a round also ends the trick within it.
_ENDS_LEVEL = {"trick_ends": 1, "round_ends": 2, "match_ends": 3}

#: The plays the moments of a step can be.
_PLACING = ("lead", "overwrite", "add")

#: Which trick-end reason a rule that ends tricks stands for. The engine names why a trick ended
#: (TrickEndReason); the spec names the rule; this is where the two meet. A rule not listed here
#: that decides trick_ends cannot be evaluated (a note says so).
#: The trick-end reasons the engine names, by the name a trick-end rule's `reason:` gives.
_REASONS: Mapping[str, TrickEndReason] = {r.value: r for r in TrickEndReason}

#: Extra deals beside graphs.py's endgames: each puts two rules on one play in a few cards.
EXTRA_DEALS: tuple[Deal, ...] = (
    Deal("going out on a closing set", ((3, 3, 12), (3, 3))),
    Deal("going out on a closing run", ((1, 2, 9), (3, 4, 5))),
    Deal("going out with an 8", ((2, 5), (8,))),
    Deal("an 8 added to a set of 8s", ((8, 8, 2), (8, 8, 12))),
    Deal("an 8 closing a run past the gap", ((4, 5, 7, 13), (8, 9, 1))),
    Deal("three players, a pass after a placer", ((2, 13), (5, 9), (11, 14))),
    Deal("a set overwritten", ((2, 2, 9), (5, 5, 12))),
)


# ---- enumeration ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """Rules that can apply at one moment and decide overlapping things.

    `rules` are the rules that apply at one of `moments` (in the spec's order), `via` the rules at the
    moments their decisions open that make the overlap (the third of a triple), `overlap` the
    decisions where they meet, `how` why they are a candidate: "same" (they decide the same thing),
    "needs" (one decides what the other's decision is computed from), "opens" (through `via`), or
    "follows" (the second ends a smaller unit at a moment that can come straight after the first's,
    which ends a larger one: it occurs when the second applies to the next play)."""

    rules: tuple[str, ...]
    moments: tuple[str, ...]
    overlap: tuple[str, ...]
    how: str
    via: tuple[str, ...] = ()

    @property
    def all_rules(self) -> tuple[str, ...]:
        return (*self.rules, *self.via)

    @cached_property
    def rule_set(self) -> frozenset[str]:
        """`rules` as a set: whether they all apply at a step is asked at every play explored."""
        return frozenset(self.rules)

    @property
    def topic(self) -> str:
        return "interaction:" + "+".join(self.all_rules)


def _opened(rules: Sequence[Rule], rule: Rule) -> list[tuple[Rule, str]]:
    """The rules at the moments `rule`'s decisions open, each with the moment (one level deep: a
    trick's end, a round's end)."""
    out: list[tuple[Rule, str]] = []
    for decision in rule.decides:
        moment = OPENS.get(decision)
        if moment is None:
            continue
        out.extend((other, moment) for other in rules if other is not rule and moment in other.when)
    return out


def _needs(a: Rule, b: Rule) -> list[str]:
    """The decisions of `a` and `b` where one is computed from the other."""
    out = []
    for x in a.decides:
        for y in b.decides:
            if x in NEEDS.get(y, ()) or y in NEEDS.get(x, ()):
                out += [x, y]
    return out


def candidates(spec: Spec) -> tuple[Candidate, ...]:
    """Every pair (or triple, through a rule at an opened moment) of the spec's rules that can apply
    at one moment and decide overlapping things, from their `when` and `decides` alone."""
    rules = [r for r in spec.rules if r.when and r.decides]
    found: dict[tuple[str, ...], Candidate] = {}
    for moment in MOMENTS:
        here = [r for r in rules if moment in r.when]
        for a, b in itertools.combinations(here, 2):
            same = [d for d in a.decides if d in b.decides]
            needs = _needs(a, b)
            if same:
                cand = Candidate((a.id, b.id), (moment,), tuple(same), "same")
            elif needs:
                cand = Candidate((a.id, b.id), (moment,), tuple(dict.fromkeys(needs)), "needs")
            else:
                opened = _through_opened(rules, a, b, moment)
                if opened is None:
                    continue
                cand = opened
            # One candidate per rule set, with every moment its rules meet at.
            known = found.get(cand.all_rules)
            if known is not None:
                cand = replace(known, moments=(*known.moments, moment))
            found[cand.all_rules] = cand
    for cand in _follows(rules):
        found.setdefault(cand.all_rules, cand)
    return tuple(found.values())


def _level(rule: Rule) -> int:
    return _ends_level(rule.decides)


@cache
def _ends_level(decides: tuple[str, ...]) -> int:
    """The largest unit (trick 1, round 2, match 3) a rule deciding `decides` ends; 0: none. Asked
    for every rule, order and play the search judges."""
    return max((_ENDS_LEVEL.get(d, 0) for d in decides), default=0)


def _follows(rules: Sequence[Rule]) -> Iterator[Candidate]:
    """A rule that ends a larger unit (a round) and one that ends a smaller (a trick) at a moment
    that can come straight after the first's (NEXT_MOMENTS): does the larger end wait for the
    smaller, e.g. a pass that ends the trick after its last placer went out?"""
    for a in rules:
        for b in rules:
            if a is b or not _level(a) > _level(b) > 0:
                continue
            after = [m for m in a.when for n in NEXT_MOMENTS.get(m, ()) if n in b.when]
            if after:
                ends = tuple(d for r in (a, b) for d in r.decides if d in _ENDS_LEVEL)
                yield Candidate((a.id, b.id), tuple(dict.fromkeys(after)), ends, "follows")


def _through_opened(rules: Sequence[Rule], a: Rule, b: Rule, moment: str) -> Candidate | None:
    for first, second in ((a, b), (b, a)):
        for other, _ in _opened(rules, first):
            if other is second:
                continue
            meet = [d for d in other.decides if d in second.decides]
            if meet:
                return Candidate((a.id, b.id), (moment,), tuple(meet), "opens", (other.id,))
    return None


# ---- one play, as the rules see it ---------------------------------------------------------------


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


# ---- the search ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What the search found for one candidate."""

    candidate: Candidate
    evaluable: bool = True
    occurs: int = 0  # plays where all its rules apply
    differ: int = 0  # of those, plays where the orders give different outcomes
    unsettled: int = 0  # of those, plays where no clause settles the order
    witness: tuple[Position, Move, Step] | None = None  # the first play where all apply
    differing: tuple[Position, Move, dict[str, Decided]] | None = None  # the first where orders differ
    settled_by: tuple[str, tuple[str, ...]] | None = None  # how ("needs" | "at_once"), the clauses
    orders: tuple[tuple[str, ...], ...] = ()
    #: for rules that never meet: the first other reading under which the built plays meet them,
    #: with what the plays built under it found (where they meet, what their order does)
    meets_under: Elsewhere | None = None
    #: for rules whose order changed nothing: the first other reading under which the order
    #: changes an outcome on the built plays, with what they found there
    differs_under: Elsewhere | None = None

    @property
    def status(self) -> str:
        """dead, same, fixed, silence or unevaluated."""
        if not self.evaluable:
            return "unevaluated"
        if not self.occurs:
            return "dead"
        if not self.differ:
            return "same"
        return "silence" if self.unsettled else "fixed"


@dataclass(frozen=True)
class Elsewhere:
    """Another reading (one point changed) and the verdict the plays built under it gave."""

    point: str
    reading: str
    trial: Verdict


@dataclass
class Search:
    spec: Spec
    ruleset: Ruleset
    verdicts: list[Verdict]
    deals: int = 0
    states: int = 0
    plays: int = 0
    deal_names: list[str] = field(default_factory=list)
    player_counts: set[int] = field(default_factory=set)
    most_cards: int = 0  # the cards of the largest deal explored
    #: moment -> the evaluable verdicts whose candidates meet at it
    by_moment: dict[str, list[Verdict]] = field(default_factory=dict)
    #: the same for the "follows" candidates, judged on the play after
    by_moment_follows: dict[str, list[Verdict]] = field(default_factory=dict)
    #: plays built onto every central pile one or two plays leave (`construct`), and their counts
    built: int = 0
    built_players: set[int] = field(default_factory=set)
    _rules_at: dict[str, frozenset[str]] = field(default_factory=dict)

    def rules_at(self, moment: str) -> frozenset[str]:
        """The rules of the candidates judged at `moment`: the only ones a step is asked about."""
        found = self._rules_at.get(moment)
        if found is None:
            found = frozenset(r for v in self.by_moment.get(moment, ()) for r in v.candidate.rules)
            self._rules_at[moment] = found
        return found


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


def deals_for(level: str, seed: int, ruleset: Ruleset) -> list[Deal]:
    """The deals of a level: at ci those of 2 and 3 players (the five-player endgame alone takes
    longer than all of them together), at deep every endgame and 40 seeded ones besides."""
    deals = [*EXTRA_DEALS, *HAND_PICKED]
    if level != "deep":
        return [d for d in deals if len(d.hands) <= 3]
    return [*deals, *seeded_deals(seed, 40, ruleset.ranks)]


def search(
    spec: Spec,
    ruleset: Ruleset,
    *,
    engine: Callable[[Ruleset, int], Game] = Game,
    level: str = "ci",
    seed: int = 0,
    at_once_words: Mapping[str, Sequence[str]] | None = None,
    limit: int = 20_000,
) -> Search:
    """Explore the deals of `level` exhaustively and judge every candidate at every play."""
    if at_once_words is None:
        section = words_of(spec).interactions
        at_once_words = section.at_once if section is not None else {}
    rules = {r.id: r for r in spec.rules}
    at_once = _at_once_rules(spec, at_once_words)
    verdicts = [Verdict(c) for c in candidates(spec)]
    for v in verdicts:
        c = v.candidate
        v.orders = tuple(itertools.permutations(c.rules))
        v.evaluable = all(_evaluable(rules[r]) for r in c.all_rules)
    out = Search(spec, ruleset, verdicts)
    for v in verdicts:
        for moment in v.candidate.moments if v.evaluable else ():
            table = out.by_moment_follows if v.candidate.how == "follows" else out.by_moment
            table.setdefault(moment, []).append(v)
    games: dict[int, Game] = {}
    for deal in deals_for(level, seed, ruleset):
        players = len(deal.hands)
        if not ruleset.players_min <= players <= ruleset.players_max:
            continue
        if players not in games:
            games[players] = engine(ruleset, players)
        game = games[players]
        scores = (ruleset.match_end_score - 1, *([0] * (players - 1)))
        try:
            start = game.start_round([list(h) for h in deal.hands], deal.leader, scores)
        except (ValueError, SpecError):
            continue  # the deck under this reading cannot hold these cards
        out.deals += 1
        out.deal_names.append(deal.name)
        out.player_counts.add(players)
        out.most_cards = max(out.most_cards, sum(len(h) for h in deal.hands))
        _explore(out, game, deal, scores, start, rules, at_once, limit)
    for players in built_counts(level, ruleset):
        if players not in games:
            games[players] = engine(ruleset, players)
        construct(out, games[players], rules, at_once)
    if level != "quick":
        _other_readings(out, engine, level, rules, at_once)
    return out


def _other_readings(
    out: Search,
    engine: Callable[[Ruleset, int], Game],
    level: str,
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
) -> None:
    """The built plays again under each other reading of every point (one reading changed at a
    time, at 2 players below level deep), for the candidates whose rules never meet and those whose
    order changed nothing under the checked readings: the first reading that makes the rules meet
    (`Verdict.meets_under`), or makes their order change an outcome (`Verdict.differs_under`), is
    named. Every point, not only those of the candidates' rules: a reading of another rule can
    change what one of them decides (who leads the next round, for the end of a round)."""
    spec, ruleset = out.spec, out.ruleset
    book = spec.rulebook
    looked_at = [v for v in out.verdicts if v.status in ("dead", "same")]
    if book is None or not looked_at:
        return
    points = dict.fromkeys(f.point for f in book.fragments if f.point in spec.variation_points)
    for point in points:
        for reading in spec.variation_points[point].playable:
            waiting = [
                v for v in looked_at if (v.meets_under if v.status == "dead" else v.differs_under) is None
            ]
            if reading == ruleset.readings.get(point) or not waiting:
                continue
            try:
                other = spec.with_readings(ruleset, {point: reading})
            except SpecError:
                continue
            trial = Search(spec, other, [Verdict(v.candidate, orders=v.orders) for v in waiting])
            for t in trial.verdicts:
                table = trial.by_moment_follows if t.candidate.how == "follows" else trial.by_moment
                for moment in t.candidate.moments:
                    table.setdefault(moment, []).append(t)
            counts = (
                built_counts(level, other)
                if level == "deep"
                else range(other.players_min, other.players_min + 1)
            )
            for players in counts:
                try:
                    construct(trial, engine(other, players), rules, at_once)
                except (ValueError, SpecError):
                    continue
            for v, t in zip(waiting, trial.verdicts, strict=True):
                if v.status == "dead" and t.occurs:
                    v.meets_under = Elsewhere(point, reading, t)
                elif v.status == "same" and t.differ:
                    v.differs_under = Elsewhere(point, reading, t)


def built_counts(level: str, ruleset: Ruleset) -> range:
    """The player counts whose plays are built: at quick the fewest, at ci 2 and 3 (as its deals),
    at deep every one."""
    high = {"quick": ruleset.players_min, "deep": ruleset.players_max}.get(level, min(3, ruleset.players_max))
    return range(ruleset.players_min, high + 1)


def _spare(game: Game, used: Sequence[int]) -> int | None:
    """A card the deck still holds after `used`, lowest rank first: what keeps a player in the round."""
    for rank in game.ruleset.ranks:
        if used.count(rank) < game.copies:
            return rank
    return None


def _routes(game: Game) -> dict[tuple[Pile, bool], tuple[Move, ...]]:
    """For every central pile one or two plays leave, with or without an 8 in the trick's opening
    pile: the shortest plays that leave it (a lead, or a lead and an overwrite or add that does not
    end the trick), the first in the engines' order of moves."""
    state = game.start_round([[r] for r in game.ruleset.ranks[: game.players]], 0)
    routes: dict[tuple[Pile, bool], tuple[Move, ...]] = {}
    leads = game.placing_moves(None)
    for lead in leads:
        opened = game.option(state, lead)
        if opened is None:
            continue
        eight = 8 in opened.pile.cards
        routes.setdefault((opened.pile, eight), (lead,))
    for lead in leads:
        opened = game.option(state, lead)
        if opened is None:
            continue
        on = replace(state, pile=opened.pile, opening_has_eight=8 in opened.pile.cards)
        for move in game.placing_moves(opened.pile):
            option = game.option(on, move)
            if option is not None and game.closes(option.pile, move.action) is None:
                routes.setdefault((option.pile, 8 in opened.pile.cards), (lead, move))
    return routes


def construct(
    out: Search, game: Game, rules: Mapping[str, Rule], at_once: Mapping[str, tuple[str, ...]]
) -> None:
    """Build and judge every play onto every central pile one or two plays leave (and every lead),
    the mover going out with it or not, by legal play from a deal made for it: the plays where
    rules meet that the small deals may never reach. Each seat holds what it places and one card
    more (the mover none more when it goes out with the play); the seats take turns in the rules'
    turn order from seat 0."""
    players = game.players
    scores = (game.ruleset.match_end_score - 1, *([0] * (players - 1)))
    out.built_players.add(players)
    # Every lead from the empty table first, then every pile by its shortest route.
    routes = sorted(_routes(game).items(), key=lambda item: (len(item[1]), [m.cards for m in item[1]]))
    openings: list[tuple[Pile | None, tuple[Move, ...]]] = [(None, ()), *((p, r) for (p, _), r in routes)]
    for pile, route in openings:
        for move in game.placing_moves(pile):
            for going_out in (False, True):
                built = _built(game, route, move, going_out, scores)
                if built is None:
                    continue
                deal, state = built
                option = game.option(state, move)
                if option is None:
                    continue
                after, events = game.apply(state, move)
                out.built += 1
                step = Step(game, state, move, option, after, events)
                _judge(out, step, deal, scores, route, rules, at_once)


def _built(
    game: Game, route: tuple[Move, ...], move: Move, going_out: bool, scores: tuple[int, ...]
) -> tuple[Deal, State] | None:
    """A deal in which seats 0, 1, ... play `route` and then `move`, and the state before `move`;
    None where the deck cannot hold the cards or the plays are not legal in turn."""
    players = game.players
    seats = [0]
    for _ in route:
        seats.append(game.next_seat(seats[-1]))
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, played in zip(seats, (*route, move), strict=True):
        hands[seat].extend(played.cards)
    used = [c for h in hands for c in h]
    for seat in range(players):
        if going_out and seat == seats[-1]:
            continue
        spare = _spare(game, used)
        if spare is None:
            return None
        hands[seat].append(spare)
        used.append(spare)
    deal = Deal("built", tuple(tuple(sorted(h)) for h in hands), 0)
    try:
        state = game.start_round([list(h) for h in deal.hands], 0, scores)
    except (ValueError, SpecError):
        return None
    # Each seat holds the cards it places, so a play is legal where it fits the pile (`apply`
    # refuses one that does not).
    for played in route:
        if game.option(state, played) is None:
            return None
        state, _ = game.apply(state, played)
        if state.phase != "play" or state.pile is None:
            return None
    if game.option(state, move) is None:
        return None
    return deal, state


def _explore(
    out: Search,
    game: Game,
    deal: Deal,
    scores: tuple[int, ...],
    start: State,
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
    limit: int,
) -> None:
    seen: set[tuple[object, ...]] = {_situation(start)}
    queue: deque[tuple[State, tuple[Move, ...]]] = deque([(start, ())])
    while queue and len(seen) <= limit:
        state, path = queue.popleft()
        out.states += 1
        if state.phase != "play":
            continue
        for move in game.legal_moves(state):
            after, events = game.apply(state, move)
            out.plays += 1
            option = game.option(state, move) if move.action != "pass" else None
            step = Step(game, state, move, option, after, events)
            _judge(out, step, deal, scores, path, rules, at_once)
            key = _situation(after)
            if key not in seen:
                seen.add(key)
                queue.append((after, (*path, move)))


def _situation(state: State) -> tuple[object, ...]:
    """A state without the record of its trick, which no rule reads beyond who placed last (the
    state keeps that): two plays into one situation play on alike."""
    return (
        state.hands,
        state.to_move,
        state.pile,
        state.last_player,
        state.passed,
        state.opening_has_eight,
        state.phase,
        state.scores,
    )


def _judge(
    out: Search,
    step: Step,
    deal: Deal,
    scores: tuple[int, ...],
    path: tuple[Move, ...],
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
) -> None:
    moments = step.moments
    position = Position(hands=deal.hands, leader=deal.leader, scores=scores, moves=path)
    # Which of the candidates' rules apply at each moment of the step, asked once per step.
    applying = {
        m: {r for r in out.rules_at(m) if m in rules[r].when and applies(rules[r], step, m)} for m in moments
    }
    judged: set[int] = set()
    for moment in moments:
        for v in out.by_moment.get(moment, ()):
            c = v.candidate
            if id(v) in judged or not c.rule_set <= applying[moment]:
                continue
            judged.add(id(v))
            _judge_one(v, step, moment, position, rules, at_once)
    for v in out.by_moment_follows.get(step.move.action, ()):
        first, second = (rules[r] for r in v.candidate.rules)
        if applies(first, step, step.move.action) and _next_applies(step, second):
            v.occurs += 1
            if v.witness is None:
                v.witness = (position, step.move, step)


def _next_applies(step: Step, rule: Rule) -> bool:
    """Whether `rule` applies to some legal play straight after `step`, in the same trick."""
    game, state = step.game, step.after
    if state.phase != "play" or state.pile is None:
        return False  # the round is over, or the trick is: its winner leads a new one
    for move in game.legal_moves(state):
        after, events = game.apply(state, move)
        option = game.option(state, move) if move.action != "pass" else None
        nxt = Step(game, state, move, option, after, events)
        if any(applies(rule, nxt, m) for m in nxt.moments):
            return True
    return False


def _judge_one(
    v: Verdict,
    step: Step,
    moment: str,
    position: Position,
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
) -> None:
    c = v.candidate
    v.occurs += 1
    if v.witness is None:
        v.witness = (position, step.move, step)
    outcomes = {o: outcome(rules, c, o, step, moment, at_once.keys()) for o in v.orders}
    if _all_equal(outcomes.values()):
        return
    settled = _settle(rules, c, outcomes, at_once)
    v.differ += 1
    named = {"+".join(o): d for o, d in outcomes.items()}
    if settled is None:
        v.unsettled += 1
        if v.unsettled == 1:  # the silence's witness: the first play no clause settles
            v.differing = (position, step.move, named)
    elif v.settled_by is None:
        v.settled_by = settled
        if v.differing is None:
            v.differing = (position, step.move, named)


# ---- the check -----------------------------------------------------------------------------------


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


def _reading_words(spec: Spec, point: str, reading: str) -> str:
    """A reading as the words file names it: its short name and its question's title."""
    for q in words_of(spec).questions.values():
        if point in q.points:
            label = q.readings.get(reading) or q.readings.get(f"{point}={reading}")
            if label:
                return f"\u2018{label}\u2019 ({q.title})"
    return f"\u2018{spec.variation_points[point].readings[reading]}\u2019"


def _players(s: Search) -> str:
    return _counts_text(s.player_counts)


def _counts_text(player_counts: Collection[int]) -> str:
    counts = sorted(player_counts)
    if not counts:
        return "no"
    return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])


def _scope(s: Search) -> str:
    """For the notes: the ruleset and how much was explored."""
    return (
        f"{s.ruleset.label()}: {s.deals} small deals ({_players(s)} players) explored exhaustively"
        f" ({s.states} states, {s.plays} plays), {s.built} plays built"
        f" ({_counts_text(s.built_players)} players)"
    )


def _rule_names(spec: Spec, rules: Sequence[str]) -> str:
    """Rules by the words file's clause names where a rule is a clause by its own id; else by its
    name in `rule_mutations.rules`, else by the first clause it cites (a designer reads clauses, not
    the spec's rule ids; the order of the ranks is not 'the run' it cites first)."""
    words = words_of(spec)
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
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


_ACTIONS = {"lead": zm.LEAD, "overwrite": zm.OVERWRITE, "add": zm.ADD}
_KINDS = {name: kind for kind, name in zm.KIND_NAMES.items()}


def proved_apart(
    ruleset: Ruleset, candidates: Sequence[tuple[str, Sequence[Rule], Sequence[str]]], rlimit: int
) -> frozenset[str]:
    """The candidates (topic, rules, moments) the compiled model proves never to meet: `rules` never
    all apply to one lead, overwrite or add at any of `moments`, for every central pile and every
    play the rules allow (the model's bounds: every pile up to the longest one a trick can hold),
    under the ruleset's readings. Left out where one rule's applying cannot be said in the model
    (going out, a pass, a reason it lacks) or the solver does not answer unsat within its resource
    limit. One symbolic play serves them all, each asked under assumptions of its own (building the
    model is most of the cost)."""
    try:
        maxk, maxn = zm.loop_bounds(ruleset)
        m = zm.Model(zm.Z3Alg(), zm.Params.of(ruleset), zm.Readings.of_ruleset(ruleset), maxk, maxn)
    except (ValueError, SpecError):
        return frozenset()
    sit = zm.SymSituation.fresh("apart.", maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    solver = m.solver(rlimit)
    solver.add(*sit.domain(m), zm.as_bool(out.legal))
    return frozenset(
        topic for topic, rules, moments in candidates if _apart(sit, out, solver, rules, moments)
    )


def _apart(sit: Any, out: Any, solver: Any, rules: Sequence[Rule], moments: Sequence[str]) -> bool:
    reasons = {name for name, _ in out.ends}
    for moment in moments:
        if moment in _ACTIONS:
            at: list[Any] = [sit.action == _ACTIONS[moment]]
        elif moment == "trick_end":
            # A pass ends a trick too, which the model does not decide: only rules a pass cannot
            # all meet at (one about a pile, or a reason a pass never gives) are asked of plays.
            if all(r.kind is None and r.reason in (None, TrickEndReason.ALL_PASSED.value) for r in rules):
                return False
            at = [z3.Or(*(zm.as_bool(holds) for _, holds in out.ends))] if out.ends else [z3.BoolVal(False)]
        else:
            return False  # a pass or the end of a round: not a play the model decides
        for rule in rules:
            if moment not in rule.when:
                at.append(z3.BoolVal(False))
            elif rule.kind is not None:
                at.append(out.kind == _KINDS[rule.kind])
            elif "trick_ends" in rule.decides:
                if rule.reason not in reasons:
                    return False
                at.append(zm.as_bool(out.end(rule.reason or "")))
            elif "round_ends" in rule.decides:
                return False
        if solver.check(*at) != z3.unsat:
            return False
    return True


def _moments(moments: Sequence[str]) -> str:
    said = [m.replace("_", " ") for m in moments]
    return ", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else "".join(said)


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


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


def check_interactions(ctx: CheckContext) -> CheckResult:
    started = time.perf_counter()
    spec, ruleset = ctx.spec, ctx.ruleset
    words = words_of(spec).interactions
    if words is None:
        raise SpecError(words_of(spec).where("interactions"), "the words file has no interactions section")
    # Registered reference_only: the runner gives it the reference engine (or a test its subclass).
    engine = cast(Callable[[Ruleset, int], Game], ctx.engine)
    found = search(spec, ruleset, engine=engine, level=ctx.level, seed=ctx.seed, at_once_words=words.at_once)
    rules = {r.id: r for r in spec.rules}
    proved: list[ProvedProperty] = []
    findings: list[Finding] = []
    settled: list[SettledCandidate] = []
    notes: list[str] = []
    counts: dict[str, int] = {}
    scope = _scope(found)
    # Only what holds in the deals explored is claimed, and the scope says exactly that much.
    proved_scope = words.scope.format(
        deals=found.deals,
        players=_players(found),
        cards=found.most_cards,
        built=found.built,
        built_players=_counts_text(found.built_players),
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
            "rules": _rule_names(spec, c.all_rules),
            "moment": _moments(c.moments),
            "decisions": ", ".join(words.decisions.get(d, d.replace("_", " ")) for d in c.overlap),
            "plays": str(v.occurs),
            "differ": str(v.differ),
            "reading": _reading_words(spec, v.meets_under.point, v.meets_under.reading)
            if v.meets_under is not None
            else "",
        }
        clauses = tuple(dict.fromkeys(cl for r in c.all_rules for cl in rules[r].cites))
        if v.status == "same":
            # What holds under the readings played may not under another: said beside it.
            elsewhere = ""
            if v.differs_under is not None and words.same_elsewhere and words.meets_order:
                e = v.differs_under
                changed = {**blanks, "reading": _reading_words(spec, e.point, e.reading)}
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
                        summary=f"{move} after {len(position.moves)} moves",
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
    notes.insert(0, f"{len(found.verdicts)} candidates from the rules' when/decides: {summary}; {scope}")
    return CheckResult(
        name=CHECK,
        title=words_of(ctx.spec).check(CHECK).title,
        seconds=time.perf_counter() - started,
        exhaustive=found.plays,
        proved=tuple(proved),
        findings=tuple(findings),
        notes=tuple(notes),
        settled=tuple(settled),
    )
