"""One report run: the checks, the impact of every variation point and of every finding with
alternatives of its own, the finished findings, the variant comparison, then the three files. Used
by `535-check report` and by `535-check` with no command.

`report_result` is the one orchestrator, and the work runs one way: checks -> typed Findings ->
impact measurement (which also grades the points no check graded) -> the findings finished
(five35.checks.pipeline.review) and gathered into ranked questions (form_questions) -> variants ->
a `ReportData`, which five35.reports.build only
arranges and five35.reports.render only renders.

The long work is split into units (one player count and one range of games of the impact estimate
or of one variant) so that a progress bar can follow it; every unit is a pure function of the
spec, the ruleset, the seed and the number of games.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from five35.checks.findings import CheckContext, CheckResult, Level
from five35.checks.impact.measure import (
    DEFAULT_BOTS,
    ImpactCounts,
    comparison,
    describe_method,
    measure,
    player_counts,
    to_impact,
)
from five35.checks.pipeline import (
    PointImpact,
    ReportData,
    Variant,
    collect_findings,
    form_questions,
    measure_findings,
    review,
    to_measure,
)
from five35.checks.runner import CHECKS, run_checks
from five35.engine.executor import LocalExecutor
from five35.engine.simulate import Stats, merge_all, simulate
from five35.spec import Ruleset, Spec, SpecError

from .build import report_data
from .render import write_report

Progress = Callable[[int], None]


@dataclass(frozen=True)
class ReportRun:
    data: dict[str, Any]
    paths: list[Path]
    failures: int


def run_all_checks(
    spec: Spec, ruleset: Ruleset, level: Level, seed: int, only: Sequence[str] | None = None
) -> tuple[list[CheckResult], list[str]]:
    """The runner's results (all its checks, or those named in `only`), with any notes on them. The
    text audit is included either way, once: every report quotes the texts' defects and gaps."""
    run = run_checks(spec, ruleset, level=level, seed=seed, only=only)
    results = list(run.results)
    audit = next(c for c in CHECKS if c.name == "text_audit")
    if not any(r.name == audit.name for r in results):
        ctx = CheckContext(spec=spec, ruleset=ruleset, level=level, seed=seed)
        results.append(replace(audit.run(ctx), name=audit.name, title=audit.title))
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


def _impact_unit(
    ruleset: Ruleset,
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    players: int,
    games: range,
    seed: int,
    bots: Sequence[str],
) -> dict[str, ImpactCounts]:
    return measure(ruleset, compared, players, games, base_seed=seed, bots=bots)


def _variant_unit(ruleset: Ruleset, players: int, games: range, seed: int, bots: Sequence[str]) -> Stats:
    seated = [bots[s % len(bots)] for s in range(players)]
    return simulate(ruleset, players, games, seated, "match", base_seed=seed)


