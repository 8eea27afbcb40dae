"""Simulated play by bots, as pure functions over seed ranges.

`simulate(ruleset, players, seeds, bots, mode)` plays one game (a round or a whole match) for every
game number i in `seeds` and returns `Stats`. Game i is dealt from `game_seed(base_seed, i)` and its
bots draw from RNGs seeded from that same number, so the result depends only on the arguments.
`Stats` (engine/stats.py, with their JSON) are integer counts, and `merge(a, b)` gives exactly the
stats of the union of two disjoint seed ranges: a long simulation can be split across processes and
merged (`simulate_parallel` does exactly that, through an `Executor`, and returns the same Stats as
`simulate`).

A match the loader could not prove to end (`Ruleset.round_bound` is None, e.g. some ranks score
no points) stops after MATCH_ROUND_LIMIT rounds; `Stats.round_limited` counts those matches.

`simulation_json(...)` (cli/simulation_files.py) is the document `535-check simulate --format json`
prints: the counts as read (`stats`) and exactly (`counts`), and the game range they cover.
`merge_simulations` merges such documents of disjoint, adjacent game ranges of one ruleset, seed,
mode and bots into the document one run over the union prints, byte for byte (`535-check merge`).

`play_game(game, seed, bots, mode)` yields every step of one game as `Step(state, move, events)`,
for anything that needs the game itself rather than its counts (reports, traces, replays).
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple

from ..executor import Executor, LocalExecutor, describes_units, games_text
from ..spec import Ruleset, SpecError
from ..spec.ruleset import MATCH_ROUND_LIMIT
from .bots import Bot, seat_bots, turning_seats
from .engines import Engine, make_engine
from .state import ACTIONS, Event, MatchEnd, Move, RoundEnd, State, TrickEnd
from .stats import MODES, TRICK_END_TALLIES, WENT_OUT, Mode, Stats, merge_all

#: The seed every command uses when none is given (`check`, `report`, `simulate`, the default job),
#: so that their outputs are about the same games.
DEFAULT_SEED = 535


EngineFactory = Callable[[Ruleset, int], Engine]


class Step(NamedTuple):
    """One move of a game: the state it was played in, the move, and the events it caused."""

    state: State
    move: Move
    events: tuple[Event, ...]


def game_seed(base_seed: int, index: int) -> int:
    """The deal seed of game `index` in a simulation seeded with `base_seed`.

    Hashed rather than `base_seed + index` so that runs with neighbouring base seeds do not share
    almost all their games. 48 bits keep it exact in JSON and short to quote.
    """
    digest = hashlib.sha256(f"five35-game:{base_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """One RNG per seat, so that a seat's choices do not depend on how much randomness the bots in
    other seats used."""
    return [random.Random(f"five35-bot:{seed}:{seat}") for seat in range(players)]


def round_limit(ruleset: Ruleset) -> int:
    """Rounds after which a simulated match is stopped: MATCH_ROUND_LIMIT. The loader refuses a spec
    whose proved bound is higher, so the limit only ever stops a match that the rules do not force
    to end; the max() keeps that true for a Ruleset built by hand, too."""
    bound = ruleset.round_bound
    return MATCH_ROUND_LIMIT if bound is None else max(bound, MATCH_ROUND_LIMIT)


def move_limit(game: Engine) -> int:
    """Moves after which a round is taken as one that never ends. Under rules in which every trick
    ends (the printed ones, proved by the liveness check) a trick of a round dealt H cards among P
    players lasts at most H + P moves and a round at most H tricks; the limit is that for the
    whole deck, so it only ever stops play that the rules let go on for ever."""
    cards = len(game.codec.cards(game.full_deck))
    return cards * (cards + game.players) + game.players


class EndlessPlay(SpecError):
    """Play went on past `move_limit` without ending the round: the rules let it go on for ever."""

    def __init__(self, what: str, most: int) -> None:
        super().__init__(
            "rules",
            f"{what}: {most:,} moves and the round has not ended; these rules let play go on for ever "
            "(535-check check names where)",
        )
        self.what, self.most = what, most

    def __reduce__(self) -> tuple[type[SpecError], tuple[str, str]]:
        # Pickled by its own two arguments: a worker process sends it back whole.
        return type(self), (self.what, self.most)  # type: ignore[return-value]


def play_game(
    game: Engine, seed: int, bots: Sequence[Bot | str], mode: Mode = "match", max_rounds: int | None = None
) -> Iterator[Step]:
    """Play one round (`mode="round"`) or one match dealt from `seed`, yielding every step.

    `bots` names one bot for every seat or one per seat. The state in a step is the state before
    the move; the last step's events hold the RoundEnd (and MatchEnd) that finished the game. A
    match stops after `max_rounds` rounds (default `round_limit(game.ruleset)`): its last step then
    holds a RoundEnd and no MatchEnd.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    limit = round_limit(game.ruleset) if max_rounds is None else max_rounds
    if limit < 1:
        raise ValueError(f"max_rounds must be at least 1, not {limit}")
    chosen = seat_bots(bots, game.players)
    rngs = bot_rngs(seed, game.players)
    state = game.new_match(seed)
    rounds = 0
    most = move_limit(game)
    while True:
        moves = 0
        while state.phase == "play":
            moves += 1
            if moves > most:
                raise EndlessPlay(f"game seed {seed}, round {rounds + 1}", most)
            seat = state.to_move
            move = chosen[seat].choose(game, state, game.legal_moves(state), rngs[seat])
            new, events = game.apply(state, move)
            yield Step(state, move, events)
            state = new
        rounds += 1
        if mode == "round" or state.phase == "match_over" or rounds >= limit:
            return
        state = game.next_round(state)


