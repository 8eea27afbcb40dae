"""`535-check rules`: the spec as a rule designer reads it, and the ruleset the options resolve to."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import click

from ..engine.engines import engine_note
from ..reports.check_formats import plural
from ..spec import Ruleset, Spec, dumps
from ..spec.lang.rulebook import describe
from ..spec.lang.syntax import unparse
from ..spec.words import words_of
from .common import examples_epilog, format_option, resolve, rules_options

WIDTH = 100


def _wrap(text: str, indent: int, first: str = "") -> list[str]:
    """`first` (a label) starts the first line; continuation lines are indented past it."""
    pad = " " * indent
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=pad + first,
        subsequent_indent=pad + " " * len(first),
        break_on_hyphens=False,
    ) or [pad + first.rstrip()]


def _value(value: Any) -> str:
    # `key=value` pairs so that wrapping only ever breaks between pairs.
    if isinstance(value, dict):
        return ", ".join(f"{k}={_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _heading(title: str) -> list[str]:
    return ["", title, "=" * len(title)]


def _clause_lines(spec: Spec, cid: str, indent: int) -> list[str]:
    clause = spec.clauses[cid]
    lines = [" " * indent + cid]
    for code in clause.languages:
        text = clause.text(code)
        if text is not None:
            lines.extend(_wrap(text, indent + 2, f"{code}: "))
    if clause.defect:
        lines.extend(_wrap(clause.defect, indent + 2, "defect: "))
    return lines


def render_text(spec: Spec, ruleset: Ruleset) -> str:
    in_use = ruleset.readings
    out = [
        f"{spec.game}: {spec.label}",
        f"{plural(len(spec.clauses), 'clause')}, {plural(len(spec.parameters), 'parameter')}, "
        f"{plural(len(spec.variation_points), 'variation point')}, {plural(len(spec.rules), 'rule')}, "
        f"{plural(len(spec.profiles), 'profile')} (default: {spec.default_profile})",
        f"ruleset in use: {ruleset.label()}  ('>' marks the reading it uses)",
    ]
    if any(vp.unimplemented for vp in spec.variation_points.values()):
        out.append("'x' marks a reading no engine implements: listed as a proposal, never played")

    out += _heading("Sources")
    for code, source in spec.sources.items():
        out.append(f"  {code}: {source.language}, {source.file.name}  ({source.title or 'no title'})")
        for defect in source.defects:
            out.extend(_wrap(defect, 6, "defect: "))

    out += _heading(f"Clauses ({len(spec.clauses)})")
    for cid in spec.clauses:
        out.extend(_clause_lines(spec, cid, 2))

    out += _heading(f"Parameters ({len(spec.parameters)})")
    for p in spec.parameters.values():
        out.extend(_wrap(_value(p.value), 2, f"{p.name} = "))
        out.extend(_wrap(p.explain, 6))
        origin = "in the text" if p.in_text else "not in the text"
        cites = ", ".join(p.cites) or "none"
        evidence = f"; evidence {', '.join(p.evidence)}" if p.evidence else ""
        out.append(f"      ({origin}; clauses {cites}{evidence})")

    out += _heading(f"Variation points ({len(spec.variation_points)})")
    for vp in spec.variation_points.values():
        origin = "" if vp.in_text else "  [not in the text]"
        out.append("")
        out.extend(_wrap(vp.question + origin, 2, f"{vp.name}: "))
        out.append("    readings:")
        for name, explain in vp.listed.items():
            unimplemented = name in vp.unimplemented
            mark = ">" if in_use.get(vp.name) == name else "x" if unimplemented else " "
            tags = [
                t
                for t, on in (
                    ("default", name == vp.default),
                    ("in use", mark == ">"),
                    ("unimplemented", unimplemented),
                )
                if on
            ]
            label = f"{mark} {name}" + (f" ({', '.join(tags)})" if tags else "") + ": "
            out.extend(_wrap(explain, 4, label))
        out.extend(_wrap(vp.rationale, 4, f"why {vp.default} is the default: "))
        if vp.evidence:
            out.append(f"    evidence: {', '.join(vp.evidence)}")
        out.append("    clauses:")
        for cid in vp.cites:
            out.extend(_clause_lines(spec, cid, 6))

    in_force = ruleset.rules
    base = {r.id: dict(r.definition.parts) for r in spec.rules}
    statements = {r.id: r for r in spec.rules}
    out += _heading(
        f"Rules in force under {ruleset.label()} ({len(in_force)}; '*' marks a part a reading states)"
    )
    for rule in in_force:
        fields = "".join(f", {k} {v}" for k, v in rule.fields)
        stated = statements.get(rule.id)
        out.append("")
        out.extend(
            _wrap(
                stated.statement if stated else "(added by a reading)",
                2,
                f"{rule.id} ({rule.does}{fields}): ",
            )
        )
        if stated is not None:
            out.extend(_wrap(f"(clauses {', '.join(stated.cites)})", 6))
        for bound, node in rule.cards:
            out.extend(_wrap(unparse(node), 6, f"  cards.{bound} = "))
        for name, node in rule.parts:
            mark = "*" if base.get(rule.id, {}).get(name) != node else " "
            out.extend(_wrap(unparse(node), 6, f"{mark} {name} = "))

    out += _heading(f"Profiles ({len(spec.profiles)})")
    for profile in spec.profiles.values():
        default = " [default]" if profile.name == spec.default_profile else ""
        out.append("")
        out.append(f"  {profile.name}{default}: {profile.title} (status: {profile.status})")
        out.extend(_wrap(profile.source, 4, "source: "))
        for defect in profile.defects:
            out.extend(_wrap(defect, 4, "defect: "))
        width = max(len(p) for p in profile.readings)
        for point, choice in profile.readings.items():
            note = f" -- {choice.note}" if choice.note else ""
            if choice.reading in spec.variation_points[point].unimplemented:
                note = f" [unimplemented: cannot be played]{note}"
            out.extend(_wrap(f"{choice.reading} (basis: {choice.basis}){note}", 4, f"{point:<{width}} = "))
        for name, value in profile.parameters.items():
            out.extend(_wrap(_value(value), 4, f"parameter {name} = "))

    out += _heading(f"Ruleset in use: {ruleset.label()}")
    out.extend(_wrap(engine_note(ruleset, words_of(spec).engines), 2))
    width = max(len(p) for p in in_use)
    for point in spec.variation_points:
        reading = in_use[point]
        changed = "  (chosen with --reading)" if point in ruleset.overridden else ""
        out.append(f"  {point:<{width}} = {reading}{changed}")
    for name, value in ruleset.to_json()["parameters"].items():
        out.extend(_wrap(_value(value), 2, f"{name} = "))
    return "\n".join(out)


@click.command(
    "rules",
    help="List the spec: clauses (German and Spanish), parameters, variation points with their "
    "readings, rules and profiles, and which reading the ruleset chosen by --profile/--reading uses.",
    epilog=examples_epilog(
        [
            "535-check rules                                   # the embedded spec, profile published",
            "535-check rules --profile german-literal --reading run_wrap=wrap",
            "535-check rules --spec house-rules.yaml --format json",
        ]
    ),
)
@format_option(["text", "json"], "text", "json prints the spec and the resolved ruleset as JSON on stdout.")
@rules_options
def rules_cmd(fmt: str, spec_path: Path | None, profile: str | None, readings: tuple[str, ...]) -> None:
    choice = resolve(spec_path, profile, readings)
    if fmt == "json":
        data = choice.spec.to_json()
        data["ruleset"] = choice.ruleset.to_json()
        data["ruleset"]["engine"] = engine_note(choice.ruleset, words_of(choice.spec).engines)
        data["ruleset"]["rules"] = [describe(r) for r in choice.ruleset.rules]
        click.echo(dumps(data))
    else:
        click.echo(render_text(choice.spec, choice.ruleset))


COMMANDS = [rules_cmd]
