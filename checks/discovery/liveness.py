"""Liveness and well-definedness: every trick, round and match ends, and a player to move always has
a legal move, for every reading combination and every parameter table a spec may give.

Each property says how it is known (`ProvedProperty.method`):

- "z3": the domain is symbolic. The readings of every point the rules model decides plays with are
  Z3 variables (one query ranges over every combination), and the parameters are variables within
  the spec schema's bounds (max_cards_per_turn 1-6, copies 1-7, set and run sizes up to 100, points
  0-1,000,000, players 2-12); only the rank list is the spec's own. A property is asked as its
  negation: unsat is the proof, a model the counterexample.
- "exhaustive": a small domain is searched whole: every player count and reading of a size
  question, every state reachable by legal play from small deals, every turn order up to 12 seats.
  The scope says the bounds.

The termination argument (spec/model.py, match_round_bound) rests on these facts: a trick ends
because cards in hands plus players still in the trick fall with every move (a placing move places
a card, a pass takes the passer out, the leader never passes); a round ends because each trick places
at least one card; a match ends because every player but the one who went out holds a card and
scores at least p_min points. Where p_min is 0 the last fails: the smallest endless match (a round
from a Position, played by legal moves, that leaves every score as it was) is searched with the
engine and reported as a liveness finding with that witness.

A property that fails for some reading combination or table is a liveness finding with its smallest
counterexample. The words (statements, scopes, titles) are the words file's `liveness` section.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import networkx as nx  # type: ignore[import-untyped]
import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...engine import PASS, Move, Position, State
from ...engine.engines import Engine, make_engine, rules_apart
from ...engine.state import RoundEnd, TrickEnd
from ...spec import Ruleset, Spec, SpecError
from ...spec.model import match_round_bound
from ...spec.words import words_of
from ...spec.words_model import LivenessProperty, LivenessWords, Words
from ..findings import (
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
from ..oracles.z3model import (
    ADD,
    EIGHT,
    LEAD,
    MODEL_VOCABULARY,
    NONE,
    CheckedSolver,
    Model,
    ModelLimit,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
    decision_points,
    memo,
    spec_digest,
)
from ..play.graphs import HAND_PICKED, PLAY_POINTS, Deal, seeded_deals, variants

NAME = "discovery.liveness"
TITLE = "Every trick, round and match ends; whoever moves can move"
MATCH_END_TOPIC = "liveness.match_end"

# The spec schema's bounds (spec/spec.schema.json) the symbolic parameters range over.
SCHEMA_PLAYERS = (2, 12)
SCHEMA_MAX_CARDS = (1, 6)
SCHEMA_COPIES = (1, 7)
SCHEMA_SIZE = 100
SCHEMA_POINTS = (0, 1_000_000)
SCHEMA_SCORE = (1, 1_000_000)
SEAT_BITS = SCHEMA_PLAYERS[1]

Method = Literal["z3", "exhaustive"]


@dataclass(frozen=True)
class Outcome:
    """One property's result: proved (no counterexample) or not, how, and over what."""

    name: str
    method: Method
    blanks: Mapping[str, str]  # the scope's blanks
    clauses: tuple[str, ...]
    counterexample: Mapping[str, Any] | None = None
    position: Position | None = None
    queries: int = 0  # Z3 queries asked
    cases: int = 0  # cases or states examined
    #: Why the property was not asked (its proof states rules these rules state otherwise), or None.
    unasked: str | None = None

    @property
    def proved(self) -> bool:
        return self.counterexample is None and self.unasked is None


@dataclass(frozen=True)
class EndlessMatch:
    """The smallest endless match found by the engine: a round from `position` (its moves included)
    that leaves every score unchanged."""

    position: Position
    zero_ranks: tuple[int, ...]
    penalties: tuple[int, ...]


@dataclass(frozen=True)
class Analysis:
    outcomes: tuple[Outcome, ...]
    endless: EndlessMatch | None


# ---- Z3: symbolic readings and parameters ----------------------------------------------------------


@dataclass
class Symbolic:
    """A rules model over every reading combination and symbolic parameters within schema bounds."""

    model: Model
    solver: CheckedSolver
    max_cards: z3.ArithRef
    combinations: int


