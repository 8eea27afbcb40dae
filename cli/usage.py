"""One error style: any of click's errors as one line `PLACE: what was expected`, PLACE being the
option, argument or command at fault."""

from __future__ import annotations

import re
from collections.abc import Sequence

import click

from .common import one_line


def _plain(message: str) -> str:
    """click's sentence ("'x' is not a valid integer.") as a clause after `PLACE: `."""
    message = one_line(message).rstrip(".")
    return message[:1].lower() + message[1:] if message[:2] != message[:2].upper() else message


def _param_place(param: click.Parameter | None, hint: str | Sequence[str] | None) -> str:
    if isinstance(param, click.Option):
        # The long name is the one the README and --help show.
        return max(param.opts, key=len)
    if isinstance(param, click.Argument):
        return param.human_readable_name
    if isinstance(hint, str):
        return hint.strip("'\"")
    if hint:
        return " / ".join(h.strip("'\"") for h in hint)
    return "argument"


def _command_place(ctx: click.Context | None) -> str:
    """The subcommand at fault (`simulate`), empty at the top level."""
    if ctx is None or ctx.parent is None:
        return ""
    return ctx.command_path.removeprefix(ctx.find_root().info_name or "").strip()


_NOT_A_NUMBER = re.compile(
    r"^'?(?P<value>.*?)'? is not (?:a valid (?:integer|float)(?: range)?|in the range .*?)\.?$", re.DOTALL
)


def _bounds(kind: click.IntRange | click.FloatRange) -> str:
    low, high = kind.min, kind.max
    lower = f"{'above' if kind.min_open else 'of at least'} {low}" if low is not None else ""
    upper = f"{'below' if kind.max_open else 'at most'} {high}" if high is not None else ""
    if low is not None and high is not None and not kind.min_open and not kind.max_open:
        return f" from {low} to {high}"
    if lower and upper:
        return f" {lower} and {upper}"
    return f" {lower or upper}" if lower or upper else ""


def _number_message(exc: click.BadParameter) -> str | None:
    """One style for every bad number, whichever of click's number types refused it:
    `expected a whole number from 0 to 9, got -1`."""
    kind = exc.param.type if exc.param is not None else None
    found = _NOT_A_NUMBER.match(one_line(exc.message))
    if found is None or not isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return None
    what = "a whole number" if isinstance(kind, click.types.IntParamType) else "a number"
    if isinstance(kind, click.IntRange | click.FloatRange):
        what += _bounds(kind)
    return f"expected {what}, got {found['value']}"


def usage_message(exc: click.ClickException) -> str:
    """One line `PLACE: what was expected` for any of click's errors."""
    if isinstance(exc, click.NoSuchOption):
        message = f"{exc.option_name}: no such option"
        if exc.possibilities:
            message += f" (did you mean {', '.join(sorted(exc.possibilities))}?)"
        return message
    if isinstance(exc, click.BadOptionUsage):
        # "Option '--seed' requires an argument." names the option already: keep the rest.
        rest = re.sub(r"^Option '[^']*' ", "", one_line(exc.message))
        return f"{exc.option_name}: {_plain(rest)}"
    if isinstance(exc, click.MissingParameter):
        place = _param_place(exc.param, exc.param_hint)
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        return f"{place}: missing (a required {kind})"
    if isinstance(exc, click.BadParameter):
        number = _number_message(exc)
        return f"{_param_place(exc.param, exc.param_hint)}: {number or _plain(exc.message)}"
    if isinstance(exc, click.UsageError):
        message = _plain(exc.message)
        if message.startswith("no such command") and exc.ctx is not None:
            group = exc.ctx.command
            if isinstance(group, click.Group):
                message += f" (commands: {', '.join(group.list_commands(exc.ctx))})"
        place = _command_place(exc.ctx)
        return f"{place}: {message}" if place else message
    return _plain(exc.format_message())
