"""Render a CheckRun: text summary, JSON, JUnit XML, SARIF 2.1.0, GitHub workflow annotations, GitLab
Code Quality, and the Markdown job summary.

Paths are relative to a root (the working directory unless told otherwise), so that CI attaches an
annotation to the file of the repository it names. A spec file outside the root -- the embedded spec
installed in site-packages, above all -- gets no file at all: SARIF gives it a logical location, the
GitHub annotations and GitLab issues name it in words. A path outside the root would attach to
nothing and only leak the machine's layout.

JSON, SARIF and GitLab carry no timings, so the same seed gives byte-identical files; the text
summary, JUnit (whose schema has a `time` attribute) and the Markdown summary show them.

Each format has a module (text, junit, sarif, github, gitlab, job_summary); what they share is in
common.py (the Rendering they take, counts in words, the verdict) and places.py (where a result
points). `render` lives
here because it needs every format: the format modules import common and places, never this
package, so that no import runs in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ...spec import Spec, dumps
from .common import Rendering, kind_count, plural, status_word, summary_line
from .github import GITHUB_LIMIT, Annotation, render_github
from .gitlab import render_gitlab
from .job_summary import render_markdown_summary
from .junit import render_junit
from .places import EMBEDDED_NAME, Place
from .sarif import render_sarif
from .text import render_text

if TYPE_CHECKING:
    from ...checks.runner import CheckRun

__all__ = [
    "EMBEDDED_NAME",
    "FORMATS",
    "FORMAT_HELP",
    "GITHUB_LIMIT",
    "Annotation",
    "Format",
    "Place",
    "Rendering",
    "kind_count",
    "plural",
    "render",
    "render_github",
    "render_gitlab",
    "render_junit",
    "render_markdown_summary",
    "render_sarif",
    "render_text",
    "status_word",
    "summary_line",
]

Format = Literal["text", "json", "junit", "sarif", "github", "gitlab"]
FORMATS: tuple[Format, ...] = ("text", "json", "junit", "sarif", "github", "gitlab")
FORMAT_HELP = {
    "text": "a summary table for people",
    "json": "everything, for tools (no timings: byte-identical for a seed)",
    "junit": "JUnit XML: a test case per check and per finding",
    "sarif": "SARIF 2.1.0, e.g. for GitHub code scanning",
    "github": "GitHub Actions annotations (10 per kind, most severe first)",
    "gitlab": "GitLab Code Quality report",
}


def render(
    run: CheckRun,
    fmt: Format,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
    full_list: str | None = None,
) -> str:
    """`root`: what paths are relative to (default: the working directory). `full_list`: where
    the GitHub annotations' overflow notice says the whole list is."""
    rendering = Rendering(run, spec=spec, baseline=baseline, strict=strict, root=root)
    renderers: dict[str, Callable[[], str]] = {
        "text": lambda: render_text(
            run, rendering.words, rendering.all_words, baseline=baseline, strict=strict
        ),
        "json": lambda: dumps(run.to_json(baseline, strict=strict, words=rendering.all_words)) + "\n",
        "junit": lambda: render_junit(rendering),
        "sarif": lambda: render_sarif(rendering),
        "github": lambda: render_github(rendering, full_list=full_list),
        "gitlab": lambda: render_gitlab(rendering),
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    return renderers[fmt]()