def _symbolic(spec: Spec, ruleset: Ruleset, rlimit: int) -> Symbolic:
    free = list(decision_points(spec))
    readings = Readings.symbolic(spec, "live.", fixed=dict(ruleset.reading_items), free=free)
    v = {n: z3.Int(f"live.param.{n}") for n in ("cs", "cl", "ss", "sl", "rc", "mc", "ms", "mr")}
    params = (
        Params.of(ruleset)
        .with_players(*SCHEMA_PLAYERS)
        .with_values(
            copies={"small_game": v["cs"], "large_game": v["cl"]},
            set_closing_size={"small_game": v["ss"], "large_game": v["sl"]},
            run_closing_size=v["rc"],
            max_cards_per_turn=v["mc"],
            min_set_size=v["ms"],
            min_run_size=v["mr"],
        )
    )
    maxk = SCHEMA_MAX_CARDS[1]
    # The longest pile any table can hold: a set within the copies, a run within the ranks, plus a play.
    maxn = max(SCHEMA_COPIES[1], len(ruleset.ranks)) + maxk
    model = Model(Z3Alg(), params, readings, maxk, maxn)
    solver = model.solver(rlimit)
    solver.add(*readings.domain())
    solver.add(
        *(z3.And(v[c] >= SCHEMA_COPIES[0], v[c] <= SCHEMA_COPIES[1]) for c in ("cs", "cl")),
        z3.And(v["mc"] >= SCHEMA_MAX_CARDS[0], v["mc"] <= SCHEMA_MAX_CARDS[1]),
        *(z3.And(v[m] >= 2, v[m] <= SCHEMA_SIZE) for m in ("ms", "mr")),
        # The loader's bounds: a closing size is never below its kind's least size.
        *(z3.And(v[c] >= v["ms"], v[c] <= SCHEMA_SIZE) for c in ("ss", "sl")),
        z3.And(v["rc"] >= v["mr"], v["rc"] <= SCHEMA_SIZE),
    )
    combos = 1
    for p in free:
        combos *= len(spec.variation_points[p].readings)
    return Symbolic(model, solver, v["mc"], combos)


def _ask(solver: z3.Solver, bad: Any) -> z3.ModelRef | None:
    """A counterexample to the property whose negation is `bad`, or None: the property holds."""
    solver.push()
    solver.add(as_bool(bad))
    try:
        return solver.model() if solver.check() == z3.sat else None
    finally:
        solver.pop()


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


def _players_text(low: int, high: int) -> str:
    return f"{low} to {high}" if low != high else str(low)


def _join(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _play_places_cards(spec: Spec, s: Symbolic) -> Outcome:
    m = s.model
    sit = SymSituation.fresh("live.play.", m.maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    domain = [as_bool(c) for c in sit.domain(m)]
    bad = z3.And(*domain, as_bool(out.legal), z3.Or(sit.k < 1, sit.k > s.max_cards))
    found = _ask(s.solver, bad)
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
        {"combinations": f"{s.combinations:,}", "players": _players_text(*SCHEMA_PLAYERS)},
        ("turn.cards", "action.overwrite", "action.add", "lead.no_pass"),
        counter,
        queries=1,
    )


def _single_is_legal(spec: Spec, s: Symbolic) -> Outcome:
    m = s.model
    card = z3.Int("live.lead.card")
    players = z3.Int("live.lead.players")
    legal, _, _, _ = m.lead(1, [card] * m.maxk, players)
    premises = (card >= 0, card < m.R, players >= SCHEMA_PLAYERS[0], players <= SCHEMA_PLAYERS[1])
    found = _ask(s.solver, z3.And(*premises, z3.Not(as_bool(legal))))
    _premises_hold(s.solver, *premises, fresh=False)
    counter = None
    if found is not None:
        counter = {"players": _ev(found, players), "lead": [m.values[_ev(found, card)]]}
    return Outcome(
        "lead.single_is_legal",
        "z3",
        {"combinations": f"{s.combinations:,}", "players": _players_text(*SCHEMA_PLAYERS)},
        ("lead.no_pass", "pile.single", "turn.cards"),
        counter,
        queries=1,
    )


def _popcount(bits: z3.BitVecRef) -> z3.BitVecRef:
    # In bit-vector arithmetic throughout: a conversion to integers makes the query a hundred times slower.
    return z3.Sum([z3.ZeroExt(SEAT_BITS - 1, z3.Extract(i, i, bits)) for i in range(SEAT_BITS)])


def _pass_leaves_trick(rlimit: int) -> Outcome:
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
        {"players": _players_text(*SCHEMA_PLAYERS)},
        ("action.pass", "action.pass.out", "trick.end.passes"),
        counter,
        queries=1,
    )


def _trick_ends(rlimit: int) -> Outcome:
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
        {"players": _players_text(*SCHEMA_PLAYERS)},
        ("action.pass.out", "trick.end.passes", "lead.no_pass", "turn.cards"),
        counter,
        queries=1,
    )


def _round_ends(rlimit: int) -> Outcome:
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


