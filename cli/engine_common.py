"""What the commands that drive an engine share (`fuzz`, `replay`, `perft`; docs/protocol.md): the
--timeout and --max-line options, --format text|json, and how an engine fault and the notes of the
agreement on the rules are told.
"""

from __future__ import annotations

import math
import sys
from typing import Any, NoReturn

import click

from ..protocol.client import DEFAULT_MAX_LINE, DEFAULT_TIMEOUT, EngineFault
from ..spec import dumps
from .common import EXIT_ENGINE_FAULT, format_option


def finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    # FloatRange lets nan through (every comparison with nan is false) and inf would never end.
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"expected a finite number of seconds, got {value}", ctx, param)
    return value


SECONDS = click.FloatRange(min=0, min_open=True, max=86400)


_MAX_LINE = click.option(
    "--max-line",
    type=click.IntRange(min=1024, max=1 << 30),
    default=DEFAULT_MAX_LINE,
    show_default=True,
    help="Longest answer line accepted, in bytes; longer is an engine fault.",
)
_TIMEOUT = click.option(
    "--timeout",
    type=SECONDS,
    callback=finite,
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds the engine may take per request (in-process engines too); longer is an engine fault.",
)


def engine_options(func: Any) -> Any:
    """--timeout and --max-line, in this order in --help."""
    return _TIMEOUT(_MAX_LINE(func))


def summary_format_option(func: Any) -> Any:
    return format_option(
        ["text", "json"], "text", "text: a summary for people; json: one JSON document on stdout, for tools."
    )(func)


def fault_exit(fault: EngineFault, fmt: str, extra: dict[str, Any] | None = None) -> NoReturn:
    """Exit 3 with one line on stderr naming the request; with --format json the fault (and the
    transcript of the last exchanges) is also the JSON result on stdout."""
    if fmt == "json":
        click.echo(dumps({**(extra or {}), "result": "engine_fault", "fault": fault.to_json()}))
    click.echo(f"535-check: error: {fault}", err=True)
    sys.exit(EXIT_ENGINE_FAULT)


def show_notes(notes: tuple[str, ...] | list[str]) -> None:
    # Printed once the run has an outcome, so that an error stays the only line on stderr.
    for note in notes:
        click.echo(f"535-check: note: {note}", err=True)
