"""Simulated play by bots, as pure functions over seed ranges.

`simulate(ruleset, players, seeds, bots, mode)` plays one game (a round or a whole match) for every
game number i in `seeds` and returns `Stats`. Game i is dealt from `game_seed(base_seed, i)` and its
bots draw from RNGs seeded from that same number, so the result depends only on the arguments.
`Stats` are integer counts, and `merge(a, b)` gives exactly the stats of the union of two disjoint
seed ranges: a long simulation can be split across processes and merged (`simulate_parallel`
does exactly that, through an `Executor`, and returns the same Stats as `simulate`).

A match the loader could not prove to end (`Ruleset.round_bound` is None, e.g. some ranks score
no points) stops after MATCH_ROUND_LIMIT rounds; `Stats.round_limited` counts those matches.

`simulation_json(...)` is the document `535-check simulate --format json` prints: the counts as
read (`stats`) and exactly (`counts`), and the game range they cover. `merge_simulations` merges
such documents of disjoint, adjacent game ranges of one ruleset, seed, mode and bots into the
document one run over the union prints, byte for byte (`535-check merge`).

`play_game(game, seed, bots, mode)` yields every step of one game as `Step(state, move, events)`,
for anything that needs the game itself rather than its counts (reports, traces, replays).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Literal, NamedTuple

from ..executor import Executor, LocalExecutor, describes_units, games_text
from ..spec import Ruleset, SpecError
from ..spec.model import MATCH_ROUND_LIMIT
from .bots import Bot, seat_bots, turning_seats
from .engines import Engine, make_engine
from .state import ACTIONS, TRICK_END_REASONS, Event, MatchEnd, Move, RoundEnd, State, TrickEnd

Mode = Literal["round", "match"]
MODES: tuple[Mode, ...] = ("round", "match")

#: The seed every command uses when none is given (`check`, `report`, `simulate`, the default job),
#: so that their outputs are about the same games.
DEFAULT_SEED = 535

# "went_out" is not an engine reason: it counts the trick cut short because its player went out.
WENT_OUT = "went_out"
TRICK_END_TALLIES: tuple[str, ...] = (*TRICK_END_REASONS, WENT_OUT)


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


def _hist_json(hist: Mapping[int, int]) -> dict[str, Any]:
    total = sum(hist.values())
    weighted = sum(v * n for v, n in hist.items())
    return {
        "count": total,
        "mean": round(weighted / total, 4) if total else None,
        "min": min(hist) if hist else None,
        "max": max(hist) if hist else None,
        # Pairs, not an object: JSON object keys would sort as strings ("10" before "9").
        "histogram": [[v, hist[v]] for v in sorted(hist)],
    }


def _ci(count: int, total: int) -> list[float] | None:
    interval = wilson_interval(count, total)
    return list(interval) if interval else None


def _share(count: int, total: int) -> float | None:
    return round(count / total, 4) if total else None


def wilson_interval(count: int, total: int, z: float = 1.959964) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a share: honest at small counts and near 0 or 1, where the
    normal approximation is not."""
    if not total:
        return None
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