def _match_ends(ruleset: Ruleset, rlimit: int) -> Outcome:
    """Two lemmas and the bound. Over every points table the schema allows with every rank worth at
    least 1: a hand of one card scores at least p_min, and a card more never lowers a score (so
    every hand that is not empty scores at least p_min). Then, per player count, with match_end_score
    symbolic: r rounds that each add p_min to all but one player, with every score still below M,
    mean r < round_limit. The rounds the scope names are round_limit at the spec's M, for its player
    counts: what was proved. They must not exceed match_round_bound (spec/model.py), the bound the
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
        counter = {"lemma": "a non-empty hand scores at least p_min"}
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
                    f"spec/model.py's match_round_bound, taken as proved, says {relied}"
                )
    return Outcome(
        "match.ends",
        "z3",
        {
            "players": _players_text(*SCHEMA_PLAYERS),
            "score": str(ruleset.match_end_score),
            "p_min": f"{lowest} point" if lowest == 1 else f"{lowest} points",
            # The bound the Z3 query proved, at the spec's own score, for its player counts.
            "rounds": _join([str(proved[n]) for n in counts])
            + " rounds with "
            + _join([str(n) for n in counts])
            + " players"
            if counter is None
            else "",
        },
        ("round.scoring", "match.end", "deck.points", "round.end"),
        counter,
        queries=queries,
    )


# ---- exhaustive: small domains ---------------------------------------------------------------------


def _turn_order(spec: Spec, ruleset: Ruleset) -> Outcome:
    """The engine's next_seat, for every turn_order reading and table size up to the schema's 12."""
    wide = replace(ruleset, players_min=SCHEMA_PLAYERS[0], players_max=SCHEMA_PLAYERS[1])
    readings = spec.variation_points["turn_order"].readings if "turn_order" in spec.variation_points else {}
    cases = 0
    counter: dict[str, Any] | None = None
    for reading in readings or (ruleset.reading("turn_order"),):
        rs = replace(wide, reading_items=tuple(sorted({**wide.readings, "turn_order": reading}.items())))
        for n in range(SCHEMA_PLAYERS[0], SCHEMA_PLAYERS[1] + 1):
            game = make_engine(rs, n)
            for seat in range(n):
                cases += 1
                seen = [seat]
                while len(seen) <= n:
                    nxt = game.next_seat(seen[-1])
                    if nxt == seat or not 0 <= nxt < n:
                        break
                    seen.append(nxt)
                if sorted(seen) != list(range(n)) and counter is None:
                    counter = {"turn_order": reading, "players": n, "from_seat": seat, "visits": seen}
    return Outcome(
        "turn.reaches_every_seat",
        "exhaustive",
        {"players": _players_text(*SCHEMA_PLAYERS)},
        ("action.choice", "action.pass.out"),
        counter,
        cases=cases,
    )


def _combos(spec: Spec, points: tuple[str, ...]) -> Iterator[dict[str, str]]:
    present = [p for p in points if p in spec.variation_points]
    for values in itertools.product(*(spec.variation_points[p].playable for p in present)):
        yield dict(zip(present, values, strict=True))


def _deal(spec: Spec, ruleset: Ruleset) -> Outcome:
    cases = 0
    counter: dict[str, Any] | None = None
    for n in range(ruleset.players_min, ruleset.players_max + 1):
        for combo in _combos(spec, ("deal", "five_player_copies")):
            rs = spec.with_readings(ruleset, combo)
            cases += 1
            # The deal as the rules state it (the `deck` and `deal` rules), and as the engine makes
            # it (Ruleset.hand_size): a deal it refuses is one that cannot give every player a card.
            model = Model.concrete(rs)
            deck = int(model.copies(n)) * model.R
            try:
                size: int | None = int(model.ask("deal", "hand_size", n, deck_size=deck))
            except ModelLimit:  # a table without an entry for this player count
                size = None
            try:
                rs.hand_size(n)
                refused = False
            except SpecError:
                refused = True
            fits = size is not None and size >= 1 and size * n <= deck
            if (refused or not fits) and counter is None:
                counter = {
                    "players": n,
                    "readings": combo,
                    "deck": deck,
                    "hand_size": size,
                    "cards_needed": size * n if size is not None else None,
                }
    return Outcome(
        "deal.every_player_gets_a_card",
        "exhaustive",
        {"cases": f"{cases:,}", "players": _players_text(ruleset.players_min, ruleset.players_max)},
        ("game.players", "deck.copies"),
        counter,
        cases=cases,
    )


Pile = tuple[int, int, int]  # (kind, low, size) as the rules model holds it


def _grow(
    model: Model, players: int, starts: list[tuple[int, list[int]]], adds: Callable[[Pile], list[list[int]]]
) -> tuple[bool, int, int]:
    """Breadth first over the central piles legal play makes from the leads `starts` (k, cards) by
    adds: (whether one reaches its closing size, the largest pile seen, piles visited)."""
    none: Pile = (NONE, 0, 0)
    queue: deque[tuple[Pile, bool]] = deque()
    seen: set[tuple[Pile, bool]] = set()
    largest = 0

    def visit(out: Any, opening8: bool) -> bool:
        nonlocal largest
        if not out.legal:
            return False
        largest = max(largest, out.size)
        if out.set_closed or out.run_closed:
            return True
        if out.rule_of_8:
            return False  # the trick ends here, short of the closing size
        key = ((out.kind, out.low, out.size), opening8)
        if key not in seen:
            seen.add(key)
            queue.append(key)
        return False

    for k, cards in starts:
        opening8 = any(model.values[c] == EIGHT for c in cards)
        if visit(model.decide(LEAD, none, k, _padded(model, cards), players, False), opening8):
            return True, largest, len(seen)
    while queue:
        pile, opening8 = queue.popleft()
        for cards in adds(pile):
            if visit(model.decide(ADD, pile, len(cards), _padded(model, cards), players, opening8), opening8):
                return True, largest, len(seen)
    return False, largest, len(seen)


def _padded(model: Model, cards: list[int]) -> list[int]:
    """The model's shape of a play: maxk positions, the unused ones repeating the last card."""
    return cards + [cards[-1]] * (model.maxk - len(cards))


