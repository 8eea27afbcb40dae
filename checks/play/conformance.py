"""Conformance: on every situation of a bounded domain, the engine's decisions equal the model's.

The domain: every central pile a trick can hold (and none, for a lead), with and without an 8 in the
opening pile, against every play the rules can make of it (see situations.shaped_plays and
add_candidates), plus every pass. For each, the engine under check (built through ctx.engine) lists
its legal moves and applies every legal one; the Z3 model compiled from the spec's rules (z3model,
evaluated concretely) decides the same, passes, trick winners, the round's end and the next player
included. A move legal for one and not the other, or a different pile, trick ending, winner or next player,
is a disagreement; the smallest one (fewest cards, then lowest ranks) becomes a Failure.

Reading combinations are grouped by the decisions they touch (a sweep per group, the other points
at the checked ruleset's readings), so that every combination of the points that matter to a
decision is covered without the full product. `deep` adds Hypothesis-generated situations over the
full product of readings and random hands.

Which decisions each variation point touches is `TOUCHES`, keyed by the engine's vocabulary
(`Game.VOCABULARY`); the sweeps take their points from it and their readings from the spec, so a new
reading of a point is swept without an edit here, and this module refuses to import while a point
of the engine is neither swept nor in `NOT_SWEPT` with its reason. The model's answer is the rules'
parts as the model compiles them (turn order included): a reading whose fragment the spec does not
state is refused.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import given
from hypothesis import seed as hseed
from hypothesis import strategies as st

from ...engine import PASS, Game, Move, Pile, RoundEnd, State, TrickEnd
from ...engine.engines import Engine
from ...spec import Ruleset
from ...spec.vocabulary import Vocabulary
from ...spec.words_model import CheckWords
from ..findings import CheckContext, CheckResult, Failure, Witness
from ..hypothesis_env import hypothesis_settings, private_hypothesis_home
from ..oracles.model_values import OpeningPile, PileV
from ..oracles.situations import (
    NONE_PILE,
    PileKey,
    Situation,
    add_candidates,
    build_state,
    central_piles,
    full_hand,
    pile_key,
    seat_before,
    shaped_plays,
    table_cards,
    to_pile,
)
from ..oracles.vocab import ComponentVocabulary, VocabularyMismatch, require_with_stated, table_vocabulary
from ..oracles.z3model import ACTION_CODES, MODEL_VOCABULARY, NONE, RUN, SET, SINGLE, Model

NAME = "conformance"


@dataclass(frozen=True)
class Sweep:
    """A group of variation points swept through every combination of their readings."""

    name: str
    points: tuple[str, ...]
    players: tuple[int, ...]
    flags: tuple[bool, ...]
    kinds: tuple[int, ...]  # which central pile kinds to face (NONE = leading)
    actions: tuple[str, ...] = ("lead", "overwrite", "add", "pass")  # the decisions it compares
    eights_only: bool = False  # compare only moves that place an 8

    def covers(self, move: Move) -> bool:
        return move.action in self.actions and (not self.eights_only or 8 in move.cards)


# The decisions compared, one sweep each; `points` is filled in from TOUCHES.
_DECISIONS: tuple[Sweep, ...] = (
    Sweep("lead_overwrite", (), (4,), (False,), (NONE, SINGLE, SET, RUN), ("lead", "overwrite", "pass")),
    Sweep("add_runs", (), (4,), (False,), (SINGLE, RUN), ("add",)),
    Sweep("add_sets", (), (4, 5, 6), (False,), (SINGLE, SET), ("add",)),
    # How many cards one add places, crossed with the points that bound what an add makes (not
    # with every point of the runs and sets: that would double both sweeps above).
    Sweep("add_counts", (), (4,), (False,), (SINGLE, SET, RUN), ("add",)),
    Sweep("rule_of_8", (), (4,), (False, True), (NONE, SINGLE, SET, RUN), ("lead", "overwrite", "add"), True),
    Sweep("turns", (), (2, 3, 4, 5, 6), (False,), (SINGLE,), ("overwrite", "pass")),
)

#: The decisions each variation point changes: the sweeps it is varied in.
TOUCHES: dict[str, tuple[str, ...]] = {
    "run_gaps": ("lead_overwrite", "add_runs", "rule_of_8", "add_counts"),  # which runs exist; listed 7,8,9
    "run_wrap": ("lead_overwrite", "add_runs"),
    "run_order": ("lead_overwrite",),
    "five_player_copies": ("add_sets",),
    "five_player_set_close": ("add_sets",),
    "add_to_single": ("add_runs", "add_sets", "add_counts"),
    "add_run_ends": ("add_runs",),
    "add_past_closing": ("add_runs", "add_sets", "add_counts"),
    "add_count": ("add_counts",),
    "eight_forms": ("rule_of_8",),
    "eight_on_add": ("rule_of_8",),
    "eight_exemption": ("rule_of_8",),
    "eight_rank": ("lead_overwrite",),
    "turn_order": ("turns",),
}
#: The points that only change a table of five players.
FIVE_PLAYER_POINTS = frozenset({"five_player_copies", "five_player_set_close"})
#: Points no sweep varies, and why: the situations compared are single decisions within a round.
NOT_SWEPT: dict[str, str] = {
    "deal": "decides the hands a round starts with, not a decision within the round",
    "first_leader": "decides who leads the first round, not a decision within it",
    "round_leader": "decides who leads the next round, not a decision within a round",
}


def sweeps_vocabulary(vocabulary: Vocabulary) -> ComponentVocabulary:
    """The points the sweeps vary (every reading of each, from the spec) or leave alone, checked
    against an engine's vocabulary: VocabularyMismatch names a point in neither."""
    unknown = {d for ds in TOUCHES.values() for d in ds} - {d.name for d in _DECISIONS}
    if unknown:
        raise VocabularyMismatch(f"TOUCHES names decisions without a sweep: {', '.join(sorted(unknown))}")
    table = {point: vocabulary.points.get(point, ()) for point in TOUCHES}
    return table_vocabulary("the conformance sweeps", table, vocabulary, NOT_SWEPT)


