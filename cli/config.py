"""`[tool.five35]` in pyproject.toml: a project's defaults for `535-check`.

The nearest pyproject.toml, in the working directory or a parent, is read; its `[tool.five35]`
table may set `level`, `format`, `baseline`, `spec`, `profile`, `executor`, `scheduler` (strings),
`solver-rlimit` (a whole number) and `only` (an array of check names, as `check --only` takes
them). The command line overrides every one of them. Paths are relative to the pyproject.toml's
directory, as with ruff and mypy, so the defaults mean the same from any subdirectory. A bad value
is a one-line error naming `pyproject.toml:LINE: tool.five35.KEY` (tomllib gives no line numbers,
so the key's line is found in the text).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..checks.findings import LEVELS, MAX_SOLVER_RLIMIT
from ..executor import EXECUTORS
from ..reports.check_formats import FORMATS
from ..spec import SpecError
from ..spec.files import read_capped
from ..spec.limits import MAX_FILE_BYTES

FILE = "pyproject.toml"
TABLE = ("tool", "five35")
#: Every key and what it must be; paths are checked to be files.
KEYS: dict[str, tuple[str, ...] | None] = {
    "level": LEVELS,
    "format": FORMATS,
    "baseline": None,
    "spec": None,
    "profile": None,
    "executor": EXECUTORS,
    "scheduler": None,
}
PATH_KEYS = ("baseline", "spec")
#: The keys that take a whole number, and its bounds.
INT_KEYS: dict[str, tuple[int, int]] = {"solver-rlimit": (1, MAX_SOLVER_RLIMIT)}
#: The keys that take an array of strings: the checks a project's `check` runs (a pre-commit hook
#: or a CI step that runs only some). The names are checked where the checks are chosen.
LIST_KEYS = ("only",)
#: Entries an array may hold (there are fewer checks than this).
MAX_LIST = 100


@dataclass(frozen=True)
class Config:
    """The `[tool.five35]` of one pyproject.toml: the values, and the line each key is on."""

    path: Path
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def place(self, key: str) -> str:
        """Where `key` is set, as an error names it: `pyproject.toml:LINE: tool.five35.KEY`."""
        return f"{self.path}:{self.lines.get(key, 1)}: tool.five35.{key}"

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def path_value(self, key: str) -> Path | None:
        value = self.values.get(key)
        return self.path.parent / value if isinstance(value, str) else None


def find(start: Path) -> Path | None:
    """The nearest pyproject.toml in `start` or one of its parents."""
    for directory in (start, *start.parents):
        candidate = directory / FILE
        if candidate.is_file():
            return candidate
    return None


def _shown(path: Path) -> Path:
    # Named relative to the working directory when it is below it, as the user would type it.
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def load(start: Path | None = None) -> Config | None:
    """The `[tool.five35]` table of the nearest pyproject.toml, checked; None when there is no such
    file or table. Raises SpecError naming `pyproject.toml:LINE: tool.five35.KEY`."""
    found = find((start or Path.cwd()).resolve())
    if found is None:
        return None
    path = _shown(found)
    raw = read_capped(found, where=str(path))
    if len(raw) > MAX_FILE_BYTES:
        raise SpecError(str(path), f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise SpecError(str(path), "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"at line (\d+)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise SpecError(f"{path}:{line.group(1) if line else 1}", f"not valid TOML: {message}") from None
    table: Any = data
    for part in TABLE:
        table = table.get(part) if isinstance(table, dict) else None
    if table is None:
        return None
    lines = key_lines(text)
    config = Config(path, {}, lines)
    if not isinstance(table, dict):
        raise SpecError(f"{path}:{lines.get('', 1)}: tool.five35", "expected a table of settings")
    for key, value in table.items():
        if key not in KEYS and key not in INT_KEYS and key not in LIST_KEYS:
            settings = ", ".join([*KEYS, *INT_KEYS, *LIST_KEYS])
            raise SpecError(config.place(key), f"unknown setting (settings: {settings})")
        if key in LIST_KEYS:
            strings = isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)
            if not strings or not value or len(value) > MAX_LIST:
                raise SpecError(
                    config.place(key),
                    f"expected an array of 1 to {MAX_LIST} check names, got {_toml(value)}",
                )
            config.values[key] = tuple(value)
            continue
        if key in INT_KEYS:
            low, high = INT_KEYS[key]
            # A bool is an int to Python; `true` is not a number of steps.
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SpecError(
                    config.place(key), f"expected a whole number from {low} to {high}, got {_toml(value)}"
                )
            config.values[key] = value
            continue
        if not isinstance(value, str) or not value.strip():
            raise SpecError(config.place(key), f"expected a non-empty string, got {_toml(value)}")
        choices = KEYS[key]
        if choices is not None and value not in choices:
            raise SpecError(config.place(key), f"expected one of {', '.join(choices)}, got {value!r}")
        if key in PATH_KEYS and not (found.parent / value).is_file():
            raise SpecError(config.place(key), f"no file {value!r} (paths are relative to {path})")
        config.values[key] = value
    return config


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return repr(value)


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="""
)


def _dotted(text: str) -> tuple[str, ...]:
    parts = re.findall(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""", text)
    return tuple(a or b or c for a, b, c in parts)


def key_lines(text: str) -> dict[str, int]:
    """The line of each key of [tool.five35] (and, under "", of the table itself), whichever way
    the file spells it: in a [tool.five35] table, as `five35.KEY` in [tool], or as
    `tool.five35.KEY` at the top level."""
    lines: dict[str, int] = {}
    section: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("[["):
            section = _dotted(header.group(1))
            if section == TABLE:
                lines.setdefault("", number)
            elif section[: len(TABLE)] == TABLE:
                # [tool.five35.sub]: the key `sub` is on the header's line.
                lines.setdefault(section[len(TABLE)], number)
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        full = section + _dotted(key.group(1))
        if full[: len(TABLE)] == TABLE:
            if len(full) == len(TABLE):
                lines.setdefault("", number)
            else:
                lines.setdefault(full[len(TABLE)], number)
    return lines