def _set_reachable(spec: Spec, ruleset: Ruleset) -> Outcome:
    points = ("five_player_copies", "five_player_set_close", "add_to_single", "add_past_closing")
    cases = 0
    counter: dict[str, Any] | None = None
    # One rank stands for all (sets of every rank grow alike); not the 8, whose adds may end the trick.
    rank = next(i for i, r in enumerate(ruleset.ranks) if r != EIGHT)
    for n in range(ruleset.players_min, ruleset.players_max + 1):
        for combo in _combos(spec, points):
            rs = spec.with_readings(ruleset, combo)
            model = Model.concrete(rs)
            maxk = model.maxk
            starts = [(k, [rank] * k) for k in range(1, maxk + 1)]

            def adds(pile: Pile, maxk: int = maxk) -> list[list[int]]:
                return [[pile[1]] * k for k in range(1, maxk + 1)]

            ok, largest, visited = _grow(model, n, starts, adds)
            cases += 1 + visited
            if not ok and counter is None:
                counter = {
                    "players": n,
                    "readings": combo,
                    "set_closing_size": rs.set_closing_size(n),
                    "copies": rs.copies(n),
                    "largest_pile": largest,
                }
    return Outcome(
        "close.set_reachable",
        "exhaustive",
        {"cases": f"{cases:,}", "players": _players_text(ruleset.players_min, ruleset.players_max)},
        ("trick.end.set", "deck.copies", "action.add"),
        counter,
        cases=cases,
    )


def _run_reachable(spec: Spec, ruleset: Ruleset) -> Outcome:
    points = ("run_gaps", "run_wrap", "add_run_ends", "add_to_single", "add_past_closing")
    cases = 0
    counter: dict[str, Any] | None = None
    players = ruleset.players_min
    for combo in _combos(spec, points):
        rs = spec.with_readings(ruleset, combo)
        model = Model.concrete(rs)
        maxk, r = model.maxk, model.R

        def adds(pile: Pile, maxk: int = maxk, r: int = r) -> list[list[int]]:
            _, low, size = pile
            out = []
            for k in range(1, maxk + 1):
                for below in range(k + 1):
                    cards = [(low - below + t) % r for t in range(below)]
                    cards += [(low + size + t) % r for t in range(k - below)]
                    if len(set(cards)) == k:
                        out.append(sorted(cards))
            return out

        starts = [
            (k, sorted((low + t) % r for t in range(k)))
            for low in range(r)
            for k in range(1, min(maxk, r) + 1)
        ]
        ok, largest, visited = _grow(model, players, starts, adds)
        cases += 1 + visited
        if not ok and counter is None:
            counter = {"readings": combo, "run_closing_size": rs.run_closing_size, "longest_run": largest}
    return Outcome(
        "close.run_reachable",
        "exhaustive",
        {"cases": f"{cases:,}"},
        ("trick.end.run", "pile.run", "deck.ranks", "action.add"),
        counter,
        cases=cases,
    )


# ---- exhaustive: every state of small deals --------------------------------------------------------

#: Most states explored per deal: far above what the small deals reach (a few thousand).
STATE_LIMIT = 500_000
STATE_PROPERTIES = {
    "state.has_legal_move": ("lead.no_pass", "action.pass", "action.choice"),
    "trick.rank_falls": ("action.pass.out", "trick.end.passes", "turn.cards"),
    "trick.winner_at_table": ("trick.winner",),
    "round.one_goes_out": ("round.end", "round.scoring"),
    "play.no_endless_trick": ("trick.end.passes", "action.pass", "action.pass.out"),
}


