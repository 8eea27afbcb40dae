"""`535-check simulate`: bots play seeded games under a ruleset; print the counts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from ..engine.bots import BOTS, seat_bots
from ..engine.engines import engine_note
from ..engine.simulate import round_limit, simulate_parallel
from ..engine.stats import MODES, Mode, Stats
from ..reports.check_formats import plural
from ..spec import dumps
from ..spec.words import words_of
from .common import (
    cli_executor,
    examples_epilog,
    executor_options,
    format_option,
    games_option,
    jobs_option,
    resolve,
    rules_options,
    seed_option,
)
from .progress import progress
from .simulation_files import simulation_json

BOT_HELP = "; ".join(f"{b.name}: {b.explain}" for b in BOTS.values())


def _bar(count: int, top: int, width: int = 30) -> str:
    return "#" * max(1, round(width * count / top)) if count else ""


def _histogram_lines(pairs: list[list[int]], bins: int = 10) -> list[str]:
    """A text histogram, values grouped into at most `bins` equal bins."""
    if not pairs:
        return []
    low, high = pairs[0][0], pairs[-1][0]
    width = max(1, -(-(high - low + 1) // bins))
    counts: dict[int, int] = {}
    for value, n in pairs:
        start = low + (value - low) // width * width
        counts[start] = counts.get(start, 0) + n
    top = max(counts.values())
    lines = []
    for start in range(low, high + 1, width):
        end = min(start + width - 1, high)
        label = f"{start}" if start == end else f"{start}-{end}"
        n = counts.get(start, 0)
        lines.append(f"    {label:>9} {n:>6}  {_bar(n, top)}")
    return lines


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:5.1f}%"


def _interval(bounds: list[float] | None) -> str:
    return "-" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _engine_line(data: Mapping[str, Any]) -> list[str]:
    ruleset = data.get("ruleset")
    return [str(ruleset["engine"])] if isinstance(ruleset, Mapping) and "engine" in ruleset else []


def render_text(data: Mapping[str, Any]) -> str:
    """The summary table of a `simulate` JSON document."""
    s = data["stats"]
    unit, units = ("match", "matches") if s["mode"] == "match" else ("round", "rounds")
    bots = ",".join(s["bots"])
    out = [
        f"535-check simulate: {plural(s['games'], unit, units)}, {s['players']} players, "
        f"ruleset {s['ruleset']}, "
        f"bots {bots}",
        *(
            [data["ruleset"]["engine"]]
            if isinstance(data.get("ruleset"), Mapping) and "engine" in data["ruleset"]
            else []
        ),
        f"seed {data['seed']} (game i is dealt from game_seed({data['seed']}, i); "
        + (
            f"game 0 seed {data['first_game_seed']})"
            if data["first_game"] == 0
            else f"games {data['first_game']}-{data['first_game'] + data['games'] - 1}, "
            f"game {data['first_game']} seed {data['first_game_seed']})"
        ),
        "",
    ]
    moves = s["moves"]
    out.append(f"moves {moves['total']:>9}   per round {_num(s['round_length']['moves']['mean'], 1)}")
    for action, n in moves["by_action"].items():
        out.append(f"  {action:<14} {n:>9}  {_pct(moves['share_by_action'][action])}")
    tricks = s["tricks"]
    out.append(f"tricks {tricks['total']:>8}   per round {_num(s['round_length']['tricks']['mean'], 1)}")
    out.append("  trick ends by reason (one trick can end for two reasons at once):")
    for reason in tricks["ends_by_reason"]:
        n = tricks["ends_by_reason"][reason]
        out.append(f"  {reason:<14} {n:>9}  {_pct(tricks['share_by_reason'][reason])}")
    out.append(f"  Rule of 8 fired {plural(tricks['rule_of_8_firings'], 'time')}")
    out.append("")
    for name, key in (("moves per round", "moves"), ("tricks per round", "tricks")):
        h = s["round_length"][key]
        out.append(f"{name}: mean {_num(h['mean'])}, min {h['min']}, max {h['max']}")
        out.extend(_histogram_lines(h["histogram"]))
    rpg = s["rounds_per_game"]
    if s["mode"] == "match":
        out.append(f"rounds per match: mean {_num(rpg['mean'])}, min {rpg['min']}, max {rpg['max']}")
        out.extend(_histogram_lines(rpg["histogram"]))
        out.append(
            f"matches stopped by the round limit ({plural(data['round_limit'], 'round')}; the rules "
            f"could not be proved to end a match): {s['stopped_by_round_limit']}"
            if s["stopped_by_round_limit"]
            else f"matches stopped by the round limit ({plural(data['round_limit'], 'round')}): 0"
        )
    out.append("")
    out.append("seat  bot        penalty/round  final score  went out   wins  win share  led first")
    for seat in s["seats"]:
        out.append(
            f"{seat['seat']:>4}  {seat['bot']:<10} {_num(seat['mean_penalty_per_round']):>13}  "
            f"{_num(seat['mean_final_score']):>11}  {seat['went_out']:>8}  {seat['wins']:>5}  "
            f"{_pct(seat['win_share']):>9}  {seat['led_first_trick']:>9}"
        )
    first = s["first_leader"]
    out.append(
        f"first leader won {first['wins']} of {plural(s['games'], unit, units)} "
        f"({_pct(first['win_share']).strip()}, "
        f"95% interval {_interval(first['win_share_ci95'])}; no advantage would be about "
        f"{_pct(first['fair_share']).strip()})"
    )
    out.append(f"ties: {plural(s['ties'], unit, units)} (a tie counts as a win for each tied seat)")
    return "\n".join(out)


@click.command(
    "simulate",
    help="Bots play seeded games and the counts are printed: moves by action, tricks and why they "
    "ended, Rule-of-8 firings, round lengths, rounds per match, penalties and wins per seat, the "
    "first leader's advantage and ties.\n\n"
    "Game i of N is dealt from a seed derived from (--seed, i), so the same arguments always give "
    "the same output. --first-game cuts a long campaign into parts (on several machines, or with "
    "--executor dask on a cluster) whose JSON `535-check merge` joins into the output of one run."
    "\n\nBots: " + BOT_HELP + ".",
    epilog=examples_epilog(
        [
            "535-check simulate --players 4 --games 1000 --seed 7",
            "535-check simulate --players 3 --bots greedy,random,cautious --mode round --format json",
            "535-check simulate --reading run_wrap=wrap --jobs 2",
            "535-check simulate --games 5000 --first-game 5000 --format json > part2.json",
            "535-check simulate --games 100000 --executor dask --scheduler tcp://10.0.0.5:8786",
        ]
    ),
)
@click.option(
    "--players",
    type=int,
    default=4,
    show_default=True,
    metavar="P",
    help="Number of players: 2-6, or what the --spec file's players bounds allow.",
)
@games_option(200, "Number of games (matches or rounds, see --mode) to play.")
@click.option(
    "--first-game",
    type=click.IntRange(min=0, max=2**62),
    default=0,
    show_default=True,
    metavar="I",
    help="Number of the first game: games I to I+N-1 are played, so that parts of one campaign "
    "can run apart and be merged (`535-check merge`).",
)
@seed_option("Base seed; every deal and every bot's choice derives from it.")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="match",
    show_default=True,
    help="A game is a whole match (rounds until someone reaches the match-end score; the "
    "default) or a single round.",
)
@click.option(
    "--bots",
    "bots_text",
    default="random",
    show_default=True,
    metavar="B[,B...]",
    help=f"Bots: one name for every seat, or one per seat ({', '.join(BOTS)}).",
)
@jobs_option(1, "J", "Processes to split the games across; the output is the same for every J.")
@format_option(
    ["text", "json"],
    "text",
    "json prints only JSON on stdout (with exact counts, so that parts can be merged).",
)
@executor_options
@rules_options
def simulate_cmd(
    players: int,
    games: int,
    first_game: int,
    seed: int,
    mode: Mode,
    bots_text: str,
    jobs: int,
    fmt: str,
    executor_kind: str,
    scheduler: str | None,
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
) -> None:
    # The bounds of --players come from the ruleset (2-6 in the embedded spec), checked once it is loaded.
    bots = [name.strip() for name in bots_text.split(",")]
    choice = resolve(spec_path, profile, readings)
    ruleset = choice.ruleset
    ruleset.check_players(players)
    ruleset.hand_size(players)
    seat_bots(bots, players)
    seeds = range(first_game, first_game + games)

    # A bar in a terminal; in a pipe or a CI log a plain line every few seconds instead.
    with cli_executor(executor_kind, jobs, scheduler) as executor:

        def run(progress: Callable[[int], None] | None) -> Stats:
            return simulate_parallel(
                ruleset, players, seeds, bots, mode, base_seed=seed, progress=progress, executor=executor
            )

        with progress("simulate", "games", games, "simulating") as advance:
            stats = run(advance)
    data = simulation_json(
        seed=seed,
        first_game=first_game,
        games=games,
        mode=mode,
        round_limit=round_limit(ruleset),
        ruleset={**ruleset.to_json(), "engine": engine_note(ruleset, words_of(choice.spec).engines)},
        stats=stats,
    )
    if fmt == "json":
        click.echo(dumps(data))
    else:
        click.echo(render_text(data))


COMMANDS = [simulate_cmd]
