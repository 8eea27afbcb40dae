"""The reference engine's own decisions: where it chooses among outcomes the texts leave open.

Each decision is declared as data in the words file (`decisions:` in spec/535.words.yaml): the
question, what the engine does and why, the nearest clauses, the public hook that implements it and
the engine variant here that plays the other choice (or why no hook can). The check
`discovery.decisions` turns every entry into one `Finding` (kind `engine_decision`, topic the
decision's id) whose `Alternative` puts the engine against its variant, so the pipeline measures
the impact over the seeded games, and searches the smallest table where the two play differently.

The search is exhaustive over short tricks rather than over deals: the hooks a decision overrides
answer about piles and moves, not about what else a hand holds, so at every step the player to move
is given the whole deck (every move the rules allow is then legal) and both engines are asked for
their legal moves and for the outcome of each. Tricks are expanded in the order of the cards they
place, so the first difference found at the fewest cards is the witness; its table is then dealt for
real (each player holds what they place, one card more so nobody goes out) and checked again by
legal play from `Game.play_from`. A decision about the deal is compared at the deal itself.

The variants are module-level `Game` subclasses that override only public hooks (like
checks/impact/variants.py), so a worker process can import them by name.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import count

from ...engine import Game, Move, Pile, Play, State, TrickEnd
from ...engine.engines import Engine
from ...engine.options import Option
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import words_of
from ...spec.words_model import CheckWords, DecisionWords
from ..findings import (
    Alternative,
    CheckContext,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    Side,
    Witness,
    kind_severity,
)
from ..impact.measure import outcome_key
from ..impact.variants import named_variant
from ..impact.witnesses import WORDS as WITNESS_WORDS
from ..impact.witnesses import RoundHistory, deal_witness, shrunk_witness, step_witness, undealable_witness

NAME = "discovery.decisions"

EIGHT = 8


# ---- the other choices ------------------------------------------------------------------------


class RunsByLastCard(Game):
    """Runs of one size compare by their last card in the rank succession instead of their first.
    The two orders agree wherever a run cannot wrap from 15 to 1 (every run is the same stretch of
    the succession shifted), so they part only under run_wrap=wrap: 15,1 against 1,2."""

    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind == old.kind == "run" and new.size == old.size:
            ranks = self.ruleset.ranks
            a, b = ranks.index(new.cards[-1]), ranks.index(old.cards[-1])
            return a < b if self.lower_runs_beat else a > b
        return super().beats(new, old)


class AddAtOneEnd(Game):
    """An add places all its cards at one end of the pile: below a run's first card or above its
    last, never some at each end in the same turn (3,4 plus 2 and 5 is two adds, not one)."""

    def add_options(self, pile: Pile) -> list[tuple[tuple[int, ...], Pile]]:
        return [(added, new) for added, new in super().add_options(pile) if not _both_ends(pile, new)]


def _both_ends(pile: Pile, new: Pile) -> bool:
    """Whether the run `new` grew from `pile` at both ends."""
    if new.kind != "run" or pile.kind == "set":
        return False
    below = new.cards.index(pile.cards[0])
    return below > 0 and below + pile.size < new.size


class OpeningPileGrows(Game):
    """The opening pile is the pile the trick opened with as long as it is only added to: an 8
    added to it before the first overwrite joins an opening pile, which then holds an 8, so under
    eight_exemption=whole_trick that add does not set the Rule of 8 off, nor does any 8 after it in
    the trick. (Two designer reviews read 'adds belong to the opening pile' so; the add of the 8
    once set the Rule of 8 off before joining, and the two choices parted only under
    eight_on_add=plays_only.)"""

    def rule_of_8(self, option: Option, state: State) -> bool:
        if state.pile is not None and self.exempt_whole_trick:
            if _opening_grew_an_eight(state.trick):
                return False
            if option.move.action == "add" and option.has_eight and _opening_still(state.trick):
                return False
        return super().rule_of_8(option, state)


def _opening_still(trick: Sequence[Play]) -> bool:
    """Whether the central pile is still the trick's opening pile (no one has overwritten it)."""
    return all(play.move.action != "overwrite" for play in trick[1:])