@dataclass(frozen=True)
class Stats:
    """Counts over simulated games. Every field is an integer count (or a histogram of counts), so
    merging is exact and the order of merging never shows."""

    players: int
    mode: Mode
    ruleset: str
    bots: tuple[str, ...]
    games: int = 0
    rounds: int = 0
    moves: Mapping[str, int] = field(default_factory=dict)  # by action
    tricks: int = 0
    trick_ends: Mapping[str, int] = field(default_factory=dict)  # by reason; one trick can have two
    moves_per_round: Mapping[int, int] = field(default_factory=dict)  # histogram
    tricks_per_round: Mapping[int, int] = field(default_factory=dict)  # histogram
    rounds_per_game: Mapping[int, int] = field(default_factory=dict)  # histogram
    penalties: tuple[int, ...] = ()  # per seat, summed over all rounds
    scores: tuple[int, ...] = ()  # per seat, final score summed over games
    went_out: tuple[int, ...] = ()  # per seat: rounds in which the seat went out
    wins: tuple[int, ...] = ()  # per seat: games the seat won (a tie counts for every tied seat)
    first_leads: tuple[int, ...] = ()  # per seat: games in which the seat led the first trick
    first_leader_wins: int = 0  # games won (alone or tied) by the player who led the first trick
    ties: int = 0  # games with more than one winner
    round_limited: int = 0  # matches stopped by the round limit (scored as they stood)
    # The bots took turns round the seats from one game to the next (`turning_seats`): `bots` is
    # then the order they take their turns in, not one bot per seat.
    turning: bool = False

    @staticmethod
    def empty(players: int, mode: Mode, ruleset: str, bots: Sequence[str]) -> Stats:
        zeros = (0,) * players
        return Stats(
            players=players,
            mode=mode,
            ruleset=ruleset,
            bots=tuple(bots),
            moves=dict.fromkeys(ACTIONS, 0),
            trick_ends=dict.fromkeys(TRICK_END_TALLIES, 0),
            penalties=zeros,
            scores=zeros,
            went_out=zeros,
            wins=zeros,
            first_leads=zeros,
        )

    def __add__(self, other: Stats) -> Stats:
        return merge(self, other)

    @property
    def reasons(self) -> tuple[str, ...]:
        """The trick-end tallies: the four the texts give and going out, then any reason a
        ruleset's own trick-end rules give (a house rule), by name."""
        extra = sorted(r for r in self.trick_ends if r not in TRICK_END_TALLIES)
        return (*TRICK_END_TALLIES, *extra)

    @property
    def rule_of_8(self) -> int:
        """Tricks ended by the Rule of 8."""
        return self.trick_ends.get("rule_of_8", 0)

    def to_json(self) -> dict[str, Any]:
        games, rounds, total_moves = self.games, self.rounds, sum(self.moves.values())
        return {
            "players": self.players,
            "mode": self.mode,
            "ruleset": self.ruleset,
            "bots": list(self.bots),
            "games": games,
            "rounds": rounds,
            "moves": {
                "total": total_moves,
                "by_action": {a: self.moves.get(a, 0) for a in ACTIONS},
                "share_by_action": {a: _share(self.moves.get(a, 0), total_moves) for a in ACTIONS},
            },
            "tricks": {
                "total": self.tricks,
                "ends_by_reason": {r: self.trick_ends.get(r, 0) for r in self.reasons},
                "share_by_reason": {r: _share(self.trick_ends.get(r, 0), self.tricks) for r in self.reasons},
                "rule_of_8_firings": self.rule_of_8,
            },
            "round_length": {
                "moves": _hist_json(self.moves_per_round),
                "tricks": _hist_json(self.tricks_per_round),
            },
            "rounds_per_game": _hist_json(self.rounds_per_game),
            "seats": [
                {
                    "seat": seat,
                    "bot": (
                        "taking turns: " + "/".join(self.bots)
                        if self.turning
                        else self.bots[seat]
                        if len(self.bots) > 1
                        else self.bots[0]
                    ),
                    "mean_penalty_per_round": _share(self.penalties[seat], rounds),
                    "mean_final_score": _share(self.scores[seat], games),
                    "went_out": self.went_out[seat],
                    "wins": self.wins[seat],
                    "win_share": _share(self.wins[seat], games),
                    "led_first_trick": self.first_leads[seat],
                }
                for seat in range(self.players)
            ],
            "first_leader": {
                "wins": self.first_leader_wins,
                "win_share": _share(self.first_leader_wins, games),
                "win_share_ci95": _ci(self.first_leader_wins, games),
                # With no advantage the first leader wins a 1/players share (a little more with ties).
                "fair_share": round(1 / self.players, 4),
            },
            "ties": self.ties,
            "stopped_by_round_limit": self.round_limited,
        }

    def counts_json(self) -> dict[str, Any]:
        """Every count exactly (to_json rounds means and shares): what `from_counts_json` reads
        back, so that stats written out can be merged."""
        return {
            "players": self.players,
            "mode": self.mode,
            "ruleset": self.ruleset,
            "bots": list(self.bots),
            "games": self.games,
            "rounds": self.rounds,
            "moves": {a: self.moves.get(a, 0) for a in ACTIONS},
            "tricks": self.tricks,
            "trick_ends": {r: self.trick_ends.get(r, 0) for r in self.reasons},
            "moves_per_round": [[v, self.moves_per_round[v]] for v in sorted(self.moves_per_round)],
            "tricks_per_round": [[v, self.tricks_per_round[v]] for v in sorted(self.tricks_per_round)],
            "rounds_per_game": [[v, self.rounds_per_game[v]] for v in sorted(self.rounds_per_game)],
            "penalties": list(self.penalties),
            "scores": list(self.scores),
            "went_out": list(self.went_out),
            "wins": list(self.wins),
            "first_leads": list(self.first_leads),
            "first_leader_wins": self.first_leader_wins,
            "ties": self.ties,
            "round_limited": self.round_limited,
            # Only where it is so: the files `simulate` writes keep their keys.
            **({"turning": True} if self.turning else {}),
        }

    @staticmethod
    def from_counts_json(data: Any, where: str = "counts") -> Stats:
        """The Stats `counts_json` wrote; SimulationFileError naming `where` and the key at fault."""
        return _stats_from_counts(data, where)


