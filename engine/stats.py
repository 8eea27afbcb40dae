"""Counts of simulated play, and their wire format: `Stats` (integer counts, so that `merge(a, b)`
gives exactly the stats of the union of two disjoint seed ranges), their JSON as a reader sees it
(`to_json`: shares, means, intervals) and exactly (`counts_json`), and those counts read back and
checked (`from_counts_json`), naming the file and the key at fault (engine/simulate.py plays the
games they count)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .state import ACTIONS, TRICK_END_REASONS

Mode = Literal["round", "match"]
MODES: tuple[Mode, ...] = ("round", "match")

# "went_out" is not an engine reason: it counts the trick cut short because its player went out.
WENT_OUT = "went_out"
TRICK_END_TALLIES: tuple[str, ...] = (*TRICK_END_REASONS, WENT_OUT)


class SimulationFileError(ValueError):
    """A simulate document that cannot be used or merged; str() is one line `where: message`,
    `where` naming the file (and `message` starting with the key at fault)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class CountsPlace:
    """Where in a simulate document a value is read: the file, and the keys down to it (none at
    the document's top), kept apart so that an error names the file as its place."""

    file: str
    keys: tuple[str, ...] = ()

    def below(self, key: str) -> CountsPlace:
        """One key deeper: `a.json`, then `a.json: counts`, then `a.json: counts.moves`."""
        return CountsPlace(self.file, (*self.keys, key))

    def error(self, message: str) -> SimulationFileError:
        """The error at this place: the file, then the keys down to the value before `message`."""
        return SimulationFileError(self.file, ".".join((*self.keys, message)))


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
    def from_counts_json(data: Any, where: CountsPlace = CountsPlace("counts")) -> Stats:
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


def read_count(data: Mapping[str, Any], key: str, where: CountsPlace) -> int:
    value = data.get(key) if isinstance(data, Mapping) else None
    if key not in data:
        raise where.error(f"{key}: missing")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise where.error(f"{key}: expected a whole number of at least 0, got {json_value(value)}")
    return value


def json_value(value: Any) -> str:
    """A value as an error quotes it: short, in JSON's spelling."""
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _counts_list(data: Mapping[str, Any], key: str, length: int, where: CountsPlace) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != length:
        raise where.error(f"{key}: expected a list of {length} whole numbers, got {json_value(value)}")
    return tuple(read_count({key: v}, key, where) for v in value)


def _reason_names(value: Any) -> tuple[str, ...]:
    """The tallies a document's trick_ends must have: the standard ones and its own others."""
    extra = (
        sorted(k for k in value if isinstance(k, str) and k not in TRICK_END_TALLIES)
        if isinstance(value, Mapping)
        else []
    )
    return (*TRICK_END_TALLIES, *extra)


def _counts_map(
    data: Mapping[str, Any], key: str, names: Sequence[str], where: CountsPlace
) -> dict[str, int]:
    value = data.get(key)
    if not isinstance(value, Mapping) or set(value) != set(names):
        raise where.error(f"{key}: expected an object with exactly the keys {', '.join(names)}")
    return {name: read_count(value, name, where.below(key)) for name in names}


def _histogram(data: Mapping[str, Any], key: str, where: CountsPlace) -> dict[int, int]:
    value = data.get(key)
    out: dict[int, int] = {}
    if not isinstance(value, list):
        raise where.error(f"{key}: expected a list of [value, count] pairs, got {json_value(value)}")
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise where.error(f"{key}[{i}]: expected a [value, count] pair, got {json_value(pair)}")
        v = read_count({"value": pair[0]}, "value", where.below(f"{key}[{i}]"))
        if v in out:
            raise where.error(f"{key}[{i}]: the value {v} is listed twice")
        out[v] = read_count({"count": pair[1]}, "count", where.below(f"{key}[{i}]"))
    return out


def _stats_from_counts(data: Any, where: CountsPlace) -> Stats:
    if not isinstance(data, Mapping):
        raise where.error("expected an object of counts")
    players = read_count(data, "players", where)
    if players < 1:
        raise where.error("players: expected at least 1")
    mode = data.get("mode")
    if mode not in MODES:
        raise where.error(f"mode: expected one of {', '.join(MODES)}, got {json_value(mode)}")
    label = data.get("ruleset")
    if not isinstance(label, str):
        raise where.error(f"ruleset: expected the ruleset's label, got {json_value(label)}")
    bots = data.get("bots")
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise where.error(f"bots: expected a list of bot names, got {json_value(bots)}")
    turning = data.get("turning", False)
    if not isinstance(turning, bool):
        raise where.error(f"turning: expected true or false, got {json_value(turning)}")
    if not turning and len(bots) not in (1, players):
        raise where.error(f"bots: expected 1 or {players} names, got {len(bots)}")
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