def _opening_grew_an_eight(trick: Sequence[Play]) -> bool:
    """Whether an add put an 8 into the trick's opening pile before anyone overwrote it."""
    for play in trick[1:]:
        if play.move.action == "overwrite":
            return False
        if play.move.action == "add" and EIGHT in play.move.cards:
            return True
    return False


class BothHandsAsOne(Game):
    """With 2 players under the hand-size table, each player holds both of the two hands of 12 that
    Board Game Arena deals them (E5), as one hand of 24 cards: the nearest the deal hooks come to
    two hands per player."""

    def hand_size(self) -> int:
        size = super().hand_size()
        return 2 * size if self.players == 2 and self.ruleset.reading("deal") == "table" else size


#: The variants by the name the words file's decisions give them.
DECISION_VARIANTS: dict[str, type[Game]] = {
    "runs_by_last_card": RunsByLastCard,
    "add_at_one_end": AddAtOneEnd,
    "opening_pile_grows": OpeningPileGrows,
    "both_hands_as_one": BothHandsAsOne,
}


# ---- the search ---------------------------------------------------------------------------------

#: Plays per searched sequence (a lead and two answers: every decision declared today shows within
#: them) and the most tables expanded per ruleset and player count: the search stops there, saying so.
MAX_PLAYS = 3
MAX_NODES = 3000


@dataclass(frozen=True)
class Search:
    """What the witness search did for one decision: the witness (None: no difference found), the
    ruleset it was found under, and how many tables it expanded."""

    witness: Witness | None
    ruleset: Ruleset | None
    tables: int
    exhausted: bool  # every sequence within MAX_PLAYS was expanded (no table limit hit)


def _rich(game: Engine, state: State) -> State:
    """`state` with the player to move holding the whole deck: every move the rules allow is legal."""
    hands = tuple(game.full_deck if i == state.to_move else h for i, h in enumerate(state.hands))
    return replace(state, hands=hands)


def _change(
    a: Engine, b: Engine, state: State, move: Move, noticed: bool = False
) -> tuple[str, tuple[State, tuple[object, ...]], tuple[State, tuple[object, ...]]] | None:
    """What differs when both engines play `move` from `state` (None: nothing a player notices).
    With `noticed`, a difference in the events alone (a trick recorded as ended on the move that
    ends the round, the tables after it the same) is none either."""
    after_a = a.apply(state, move)
    after_b = b.apply(state, move)
    if noticed and after_a[0] == after_b[0]:
        return None
    if outcome_key(after_a[1]) != outcome_key(after_b[1]):
        ta = [e.winner for e in after_a[1] if isinstance(e, TrickEnd)]
        tb = [e.winner for e in after_b[1] if isinstance(e, TrickEnd)]
        return ("trick_end" if ta != tb else "round_result"), after_a, after_b
    if after_a[0] != after_b[0]:
        return "next_turn", after_a, after_b
    return None


Seq = tuple[tuple[int, Move], ...]


def _spare(game: Engine, used: Sequence[int]) -> int:
    """A card the deck still has after `used`: the highest rank left (a card that only keeps its
    holder from going out)."""
    for rank in reversed(game.ruleset.ranks):
        if used.count(rank) < game.copies:
            return rank
    raise SpecError("deck", "no card is left to deal")


def _position_hands(
    game: Engine, players: int, seq: Seq, held: tuple[int, tuple[int, ...]] | None, out: bool = False
) -> list[list[int]]:
    """Each seat's hand: the cards it places in `seq` (and `held` = (seat, cards) it holds too), plus
    one card more; with `out`, the seat of `held` holds nothing more (it goes out with them)."""
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, move in seq:
        hands[seat].extend(move.cards)
    if held is not None:
        hands[held[0]].extend(held[1])
    for seat, hand in enumerate(hands):
        if out and held is not None and seat == held[0]:
            continue
        hand.append(_spare(game, [c for h in hands for c in h]))
    return [sorted(h) for h in hands]


