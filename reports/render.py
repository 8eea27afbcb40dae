"""Render report data as Markdown, HTML (one self-contained file) and JSON, and write all three
atomically.

The HTML carries its CSS inline and its charts as inline SVG; it loads nothing from anywhere. Cards
are drawn as small card faces showing the rank, tinted by the weather group printed on the real
cards (1-5 rain, 7-9 cloud, 11-15 sun; evidence E8), the 8s outlined because of the Rule of 8.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

import jinja2
from five35.engine import TRICK_END_REASONS, TrickEndReason
from five35.engine.simulate import WENT_OUT
from five35.spec import dumps
from markupsafe import Markup

from . import svg

FILES = ("report.md", "report.html", "report.json")
# How tricks end: the engine's trick-end reasons, then a round that ends mid-trick because a player
# went out (the simulation counts that apart).
TRICK_END_PARTS: tuple[str, ...] = (*(r.value for r in TRICK_END_REASONS), WENT_OUT)
TRICK_END_WORDS: dict[str, str] = {
    TrickEndReason.ALL_PASSED: "all but one passed",
    TrickEndReason.SET_CLOSED: "set closed",
    TrickEndReason.RUN_CLOSED: "run closed",
    TrickEndReason.RULE_OF_8: "Rule of 8",
    WENT_OUT: "a player went out",
}


# ---- cards and witnesses ---------------------------------------------------------------------


def _group(rank: int) -> str:
    if rank <= 5:
        return "rain"
    if rank <= 9:
        return "cloud"
    return "sun"


def cards_html(cards: Sequence[int]) -> Markup:
    if not cards:
        return Markup('<span class="none">no cards</span>')
    faces = "".join(
        f'<span class="card {_group(int(c))}{" eight" if int(c) == 8 else ""}">{int(c)}</span>' for c in cards
    )
    return Markup(f'<span class="cards">{faces}</span>')


def cards_md(cards: Sequence[int]) -> str:
    return " ".join(f"[{int(c)}]" for c in cards) if cards else "no cards"


def _parse_move(text: str) -> tuple[str, list[int]] | None:
    action, _, rest = text.partition(" ")
    if action not in ("lead", "overwrite", "add", "pass"):
        return None
    try:
        return action, [int(c) for c in rest.split(",") if c]
    except ValueError:
        return None


def move_html(text: str) -> Markup:
    parsed = _parse_move(text)
    if parsed is None:
        return Markup(escape(text))
    action, cards = parsed
    return Markup(
        f'<span class="move"><span class="action">{action}</span> {cards_html(cards) if cards else ""}</span>'
    )


def _is_pile(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"kind", "cards"}


def _is_move(value: Any) -> bool:
    return isinstance(value, Mapping) and "action" in value and set(value) <= {"action", "cards"}


def value_html(value: Any) -> Markup:
    """Any outcome value a check may give, drawn as cards and moves where it is one."""
    if value is None:
        return Markup('<span class="none">none</span>')
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    if _is_move(value):
        return move_html(_play_text(value))
    if _is_pile(value):
        return Markup(f"{escape(str(value['kind']))} {cards_html(value['cards'])}")
    if isinstance(value, str):
        return move_html(value)
    if isinstance(value, Mapping):
        rows = "".join(
            f"<dt>{escape(str(k).replace('_', ' '))}</dt><dd>{value_html(v)}</dd>" for k, v in value.items()
        )
        return Markup(f'<dl class="kv">{rows}</dl>')
    if isinstance(value, list | tuple):
        if not value:
            return Markup('<span class="none">none</span>')
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return Markup(escape(", ".join(str(v) for v in value)))
        return Markup("<ul>" + "".join(f"<li>{value_html(v)}</li>" for v in value) + "</ul>")
    return Markup(escape(str(value)))


def value_md(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _is_move(value):
        return value_md(_play_text(value))
    if _is_pile(value):
        return f"{value['kind']} {cards_md(value['cards'])}"
    if isinstance(value, str):
        parsed = _parse_move(value)
        return f"{parsed[0]} {cards_md(parsed[1])}".strip() if parsed and parsed[1] else value
    if isinstance(value, Mapping):
        return "; ".join(f"{str(k).replace('_', ' ')}: {value_md(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_md(v) for v in value) if value else "none"
    return str(value)


def _play_text(play: Mapping[str, Any]) -> str:
    cards = ",".join(str(c) for c in play.get("cards", []))
    return f"{play.get('action', '')} {cards}".strip()


def witness_html(witness: Mapping[str, Any]) -> Markup:
    """The table situation: the seats with their hands, whose turn it is, the pile and the trick so
    far, then what each reading lets happen next."""
    sit = witness.get("situation", {})
    players = sit.get("players")
    hands = sit.get("hands")
    to_move = sit.get("to_move")
    passed = set(sit.get("passed", []))
    parts = ['<div class="table-situation">']
    if isinstance(players, int):
        seats = []
        for seat in range(players):
            badges = []
            if seat == to_move:
                badges.append('<span class="badge turn">to move</span>')
            if seat in passed:
                badges.append('<span class="badge passed">passed</span>')
            if hands is not None and seat < len(hands):
                hand = cards_html(hands[seat])
            elif seat == to_move and sit.get("hand") is not None:
                hand = cards_html(sit["hand"])
            else:
                hand = Markup('<span class="none">hand not part of the situation</span>')
            cls = "seat mover" if seat == to_move else "seat"
            seats.append(
                f'<div class="{cls}"><div class="seat-name">Player {seat} {"".join(badges)}</div>{hand}</div>'
            )
        parts.append('<div class="seats">' + "".join(seats) + "</div>")
    elif sit.get("hand") is not None:
        parts.append(
            f'<div class="seat mover"><div class="seat-name">Hand of the player to move</div>'
            f"{cards_html(sit['hand'])}</div>"
        )
    pile = sit.get("pile")
    leading = sit.get("leading")
    if pile:
        pile_html = f"{escape(str(pile.get('kind', '')))} {cards_html(pile.get('cards', []))}"
    else:
        pile_html = "empty: the player to move leads" if leading or pile is None else "empty"
    parts.append(f'<div class="pile"><span class="label">Central pile</span> {pile_html}</div>')
    if sit.get("opening_has_eight"):
        parts.append('<div class="note">The trick\'s opening pile contained an 8.</div>')
    trick = sit.get("trick") or []
    if trick:
        plays = "".join(
            f"<li>Player {int(t.get('player', -1))}: {move_html(_play_text(t))}</li>" for t in trick
        )
        parts.append(f'<div class="trick"><span class="label">This trick so far</span><ol>{plays}</ol></div>')
    known = {"players", "to_move", "leading", "hand", "hands", "pile", "opening_has_eight", "trick", "passed"}
    extra = {k: v for k, v in sit.items() if k not in known}
    if extra:
        parts.append(f'<div class="extra">{value_html(extra)}</div>')
    parts.append("</div>")
    outcomes = witness.get("outcomes", {})
    cols = "".join(
        f'<div class="outcome"><h5>Under <code>{escape(str(name))}</code></h5>{value_html(out)}</div>'
        for name, out in outcomes.items()
    )
    parts.append(f'<div class="outcomes">{cols}</div>')
    position = witness.get("position")
    if position:
        dealt = "".join(
            f"<li>Player {seat} is dealt {cards_html(hand)}</li>"
            for seat, hand in enumerate(position["hands"])
        )
        moves = "".join(f"<li>{move_html(_play_text(m))}</li>" for m in position["moves"])
        parts.append(
            '<details class="position"><summary>Set this table up by play</summary>'
            f"<p>Round {int(position['round'])}; player {int(position['leader'])} leads.</p><ul>{dealt}</ul>"
            + (f"<p>The moves so far:</p><ol>{moves}</ol>" if moves else "")
            + "</details>"
        )
    return Markup("".join(parts))


# ---- the variant comparison ------------------------------------------------------------------


def _mean_seats(stats: Mapping[str, Any], key: str) -> float | None:
    vals = [s[key] for s in stats["seats"] if s[key] is not None]
    return round(sum(vals) / len(vals), 3) if vals else None


METRICS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], float | None], bool], ...] = (
    ("round_moves", "Moves per round (mean)", lambda s: s["round_length"]["moves"]["mean"], False),
    ("round_tricks", "Tricks per round (mean)", lambda s: s["round_length"]["tricks"]["mean"], False),
    ("rounds", "Rounds per match (mean)", lambda s: s["rounds_per_game"]["mean"], False),
    (
        "rule_of_8",
        "Rule-of-8 firings per round",
        lambda s: round(s["tricks"]["rule_of_8_firings"] / s["rounds"], 3) if s["rounds"] else None,
        False,
    ),
    ("first_leader", "Win share of the first trick's leader", lambda s: s["first_leader"]["win_share"], True),
    (
        "penalty",
        "Penalty points per player per round (mean)",
        lambda s: _mean_seats(s, "mean_penalty_per_round"),
        False,
    ),
    ("final_score", "Final score per player (mean)", lambda s: _mean_seats(s, "mean_final_score"), False),
)


def variant_view(variants: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Tables and charts of the variant comparison, one per metric, player counts down, variants
    across."""
    if not variants:
        return {"labels": [], "metrics": [], "endings": [], "charts": []}
    labels = [v["label"] for v in variants]
    counts = sorted({int(p) for v in variants for p in (*v["per_players"], *v["unplayable"])})
    metrics = []
    charts = []
    for key, title, get, percent in METRICS:
        rows: list[dict[str, Any]] = []
        for p in counts:
            vals: list[float | None] = []
            for v in variants:
                stats = v["per_players"].get(str(p))
                vals.append(get(stats) if stats else None)
            rows.append({"players": p, "values": vals})
        metrics.append({"key": key, "title": title, "percent": percent, "rows": rows})
        reference = None
        if key == "first_leader":
            reference = [round(1 / p, 4) for p in counts]
        charts.append(
            Markup(
                svg.grouped_bars(
                    title + " by player count",
                    f"variant-{key}",
                    [f"{p} players" for p in counts],
                    [(label, [r["values"][i] for r in rows]) for i, label in enumerate(labels)],
                    percent=percent,
                    reference=reference,
                    reference_label="fair share (1/players)" if reference else "",
                )
            )
        )
    endings = []
    for v in variants:
        totals = dict.fromkeys(TRICK_END_PARTS, 0)
        tricks = 0
        for stats in v["per_players"].values():
            tricks += stats["tricks"]["total"]
            for part in TRICK_END_PARTS:
                totals[part] += stats["tricks"]["ends_by_reason"].get(part, 0)
        shares = {
            TRICK_END_WORDS[p]: round(totals[p] / tricks, 4) if tricks else 0.0 for p in TRICK_END_PARTS
        }
        endings.append({"label": v["label"], "tricks": tricks, "shares": shares})
    charts.append(
        Markup(
            svg.stacked_shares(
                "How tricks end (all player counts)",
                "variant-trick-ends",
                [(e["label"], e["shares"]) for e in endings],
                [TRICK_END_WORDS[p] for p in TRICK_END_PARTS],
            )
        )
    )
    return {"labels": labels, "metrics": metrics, "endings": endings, "charts": charts}


