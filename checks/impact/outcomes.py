"""What an answer changes at the table: who wins, by seat and by style of play, how long a match
lasts and how far the scores spread, under each of two readings, over the same seeded matches.

`play_outcomes` plays matches i in a range of game numbers, each dealt as `five35.engine.simulate`
deals it (game i from `game_seed(seed, i)`), and keeps, per match, the winners, the rounds and the
spread of the final scores. The bots (styles of play) take turns round the seats from one match to
the next (`five35.engine.bots.turning_seats`), as everywhere in the report: over any run of as many
matches as there are styles, every style sits at every seat once, so that who wins by seat
measures the seat and who wins by style the style. It is a pure function of its arguments and the
records of disjoint ranges add up (`Outcomes.merge`), so the work splits across processes.

`compare` holds two sides' records of the same matches against each other, per player count:

- the winner (each seat, and a tie) and the winning style of play (the bot of the winning seat)
  with a chi-square test of homogeneity;
- match length in rounds and the spread of the final scores (highest minus lowest), as the mean
  difference over the paired matches with its 95 % interval and a paired t-test;
- how often the rule comes up: the moves per match at which the two readings decide differently,
  counted on the matches of the rules played (five35.checks.impact.measure).

A difference is *real* when its test rejects equality at 5 % after a Bonferroni correction over all
the tests of the family it is made in (by default the comparison's own: every measure at every
player count; a report corrects over every comparison it makes, so that the chance that any of its
real differences is chance alone stays below 5 %). A reading whose winners differ by seat only up
to a relabelling of the seats (the seats' shares sorted agree, and nothing else differs) only moves
the advantage round the table: `relabels_seats`. The winner by style of play is tested only where more
than one style plays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from statistics import fmean
from typing import Any

from ...engine import RoundEnd
from ...engine.bots import turning_seats
from ...engine.simulate import game_seed, play_game
from ...engine.stats import wilson_interval
from ...executor import describes_units, games_text
from ...spec import Ruleset
from ...spec.words_model import CheckWords
from ..findings import EngineFactory
from .measure import (
    Match,
    _engine,  # the per-process engine cache the impact units share
    final_scores,
)

ALPHA = 0.05  # the family-wise error rate of one comparison (Bonferroni over its tests)
MEASURES: tuple[str, ...] = ("winner_seat", "winner_style", "rounds", "spread")


@dataclass(frozen=True)
class Outcomes:
    """The matches of one side at one player count, in game order."""

    players: int
    bots: tuple[str, ...]  # the styles of play, in the order they take turns round the seats
    matches: tuple[Match, ...] = ()

    def merge(self, other: Outcomes) -> Outcomes:
        if (self.players, self.bots) != (other.players, other.bots):
            raise ValueError("outcomes of different tables do not merge")
        return Outcomes(
            self.players, self.bots, tuple(sorted((*self.matches, *other.matches), key=lambda m: m.game))
        )


@describes_units(
    lambda factory, ruleset, players, games, *rest: (
        f"the outcomes of {ruleset.label()}, {games_text(games, players)}"
    )
)
def play_outcomes(
    factory: EngineFactory, ruleset: Ruleset, players: int, games: range, seed: int, bots: Sequence[str]
) -> Outcomes:
    """Matches `games` of base seed `seed` played under `ruleset` by `factory`'s engine, the bots
    taking turns round the seats (`turning_seats`)."""
    game = _engine(factory, ruleset, players)
    out = []
    for index in games:
        rounds = 0
        final: tuple[int, ...] = (0,) * players
        for step in play_game(game, game_seed(seed, index), turning_seats(bots, players, index)):
            if step.events:
                rounds += sum(isinstance(event, RoundEnd) for event in step.events)
                final = final_scores(step.events, final)
        out.append(Match.ended(index, rounds, final))
    return Outcomes(players, tuple(bots), tuple(out))


# ---- comparing two sides ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shares:
    """How the matches' wins fall: one share per category (a seat, or a style of play), the last
    category a tie, each share with its 95 % Wilson interval."""

    labels: tuple[str, ...]
    counts: tuple[int, ...]
    games: int

    def share(self, i: int) -> float:
        return self.counts[i] / self.games if self.games else 0.0

    def interval(self, i: int) -> tuple[float, float]:
        return wilson_interval(self.counts[i], self.games) or (0.0, 1.0)


@dataclass(frozen=True)
class MeanChange:
    """A per-match measure under both readings over the same matches: the means, the mean paired
    difference (compared minus played) with its 95 % interval, and the paired test's p-value."""

    played: float
    compared: float
    low: float
    high: float
    p: float

    @property
    def difference(self) -> float:
        return self.compared - self.played


