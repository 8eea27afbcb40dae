"""One report run: the checks, the impact of every variation point and of every finding with
alternatives of its own, what each answer changes at the table, the finished findings and the
variant comparison, into a `ReportData`. Used by `535-check report`, by `535-check` with no command
and by the library's callers alike.

`report_result` is the one orchestrator, and the work runs one way: checks -> typed Findings ->
impact measurement (which also grades the points no check graded) -> the findings finished
(review.review) and gathered into ranked questions (form_questions) -> variants -> a `ReportData`,
which five35.reports.build only arranges and five35.reports.render only renders.

The long work is split into units (one player count and one range of games of the impact estimate
or of one variant) so that a progress bar can follow it; every unit is a pure function of the
spec, the ruleset, the seed and the number of games.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...engine import Game
from ...engine.engines import reference_lacks
from ...engine.simulate import simulate
from ...engine.stats import Stats, merge_all
from ...executor import Executor, LocalExecutor, describes_units, games_text, unit_name
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import words_of
from ...spec.words_model import CheckWords
from ..findings import (
    DEFAULT_SOLVER_RLIMIT,
    Alternative,
    CheckContext,
    CheckResult,
    EngineFactory,
    Level,
)
from ..impact.estimate import (
    Comparison,
    comparison,
    describe_method,
    estimate_alternatives,
    player_counts,
    to_impact,
)
from ..impact.measure import DEFAULT_BOTS, ImpactCounts, Match, measure, measure_with_stats
from ..impact.outcomes import (
    OutcomeChange,
    Outcomes,
    compare,
    describe,
    measures_at,
    play_outcomes,
)
from ..impact.witnesses import WORDS as WITNESS_WORDS
from ..runner import CHECKS, all_checks, check_title, load_checks, run_checks
from .questions import form_questions, question_subjects
from .review import collect_findings, review, to_measure
from .reviewed import PointImpact, ReportData, Variant

Progress = Callable[[int], None]
OnCheck = Callable[[str, CheckResult], None]  # a check's result, as it comes in


def run_all_checks(
    spec: Spec,
    ruleset: Ruleset,
    level: Level,
    seed: int,
    only: Sequence[str] | None = None,
    solver_rlimit: int = DEFAULT_SOLVER_RLIMIT,
) -> tuple[list[CheckResult], list[str]]:
    """The runner's results (all its checks, or those named in `only`), with any notes on them. The
    text audit is included either way, once: every report quotes the texts' defects and gaps."""
    run = run_checks(spec, ruleset, level=level, seed=seed, only=only, solver_rlimit=solver_rlimit)
    results = list(run.results)
    audit = next(c for c in CHECKS if c.name == "text_audit")
    if not any(r.name == audit.name for r in results):
        ctx = CheckContext(spec=spec, ruleset=ruleset, level=level, seed=seed)
        results.append(replace(audit.run(ctx), name=audit.name, title=check_title(audit, ctx.words)))
    return results, []


def impact_units(
    spec: Spec, ruleset: Ruleset
) -> tuple[dict[str, tuple[Ruleset, tuple[str, str]]], tuple[int, ...]]:
    compared = {}
    for point, vp in spec.variation_points.items():
        if len(vp.readings) < 2:
            continue
        rs, chosen, other = comparison(spec, ruleset, point)
        compared[point] = (rs, (chosen, other))
    return compared, player_counts(ruleset)


def _chunks(games: int, size: int) -> list[range]:
    return [range(lo, min(games, lo + size)) for lo in range(0, games, size)]


@describes_units(lambda ruleset, compared, players, games, *_: f"impacts over {games_text(games, players)}")
def _impact_unit(
    ruleset: Ruleset,
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    players: int,
    games: range,
    seed: int,
    bots: Sequence[str],
    stats: bool,
    say: CheckWords,
) -> dict[str, ImpactCounts] | tuple[dict[str, ImpactCounts], Stats, tuple[Match, ...]]:
    if stats:
        return measure_with_stats(ruleset, compared, players, games, base_seed=seed, bots=bots, say=say)
    return measure(ruleset, compared, players, games, base_seed=seed, bots=bots, say=say)


