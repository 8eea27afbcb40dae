"""Differential fuzzing of an engine against the reference, with Hypothesis, and shrinking.

Each Hypothesis example is one round: a deal, then, move by move, what to play. The choices lean
towards the rule-heavy moments: hands built from sets and runs with extra 7s, 8s and 9s, scores
at the start, in the middle or near the end of a match, moves that hold an 8, that close a set or a
run, passes, going out, and now and then an illegal move the engine must refuse.

Every choice is drawn through one `st.randoms()` object per round: a Hypothesis choice each, so the
run is a function of the seed and Hypothesis can still shrink it, at a fraction of the cost of a
`data.draw` per choice (the harness's own cost is what limits a fast engine; benchmarks/).

Hypothesis generates; checks.fuzz.shrink shrinks the first divergence: the round restarted later,
seats, moves and cards removed, scores lowered, each candidate one replayed round. Hypothesis's
own shrinker works on the choices, which after a change mean other cards and other moves; it can
be given a number of rounds (hypothesis_shrink_runs) but found nothing smaller than checks.fuzz.shrink
on the planted bugs, in more time. The result is a `RoundResult` small enough to read.

Long runs are pure functions of (ruleset, engine, seed, examples): `fuzz_campaign` runs many
seeds, each one unit (an engine of its own, started where the unit runs) through the one executor
(five35.executor: worker processes here, or a Dask cluster), and gives their results in
seed order, so the first divergence in seed order is the same wherever the seeds ran.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ...engine import PASS, Move, Position, State
from ...engine.engines import Engine
from ...executor import Executor, LocalExecutor, describes_units
from ...protocol.client import EngineClient, EngineFault, engine_session
from ...protocol.compare import Chooser, Games, RoundResult
from ...protocol.messages import fewer_collections
from ...spec import Ruleset
from ..hypothesis_env import hypothesis_settings, private_hypothesis_home
from .shrink import MAX_SHRINK_RUNS, shrink

__all__ = [
    "CampaignRun",
    "FuzzResult",
    "Games",
    "campaign_seed",
    "first_divergence",
    "fuzz",
    "fuzz_campaign",
    "fuzz_seed",
]

MAX_HAND = 10  # small hands reach going out, penalties and match end within a few dozen moves
MAX_GROUPS = 5  # sets and runs per hand
#: Rounds Hypothesis may replay to shrink the first divergence before checks.fuzz.shrink takes over
#: (none by default: see the module's docstring).
HYPOTHESIS_SHRINK_RUNS = 0
EIGHT = 8


@dataclass(frozen=True)
class FuzzResult:
    """What a fuzz run did. `witness` is the shrunk divergence, `fault` an engine fault.

    The counts cover the rounds Hypothesis generated to search (not those replayed to shrink):
    `examples` rounds were generated for `examples_asked` (Hypothesis's max_examples), of which
    `rounds_ended` were played to their end, `rounds_capped` stopped at the move cap, `rounds_cut`
    were cut short by Hypothesis itself (it abandons an example whose choices it cannot complete),
    and the one that diverged (if any) stopped there. `moves` and `search_requests` are those of
    the search; `requests` counts shrinking too, `shrink_runs` the rounds replayed to shrink
    (`hypothesis_shrink_runs` of them by Hypothesis's own shrinker).
    """

    seed: int
    examples: int  # rounds generated (not counting shrinking)
    moves: int
    requests: int
    rounds_ended: int
    coverage: tuple[tuple[str, int], ...]  # events, trick-end reasons and refused probes agreed on
    witness: RoundResult | None
    first_found_at: int | None  # the example that first diverged
    seconds_to_detect: float | None
    seconds: float
    fault: EngineFault | None
    budget_exhausted: bool
    shrink_runs: int
    examples_asked: int = 0
    rounds_capped: int = 0
    rounds_cut: int = 0
    hypothesis_shrink_runs: int = 0
    search_seconds: float = 0.0  # the generation phase alone (requests and rounds per second)
    search_requests: int = 0

    @property
    def requests_per_second(self) -> float:
        return self.search_requests / self.search_seconds if self.search_seconds > 0 else 0.0

    @property
    def rounds_per_second(self) -> float:
        return self.examples / self.search_seconds if self.search_seconds > 0 else 0.0

    def rounds_json(self) -> dict[str, int]:
        diverged = int(self.first_found_at is not None)
        return {
            "generated": self.examples,
            "played_to_the_end": self.rounds_ended,
            "stopped_at_the_move_cap": self.rounds_capped,
            "cut_short_by_hypothesis": self.rounds_cut,
            "diverged": diverged,
        }

    def to_json(self) -> dict[str, Any]:
        # No timings: the JSON of a run is byte-identical for the same seed (timing_json has them).
        return {
            "seed": self.seed,
            "examples": self.examples_asked,
            "rounds": self.rounds_json(),
            "moves": self.moves,
            "requests": {
                "searching": self.search_requests,
                "shrinking": self.requests - self.search_requests,
                "total": self.requests,
            },
            "coverage": dict(self.coverage),
            "divergence": self.witness is not None,
            "first_found_at": self.first_found_at,
            "budget_exhausted": self.budget_exhausted,
            "shrinking": {
                "rounds_replayed": self.shrink_runs,
                "by_hypothesis": self.hypothesis_shrink_runs,
            },
            "fault": self.fault.to_json() if self.fault else None,
        }

    def timing_json(self) -> dict[str, Any]:
        """The run's timings: they vary from run to run, so they are kept out of to_json."""
        return {
            "seconds": round(self.seconds, 3),
            "search_seconds": round(self.search_seconds, 3),
            "requests_per_second": round(self.requests_per_second),
            "rounds_per_second": round(self.rounds_per_second, 1),
            "seconds_to_detect": None if self.seconds_to_detect is None else round(self.seconds_to_detect, 3),
        }


class _Diverged(Exception):
    def __init__(self, result: RoundResult) -> None:
        super().__init__(result.divergence.summary if result.divergence else "")
        self.result = result


class _Stop(BaseException):
    """Ends the Hypothesis run at once (a BaseException so Hypothesis does not try to shrink it)."""

    def __init__(self, fault: EngineFault | None = None, why: str = "time budget exhausted") -> None:
        super().__init__(str(fault) if fault else why)
        self.fault = fault


# ---- what a round is made of -------------------------------------------------------------------


class Deals:
    """Deals rich in sets, runs and 7/8/9, with small hands, and scores at the start of a match,
    anywhere in it, or near its end (where late-match rules show: penalties that end the match).

    A hand is 1 to MAX_GROUPS groups, each one choice (which shrinks towards 0, a single of the
    lowest rank): a set of 1-3 cards or a run of 2-4 cards, at a rank taken from the ranks with 7,
    8 and 9 listed twice more."""

    def __init__(self, ruleset: Ruleset, player_counts: tuple[int, ...]) -> None:
        self.ruleset = ruleset
        self.player_counts = player_counts
        ranks = ruleset.ranks
        self.weighted: list[int] = [*ranks, *[r for r in (7, 8, 9) if r in ranks] * 2]
        self.codes = 2 * 3 * len(self.weighted)
        self.top = max(ruleset.match_end_score - 1, 0)

    def group(self, code: int) -> list[int]:
        ranks = self.ruleset.ranks
        kind, rest = code % 2, code // 2
        size, rank = rest % 3, self.weighted[rest // 3]
        if kind == 0:
            return [rank] * (size + 1)
        i = ranks.index(rank)
        return list(ranks[i : i + 2 + size])

    def draw(self, rnd: random.Random) -> Position:
        players = self.player_counts[rnd.randrange(len(self.player_counts))]
        ranks = self.ruleset.ranks
        left = dict.fromkeys(ranks, self.ruleset.copies(players))
        size = min(MAX_HAND, self.ruleset.deck_size(players) // players)
        hands: list[tuple[int, ...]] = []
        for _ in range(players):
            hand: list[int] = []
            for _ in range(1 + rnd.randrange(MAX_GROUPS)):
                for card in self.group(rnd.randrange(self.codes)):
                    if left[card] > 0 and len(hand) < size:
                        left[card] -= 1
                        hand.append(card)
            if not hand:
                card = next(r for r in ranks if left[r] > 0)
                left[card] -= 1
                hand.append(card)
            hands.append(tuple(sorted(hand)))
        leader = rnd.randrange(players)
        # 0: a match's first round; 1: anywhere in a match; 2: near its end.
        stage = rnd.randrange(3)
        if stage == 0:
            scores = (0,) * players
        elif stage == 1:
            scores = tuple(rnd.randrange(self.top + 1) for _ in range(players))
        else:
            scores = tuple(max(self.top - rnd.randrange(6), 0) for _ in range(players))
        return Position(tuple(hands), leader, scores)


def hot_moves(
    game: Engine, state: State, legal: tuple[Move, ...]
) -> tuple[list[Move], list[Move], list[Move]]:
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


class Probes:
    """Illegal moves worth trying, those with cards the player holds first (pass on a lead, ...).

    The candidates (every pile a turn can place, as a lead, an overwrite or an add, and the pass)
    and the cards each takes are worked out once per Game."""

    def __init__(self) -> None:
        self._universe: dict[int, list[tuple[Move, int]]] = {}

    def universe(self, game: Engine) -> list[tuple[Move, int]]:
        found = self._universe.get(id(game))
        if found is None:
            seen: set[Move] = set()
            found = []
            moves = [Move(a, p.cards) for p in game.placeable_piles() for a in ("lead", "overwrite", "add")]
            for move in [*moves, PASS]:
                move = Move(move.action, tuple(sorted(move.cards)))
                if move not in seen:
                    seen.add(move)
                    found.append((move, game.codec.pack(move.cards)))
            self._universe[id(game)] = found
        return found

    def __call__(self, game: Engine, state: State, legal: tuple[Move, ...]) -> list[Move]:
        legal_set = set(legal)
        guard = game.codec.guard
        hand = state.hands[state.to_move] | guard
        held: list[Move] = []
        other: list[Move] = []
        for move, need in self.universe(game):
            if move not in legal_set:
                (held if (hand - need) & guard == guard else other).append(move)
        return held + other


PROBE_CODES = 64  # of MOVE_CODES: about one move in 16 is an illegal probe
MOVE_CODES = 1024


def drawn_moves(rnd: random.Random, probes: Probes) -> Chooser:
    """Each move is one drawn integer (it shrinks towards the first legal move).

    Codes at the top are probes (an illegal move the engine must refuse); of the rest, three in four
    pick among the rule-heavy moves, one in four among all legal moves.
    """

    def choose(game: Engine, state: State, legal: tuple[Move, ...]) -> Move | None:
        code = rnd.randrange(MOVE_CODES)
        if code >= MOVE_CODES - PROBE_CODES:
            found = probes(game, state, legal)
            if found:
                return found[(code - (MOVE_CODES - PROBE_CODES)) % len(found)]
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


def fuzz(
    ruleset: Ruleset,
    engine: EngineClient,
    *,
    examples: int,
    seed: int,
    time_budget: float | None = None,
    shrink_budget: float | None = None,
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6),
    hypothesis_shrink_runs: int = HYPOTHESIS_SHRINK_RUNS,
    shrink_runs: int = MAX_SHRINK_RUNS,
) -> FuzzResult:
    """Fuzz `engine` (already past hello) against the reference under `ruleset`.

    `time_budget` bounds the whole run, `shrink_budget` the shrinking after the first divergence
    (the smallest witness found by then is kept); both in seconds, None for no bound. Shrinking
    is also bounded by rounds replayed: `hypothesis_shrink_runs` by Hypothesis (none by default),
    then `shrink_runs` by checks.fuzz.shrink; within those bounds the result depends on the seed alone.
    """
    with fewer_collections():
        return _fuzz(
            ruleset,
            engine,
            examples,
            seed,
            time_budget,
            shrink_budget,
            player_counts,
            hypothesis_shrink_runs,
            shrink_runs,
        )


def _fuzz(
    ruleset: Ruleset,
    engine: EngineClient,
    examples: int,
    seed: int,
    time_budget: float | None,
    shrink_budget: float | None,
    player_counts: tuple[int, ...],
    hypothesis_shrink_runs: int,
    shrink_runs: int,
) -> FuzzResult:
    games = Games(ruleset)
    started = time.monotonic()
    deadline = started + time_budget if time_budget is not None else None
    stats = {"examples": 0, "moves": 0, "runs": 0, "ended": 0, "capped": 0, "cut": 0}
    coverage: Counter[str] = Counter()
    requests_before = engine.requests
    first: dict[str, Any] = {}
    # Why the run was stopped: Hypothesis may turn our BaseException into one of its own errors
    # (it checks that a replayed example draws the same data), so the reason is kept here too.
    halt: dict[str, _Stop] = {}
    best: list[RoundResult] = []
    search: dict[str, float] = {}

    def remember(result: RoundResult) -> None:
        if not first:
            first["example"] = stats["examples"]
            first["run"] = stats["runs"]
            first["seconds"] = time.monotonic() - started
            search["seconds"] = first["seconds"]
            search["requests"] = engine.requests - requests_before
            if shrink_budget is not None:
                first["shrink_deadline"] = time.monotonic() + shrink_budget
        if not best or result.size < best[0].size:
            best[:] = [result]

    deals = Deals(ruleset, player_counts)
    probes = Probes()
    randoms = st.randoms(use_true_random=False)
    # Hypothesis shrinks for a bounded number of rounds (checked in `run`); no explain phase.
    hypothesis_phases = [Phase.explicit, Phase.generate]
    if hypothesis_shrink_runs > 0:
        hypothesis_phases.append(Phase.shrink)

    @settings(hypothesis_settings(examples), phases=hypothesis_phases)
    @hypothesis_seed(seed)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        now = time.monotonic()
        if (deadline is not None and now > deadline) or now > first.get("shrink_deadline", now + 1):
            halt["stop"] = _Stop()
            raise halt["stop"]
        if first and stats["runs"] - first["run"] >= hypothesis_shrink_runs:
            halt["stop"] = _Stop(why="Hypothesis's share of the shrinking is used up")
            raise halt["stop"]
        rnd = data.draw(randoms)
        deal = deals.draw(rnd)
        stats["runs"] += 1
        searching = not first
        if searching:
            stats["examples"] += 1
            stats["cut"] += 1  # until the round is over: Hypothesis may stop it in a draw
        try:
            result = games.play(engine, deal, drawn_moves(rnd, probes))
        except EngineFault as fault:
            halt["stop"] = _Stop(fault)
            raise halt["stop"] from None
        if searching:
            stats["cut"] -= 1
            stats["moves"] += len(result.moves)
            stats["ended"] += result.ended
            stats["capped"] += result.divergence is None and not result.ended
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
    if not search:
        search["seconds"] = time.monotonic() - started
        search["requests"] = engine.requests - requests_before
    hypothesis_runs = stats["runs"] - stats["examples"]
    extra = 0
    witness = best[0] if best else None
    if witness is not None and fault is None:
        try:
            limits = [d for d in (deadline, first.get("shrink_deadline")) if d is not None]
            witness, extra = shrink(
                games,
                engine,
                witness,
                counts=player_counts,
                deadline=min(limits) if limits else None,
                max_runs=shrink_runs,
            )
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
        shrink_runs=hypothesis_runs + extra,
        examples_asked=examples,
        rounds_capped=stats["capped"],
        rounds_cut=stats["cut"],
        hypothesis_shrink_runs=hypothesis_runs,
        search_seconds=search["seconds"],
        search_requests=int(search["requests"]),
    )


# ---- campaigns: many seeds through the executor ------------------------------------------------


def campaign_seed(base_seed: int, index: int) -> int:
    """The Hypothesis seed of run `index` of a campaign with base seed `base_seed`: hashed, so
    campaigns with neighbouring base seeds share no runs, and 48 bits, short to quote and exact
    in JSON."""
    digest = hashlib.sha256(f"five35-fuzz:{base_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass(frozen=True)
class CampaignRun:
    """One seed of a campaign: its fuzz result, or the engine fault that stopped it before the
    search started (the engine did not start or answer hello)."""

    index: int
    seed: int
    result: FuzzResult | None
    fault: EngineFault | None

    @property
    def diverged(self) -> bool:
        return self.result is not None and self.result.witness is not None

    @property
    def faulted(self) -> EngineFault | None:
        return self.fault or (self.result.fault if self.result is not None else None)


# EngineFault does not survive pickling (its __init__ takes more than the message it passes on),
# so a fault crosses a process or cluster boundary as its fields.
_FaultFields = tuple[Any, str, tuple[str, ...], tuple[int, str] | None]


def _fields(fault: EngineFault | None) -> _FaultFields | None:
    return None if fault is None else (fault.kind, fault.message, fault.transcript, fault.request)


def _fault(fields: _FaultFields | None) -> EngineFault | None:
    return None if fields is None else EngineFault(*fields)


@describes_units(lambda target, timeout, max_line, ruleset, examples, seed, *_: f"fuzzing with seed {seed}")
def fuzz_seed(
    target: str,
    timeout: float,
    max_line: int,
    ruleset: Ruleset,
    examples: int,
    seed: int,
    time_budget: float | None,
    shrink_budget: float | None,
    player_counts: tuple[int, ...],
    shrink_runs: int = MAX_SHRINK_RUNS,
) -> tuple[FuzzResult | None, _FaultFields | None]:
    """One campaign unit: start the engine `target` here, say hello, fuzz it with `seed` against
    the reference under `ruleset` (already agreed with the engine), close it. Module-level and
    positional, so that an executor can send it to another process or machine."""
    try:
        with engine_session(target, timeout, max_line) as engine:
            engine.hello()
            result = fuzz(
                ruleset,
                engine,
                examples=examples,
                seed=seed,
                time_budget=time_budget,
                shrink_budget=shrink_budget,
                player_counts=player_counts,
                shrink_runs=shrink_runs,
            )
    except EngineFault as fault:
        return None, _fields(fault)
    return replace(result, fault=None), _fields(result.fault)


def fuzz_campaign(
    ruleset: Ruleset,
    target: str,
    *,
    runs: int,
    base_seed: int,
    examples: int,
    timeout: float,
    max_line: int,
    time_budget: float | None = None,
    shrink_budget: float | None = None,
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6),
    shrink_runs: int = MAX_SHRINK_RUNS,
    executor: Executor | None = None,
    progress: Callable[[CampaignRun], None] | None = None,
) -> list[CampaignRun]:
    """Fuzz the engine `target` with `runs` seeds (`campaign_seed(base_seed, i)`), each a unit of
    `executor` (default: this process), and return every run in seed order. Every seed runs (a
    campaign keeps every divergence); `time_budget` and `shrink_budget` bound each run, and
    within them a run depends on its seed alone. `progress` sees each run as it comes back, in order."""
    seeds = [campaign_seed(base_seed, i) for i in range(runs)]
    runner = executor if executor is not None else LocalExecutor(1)
    n = len(seeds)
    outcomes = runner.map(
        fuzz_seed,
        [target] * n,
        [timeout] * n,
        [max_line] * n,
        [ruleset] * n,
        [examples] * n,
        seeds,
        [time_budget] * n,
        [shrink_budget] * n,
        [tuple(player_counts)] * n,
        [shrink_runs] * n,
    )
    out: list[CampaignRun] = []
    # Closed on any way out, so that an interrupt stops the units still running too.
    with contextlib.closing(outcomes):
        for index, (seed, (result, fault)) in enumerate(zip(seeds, outcomes, strict=True)):
            run = CampaignRun(index, seed, None, _fault(fault))
            if result is not None:
                run = CampaignRun(index, seed, replace(result, fault=_fault(fault)), None)
            out.append(run)
            if progress is not None:
                progress(run)
    return out


def first_divergence(runs: Sequence[CampaignRun]) -> CampaignRun | None:
    """The first run, in seed order, that found a divergence."""
    return next((run for run in runs if run.diverged), None)