@dataclass(frozen=True)
class StatePlan:
    core_only: bool  # the hand-picked deals marked core only
    seeded: int  # random small deals besides
    all_pairs: bool  # every pair of reading changes besides one at a time
    flips: bool = True  # the ruleset's one-reading changes besides the ruleset itself


STATE_PLANS: dict[Level, StatePlan] = {
    "quick": StatePlan(core_only=True, seeded=0, all_pairs=False, flips=False),
    "ci": StatePlan(core_only=True, seeded=0, all_pairs=False),
    "deep": StatePlan(core_only=False, seeded=12, all_pairs=True),
}


def _state_rulesets(spec: Spec, ruleset: Ruleset, plan: StatePlan) -> list[Ruleset]:
    base = variants(spec, ruleset, PLAY_POINTS, all_combinations=False)
    if not plan.flips:
        return base[:1]
    if not plan.all_pairs:
        return base
    out, seen = list(base), {rs.reading_items for rs in base}
    for first in base[1:]:
        for rs in variants(spec, first, PLAY_POINTS, all_combinations=False)[1:]:
            if rs.reading_items not in seen:
                seen.add(rs.reading_items)
                out.append(rs)
    return out


Problem = tuple[str, dict[str, Any]]  # the property a state or step breaks, and the facts that show it


def _state_problems(game: Engine, state: State) -> Iterator[Problem]:
    if state.phase != "play":
        return
    mover = state.to_move
    facts: dict[str, Any] = {"to_move": mover, "leading": state.leading}
    if not 0 <= mover < game.players:
        yield "state.has_legal_move", {**facts, "seat_at_table": False}
        return
    moves = game.legal_moves(state)
    facts |= {
        "cards_in_hand": _held(game, state.hands[mover]),
        "passed": state.has_passed(mover),
        "legal_moves": len(moves),
        "may_pass": PASS in moves,
    }
    if not facts["cards_in_hand"] or facts["passed"] or not moves or facts["may_pass"] == state.leading:
        yield "state.has_legal_move", facts


_HELD: dict[tuple[tuple[int, ...], int], int] = {}


def _held(game: Engine, hand: int) -> int:
    """The cards in a packed hand, remembered: the search asks it for every hand of every step."""
    key = (game.ruleset.ranks, hand)  # the packing depends on the ranks alone
    got = _HELD.get(key)
    if got is None:
        got = _HELD[key] = len(game.codec.cards(hand))
    return got


def _in_trick(state: State) -> int:
    """The players still in the trick: the ranking function's second part (cards in hands the first)."""
    return state.players - state.passed.bit_count()


def _step_problems(
    game: Engine, state: State, move: Move, after: State, events: tuple[Any, ...]
) -> Iterator[Problem]:
    mover = state.to_move
    placed = move.action != "pass"
    last = mover if placed else state.last_player
    ended = False
    for e in events:
        if isinstance(e, TrickEnd):
            ended = True
            if not 0 <= e.winner < game.players or e.winner != last:
                yield "trick.winner_at_table", {"winner": e.winner, "last_to_place": last}
        if isinstance(e, RoundEnd):
            ended = True
            empty = [p for p, h in enumerate(after.hands) if not h]
            if empty != [e.went_out] or e.went_out != mover:
                yield "round.one_goes_out", {"empty_hands": empty, "went_out": e.went_out, "mover": mover}
    held = [_held(game, h) for h in state.hands]
    held_after = [_held(game, h) for h in after.hands]
    took = held[mover] - held_after[mover]
    if (placed and not 1 <= took <= game.max_cards) or (not placed and took):
        yield "state.has_legal_move", {"move": str(move), "cards_taken": took, "max": game.max_cards}
    if not ended:
        before = sum(held) + _in_trick(state)
        now = sum(held_after) + _in_trick(after)
        if now >= before:
            yield "trick.rank_falls", {"move": str(move), "rank_before": before, "rank_after": now}


