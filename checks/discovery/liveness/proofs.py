"""The properties proved with Z3: the readings of every point the rules model decides plays with
are variables (one query ranges over every combination), the parameters range within the spec
schema's bounds, and each property is asked as its negation: unsat is the proof, a model the
counterexample."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ....spec import Ruleset, Spec
from ....spec.ruleset import match_round_bound
from ....spec.words_model import CheckWords
from ...oracles.model_terms import FREE_NUMBERS
from ...oracles.z3model import (
    ADD,
    CheckedSolver,
    Model,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
    decision_points,
)
from .outcome import (
    SCHEMA_COPIES,
    SCHEMA_MAX_CARDS,
    SCHEMA_PLAYERS,
    SCHEMA_POINTS,
    SCHEMA_SCORE,
    SCHEMA_SIZE,
    Outcome,
    players_text,
)

# A bit for every seat of the largest table the schema allows: the passed set of a trick.
SEAT_BITS = SCHEMA_PLAYERS[1]

#: The rules each proof states by hand, as the embedded spec states them (the proof's premises are
#: those rules, not compiled from them): under rules stated otherwise -- a house rule's pass that
#: keeps the player in -- the proof says nothing, and the exhaustive searches and the endless-play
#: search speak instead.
HAND_STATED: Mapping[str, tuple[str, ...]] = {
    "trick.pass_leaves_trick": ("action.pass", "trick.end.passes"),
    "trick.ends": ("action.lead", "action.overwrite", "action.add", "action.pass", "trick.end.passes"),
    "round.ends": ("action.lead", "action.pass", "trick.end.passes", "round.end"),
    "match.ends": ("round.scoring", "match.end"),
}


@dataclass
class Symbolic:
    """A rules model over every reading combination and symbolic parameters within schema bounds."""

    model: Model
    solver: CheckedSolver
    max_cards: z3.ArithRef
    combinations: int
    #: Each free point's choice with the index of the checked ruleset's reading: a counterexample
    #: keeps every reading it does not need, so it names only the readings that make it.
    prefer: tuple[tuple[z3.ArithRef, int], ...] = ()


def symbolic(spec: Spec, ruleset: Ruleset, rlimit: int) -> Symbolic:
    free = list(decision_points(spec))
    readings = Readings.symbolic(spec, "live.", fixed=dict(ruleset.reading_items), free=free)
    v = {n: z3.Int(f"live.param.{n}") for n in FREE_NUMBERS}
    params = Params.of(ruleset).with_players(*SCHEMA_PLAYERS).with_free(v)
    maxk = SCHEMA_MAX_CARDS[1]
    # The longest pile any table can hold: a set within the copies, a run within the ranks, plus a play.
    maxn = max(SCHEMA_COPIES[1], len(ruleset.ranks)) + maxk
    model = Model(Z3Alg(), params, readings, maxk, maxn)
    solver = model.solver(rlimit)
    solver.add(*readings.domain())
    solver.add(
        *(
            z3.And(v[c] >= SCHEMA_COPIES[0], v[c] <= SCHEMA_COPIES[1])
            for c in ("copies_small", "copies_large")
        ),
        z3.And(v["max_cards"] >= SCHEMA_MAX_CARDS[0], v["max_cards"] <= SCHEMA_MAX_CARDS[1]),
        *(z3.And(v[m] >= 2, v[m] <= SCHEMA_SIZE) for m in ("min_set", "min_run")),
        # The loader's bounds: a closing size is never below its kind's least size.
        *(z3.And(v[c] >= v["min_set"], v[c] <= SCHEMA_SIZE) for c in ("set_close_small", "set_close_large")),
        z3.And(v["run_close"] >= v["min_run"], v["run_close"] <= SCHEMA_SIZE),
    )
    combos = 1
    for p in free:
        combos *= len(spec.variation_points[p].readings)
    prefer = tuple(
        (choice, readings.names[p].index(ruleset.reading(p)))
        for p, choice in readings.choice.items()
        if not isinstance(choice, str)
    )
    return Symbolic(model, solver, v["max_cards"], combos, prefer)


def _ask(solver: z3.Solver, bad: Any, prefer: Sequence[tuple[z3.ArithRef, int]] = ()) -> z3.ModelRef | None:
    """A counterexample to the property whose negation is `bad`, or None: the property holds.
    Each choice in `prefer` keeps its preferred value where the counterexample allows it."""
    solver.push()
    frames = 1
    solver.add(as_bool(bad))
    try:
        if solver.check() != z3.sat:
            return None
        found = solver.model()
        for choice, value in prefer:
            if found.eval(choice, model_completion=True).as_long() == value:
                continue
            solver.push()
            solver.add(choice == value)
            if solver.check() == z3.sat:
                found = solver.model()
                frames += 1  # kept: popped with the others below
            else:
                solver.pop()
        return found
    finally:
        solver.pop(frames)


def _premises_hold(solver: CheckedSolver, *premises: Any, fresh: bool = True) -> None:
    """Refuse to call a property proved whose premises no case satisfies: an empty domain (a bound
    written wrong) would make every negation unsat, a proof of nothing."""
    # A solver of its own: one that has answered a query once goes on incrementally, which makes
    # the bit-vector and model queries after it many times slower. (`fresh=False` asks `solver`
    # itself: for a query made after the property's own.)
    asked = solver
    if fresh:
        asked = CheckedSolver(solver.rlimit)
        asked.add(*solver.assertions())
    answer = asked.check(*(as_bool(p) for p in premises))
    if answer != z3.sat:
        raise ValueError("liveness: the domain of a property is empty, so its proof would prove nothing")


def _ev(model: z3.ModelRef, x: Any) -> Any:
    v = model.eval(x, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()


def join(items: list[str], say: CheckWords) -> str:
    """`items` listed with ", " and the words' last joint (`and`)."""
    return ", ".join(items[:-1]) + say("and") + items[-1] if len(items) > 1 else "".join(items)


