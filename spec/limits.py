"""Limits on every input five35 reads: size and nesting depth, checked before a parser recurses.

Python's `json` and PyYAML both recurse per nesting level, so a few kilobytes of `[[[[...` raise
RecursionError (a traceback) instead of an error the user can act on. `json_depth` scans the text
once, without recursion, and every JSON reader in five35 goes through `load_json`.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64  # no spec, replay, baseline or protocol message of five35 nests deeper than ~8
MAX_FILE_BYTES = 4 << 20  # a spec file or replay; the embedded spec is ~40 KB


class InputLimitError(ValueError):
    """Input over a limit, or not parseable. `str()` is one line: `where: message`."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def json_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in JSON text, skipping string contents. Linear, no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python's json accepts them unless told otherwise.
    raise ValueError(f"{name} is not a JSON value")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys without a word: in a file handed over to be
    # merged or replayed, the other value may be the one that was meant (or a tampered one).
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def load_json(
    text: str | bytes,
    where: str,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
    unique_keys: bool = False,
) -> Any:
    """Parse JSON text within the limits; raises InputLimitError naming `where`. With `unique_keys`
    (files a user hands over: simulate parts, baselines, replays) an object that gives a key twice
    is refused too."""
    size = len(text)
    if size > max_bytes:
        raise InputLimitError(where, f"{size} bytes is over the limit of {max_bytes}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputLimitError(where, f"not UTF-8 text (byte {exc.start})") from None
    depth = json_depth(text)
    if depth > max_depth:
        raise InputLimitError(where, f"nested {depth} levels deep, over the limit of {max_depth}")
    try:
        return json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_unique if unique_keys else None
        )
    except json.JSONDecodeError as exc:
        raise InputLimitError(
            where, f"line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise InputLimitError(where, f"not valid JSON: {exc}") from None
