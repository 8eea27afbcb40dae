"""The documents `535-check simulate --format json` prints and `535-check merge` reads back and
merges: the run's seed, range of games, round limit and ruleset beside its Stats and their counts.
A document that cannot be used is a SimulationFileError naming the file and the key at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..engine.simulate import game_seed
from ..engine.stats import CountsPlace, Mode, SimulationFileError, Stats, json_value, merge_all, read_count
from ..spec.limits import InputLimitError, load_json

SIMULATE_COMMAND = "simulate"


def simulation_json(
    *,
    seed: int,
    first_game: int,
    games: int,
    mode: Mode,
    round_limit: int,
    ruleset: Mapping[str, Any],
    stats: Stats,
) -> dict[str, Any]:
    """The document `535-check simulate --format json` prints for games first_game ..
    first_game + games - 1 of base seed `seed` (`ruleset` is the Ruleset's to_json)."""
    return {
        "command": SIMULATE_COMMAND,
        "seed": seed,
        "first_game": first_game,
        "games": games,
        "first_game_seed": game_seed(seed, first_game),
        # Rounds after which a match is stopped (counted in stats.stopped_by_round_limit).
        "round_limit": round_limit if mode == "match" else None,
        "ruleset": dict(ruleset),
        "stats": stats.to_json(),
        "counts": stats.counts_json(),
    }


@dataclass(frozen=True)
class SimulationPart:
    """One simulate document, read and checked: where it came from, its range, its stats."""

    where: str
    seed: int
    games: range
    round_limit: int | None
    ruleset: Mapping[str, Any]
    stats: Stats


def read_simulation(text: str | bytes, where: str) -> SimulationPart:
    """A simulate document (`--format json`) read through the input limits and checked: the
    counts must be whole and agree with the stats shown beside them. SimulationFileError names
    `where` and the key."""
    try:
        data = load_json(text, where, unique_keys=True)
    except InputLimitError as exc:
        raise SimulationFileError(exc.where, exc.message) from None
    place = CountsPlace(where)
    if not isinstance(data, Mapping) or data.get("command") != SIMULATE_COMMAND:
        raise place.error('command: not the JSON of `535-check simulate --format json` (expected "simulate")')
    seed = read_count(data, "seed", place)
    first = read_count(data, "first_game", place)
    games = read_count(data, "games", place)
    if games < 1:
        raise place.error("games: expected at least 1")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, Mapping):
        raise place.error("ruleset: expected the ruleset object")
    stats = Stats.from_counts_json(data.get("counts"), place.below("counts"))
    if stats.games != games:
        raise place.error(f"counts: games: {stats.games} games counted, but the document covers {games}")
    if stats.to_json() != data.get("stats"):
        raise place.error("stats: does not match the counts beside it (edited by hand?)")
    limit = data.get("round_limit")
    if stats.mode == "match":
        limit = read_count(data, "round_limit", place)
    elif limit is not None:
        raise place.error(f"round_limit: expected null for mode round, got {json_value(limit)}")
    if data.get("first_game_seed") != game_seed(seed, first):
        raise place.error(f"first_game_seed: expected game_seed({seed}, {first}) = {game_seed(seed, first)}")
    return SimulationPart(where, seed, range(first, first + games), limit, ruleset, stats)


def merge_simulations(parts: Sequence[SimulationPart]) -> dict[str, Any]:
    """The document one simulate run over the union of the parts' game ranges would print. The
    parts must share the seed, ruleset, players, mode and bots, and their ranges must neither
    overlap nor leave a gap; SimulationFileError names the file at fault otherwise."""
    if not parts:
        raise ValueError("merge_simulations needs at least one part")
    first = parts[0]
    for part in parts[1:]:
        for name, mine, theirs in (
            ("seed", part.seed, first.seed),
            ("ruleset", part.ruleset, first.ruleset),
            ("counts: players", part.stats.players, first.stats.players),
            ("counts: mode", part.stats.mode, first.stats.mode),
            ("counts: bots", part.stats.bots, first.stats.bots),
            ("round_limit", part.round_limit, first.round_limit),
        ):
            if mine != theirs:
                shown = (
                    ""
                    if name == "ruleset"
                    else f" ({json_value(_plain(mine))}, not {json_value(_plain(theirs))})"
                )
                raise SimulationFileError(
                    part.where,
                    f"{name}: differs from {first.where}'s{shown}; only runs of the same "
                    "ruleset, seed, players, mode and bots merge",
                )
    ordered = sorted(parts, key=lambda p: p.games.start)
    for before, after in pairwise(ordered):
        if after.games.start < before.games.stop:
            raise SimulationFileError(
                after.where,
                f"first_game: games {_span(after.games)} overlap "
                f"{before.where}'s games {_span(before.games)}",
            )
        if after.games.start > before.games.stop:
            raise SimulationFileError(
                after.where,
                f"first_game: games {before.games.stop}-{after.games.start - 1} are in no file "
                f"(between {before.where} and this one); a merge covers one unbroken range",
            )
    stats = merge_all(p.stats for p in ordered)
    start, stop = ordered[0].games.start, ordered[-1].games.stop
    return simulation_json(
        seed=first.seed,
        first_game=start,
        games=stop - start,
        mode=stats.mode,
        round_limit=first.round_limit or 0,
        ruleset=first.ruleset,
        stats=stats,
    )


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _span(games: range) -> str:
    return f"{games.start}-{games.stop - 1}"
