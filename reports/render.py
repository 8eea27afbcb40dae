"""Render report data as Markdown (the designer's report, report.md, and its technical appendix,
technical.md), HTML (the designer's report as one self-contained file) and JSON, and write them all
atomically.

The HTML carries its CSS inline and its charts as inline SVG; it loads nothing from anywhere. The
tables of witnesses are drawn by reports/tables.py, the variant comparison by reports/variants.py,
the outcome sentences by reports/outcomes.py; the words they and this page print are the words
file's `pages` section, handed to the render call once and passed down.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..checks.findings import FINDING_KINDS, SEVERITIES
from ..spec import dumps
from ..spec.words_model import PageWords
from . import svg
from .outcomes import (
    first_upper,
    fmt,
    impact_line,
    md_cell,
    mean_cell,
    share_cell,
    share_words,
    shorten,
    table_rows,
    table_words,
)
from .plain import pct
from .tables import scene_html, scene_key, scene_md, table_html
from .variants import variant_view

FILES = ("report.md", "report.html", "technical.md", "report.json")


def standalone_repairs(group: Sequence[str], sections: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The restored lines a group of findings that stand alone proposes, each once, in order."""
    seen: set[tuple[str, str]] = set()
    out = []
    for fid in group:
        for c in sections[fid]["repairs"]:
            if (c["clause"], c["language"]) not in seen:
                seen.add((c["clause"], c["language"]))
                out.append(c)
    return out


@cache
def _env(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("five35.reports", "templates"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        fmt=fmt,
        md_cell=md_cell,
        table_html=table_html,
        scene_md=scene_md,
        scene_html=scene_html,
        scene_key=scene_key,
        mean_cell=mean_cell,
        share_cell=share_cell,
        impact_line=impact_line,
        share_words=share_words,
        table_words=table_words,
        table_rows=table_rows,
        shorten=shorten,
        first_upper=first_upper,
        status_of=_status,
        standalone_repairs=standalone_repairs,
        pct=pct,
    )
    return env


def _context(data: Mapping[str, Any], words: PageWords) -> dict[str, Any]:
    """What a template is rendered with; `words` is there for the filters that print words (a
    template passes it on: `q.impact | share_words(words)`)."""
    sections = {s["id"]: s for s in data["findings"]}
    charts: dict[str, list[Markup]] = {}
    for q in data["questions"]:
        charts[q["id"]] = [
            Markup(
                svg.impact_bars(
                    # A chart is as wide as its title: a long reading is cut (it is written out
                    # in full in the list beside the chart), so the chart keeps its height on a
                    # narrow screen.
                    words.charts("games_changed_under", reading=shorten(row["label"], 60))
                    if len(q["impacts"]) > 1
                    else words.charts("games_changed"),
                    f"impact-{q['id']}-{n}",
                    row["per_players"],
                    words.charts,
                )
            )
            for n, row in enumerate(q["impacts"])
            # No chart where nothing differs: the table says "0 %" at every player count.
            if any(cell["share"] > 0 for cell in row["per_players"].values())
        ]
    items = [*data["questions"], *(sections[f] for f in data["standalone"])]
    present = {
        "kind": [k for k in FINDING_KINDS if any(i["kind"] == k for i in items)],
        "severity": [s for s in SEVERITIES if any(i["severity"] == s for i in items)],
        "status": [s for s in ("open", "settled") if any(_status(i) == s for i in items)],
    }
    return {
        "r": data,
        "sections": sections,
        "variants": variant_view(data["variants"], words, data.get("seat_advantages", ())),
        "charts": charts,
        "filters": present,
        "kind_words": data["kinds"],
        "words": words,
    }


def _status(item: Mapping[str, Any]) -> str:
    """ "open" or "settled", for a question and for a finding that stands alone."""
    return "open" if item.get("settled_by") is None else "settled"


def render_markdown(data: Mapping[str, Any], words: PageWords) -> str:
    return _env(False).get_template("report.md.j2").render(**_context(data, words))


def render_html(data: Mapping[str, Any], words: PageWords) -> str:
    return _env(True).get_template("report.html.j2").render(**_context(data, words))


def render_technical(data: Mapping[str, Any], words: PageWords) -> str:
    """The technical appendix (technical.md): what the designer's report leaves out."""
    return _env(False).get_template("technical.md.j2").render(**_context(data, words))


def render_json(data: Mapping[str, Any]) -> str:
    return dumps(data) + "\n"


def render_all(data: Mapping[str, Any], words: PageWords) -> dict[str, str]:
    """The report's files' texts, by file name, in `words` (the words file's `pages`)."""
    return {
        "report.md": render_markdown(data, words),
        "report.html": render_html(data, words),
        "technical.md": render_technical(data, words),
        "report.json": render_json(data),
    }


def write_report(
    out_dir: Path,
    data: Mapping[str, Any],
    words: PageWords,
    render: Callable[[Mapping[str, Any], PageWords], dict[str, str]] = render_all,
    extra: Mapping[str, str] | None = None,
) -> list[Path]:
    """Render every file of the report, write them (and the `extra` files, name -> text) to temporary
    files in `out_dir`, then move each into place. An error or an interrupt before the moves leaves the
    old report (or none) and no temporary file behind."""
    out_dir.mkdir(parents=True, exist_ok=True)
    # mkstemp makes owner-only files; a report is for reading, so give it the usual umask mode.
    umask = os.umask(0)
    os.umask(umask)
    temps: list[tuple[Path, Path]] = []
    try:
        texts = {**render(data, words), **(extra or {})}
        names = [*FILES, *(extra or {})]
        for name in names:
            fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out_dir)
            temps.append((Path(tmp_name), out_dir / name))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(texts[name])
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp_name, 0o666 & ~umask)
        for done, final in temps:
            os.replace(done, final)
    except BaseException:
        for leftover, _ in temps:
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
        raise
    return [out_dir / name for name in names]