def play_places_cards(spec: Spec, s: Symbolic) -> Outcome:
    m = s.model
    sit = SymSituation.fresh("live.play.", m.maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    domain = [as_bool(c) for c in sit.domain(m)]
    # A lead and an overwrite are held to the turn's limit; how many cards one add may place is
    # a question of its own (add_count), so an add is held to one card at least.
    too_many = z3.And(sit.action != ADD, sit.k > s.max_cards)
    bad = z3.And(*domain, as_bool(out.legal), z3.Or(sit.k < 1, too_many))
    found = _ask(s.solver, bad, s.prefer)
    _premises_hold(s.solver, *domain, as_bool(out.legal), fresh=False)
    counter = None
    if found is not None:
        got = sit.read(found)
        counter = {
            "readings": m.rd.concrete(found),
            "max_cards_per_turn": _ev(found, s.max_cards),
            "action": got["action"],
            "cards": [m.values[i] for i in got["p"]],
        }
    return Outcome(
        "trick.play_places_cards",
        "z3",
        {"combinations": f"{s.combinations:,}", "players": players_text(*SCHEMA_PLAYERS)},
        ("turn.cards", "action.overwrite", "action.add", "lead.no_pass"),
        counter,
        queries=1,
    )


def single_is_legal(spec: Spec, s: Symbolic) -> Outcome:
    m = s.model
    card = z3.Int("live.lead.card")
    players = z3.Int("live.lead.players")
    legal, _, _, _ = m.lead(1, [card] * m.maxk, players)
    premises = (card >= 0, card < m.R, players >= SCHEMA_PLAYERS[0], players <= SCHEMA_PLAYERS[1])
    found = _ask(s.solver, z3.And(*premises, z3.Not(as_bool(legal))), s.prefer)
    _premises_hold(s.solver, *premises, fresh=False)
    counter = None
    if found is not None:
        counter = {"players": _ev(found, players), "lead": [m.values[_ev(found, card)]]}
    return Outcome(
        "lead.single_is_legal",
        "z3",
        {"combinations": f"{s.combinations:,}", "players": players_text(*SCHEMA_PLAYERS)},
        ("lead.no_pass", "pile.single", "turn.cards"),
        counter,
        queries=1,
    )


def _popcount(bits: z3.BitVecRef) -> z3.BitVecRef:
    # In bit-vector arithmetic throughout: a conversion to integers makes the query a hundred times slower.
    return z3.Sum([z3.ZeroExt(SEAT_BITS - 1, z3.Extract(i, i, bits)) for i in range(SEAT_BITS)])


def pass_leaves_trick(rlimit: int) -> Outcome:
    """The engine's pass as the rules state it (action.pass.out): the mover's seat joins the passed
    set. Over every passed set and mover at every table size: one more player has passed."""
    solver = CheckedSolver(rlimit)
    passed = z3.BitVec("live.pass.passed", SEAT_BITS)
    seat = z3.BitVec("live.pass.mover", SEAT_BITS)
    players = z3.BitVec("live.pass.players", SEAT_BITS)
    one = z3.BitVecVal(1, SEAT_BITS)
    table = (one << players) - one
    bit = one << seat
    after = passed | bit
    solver.add(
        z3.UGE(players, SCHEMA_PLAYERS[0]),
        z3.ULE(players, SCHEMA_PLAYERS[1]),
        z3.ULT(seat, players),
        passed & ~table == 0,
        passed & bit == 0,  # the player to move is still in the trick
        # The trick goes on: at least two players (the mover and the last to place) are in it.
        z3.UGE(players, _popcount(passed) + 2),
    )
    _premises_hold(solver)
    solver.add(z3.Or(_popcount(after) != _popcount(passed) + 1, after & bit == 0, after & ~table != 0))
    answer = solver.check()
    counter = None
    if answer == z3.sat:
        found = solver.model()
        counter = {"passed": _ev(found, passed), "mover": _ev(found, seat), "players": _ev(found, players)}
    return Outcome(
        "trick.pass_leaves_trick",
        "z3",
        {"players": players_text(*SCHEMA_PLAYERS)},
        ("action.pass", "action.pass.out", "trick.end.passes"),
        counter,
        queries=1,
    )


def trick_ends(rlimit: int) -> Outcome:
    """A ranking function for a trick: cards in hands plus players in the trick. A placing move takes
    1 to max_cards cards from the mover's hand (trick.play_places_cards), a pass takes the passer out
    (trick.pass_leaves_trick), the leader never passes (lead.no_pass); the trick ends once one
    player is left. Then the rank falls with every move and stays above the players' count."""
    solver = CheckedSolver(rlimit)
    hands, held, active, players, k, max_cards = z3.Ints(
        "live.trick.hands live.trick.held live.trick.active live.trick.players live.trick.k live.trick.max"
    )
    leading, passes = z3.Bools("live.trick.leading live.trick.passes")
    solver.add(
        players >= SCHEMA_PLAYERS[0],
        players <= SCHEMA_PLAYERS[1],
        max_cards >= SCHEMA_MAX_CARDS[0],
        max_cards <= SCHEMA_MAX_CARDS[1],
        active >= 2,
        active <= players,
        held >= 1,  # a round goes on only while every hand holds a card (round.end)
        hands >= held + (players - 1),
        z3.Implies(leading, active == players),
        z3.Implies(leading, z3.Not(passes)),  # lead.no_pass
        z3.Implies(z3.Not(passes), z3.And(k >= 1, k <= max_cards, k <= held)),
    )
    hands2 = z3.If(passes, hands, hands - k)
    active2 = z3.If(passes, active - 1, active)
    rank, rank2 = hands + active, hands2 + active2
    ended = active2 == 1
    # The rank falls, and a trick that goes on still has a player to move besides the last to place.
    _premises_hold(solver, passes)
    _premises_hold(solver, z3.Not(passes))
    solver.add(z3.Or(rank2 >= rank, hands2 < 0, z3.And(z3.Not(ended), active2 < 2)))
    answer = solver.check()
    counter = None
    if answer == z3.sat:
        found = solver.model()
        counter = {"cards_in_hands": _ev(found, hands), "in_trick": _ev(found, active)}
    return Outcome(
        "trick.ends",
        "z3",
        {"players": players_text(*SCHEMA_PLAYERS)},
        ("action.pass.out", "trick.end.passes", "lead.no_pass", "turn.cards"),
        counter,
        queries=1,
    )


def round_ends(rlimit: int) -> Outcome:
    """Each trick places at least one card (its lead) and none goes back: the cards in hands fall by
    at least one per trick, so a round of H cards dealt has at most H tricks."""
    solver = CheckedSolver(rlimit)
    before, led, later, after = z3.Ints("live.round.before live.round.led live.round.later live.round.after")
    solver.add(before >= 1, led >= 1, led <= before, later >= 0, after == before - led - later, after >= 0)
    _premises_hold(solver)
    solver.add(after >= before)
    answer = solver.check()
    counter = {"cards_before": _ev(solver.model(), before)} if answer == z3.sat else None
    return Outcome("round.ends", "z3", {}, ("round.end", "lead.no_pass", "game.goal"), counter, queries=1)


def round_limit(players: int, score: Any, p_min: int) -> Any:
    """The round by which a match of `players` has ended when every round adds at least p_min to all
    but one player's score and the match ends at `score` points (a Z3 term in `score`; Z3's integer
    division, a floor here). The match proof proves it; the bound it reports is this term at the
    spec's own match_end_score, never a number computed elsewhere."""
    return (players * (score - 1)) / ((players - 1) * p_min) + 1


def match_ends(ruleset: Ruleset, rlimit: int, say: CheckWords) -> Outcome:
    """Two lemmas and the bound. Over every points table the schema allows with every rank worth at
    least 1: a hand of one card scores at least p_min, and a card more never lowers a score (so
    every hand that is not empty scores at least p_min). Then, per player count, with match_end_score
    symbolic: r rounds that each add p_min to all but one player, with every score still below M,
    mean r < round_limit. The rounds the scope names are round_limit at the spec's M, for its player
    counts: what was proved. They must not exceed match_round_bound (spec/ruleset.py), the bound the
    loader and the simulations take as proved."""
    solver = CheckedSolver(rlimit)
    ranks = len(ruleset.ranks)
    table = [z3.Int(f"live.match.points.{i}") for i in range(ranks)]
    p_min = z3.Int("live.match.p_min")
    card = z3.Int("live.match.card")
    partial = z3.Int("live.match.partial")
    solver.add(*(z3.And(t >= 1, t <= SCHEMA_POINTS[1]) for t in table))
    solver.add(*(p_min <= t for t in table), z3.Or([p_min == t for t in table]))
    solver.add(card >= 0, card < ranks)
    worth = Z3Alg().lookup(table, card)
    queries = 2
    _premises_hold(solver, partial >= p_min)
    lemma = solver.check(z3.Or(worth < p_min, z3.And(partial >= p_min, partial + worth < p_min)))
    counter: dict[str, Any] | None = None
    if lemma == z3.sat:
        counter = {"lemma": say("hand_lemma")}
    lowest = min(ruleset.points.values())
    proved: dict[int, int] = {}
    if lowest <= 0:
        zero = sorted(r for r, p in ruleset.points.items() if p == 0)
        counter = {"zero_ranks": zero}
    else:
        for n in range(SCHEMA_PLAYERS[0], SCHEMA_PLAYERS[1] + 1):
            bound = CheckedSolver(rlimit)
            r, m_score = z3.Ints(f"live.match.rounds.{n} live.match.score.{n}")
            scores = [z3.Int(f"live.match.s{n}.{i}") for i in range(n)]
            limit = round_limit(n, m_score, lowest)
            bound.add(m_score >= SCHEMA_SCORE[0], m_score <= SCHEMA_SCORE[1], r >= 0)
            bound.add(*(z3.And(s_ >= 0, s_ <= m_score - 1) for s_ in scores))
            bound.add(z3.Sum(scores) >= r * ((n - 1) * lowest))
            _premises_hold(bound)
            bound.add(r >= limit)
            queries += 1
            if bound.check() == z3.sat:
                counter = {"players": n, "rounds": _ev(bound.model(), r)}
                break
            at_score = z3.substitute(limit, (m_score, z3.IntVal(ruleset.match_end_score)))
            proved[n] = z3.simplify(at_score).as_long()
    counts = range(ruleset.players_min, ruleset.players_max + 1)
    if counter is None:
        for n in counts:
            relied = match_round_bound(ruleset.points.values(), ruleset.match_end_score, n)
            if relied is None or proved[n] > relied:
                raise ValueError(
                    f"liveness: the match proof bounds a match of {n} players by {proved[n]} rounds, but "
                    f"spec/ruleset.py's match_round_bound, taken as proved, says {relied}"
                )
    return Outcome(
        "match.ends",
        "z3",
        {
            "players": players_text(*SCHEMA_PLAYERS),
            "score": str(ruleset.match_end_score),
            "p_min": say("point" if lowest == 1 else "points", points=lowest),
            # The bound the Z3 query proved, at the spec's own score, for its player counts.
            "rounds": say(
                "rounds",
                rounds=join([str(proved[n]) for n in counts], say),
                players=join([str(n) for n in counts], say),
            )
            if counter is None
            else "",
        },
        ("round.scoring", "match.end", "deck.points", "round.end"),
        counter,
        queries=queries,
    )