@dataclass(frozen=True)
class TableChange:
    """What the answer changes at one player count."""

    players: int
    games: int
    seats: tuple[Shares, Shares]  # played, compared: the winner by seat (the last category a tie)
    seat_p: float
    styles: tuple[Shares, Shares]  # the winner by style of play (the bot of the winning seat)
    style_p: float
    style_tested: bool  # False where one style plays every seat
    rounds: MeanChange
    spread: MeanChange
    # The moves per match at which the two readings decide differently, on the first played
    # matches: (mean, ci_low, ci_high, moves per match, matches counted).
    comes_up: tuple[float, float, float, float, int] | None = None
    real: frozenset[str] = frozenset()  # the measures whose difference is real (MEASURES)
    relabels_seats: bool = False
    # winner_seat, winner_style -> the most any category's share of wins may have moved, by the
    # 95 % interval of its paired difference (the same matches under both readings)
    share_bounds: Mapping[str, float] = field(default_factory=dict)

    def size(self, measure: str) -> float:
        """How large the difference in one of MEASURES is, real or not: a winner share moved by d
        counts d (the total variation distance of the two distributions), a mean changed by a
        fraction f counts f."""
        if measure == "winner_seat":
            return _distance(*self.seats)
        if measure == "winner_style":
            return _distance(*self.styles) if self.style_tested else 0.0
        change = self.rounds if measure == "rounds" else self.spread
        return abs(change.difference) / abs(change.played) if change.played else 0.0

    def bound(self, measure: str) -> float:
        """The largest change in one of MEASURES that the 95 % intervals admit, either way: the
        farther end of the interval of the mean paired difference, for a winner of each category's
        share of wins (the largest), for a mean of the measure itself. What "no clear change" rules
        out is a change larger than this."""
        if measure in ("winner_seat", "winner_style"):
            return self.share_bounds.get(measure, 0.0)
        change = self.rounds if measure == "rounds" else self.spread
        return max(abs(change.low), abs(change.high))

    @property
    def clear(self) -> frozenset[str]:
        """The real differences a designer is told of: a winner by seat that only relabels the
        seats is not one."""
        return self.real - {"winner_seat"} if self.relabels_seats else self.real

    @property
    def effect(self) -> float:
        """The size of the largest clear difference (0 where none is)."""
        return max((self.size(m) for m in self.clear), default=0.0)


@dataclass(frozen=True)
class OutcomeChange:
    """What the answer changes at the table, per player count, and how the tests were corrected."""

    per_players: Mapping[int, TableChange]
    tests: int  # the number of tests the Bonferroni correction divides ALPHA by
    threshold: float  # the p-value below which a difference counts as real
    method: str = ""
    unplayed: Mapping[int, str] = field(default_factory=dict)  # players -> why not measured

    @property
    def effect(self) -> float:
        return max((t.effect for t in self.per_players.values()), default=0.0)

    @property
    def real(self) -> bool:
        return any(t.clear for t in self.per_players.values())

    @property
    def relabels_seats(self) -> bool:
        """Whether the only real change, wherever there is one, is who wins by seat, and that change
        is a relabelling of the seats."""
        changed = [t for t in self.per_players.values() if t.real]
        return bool(changed) and all(t.real == {"winner_seat"} and t.relabels_seats for t in changed)


