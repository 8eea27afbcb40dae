"""Differential fuzzing of an engine against the reference, with Hypothesis, and shrinking.

Hypothesis draws a deal and then, step by step, the move to play; the strategies lean towards the
rule-heavy moments: hands built from sets and runs with extra 7s, 8s and 9s, moves that hold an 8,
that close a set or a run, passes, going out, and now and then an illegal move the engine must
refuse. The first divergence is shrunk by Hypothesis (fewer cards, fewer moves), then by removing
every card nobody plays; the result is a `RoundResult` small enough to read.

Long runs are pure functions of (ruleset, engine, seed, examples): split a big job over processes
by giving each a different --seed.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from five35.checks.hypothesis_env import hypothesis_settings, private_hypothesis_home
from five35.engine import PASS, Game, IllegalMove, Move, Position, State
from five35.spec import Ruleset
from hypothesis import given
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from .client import EngineClient, EngineFault
from .compare import RoundResult, play_round, script

MAX_HAND = 10  # small hands reach going out, penalties and match end within a few dozen moves
MAX_SHRINK_RUNS = 400
EIGHT = 8


@dataclass(frozen=True)
class FuzzResult:
    """What a fuzz run did. `witness` is the shrunk divergence, `fault` an engine fault."""

    seed: int
    examples: int  # rounds generated (not counting shrinking)
    moves: int
    requests: int
    rounds_ended: int  # rounds played to their end (the rest stopped at the move cap or a divergence)
    coverage: tuple[tuple[str, int], ...]  # events, trick-end reasons and refused probes agreed on
    witness: RoundResult | None
    first_found_at: int | None  # the example that first diverged
    seconds_to_detect: float | None
    seconds: float
    fault: EngineFault | None
    budget_exhausted: bool
    shrink_runs: int

    def to_json(self) -> dict[str, Any]:
        # No timings: the JSON of a run is byte-identical for the same seed.
        return {
            "seed": self.seed,
            "examples": self.examples,
            "moves": self.moves,
            "requests": self.requests,
            "rounds_ended": self.rounds_ended,
            "coverage": dict(self.coverage),
            "divergence": self.witness is not None,
            "first_found_at": self.first_found_at,
            "budget_exhausted": self.budget_exhausted,
            "shrink_runs": self.shrink_runs,
            "fault": self.fault.to_json() if self.fault else None,
        }


class _Diverged(Exception):
    def __init__(self, result: RoundResult) -> None:
        super().__init__(result.divergence.summary if result.divergence else "")
        self.result = result


class _Stop(BaseException):
    """Ends the Hypothesis run at once (a BaseException so Hypothesis does not try to shrink it)."""

    def __init__(self, fault: EngineFault | None = None) -> None:
        super().__init__(str(fault) if fault else "time budget exhausted")
        self.fault = fault


# ---- strategies --------------------------------------------------------------------------------


def deals(ruleset: Ruleset, player_counts: tuple[int, ...]) -> st.SearchStrategy[Position]:
    """Deals rich in sets, runs and 7/8/9, with small hands and scores that can reach match end.

    A hand is a short list of group codes, each one integer (one cheap draw, which Hypothesis
    shrinks towards 0 = a single 1): a set of 1-3 cards or a run of 2-4 cards, at a rank taken from
    the ranks with 7, 8 and 9 listed twice more.
    """
    ranks = ruleset.ranks
    weighted = list(ranks) + [r for r in (7, 8, 9) if r in ranks] * 2
    codes = st.integers(0, 2 * 3 * len(weighted) - 1)

    def group(code: int) -> list[int]:
        kind, rest = code % 2, code // 2
        size, rank = rest % 3, weighted[rest // 3]
        if kind == 0:
            return [rank] * (size + 1)
        i = ranks.index(rank)
        return list(ranks[i : i + 2 + size])

    @st.composite
    def deal(draw: st.DrawFn) -> Position:
        players = draw(st.sampled_from(player_counts))
        left = dict.fromkeys(ranks, ruleset.copies(players))
        size = min(MAX_HAND, ruleset.deck_size(players) // players)
        hands: list[tuple[int, ...]] = []
        for _ in range(players):
            hand: list[int] = []
            for code in draw(st.lists(codes, min_size=2, max_size=5)):
                for card in group(code):
                    if left[card] > 0 and len(hand) < size:
                        left[card] -= 1
                        hand.append(card)
            if not hand:
                card = next(r for r in ranks if left[r] > 0)
                left[card] -= 1
                hand.append(card)
            hands.append(tuple(sorted(hand)))
        leader = draw(st.integers(0, players - 1))
        top = max(ruleset.match_end_score - 1, 0)
        if draw(st.booleans()):
            scores = tuple(draw(st.integers(0, top)) for _ in range(players))
        else:
            scores = (0,) * players
        return Position(tuple(hands), leader, scores)

    return deal()


def hot_moves(game: Game, state: State, legal: tuple[Move, ...]) -> tuple[list[Move], list[Move], list[Move]]:
    """The rule-heavy moves: (an 8, a pass or going out; adds that close the set or run; all adds)."""
    hand_size = game.codec.size(state.hands[state.to_move])
    pile = state.pile
    hot, closing, adds = [], [], []
    for move in legal:
        if move.action == "pass" or EIGHT in move.cards or len(move.cards) == hand_size:
            hot.append(move)
        if move.action == "add" and pile is not None:
            adds.append(move)
            same = pile.kind != "run" and all(c == pile.cards[0] for c in move.cards)
            close = game.closing_size("set" if same else "run")
            if close is not None and pile.size + len(move.cards) >= close:
                closing.append(move)
    return hot, closing, adds


def probe_moves(game: Game, state: State, legal: tuple[Move, ...]) -> list[Move]:
    """Illegal moves worth trying, those with cards the player holds first (pass on a lead, ...)."""
    legal_set = set(legal)
    hand = state.hands[state.to_move]
    universe = [Move(a, p.cards) for p in game.placeable_piles() for a in ("lead", "overwrite", "add")]
    universe.append(PASS)
    seen: set[Move] = set()
    held: list[Move] = []
    other: list[Move] = []
    for move in universe:
        move = Move(move.action, tuple(sorted(move.cards)))
        if move in legal_set or move in seen:
            continue
        seen.add(move)
        (held if game.codec.holds(hand, game.codec.pack(move.cards)) else other).append(move)
    return held + other


PROBE_CODES = 64  # of MOVE_CODES: about one move in 16 is an illegal probe
MOVE_CODES = 1024


def drawn_moves(data: st.DataObject) -> Callable[[Game, State, tuple[Move, ...]], Move | None]:
    """Each move is one drawn integer (cheap, and it shrinks towards the first legal move).

    Codes at the top are probes (an illegal move the engine must refuse); of the rest, three in four
    pick among the rule-heavy moves, one in four among all legal moves.
    """
    codes = st.integers(0, MOVE_CODES - 1)

    def choose(game: Game, state: State, legal: tuple[Move, ...]) -> Move | None:
        code = data.draw(codes)
        if code >= MOVE_CODES - PROBE_CODES:
            probes = probe_moves(game, state, legal)
            if probes:
                return probes[(code - (MOVE_CODES - PROBE_CODES)) % len(probes)]
        # code % 4: 0 any legal move; 1 an 8, a pass or going out; 2 a closing add (else any add);
        # 3 any add (else an 8, a pass or going out).
        kind, index = code % 4, code // 4
        if kind:
            hot, closing, adds = hot_moves(game, state, legal)
            pool = {1: hot, 2: closing or adds, 3: adds or hot}[kind]
            if pool:
                return pool[index % len(pool)]
        return legal[index % len(legal)]

    return choose


# ---- the run -----------------------------------------------------------------------------------


class Games:
    """One reference Game per player count (building one precomputes its move tables)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._games: dict[int, Game] = {}

    def __call__(self, players: int) -> Game:
        game = self._games.get(players)
        if game is None:
            game = self._games[players] = Game(self.ruleset, players)
        return game


