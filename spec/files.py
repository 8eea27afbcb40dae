"""The spec's files and the places in them: where the embedded spec is, `SpecError` (one line
naming file:line and key, or the option at fault), key paths and the lines they stand on, and a
JSON Schema's first error as such a line. The spec's loader and the words file's loader both use it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from .limits import MAX_FILE_BYTES

#: A key path in a data file: mapping keys and list indices from the top.
Key = tuple[str | int, ...]

EMBEDDED_SPEC = "535.yaml"


class SpecError(Exception):
    """A spec file, profile or reading choice that cannot be used.

    `str()` is one line: `where: message`, where `where` is `file:line` (and the key path) when the
    problem is in a file, or the option that carried it (`--reading`).
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def __reduce__(self) -> tuple[type[SpecError], tuple[str, str]]:
        # Pickled by its own two arguments: a worker process sends it back whole (executor/units.py).
        return type(self), (self.where, self.message)


def embedded_spec_path() -> Path:
    return Path(str(resources.files("five35.spec").joinpath(EMBEDDED_SPEC)))


@cache
def bundled_schema(name: str) -> dict[str, Any]:
    """The JSON Schema `name` that ships beside the embedded spec (spec.schema.json,
    words.schema.json), read once."""
    text = resources.files("five35.spec").joinpath(name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def read_capped(
    path: Path, *, where: str | None = None, what: str = "", max_bytes: int = MAX_FILE_BYTES
) -> bytes:
    """The file's bytes, read no further than one byte over `max_bytes`: enough for the caller to
    refuse it, and a huge file (or /dev/zero) is never read whole. SpecError naming `where` (by
    default the path), `cannot read WHAT (reason)`, when the file cannot be read."""
    try:
        with path.open("rb") as handle:
            return handle.read(max_bytes + 1)
    except OSError as exc:
        doing = f"cannot read {what}" if what else "cannot read"
        raise SpecError(str(path) if where is None else where, f"{doing} ({exc.strerror or exc})") from None


def nearest_line(lines: dict[Key, int], key: Key) -> int:
    """The line of `key`, or of its nearest ancestor the file states."""
    while key and key not in lines:
        key = key[:-1]
    return lines.get(key, 1)


def _strict_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 4.0 as an integer; the engine would then deal 4.0 copies. Booleans are not
    # integers either (the default checker agrees; kept explicit).
    return isinstance(instance, int) and not isinstance(instance, bool)


#: Draft 2020-12 with integers that are ints (not 4.0, not True).
StrictValidator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)


def error_key(err: jsonschema.ValidationError) -> Key:
    """The key path a schema error is about. A key whose name breaks `propertyNames` is reported by
    jsonschema at the mapping that holds it; the key itself is the place to fix (its own line)."""
    key: Key = tuple(err.path)
    if "propertyNames" in err.relative_schema_path and isinstance(err.instance, str):
        return (*key, err.instance)
    return key


def describe_error(err: jsonschema.ValidationError) -> str:
    """What is wrong, in the words a spec's author uses (the place is said apart)."""
    if "propertyNames" in err.relative_schema_path and isinstance(err.instance, str):
        if err.validator == "pattern":
            return f"the name {err.instance!r} does not match {err.validator_value}"
        return f"the name {err.instance!r} is not allowed ({err.message})"
    if err.validator == "required":
        return err.message.replace("is a required property", "is missing")
    if err.validator == "type":
        return f"expected {err.validator_value}, got {json.dumps(err.instance, default=str)[:40]}"
    if err.validator == "enum":
        return f"expected one of {err.validator_value}, got {json.dumps(err.instance, default=str)}"
    if err.validator in ("minimum", "maximum"):
        bound = "at least" if err.validator == "minimum" else "at most"
        return f"expected {bound} {err.validator_value}, got {_short(err.instance)}"
    if err.validator in ("minItems", "maxItems", "minProperties", "maxProperties"):
        return err.message if len(err.message) <= 100 else f"{err.validator} is {err.validator_value}"
    return err.message


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def first_schema_error(
    path: Path, lines: dict[Key, int], data: Any, validator: Any, *, type_first: bool = True
) -> SpecError | None:
    """The one error to name of `data` against `validator` (None: it is valid). `type_first`: of
    several errors at one line, a value's wrong type comes before the ranges it then also breaks."""

    def order(e: jsonschema.ValidationError) -> tuple[Any, ...]:
        # A misspelt key also makes the right key "missing"; naming the misspelling is the useful
        # message.
        return (
            e.validator != "additionalProperties",
            nearest_line(lines, error_key(e)),
            type_first and e.validator != "type",
            e.message,
        )

    errors = sorted(validator.iter_errors(data), key=order)
    if not errors:
        return None
    err = errors[0]
    key = error_key(err)
    message = describe_error(err)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed))
        if extra and (allowed or err.schema.get("patternProperties")):
            # Point at the misspelt key itself, not at the mapping that holds it.
            key = (*key, extra[0])
            hint = f" (expected one of: {', '.join(allowed)})" if allowed else ""
            message = f"unknown key {extra[0]!r}{hint}"
    dotted = ".".join(str(k) for k in key) or "(top level)"
    return SpecError(f"{path}:{nearest_line(lines, key)}", f"{dotted}: {message}")