def _share_bound(a: Sequence[int], b: Sequence[int], categories: int) -> float:
    """The farthest end, over the categories, of the 95 % interval of the paired difference in a
    category's share of wins: `a` and `b` give each match's winning category under either side."""
    bound = 0.0
    for c in range(categories):
        change = _paired([int(x == c) for x in a], [int(y == c) for y in b])
        bound = max(bound, abs(change.low), abs(change.high))
    return min(1.0, bound)


def _distance(a: Shares, b: Shares) -> float:
    return 0.5 * sum(abs(a.share(i) - b.share(i)) for i in range(len(a.counts)))


def _seat_won(o: Outcomes) -> list[int]:
    """Each match's winning seat, or the tie category (o.players)."""
    return [m.winners[0] if len(m.winners) == 1 else o.players for m in o.matches]


def _seat_labels(players: int) -> tuple[str, ...]:
    return (*(str(s + 1) for s in range(players)), "tie")


def _styles(o: Outcomes) -> tuple[str, ...]:
    return tuple(dict.fromkeys(o.bots))


def _style_won(o: Outcomes) -> list[int]:
    """Each match's winning style of play, or the tie category (the number of styles)."""
    styles = _styles(o)
    out = []
    for m in o.matches:
        seated = turning_seats(o.bots, o.players, m.game)
        won = {seated[s] for s in m.winners}
        out.append(styles.index(won.pop()) if len(won) == 1 else len(styles))
    return out


def _shares(labels: tuple[str, ...], won: Sequence[int]) -> Shares:
    counts = [0] * len(labels)
    for c in won:
        counts[c] += 1
    return Shares(labels, tuple(counts), len(won))


def _special() -> Any:
    # scipy.special holds the distribution functions the two tests need (what scipy.stats's own
    # chi2 and t call); it imports in a third of the time scipy.stats takes, in the process that
    # compares, while the workers wait.
    from scipy import special  # type: ignore[import-untyped]

    return special


def _chi_square_p(a: Sequence[int], b: Sequence[int]) -> float:
    """The p-value of the chi-square test that two samples' counts over the same categories come
    from one distribution (Pearson's, no continuity correction); 1.0 where they are equal or where
    a sample is empty."""
    cols = [(x, y) for x, y in zip(a, b, strict=True) if x + y > 0]
    if list(a) == list(b) or len(cols) < 2 or not sum(a) or not sum(b):
        return 1.0
    rows = (sum(x for x, _ in cols), sum(y for _, y in cols))
    total = rows[0] + rows[1]
    statistic = 0.0
    for col in cols:
        for observed, row in zip(col, rows, strict=True):
            expected = row * (col[0] + col[1]) / total
            statistic += (observed - expected) ** 2 / expected
    return float(_special().chdtrc(len(cols) - 1, statistic))


def seat_balance_p(wins: Sequence[int]) -> float:
    """The p-value of the chi-square test that every seat wins equally often, from each seat's
    wins (Pearson's goodness of fit to equal shares; a tied match counts for every tied seat, as
    the variant comparison counts it); 1.0 with fewer than two seats or no win at all."""
    total = sum(wins)
    if len(wins) < 2 or not total:
        return 1.0
    expected = total / len(wins)
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    return float(_special().chdtrc(len(wins) - 1, statistic))