class _Tally:
    """Mutable counts while games are played; frozen into Stats at the end."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.rounds = 0
        self.moves: Counter[str] = Counter(dict.fromkeys(ACTIONS, 0))
        self.tricks = 0
        self.trick_ends: Counter[str] = Counter(dict.fromkeys(TRICK_END_TALLIES, 0))
        self.moves_per_round: Counter[int] = Counter()
        self.tricks_per_round: Counter[int] = Counter()
        self.rounds_per_game: Counter[int] = Counter()
        self.penalties = [0] * players
        self.scores = [0] * players
        self.went_out = [0] * players
        self.wins = [0] * players
        self.first_leads = [0] * players
        self.first_leader_wins = 0
        self.ties = 0
        self.round_limited = 0

    def add_game(self, steps: Iterable[Step], mode: Mode) -> None:
        first_leader = -1
        round_moves = round_tricks = rounds = 0
        final: tuple[int, ...] = (0,) * self.players
        match_ended = False
        moves, trick_ends = self.moves, self.trick_ends
        for state, move, events in steps:
            if first_leader < 0:
                first_leader = state.to_move
            moves[move.action] += 1
            round_moves += 1
            trick_over = False
            for event in events:
                if isinstance(event, TrickEnd):
                    trick_over = True
                    for reason in event.reasons:
                        trick_ends[reason] += 1
                elif isinstance(event, RoundEnd):
                    if not trick_over:
                        trick_ends[WENT_OUT] += 1
                    trick_over = True
                    rounds += 1
                    self.went_out[event.went_out] += 1
                    for seat, penalty in enumerate(event.penalties):
                        self.penalties[seat] += penalty
                    final = event.scores
                elif isinstance(event, MatchEnd):
                    final = event.scores
                    match_ended = True
            if trick_over:
                self.tricks += 1
                round_tricks += 1
            if any(isinstance(e, RoundEnd) for e in events):
                self.moves_per_round[round_moves] += 1
                self.tricks_per_round[round_tricks] += 1
                round_moves = round_tricks = 0
        self.games += 1
        self.rounds += rounds
        if mode == "match" and not match_ended:
            self.round_limited += 1
        self.rounds_per_game[rounds] += 1
        best = min(final)
        winners = [seat for seat, score in enumerate(final) if score == best]
        for seat, score in enumerate(final):
            self.scores[seat] += score
        for seat in winners:
            self.wins[seat] += 1
        if len(winners) > 1:
            self.ties += 1
        if first_leader >= 0:
            self.first_leads[first_leader] += 1
            if first_leader in winners:
                self.first_leader_wins += 1

    def freeze(self, mode: Mode, ruleset: str, bots: Sequence[str], turning: bool = False) -> Stats:
        return Stats(
            turning=turning,
            players=self.players,
            mode=mode,
            ruleset=ruleset,
            bots=tuple(bots),
            games=self.games,
            rounds=self.rounds,
            moves=dict(self.moves),
            tricks=self.tricks,
            trick_ends=dict(self.trick_ends),
            moves_per_round=dict(self.moves_per_round),
            tricks_per_round=dict(self.tricks_per_round),
            rounds_per_game=dict(self.rounds_per_game),
            penalties=tuple(self.penalties),
            scores=tuple(self.scores),
            went_out=tuple(self.went_out),
            wins=tuple(self.wins),
            first_leads=tuple(self.first_leads),
            first_leader_wins=self.first_leader_wins,
            ties=self.ties,
            round_limited=self.round_limited,
        )


def simulate(
    ruleset: Ruleset,
    players: int,
    seeds: range,
    bots: Sequence[Bot | str],
    mode: Mode = "match",
    *,
    base_seed: int = 0,
    engine: EngineFactory = make_engine,
    progress: Callable[[int], None] | None = None,
    turning: bool = False,
) -> Stats:
    """Play game i for every i in `seeds`, dealt from `game_seed(base_seed, i)`, and count.

    `bots` names one bot for all seats or one per seat; with `turning`, any number of bots that take
    turns round the seats from one game to the next (`five35.engine.bots.turning_seats`), as the
    report seats them. `engine` builds the game (a variant or a planted-bug subclass of Game in
    tests). `progress`, if given, is called with 1 after each game; it cannot change the result.
    Raises SpecError for a player count or bot list that cannot be used.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    game = engine(ruleset, players)
    ruleset.hand_size(players)  # a deal the deck cannot supply fails here, before any game
    names = tuple(b if isinstance(b, str) else b.name for b in bots)
    chosen = seat_bots(bots, players) if not turning else ()
    tally = _Tally(players)
    for index in seeds:
        lineup = seat_bots(turning_seats(names, players, index), players) if turning else chosen
        tally.add_game(play_game(game, game_seed(base_seed, index), lineup, mode), mode)
        if progress is not None:
            progress(1)
    return tally.freeze(mode, ruleset.label(), names, turning)