@describes_units(
    lambda ruleset, players, games, *rest: f"the variant {ruleset.label()}, {games_text(games, players)}"
)
def _variant_unit(ruleset: Ruleset, players: int, games: range, seed: int, bots: Sequence[str]) -> Stats:
    return simulate(ruleset, players, games, list(bots), "match", base_seed=seed, turning=True)


@describes_units(unit_name)
def _call(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    # Module-level, so that an executor can send it with a unit to another process.
    return fn(*args)


Unit = tuple[Callable[..., Any], tuple[Any, ...], int]  # a function, its arguments, the games it plays


def _run_units(
    units: Sequence[Unit],
    executor: Executor,
    progress: Progress | None,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """Run (function, args, games) units through the one executor; the results come back in the
    units' order, so the report does not depend on where or in how many processes they ran.
    `on_result(i, result)` hears of each as it comes. An error or an interrupt stops every worker
    before it is raised."""
    results: list[Any] = []
    outcomes = executor.map(_call, [fn for fn, _, _ in units], [args for _, args, _ in units])
    # Closed on any way out, so that an interrupt between two results stops the workers too.
    with contextlib.closing(outcomes):
        for i, ((_, _, games), result) in enumerate(zip(units, outcomes, strict=True)):
            results.append(result)
            if on_result is not None:
                on_result(i, result)
            if progress is not None and games:
                progress(games)
    return results


CHUNK = 50  # games per unit: small enough for a lively progress bar, large enough to amortise a process hop


def _impact_plan(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str],
    say: CheckWords,
    stats: bool = False,
) -> tuple[list[Unit], Callable[[Sequence[Any]], dict[str, PointImpact]]]:
    """The units of the impact of every variation point, and what makes their results the impacts.
    With `stats`, each unit's result is (counts, the played games' Stats, their results)."""
    compared, _ = impact_units(spec, ruleset)
    playable = dealable_counts(ruleset)  # a table the played rules cannot deal has nothing to compare
    witnesses = words_of(spec).check(WITNESS_WORDS)  # a frozen dataclass: it travels with each unit
    units: list[Unit] = [
        (_impact_unit, (ruleset, compared, players, chunk, seed, tuple(bots), stats, witnesses), len(chunk))
        for players in playable
        for chunk in _chunks(games, CHUNK)
    ]

    def finish(done: Sequence[Any]) -> dict[str, PointImpact]:
        per: dict[str, dict[int, ImpactCounts]] = {p: {} for p in compared}
        for (_, args, _), result in zip(units, done, strict=True):
            players = args[2]
            if stats:
                result = result[0]
            for point, c in result.items():
                per[point][players] = per[point][players].merge(c) if players in per[point] else c
        out = {}
        for point, (_, (played, other)) in compared.items():
            method = describe_method(games, seed, bots, played, other, say)
            out[point] = PointImpact(
                point, played, other, to_impact(per[point], games, seed, method), per[point]
            )
        return out

    return units, finish


def estimate_all(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> dict[str, PointImpact]:
    """The impact of every variation point (its played reading against its first other reading),
    every point measured on the same games (one played game per seed, compared with every point's
    engine at every step)."""
    units, finish = _impact_plan(spec, ruleset, games, seed, bots, words_of(spec).check("impact"))
    return finish(_run_units(units, executor or LocalExecutor(jobs), progress))


def variant_rulesets(spec: Spec, ruleset: Ruleset) -> list[tuple[str, str, Ruleset]]:
    """Every named profile, plus the chosen ruleset when --reading changed it."""
    out = []
    for name in spec.playable_profiles:
        out.append((name, spec.profiles[name].title, spec.ruleset(name)))
    if ruleset.overridden:
        changed = ", ".join(f"{p}={ruleset.reading(p)}" for p in ruleset.overridden)
        out.append((ruleset.label(), f"profile {ruleset.profile} with {changed}", ruleset))
    return out


def _variant_plan(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str],
    progress: Progress | None,
    played: dict[int, list[Stats]] | None = None,
) -> tuple[list[Unit], Callable[[Sequence[Any]], list[Variant]]]:
    """The units of the variant comparison, and what makes their results the variants. A table a
    variant cannot deal is counted as done at once. A variant of the played rules at a player count
    in `played` is not played again: the impact units played its games already, and `played` gives
    their Stats, chunk by chunk, once the caller has them (filled in before `finish`); the counts
    of `played` no variant takes are removed from it here."""
    units: list[Unit] = []
    owners: list[tuple[int, int]] = []  # (variant index, players) of each unit
    unplayable: dict[tuple[int, int], str] = {}
    shared: list[tuple[int, int]] = []  # (variant index, players) taken from the impact units
    rulesets = variant_rulesets(spec, ruleset)
    for vi, (_, _, rs) in enumerate(rulesets):
        for players in player_counts(rs):
            try:
                rs.hand_size(players)
            except SpecError as exc:
                unplayable[(vi, players)] = str(exc)
                if progress is not None:
                    progress(games)
                continue
            if played is not None and rs == ruleset and players in played:
                shared.append((vi, players))
                continue
            for chunk in _chunks(games, CHUNK):
                units.append((_variant_unit, (rs, players, chunk, seed, tuple(bots)), len(chunk)))
                owners.append((vi, players))

    if played is not None:
        for players in set(played) - {p for _, p in shared}:
            del played[players]

    def finish(done: Sequence[Any]) -> list[Variant]:
        parts: dict[tuple[int, int], list[Stats]] = {}
        for owner, stats in zip(owners, done, strict=True):
            parts.setdefault(owner, []).append(stats)
        for vi, players in shared:
            assert played is not None
            parts[(vi, players)] = list(played[players])
        variants = []
        for vi, (label, title, rs) in enumerate(rulesets):
            per = {p: merge_all(parts[(vi, p)]) for p in player_counts(rs) if (vi, p) in parts}
            bad = {p: why for (owner, p), why in unplayable.items() if owner == vi}
            variants.append(Variant(label, title, rs.readings, per, bad))
        return variants

    return units, finish


def simulate_variants(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> list[Variant]:
    units, finish = _variant_plan(spec, ruleset, games, seed, bots, progress)
    return finish(_run_units(units, executor or LocalExecutor(jobs), progress))


def work_units(spec: Spec, ruleset: Ruleset, games: int) -> int:
    """Games the first phase of `report_result` plays, for a progress bar: the impact estimate and
    the rules played's matches for what each answer changes at the table (both at every player
    count the rules deal), and the variant comparison."""
    variants = variant_rulesets(spec, ruleset)
    return 2 * games * len(dealable_counts(ruleset)) + games * sum(
        len(player_counts(rs)) for _, _, rs in variants
    )


def dealable_counts(ruleset: Ruleset) -> list[int]:
    """The player counts the ruleset can deal."""
    return [players for players in player_counts(ruleset) if ruleset.can_deal(players)]


def _known(
    spec: Spec, ruleset: Ruleset, impacts: Mapping[str, PointImpact], games: int, seed: int
) -> dict[Comparison, tuple[tuple[str, str], Mapping[int, ImpactCounts]]]:
    """The points' comparisons as a finding's alternative would state them: the reference engine
    under the rules played against it under the point's other reading."""
    compared, _ = impact_units(spec, ruleset)
    out: dict[Comparison, tuple[tuple[str, str], Mapping[int, ImpactCounts]]] = {}
    for point, pi in impacts.items():
        if point not in compared or pi.impact is None or (pi.impact.games, pi.impact.seed) != (games, seed):
            continue
        rs, labels = compared[point]
        if labels == (pi.played, pi.compared):
            out[(ruleset, Game, rs, Game)] = (labels, pi.per_players)
    return out


def _playable(alt: Alternative) -> bool:
    """Whether both sides can be played: a side made of the reference engine's hooks (a clause
    deleted, an example repaired: a Game subclass) cannot play rules the reference does not, and
    its finding then has no impact measured rather than one played under other rules."""
    for side in (alt.played, alt.compared):
        if side.engine is not Game and issubclass(side.engine, Game) and reference_lacks(side.ruleset):
            return False
    return True


def finding_alternatives(
    spec: Spec, ruleset: Ruleset, results: Sequence[CheckResult], impacts: Mapping[str, PointImpact]
) -> dict[str, Alternative]:
    """The alternatives of the findings that neither carry an impact nor hang on a variation point,
    by finding id: those whose both sides can be played."""
    return {
        fid: alt
        for fid, alt in to_measure(collect_findings(spec, ruleset, results, impacts), impacts).items()
        if _playable(alt)
    }


def estimate_finding_impacts(
    spec: Spec,
    ruleset: Ruleset,
    results: Sequence[CheckResult],
    impacts: dict[str, PointImpact],
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    jobs: int = 1,
    executor: Executor | None = None,
    alts: Mapping[str, Alternative] | None = None,
    say: CheckWords | None = None,
) -> dict[str, PointImpact]:
    """Impact of the findings that neither carry one nor hang on a variation point: each finding's
    own `Alternative` (`alts`, by default `finding_alternatives`), over the same seeded games as the
    points' impacts (`impacts`, measured with the same `bots`). An alternative that compares what a
    point's impact compared already, or what another finding's does, is not played again: it shares
    those games' counts. `say` is the impact check's words, when the caller has them already."""
    if alts is None:
        alts = finding_alternatives(spec, ruleset, results, impacts)
    known = _known(spec, ruleset, impacts, games, seed)
    measured = estimate_alternatives(
        alts,
        ruleset,
        games,
        seed,
        bots,
        jobs,
        executor=executor,
        known=known,
        say=say or words_of(spec).check("impact"),
        witnesses=words_of(spec).check(WITNESS_WORDS),
    )
    return {
        fid: PointImpact(fid, alts[fid].labels[0], alts[fid].labels[1], impact, per)
        for fid, (impact, per) in measured.items()
    }


Side = tuple[EngineFactory, Ruleset]  # an engine class and the rules it plays


# Matches per unit of the outcome play: a match takes a few milliseconds, so fewer, longer units
# spend less on sending rulesets and results between processes.
OUTCOME_CHUNK = 200


def _outcome_units(
    sides: Sequence[tuple[Side, int]], games: int, seed: int, bots: Sequence[str]
) -> list[Unit]:
    return [
        (play_outcomes, (factory, rs, players, chunk, seed, tuple(bots)), len(chunk))
        for (factory, rs), players in sides
        for chunk in _chunks(games, OUTCOME_CHUNK)
    ]


def _gather_outcomes(units: Sequence[Unit], done: Sequence[Any]) -> dict[tuple[Side, int], Outcomes]:
    out: dict[tuple[Side, int], Outcomes] = {}
    for (_, args, _), result in zip(units, done, strict=True):
        key = ((args[0], args[1]), args[2])
        out[key] = out[key].merge(result) if key in out else result
    return out


def _subject_sides(
    ruleset: Ruleset,
    impacts: Mapping[str, PointImpact],
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    alts: Mapping[str, Alternative],
) -> dict[str, tuple[Side, Side]]:
    """The two sides each measured subject compares: a point's played rules against its other
    reading; a finding's alternative its own two sides."""
    out: dict[str, tuple[Side, Side]] = {}
    for subject in impacts:
        if subject in compared:
            out[subject] = ((Game, ruleset), (Game, compared[subject][0]))
        elif subject in alts:
            a = alts[subject]
            out[subject] = ((a.played.engine, a.played.ruleset), (a.compared.engine, a.compared.ruleset))
    return out


def _playable_at(side: Side, players: int) -> str | None:
    """Why the side cannot deal `players`, or None."""
    try:
        side[1].hand_size(players)
    except SpecError as exc:
        return str(exc)
    return None


def _changed_at(pi: PointImpact) -> list[int]:
    """The player counts at which the impact measurement saw the answer change some game."""
    return sorted(n for n, c in pi.per_players.items() if c.affected)


def measure_outcomes(
    ruleset: Ruleset,
    impacts: Mapping[str, PointImpact],
    sides: Mapping[str, tuple[Side, Side]],
    played: Mapping[tuple[Side, int], Outcomes],
    games: int,
    seed: int,
    bots: Sequence[str],
    executor: Executor,
    say: CheckWords,
) -> dict[str, OutcomeChange]:
    """What each subject's answer changes at the table: both its sides played to the end over the
    same matches (`played` holds the sides played already, by side and player count), at every
    player count where the impact measurement saw the answer change some game and both can deal.
    Where it changed no step of any match it changes nothing, and nothing is played again."""
    wanted: list[tuple[Side, int]] = []
    have: dict[tuple[Side, int], Outcomes] = dict(played)
    for subject, pair in sides.items():
        for n in _changed_at(impacts[subject]):
            for side in pair:
                if (side, n) not in have and (side, n) not in wanted and _playable_at(side, n) is None:
                    wanted.append((side, n))
    units = _outcome_units(wanted, games, seed, bots)
    done = _run_units(units, executor, None)
    have.update(_gather_outcomes(units, done))
    out: dict[str, OutcomeChange] = {}
    measured = [s for s in sides if _changed_at(impacts[s])]
    family = sum(
        measures_at(bots)
        for s in measured
        for n in _changed_at(impacts[s])
        if all((side, n) in have for side in sides[s])
    )
    for subject in measured:
        a, b = sides[subject]
        pi = impacts[subject]
        changed = _changed_at(pi)
        out[subject] = compare(
            {n: have[(a, n)] for n in changed if (a, n) in have},
            {n: have[(b, n)] for n in changed if (b, n) in have},
            comes_up={n: c for n, pc in pi.per_players.items() if (c := pc.comes_up_per_match()) is not None},
            method=describe(games, seed, bots, pi.played, pi.compared, say),
            unplayed={n: why for n in changed for side in (a, b) if (why := _playable_at(side, n))},
            family=family,
        )
    return out


@describes_units(lambda spec, ruleset, level, seed, name, *_: f"the check {name}")
def _check_unit(
    spec: Spec, ruleset: Ruleset, level: Level, seed: int, name: str, solver_rlimit: int
) -> CheckResult:
    """One check of the runner, by its name: a unit of its own, so that the checks spread over the
    executor's workers beside the simulations."""
    run = run_checks(spec, ruleset, level=level, seed=seed, only=[name], solver_rlimit=solver_rlimit)
    return next(r for r in run.results if r.name == name)


def _given(result: CheckResult) -> CheckResult:
    return result


def check_units(
    spec: Spec, ruleset: Ruleset, level: Level, seed: int, solver_rlimit: int = DEFAULT_SOLVER_RLIMIT
) -> list[Unit]:
    """The report's checks as executor units, one per registered check the report renders
    at this level (`Check.report_levels`), in the runner's order (each unit's result is that
    check's CheckResult).
    Tests replace this to give results of their own."""
    return [
        (_check_unit, (spec, ruleset, level, seed, c.name, solver_rlimit), 0)
        for c in all_checks()
        if level in c.report_levels
    ]


def given_checks(results: Sequence[CheckResult]) -> list[Unit]:
    """Units that only hand back results made already (what a test puts in place of the checks)."""
    return [(_given, (r,), 0) for r in results]


def report_result(
    spec: Spec,
    ruleset: Ruleset,
    *,
    games: int,
    seed: int,
    level: Level = "ci",
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
    results: Sequence[CheckResult] | None = None,
    notes: Sequence[str] = (),
    variants: bool = True,
    executor: Executor | None = None,
    on_check: OnCheck | None = None,
    solver_rlimit: int = DEFAULT_SOLVER_RLIMIT,
    outcomes: bool = True,
) -> ReportData:
    """The whole pipeline: the checks (unless their `results` are given, with any `notes` on them;
    each Z3 query under the resource limit `solver_rlimit`), the impacts, what each answer changes
    at the table (unless `outcomes` is False), the finished findings, the variant comparison (unless
    `variants` is False).

    The checks, the points' impacts and the variant comparison do not depend on each other, so they
    are units of one run of the executor (`executor`, default `jobs` processes here), the checks
    first (`check_units`; `on_check(name, result)` hears of each as it comes). The findings' own
    alternatives need the checks' findings and the points' impacts, so they run after. Every unit
    is a pure function of its arguments and results are used in the units' order: the report is the
    same for any executor."""
    run_on = executor or LocalExecutor(jobs)
    say = words_of(spec).check("impact")
    # The impact units play the played rules' games; the variant comparison of those rules counts
    # the same games (same seeds, bots and seats), so it takes their Stats rather than replaying them.
    impact_work, impacts_of = _impact_plan(spec, ruleset, games, seed, bots, say, stats=variants)
    played: dict[int, list[Stats]] = {players: [] for players in dealable_counts(ruleset)}
    variant_work, variants_of = (
        _variant_plan(spec, ruleset, games, seed, bots, progress, played) if variants else ([], None)
    )
    # An impact unit whose games stand for the variant's too counts them twice on the progress bar.
    impact_work = [(fn, args, n * 2 if args[2] in played else n) for fn, args, n in impact_work]
    # The checks go first: the longest units, and the ones the findings' alternatives wait for.
    checks = check_units(spec, ruleset, level, seed, solver_rlimit=solver_rlimit) if results is None else []
    load_checks()  # in this process, before the workers are forked: they inherit the modules

    # The rules played's matches to their end, for what each answer changes at the table (the
    # other readings are played where the impact measurement saw them change some game). The impact
    # units play those very matches when they keep the variant's Stats, and give their results.
    played_sides = (
        [((Game, ruleset), n) for n in dealable_counts(ruleset)] if outcomes and not variants else []
    )
    outcome_work = _outcome_units(played_sides, games, seed, bots)

    def heard(i: int, result: Any) -> None:
        if i < len(checks) and on_check is not None:
            on_check(result.name, result)

    done = _run_units([*checks, *impact_work, *variant_work, *outcome_work], run_on, progress, heard)
    played_outcomes = _gather_outcomes(outcome_work, done[len(done) - len(outcome_work) :])
    if outcomes and variants:
        for (_, args, _), result in zip(
            impact_work, done[len(checks) : len(checks) + len(impact_work)], strict=True
        ):
            key, part = ((Game, ruleset), args[2]), Outcomes(args[2], tuple(bots), result[2])
            played_outcomes[key] = played_outcomes[key].merge(part) if key in played_outcomes else part
    done = done[: len(done) - len(outcome_work)]
    checked = list(results) if results is not None else list(done[: len(checks)])
    if results is None:
        audit = next(c for c in CHECKS if c.name == "text_audit")
        if not any(r.name == audit.name for r in checked):
            ctx = CheckContext(spec=spec, ruleset=ruleset, level=level, seed=seed)
            checked.append(replace(audit.run(ctx), name=audit.name, title=check_title(audit, ctx.words)))
    done = done[len(checks) :]
    impacts = impacts_of(done[: len(impact_work)])
    if variants:
        for (_, args, _), (_, stats, _) in zip(impact_work, done[: len(impact_work)], strict=True):
            if args[2] in played:
                played[args[2]].append(stats)
    compared = variants_of(done[len(impact_work) :]) if variants_of is not None else []
    for players in player_counts(ruleset):
        try:
            ruleset.hand_size(players)
        except SpecError as exc:
            notes = (*notes, say("undealable", players=players, error=exc))
    alts = finding_alternatives(spec, ruleset, checked, impacts)
    finding_impacts = estimate_finding_impacts(
        spec, ruleset, checked, impacts, games, seed, bots, jobs, executor=run_on, alts=alts, say=say
    )
    findings = review(spec, ruleset, checked, impacts, finding_impacts)
    questions, standalone = form_questions(spec, ruleset, findings, impacts)
    if outcomes:
        # Only what a question can show is played again: a finding under a question of points
        # shows the points' impact, not its own.
        shown = question_subjects(questions, findings, impacts)
        measured = {s: pi for s, pi in {**impacts, **finding_impacts}.items() if s in shown}
        sides = _subject_sides(
            ruleset,
            measured,
            impact_units(spec, ruleset)[0],
            alts,
        )
        at_table = measure_outcomes(ruleset, measured, sides, played_outcomes, games, seed, bots, run_on, say)
        questions, standalone = form_questions(spec, ruleset, findings, impacts, at_table)
    return ReportData(
        spec=spec,
        ruleset=ruleset,
        results=tuple(checked),
        findings=findings,
        variants=tuple(compared),
        games=games,
        seed=seed,
        level=level,
        bots=tuple(bots),
        notes=tuple(notes),
        questions=questions,
        standalone=standalone,
    )
