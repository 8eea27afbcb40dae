"""What the other reading of a question changes, in the report's words: the cells of its tables
(means and shares with their intervals), its share of games changed, and what it changes at the
table (who wins, how long a match lasts, how far the scores lie apart, how often the rule comes up).

Every visible word is the words file's (`pages.outcomes`, `pages.styles`), handed in by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..spec.words_model import PageWords
from .plain import pct
from .variants import Interval

MEASURE_ORDER = ("winner_seat", "winner_style", "rounds", "spread")


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


def share_words(impact: Mapping[str, Any] | None, words: PageWords) -> str:
    """A question's largest measured share, with its interval."""
    say = words.outcomes
    if not impact:
        return say("not_measured")
    if impact["share"] == 0:
        return say("none_changed", high=pct(impact["ci_high"]))
    return say(
        "share",
        share=pct(impact["share"]),
        players=impact["players"],
        low=pct(impact["ci_low"]),
        high=pct(impact["ci_high"]),
    )


def _who(label: str, by: str, words: PageWords) -> str:
    # The bots as a designer meets them: styles of play at the table, never by their names.
    if label == "tie":
        return words.outcomes("tie")
    if by == "seat":
        return words.outcomes("seat", label=label)
    return words.styles.get(label) or words.outcomes("style", label=label)


def _moved(rows: Mapping[str, Any], by: str, words: PageWords) -> tuple[str, float, float, bool]:
    """The winner whose share moves most between the two readings: (who, played, compared, whether
    it is the tie)."""
    played, compared = rows["played"], rows["compared"]
    i = max(range(len(played)), key=lambda k: (abs(compared[k]["share"] - played[k]["share"]), -k))
    label = played[i]["label"]
    return _who(label, by, words), played[i]["share"], compared[i]["share"], label == "tie"


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 100 else f"{x:.0f}"


def _change_words(measure: str, t: Mapping[str, Any], words: PageWords) -> str:
    say = words.outcomes
    if measure in ("winner_seat", "winner_style"):
        by = "seat" if measure == "winner_seat" else "style"
        who, a, b, tie = _moved(t["winner_by_" + by], by, words)
        return say("ties" if tie else "wins", who=who, compared=pct(b), played=pct(a))
    m = t[measure]
    return say(measure, compared=_num(m["compared"]), played=_num(m["played"]))


def _clear(measure: str, t: Mapping[str, Any]) -> bool:
    return measure in t["clear"]


def table_words(at_table: Mapping[str, Any] | None, words: PageWords) -> str:
    """What the other reading changes at the table, in a sentence or two: each clear change at the
    player count where it is largest (grouped by player count), or that nothing changes clearly;
    where the other reading cannot deal a table; then how often the two readings decide differently."""
    if not at_table:
        return ""
    say = words.outcomes
    per = at_table["per_players"]
    if at_table["relabels_seats"]:
        sentences = [say("relabels")]
    elif at_table["real"]:
        by_count: dict[str, list[str]] = {}
        for measure in MEASURE_ORDER:
            where = [(n, t) for n, t in per.items() if _clear(measure, t)]
            if where:
                n, t = max(where, key=lambda item: (item[1]["sizes"][measure], -int(item[0])))
                also = len(where) - 1
                more = say("also_clear" if also == 1 else "also_clear_many", count=also) if also else ""
                by_count.setdefault(n, []).append(_change_words(measure, t, words) + more)
        groups = [
            say("with_players", players=n, changes=_series(by_count[n], words))
            for n in sorted(by_count, key=int)
        ]
        sentences = [say("other_reading", changes="; ".join(groups))]
    elif per:
        games = max(t["games"] for t in per.values())
        sentences = [say("no_clear"), _bounds_words(per, games, words)]
    else:
        sentences = []
    if at_table["unplayed"]:
        counts = _series(sorted(at_table["unplayed"], key=int), words)
        sentences.append(say("unplayed", players=counts))
    up = [(n, t["comes_up"]) for n, t in per.items() if t["comes_up"] and t["comes_up"]["per_match"] > 0]
    if up:
        n, c = max(up, key=lambda item: (item[1]["per_match"], -int(item[0])))
        # A rule that decides most moves (the turn order, the deal) does not "come up": it is
        # always there.
        sentences.append(
            say(
                "differ_most" if c["per_match"] >= c["moves_per_match"] / 2 else "comes_up",
                times=_num(c["per_match"]),
                moves=_num(c["moves_per_match"]),
                players=n,
                first=_first(c, words),
            )
        )
    return " ".join(sentences)


def _first(comes_up: Mapping[str, Any], words: PageWords) -> str:
    # Counted over the first matches only: its moves a match are not those of the tables, which
    # count every match, and a reader comparing the two must be told why.
    return words.outcomes("first", matches=comes_up["matches"]) if comes_up.get("matches") else ""


def _two(x: float) -> str:
    """Two significant digits (a bound of 0.04 rounds is not 0)."""
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.2g}"


def _bounds_words(per: Mapping[str, Any], games: int, words: PageWords) -> str:
    """How large a change "no clear change" rules out: the largest the 95 % intervals admit at any
    player count compared."""
    say = words.outcomes
    worst = {m: max(t["bounds"][m] for t in per.values()) for m in MEASURE_ORDER}
    whose = say("whose_any") if any(t["winner_by_style"] for t in per.values()) else say("whose_seat")
    share = max(worst["winner_seat"], worst["winner_style"])
    return say(
        "bounds",
        games=games,
        points=round(share * 100),
        whose=whose,
        rounds=_two(worst["rounds"]),
        spread=_two(worst["spread"]),
    )


def _series(items: Sequence[str], words: PageWords) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + words.tables("and") + items[-1]


def table_rows(at_table: Mapping[str, Any] | None, words: PageWords) -> list[dict[str, Any]]:
    """One row per player count for the question's details: the two readings side by side, each
    cell (text, whether its difference is clear)."""
    if not at_table:
        return []
    say = words.outcomes
    rows = []
    for n, t in at_table["per_players"].items():
        clear = set(t["clear"])
        who, a, b, _ = _moved(t["winner_by_seat"], "seat", words)
        styles = t["winner_by_style"]
        style, sa, sb, _ = _moved(styles, "style", words) if styles else ("", 0.0, 0.0, False)
        up = t["comes_up"]
        # Only a clear change is named: the largest of several moves that chance alone can make
        # would overstate it. (A seat change that only relabels the seats is never clear.)
        if "winner_seat" in clear:
            seat = f"{who}: {pct(a)} → {pct(b)}"
        else:
            seat = say("no_clear_change") + (say("relabelled") if t["relabels_seats"] else "")
        styled = f"{style}: {pct(sa)} → {pct(sb)}" if "winner_style" in clear else say("no_clear_change")
        rows.append(
            {
                "players": n,
                "cells": [
                    (seat, "winner_seat" in clear),
                    (styled if styles else say("as_by_seat"), "winner_style" in clear),
                    (f"{_num(t['rounds']['played'])} → {_num(t['rounds']['compared'])}", "rounds" in clear),
                    (f"{_num(t['spread']['played'])} → {_num(t['spread']['compared'])}", "spread" in clear),
                    (
                        say("of", part=_num(up["per_match"]), whole=_num(up["moves_per_match"]))
                        if up
                        else "–",
                        False,
                    ),
                ],
            }
        )
    return rows


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
