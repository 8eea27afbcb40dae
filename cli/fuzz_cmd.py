"""`535-check fuzz`: differential fuzzing of an engine against the reference (docs/protocol.md),
one run or a campaign of seeds (--campaign N).

Exit codes: 0 the engines agree, 1 a divergence, 2 bad input, 3 an engine fault (crash, timeout,
malformed or oversized output, protocol violation). Timings go to stderr so that stdout is
byte-identical for the same seed.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..engine.engines import engine_note
from ..protocol.client import EngineFault, engine_session
from ..protocol.compare import MAX_MOVES, RoundResult, agree_on_rules
from ..protocol.messages import deal_json
from ..protocol.replay import replay_json
from ..spec import Ruleset, Spec, SpecError, dumps
from ..spec.words import words_of

if TYPE_CHECKING:
    # The fuzzer brings Hypothesis: imported where `fuzz` runs, not when the command is listed.
    from ..checks.fuzz.differential import CampaignRun, FuzzResult

from .common import (
    EXIT_ENGINE_FAULT,
    EXIT_FAILED,
    EXIT_OK,
    SEED,
    cli_executor,
    executor_options,
    info,
    jobs_option,
    parse_readings,
    resolve,
    rules_options,
)
from .engine_common import SECONDS, engine_options, fault_exit, finite, show_notes, summary_format_option
from .outputs import Outputs
from .progress import Ticker


def _player_counts(value: str, ruleset: Ruleset) -> tuple[int, ...]:
    """`4`, `2-6`, `2,4`: bounds are checked against the ruleset before any range is expanded."""
    counts: set[int] = set()
    low_limit, high_limit = ruleset.players_min, ruleset.players_max
    for part in value.split(","):
        low_text, sep, high_text = part.strip().partition("-")
        if not low_text.strip().isdigit() or (sep and not high_text.strip().isdigit()):
            raise SpecError("--players", f"expected counts like 4, 2-6 or 2,4, got {value!r}")
        low = int(low_text)
        high = int(high_text) if sep else low
        if low > high:
            raise SpecError("--players", f"the range {part.strip()} is empty")
        for bound in (low, high):
            if not low_limit <= bound <= high_limit:
                raise SpecError("--players", f"{bound} players is outside {low_limit} to {high_limit}")
        counts.update(range(low, high + 1))
    return tuple(sorted(counts))


def _witness_text(witness: RoundResult) -> list[str]:
    assert witness.divergence is not None
    d = witness.divergence
    lines = [
        f"deal: {witness.deal.players} players, leader {witness.deal.leader}, "
        f"scores {deal_json(witness.deal)['scores']}",
    ]
    lines += [f"  hand {seat}: {list(hand)}" for seat, hand in enumerate(witness.deal.hands)]
    lines.append(f"moves ({len(witness.moves)}): " + ("; ".join(str(m) for m in witness.moves) or "none"))
    lines.append(f"diverges at step {d.step} ({d.request}): {d.summary}")
    return lines


@click.command("fuzz")
@rules_options
@click.option("--engine", "target", required=True, help="Engine command line, or python:MODULE:FACTORY.")
@click.option(
    "--examples", type=click.IntRange(min=1), default=100, show_default=True, help="Rounds to generate."
)
@click.option("--time-budget", type=SECONDS, callback=finite, default=None, help="Stop after S seconds.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Hypothesis seed (printed).")
@click.option(
    "--shrink-budget",
    type=SECONDS,
    callback=finite,
    default=40.0,
    show_default=True,
    help="Seconds to spend shrinking a divergence; the smallest witness by then is kept.",
)
@click.option(
    "--players",
    "players",
    default=None,
    help="Player counts to deal, e.g. 4 or 2-6 [default: every count the engine's parameters allow].",
)
@click.option(
    "--replay-out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the replay of a divergence [default: 535-replay-seed<SEED>.json].",
)
@click.option(
    "--timings",
    is_flag=True,
    help="Also put the timings (seconds, requests/s, rounds/s) in the output, which then differs "
    "from run to run; they are always on stderr.",
)
@click.option(
    "--campaign",
    type=click.IntRange(min=1, max=1_000_000),
    default=None,
    metavar="N",
    help="Fuzz with N seeds derived from --seed, each run (an engine of its own) a unit of "
    "--executor; every divergence gets its replay (the seed in its name), the first in seed "
    "order decides the summary and the exit code.",
)
@jobs_option(1, "J", "Worker processes for the runs of --campaign (with --executor local).")
@executor_options
@engine_options
@summary_format_option
def fuzz_cmd(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    target: str,
    examples: int,
    time_budget: float | None,
    seed: int,
    shrink_budget: float,
    players: str | None,
    replay_out: Path | None,
    timings: bool,
    campaign: int | None,
    jobs: int,
    executor_kind: str,
    scheduler: str | None,
    timeout: float,
    max_line: int,
    fmt: str,
) -> None:
    """Differential fuzzing: play Hypothesis-generated rounds on the engine and the reference.

    Each of --examples Hypothesis examples is one round, dealt and played on both engines; the
    first divergence is shrunk to a short replay. The summary counts the rounds generated (how
    many were played to their end, and why the others stopped), the moves and the protocol
    requests; the speed (requests/s, rounds/s) goes to stderr, and with --timings to the output.

    With --campaign N the run is repeated for N seeds (seed i derived from --seed and i), on this
    machine or on a Dask cluster (--executor dask --scheduler ADDRESS: the engine command must
    work on the workers too)."""
    choice = resolve(spec_path, profile, readings)
    if players is not None:
        _player_counts(players, choice.ruleset)  # a bad --players fails before the engine starts
    replay_path = replay_out or Path(f"535-replay-seed{seed}.json")
    if not replay_path.resolve().parent.is_dir():
        raise SpecError("--replay-out", f"no directory {replay_path.parent} to write the replay to")
    asked = _Fuzzing(
        target, examples, time_budget, seed, shrink_budget, players, replay_out, timeout, max_line, fmt
    )
    ctx = click.get_current_context()
    if campaign is None:
        for option, param in (
            ("--executor", "executor_kind"),
            ("--scheduler", "scheduler"),
            ("--jobs", "jobs"),
        ):
            if ctx.get_parameter_source(param) is click.core.ParameterSource.COMMANDLINE:
                raise SpecError(option, "only used with --campaign N")
    else:
        _campaign_cmd(
            choice.spec, choice.ruleset, readings, asked, campaign, (executor_kind, jobs, scheduler)
        )
    with Outputs() as outputs:
        # Reserved now (the name too), so that a replay that cannot be written fails before the
        # fuzzing; it appears only when there is a divergence to write.
        replay_file = outputs.file(replay_path, "--replay-out")
        head: dict[str, Any] = {"engine": target, "seed": seed}
        try:
            with engine_session(target, timeout, max_line) as engine:
                ruleset, name, notes = agree_on_rules(
                    choice.spec, choice.ruleset, engine, parse_readings(readings)
                )
                head.update({"engine_name": name, "reference": ruleset.to_json()})
                counts = asked.counts(ruleset)  # within the engine's table too
                from ..checks.fuzz.differential import fuzz

                # A plain line every few seconds in a CI log, where nothing else shows until the end.
                with Ticker("fuzz", "requests", count=lambda: engine.requests):
                    result = fuzz(
                        ruleset,
                        engine,
                        examples=examples,
                        seed=seed,
                        time_budget=time_budget,
                        shrink_budget=shrink_budget,
                        player_counts=counts,
                    )
        except EngineFault as fault:
            fault_exit(fault, fmt, head)
        if result.fault is not None:
            fault_exit(result.fault, fmt, {**head, **result.to_json()})
        show_notes(notes)
        click.echo(f"535-check fuzz: seed {seed}, {_speed(result)}", err=True)
        witness = result.witness
        path = None
        if witness is not None:
            path = replay_path
            replay_file.write_text(dumps(replay_json(ruleset, target, seed, witness)) + "\n")
            outputs.commit()
        if fmt == "json":
            out = {**head, **result.to_json(), "result": "divergence" if witness else "agree"}
            if timings:
                out["timing"] = result.timing_json()
            if witness is not None:
                out["replay"] = str(path)
                out["witness"] = replay_json(ruleset, target, seed, witness)
            click.echo(dumps(out))
        else:
            click.echo(f"engine: {name} ({target})")
            click.echo(f"reference: {ruleset.label()}, {engine_note(ruleset, words_of(choice.spec).engines)}")
            click.echo(f"seed: {seed}")
            click.echo(_rounds_text(result))
            if timings:
                click.echo(f"speed: {_speed(result)}")
            if witness is None:
                click.echo("exercised: " + ", ".join(f"{name} {n}" for name, n in result.coverage))
            else:
                click.echo(
                    f"DIVERGENCE in round {result.first_found_at} "
                    f"(shrunk by replaying {result.shrink_runs} smaller rounds):"
                )
                for line in _witness_text(witness):
                    click.echo(line)
                click.echo(
                    f"replay written to {path}; run: 535-check replay {path} --engine {_quote(target)}"
                )
        sys.exit(EXIT_FAILED if witness is not None else EXIT_OK)


@dataclass(frozen=True)
class _Fuzzing:
    """What `fuzz` was asked, one run or each run of a campaign alike."""

    target: str
    examples: int
    time_budget: float | None
    seed: int
    shrink_budget: float
    players: str | None
    replay_out: Path | None
    timeout: float
    max_line: int
    fmt: str

    def counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        """The player counts to deal: --players, else every count the agreed rules allow."""
        if self.players is None:
            return tuple(range(ruleset.players_min, ruleset.players_max + 1))
        return _player_counts(self.players, ruleset)


def _campaign_replay(replay_out: Path | None, seed: int) -> Path:
    """Where the replay of a campaign's run with `seed` goes: the name plain `fuzz --seed SEED`
    would give it, or --replay-out's name with the seed added."""
    if replay_out is None:
        return Path(f"535-replay-seed{seed}.json")
    return replay_out.with_name(f"{replay_out.stem}-seed{seed}{replay_out.suffix}")


