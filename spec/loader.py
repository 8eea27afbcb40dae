"""Load and validate a spec file, reporting every problem as `file:line: key: message`.

Validation runs in two passes: the JSON Schema (spec.schema.json) checks the shape (unknown keys,
wrong types, missing entries); the semantic pass checks what a schema cannot (a cited clause that
does not exist, a reading a point does not have, bounds that contradict each other, a clause that
is not in its source text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .model import (
    Clause,
    Parameter,
    Profile,
    ReadingChoice,
    Rule,
    Source,
    Spec,
    SpecError,
    VariationPoint,
)

Key = tuple[str | int, ...]

EMBEDDED_SPEC = "535.yaml"


def embedded_spec_path() -> Path:
    return Path(str(resources.files("five35.spec").joinpath(EMBEDDED_SPEC)))


@cache
def _schema() -> dict[str, Any]:
    text = resources.files("five35.spec").joinpath("spec.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _to_data(node: yaml.Node, key: Key, lines: dict[Key, int], where: str) -> Any:
    """Turn a composed YAML node into plain data, remembering the line of every key path."""
    lines[key] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            name = str(_scalar(knode))
            if name in out:
                dotted = ".".join(str(k) for k in (*key, name))
                first = lines.get((*key, name))
                raise SpecError(
                    f"{where}:{knode.start_mark.line + 1}",
                    f"{dotted}: duplicate key {name!r} (first given on line {first})",
                )
            out[name] = _to_data(vnode, (*key, name), lines, where)
            # A key's own line is more useful than its value's when the value spans lines.
            lines[(*key, name)] = knode.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_to_data(item, (*key, i), lines, where) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    """A node's value as safe_load would give it. Constructed directly: re-serialising a node and
    loading the text fails on an empty value (`key:` with nothing after it), which is valid YAML."""
    if not isinstance(node, yaml.ScalarNode):
        # A complex key (`? [a, b]`) is unusual but legal; its text is name enough.
        return yaml.serialize(node).strip()
    return yaml.SafeLoader("").construct_object(node, deep=True)


def _read_yaml(path: Path) -> tuple[Any, dict[Key, int]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(str(path), f"cannot read spec file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise SpecError(str(path), "spec file is not UTF-8 text") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        # An unclosed bracket or quote is only noticed lines later; the line that opened it is the
        # one to fix.
        context = exc.context or ""
        if exc.context_mark is not None and ("flow" in context or "quoted" in context):
            mark = exc.context_mark
        line = mark.line + 1 if mark else 0
        near = _key_near_line(text, line)
        prefix = f"{near}: " if near else ""
        problem = " ".join(str(exc.problem or exc.context or "").split())
        raise SpecError(f"{path}:{line}", f"{prefix}not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise SpecError(str(path), f"not valid YAML: {' '.join(str(exc).split())}") from None
    if node is None:
        raise SpecError(str(path), "spec file is empty")
    lines: dict[Key, int] = {}
    try:
        return _to_data(node, (), lines, str(path)), lines
    except yaml.MarkedYAMLError as exc:
        # A value the safe loader will not build, such as an unknown tag (`!python/object`).
        line = exc.problem_mark.line + 1 if exc.problem_mark else 0
        near = _key_near_line(text, line)
        problem = " ".join(str(exc.problem or exc.context or "").split())
        raise SpecError(f"{path}:{line}", f"{near + ': ' if near else ''}not valid YAML: {problem}") from None


_KEY_LINE = re.compile(r"^(\s*)(- )?([^\s#:\[\]{}\"'-][^:#]*?):(\s|$)")


def _key_near_line(text: str, line: int) -> str:
    """The dotted key path in force at `line` (1-based), from indentation alone: a file that does
    not parse has no tree to ask, and the key still tells the user where to look."""
    stack: list[tuple[int, str]] = []
    for raw in text.splitlines()[:line]:
        match = _KEY_LINE.match(raw)
        if not match:
            continue
        indent = len(match.group(1)) + (2 if match.group(2) else 0)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, match.group(3).strip()))
    return ".".join(name for _, name in stack)


def _nearest_line(lines: dict[Key, int], key: Key) -> int:
    while key and key not in lines:
        key = key[:-1]
    return lines.get(key, 1)


def _schema_error(path: Path, lines: dict[Key, int], data: Any) -> SpecError | None:
    validator = jsonschema.Draft202012Validator(_schema())
    # A misspelt key also makes the right key "missing"; naming the misspelling is the useful message.
    errors = sorted(
        validator.iter_errors(data),
        key=lambda e: (e.validator != "additionalProperties", _nearest_line(lines, tuple(e.path)), e.message),
    )
    if not errors:
        return None
    err = errors[0]
    key: Key = tuple(err.path)
    message = _describe(err)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed))
        if extra and (allowed or err.schema.get("patternProperties")):
            # Point at the misspelt key itself, not at the mapping that holds it.
            key = (*key, extra[0])
            hint = f" (expected one of: {', '.join(allowed)})" if allowed else ""
            message = f"unknown key {extra[0]!r}{hint}"
    dotted = ".".join(str(k) for k in key) or "(top level)"
    return SpecError(f"{path}:{_nearest_line(lines, key)}", f"{dotted}: {message}")


def _describe(err: jsonschema.ValidationError) -> str:
    if err.validator == "required":
        return err.message.replace("is a required property", "is missing")
    if err.validator == "type":
        return f"expected {err.validator_value}, got {json.dumps(err.instance, default=str)[:40]}"
    if err.validator == "enum":
        return f"expected one of {err.validator_value}, got {json.dumps(err.instance, default=str)}"
    return err.message


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def load_spec(path: str | Path | None = None) -> Spec:
    """Load and validate a spec file (the embedded one when `path` is None)."""
    spec_path = Path(path) if path is not None else embedded_spec_path()
    data, lines = _read_yaml(spec_path)
    error = _schema_error(spec_path, lines, data)
    if error:
        raise error
    spec = _build(spec_path, data, lines)
    problems = list(_semantic_problems(spec, data))
    if problems:
        key, message = problems[0]
        raise SpecError(f"{spec_path}:{_nearest_line(lines, key)}", f"{'.'.join(map(str, key))}: {message}")
    return spec


def _build(path: Path, data: dict[str, Any], lines: dict[Key, int]) -> Spec:
    sources = {
        code: Source(
            language_code=code,
            file=_source_file(path, s["file"]),
            language=s["language"],
            title=s.get("title"),
            defects=tuple(s.get("defects", ())),
        )
        for code, s in data["sources"].items()
    }
    clauses = {
        cid: Clause(cid, c.get("de"), c.get("es"), c.get("defect"), lines[("clauses", cid)])
        for cid, c in data["clauses"].items()
    }
    parameters = {
        name: Parameter(
            name=name,
            value=p["value"],
            cites=tuple(p["cites"]),
            explain=p["explain"],
            in_text=p.get("in_text", True),
            evidence=tuple(p.get("evidence", ())),
        )
        for name, p in data["parameters"].items()
    }
    points = {
        name: VariationPoint(
            name=name,
            question=v["question"],
            cites=tuple(v["cites"]),
            readings=dict(v["readings"]),
            default=v["default"],
            rationale=v["rationale"],
            in_text=v.get("in_text", True),
            evidence=tuple(v.get("evidence", ())),
            line=lines[("variation_points", name)],
        )
        for name, v in data["variation_points"].items()
    }
    rules = tuple(
        Rule(
            id=r["id"],
            cites=tuple(r["cites"]),
            statement=r["statement"],
            uses=tuple(r.get("uses", ())),
            kind=r.get("kind"),
            size=r.get("size"),
            beats=r.get("beats"),
        )
        for r in data["rules"]
    )
    profiles = {name: _profile(name, data["profiles"], points) for name in data["profiles"]}
    return Spec(
        path=path,
        game=data["game"],
        sources=sources,
        clauses=clauses,
        parameters=parameters,
        variation_points=points,
        rules=rules,
        profiles=profiles,
        default_profile=data["default_profile"],
        lines=lines,
        embedded=_is_embedded(path),
    )


def _is_embedded(path: Path) -> bool:
    try:
        return path.resolve() == embedded_spec_path().resolve()
    except OSError:
        return False


def _source_file(spec_path: Path, name: str) -> Path:
    """A source beside the spec file, or else the embedded copy, so a house-rules copy of the spec
    saved anywhere still finds the original texts."""
    local = spec_path.parent / name
    if local.is_file():
        return local
    embedded = embedded_spec_path().parent / name
    return embedded if embedded.is_file() else local


def _profile(name: str, raw: dict[str, Any], points: dict[str, VariationPoint]) -> Profile:
    """A profile with `extends` folded in; points it does not choose stay unresolved (checked later)."""
    chain: list[str] = []
    current: str | None = name
    while current is not None and current in raw and current not in chain:
        chain.append(current)
        current = raw[current].get("extends")
    readings: dict[str, ReadingChoice] = {}
    parameters: dict[str, Any] = {}
    for link in reversed(chain):
        entry = raw[link]
        for point, choice in entry.get("readings", {}).items():
            readings[point] = ReadingChoice(choice["reading"], choice["basis"], choice.get("note"))
        parameters.update(entry.get("parameters", {}))
    p = raw[name]
    return Profile(
        name=name,
        title=p["title"],
        source=p["source"],
        status=p["status"],
        defects=tuple(p.get("defects", ())),
        readings={k: readings[k] for k in points if k in readings},
        parameters=parameters,
    )


def _semantic_problems(spec: Spec, data: dict[str, Any]) -> Iterator[tuple[Key, str]]:
    clause_ids = set(spec.clauses)

    def cited(key: Key, ids: tuple[str, ...] | list[str]) -> Iterator[tuple[Key, str]]:
        for i, cid in enumerate(ids):
            if cid not in clause_ids:
                yield (*key, i), f"cites clause {cid!r}, which does not exist"

    # Source texts: every clause must quote its source word for word (whitespace aside).
    for code, source in spec.sources.items():
        if not source.file.is_file():
            yield ("sources", code, "file"), f"source file {source.file} does not exist"
            continue
        body = _norm(source.file.read_text(encoding="utf-8"))
        for clause in spec.clauses.values():
            quote = clause.text(code)
            if quote is not None and _norm(quote) not in body:
                yield ("clauses", clause.id, code), f"is not a quotation of {source.file.name}"
    for clause in spec.clauses.values():
        for code in ("de", "es"):
            if clause.text(code) is not None and code not in spec.sources:
                yield ("clauses", clause.id, code), f"quotes language {code!r}, which has no source"

    for name, param in spec.parameters.items():
        yield from cited(("parameters", name, "cites"), param.cites)

    for name, vp in spec.variation_points.items():
        yield from cited(("variation_points", name, "cites"), vp.cites)
        if not vp.cites:
            yield ("variation_points", name, "cites"), "cites no clause"
        if vp.default not in vp.readings:
            yield (
                ("variation_points", name, "default"),
                (f"default {vp.default!r} is not one of its readings ({', '.join(vp.readings)})"),
            )

    known_uses = set(spec.parameters) | set(spec.variation_points)
    seen_rules: set[str] = set()
    for i, rule in enumerate(spec.rules):
        yield from cited(("rules", i, "cites"), rule.cites)
        if rule.id in seen_rules:
            yield ("rules", i, "id"), f"rule id {rule.id!r} appears twice"
        seen_rules.add(rule.id)
        for j, use in enumerate(rule.uses):
            if use not in known_uses:
                yield (
                    ("rules", i, "uses", j),
                    f"uses {use!r}, which is neither a parameter nor a variation point",
                )
        for bound in ("min", "max"):
            value = (rule.size or {}).get(bound)
            if isinstance(value, str) and value not in spec.parameters:
                yield ("rules", i, "size", bound), f"size bound {value!r} is not a parameter"

    yield from _bounds_problems(("parameters",), {n: p.value for n, p in spec.parameters.items()})

    if spec.default_profile not in spec.profiles:
        yield ("default_profile",), f"names profile {spec.default_profile!r}, which does not exist"
    for name, raw in data["profiles"].items():
        parent = raw.get("extends")
        if parent is not None and parent not in spec.profiles:
            yield ("profiles", name, "extends"), f"extends profile {parent!r}, which does not exist"
        chain = [name]
        while parent is not None and parent in data["profiles"]:
            chain.append(parent)
            if parent == name:
                yield ("profiles", name, "extends"), f"extends itself: {' -> '.join(chain)}"
                break
            if parent in chain[:-1]:
                break  # a loop further up; reported on the profiles that are in it
            parent = data["profiles"][parent].get("extends")
        for point, choice in raw.get("readings", {}).items():
            key: Key = ("profiles", name, "readings", point)
            if point not in spec.variation_points:
                yield key, f"unknown variation point {point!r}"
            elif choice["reading"] not in spec.variation_points[point].readings:
                readings = ", ".join(spec.variation_points[point].readings)
                yield (*key, "reading"), f"unknown reading {choice['reading']!r} (readings: {readings})"
        profile = spec.profiles[name]
        missing = [p for p in spec.variation_points if p not in profile.readings]
        if missing:
            yield ("profiles", name), f"chooses no reading for {', '.join(missing)}"
        merged = {n: p.value for n, p in spec.parameters.items()} | dict(profile.parameters)
        yield from _bounds_problems(("profiles", name, "parameters"), merged)


def _bounds_problems(key: Key, params: dict[str, Any]) -> Iterator[tuple[Key, str]]:
    ranks = params["ranks"]
    players = params["players"]
    if players["min"] > players["max"]:
        yield (*key, "players"), f"min {players['min']} is above max {players['max']}"
    missing = sorted(set(ranks) - {int(r) for r in params["points"]})
    if missing:
        yield (*key, "points"), f"gives no points for ranks {missing}"
    extra = sorted({int(r) for r in params["points"]} - set(ranks))
    if extra:
        yield (*key, "points"), f"gives points for ranks {extra}, which are not in the deck"
    for game in ("small_game", "large_game"):
        close = params["set_closing_size"][game]
        if close < params["min_set_size"]:
            yield (
                (*key, "set_closing_size"),
                f"{game} closes at {close}, below min_set_size {params['min_set_size']}",
            )
    if params["run_closing_size"] < params["min_run_size"]:
        yield (
            (*key, "run_closing_size"),
            (f"{params['run_closing_size']} is below min_run_size {params['min_run_size']}"),
        )
    uncovered = [
        n for n in range(players["min"], players["max"] + 1) if str(n) not in map(str, params["hand_size"])
    ]
    if uncovered:
        yield (*key, "hand_size"), f"gives no hand size for {uncovered} players"