def fuzz(
    ruleset: Ruleset,
    engine: EngineClient,
    *,
    examples: int,
    seed: int,
    time_budget: float | None = None,
    shrink_budget: float | None = None,
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6),
) -> FuzzResult:
    """Fuzz `engine` (already past hello) against the reference under `ruleset`.

    `time_budget` bounds the whole run, `shrink_budget` the shrinking after the first divergence
    (the smallest witness found by then is kept); both in seconds, None for no bound.
    """
    games = Games(ruleset)
    started = time.monotonic()
    deadline = started + time_budget if time_budget is not None else None
    stats = {"examples": 0, "moves": 0, "runs": 0, "ended": 0}
    coverage: Counter[str] = Counter()
    requests_before = engine.requests
    first: dict[str, Any] = {}
    # Why the run was stopped: Hypothesis may turn our BaseException into one of its own errors
    # (it checks that a replayed example draws the same data), so the reason is kept here too.
    halt: dict[str, _Stop] = {}
    best: list[RoundResult] = []

    def remember(result: RoundResult) -> None:
        if not first:
            first["example"] = stats["examples"]
            first["seconds"] = time.monotonic() - started
            if shrink_budget is not None:
                first["shrink_deadline"] = time.monotonic() + shrink_budget
        if not best or result.size < best[0].size:
            best[:] = [result]

    deal_strategy = deals(ruleset, player_counts)

    # The explain phase adds runs after shrinking; kept, as shrink_runs has always counted them.
    @hypothesis_settings(examples, explain=True)
    @hypothesis_seed(seed)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        now = time.monotonic()
        if (deadline is not None and now > deadline) or now > first.get("shrink_deadline", now + 1):
            halt["stop"] = _Stop()
            raise halt["stop"]
        deal = data.draw(deal_strategy)
        stats["runs"] += 1
        if not first:
            stats["examples"] += 1
        try:
            result = play_round(games(deal.players), engine, deal, drawn_moves(data))
        except EngineFault as fault:
            halt["stop"] = _Stop(fault)
            raise halt["stop"] from None
        if not first:
            stats["moves"] += len(result.moves)
            stats["ended"] += result.ended
            coverage.update(dict(result.seen))
        if result.divergence is not None:
            remember(result)
            raise _Diverged(result)

    fault: EngineFault | None = None
    budget_exhausted = False
    try:
        with private_hypothesis_home():
            run()
    except _Diverged as diverged:
        remember(diverged.result)
    except _Stop as stop:
        fault = stop.fault
        budget_exhausted = stop.fault is None
    except (HypothesisException, ExceptionGroup):
        if "stop" in halt:
            fault = halt["stop"].fault
            budget_exhausted = fault is None
        elif not best:
            # Without a witness this is a real error; with one, a flaky engine (it answered a
            # replayed example differently) still left the smallest divergence seen.
            raise
    shrink_runs = stats["runs"]
    witness = best[0] if best else None
    if witness is not None and fault is None:
        try:
            limits = [d for d in (deadline, first.get("shrink_deadline")) if d is not None]
            witness, extra = minimize(games, engine, witness, min(limits) if limits else None)
            shrink_runs += extra
        except EngineFault as exc:
            fault = exc
    return FuzzResult(
        seed=seed,
        examples=stats["examples"],
        moves=stats["moves"],
        requests=engine.requests - requests_before,
        rounds_ended=stats["ended"],
        coverage=tuple(sorted(coverage.items())),
        witness=witness,
        first_found_at=first.get("example"),
        seconds_to_detect=first.get("seconds"),
        seconds=time.monotonic() - started,
        fault=fault,
        budget_exhausted=budget_exhausted and witness is None,
        shrink_runs=shrink_runs - stats["examples"],
    )