def _run_json(run: CampaignRun, replay: Path | None) -> dict[str, Any]:
    fault = run.faulted
    out: dict[str, Any] = {"index": run.index, "seed": run.seed}
    if run.result is not None:
        out.update(run.result.to_json())
    else:
        out["fault"] = fault.to_json() if fault else None
    out["result"] = "engine_fault" if fault else "divergence" if run.diverged else "agree"
    out["replay"] = str(replay) if replay is not None else None
    return out


def _run_line(run: CampaignRun, replay: Path | None) -> str:
    fault = run.faulted
    if fault is not None:
        return f"  run {run.index}, seed {run.seed}: {fault}"
    assert run.result is not None
    rounds = _count(run.result.examples, "round")
    if run.result.witness is None:
        return f"  run {run.index}, seed {run.seed}: agree ({rounds})"
    d = run.result.witness.divergence
    summary = d.summary if d is not None else ""
    return (
        f"  run {run.index}, seed {run.seed}: DIVERGENCE in round {run.result.first_found_at} "
        f"({summary}); replay {replay}"
    )


def _campaign_cmd(
    spec: Spec,
    chosen: Ruleset,
    readings: tuple[str, ...],
    asked: _Fuzzing,
    runs: int,
    executor: tuple[str, int, str | None],
) -> NoReturn:
    """`fuzz --campaign N`: the rules are agreed with the engine once, here; then every seed is a
    unit that starts its own engine where it runs."""
    target, seed, replay_out, fmt = asked.target, asked.seed, asked.replay_out, asked.fmt
    head: dict[str, Any] = {"engine": target, "seed": seed}
    # Made first: a scheduler that does not answer fails before any engine starts. Closed with the
    # command, however it ends.
    units = cli_executor(*executor)
    click.get_current_context().with_resource(units)
    try:
        with engine_session(target, asked.timeout, asked.max_line) as engine:
            ruleset, name, notes = agree_on_rules(spec, chosen, engine, parse_readings(readings))
    except EngineFault as fault:
        fault_exit(fault, fmt, head)
    head.update({"engine_name": name, "reference": ruleset.to_json()})
    counts = asked.counts(ruleset)
    from ..checks.fuzz.differential import first_divergence, fuzz_campaign

    info(f"535-check fuzz: campaign of {_count(runs, 'seed')} from base seed {seed}")
    with Outputs() as outputs:
        with Ticker("fuzz", "seeds fuzzed", runs) as ticker:

            def seen(run: CampaignRun) -> None:
                ticker.update()

            done = fuzz_campaign(
                ruleset,
                target,
                runs=runs,
                base_seed=seed,
                examples=asked.examples,
                timeout=asked.timeout,
                max_line=asked.max_line,
                time_budget=asked.time_budget,
                shrink_budget=asked.shrink_budget,
                player_counts=counts,
                executor=units,
                progress=seen,
            )
        first = first_divergence(done)
        replays: dict[int, Path] = {}
        for run in done:
            if run.diverged and run.result is not None and run.result.witness is not None:
                path = _campaign_replay(replay_out, run.seed)
                replays[run.index] = path
                text = dumps(replay_json(ruleset, target, run.seed, run.result.witness)) + "\n"
                outputs.file(path, "--replay-out").write_text(text)
        if first is not None and replay_out is not None:
            assert first.result is not None and first.result.witness is not None
            text = dumps(replay_json(ruleset, target, first.seed, first.result.witness)) + "\n"
            outputs.file(replay_out, "--replay-out").write_text(text)
        outputs.commit()
    show_notes(notes)
    faulted = next((run for run in done if run.faulted is not None), None)
    first_path = (replay_out or replays[first.index]) if first is not None else None
    if fmt == "json":
        out: dict[str, Any] = {
            **head,
            "campaign": {"base_seed": seed, "runs": runs, "examples": asked.examples},
            "runs": [_run_json(run, replays.get(run.index)) for run in done],
            "result": "engine_fault" if faulted else "divergence" if first else "agree",
            "first_divergence": None,
        }
        if first is not None and first.result is not None and first.result.witness is not None:
            out["first_divergence"] = {
                "index": first.index,
                "seed": first.seed,
                "replay": str(first_path),
                "witness": replay_json(ruleset, target, first.seed, first.result.witness),
            }
        click.echo(dumps(out))
    else:
        click.echo(f"engine: {name} ({target})")
        click.echo(f"reference: {ruleset.label()}, {engine_note(ruleset, words_of(spec).engines)}")
        click.echo(
            f"campaign: {_count(runs, 'seed')} from base seed {seed} (seed i = campaign_seed({seed}, i))"
        )
        for run in done:
            click.echo(_run_line(run, replays.get(run.index)))
        diverged = len(replays)
        click.echo(f"{diverged} of {_count(runs, 'seed')} diverged" if diverged else "no divergence")
        if first is not None and first.result is not None and first.result.witness is not None:
            click.echo(f"FIRST DIVERGENCE (run {first.index}, seed {first.seed}):")
            for line in _witness_text(first.result.witness):
                click.echo(line)
            again = f"535-check replay {first_path} --engine {_quote(target)}"
            click.echo(f"replay written to {first_path}; run: {again}")
    if faulted is not None:
        click.echo(f"535-check: error: run {faulted.index}, seed {faulted.seed}: {faulted.faulted}", err=True)
        sys.exit(EXIT_ENGINE_FAULT)
    sys.exit(EXIT_FAILED if first is not None else EXIT_OK)


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" if n == 1 else f"{n:,} {what}s"


