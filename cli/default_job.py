"""What `535-check` does with no command: load and validate the embedded spec and summarise it."""

from __future__ import annotations

import click
from five35.spec import load_spec

from .main import EXIT_OK


def default_job() -> int:
    spec = load_spec()
    click.echo(
        f"{spec.path}: {len(spec.clauses)} clauses, {len(spec.variation_points)} variation points, "
        f"{len(spec.profiles)} profiles (default {spec.default_profile})"
    )
    return EXIT_OK