def _removable(game: Game, result: RoundResult) -> list[tuple[int, int]]:
    """(seat, rank) of each card of the deal that its holder does not need for the witness's moves."""
    played: dict[tuple[int, int], int] = {}
    state = game.play_from(result.deal)
    for move in result.moves:
        if state.phase != "play":
            break
        player = state.to_move
        try:
            state, _ = game.apply(state, move)
        except IllegalMove:
            continue  # a probe: it placed nothing
        for card in move.cards:
            played[(player, card)] = played.get((player, card), 0) + 1
    out = []
    for seat, hand in enumerate(result.deal.hands):
        for rank in sorted(set(hand)):
            if hand.count(rank) > played.get((seat, rank), 0):
                out.append((seat, rank))
    return out


def minimize(
    games: Games, engine: EngineClient, witness: RoundResult, deadline: float | None
) -> tuple[RoundResult, int]:
    """Remove unplayed cards and zero the scores while the engines still diverge; returns the runs."""
    runs = 0
    improved = True
    while improved and runs < MAX_SHRINK_RUNS:
        improved = False
        candidates: list[Position] = []
        deal = witness.deal
        if deal.scores is not None and any(deal.scores):
            candidates.append(dataclasses.replace(deal, scores=(0,) * deal.players))
        for seat, rank in _removable(games(deal.players), witness):
            hand = list(deal.hands[seat])
            if len(hand) <= 1:
                continue
            hand.remove(rank)
            hands = (*deal.hands[:seat], tuple(hand), *deal.hands[seat + 1 :])
            candidates.append(dataclasses.replace(deal, hands=hands))
        for candidate in candidates:
            if deadline is not None and time.monotonic() > deadline:
                return witness, runs
            runs += 1
            result = play_round(games(candidate.players), engine, candidate, script(witness.moves))
            if result.divergence is not None and result.size < witness.size:
                witness = result
                improved = True
                break
    return witness, runs