def _explore(
    game: Engine, start: State, limit: int, *, measured: bool = True
) -> tuple[int, tuple[str, dict[str, Any], list[Move]] | None]:
    """Every state reachable from `start` (at most `limit`): how many, and the first problem found
    (breadth first, so with the shortest path to it). `measured`: the rules are the printed ones
    whose trick-ending measure (trick.rank_falls) every move must lower; under rules stated
    otherwise the measure is not asked, and the search looks for play that comes back to a state
    it has been in instead (a cycle of the state graph: play that may go on for ever)."""
    seen: dict[tuple[object, ...], list[Move]] = {_key(start, measured): []}
    graph: nx.DiGraph[tuple[object, ...]] = nx.DiGraph()
    moves_of: dict[tuple[tuple[object, ...], tuple[object, ...]], Move] = {}
    queue: deque[State] = deque([start])
    count = 0
    while queue and count < limit:
        state = queue.popleft()
        count += 1
        here = _key(state, measured)
        path = seen[here]
        for name, facts in _state_problems(game, state):
            return count, (name, facts, path)
        if state.phase != "play":
            continue
        for move in game.legal_moves(state):
            after, events = game.apply(state, move)
            for name, facts in _step_problems(game, state, move, after, events):
                if name == "trick.rank_falls" and not measured:
                    continue
                return count, (name, facts, [*path, move])
            key = _key(after, measured)
            graph.add_edge(here, key)
            moves_of.setdefault((here, key), move)
            if key not in seen:
                seen[key] = [*path, move]
                queue.append(after)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return count, None
    first = cycle[0][0]
    around = [moves_of[(a, b)] for a, b in cycle]
    facts = {"repeats_after": [str(m) for m in around]}
    return count, ("play.no_endless_trick", facts, [*seen[first], *around])


def _key(s: State, measured: bool = True) -> tuple[object, ...]:
    # States that differ only in the trick's record play on alike under the printed rules (the
    # state keeps who placed last); rules stated otherwise may read the passes in a row from it.
    key = (s.hands, s.to_move, s.pile, s.last_player, s.passed, s.opening_has_eight, s.phase, s.scores)
    if measured:
        return key
    # Counted up to one more than the table: a rule that counts further (passes_in_a_row == 2 *
    # players) is not told apart here, and a cycle the search reports may then be a long trick.
    in_a_row = 0
    for play in reversed(s.trick):
        if play.move.action != "pass" or in_a_row > s.players:
            break
        in_a_row += 1
    return (*key, in_a_row)


def _deals(spec: Spec, ruleset: Ruleset, plan: StatePlan, seed: int) -> list[Deal]:
    deals = [d for d in HAND_PICKED if d.core or not plan.core_only]
    deals += seeded_deals(seed, plan.seeded, ruleset.ranks)
    ranks = set(ruleset.ranks)
    players = range(ruleset.players_min, ruleset.players_max + 1)
    fit = [d for d in deals if all(c in ranks for h in d.hands for c in h) and len(d.hands) in players]
    if len(fit) < FEWEST_DEALS:
        # A house spec whose ranks or player counts the hand-picked deals miss: deals of its own.
        fit += _own_deals(ruleset, seed, FEWEST_DEALS - len(fit))
    return fit


FEWEST_DEALS = 3


