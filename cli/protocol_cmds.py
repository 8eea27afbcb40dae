"""`535-check serve | replay | perft`: the engine protocol commands (docs/protocol.md); `fuzz` is
fuzz_cmd.py's.

Exit codes: 0 the engines agree, 1 a divergence (replay) or a differing subtree (perft), 2 bad
input, 3 an engine fault (crash, timeout, malformed or oversized output, protocol violation).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from ..protocol.client import EngineFault, engine_session
from ..protocol.compare import agree_on_rules
from ..protocol.messages import move_json
from ..protocol.perft import PerftRun, perft_run
from ..protocol.replay import hello_notes, load_replay, run_replay, side_by_side
from ..protocol.server import INTERPRETER_NAME, REFERENCE_NAME, ReferenceEngine, serve
from ..spec import dumps, load_spec
from .common import EXIT_FAILED, EXIT_OK, SEED, parse_readings, resolve, rules_options
from .engine_common import engine_options, fault_exit, show_notes, summary_format_option

# ---- serve -------------------------------------------------------------------------------------


@click.command("serve")
@rules_options
@click.option(
    "--name",
    default=None,
    help=f"Name the server answers to hello (default: {REFERENCE_NAME!r}, or {INTERPRETER_NAME!r} when the "
    "spec interpreter plays the rules).",
)
def serve_cmd(
    spec_path: Path | None, profile: str | None, readings: tuple[str, ...], name: str | None
) -> None:
    """Run the reference engine as a protocol server: JSON Lines on stdin and stdout."""
    choice = resolve(spec_path, profile, readings)
    with contextlib.suppress(BrokenPipeError):
        serve(ReferenceEngine(choice.ruleset, name), sys.stdin.buffer, sys.stdout.buffer)
    sys.exit(EXIT_OK)


# ---- replay ------------------------------------------------------------------------------------


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@rules_options
@click.option("--engine", "target", required=True, help="Engine command line, or python:MODULE:FACTORY.")
@engine_options
@summary_format_option
def replay_cmd(
    file: Path,
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    target: str,
    timeout: float,
    max_line: int,
    fmt: str,
) -> None:
    """Re-run a replay file and show both engines' answers side by side at the diverging step."""
    replay = load_replay(file)
    spec = load_spec(spec_path)
    ruleset = replay.ruleset(spec, profile, parse_readings(readings))
    # The deal is checked before any engine starts: a bad replay is bad input (exit 2).
    deal = replay.position(ruleset)
    try:
        with engine_session(target, timeout, max_line) as engine:
            notes = hello_notes(spec, ruleset, engine.hello())
            result = run_replay(replay, ruleset, engine)
    except EngineFault as fault:
        fault_exit(fault, fmt, {"replay": str(file), "engine": target})
    show_notes(notes)
    d = result.divergence
    if fmt == "json":
        click.echo(
            dumps(
                {
                    "replay": str(file),
                    "engine": target,
                    "result": "divergence" if d else "agree",
                    "moves_played": len(result.moves),
                    "divergence": d.to_json() if d else None,
                }
            )
        )
    else:
        click.echo(
            f"replay {file}: {deal.players} players, {len(replay.moves)} moves, reference {ruleset.label()}"
        )
        for seat, hand in enumerate(deal.hands):
            click.echo(f"  hand {seat}: {list(hand)}")
        for i, move in enumerate(result.moves):
            click.echo(f"  step {i}: {move}")
        if d is None:
            click.echo(
                f"no divergence: the engine agrees with the reference on all {len(result.moves)} moves"
            )
        else:
            request = f"apply {move_json(d.move)}" if d.move else d.request
            click.echo(f"diverges at step {d.step}, request {request}:")
            click.echo(f"  {d.summary}")
            click.echo(side_by_side(d.reference, d.engine))
    sys.exit(EXIT_FAILED if d else EXIT_OK)


# ---- perft -------------------------------------------------------------------------------------


@click.command("perft")
@rules_options
@click.option("--players", type=click.IntRange(min=2, max=12), required=True, help="Player count.")
@click.option("--seed", type=SEED, required=True, help="Seed of the deal (game.new_match(seed)).")
@click.option("--depth", type=click.IntRange(min=0, max=12), required=True, help="Plies to count.")
@click.option(
    "--engine", "target", default=None, help="Compare with this engine; stop at the first difference."
)
@engine_options
@summary_format_option
def perft_cmd(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    players: int,
    seed: int,
    depth: int,
    target: str | None,
    timeout: float,
    max_line: int,
    fmt: str,
) -> None:
    """Count the leaves of the legal-move tree from a seeded deal, with a divide per root move."""
    choice = resolve(spec_path, profile, readings)
    choice.ruleset.check_players(players)  # before any engine starts
    if target is None:
        _perft_out(fmt, perft_run(choice.ruleset, players, seed, depth))
        sys.exit(EXIT_OK)
    try:
        with engine_session(target, timeout, max_line) as engine:
            ruleset, _, notes = agree_on_rules(choice.spec, choice.ruleset, engine, parse_readings(readings))
            run = perft_run(ruleset, players, seed, depth, engine)
    except EngineFault as fault:
        fault_exit(fault, fmt, {"engine": target, "players": players, "seed": seed, "depth": depth})
    show_notes(notes)
    _perft_out(fmt, run)
    sys.exit(EXIT_FAILED if run.difference else EXIT_OK)


def _perft_out(fmt: str, run: PerftRun) -> None:
    if fmt == "json":
        click.echo(dumps(run.to_json()))
        return
    for line in run.lines():
        click.echo(line)


COMMANDS = [serve_cmd, replay_cmd, perft_cmd]