CONFORMANCE_VOCABULARY = sweeps_vocabulary(Game.VOCABULARY)

SWEEPS: tuple[Sweep, ...] = tuple(
    replace(d, points=tuple(p for p in Game.VOCABULARY.points if d.name in TOUCHES.get(p, ())))
    for d in _DECISIONS
)


@dataclass(frozen=True)
class Disagreement:
    sweep: str
    readings: tuple[tuple[str, str], ...]
    situation: Situation
    move: Move
    engine: dict[str, Any]
    model: dict[str, Any]
    kind: str  # "legality" or "outcome"

    def key(self) -> tuple[Any, ...]:
        pile = self.situation.pile.cards if self.situation.pile else ()
        return (
            self.situation.cards(),
            sum(pile) + sum(self.move.cards),
            self.situation.players,
            str(self.move),
            self.readings,
        )


@dataclass
class Tally:
    compared: int = 0
    generated: int = 0


# ---- the model's answer ----------------------------------------------------------------------------


def _next_active(model: Model, players: int, seat: int, passed: Iterable[int]) -> int:
    """The next seat after `seat` in turn order that has not passed (or `seat` itself)."""
    out = set(passed)
    other = seat
    for _ in range(players):
        other = int(model.next_seat(other, players)) % players
        if other not in out:
            return other
    return seat


def _seat_before(model: Model, players: int, seat: int) -> int:
    """The seat whose turn comes just before `seat`'s."""
    return seat_before(model, players, seat)