def _going_out(game: Engine, state: State, move: Move) -> State:
    """`state` with the player to move holding exactly `move`'s cards (the move ends the round) and
    every other player one card of the highest rank: what a table dealt for real holds then (see
    `_position_hands`), so that what the end of the round decides (the points, who leads next)
    is compared as the real table will show it."""
    top = game.codec.pack((game.ruleset.ranks[-1],))
    hands = tuple(game.codec.pack(move.cards) if i == state.to_move else top for i in range(game.players))
    return replace(state, hands=hands)


def _real_witness(
    a: Engine,
    b: Engine,
    seq: Seq,
    move: Move | None,
    names: tuple[str, str],
    out: bool = False,
    noticed: bool = False,
    *,
    say: CheckWords,
) -> Witness | None:
    """The difference found with rich hands, on a table dealt for real (with `out`, the last
    mover holding only the move's cards): None when the deck cannot deal it or the difference does
    not show there."""
    players = a.players
    held = None
    if move is not None:
        held = (_seat_after(a, seq), move.cards)
    try:
        hands = _position_hands(a, players, seq, held, out)
        start = a.start_round(hands, 0, (0,) * players)
        state = start
        history = RoundHistory(start)
        for seat, m in seq:
            history.plays.append((seat, m))
            state, _ = a.apply(state, m)
        other = b.start_round(hands, 0, (0,) * players)
        for _, m in seq:
            other, _ = b.apply(other, m)
    except (ValueError, SpecError):
        return None
    if other != state:
        return None
    la, lb = set(a.legal_moves(state)), set(b.legal_moves(state))
    if la != lb:
        return shrunk_witness(a, b, state, (la, lb), names, history, say)
    if move is None or move not in la:
        return None
    changed = _change(a, b, state, move, noticed)
    if changed is None:
        return None
    change, after_a, after_b = changed
    return step_witness(a, b, state, move, (la, lb), (after_a, after_b), names, change, history, say)


def _seat_after(game: Engine, seq: Seq) -> int:
    """Who is to move after `seq` (rich hands: nobody goes out)."""
    state = game.start_round([[game.ruleset.ranks[0]]] * game.players, 0)
    for _, move in seq:
        state, _ = game.apply(_rich(game, state), move)
    return state.to_move


def search_play(
    a: Engine,
    b: Engine,
    names: tuple[str, str],
    max_nodes: int = MAX_NODES,
    noticed: bool = False,
    robust: Callable[[Found], bool] | None = None,
    *,
    say: CheckWords,
) -> tuple[Witness | None, int, bool]:
    """The smallest trick sequence (fewest cards placed, then fewest plays) after which `a` and `b`
    allow different moves or a move ends differently, as a witness on a real table; with the
    number of tables expanded and whether the search space within MAX_PLAYS was exhausted.

    With `robust`, the smallest sequence it accepts (one that shows under every other reading of
    the other questions, so that an example does not hang on another open answer); the smallest of
    all where none within the limit does."""
    players = a.players
    start = a.start_round([[a.ruleset.ranks[0]]] * players, 0)
    if start != b.start_round([[a.ruleset.ranks[0]]] * players, 0):
        raise ValueError("the two engines set up the same table differently")
    tie = count()
    heap: list[tuple[int, int, int, Seq, State]] = [(0, 0, next(tie), (), start)]
    tables = 0
    found: Found | None = None
    first: Found | None = None  # the smallest of all, robust or not

    def offer(candidate: Found) -> None:
        nonlocal found, first
        first = _better(first, candidate)
        if robust is None or robust(candidate):
            found = _better(found, candidate)

    while heap:
        cards, plays, _, seq, state = heapq.heappop(heap)
        if found is not None and (cards, plays) >= found[:2]:
            break
        if tables >= max_nodes:
            return _found_witness(a, b, found or first, names, noticed, say=say), tables, False
        tables += 1
        rich = _rich(a, state)
        la, lb = a.legal_moves(rich), b.legal_moves(rich)
        if set(la) != set(lb):
            odd = min(set(la) ^ set(lb), key=lambda m: (len(m.cards), str(m)))
            offer((cards + len(odd.cards), plays, seq, odd, False))
            continue
        for move in la:
            here = cards + len(move.cards)
            if found is not None and (here, plays + 1) >= found[:2]:
                continue
            if _change(a, b, rich, move, noticed) is not None:
                offer((here, plays + 1, seq, move, False))
                continue
            # The same move by a player who goes out with it: what the end of a round decides
            # (the points, who leads next) shows on the round's first play already.
            if not plays and _change(a, b, _going_out(a, rich, move), move, noticed) is not None:
                offer((here, plays + 1, seq, move, True))
                continue
            child, _ = a.apply(rich, move)
            if plays + 1 < MAX_PLAYS and child.phase == "play":
                heapq.heappush(heap, (here, plays + 1, next(tie), (*seq, (state.to_move, move)), child))
    return _found_witness(a, b, found or first, names, noticed, say=say), tables, True