# ---- rendering -------------------------------------------------------------------------------


def fmt(value: Any, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    if percent:
        return f"{float(value):.1%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def md_cell(text: Any) -> str:
    return str(text if text is not None else "—").replace("|", "\\|").replace("\n", " ")


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
        cards_md=cards_md,
        cards_html=cards_html,
        value_md=value_md,
        value_html=value_html,
        witness_html=witness_html,
    )
    return env


def _context(data: Mapping[str, Any]) -> dict[str, Any]:
    impact_charts = {}
    for section in data["findings"]:
        if section["impact"]:
            impact_charts[section["id"]] = Markup(
                svg.impact_bars(
                    f"Games changed by the reading ({section['impact'].get('compared', 'other reading')})",
                    f"impact-{section['id']}",
                    section["impact"]["per_players"],
                )
            )
    return {
        "r": data,
        "variants": variant_view(data["variants"]),
        "impact_charts": impact_charts,
        "kinds_words": {
            "ambiguity": "ambiguity (variation point)",
            "contradiction": "contradiction",
            "gap": "gap (undefined term)",
            "dead_clause": "dead clause",
            "mismatch": "German/Spanish mismatch",
            "defect": "defect in a source text",
        },
    }


def render_markdown(data: Mapping[str, Any]) -> str:
    return _env(False).get_template("report.md.j2").render(**_context(data))


def render_html(data: Mapping[str, Any]) -> str:
    return _env(True).get_template("report.html.j2").render(**_context(data))


def render_json(data: Mapping[str, Any]) -> str:
    return dumps(data) + "\n"


def render_all(data: Mapping[str, Any]) -> dict[str, str]:
    """The three files' texts, by file name."""
    return {
        "report.md": render_markdown(data),
        "report.html": render_html(data),
        "report.json": render_json(data),
    }


def write_report(
    out_dir: Path, data: Mapping[str, Any], render: Callable[[Mapping[str, Any]], dict[str, str]] = render_all
) -> list[Path]:
    """Render all three files, write them to temporary files in `out_dir`, then move each into
    place. An error or an interrupt before the moves leaves the old report (or none) and no
    temporary file behind."""
    out_dir.mkdir(parents=True, exist_ok=True)
    # mkstemp makes owner-only files; a report is for reading, so give it the usual umask mode.
    umask = os.umask(0)
    os.umask(umask)
    temps: list[tuple[Path, Path]] = []
    try:
        texts = render(data)
        for name in FILES:
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
    return [out_dir / name for name in FILES]
