"""What the search finds: a verdict per candidate, the record of a search, and the judging of one
play (explored or built) against every candidate its rules meet at."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ....engine import Move, Position
from ....spec import Ruleset, Spec
from ....spec.model import Rule
from ...play.graphs import Deal
from .candidates import Candidate
from .step import Decided, Step, _all_equal, _settle, applies, outcome


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