def _call(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    # Module-level, so that an executor can send it with a unit to another process.
    return fn(*args)


def _run_units(
    units: Sequence[tuple[Callable[..., Any], tuple[Any, ...], int]], jobs: int, progress: Progress | None
) -> list[Any]:
    """Run (function, args, games) units through the one executor (worker processes when
    jobs > 1); the results come back in the units' order, so the report does not depend on
    `jobs`. An error or an interrupt stops every worker before it is raised."""
    results: list[Any] = []
    outcomes = LocalExecutor(jobs).map(_call, [fn for fn, _, _ in units], [args for _, args, _ in units])
    # Closed on any way out, so that an interrupt between two results stops the workers too.
    with contextlib.closing(outcomes):
        for (_, _, games), result in zip(units, outcomes, strict=True):
            results.append(result)
            if progress is not None:
                progress(games)
    return results


CHUNK = 50  # games per unit: small enough for a lively progress bar, large enough to amortise a process hop


def estimate_all(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
) -> dict[str, PointImpact]:
    """The impact of every variation point (its played reading against its first other reading),
    every point measured on the same games."""
    compared, _ = impact_units(spec, ruleset)
    playable = dealable_counts(ruleset)  # a table the played rules cannot deal has nothing to compare
    units = [
        (_impact_unit, (ruleset, compared, players, chunk, seed, tuple(bots)), len(chunk))
        for players in playable
        for chunk in _chunks(games, CHUNK)
    ]
    done = _run_units(units, jobs, progress)
    per: dict[str, dict[int, ImpactCounts]] = {p: {} for p in compared}
    for (_, args, _), result in zip(units, done, strict=True):
        players = args[2]
        for point, c in result.items():
            per[point][players] = per[point][players].merge(c) if players in per[point] else c
    out = {}
    for point, (_, (played, other)) in compared.items():
        method = describe_method(games, seed, bots, played, other)
        out[point] = PointImpact(point, played, other, to_impact(per[point], games, seed, method), per[point])
    return out


def variant_rulesets(spec: Spec, ruleset: Ruleset) -> list[tuple[str, str, Ruleset]]:
    """Every named profile, plus the chosen ruleset when --reading changed it."""
    out = []
    for name in spec.playable_profiles:
        out.append((name, spec.profiles[name].title, spec.ruleset(name)))
    if ruleset.overridden:
        changed = ", ".join(f"{p}={ruleset.reading(p)}" for p in ruleset.overridden)
        out.append((ruleset.label(), f"profile {ruleset.profile} with {changed}", ruleset))
    return out


def simulate_variants(
    spec: Spec,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
) -> list[Variant]:
    units = []
    owners: list[tuple[int, int]] = []  # (variant index, players) of each unit
    unplayable: dict[tuple[int, int], str] = {}
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
            for chunk in _chunks(games, CHUNK):
                units.append((_variant_unit, (rs, players, chunk, seed, tuple(bots)), len(chunk)))
                owners.append((vi, players))
    done = _run_units(units, jobs, progress)
    parts: dict[tuple[int, int], list[Stats]] = {}
    for owner, stats in zip(owners, done, strict=True):
        parts.setdefault(owner, []).append(stats)
    variants = []
    for vi, (label, title, rs) in enumerate(rulesets):
        per = {p: merge_all(parts[(vi, p)]) for p in player_counts(rs) if (vi, p) in parts}
        bad = {p: why for (owner, p), why in unplayable.items() if owner == vi}
        variants.append(Variant(label, title, rs.readings, per, bad))
    return variants


def work_units(spec: Spec, ruleset: Ruleset, games: int) -> int:
    """Games the impact estimate and the variant comparison will play, for a progress bar."""
    variants = variant_rulesets(spec, ruleset)
    return games * len(dealable_counts(ruleset)) + games * sum(
        len(player_counts(rs)) for _, _, rs in variants
    )


def dealable_counts(ruleset: Ruleset) -> list[int]:
    """The player counts the ruleset can deal."""
    out = []
    for players in player_counts(ruleset):
        try:
            ruleset.hand_size(players)
        except SpecError:
            continue
        out.append(players)
    return out


def estimate_finding_impacts(
    spec: Spec,
    ruleset: Ruleset,
    results: Sequence[CheckResult],
    impacts: dict[str, PointImpact],
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    jobs: int = 1,
) -> dict[str, PointImpact]:
    """Impact of the findings that neither carry one nor hang on a variation point: each finding's
    own `Alternative`, over the same seeded games as the points' impacts."""
    alternatives = to_measure(collect_findings(spec, ruleset, results, impacts), impacts)
    return measure_findings(alternatives, ruleset, games, seed, tuple(bots), jobs)


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
) -> ReportData:
    """The whole pipeline: the checks (unless their `results` are given, with any `notes` on them),
    the impacts, the finished findings, the variant comparison (unless `variants` is False)."""
    if results is None:
        checked, check_notes = run_all_checks(spec, ruleset, level, seed)
        notes = (*notes, *check_notes)
    else:
        checked = list(results)
    for players in player_counts(ruleset):
        try:
            ruleset.hand_size(players)
        except SpecError as exc:
            notes = (
                *notes,
                f"The rules played cannot be dealt to {players} players ({exc}): no impact at that count.",
            )
    impacts = estimate_all(spec, ruleset, games, seed, bots, progress, jobs)
    finding_impacts = estimate_finding_impacts(spec, ruleset, checked, impacts, games, seed, bots, jobs)
    findings = review(spec, ruleset, checked, impacts, finding_impacts)
    questions, standalone = form_questions(spec, ruleset, findings, impacts)
    compared = simulate_variants(spec, ruleset, games, seed, bots, progress, jobs) if variants else []
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


def make_report(
    spec: Spec,
    ruleset: Ruleset,
    out_dir: Path,
    *,
    games: int,
    seed: int,
    level: Level = "ci",
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Progress | None = None,
    jobs: int = 1,
    results: Sequence[CheckResult] | None = None,
    notes: Sequence[str] = (),
    extra_files: Mapping[str, str] | None = None,
) -> ReportRun:
    """Run everything (`report_result`) and write report.md, report.html and report.json into
    `out_dir`, with `extra_files` (name -> text, e.g. the clarified rulebooks) beside them."""
    finished = report_result(
        spec,
        ruleset,
        games=games,
        seed=seed,
        level=level,
        bots=bots,
        progress=progress,
        jobs=jobs,
        results=results,
        notes=notes,
    )
    data = report_data(finished)
    paths = write_report(out_dir, data, extra=extra_files)
    return ReportRun(data, paths, len(data["failures"]))
