"""GitHub Actions workflow commands: annotations on the spec's lines, within what GitHub shows."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from .common import Rendering, plural, summary_line
from .places import Place

#: GitHub shows at most this many annotations of each kind (error, warning, notice) per step.
GITHUB_LIMIT = 10


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


@dataclass(frozen=True)
class Annotation:
    kind: Literal["error", "warning", "notice"]
    place: Place | None
    title: str
    message: str

    def command(self) -> str:
        props = []
        if self.place is not None and self.place.file is not None:
            props += [f"file={_escape_property(self.place.file)}", f"line={self.place.line}"]
        props.append(f"title={_escape_property(self.title)}")
        message = self.message
        if self.place is not None and self.place.file is None:
            message += f" ({self.place.words()})"
        return f"::{self.kind} {','.join(props)}::{_escape_data(message)}"


def github_annotations(rendering: Rendering) -> list[Annotation]:
    """Every annotation, most severe first: failures (errors); new findings (warnings, errors under
    --strict) by severity; known findings (notices)."""
    run = rendering.run
    new = rendering.new_ids()
    out = [
        Annotation("error", rendering.failure_place(f), f"535-check {f.check}", f.message)
        for f in run.failures
    ]
    # A check that examined nothing is a warning before any finding's; it is about no line of the spec.
    out += [Annotation("warning", None, f"535-check {r.name}", w) for r in run.warned for w in r.warnings]
    for finding in rendering.ordered_findings():
        is_new = finding.id in new
        kind: Literal["error", "warning", "notice"] = (
            ("error" if rendering.strict else "warning") if is_new else "notice"
        )
        out.append(
            Annotation(
                kind,
                rendering.finding_place(finding),
                f"{rendering.words.kind(finding.kind).one}: {finding.id}",
                f"{finding.title}. {finding.detail}",
            )
        )
    rank = {"error": 0, "warning": 1, "notice": 2}
    return sorted(out, key=lambda a: rank[a.kind])  # stable: the order within a kind is kept


def render_github(rendering: Rendering, *, full_list: str | None = None) -> str:
    """GitHub Actions workflow commands: at most GITHUB_LIMIT annotations of each kind (GitHub drops
    the rest without a word), most severe first; then one notice saying how many more there are and
    where the full list is; then the summary line."""
    words = rendering.words
    say = words.github
    every = github_annotations(rendering)
    by_kind = Counter(a.kind for a in every)
    overflow = any(n > GITHUB_LIMIT for n in by_kind.values())
    # The overflow notice is a notice too: it takes one of the notices' places.
    limits = {"error": GITHUB_LIMIT, "warning": GITHUB_LIMIT, "notice": GITHUB_LIMIT - (1 if overflow else 0)}
    shown: list[Annotation] = []
    hidden: Counter[str] = Counter()
    for a in every:
        if sum(1 for s in shown if s.kind == a.kind) < limits[a.kind]:
            shown.append(a)
        else:
            hidden[a.kind] += 1
    lines = [a.command() for a in shown]
    if hidden:
        total = sum(hidden.values())
        parts = ", ".join(plural(hidden[k], k) for k in ("error", "warning", "notice") if hidden[k])
        where = full_list or say("full_list")
        more = plural(total, say("more_annotation"))
        lines.append(
            Annotation(
                "notice",
                None,
                say("more_title", more=more),
                say("overflow", limit=GITHUB_LIMIT, more=more, parts=parts, where=where),
            ).command()
        )
    lines.append(
        say(
            "summary",
            level=rendering.run.level,
            seed=rendering.run.seed,
            summary=summary_line(rendering.run, rendering.baseline, words),
            verdict=rendering.verdict(),
        )
    )
    return "\n".join(lines) + "\n"
