"""The impact of a reading, or of a finding's alternative: the counts that measure.py gives for each
player count the rules can deal, turned into an `Impact` (the share of affected matches with its 95%
Wilson interval, and the method in words). A finding's alternatives are measured as units, each a
pure function of its arguments, so the estimate splits across processes (five35.executor).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...engine import Game
from ...engine.stats import wilson_interval
from ...executor import Executor, LocalExecutor, describes_units, games_text
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import embedded_words, words_of
from ...spec.words_model import CheckWords
from ..findings import Alternative, EngineFactory, Impact
from .measure import DEFAULT_BOTS, ImpactCounts, measure
from .witnesses import WORDS


def player_counts(ruleset: Ruleset) -> tuple[int, ...]:
    return tuple(range(ruleset.players_min, ruleset.players_max + 1))


def comparison(
    spec: Spec, ruleset: Ruleset, point: str, other: str | None = None
) -> tuple[Ruleset, str, str]:
    """The ruleset that differs from `ruleset` only in `point` (read as `other`, or the point's
    first playable reading that is not the chosen one), with the played and compared reading names."""
    if point not in spec.variation_points:
        raise SpecError("impact", f"unknown variation point {point!r}")
    vp = spec.variation_points[point]
    chosen = ruleset.reading(point)
    if other is None:
        others = [r for r in vp.playable if r != chosen]
        if not others:
            raise SpecError("impact", f"{point} has no reading other than {chosen!r}")
        other = others[0]
    if other not in vp.readings:
        raise SpecError("impact", f"{point} has no reading {other!r}")
    return spec.with_readings(ruleset, {point: other}), chosen, other


def describe_method(
    games: int, seed: int, bots: Sequence[str], played: str, compared: str, say: CheckWords
) -> str:
    """How an impact was measured; `say`: the check words `impact`."""
    return say("method", games=games, seed=seed, bots="/".join(bots), played=played, compared=compared)


def to_impact(per_players: Mapping[int, ImpactCounts], games: int, seed: int, method: str) -> Impact:
    table: dict[int, tuple[int, float, float, float]] = {}
    for players, c in sorted(per_players.items()):
        # With no games at all nothing is known about the share: the whole range.
        lo, hi = wilson_interval(c.affected, c.games) or (0.0, 1.0)
        share = round(c.affected / c.games, 4) if c.games else 0.0
        table[players] = (c.affected, share, lo, hi)
    return Impact(games=games, seed=seed, per_players=table, method=method)


def estimate_impact(
    spec: Spec,
    ruleset: Ruleset,
    point: str,
    other: str | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    bots: Sequence[str] = DEFAULT_BOTS,
    engine: EngineFactory = Game,
) -> Impact:
    """The impact of reading `point` as `other` instead of the ruleset's choice, per player count."""
    compared, chosen, alt = comparison(spec, ruleset, point, other)
    per: dict[int, ImpactCounts] = {}
    for players in player_counts(ruleset):
        counts = measure(
            ruleset,
            {point: (compared, (chosen, alt))},
            players,
            range(games),
            base_seed=seed,
            bots=bots,
            engine=engine,
            say=words_of(spec).check(WORDS),
        )
        per[players] = counts[point]
    method = describe_method(games, seed, bots, chosen, alt, words_of(spec).check("impact"))
    return to_impact(per, games, seed, method)


# ---- findings that are not one variation point ----------------------------------------------------
#
# A contradiction, a gap, a dead clause, a mismatch or a defect puts two alternatives of its own (two
# wordings, two point tables, a clause kept or deleted): the `Alternative` its check fills in, two
# engines (variants.py) or two rulesets. Playing both over the same seeded games measures the
# finding's impact with the same machinery as a variation point; when a finding cannot change play
# the measurement comes out 0, it is never written down as 0.


Measured = tuple[str, Alternative]  # a finding id and the alternative its impact compares


def _alt_counts(
    alts: Sequence[Measured], players: int, games: range, seed: int, bots: Sequence[str], say: CheckWords
) -> dict[str, ImpactCounts]:
    """Alternatives sharing their played side are measured on one played game each."""
    groups: dict[tuple[Ruleset, type[Game]], list[Measured]] = {}
    for fid, alt in alts:
        groups.setdefault((alt.played.ruleset, alt.played.engine), []).append((fid, alt))
    out: dict[str, ImpactCounts] = {}
    for (played, factory), members in groups.items():
        out.update(
            measure(
                played,
                {fid: (a.compared.ruleset, a.labels) for fid, a in members},
                players,
                games,
                base_seed=seed,
                bots=bots,
                engine=factory,
                engines={fid: a.compared.engine for fid, a in members},
                say=say,
            )
        )
    return out


