"""`535-check merge`: join the JSON of simulate runs over parts of one campaign.

Each FILE is the output of `535-check simulate --format json`; their game ranges (`--first-game`,
`--games`) must be disjoint and together unbroken, and their ruleset, seed, players, mode and bots
the same. The merged document is exactly what one `simulate` over the whole range prints.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.stats import SimulationFileError
from ..spec import SpecError, dumps
from ..spec.files import read_capped
from .common import PathGiven, examples_epilog, format_option
from .simulate_cmd import render_text
from .simulation_files import merge_simulations, read_simulation


@click.command(
    "merge",
    help="Merge the JSON of `simulate --format json` runs over disjoint, adjacent game ranges of "
    "one campaign (same ruleset, seed, players, mode and bots) into the output one run over the "
    "whole range gives, byte for byte. Overlapping or missing games, different runs and damaged "
    "files are refused, naming the file and the key.",
    epilog=examples_epilog(
        [
            "535-check simulate --games 500 --format json > a.json",
            "535-check simulate --games 500 --first-game 500 --format json > b.json",
            "535-check merge a.json b.json > all.json      # = simulate --games 1000 --format json",
        ]
    ),
)
@click.argument(
    "files", nargs=-1, required=True, type=PathGiven(dir_okay=False, path_type=Path), metavar="FILE..."
)
@format_option(
    ["json", "text"], "json", "json: the merged simulate document; text: its summary, as simulate prints it."
)
def merge_cmd(files: tuple[Path, ...], fmt: str) -> None:
    seen: dict[Path, Path] = {}
    for path in files:
        key = path.resolve()
        if key in seen:
            raise SpecError(str(path), f"given twice (also as {seen[key]}): its games would count twice")
        seen[key] = path
    try:
        parts = [read_simulation(read_capped(path), str(path)) for path in files]
        merged = merge_simulations(parts)
    except SimulationFileError as exc:
        raise SpecError(exc.where, exc.message) from None
    click.echo(dumps(merged) if fmt == "json" else render_text(merged))


COMMANDS = [merge_cmd]