def model_answer(model: Model, ruleset: Ruleset, sit: Situation, pile: PileKey, move: Move) -> dict[str, Any]:
    """What the model says `move` does in `sit`: legal, and if so the pile after it, the trick endings,
    the winner and who moves next. Every answer is a rule's part, as the model compiles it."""
    mover = sit.to_move
    players = sit.players
    if move.action == "pass":
        if not model.may_pass(sit.pile is None, players):
            return {"legal": False}
        passed = {*sit.passed, mover} if model.pass_takes_out(players) else set(sit.passed)
        central = PileV(*pile)
        reasons = model.ends_after_pass(
            players,
            pile=central,
            opening=OpeningPile(sit.opening_has_eight) if sit.pile is not None else central,
            mover=mover,
            in_trick=players - len(passed),
            cards_left=len(sit.hand),
            # The situation's trick is its opening plays and then the passes so far.
            passes_in_a_row=len(sit.passed) + 1,
        )
        if reasons:
            return _ended(int(model.winner(players, sit.last_player, mover)), reasons)
        return {
            "legal": True,
            "pile": sit.pile.to_json() if sit.pile else None,
            "trick_end": [],
            "winner": None,
            "to_move": _next_active(model, players, mover, passed),
        }
    index = model.values.index
    if any(c not in model.values for c in move.cards) or len(move.cards) > model.maxk:
        return {"legal": False}
    p = [index(c) for c in move.cards]
    p += [p[-1]] * (model.maxk - len(p))
    cards_left = len(sit.hand) - len(move.cards)
    out = model.decide(
        ACTION_CODES[move.action],
        pile,
        len(move.cards),
        p,
        players,
        sit.opening_has_eight,
        mover=mover,
        in_trick=players - len(sit.passed),
        cards_left=cards_left,
    )
    if not out.legal:
        return {"legal": False}
    reasons = [name for name, hit in out.ends if hit]
    winner = int(model.winner(players, mover, mover)) if reasons else None
    if model.round_ends(players, cards_left, mover):
        # The round ends at once (after any trick ending).
        return _round_over(mover, reasons, winner)
    if winner is not None:
        return _ended(winner, reasons)
    after = to_pile(model, (out.kind, out.low, out.size))
    return {
        "legal": True,
        "pile": after.to_json() if after else None,
        "trick_end": [],
        "winner": None,
        "to_move": _next_active(model, players, mover, sit.passed),
    }


def _ended(winner: int, reasons: Sequence[str]) -> dict[str, Any]:
    # Reasons that hold at once are a set: the engines may list them in any order.
    return {
        "legal": True,
        "pile": None,
        "trick_end": sorted(set(reasons)),
        "winner": winner,
        "to_move": winner,
    }


def _round_over(went_out: int, reasons: Sequence[str], winner: int | None = None) -> dict[str, Any]:
    return {
        "legal": True,
        "round_end": True,
        "went_out": went_out,
        "trick_end": sorted(set(reasons)),
        "winner": (went_out if winner is None else winner) if reasons else None,
    }


def engine_answer(game: Engine, state: State, move: Move, listed: bool) -> dict[str, Any]:
    if not listed:
        return {"legal": False}
    try:
        after, events = game.apply(state, move)
    except Exception as exc:  # the engine under check may be broken in any way; report, never crash
        return {"legal": True, "error": f"{type(exc).__name__}: {exc}"}
    ends = [e for e in events if isinstance(e, TrickEnd)]
    rounds = [e for e in events if isinstance(e, RoundEnd)]
    if rounds:
        answer = _round_over(rounds[0].went_out, sorted(ends[0].reasons) if ends else [])
        if ends and ends[0].winner != rounds[0].went_out:
            answer["winner"] = ends[0].winner
        return answer
    if ends:
        return _ended(ends[0].winner, list(ends[0].reasons)) | (
            {} if after.to_move == ends[0].winner else {"to_move": after.to_move}
        )
    return {
        "legal": True,
        "pile": after.pile.to_json() if after.pile else None,
        "trick_end": [],
        "winner": None,
        "to_move": after.to_move,
    }


# ---- comparing one situation -----------------------------------------------------------------------


def _fits(cards: Sequence[int], hand: Counter[int]) -> bool:
    return all(hand[c] >= cards.count(c) for c in cards)