def split(seeds: range, parts: int) -> list[range]:
    """`seeds` cut into at most `parts` consecutive, non-empty ranges of near-equal length."""
    if seeds.step != 1:
        raise ValueError("split needs a range with step 1")
    count = len(seeds)
    if count == 0:
        return []
    parts = max(1, min(parts, count))
    bounds = [seeds.start + count * k // parts for k in range(parts + 1)]
    return [range(lo, hi) for lo, hi in pairwise(bounds)]


def simulate_parallel(
    ruleset: Ruleset,
    players: int,
    seeds: range,
    bots: Sequence[str],
    mode: Mode = "match",
    *,
    base_seed: int = 0,
    jobs: int = 1,
    engine: EngineFactory = make_engine,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> Stats:
    """`simulate` with the seed range cut into parts, run by `executor` (default
    `LocalExecutor(jobs)`: `jobs` worker processes), and the parts merged.

    The result equals `simulate(...)` over the whole range whatever runs it. With more than one
    worker, `engine` and `bots` go to other processes, so they must be picklable (a class defined
    at module level, bot names). `progress` is called with the number of games of each part, in
    order, as the parts come back.
    """
    runner = executor if executor is not None else LocalExecutor(jobs)
    if runner.workers <= 1:
        return simulate(
            ruleset, players, seeds, bots, mode, base_seed=base_seed, engine=engine, progress=progress
        )
    engine(ruleset, players)  # bad player counts and deals fail here, once, not in every worker
    ruleset.hand_size(players)
    seat_bots(bots, players)
    # Several parts per worker keep the workers busy to the end and the progress moving.
    parts = split(seeds, runner.workers * 4)
    if not parts:
        return simulate(ruleset, players, seeds, bots, mode, base_seed=base_seed, engine=engine)
    n = len(parts)
    results = runner.map(
        _simulate_part,
        [ruleset] * n,
        [players] * n,
        parts,
        [tuple(bots)] * n,
        [mode] * n,
        [base_seed] * n,
        [engine] * n,
    )
    stats: list[Stats] = []
    # Closed on any way out, so that an interrupt between two results stops the workers too.
    with contextlib.closing(results):
        for part, result in zip(parts, results, strict=True):
            stats.append(result)
            if progress is not None:
                progress(len(part))
    return merge_all(stats)


@describes_units(lambda ruleset, players, seeds, *rest: f"simulating {games_text(seeds, players)}")
def _simulate_part(
    ruleset: Ruleset,
    players: int,
    seeds: range,
    bots: tuple[str, ...],
    mode: Mode,
    base_seed: int,
    engine: EngineFactory,
) -> Stats:
    # Positional, module-level: what an executor can send to another process.
    return simulate(ruleset, players, seeds, bots, mode, base_seed=base_seed, engine=engine)


__all__ = [
    "DEFAULT_SEED",
    "MATCH_ROUND_LIMIT",
    "EndlessPlay",
    "Step",
    "bot_rngs",
    "game_seed",
    "move_limit",
    "play_game",
    "round_limit",
    "simulate",
    "simulate_parallel",
    "split",
]