def _own_deals(ruleset: Ruleset, seed: int, count: int) -> list[Deal]:
    """`count` deals of two or three cards each at the spec's fewest players, from its own ranks."""
    players = ruleset.players_min
    deck = [r for r in ruleset.ranks for _ in range(min(ruleset.copies_small, ruleset.copies_large))]
    out = []
    for i in range(count):
        rng = random.Random(f"five35-liveness:{seed}:{i}")
        cards = list(deck)
        rng.shuffle(cards)
        size = max(1, min(2 + i % 2, len(cards) // players))
        hands = tuple(tuple(sorted(cards[p * size : (p + 1) * size])) for p in range(players))
        out.append(Deal(f"own {seed}:{i}", hands))
    return out


def _states(
    spec: Spec,
    ruleset: Ruleset,
    level: Level,
    seed: int,
    engine: Callable[[Ruleset, int], Engine] = make_engine,
) -> list[Outcome]:
    """The state properties over every state the small deals reach, played by `engine` (the check
    plays the reference; the tests plant bugs)."""
    plan = STATE_PLANS[level]
    rulesets = _state_rulesets(spec, ruleset, plan)
    deals = _deals(spec, ruleset, plan, seed)
    measured = not _stated_otherwise(ruleset, HAND_STATED["trick.ends"])
    states = 0
    failed: dict[str, tuple[Mapping[str, Any], Position]] = {}
    explored_deals: set[str] = set()
    for rs in rulesets:
        for deal in deals:
            n = len(deal.hands)
            if not rs.players_min <= n <= rs.players_max:
                continue
            game = engine(rs, n)
            try:
                start = game.start_round([list(h) for h in deal.hands], deal.leader, None)
            except (ValueError, SpecError):
                continue  # the deck under this reading cannot hold the deal (five 3s with 4 copies)
            explored_deals.add(deal.name)
            count, problem = _explore(game, start, limit=STATE_LIMIT, measured=measured)
            states += count
            if problem is not None and problem[0] not in failed:
                name, facts, path = problem
                changed = {p: r for p, r in rs.reading_items if ruleset.reading(p) != r}
                position = Position(hands=deal.hands, leader=deal.leader, moves=tuple(path))
                failed[name] = (
                    {"readings": changed, **facts, "moves": [str(m) for m in path]},
                    position,
                )
    if not states:
        raise ValueError("liveness: no small deal could be played, so no state property was checked")
    blanks = {"states": f"{states:,}", "deals": str(len(explored_deals)), "rulesets": str(len(rulesets))}
    out = []
    for name, clauses in STATE_PROPERTIES.items():
        got = failed.get(name)
        if name == "trick.rank_falls" and not measured:
            why = "the measure is the printed pass rules', and these rules state them otherwise"
            out.append(Outcome(name, "exhaustive", blanks, clauses, unasked=why))
            continue
        out.append(
            Outcome(
                name,
                "exhaustive",
                blanks,
                clauses,
                got[0] if got else None,
                got[1] if got else None,
                cases=states if name == "state.has_legal_move" else 0,
            )
        )
    return out


# ---- the endless match -----------------------------------------------------------------------------


#: The endless-match search's budget: start positions tried, and states played from them in all.
ENDLESS_POSITIONS = 20_000
ENDLESS_STATES = 200_000


def endless_match(ruleset: Ruleset, *, most_cards: int = 4) -> EndlessMatch | None:
    """The smallest round, by cards dealt and then in rank order, at the fewest players, that legal
    play ends with every penalty 0: the match can repeat it forever. Searched with the engine over
    the deals of up to `most_cards` cards per player, within ENDLESS_POSITIONS start positions and
    ENDLESS_STATES states; None when none is found there (too few 0-point cards to leave one in
    every hand but the winner's, say)."""
    players = ruleset.players_min
    game = make_engine(ruleset, players)
    zero = tuple(sorted(r for r, p in ruleset.points.items() if p == 0))
    if not zero:
        return None
    score = max(0, ruleset.match_end_score - 1)
    scores = (score,) * players
    copies = game.copies
    budget = [ENDLESS_POSITIONS, ENDLESS_STATES]
    for total in range(players, players * most_cards + 1):
        for sizes in _compositions(total, players, most_cards):
            for hands in _hands(ruleset.ranks, sizes, copies):
                for leader in range(players):
                    budget[0] -= 1
                    if budget[0] < 0 or budget[1] < 0:
                        return None
                    state = game.start_round([list(h) for h in hands], leader, scores)
                    found = _zero_round(game, state, budget)
                    if found is not None:
                        moves, penalties = found
                        position = Position(hands=hands, leader=leader, scores=scores, moves=tuple(moves))
                        return EndlessMatch(position, zero, penalties)
    return None


def _compositions(total: int, parts: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every way to split `total` cards into `parts` hands of 1 to `most` cards, in order."""
    if parts == 1:
        if 1 <= total <= most:
            yield (total,)
        return
    for first in range(1, min(most, total - parts + 1) + 1):
        for rest in _compositions(total - first, parts - 1, most):
            yield (first, *rest)


def _hands(
    ranks: tuple[int, ...], sizes: tuple[int, ...], copies: int
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every deal of hands of these sizes the deck can hold, in rank order (lazily)."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations_with_replacement(ranks, sizes[0]):
        for rest in _hands(ranks, sizes[1:], copies):
            held: dict[int, int] = {}
            for c in (*first, *(c for h in rest for c in h)):
                held[c] = held.get(c, 0) + 1
            if all(v <= copies for v in held.values()):
                yield (first, *rest)


def _zero_round(game: Engine, start: State, budget: list[int]) -> tuple[list[Move], tuple[int, ...]] | None:
    """The shortest legal play from `start` to a round end that scores no point, if any (each state
    played takes one from budget[1])."""
    seen: dict[State, list[Move]] = {start: []}
    queue: deque[State] = deque([start])
    while queue and budget[1] > 0:
        state = queue.popleft()
        budget[1] -= 1
        for move in game.legal_moves(state):
            after, events = game.apply(state, move)
            path = [*seen[state], move]
            for e in events:
                if isinstance(e, RoundEnd) and not any(e.penalties):
                    return path, e.penalties
            if after.phase == "play" and after not in seen:
                seen[after] = path
                queue.append(after)
    return None


# ---- the check ---------------------------------------------------------------------------------------


#: The rules each proof states by hand, as the embedded spec states them (the proof's premises are
#: those rules, not compiled from them): under rules stated otherwise -- a house rule's pass that
#: keeps the player in -- the proof says nothing, and the exhaustive searches and the endless-play
#: search below speak instead.
HAND_STATED: Mapping[str, tuple[str, ...]] = {
    "trick.pass_leaves_trick": ("action.pass", "trick.end.passes"),
    "trick.ends": ("action.lead", "action.overwrite", "action.add", "action.pass", "trick.end.passes"),
    "round.ends": ("action.lead", "action.pass", "trick.end.passes", "round.end"),
    "match.ends": ("round.scoring", "match.end"),
}


def _stated_otherwise(ruleset: Ruleset, rule_ids: Iterable[str]) -> list[str]:
    """Which of `rule_ids` the ruleset's rules in force state otherwise than the embedded spec's
    under the same readings (or leave out, or add)."""
    if ruleset.rulebook is None:
        return list(rule_ids)
    return rules_apart(ruleset).among(rule_ids)


def _guarded(ruleset: Ruleset, name: str, prove: Callable[[], Outcome]) -> Outcome:
    differ = _stated_otherwise(ruleset, HAND_STATED[name])
    if not differ:
        return prove()
    rules = ", ".join(differ)
    return Outcome(
        name,
        "z3",
        {},
        (),
        unasked=f"its proof states rule {rules} as the embedded spec does; these rules state it otherwise",
    )


def analyse(
    spec: Spec, ruleset: Ruleset, level: Level = "ci", seed: int = 0, rlimit: int = DEFAULT_SOLVER_RLIMIT
) -> Analysis:
    """Every property over its domain, and the smallest endless match where the points allow one;
    each Z3 query under the resource limit `rlimit`."""
    s = _symbolic(spec, ruleset, rlimit)
    outcomes = [
        _play_places_cards(spec, s),
        _guarded(ruleset, "trick.pass_leaves_trick", lambda: _pass_leaves_trick(rlimit)),
        _guarded(ruleset, "trick.ends", lambda: _trick_ends(rlimit)),
        _single_is_legal(spec, s),
        _guarded(ruleset, "round.ends", lambda: _round_ends(rlimit)),
        _guarded(ruleset, "match.ends", lambda: _match_ends(ruleset, rlimit)),
        _turn_order(spec, ruleset),
        *_states(spec, ruleset, level, seed),
        _deal(spec, ruleset),
        _set_reachable(spec, ruleset),
        _run_reachable(spec, ruleset),
    ]
    endless = endless_match(ruleset) if min(ruleset.points.values()) <= 0 else None
    return Analysis(tuple(outcomes), endless)


def _describe(data: Mapping[str, Any]) -> str:
    parts = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            value = ", ".join(f"{k}={v}" for k, v in value.items()) or "the checked readings"
        parts.append(f"{key}={value}")
    return "; ".join(parts)


def _property_words(words: Words, name: str) -> LivenessProperty:
    """A property's words; a words file (a house spec's own) that lacks them is refused at its line."""
    got = words.liveness.properties.get(name)
    if got is None:
        where = words.where("liveness", "properties")
        raise SpecError(where, f"gives no statement and scope for the liveness property {name!r}")
    return got


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
    return _join(names) or "the rules as checked"


def _failed_finding(spec: Spec, ruleset: Ruleset, all_words: Words, o: Outcome) -> Finding:
    assert o.counterexample is not None
    words = all_words.liveness
    prop = _property_words(all_words, o.name)
    statement = prop.statement
    text = _describe(o.counterexample)
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
    all_words = words_of(ctx.spec)
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
            proved.append(
                ProvedProperty(
                    name=o.name,
                    statement=scope_words.statement,
                    method=o.method,
                    scope=scope_words.scope.format_map(
                        _Blanks(
                            {
                                "spec_players": _players_text(
                                    ctx.ruleset.players_min, ctx.ruleset.players_max
                                ),
                                **o.blanks,
                            }
                        )
                    ),
                    clauses=o.clauses,
                )
            )
        elif o.name == "match.ends" and analysis.endless is not None:
            findings.append(_endless_finding(words, ctx.ruleset, analysis.endless))
        else:
            findings.append(_failed_finding(ctx.spec, ctx.ruleset, all_words, o))
    held = len(proved)
    return CheckResult(
        name=NAME,
        title=TITLE,
        seconds=time.perf_counter() - started,
        proofs=sum(o.queries for o in analysis.outcomes),
        exhaustive=sum(o.cases for o in analysis.outcomes),
        proved=tuple(proved),
        findings=tuple(findings),
        notes=(
            f"{held} of {len(analysis.outcomes) - len(unasked)} properties hold: "
            + ", ".join(f"{p.name} ({p.method})" for p in proved),
            *(f"{o.name} not asked: {o.unasked}" for o in unasked),
        ),
    )


class _Blanks(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""
