"""Render report data as Markdown (the designer's report, report.md, and its technical appendix,
technical.md), HTML (the designer's report as one self-contained file) and JSON, and write them all
atomically.

The HTML carries its CSS inline and its charts as inline SVG; it loads nothing from anywhere. Cards
are drawn as small card faces showing the rank, tinted by the weather group printed on the real
cards (1-5 rain, 7-9 cloud, 11-15 sun; evidence E8), the 8s outlined because of the Rule of 8.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..checks.findings import FINDING_KINDS, SEVERITIES
from ..engine import TRICK_END_REASONS, TrickEndReason
from ..engine.stats import WENT_OUT, wilson_interval
from ..spec import dumps
from . import svg
from .plain import pct, player, quoted, split_move

FILES = ("report.md", "report.html", "technical.md", "report.json")
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


def move_html(text: str) -> Markup:
    parsed = split_move(text)
    if parsed is None:
        return Markup(escape(text))
    action, cards = parsed
    return Markup(
        f'<span class="move"><span class="action">{action}</span> {cards_html(cards) if cards else ""}</span>'
    )


def _play_text(play: Mapping[str, Any]) -> str:
    cards = ",".join(str(c) for c in play.get("cards", []))
    return f"{play.get('action', '')} {cards}".strip()


def table_html(witness: Mapping[str, Any]) -> Markup:
    """The table of a witness drawn with card faces: the seats (numbered from 1) with their hands,
    whose turn it is, the central pile and the trick so far; then, when legal play reaches it, how
    to set it up by play. What happens next is told in words beside it (the scene)."""
    sit = witness.get("situation", {})
    players = sit.get("players")
    hands = sit.get("hands")
    to_move = sit.get("to_move")
    passed = set(sit.get("passed", []))
    parts = ['<div class="table-situation">']
    if isinstance(players, int) and not isinstance(players, bool) and (hands or sit.get("hand")):
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
                hand = Markup('<span class="muted">hand not shown</span>')
            cls = "seat mover" if seat == to_move else "seat"
            name = f"{player(seat).capitalize()} {''.join(badges)}"
            seats.append(f'<div class="{cls}"><div class="seat-name">{name}</div>{hand}</div>')
        parts.append('<div class="seats">' + "".join(seats) + "</div>")
    pile = sit.get("pile")
    if pile:
        parts.append(
            f'<div class="pile"><span class="label">Central pile</span> {escape(str(pile.get("kind", "")))} '
            f"{cards_html(pile.get('cards', []))}</div>"
        )
    trick = sit.get("trick") or []
    if trick:
        plays = "".join(
            f"<li>{player(t.get('player', 0)).capitalize()}: {move_html(_play_text(t))}</li>" for t in trick
        )
        parts.append(f'<div class="trick"><span class="label">This trick so far</span><ol>{plays}</ol></div>')
    parts.append("</div>")
    position = witness.get("position")
    if position:
        dealt = "".join(
            f"<li>{player(seat).capitalize()} is dealt {cards_html(hand)}</li>"
            for seat, hand in enumerate(position["hands"])
        )
        moves = "".join(f"<li>{move_html(_play_text(m))}</li>" for m in position["moves"])
        parts.append(
            '<details class="position"><summary>Set this table up by play</summary>'
            f"<p>Round {int(position['round'])}; {player(position['leader'])} leads.</p><ul>{dealt}</ul>"
            + (f"<p>The moves so far, in turn:</p><ol>{moves}</ol>" if moves else "")
            + "</details>"
        )
    return Markup("".join(parts))


def scene_md(scene: Mapping[str, Any], indent: int = 0) -> str:
    """A told scene as Markdown lines: the table, then what happens under each side."""
    pad = " " * indent
    lines = [scene["setup"]] if scene.get("setup") else []
    outcomes = scene.get("outcomes", [])
    if scene.get("same") and outcomes:
        names = " and ".join(quoted(o["label"]) for o in outcomes)
        lines.append(f"{pad}- The same under {names}: {outcomes[0]['words']}")
    else:
        lines += [f"{pad}- Under {quoted(o['label'])}: {o['words']}" for o in outcomes]
    return "\n".join(lines)


def scene_html(scene: Mapping[str, Any]) -> Markup:
    """A told scene: the table in a sentence or two, then what happens under each side."""
    setup = f"<p>{escape(scene['setup'])}</p>" if scene.get("setup") else ""
    outcomes = scene.get("outcomes", [])
    if scene.get("same") and outcomes:
        names = " and ".join(escape(quoted(o["label"])) for o in outcomes)
        rows = f"<li>The same under {names}: {escape(outcomes[0]['words'])}</li>"
    else:
        rows = "".join(
            f"<li>Under <em>{escape(quoted(o['label']))}</em>: {escape(o['words'])}</li>" for o in outcomes
        )
    return Markup(f"{setup}<ul>{rows}</ul>")


def scene_key(scene: Mapping[str, Any]) -> str:
    """What a scene shows, whatever its sides are called: two findings with the same key tell the
    same table and the same outcomes."""
    return str(scene.get("setup", "")) + "|" + "|".join(str(o["words"]) for o in scene.get("outcomes", []))


# ---- the variant comparison ------------------------------------------------------------------

Interval = tuple[float, float, float]  # a mean or share, with its 95% interval


def mean_interval(hist: Mapping[str, Any] | None) -> Interval | None:
    """The mean of a histogram with its 95% interval (normal approximation: the histograms hold
    hundreds of rounds or matches)."""
    if not hist or not hist.get("count"):
        return None
    pairs = [(float(v), int(n)) for v, n in hist["histogram"]]
    n = sum(c for _, c in pairs)
    mean = sum(v * c for v, c in pairs) / n
    var = sum(c * (v - mean) ** 2 for v, c in pairs) / (n - 1) if n > 1 else 0.0
    half = 1.959964 * math.sqrt(var / n)
    return (round(mean, 3), round(mean - half, 3), round(mean + half, 3))


def share_interval(count: int, total: int) -> Interval | None:
    interval = wilson_interval(count, total)
    if interval is None:
        return None
    return (round(count / total, 4), interval[0], interval[1])


def _leader(s: Mapping[str, Any]) -> Interval | None:
    fl = s["first_leader"]
    ci = fl.get("win_share_ci95")
    return (fl["win_share"], ci[0], ci[1]) if ci and fl["win_share"] is not None else None


METRICS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], Interval | None], bool], ...] = (
    ("round_moves", "Moves per round (mean)", lambda s: mean_interval(s["round_length"]["moves"]), False),
    ("round_tricks", "Tricks per round (mean)", lambda s: mean_interval(s["round_length"]["tricks"]), False),
    ("rounds", "Rounds per match (mean)", lambda s: mean_interval(s["rounds_per_game"]), False),
    (
        "rule_of_8",
        "Tricks ended by the Rule of 8",
        lambda s: share_interval(
            s["tricks"]["ends_by_reason"].get(TrickEndReason.RULE_OF_8, 0), s["tricks"]["total"]
        ),
        True,
    ),
    ("first_leader", "Win share of the first trick's leader", _leader, True),
)


def variant_view(
    variants: Sequence[Mapping[str, Any]], advantages: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """Tables and charts of the variant comparison, one per metric, player counts down, variants
    across, every value a mean or share with its 95% interval."""
    if not variants:
        return {"labels": [], "metrics": [], "endings": [], "charts": []}
    # A designer knows a rule version by its title, not by its label.
    labels = [v["title"] for v in variants]
    counts = sorted({int(p) for v in variants for p in (*v["per_players"], *v["unplayable"])})
    metrics = []
    charts = []
    for key, title, get, percent in METRICS:
        rows: list[dict[str, Any]] = []
        for p in counts:
            cells: list[Interval | None] = []
            for v in variants:
                stats = v["per_players"].get(str(p))
                cells.append(get(stats) if stats else None)
            rows.append({"players": p, "cells": cells})
        metrics.append({"key": key, "title": title, "percent": percent, "rows": rows})
        reference = [round(1 / p, 4) for p in counts] if key == "first_leader" else None
        charts.append(
            Markup(
                svg.grouped_bars(
                    title + " by player count",
                    f"variant-{key}",
                    [f"{p} players" for p in counts],
                    [(label, [r["cells"][i] for r in rows]) for i, label in enumerate(labels)],
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
        endings.append({"label": v["title"], "tricks": tricks, "shares": shares})
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
    return {
        "labels": labels,
        "metrics": metrics,
        "endings": endings,
        "charts": charts,
        "seats": _seat_wins(variants, counts, advantages),
    }


def _seat_wins(
    variants: Sequence[Mapping[str, Any]], counts: Sequence[int], advantages: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Who wins, by seat, under each rule version: one table a version, a row a player count, a
    column a seat (and the ties), each a share of the matches with its 95 % interval. The styles
    of play take turns round the seats, so a seat's share tells of the seat."""
    most = max(counts, default=0)
    # the seat test's family: every version and player count tested (seat_advantages)
    tested = sum(len(v.get("seat_balance_p", {})) for v in variants)
    tables = []
    for v in variants:
        rows = []
        for p in counts:
            stats = v["per_players"].get(str(p))
            if not stats:
                continue
            games = stats["games"]
            # the seats at the table, then empty cells up to the largest table
            cells: list[Interval | None] = [
                share_interval(seat["wins"], games)
                for seat in sorted(stats["seats"], key=lambda s: s["seat"])
            ]
            cells += [None] * (most - len(cells))
            rows.append({"players": p, "cells": cells, "ties": share_interval(stats["ties"], games)})
        tables.append(
            {
                "label": v["title"],
                "rows": rows,
                "advantages": [a for a in advantages if a["label"] == v["label"]],
                "tested": tested,
            }
        )
    return tables