def shows_under(
    others: Sequence[tuple[Engine, Engine]], names: tuple[str, str], noticed: bool = False, *, say: CheckWords
) -> Callable[[Found], bool]:
    """Whether a found difference shows on the same table under each pair of `others` (the engine
    and its variant under another reading of some other question), its plays legal there too."""

    def robust(candidate: Found) -> bool:
        _, _, seq, move, out = candidate
        for a, b in others:
            state = a.start_round([[a.ruleset.ranks[0]]] * a.players, 0)
            for _, m in seq:
                rich = _rich(a, state)
                if m not in a.legal_moves(rich):
                    return False
                state, _ = a.apply(rich, m)
            if _real_witness(a, b, seq, move, names, out, noticed, say=say) is None:
                return False
        return True

    return robust


#: The smallest difference so far: cards placed, plays, the plays before, the move, and whether
#: its mover goes out with it.
Found = tuple[int, int, Seq, Move | None, bool]


def _better(old: Found | None, new: Found) -> Found:
    return new if old is None or new[:2] < old[:2] else old


def _found_witness(
    a: Engine,
    b: Engine,
    found: Found | None,
    names: tuple[str, str],
    noticed: bool = False,
    *,
    say: CheckWords,
) -> Witness | None:
    if found is None:
        return None
    _, _, seq, move, out = found
    return _real_witness(a, b, seq, move, names, out, noticed, say=say)


def search_deal(
    a: Engine, b: Engine, seed: int, names: tuple[str, str], *, say: CheckWords
) -> Witness | None:
    """The first deal of a match from `seed`, when the two engines deal it differently."""
    sa = a.new_match(seed)
    try:
        sb = b.new_match(seed)
    except SpecError as exc:
        return undealable_witness(a, sa, names, str(exc), say=say)
    if sa != sb:
        return deal_witness(a, b, sa, sb, names, True, say=say)
    return None


def search(spec: Spec, ruleset: Ruleset, decision: DecisionWords, variant: type[Game], seed: int) -> Search:
    """The smallest table where the engine and `variant` play differently: under the ruleset played,
    then under it with the decision's `under` readings (where the two can only part)."""
    names = (decision.engine.label, decision.other.label)
    say = words_of(spec).check(WITNESS_WORDS)
    rulesets = [ruleset]
    if decision.under:
        rulesets.append(spec.with_readings(ruleset, decision.under))
    players = decision.players or (2,)
    tables = 0
    exhausted = True
    for rs in rulesets:
        for p in players:
            try:
                a, b = Game(rs, p), variant(rs, p)
            except SpecError:
                continue
            witness = search_deal(a, b, seed, names, say=say)
            if witness is None:
                others = _other_readings(spec, rs, variant, p, set(decision.under))
                witness, n, done = search_play(
                    a, b, names, robust=shows_under(others, names, say=say), say=say
                )
                tables += n
                exhausted = exhausted and done
            if witness is not None:
                if rs != ruleset:
                    # The table exists only under the `under` readings: the witness says so, so that
                    # no reader takes it for a table of the rules as played.
                    needs = {pt: r for pt, r in sorted(decision.under.items()) if ruleset.reading(pt) != r}
                    witness = replace(witness, situation={**witness.situation, "needs_readings": needs})
                return Search(witness, rs, tables, exhausted)
    return Search(None, None, tables, exhausted)


