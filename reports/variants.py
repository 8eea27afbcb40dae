"""The variant comparison of the technical appendix: per metric a table (player counts down, rule
versions across, every value a mean or share with its 95 % interval) and a chart, how tricks end
under each version, and who wins by seat.

Every visible word is the words file's (`pages.charts`, `pages.metrics`, `pages.trick_ends`), handed
in by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from ..engine import TRICK_END_REASONS, TrickEndReason
from ..engine.stats import WENT_OUT, wilson_interval
from ..spec.words_model import PageWords
from . import svg

# How tricks end: the engine's trick-end reasons, then a round that ends mid-trick because a player
# went out (the simulation counts that apart).
TRICK_END_PARTS: tuple[str, ...] = (*(r.value for r in TRICK_END_REASONS), WENT_OUT)

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


#: The metrics compared, by key (its title is the words file's `pages.metrics`): how each is read
#: from a player count's statistics, and whether it is a share.
METRICS: tuple[tuple[str, Callable[[Mapping[str, Any]], Interval | None], bool], ...] = (
    ("round_moves", lambda s: mean_interval(s["round_length"]["moves"]), False),
    ("round_tricks", lambda s: mean_interval(s["round_length"]["tricks"]), False),
    ("rounds", lambda s: mean_interval(s["rounds_per_game"]), False),
    (
        "rule_of_8",
        lambda s: share_interval(
            s["tricks"]["ends_by_reason"].get(TrickEndReason.RULE_OF_8, 0), s["tricks"]["total"]
        ),
        True,
    ),
    ("first_leader", _leader, True),
)


def variant_view(
    variants: Sequence[Mapping[str, Any]], words: PageWords, advantages: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """Tables and charts of the variant comparison, one per metric, player counts down, variants
    across, every value a mean or share with its 95% interval."""
    if not variants:
        return {"labels": [], "metrics": [], "endings": [], "charts": []}
    say = words.charts
    # A designer knows a rule version by its title, not by its label.
    labels = [v["title"] for v in variants]
    counts = sorted({int(p) for v in variants for p in (*v["per_players"], *v["unplayable"])})
    metrics = []
    charts = []
    for key, get, percent in METRICS:
        title = words.metrics[key]
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
                    say("by_count", title=title),
                    f"variant-{key}",
                    [say("players", players=p) for p in counts],
                    [(label, [r["cells"][i] for r in rows]) for i, label in enumerate(labels)],
                    say,
                    percent=percent,
                    reference=reference,
                    reference_label=say("fair_share") if reference else "",
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
            words.trick_ends[p]: round(totals[p] / tricks, 4) if tricks else 0.0 for p in TRICK_END_PARTS
        }
        endings.append({"label": v["title"], "tricks": tricks, "shares": shares})
    charts.append(
        Markup(
            svg.stacked_shares(
                say("trick_ends"),
                "variant-trick-ends",
                [(e["label"], e["shares"]) for e in endings],
                [words.trick_ends[p] for p in TRICK_END_PARTS],
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
