"""`535-check vectors`: write the conformance vectors of a profile (five35.protocol.vectors).

The directory appears whole at the end, or not at all (cli/outputs.py). In a directory that
already holds a suite, the new files replace the old ones and the old suite's vector files that the
new one lacks are removed, so that the directory never mixes two suites.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
from pathlib import Path

import click

from ..protocol.vectors import INDEX, SUITE_FORMAT, build_suite
from ..spec import SpecError
from ..spec.limits import InputLimitError, load_json
from .common import (
    EXIT_OK,
    keep_interrupts_from_z3,
    out_dir_option,
    resolve,
    rules_options,
    seed_option,
)
from .outputs import Outputs

VECTOR_FILE = re.compile(r"^[0-9]{3,}-[a-z0-9-]+\.json$")


def _previous_files(out: Path) -> list[str]:
    """The vector files an earlier suite in `out` lists (none when there is no suite of ours)."""
    try:
        data = load_json((out / INDEX).read_bytes(), str(out / INDEX))
    except (OSError, InputLimitError):
        return []
    if (
        not isinstance(data, dict)
        or data.get("format") != SUITE_FORMAT
        or not isinstance(data.get("vectors"), list)
    ):
        return []
    names = [v.get("file") for v in data["vectors"] if isinstance(v, dict)]
    return [n for n in names if isinstance(n, str) and VECTOR_FILE.match(n)]


@click.command(
    "vectors",
    help="Write the conformance vectors of a profile: one JSON file per protocol conversation (a "
    "deal, the moves that reach a position, then legal, one apply and state with the reference's "
    "answers) and index.json, for an engine to replay in its own test runner "
    "(schema: five35/protocol/schemas/vector.schema.json; a Node runner: examples/vectors-node/). "
    "They cover every clause that governs play, the texts' own examples, deals the rules refuse, "
    "the smallest witness of every reading of the profile the protocol can show (sized as the "
    "divergence check sizes its witnesses), and one seeded round per player count; index.json says "
    "which readings no position can show, and why. The same spec, profile and seed give "
    "byte-identical files.\n\n"
    "Example: 535-check vectors --out vectors --profile german-literal",
)
@rules_options
@out_dir_option("Directory to write the vectors into (made if missing).", required=True)
@seed_option("Seed of the seeded rounds (their deals and moves).")
def vectors(
    spec_path: Path | None, profile: str | None, readings: tuple[str, ...], out: Path, seed: int
) -> None:
    rules = resolve(spec_path, profile, readings)
    start = time.perf_counter()
    with Outputs() as outputs:
        # Reserved before the work, so that a directory that cannot be written fails at once.
        target = outputs.directory(out, "--out")
        stale = _previous_files(out) if target.merge else []
        keep_interrupts_from_z3()

        def progress(done: str) -> None:
            click.echo(f"535-check vectors: {done} done ({time.perf_counter() - start:.1f} s)", err=True)

        suite = build_suite(rules.spec, rules.ruleset, seed, progress=progress)
        files = suite.files()
        for name, text in files.items():
            try:
                (target.temp / name).write_text(text, encoding="utf-8", newline="\n")
            except OSError as exc:
                raise SpecError("--out", f"cannot write {out / name} ({exc.strerror or exc})") from None
        outputs.commit()
    for name in stale:
        if name not in files:
            with contextlib.suppress(OSError):
                (out / name).unlink()
    shown = sum(1 for p in rules.spec.variation_points if p not in suite.not_shown)
    click.echo(
        f"{len(suite.vectors)} vectors written to {out}/ with {INDEX} (rules {rules.ruleset.label()}, "
        f"seed {seed}): {len(suite.index_json()['coverage']['clauses'])} clauses, "
        f"{shown} of {len(rules.spec.variation_points)} variation points shown"
        + (f"; not shown: {', '.join(sorted(suite.not_shown))} (see {INDEX})" if suite.not_shown else "")
    )
    sys.exit(EXIT_OK)


COMMANDS = [vectors]
