"""Small self-contained SVG charts for the HTML report: no scripts, no fonts or files fetched,
numbers written with fixed precision so that the same data always gives the same bytes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from ..spec.words_model import Sentences

PALETTE = ("#3465a4", "#f57900", "#4e9a06", "#75507b", "#c4a000", "#cc0000", "#06989a", "#555753")
FONT = 'font-family="sans-serif"'


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value`, so that the
    four axis steps are round numbers."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= value - 1e-12:
            return step * power
    return 10.0 * power


def title_width(title: str, size: int = 13) -> int:
    """The width a bold sans-serif title needs, estimated generously (0.62 em a character) so that
    a chart is always at least as wide as its title and the title is never cut."""
    return int(len(title) * size * 0.62) + 24


def _open(width: int, height: int, title: str, chart_id: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="{escape(chart_id)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{width // 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold" {FONT}>'
        f"{escape(title)}</text>",
    ]


def _legend(names: Sequence[str], x: int, y: int) -> list[str]:
    out = []
    for i, name in enumerate(names):
        yy = y + i * 16
        out.append(f'<rect x="{x}" y="{yy - 9}" width="10" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{x + 14}" y="{yy}" font-size="11" {FONT}>{escape(name)}</text>')
    return out


Cell = tuple[float, float, float]  # a value with the low and high end of its 95% interval


def grouped_bars(
    title: str,
    chart_id: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[Cell | None]]],
    say: Sentences,
    *,
    percent: bool = False,
    reference: Sequence[float | None] | None = None,
    reference_label: str = "",
) -> str:
    """Bars per category (e.g. player count), one bar per series (e.g. variant), each with its 95%
    interval as a whisker. A missing value (None) leaves a gap marked 'n/a'. `reference` draws a
    dashed line per category (e.g. a fair share)."""
    legend_w = 190
    plot_w = max(320, len(categories) * (len(series) * 18 + 24), title_width(title) - 60 - legend_w)
    width, height = 60 + plot_w + legend_w, 240
    top, bottom, left = 30, 200, 50
    values = [hi for _, vals in series for cell in vals if cell is not None for hi in (cell[0], cell[2])]
    refs = [r for r in (reference or []) if r is not None]
    vmax = max([*values, *refs, 0.0])
    vmax = 1.0 if percent and vmax <= 1.0 else nice_ceiling(vmax)
    scale = (bottom - top) / vmax
    out = _open(width, height, title, chart_id)
    out.append(f'<line x1="{left}" y1="{bottom}" x2="{left + plot_w}" y2="{bottom}" stroke="#333"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>')
    for i in range(5):
        v = vmax * i / 4
        y = bottom - v * scale
        label = f"{v:.0%}" if percent else f"{v:g}"
        out.append(f'<line x1="{left - 3}" y1="{_n(y)}" x2="{left + plot_w}" y2="{_n(y)}" stroke="#ddd"/>')
        out.append(
            f'<text x="{left - 5}" y="{_n(y + 4)}" text-anchor="end" font-size="10" {FONT}>{label}</text>'
        )
    group_w = plot_w / max(1, len(categories))
    bar_w = min(18.0, (group_w - 12) / max(1, len(series)))
    for c, cat in enumerate(categories):
        gx = left + c * group_w + (group_w - bar_w * len(series)) / 2
        for s, (name, vals) in enumerate(series):
            cell = vals[c] if c < len(vals) else None
            x = gx + s * bar_w
            if cell is None:
                out.append(
                    f'<text x="{_n(x + bar_w / 2)}" y="{bottom - 4}" text-anchor="middle" font-size="8" '
                    f"{FONT}>n/a</text>"
                )
                continue
            value, lo, hi = cell
            h = value * scale
            shown = (lambda v: f"{v:.1%}") if percent else _n
            text = say("interval", value=shown(value), low=shown(lo), high=shown(hi))
            out.append(
                f'<rect x="{_n(x)}" y="{_n(bottom - h)}" width="{_n(bar_w - 2)}" height="{_n(h)}" '
                f'fill="{PALETTE[s % len(PALETTE)]}">'
                f"<title>{escape(name)}, {escape(cat)}: {text}</title></rect>"
            )
            mid = x + (bar_w - 2) / 2
            out.append(
                f'<line x1="{_n(mid)}" y1="{_n(bottom - lo * scale)}" x2="{_n(mid)}" '
                f'y2="{_n(bottom - hi * scale)}" stroke="#000"/>'
            )
        if reference is not None and c < len(reference) and reference[c] is not None:
            ref = reference[c]
            assert ref is not None
            y = bottom - ref * scale
            out.append(
                f'<line x1="{_n(left + c * group_w + 4)}" y1="{_n(y)}" '
                f'x2="{_n(left + (c + 1) * group_w - 4)}" '
                f'y2="{_n(y)}" stroke="#000" stroke-dasharray="4 3"/>'
            )
        out.append(
            f'<text x="{_n(left + (c + 0.5) * group_w)}" y="{bottom + 14}" text-anchor="middle" '
            f'font-size="11" {FONT}>{escape(cat)}</text>'
        )
    names = [name for name, _ in series]
    out.extend(_legend(names, left + plot_w + 14, top + 10))
    if reference is not None and reference_label:
        y = top + 10 + len(names) * 16
        x = left + plot_w + 14
        out.append(
            f'<line x1="{x}" y1="{y - 4}" x2="{x + 10}" y2="{y - 4}" stroke="#000" stroke-dasharray="4 3"/>'
        )
        out.append(f'<text x="{x + 14}" y="{y}" font-size="11" {FONT}>{escape(reference_label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def stacked_shares(
    title: str, chart_id: str, rows: Sequence[tuple[str, Mapping[str, float]]], parts: Sequence[str]
) -> str:
    """One horizontal bar per row (e.g. variant), split into the shares of `parts` (e.g. how
    tricks end)."""
    label_w, bar_w, row_h = 170, 360, 24
    width = max(label_w + bar_w + 20, title_width(title))
    height = 40 + len(rows) * row_h + 20 + len(parts) * 16
    out = _open(width, height, title, chart_id)
    for r, (label, shares) in enumerate(rows):
        y = 30 + r * row_h
        out.append(
            f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end" font-size="11" {FONT}>'
            f"{escape(label)}</text>"
        )
        x = float(label_w)
        total = sum(shares.get(p, 0.0) for p in parts) or 1.0
        for i, part in enumerate(parts):
            w = bar_w * shares.get(part, 0.0) / total
            if w <= 0:
                continue
            out.append(
                f'<rect x="{_n(x)}" y="{y}" width="{_n(w)}" height="{row_h - 6}" '
                f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(label)}: {escape(part)} '
                f"{shares.get(part, 0.0):.1%}</title></rect>"
            )
            x += w
    out.extend(_legend(list(parts), label_w, 40 + len(rows) * row_h + 14))
    out.append("</svg>")
    return "\n".join(out)


def impact_bars(
    title: str, chart_id: str, per_players: Mapping[str, Mapping[str, float]], say: Sentences
) -> str:
    """The share of affected games per player count, with its 95% interval as a whisker and the
    share written above the bar. A share of 0 is drawn as a visible baseline mark labelled 0%, so
    that it cannot be mistaken for a missing bar."""
    cats = list(per_players)
    width = max(60 + 56 * max(1, len(cats)) + 20, title_width(title))
    height = 180
    top, bottom, left = 38, 150, 44
    scale = bottom - top
    out = _open(width, height, title, chart_id)
    out.append(f'<line x1="{left}" y1="{bottom}" x2="{width - 10}" y2="{bottom}" stroke="#333"/>')
    for i in range(5):
        y = bottom - scale * i / 4
        out.append(f'<line x1="{left}" y1="{_n(y)}" x2="{width - 10}" y2="{_n(y)}" stroke="#ddd"/>')
        out.append(
            f'<text x="{left - 4}" y="{_n(y + 4)}" text-anchor="end" font-size="10" {FONT}>{i * 25}%</text>'
        )
    for c, cat in enumerate(cats):
        row = per_players[cat]
        x = left + 10 + c * 56
        h = scale * row["share"]
        players = say("players", players=escape(cat))
        interval = say(
            "interval", value=f"{row['share']:.1%}", low=f"{row['ci_low']:.1%}", high=f"{row['ci_high']:.1%}"
        )
        tip = f"<title>{players}: {interval}</title>"
        if h < 2:
            # Zero (or nearly): a mark on the baseline, so that the bar is visibly zero.
            out.append(
                f'<rect class="zero" x="{x}" y="{bottom - 2}" width="30" height="2" fill="{PALETTE[5]}">'
                f"{tip}</rect>"
            )
        else:
            out.append(
                f'<rect x="{x}" y="{_n(bottom - h)}" width="30" height="{_n(h)}" fill="{PALETTE[0]}">'
                f"{tip}</rect>"
            )
        lo, hi = bottom - scale * row["ci_low"], bottom - scale * row["ci_high"]
        out.append(f'<line x1="{x + 15}" y1="{_n(lo)}" x2="{x + 15}" y2="{_n(hi)}" stroke="#000"/>')
        out.append(f'<line x1="{x + 9}" y1="{_n(lo)}" x2="{x + 21}" y2="{_n(lo)}" stroke="#000"/>')
        out.append(f'<line x1="{x + 9}" y1="{_n(hi)}" x2="{x + 21}" y2="{_n(hi)}" stroke="#000"/>')
        out.append(
            f'<text x="{x + 15}" y="{_n(min(bottom - h, hi) - 4)}" text-anchor="middle" '
            f'font-size="10" {FONT}>{row["share"]:.0%}</text>'
        )
        out.append(
            f'<text x="{x + 15}" y="{bottom + 14}" text-anchor="middle" font-size="11" {FONT}>'
            f"{players}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)