def situation_for(
    ruleset: Ruleset,
    players: int,
    pile: Pile | None,
    flag: bool,
    passed: tuple[int, ...] = (),
    model: Model | None = None,
) -> Situation:
    """Seat 0 to move with the rest of the deck in hand, facing `pile` placed by the seat before."""
    last = _seat_before(model or Model.concrete(ruleset), players, 0) if pile is not None else -1
    sit = Situation(players, pile, flag if pile is not None else False, (), 0, last, passed)
    return replace(sit, hand=full_hand(ruleset, players, table_cards(sit)))


def candidate_moves(model: Model, ruleset: Ruleset, pile: PileKey) -> list[Move]:
    shaped = shaped_plays(tuple(model.values), model.maxk)
    if pile == NONE_PILE:
        return [Move("lead", c) for c in shaped]
    out = [Move("overwrite", c) for c in shaped if len(c) == pile[2]]
    out += [Move("add", c) for c in add_candidates(model, pile, model.maxk)]
    out.append(PASS)
    return out


def _crashed(
    sweep: str, readings: tuple[tuple[str, str], ...], sit: Situation, exc: Exception
) -> Disagreement:
    # An engine that raised answered nothing: its crash stands as a legality disagreement on PASS.
    return Disagreement(
        sweep, readings, sit, PASS, {"error": f"{type(exc).__name__}: {exc}"}, {"legal": True}, "legality"
    )


def compare_situation(
    game: Engine,
    model: Model,
    ruleset: Ruleset,
    sit: Situation,
    pile: PileKey,
    sweep: str,
    tally: Tally,
    readings: tuple[tuple[str, str], ...],
    moves: Iterable[Move] | None = None,
    covers: Callable[[Move], bool] | None = None,
) -> list[Disagreement]:
    """Every candidate move and every move the engine lists, decided by both."""
    out: list[Disagreement] = []
    try:
        state = build_state(game, sit)
        engine_moves = set(game.legal_moves(state))
    except Exception as exc:  # a crash of the engine under check is a disagreement, not our crash
        return [_crashed(sweep, readings, sit, exc)]
    hand = Counter(sit.hand)
    wanted = list(moves) if moves is not None else candidate_moves(model, ruleset, pile)
    todo = {m for m in wanted if _fits(m.cards, hand)} | engine_moves
    if covers is not None:
        todo = {m for m in todo if covers(m)}
    for move in sorted(todo, key=lambda m: (m.action, len(m.cards), m.cards)):
        tally.compared += 1
        mine = model_answer(model, ruleset, sit, pile, move)
        theirs = engine_answer(game, state, move, move in engine_moves)
        if mine != theirs:
            kind = "legality" if mine["legal"] != theirs["legal"] else "outcome"
            out.append(Disagreement(sweep, readings, sit, move, theirs, mine, kind))
    return out


def minimal_situation(game: Engine, model: Model, ruleset: Ruleset, d: Disagreement) -> Disagreement:
    """The same disagreement with the mover holding only the move's cards and one more (so that the
    round does not end), when it still shows there."""
    cards = list(d.move.cards)
    filler = next((r for r in reversed(ruleset.ranks) if r not in cards), ruleset.ranks[-1])
    small = replace(d.situation, hand=tuple(sorted([*cards, filler])))
    try:
        found = compare_situation(
            game, model, ruleset, small, _key(model, small), d.sweep, Tally(), d.readings, moves=[d.move]
        )
    except Exception:
        return d
    same = [x for x in found if x.move == d.move]
    return same[0] if same else d


def _key(model: Model, sit: Situation) -> PileKey:
    if sit.pile is None:
        return NONE_PILE
    return pile_key(model, sit.pile)


# ---- sweeps ------------------------------------------------------------------------------------------


def _combos(ctx: CheckContext, points: Sequence[str]) -> list[tuple[tuple[str, str], ...]]:
    known = [p for p in points if p in ctx.spec.variation_points]
    choices = [list(ctx.spec.variation_points[p].readings) for p in known]
    return [tuple(zip(known, combo, strict=True)) for combo in itertools.product(*choices)]


