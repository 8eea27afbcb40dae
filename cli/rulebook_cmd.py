"""`535-check rulebook`: the whole rule text of one language with a profile's clarifications placed
at the clauses they clarify, marked, and a short errata list (five35.reports.rulebook).

Without --out the rulebook goes to stdout; with --out it appears whole when the command ends, or not
at all (cli/outputs.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import click

from ..reports.rulebook import FORMATS, LANGUAGES, Format, render, rulebook
from .common import PathGiven, info, resolve, rules_options
from .outputs import Outputs


def _format(fmt: str | None, out: Path | None) -> Format:
    """The format asked for, else the one the output file's name says, else Markdown."""
    if fmt is not None:
        return cast(Format, fmt)
    if out is not None and out.suffix.lower() in (".html", ".htm"):
        return "html"
    return "md"


@click.command(
    "rulebook",
    help="Write the clarified rulebook of one language: the whole rule text (German and Spanish word "
    "for word, English a faithful translation) with the profile's clarifications inserted after the "
    "clauses they clarify, each marked and citing the question it settles, then a short errata list. "
    "The same spec, profile and readings give byte-identical output.",
    epilog="\b\nExamples:\n  535-check rulebook --lang de\n"
    "  535-check rulebook --lang es --profile spanish-literal --out reglas.html",
)
@rules_options
@click.option("--lang", type=click.Choice(LANGUAGES), required=True, help="The rulebook's language.")
@click.option(
    "--out",
    type=PathGiven(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Write the rulebook to FILE instead of stdout.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="md (Markdown) or html (one self-contained page); by default the --out file's suffix, else md.",
)
def rulebook_command(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    lang: str,
    out: Path | None,
    fmt: str | None,
) -> None:
    rules = resolve(spec_path, profile, readings)
    if out is None:
        click.echo(render(rulebook(rules.spec, rules.ruleset, lang), _format(fmt, out)), nl=False)
        return
    with Outputs() as outputs:
        # Reserved first, so that a place that cannot be written fails before anything is made.
        target = outputs.file(out, "--out")
        target.write_text(render(rulebook(rules.spec, rules.ruleset, lang), _format(fmt, out)))
        outputs.commit()
    info(f"535-check rulebook: wrote {out}")


COMMANDS = [rulebook_command]