# ---- rendering -------------------------------------------------------------------------------


def fmt(value: Any, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    if percent:
        return f"{float(value):.1%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def mean_cell(cell: Interval | None, percent: bool = False) -> str:
    if cell is None:
        return "n/a"
    value, lo, hi = cell
    if percent:
        return f"{pct(value)} ({pct(lo)}–{pct(hi)})"
    return f"{value:.2f} ({lo:.2f}–{hi:.2f})"


def share_cell(row: Mapping[str, Any]) -> str:
    if row.get("undealt"):
        return str(row["undealt"])

    def bare(value: float) -> str:
        return pct(value).removesuffix(" %")

    return f"{pct(row['share'])} ({bare(row['ci_low'])}–{bare(row['ci_high'])})"


def impact_line(per_players: Mapping[str, Mapping[str, Any]]) -> str:
    """Shares per player count, neighbouring counts with the same figures told once ("2-4: 0 % ...")."""
    groups: list[tuple[list[str], str]] = []
    for players, row in per_players.items():
        cell = share_cell(row)
        if groups and groups[-1][1] == cell:
            groups[-1][0].append(players)
        else:
            groups.append(([players], cell))
    parts = [
        f"{counts[0]}–{counts[-1]}: {cell}" if len(counts) > 1 else f"{counts[0]}: {cell}"
        for counts, cell in groups
    ]
    return "; ".join(parts)


def share_words(impact: Mapping[str, Any] | None) -> str:
    """A question's largest measured share, with its interval."""
    if not impact:
        return "not measured in this run"
    if impact["share"] == 0:
        return (
            f"no simulated game changed (at most {pct(impact['ci_high'])} at any player count, 95 % interval)"
        )
    return (
        f"{pct(impact['share'])} of games at {impact['players']} players "
        f"(95 % interval {pct(impact['ci_low'])}–{pct(impact['ci_high'])})"
    )


# The bots as a designer meets them: styles of play at the table, never by their names.
STYLE_WORDS = {
    "greedy": "the eager player",
    "cautious": "the cautious player",
    "random": "the player who plays at random",
}
MEASURE_ORDER = ("winner_seat", "winner_style", "rounds", "spread")


def _who(label: str, by: str) -> str:
    if label == "tie":
        return "a tie"
    return f"player {label}" if by == "seat" else STYLE_WORDS.get(label, f"the {label} player")


def _moved(rows: Mapping[str, Any], by: str) -> tuple[str, float, float]:
    """The winner whose share moves most between the two readings: (who, played, compared)."""
    played, compared = rows["played"], rows["compared"]
    i = max(range(len(played)), key=lambda k: (abs(compared[k]["share"] - played[k]["share"]), -k))
    return _who(played[i]["label"], by), played[i]["share"], compared[i]["share"]


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 100 else f"{x:.0f}"


def _change_words(measure: str, t: Mapping[str, Any]) -> str:
    if measure in ("winner_seat", "winner_style"):
        by = "seat" if measure == "winner_seat" else "style"
        who, a, b = _moved(t["winner_by_" + by], by)
        verb = "ends" if who == "a tie" else "wins"
        return f"{who} {verb} {pct(b)} of matches instead of {pct(a)}"
    m = t[measure]
    if measure == "rounds":
        return f"a match lasts {_num(m['compared'])} rounds instead of {_num(m['played'])}"
    return f"the final scores lie {_num(m['compared'])} points apart instead of {_num(m['played'])}"


def _clear(measure: str, t: Mapping[str, Any]) -> bool:
    return measure in t["clear"]


def table_words(at_table: Mapping[str, Any] | None) -> str:
    """What the other reading changes at the table, in a sentence or two: each clear change at the
    player count where it is largest (grouped by player count), or that nothing changes clearly;
    where the other reading cannot deal a table; then how often the two readings decide differently."""
    if not at_table:
        return ""
    per = at_table["per_players"]
    if at_table["relabels_seats"]:
        sentences = [
            "Only moves the advantage round the table: another seat wins most, but the wins are "
            "spread over the seats as before, and match length and scores do not change clearly."
        ]
    elif at_table["real"]:
        by_count: dict[str, list[str]] = {}
        for measure in MEASURE_ORDER:
            where = [(n, t) for n, t in per.items() if _clear(measure, t)]
            if where:
                n, t = max(where, key=lambda item: (item[1]["sizes"][measure], -int(item[0])))
                also = len(where) - 1
                more = f" (clear at {also} more player count{'s' if also > 1 else ''} too)" if also else ""
                by_count.setdefault(n, []).append(_change_words(measure, t) + more)
        groups = [f"with {n} players {_series(by_count[n])}" for n in sorted(by_count, key=int)]
        sentences = ["Under the other reading, " + "; ".join(groups) + "."]
    elif per:
        games = max(t["games"] for t in per.values())
        sentences = [
            "No clear change in who wins, how long a match lasts or how far the scores lie apart.",
            _bounds_words(per, games),
        ]
    else:
        sentences = []
    if at_table["unplayed"]:
        counts = _series(sorted(at_table["unplayed"], key=int))
        sentences.append(
            f"With {counts} players, where the answer changes games, one of the readings cannot deal "
            "the cards: not compared there."
        )
    up = [(n, t["comes_up"]) for n, t in per.items() if t["comes_up"] and t["comes_up"]["per_match"] > 0]
    if up:
        n, c = max(up, key=lambda item: (item[1]["per_match"], -int(item[0])))
        if c["per_match"] >= c["moves_per_match"] / 2:
            # A rule that decides most moves (the turn order, the deal) does not "come up": it is
            # always there.
            sentences.append(
                f"The two readings differ at most moves of a match: {_num(c['per_match'])} of "
                f"{_num(c['moves_per_match'])} with {n} players{_first(c)}."
            )
        else:
            sentences.append(
                f"The rule comes up about {_num(c['per_match'])} times a match with {n} players: moves "
                f"at which the two readings would differ, of {_num(c['moves_per_match'])}{_first(c)}."
            )
    return " ".join(sentences)


def _first(comes_up: Mapping[str, Any]) -> str:
    # Counted over the first matches only: its moves a match are not those of the tables, which
    # count every match, and a reader comparing the two must be told why.
    return f" (over the first {comes_up['matches']} matches)" if comes_up.get("matches") else ""


def _two(x: float) -> str:
    """Two significant digits (a bound of 0.04 rounds is not 0)."""
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.2g}"