def ruleset_with(ctx: CheckContext, combo: Iterable[tuple[str, str]]) -> Ruleset:
    """The checked ruleset with the (point, reading) pairs of `combo` changed (a later pair wins)."""
    return ctx.spec.with_readings(ctx.ruleset, dict(combo))


def run_config(
    ctx: CheckContext,
    ruleset: Ruleset,
    players: int,
    sweep: Sweep,
    readings: tuple[tuple[str, str], ...],
    tally: Tally,
) -> list[Disagreement]:
    if not ruleset.players_min <= players <= ruleset.players_max:
        return []
    model = Model.concrete(ruleset)
    try:
        game = ctx.engine(ruleset, players)
    except Exception as exc:
        return [_crashed(sweep.name, readings, Situation(players, None, False, ()), exc)]
    found: list[Disagreement] = []
    for flag in sweep.flags:
        piles: list[PileKey] = [NONE_PILE] if NONE in sweep.kinds and not flag else []
        piles += [k for k in central_piles(model, players, flag) if k[0] in sweep.kinds]
        for key in piles:
            pile = to_pile(model, key)
            passed_sets: list[tuple[int, ...]] = [()]
            if sweep.name == "turns" and pile is not None:
                if key[1] != 0:
                    continue  # one pile (the lowest single) is enough to see whose turn it is
                passed_sets = _passed_sets(model, players)
            for passed in passed_sets:
                sit = situation_for(ruleset, players, pile, flag, passed, model)
                found.extend(
                    compare_situation(
                        game, model, ruleset, sit, key, sweep.name, tally, readings, covers=sweep.covers
                    )
                )
    return [minimal_situation(game, model, ruleset, d) for d in _smallest_per_kind(found)]


def _passed_sets(model: Model, players: int) -> list[tuple[int, ...]]:
    """Every set of players who already passed, besides the mover (seat 0) and the last to play."""
    last = _seat_before(model, players, 0)
    others = [s for s in range(players) if s not in (0, last)]
    out: list[tuple[int, ...]] = []
    for r in range(len(others) + 1):
        out.extend(itertools.combinations(others, r))
    return out


def _smallest_per_kind(found: list[Disagreement]) -> list[Disagreement]:
    best: dict[str, Disagreement] = {}
    for d in found:
        if d.kind not in best or d.key() < best[d.kind].key():
            best[d.kind] = d
    return list(best.values())


def sweeps_for(ctx: CheckContext) -> list[tuple[Sweep, list[tuple[tuple[str, str], ...]]]]:
    """quick: the checked ruleset alone; ci: every sweep's combinations; deep: with every player count."""
    if ctx.level == "quick":
        only = Sweep("ruleset", (), (2, 4, 5, 6), (False, True), (NONE, SINGLE, SET, RUN))
        return [(only, [()])]
    out = []
    for sweep in SWEEPS:
        if ctx.level == "deep":
            sweep = replace(sweep, players=(2, 3, 4, 5, 6))
        out.append((sweep, _combos(ctx, sweep.points)))
    return out


def _five_player_only(ctx: CheckContext, combo: Iterable[tuple[str, str]]) -> bool:
    base = ctx.ruleset.readings
    return any(p in FIVE_PLAYER_POINTS and base.get(p) != r for p, r in combo)


def require_readings(ctx: CheckContext) -> None:
    """Refuse (UnimplementedReading) a ruleset or spec with a reading the sweeps cannot model."""
    require_with_stated(CONFORMANCE_VOCABULARY, MODEL_VOCABULARY, ctx.ruleset, ctx.spec)


def exhaustive(ctx: CheckContext, tally: Tally) -> list[Disagreement]:
    require_readings(ctx)
    found: list[Disagreement] = []
    for sweep, combos in sweeps_for(ctx):
        for combo in combos:
            ruleset = ruleset_with(ctx, combo)
            for players in sweep.players:
                if players != 5 and _five_player_only(ctx, combo):
                    continue  # those readings only differ with exactly five players
                found.extend(run_config(ctx, ruleset, players, sweep, combo, tally))
    return found


# ---- Hypothesis beyond the exhaustive domain (deep) ------------------------------------------------


