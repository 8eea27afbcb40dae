"""What an answer changes at the table (report.json `at_table`) and the variant comparison, as
plain data: shares of wins with their intervals, mean changes, and each variant's statistics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checks.impact.outcomes import ALPHA, MEASURES, MeanChange, OutcomeChange, Shares, seat_balance_p
from ..checks.job.reviewed import Variant
from .plain import Plain


def _shares_json(s: Shares) -> list[dict[str, Any]]:
    return [
        {"label": label, "wins": n, "share": round(s.share(i), 4), "ci": [round(x, 4) for x in s.interval(i)]}
        for i, (label, n) in enumerate(zip(s.labels, s.counts, strict=True))
    ]


def _p(p: float) -> float:
    # Four significant digits: the digits past them say nothing about the matches, and differ in
    # the last places between ways of computing the same test.
    return float(f"{p:.4g}")


def _mean_json(m: MeanChange) -> dict[str, Any]:
    return {
        "played": round(m.played, 4),
        "compared": round(m.compared, 4),
        "difference": round(m.difference, 4),
        "ci": [round(m.low, 4), round(m.high, 4)],
        "p": _p(m.p),
    }


def outcome_json(o: OutcomeChange) -> dict[str, Any]:
    """What an answer changes at the table, as the report shows it: per player count the winner by
    seat and by style of play under both readings, match length and score spread, how often the
    rule comes up, and which of these differ for real."""
    per = {}
    for n, t in sorted(o.per_players.items()):
        per[str(n)] = {
            "games": t.games,
            "winner_by_seat": {
                "played": _shares_json(t.seats[0]),
                "compared": _shares_json(t.seats[1]),
                "p": _p(t.seat_p),
            },
            "winner_by_style": None
            if not t.style_tested
            else {
                "played": _shares_json(t.styles[0]),
                "compared": _shares_json(t.styles[1]),
                "p": _p(t.style_p),
            },
            "rounds": _mean_json(t.rounds),
            "spread": _mean_json(t.spread),
            "comes_up": None
            if t.comes_up is None
            else {
                "per_match": round(t.comes_up[0], 4),
                "ci": [round(t.comes_up[1], 4), round(t.comes_up[2], 4)],
                "moves_per_match": round(t.comes_up[3], 4),
                "matches": t.comes_up[4],
            },
            "real": sorted(t.real),
            "clear": sorted(t.clear),
            "sizes": {m: round(t.size(m), 4) for m in MEASURES},
            "bounds": {m: round(t.bound(m), 4) for m in MEASURES},
            "relabels_seats": t.relabels_seats,
            "effect": round(t.effect, 4),
        }
    return {
        "real": o.real,
        "relabels_seats": o.relabels_seats,
        "effect": round(o.effect, 4),
        "tests": o.tests,
        "threshold": o.threshold,
        "method": o.method,
        "per_players": per,
        "unplayed": {str(n): why for n, why in sorted(o.unplayed.items())},
    }


def variant_json(
    v: Variant, played: Mapping[str, str], questions: Sequence[Mapping[str, Any]], plain: Plain
) -> dict[str, Any]:
    # Where the version answers a question otherwise than the rules played, so that its columns
    # can be read (a version is its answers).
    otherwise = []
    # A literal version takes some readings on its text's own word and chooses the rest where
    # the text is silent: only the first are what that text answers.
    profile = plain.spec.profiles.get(v.label)
    literal = profile.status == "literal" if profile is not None else False
    on_the_text = profile.on_the_text if profile is not None else {}
    for number, q in enumerate(questions, 1):
        for point in q["points"]:
            if point in v.readings and v.readings[point] != played.get(point):
                otherwise.append(
                    {
                        "question": number,
                        "id": q["id"],
                        "point": point,
                        "reading": plain.reading(point, v.readings[point]),
                        "chosen": literal and on_the_text.get(point) != v.readings[point],
                    }
                )
    return {
        "label": v.label,
        "title": v.title,
        "readings": dict(sorted(v.readings.items())),
        "answers_otherwise": otherwise,
        "per_players": {str(p): v.stats[p].to_json() for p in sorted(v.stats)},
        "unplayable": {str(p): why for p, why in sorted(v.unplayable.items())},
        # whether every seat wins equally often, per player count (see seat_advantages)
        "seat_balance_p": {
            str(p): _p(seat_balance_p(v.stats[p].wins)) for p in sorted(v.stats) if v.stats[p].games
        },
    }


def seat_advantages(
    variants: Sequence[Mapping[str, Any]], questions: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The rule versions and player counts at which some seat wins clearly more often than another:
    the test that every seat wins equally often rejects at ALPHA, corrected (Bonferroni) for every
    version and player count tested, so that the chance that any of them is chance alone stays
    below ALPHA. Each names the questions the version answers otherwise than the rules played and,
    of those, the ones whose own comparison shows a clear change of who wins by seat there."""
    family = sum(len(v["seat_balance_p"]) for v in variants)
    out = []
    for v in variants:
        numbers = sorted({a["question"] for a in v["answers_otherwise"]})
        for players, p in v["seat_balance_p"].items():
            if family and p < ALPHA / family:
                seat_changed = [
                    n
                    for n in numbers
                    if (at := questions[n - 1]["at_table"]) is not None
                    and "winner_seat" in at["per_players"].get(players, {}).get("real", ())
                ]
                out.append(
                    {
                        "label": v["label"],
                        "players": int(players),
                        "p": p,
                        "tests": family,
                        "questions": numbers,
                        "seat_changed_in": seat_changed,
                    }
                )
    return out