def _rounds_text(result: FuzzResult) -> str:
    """What the search did, every number named: rounds generated and how each one stopped."""
    rounds = result.rounds_json()
    how = [f"{rounds['played_to_the_end']:,} played to the end"]
    if rounds["diverged"]:
        how.append("1 diverged")
    if rounds["stopped_at_the_move_cap"]:
        how.append(f"{rounds['stopped_at_the_move_cap']:,} stopped at the {MAX_MOVES}-move cap")
    if rounds["cut_short_by_hypothesis"]:
        how.append(f"{rounds['cut_short_by_hypothesis']:,} cut short by Hypothesis")
    why = ", the time budget ran out" if result.budget_exhausted else ""
    return (
        f"searched {_count(result.examples, 'round')} for --examples {result.examples_asked}{why} "
        f"({', '.join(how)}): {_count(result.moves, 'move')}, "
        f"{_count(result.search_requests, 'protocol request')}"
    )


def _speed(result: FuzzResult) -> str:
    text = (
        f"{result.search_seconds:.2f} s searching: {result.requests_per_second:,.0f} requests/s, "
        f"{result.rounds_per_second:,.0f} rounds/s"
    )
    if result.seconds_to_detect is not None:
        text += (
            f"; divergence found after {result.seconds_to_detect:.2f} s, "
            f"shrunk in {result.seconds - result.seconds_to_detect:.2f} s"
        )
    return text


def _quote(text: str) -> str:
    return shlex.quote(text)


COMMANDS = [fuzz_cmd]