def _other_readings(
    spec: Spec, ruleset: Ruleset, variant: type[Game], players: int, skip: set[str]
) -> list[tuple[Engine, Engine]]:
    """The engine and `variant` under each other reading of every variation point but `skip` (the
    decision's own), one point changed at a time; a reading that cannot seat `players` is left out."""
    out: list[tuple[Engine, Engine]] = []
    for point, _, rs in spec.one_reading_changed(ruleset):
        if point in skip:
            continue
        try:
            out.append((Game(rs, players), variant(rs, players)))
        except SpecError:
            continue
    return out


# ---- the check ----------------------------------------------------------------------------------


def variant_of(words_where: str, decision: DecisionWords) -> type[Game] | None:
    """The variant class a decision names (None for `none`); SpecError at the entry's line for a
    name this module does not have."""
    if decision.variant is None:
        return None
    return named_variant(DECISION_VARIANTS, decision.variant, words_where, "checks/discovery/decisions.py")


def decision_finding(
    spec: Spec,
    ruleset: Ruleset,
    decision: DecisionWords,
    variant: type[Game] | None,
    found: Search | None,
    say: CheckWords,
) -> Finding:
    """The finding of one decision: its words, the two sides for the impact, and the witness
    (`say`: the check's words, from its caller)."""
    detail = f"{decision.engine.words} {decision.why}"
    alternative = None
    if variant is None:
        detail += say("no_hook", other=decision.other.words, reason=decision.reason)
    else:
        alternative = Alternative(
            played=Side(decision.engine.label, decision.engine.words, ruleset, Game),
            compared=Side(decision.other.label, decision.other.words, ruleset, variant),
            method=say(
                "method", engine=decision.engine.label, variant=decision.variant, other=decision.other.label
            ),
            players=decision.players,
        )
        if found is not None and found.witness is None:
            stopped = "" if found.exhausted else say("stopped")
            detail += say("never_differ", tables=found.tables, plays=MAX_PLAYS, stopped=stopped)
        elif found is not None and found.ruleset is not None and found.ruleset != ruleset:
            changed = ", ".join(
                f"{p}={r}" for p, r in sorted(decision.under.items()) if ruleset.reading(p) != r
            )
            detail += say("only_under", changed=changed)
    return Finding(
        id=f"decision.{decision.id}",
        kind=FindingKind.DECISION,
        title=decision.title,
        clauses=decision.clauses,
        detail=detail,
        check=NAME,
        severity=Severity(decision.severity)
        if decision.severity
        else kind_severity(spec, FindingKind.DECISION, Severity.LOW),
        players=decision.players[0] if len(decision.players) == 1 else None,
        alternative=alternative,
        witness=found.witness if found is not None else None,
        evidence=decision.evidence,
        proposed_wording=decision.engine.words,
        topic=decision.id,
    )


def check_decisions(ctx: CheckContext) -> CheckResult:
    """One finding per declared engine decision, each with the smallest table where the engine and
    the other choice play differently (or the search said to find none)."""
    started = time.perf_counter()
    words = ctx.words
    say = words.check(NAME)
    findings: list[Finding] = []
    notes: list[str] = []
    tables = 0
    for decision in words.decisions.values():
        variant = variant_of(words.where("decisions", decision.id, "variant"), decision)
        found = None
        if variant is not None:
            found = search(ctx.spec, ctx.ruleset, decision, variant, ctx.seed)
            tables += found.tables
            size = say("cards", cards=found.witness.cards) if found.witness else say("no_witness")
            notes.append(say("searched", decision=decision.id, size=size, tables=found.tables))
        else:
            notes.append(say("no_variant", decision=decision.id, reason=decision.reason))
        findings.append(decision_finding(ctx.spec, ctx.ruleset, decision, variant, found, say))
    return CheckResult(
        name=NAME,
        title=say.title,
        seconds=time.perf_counter() - started,
        exhaustive=tables,
        findings=tuple(findings),
        notes=tuple(notes),
    )


def decisions_of(spec: Spec) -> Mapping[str, DecisionWords]:
    """The engine decisions a spec's words declare."""
    return words_of(spec).decisions