def alternative_units(
    alts: Mapping[str, Alternative], played: Ruleset, games: int, chunk: int = 50
) -> list[tuple[tuple[Measured, ...], int, range]]:
    """The work as (alternatives, player count, game range) units: each a pure function of its
    arguments (`alternative_unit`), so the estimate splits across processes."""
    units = []
    for players in player_counts(played):
        here = tuple(
            (fid, a)
            for fid, a in alts.items()
            if (not a.players or players in a.players) and a.played.ruleset.can_deal(players)
        )
        if not here:
            continue
        for lo in range(0, games, chunk):
            units.append((here, players, range(lo, min(games, lo + chunk))))
    return units


@describes_units(
    lambda alts, players, games, *rest: (
        f"comparing {', '.join(f for f, _ in alts)} over {games_text(games, players)}"
    )
)
def alternative_unit(
    alts: tuple[Measured, ...], players: int, games: range, seed: int, bots: tuple[str, ...], say: CheckWords
) -> dict[str, ImpactCounts]:
    return _alt_counts(alts, players, games, seed, bots, say)


#: What an alternative compares: (played ruleset, played engine, compared ruleset, compared engine).
Comparison = tuple[Ruleset, EngineFactory, Ruleset, EngineFactory]
#: Comparisons measured already over the same games, with their labels and counts per player count.
Known = Mapping[Comparison, tuple[tuple[str, str], Mapping[int, ImpactCounts]]]


def comparison_of(alt: Alternative) -> Comparison:
    return (alt.played.ruleset, alt.played.engine, alt.compared.ruleset, alt.compared.engine)


def _applicable(alt: Alternative, played: Ruleset) -> list[int]:
    # The player counts `alternative_units` gives an alternative.
    return [
        n
        for n in player_counts(played)
        if (not alt.players or n in alt.players) and alt.played.ruleset.can_deal(n)
    ]


def estimate_alternatives(
    alts: Mapping[str, Alternative],
    played: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    jobs: int = 1,
    executor: Executor | None = None,
    known: Known | None = None,
    *,
    say: CheckWords,
    witnesses: CheckWords | None = None,
) -> dict[str, tuple[Impact, dict[int, ImpactCounts]]]:
    """The impact of every finding's alternative (by finding id) over games 0..games-1 of base seed
    `seed`, per player count, each method in `say` (the check words `impact`), each witness in
    `witnesses` (the check words `impact.witnesses`; the embedded words file's by default). The
    units run through `executor` (default: `jobs` worker processes of this machine,
    five35.executor); the result is the same for any.

    `known` holds comparisons measured already over the same games, seed and bots (the variation
    points' impacts): an alternative that makes one of them takes its counts, and only the game its
    witness comes from is played again, to tell the witness in the alternative's own labels."""
    known = known or {}
    fresh = {fid: a for fid, a in alts.items() if comparison_of(a) not in known}
    units: list[tuple[tuple[Measured, ...], int, range]] = list(alternative_units(fresh, played, games))
    measured = len(units)
    retold: list[tuple[str, int]] = []  # (finding id, players) of each witness replay after them
    per: dict[str, dict[int, ImpactCounts]] = {fid: {} for fid in alts}
    for fid, alt in alts.items():
        if fid in fresh:
            continue
        labels, measured_counts = known[comparison_of(alt)]
        for players in _applicable(alt, played):
            counted = measured_counts[players]
            per[fid][players] = counted
            if counted.witness is not None and labels != alt.labels:
                units.append((((fid, alt),), players, range(counted.witness_game, counted.witness_game + 1)))
                retold.append((fid, players))
    outcomes = (executor or LocalExecutor(jobs)).map(
        alternative_unit,
        [a for a, _, _ in units],
        [p for _, p, _ in units],
        [r for _, _, r in units],
        [seed] * len(units),
        [tuple(bots)] * len(units),
        [witnesses or embedded_words().check(WORDS)] * len(units),
    )
    with contextlib.closing(outcomes):  # an error or interrupt stops every worker at once
        results = list(outcomes)
    for (_, players, _), result in zip(units[:measured], results[:measured], strict=True):
        for fid, counts in result.items():
            have = per[fid].get(players)
            per[fid][players] = have.merge(counts) if have else counts
    for (fid, players), result in zip(retold, results[measured:], strict=True):
        again = result[fid]
        if again.witness_game != per[fid][players].witness_game:
            raise RuntimeError(f"{fid}: game {per[fid][players].witness_game} played differently again")
        per[fid][players] = replace(per[fid][players], witness=again.witness)
    out = {}
    for fid, alt in alts.items():
        method = describe_method(games, seed, bots, alt.labels[0], alt.labels[1], say)
        if alt.method:
            method = say("compared", what=alt.method, method=method)
        out[fid] = (to_impact(per[fid], games, seed, method), per[fid])
    return out