def _add_tuples(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _add_maps(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    out = dict(a)
    for key, n in b.items():
        out[key] = out.get(key, 0) + n
    return out


def merge(a: Stats, b: Stats) -> Stats:
    """The stats of the games of `a` and the games of `b` together."""
    for name in ("players", "mode", "ruleset", "bots", "turning"):
        if getattr(a, name) != getattr(b, name):
            raise ValueError(
                f"cannot merge stats with different {name}: {getattr(a, name)!r} and {getattr(b, name)!r}"
            )
    return Stats(
        players=a.players,
        mode=a.mode,
        ruleset=a.ruleset,
        bots=a.bots,
        games=a.games + b.games,
        rounds=a.rounds + b.rounds,
        moves=_add_maps(a.moves, b.moves),
        tricks=a.tricks + b.tricks,
        trick_ends=_add_maps(a.trick_ends, b.trick_ends),
        moves_per_round=_add_maps(a.moves_per_round, b.moves_per_round),
        tricks_per_round=_add_maps(a.tricks_per_round, b.tricks_per_round),
        rounds_per_game=_add_maps(a.rounds_per_game, b.rounds_per_game),
        penalties=_add_tuples(a.penalties, b.penalties),
        scores=_add_tuples(a.scores, b.scores),
        went_out=_add_tuples(a.went_out, b.went_out),
        wins=_add_tuples(a.wins, b.wins),
        first_leads=_add_tuples(a.first_leads, b.first_leads),
        first_leader_wins=a.first_leader_wins + b.first_leader_wins,
        ties=a.ties + b.ties,
        round_limited=a.round_limited + b.round_limited,
        turning=a.turning,
    )


# ---- Stats's counts read back (cli/simulation_files.py reads the documents around them) --------


class SimulationFileError(ValueError):
    """A simulate document that cannot be used or merged; str() is one line `where: message`,
    `where` naming the file (and `message` starting with the key at fault)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def count_error(where: str, message: str) -> SimulationFileError:
    # `where` may carry the key path already ("a.json: counts"): the file stays the place.
    file, sep, keys = where.partition(": ")
    return SimulationFileError(file, f"{keys}.{message}" if sep else message)


def sub_place(where: str, key: str) -> str:
    """`where` one key deeper: `a.json: counts`, then `a.json: counts.moves`."""
    return f"{where}.{key}" if ": " in where else f"{where}: {key}"


def read_count(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key) if isinstance(data, Mapping) else None
    if key not in data:
        raise count_error(where, f"{key}: missing")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise count_error(where, f"{key}: expected a whole number of at least 0, got {json_value(value)}")
    return value


def json_value(value: Any) -> str:
    """A value as an error quotes it: short, in JSON's spelling."""
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _counts_list(data: Mapping[str, Any], key: str, length: int, where: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != length:
        raise count_error(where, f"{key}: expected a list of {length} whole numbers, got {json_value(value)}")
    return tuple(read_count({key: v}, key, where) for v in value)


def _reason_names(value: Any) -> tuple[str, ...]:
    """The tallies a document's trick_ends must have: the standard ones and its own others."""
    extra = (
        sorted(k for k in value if isinstance(k, str) and k not in TRICK_END_TALLIES)
        if isinstance(value, Mapping)
        else []
    )
    return (*TRICK_END_TALLIES, *extra)


def _counts_map(data: Mapping[str, Any], key: str, names: Sequence[str], where: str) -> dict[str, int]:
    value = data.get(key)
    if not isinstance(value, Mapping) or set(value) != set(names):
        raise count_error(where, f"{key}: expected an object with exactly the keys {', '.join(names)}")
    return {name: read_count(value, name, sub_place(where, key)) for name in names}


def _histogram(data: Mapping[str, Any], key: str, where: str) -> dict[int, int]:
    value = data.get(key)
    out: dict[int, int] = {}
    if not isinstance(value, list):
        raise count_error(where, f"{key}: expected a list of [value, count] pairs, got {json_value(value)}")
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise count_error(where, f"{key}[{i}]: expected a [value, count] pair, got {json_value(pair)}")
        v = read_count({"value": pair[0]}, "value", sub_place(where, f"{key}[{i}]"))
        if v in out:
            raise count_error(where, f"{key}[{i}]: the value {v} is listed twice")
        out[v] = read_count({"count": pair[1]}, "count", sub_place(where, f"{key}[{i}]"))
    return out


def _stats_from_counts(data: Any, where: str) -> Stats:
    if not isinstance(data, Mapping):
        raise count_error(where, "expected an object of counts")
    players = read_count(data, "players", where)
    if players < 1:
        raise count_error(where, "players: expected at least 1")
    mode = data.get("mode")
    if mode not in MODES:
        raise count_error(where, f"mode: expected one of {', '.join(MODES)}, got {json_value(mode)}")
    label = data.get("ruleset")
    if not isinstance(label, str):
        raise count_error(where, f"ruleset: expected the ruleset's label, got {json_value(label)}")
    bots = data.get("bots")
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise count_error(where, f"bots: expected a list of bot names, got {json_value(bots)}")
    turning = data.get("turning", False)
    if not isinstance(turning, bool):
        raise count_error(where, f"turning: expected true or false, got {json_value(turning)}")
    if not turning and len(bots) not in (1, players):
        raise count_error(where, f"bots: expected 1 or {players} names, got {len(bots)}")
    return Stats(
        players=players,
        mode=mode,
        ruleset=label,
        bots=tuple(bots),
        games=read_count(data, "games", where),
        rounds=read_count(data, "rounds", where),
        moves=_counts_map(data, "moves", ACTIONS, where),
        tricks=read_count(data, "tricks", where),
        trick_ends=_counts_map(data, "trick_ends", _reason_names(data.get("trick_ends")), where),
        moves_per_round=_histogram(data, "moves_per_round", where),
        tricks_per_round=_histogram(data, "tricks_per_round", where),
        rounds_per_game=_histogram(data, "rounds_per_game", where),
        penalties=_counts_list(data, "penalties", players, where),
        scores=_counts_list(data, "scores", players, where),
        went_out=_counts_list(data, "went_out", players, where),
        wins=_counts_list(data, "wins", players, where),
        first_leads=_counts_list(data, "first_leads", players, where),
        first_leader_wins=read_count(data, "first_leader_wins", where),
        ties=read_count(data, "ties", where),
        round_limited=read_count(data, "round_limited", where),
        turning=turning,
    )


def merge_all(parts: Iterable[Stats]) -> Stats:
    """Merge several stats (at least one)."""
    it = iter(parts)
    try:
        total = next(it)
    except StopIteration:
        raise ValueError("merge_all needs at least one Stats") from None
    for part in it:
        total = merge(total, part)
    return total


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
    "MODES",
    "TRICK_END_REASONS",
    "TRICK_END_TALLIES",
    "WENT_OUT",
    "Mode",
    "SimulationFileError",
    "Stats",
    "Step",
    "bot_rngs",
    "count_error",
    "game_seed",
    "json_value",
    "merge",
    "merge_all",
    "play_game",
    "read_count",
    "round_limit",
    "simulate",
    "simulate_parallel",
    "split",
    "sub_place",
    "wilson_interval",
]