def generated(ctx: CheckContext, tally: Tally, examples: int) -> list[Disagreement]:
    """Random full reading combinations, player counts, piles and (smaller) hands, shrunk by Hypothesis."""
    require_readings(ctx)
    points = [p for p in ctx.spec.variation_points]
    found: list[Disagreement] = []

    @hypothesis_settings(examples)
    @hseed(ctx.seed)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        combo = tuple(
            (p, data.draw(st.sampled_from(list(ctx.spec.variation_points[p].readings)))) for p in points
        )
        ruleset = ruleset_with(ctx, combo)
        players = data.draw(st.integers(ruleset.players_min, ruleset.players_max))
        flag = data.draw(st.booleans())
        model = Model.concrete(ruleset)
        piles = [NONE_PILE, *central_piles(model, players, flag)]
        key = data.draw(st.sampled_from(piles))
        pile = to_pile(model, key)
        sit = situation_for(ruleset, players, pile, flag, model=model)
        hand = data.draw(st.lists(st.sampled_from(list(sit.hand)), min_size=4, max_size=20))
        sit = replace(sit, hand=tuple(sorted(_clip(hand, Counter(sit.hand)))))
        game = ctx.engine(ruleset, players)
        tally.generated += 1
        diffs = compare_situation(game, model, ruleset, sit, key, "generated", tally, combo)
        if diffs:
            found.append(min(diffs, key=Disagreement.key))
            raise AssertionError("disagreement")

    with (
        private_hypothesis_home(),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.suppress(AssertionError),
    ):
        run()
    return _smallest_per_kind(found)


def _clip(cards: list[int], limit: Counter[int]) -> list[int]:
    seen: Counter[int] = Counter()
    out = []
    for c in cards:
        if seen[c] < limit[c]:
            seen[c] += 1
            out.append(c)
    return out or [next(iter(limit))]


# ---- the check -------------------------------------------------------------------------------------


def to_failure(ctx: CheckContext, d: Disagreement, count: int, say: CheckWords) -> Failure:
    where = say("leading") if d.situation.pile is None else say("facing", pile=d.situation.pile)
    summary = say(
        "summary",
        players=d.situation.players,
        where=where,
        eight=say("opening_eight") if d.situation.opening_has_eight else "",
        move=d.move,
        what=say(d.kind),
    )
    return Failure(
        check=NAME,
        message=say("failure", summary=summary, sweep=d.sweep, count=count),
        # Every reading, so that the witness replays: the checked ruleset's with the sweep's changes.
        readings=dict(ctx.ruleset.reading_items) | dict(d.readings),
        witness=Witness(
            summary=summary,
            situation=d.situation.to_json() | {"move": d.move.to_json()},
            outcomes={"engine": d.engine, "model": d.model},
            cards=d.situation.cards(),
        ),
    )


def check_conformance(ctx: CheckContext) -> CheckResult:
    start = time.perf_counter()
    tally = Tally()
    found = exhaustive(ctx, tally)
    exhaustive_count = tally.compared
    if ctx.level == "deep":
        found += generated(ctx, tally, examples=300)
    failures: list[Failure] = []
    by_sweep: dict[tuple[str, str], list[Disagreement]] = {}
    for d in found:
        by_sweep.setdefault((d.sweep, d.kind), []).append(d)
    say = ctx.words.check(NAME)
    for (_, _), group in sorted(by_sweep.items()):
        failures.append(to_failure(ctx, min(group, key=Disagreement.key), len(group), say))
    failures.sort(key=lambda f: (f.witness.cards if f.witness else 0, f.message))
    generated_note = say("generated", situations=tally.generated, seed=ctx.seed) if tally.generated else ""
    notes = (say("read", pairs=exhaustive_count, generated=generated_note),)
    return CheckResult(
        name=NAME,
        title=say.title,
        seconds=time.perf_counter() - start,
        exhaustive=exhaustive_count,
        generated=tally.generated,
        failures=tuple(failures),
        notes=notes,
    )