def _bounds_words(per: Mapping[str, Any], games: int) -> str:
    """How large a change "no clear change" rules out: the largest the 95 % intervals admit at any
    player count compared."""
    worst = {m: max(t["bounds"][m] for t in per.values()) for m in MEASURE_ORDER}
    whose = "a seat's or style's" if any(t["winner_by_style"] for t in per.values()) else "a seat's"
    share = max(worst["winner_seat"], worst["winner_style"])
    return (
        f"Still, {games} matches per player count could hide a change of up to {round(share * 100)} "
        f"percentage points in {whose} share of wins, {_two(worst['rounds'])} rounds in a match's "
        f"length or {_two(worst['spread'])} points in the distance between the final scores."
    )


def _series(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def table_rows(at_table: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """One row per player count for the question's details: the two readings side by side, each
    cell (text, whether its difference is clear)."""
    if not at_table:
        return []
    rows = []
    for n, t in at_table["per_players"].items():
        clear = set(t["clear"])
        who, a, b = _moved(t["winner_by_seat"], "seat")
        styles = t["winner_by_style"]
        style, sa, sb = _moved(styles, "style") if styles else ("", 0.0, 0.0)
        up = t["comes_up"]
        # Only a clear change is named: the largest of several moves that chance alone can make
        # would overstate it. (A seat change that only relabels the seats is never clear.)
        if "winner_seat" in clear:
            seat = f"{who}: {pct(a)} → {pct(b)}"
        else:
            seat = "no clear change" + (" (the seats relabelled)" if t["relabels_seats"] else "")
        styled = f"{style}: {pct(sa)} → {pct(sb)}" if "winner_style" in clear else "no clear change"
        rows.append(
            {
                "players": n,
                "cells": [
                    (seat, "winner_seat" in clear),
                    (styled if styles else "as by seat", "winner_style" in clear),
                    (f"{_num(t['rounds']['played'])} → {_num(t['rounds']['compared'])}", "rounds" in clear),
                    (f"{_num(t['spread']['played'])} → {_num(t['spread']['compared'])}", "spread" in clear),
                    (f"{_num(up['per_match'])} of {_num(up['moves_per_match'])}" if up else "–", False),
                ],
            }
        )
    return rows


def largest_share(impact: Mapping[str, Any]) -> str:
    rows = impact["per_players"]
    players, row = max(rows.items(), key=lambda item: (item[1]["share"], -int(item[0])))
    return share_words(
        {"share": row["share"], "players": players, "ci_low": row["ci_low"], "ci_high": row["ci_high"]}
    )


def shorten(text: Any, width: int = 70) -> str:
    """A long text cut at a word boundary, marked with an ellipsis."""
    words = str(text)
    if len(words) <= width:
        return words
    cut = words[:width].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def first_upper(text: Any) -> str:
    words = str(text)
    return words[:1].upper() + words[1:]


def md_cell(text: Any) -> str:
    return str(text if text is not None else "—").replace("|", "\\|").replace("\n", " ")


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
        cards_md=cards_md,
        cards_html=cards_html,
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
        largest_share=largest_share,
        shorten=shorten,
        first_upper=first_upper,
        status_of=_status,
        standalone_repairs=standalone_repairs,
        pct=pct,
    )
    return env


def _context(data: Mapping[str, Any]) -> dict[str, Any]:
    sections = {s["id"]: s for s in data["findings"]}
    charts: dict[str, list[Markup]] = {}
    for q in data["questions"]:
        charts[q["id"]] = [
            Markup(
                svg.impact_bars(
                    # A chart is as wide as its title: a long reading is cut (it is written out
                    # in full in the list beside the chart), so the chart keeps its height on a
                    # narrow screen.
                    f"Games changed: {shorten(row['label'], 60)}"
                    if len(q["impacts"]) > 1
                    else "Games changed",
                    f"impact-{q['id']}-{n}",
                    row["per_players"],
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
        "variants": variant_view(data["variants"], data.get("seat_advantages", ())),
        "charts": charts,
        "filters": present,
        "kind_words": data["kinds"],
    }


def _status(item: Mapping[str, Any]) -> str:
    """ "open" or "settled", for a question and for a finding that stands alone."""
    return "open" if item.get("settled_by") is None else "settled"


def render_markdown(data: Mapping[str, Any]) -> str:
    return _env(False).get_template("report.md.j2").render(**_context(data))


def render_html(data: Mapping[str, Any]) -> str:
    return _env(True).get_template("report.html.j2").render(**_context(data))


def render_technical(data: Mapping[str, Any]) -> str:
    """The technical appendix (technical.md): what the designer's report leaves out."""
    return _env(False).get_template("technical.md.j2").render(**_context(data))


def render_json(data: Mapping[str, Any]) -> str:
    return dumps(data) + "\n"


def render_all(data: Mapping[str, Any]) -> dict[str, str]:
    """The report's files' texts, by file name."""
    return {
        "report.md": render_markdown(data),
        "report.html": render_html(data),
        "technical.md": render_technical(data),
        "report.json": render_json(data),
    }


def write_report(
    out_dir: Path,
    data: Mapping[str, Any],
    render: Callable[[Mapping[str, Any]], dict[str, str]] = render_all,
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
        texts = {**render(data), **(extra or {})}
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