def _paired(a: Sequence[int], b: Sequence[int]) -> MeanChange:
    """The paired t-test of `b` against `a` (the same matches) and the 95 % interval of the mean
    difference."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean_a, mean_b = fmean(a), fmean(b)
    d = fmean(diffs)
    n = len(diffs)
    spread = math.sqrt(sum((x - d) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    if spread == 0.0:
        # Every match differs by the same amount (often 0: the same matches): no sampling error.
        return MeanChange(mean_a, mean_b, d, d, 1.0 if d == 0 else 0.0)
    special = _special()
    error = spread / math.sqrt(n)
    half = float(special.stdtrit(n - 1, 0.975)) * error
    p = float(2 * special.stdtr(n - 1, -abs(d / error)))
    return MeanChange(mean_a, mean_b, d - half, d + half, p)


def _relabelled(a: Shares, b: Shares) -> Shares:
    """`b`'s seat counts moved onto `a`'s seats rank for rank (the most winning seat of b onto
    the most winning seat of a, and so on; the tie stays): the closest relabelling of the seats."""
    seats = len(a.counts) - 1
    order_a = sorted(range(seats), key=lambda s: (-a.counts[s], s))
    order_b = sorted(range(seats), key=lambda s: (-b.counts[s], s))
    counts = [0] * len(b.counts)
    for sa, sb in zip(order_a, order_b, strict=True):
        counts[sa] = b.counts[sb]
    counts[-1] = b.counts[-1]
    return Shares(a.labels, tuple(counts), b.games)


def measures_at(bots: Sequence[str]) -> int:
    """The tests a comparison makes at one player count: the winner by style of play only where
    more than one style plays (the styles take turns round every seat, so the player count does
    not matter)."""
    return len(MEASURES) if len(set(bots)) > 1 else len(MEASURES) - 1


def compare(
    played: Mapping[int, Outcomes],
    compared: Mapping[int, Outcomes],
    comes_up: Mapping[int, tuple[float, float, float, float, int]] | None = None,
    method: str = "",
    unplayed: Mapping[int, str] | None = None,
    family: int | None = None,
) -> OutcomeChange:
    """Both sides' matches held against each other at every player count both played (the same
    game numbers: pairs by game). `family` is the number of tests the correction divides by (all
    the tests a report makes, so that its real differences are real together); by default this
    comparison's own."""
    counts = sorted(set(played) & set(compared))
    tests = family or max(1, sum(measures_at(played[n].bots) for n in counts))
    threshold = ALPHA / tests
    per: dict[int, TableChange] = {}
    for n in counts:
        a, b = played[n], compared[n]
        if [m.game for m in a.matches] != [m.game for m in b.matches]:
            raise ValueError(f"{n} players: the two sides played different matches")
        # Each match's winning seat and style, once a side: the shares and the bounds count them.
        seat_won = (_seat_won(a), _seat_won(b))
        style_won = (_style_won(a), _style_won(b))
        seats = (_shares(_seat_labels(n), seat_won[0]), _shares(_seat_labels(n), seat_won[1]))
        style_labels = (*_styles(a), "tie")
        styles = (_shares(style_labels, style_won[0]), _shares(style_labels, style_won[1]))
        style_tested = measures_at(a.bots) == len(MEASURES)
        change = TableChange(
            players=n,
            games=len(a.matches),
            seats=seats,
            seat_p=_chi_square_p(seats[0].counts, seats[1].counts),
            styles=styles,
            style_p=_chi_square_p(styles[0].counts, styles[1].counts) if style_tested else 1.0,
            style_tested=style_tested,
            rounds=_paired([m.rounds for m in a.matches], [m.rounds for m in b.matches]),
            spread=_paired([m.spread for m in a.matches], [m.spread for m in b.matches]),
            comes_up=(comes_up or {}).get(n),
        )
        ps = {
            "winner_seat": change.seat_p,
            "winner_style": change.style_p,
            "rounds": change.rounds.p,
            "spread": change.spread.p,
        }
        real = frozenset(k for k, p in ps.items() if p < threshold)
        relabels = (
            "winner_seat" in real and _chi_square_p(seats[0].counts, _relabelled(*seats).counts) >= threshold
        )
        bounds = {"winner_seat": _share_bound(*seat_won, len(seats[0].counts))}
        if style_tested:
            bounds["winner_style"] = _share_bound(*style_won, len(style_labels))
        per[n] = replace(change, real=real, relabels_seats=relabels, share_bounds=bounds)
    return OutcomeChange(per, tests, threshold, method, dict(unplayed or {}))


def describe(games: int, seed: int, bots: Sequence[str], played: str, compared: str, say: CheckWords) -> str:
    """How the outcomes at the table were compared; `say`: the check words `impact`."""
    return say(
        "outcomes", games=games, seed=seed, bots="/".join(bots), played=played, compared=compared, alpha=ALPHA
    )
