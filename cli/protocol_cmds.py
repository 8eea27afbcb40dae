"""`535-check serve | fuzz | replay | perft`: the engine protocol commands (docs/protocol.md).

Exit codes: 0 the engines agree, 1 a divergence (fuzz, replay) or a differing subtree (perft),
2 bad input, 3 an engine fault (crash, timeout, malformed or oversized output, protocol violation).
Timings go to stderr so that stdout is byte-identical for the same seed.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..engine import Game
from ..engine.engines import engine_note
from ..protocol.client import (
    DEFAULT_MAX_LINE,
    DEFAULT_TIMEOUT,
    EngineClient,
    EngineFault,
    engine_session,
)
from ..protocol.compare import MAX_MOVES, RoundResult, check_readings, negotiate, with_parameters
from ..protocol.messages import deal_json, move_json
from ..protocol.perft import compare_perft, divide, root_deal
from ..protocol.replay import load_replay, replay_json, run_replay, side_by_side
from ..protocol.server import INTERPRETER_NAME, REFERENCE_NAME, ReferenceEngine, serve
from ..spec import Ruleset, Spec, SpecError, dumps, load_spec

if TYPE_CHECKING:
    # The fuzzer brings Hypothesis: imported where `fuzz` runs, not for `serve`, `replay` or `perft`.
    from ..checks.fuzz.differential import CampaignRun, FuzzResult

from .common import (
    EXIT_ENGINE_FAULT,
    EXIT_FAILED,
    EXIT_OK,
    SEED,
    cli_executor,
    executor_options,
    format_option,
    info,
    jobs_option,
    parse_readings,
    resolve,
    rules_options,
)
from .outputs import Outputs
from .progress import Ticker


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    # FloatRange lets nan through (every comparison with nan is false) and inf would never end.
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"expected a finite number of seconds, got {value}", ctx, param)
    return value


SECONDS = click.FloatRange(min=0, min_open=True, max=86400)


def engine_options(func: Any) -> Any:
    func = click.option(
        "--max-line",
        type=click.IntRange(min=1024, max=1 << 30),
        default=DEFAULT_MAX_LINE,
        show_default=True,
        help="Longest answer line accepted, in bytes; longer is an engine fault.",
    )(func)
    func = click.option(
        "--timeout",
        type=SECONDS,
        callback=_finite,
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help="Seconds the engine may take per request (in-process engines too); longer is an engine fault.",
    )(func)
    return func


def summary_format_option(func: Any) -> Any:
    return format_option(
        ["text", "json"], "text", "text: a summary for people; json: one JSON document on stdout, for tools."
    )(func)


def _fault_exit(fault: EngineFault, fmt: str, extra: dict[str, Any] | None = None) -> NoReturn:
    """Exit 3 with one line on stderr naming the request; with --format json the fault (and the
    transcript of the last exchanges) is also the JSON result on stdout."""
    if fmt == "json":
        click.echo(dumps({**(extra or {}), "result": "engine_fault", "fault": fault.to_json()}))
    click.echo(f"535-check: error: {fault}", err=True)
    sys.exit(EXIT_ENGINE_FAULT)


def _notes(notes: tuple[str, ...] | list[str]) -> None:
    # Printed once the run has an outcome, so that an error stays the only line on stderr.
    for note in notes:
        click.echo(f"535-check: note: {note}", err=True)


def _agree_on_rules(
    spec: Spec, ruleset: Ruleset, engine: EngineClient, readings: tuple[str, ...]
) -> tuple[Ruleset, str, tuple[str, ...]]:
    """hello, then the reference set to the readings the engine declares; returns it, the engine's
    name and the notes to show."""
    hello = engine.hello()
    agreed, notes = negotiate(spec, ruleset, hello, parse_readings(readings))
    return agreed, str(hello["name"]), notes


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


# ---- serve -------------------------------------------------------------------------------------


@click.command("serve")
@rules_options
@click.option(
    "--name",
    default=None,
    help=f"Name the server answers to hello (default: {REFERENCE_NAME!r}, or {INTERPRETER_NAME!r} when the "
    "spec interpreter plays the rules).",
)
def serve_cmd(
    spec_path: Path | None, profile: str | None, readings: tuple[str, ...], name: str | None
) -> None:
    """Run the reference engine as a protocol server: JSON Lines on stdin and stdout."""
    choice = resolve(spec_path, profile, readings)
    with contextlib.suppress(BrokenPipeError):
        serve(ReferenceEngine(choice.ruleset, name), sys.stdin.buffer, sys.stdout.buffer)
    sys.exit(EXIT_OK)


# ---- fuzz --------------------------------------------------------------------------------------


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
@click.option("--time-budget", type=SECONDS, callback=_finite, default=None, help="Stop after S seconds.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Hypothesis seed (printed).")
@click.option(
    "--shrink-budget",
    type=SECONDS,
    callback=_finite,
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
            choice.spec,
            choice.ruleset,
            readings,
            target,
            examples=examples,
            time_budget=time_budget,
            seed=seed,
            shrink_budget=shrink_budget,
            players=players,
            replay_out=replay_out,
            runs=campaign,
            executor=(executor_kind, jobs, scheduler),
            timeout=timeout,
            max_line=max_line,
            fmt=fmt,
        )
    with Outputs() as outputs:
        # Reserved now (the name too), so that a replay that cannot be written fails before the
        # fuzzing; it appears only when there is a divergence to write.
        replay_file = outputs.file(replay_path, "--replay-out")
        head: dict[str, Any] = {"engine": target, "seed": seed}
        try:
            with engine_session(target, timeout, max_line) as engine:
                ruleset, name, notes = _agree_on_rules(choice.spec, choice.ruleset, engine, readings)
                head.update({"engine_name": name, "reference": ruleset.to_json()})
                if players is None:
                    counts = tuple(range(ruleset.players_min, ruleset.players_max + 1))
                else:
                    counts = _player_counts(players, ruleset)  # within the engine's table too
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
            _fault_exit(fault, fmt, head)
        if result.fault is not None:
            _fault_exit(result.fault, fmt, {**head, **result.to_json()})
        _notes(notes)
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
            click.echo(f"reference: {ruleset.label()}, {engine_note(ruleset)}")
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
    target: str,
    *,
    examples: int,
    time_budget: float | None,
    seed: int,
    shrink_budget: float,
    players: str | None,
    replay_out: Path | None,
    runs: int,
    executor: tuple[str, int, str | None],
    timeout: float,
    max_line: int,
    fmt: str,
) -> NoReturn:
    """`fuzz --campaign N`: the rules are agreed with the engine once, here; then every seed is a
    unit that starts its own engine where it runs."""
    head: dict[str, Any] = {"engine": target, "seed": seed}
    # Made first: a scheduler that does not answer fails before any engine starts. Closed with the
    # command, however it ends.
    units = cli_executor(*executor)
    click.get_current_context().with_resource(units)
    try:
        with engine_session(target, timeout, max_line) as engine:
            ruleset, name, notes = _agree_on_rules(spec, chosen, engine, readings)
    except EngineFault as fault:
        _fault_exit(fault, fmt, head)
    head.update({"engine_name": name, "reference": ruleset.to_json()})
    if players is None:
        counts = tuple(range(ruleset.players_min, ruleset.players_max + 1))
    else:
        counts = _player_counts(players, ruleset)
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
                examples=examples,
                timeout=timeout,
                max_line=max_line,
                time_budget=time_budget,
                shrink_budget=shrink_budget,
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
    _notes(notes)
    faulted = next((run for run in done if run.faulted is not None), None)
    first_path = (replay_out or replays[first.index]) if first is not None else None
    if fmt == "json":
        out: dict[str, Any] = {
            **head,
            "campaign": {"base_seed": seed, "runs": runs, "examples": examples},
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
        click.echo(f"reference: {ruleset.label()}, {engine_note(ruleset)}")
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


# ---- replay ------------------------------------------------------------------------------------


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@rules_options
@click.option("--engine", "target", required=True, help="Engine command line, or python:MODULE:FACTORY.")
@engine_options
@summary_format_option
def replay_cmd(
    file: Path,
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    target: str,
    timeout: float,
    max_line: int,
    fmt: str,
) -> None:
    """Re-run a replay file and show both engines' answers side by side at the diverging step."""
    replay = load_replay(file)
    spec = load_spec(spec_path)
    ruleset = replay.ruleset(spec, profile, parse_readings(readings))
    # The deal is checked before any engine starts: a bad replay is bad input (exit 2).
    deal = replay.position(ruleset)
    notes: list[str] = []
    try:
        with engine_session(target, timeout, max_line) as engine:
            hello = engine.hello()
            check_readings(spec, hello["readings"], "engine hello")
            # Held to the spec schema's bounds as fuzz and perft hold them (negotiate); the replay
            # itself plays the file's parameters.
            _, declared = with_parameters(ruleset, hello["parameters"], "engine hello")
            if declared:
                notes.append(
                    "the engine declares other parameters (" + ", ".join(declared) + "); "
                    "the replay uses the file's"
                )
            differs = sorted(p for p, r in hello["readings"].items() if ruleset.readings.get(p) != r)
            if differs:
                shown = ", ".join(f"{p}={hello['readings'][p]}" for p in differs)
                notes.append(f"the engine declares {shown}; the replay uses the file's readings")
            result = run_replay(replay, ruleset, engine)
    except EngineFault as fault:
        _fault_exit(fault, fmt, {"replay": str(file), "engine": target})
    _notes(notes)
    d = result.divergence
    if fmt == "json":
        click.echo(
            dumps(
                {
                    "replay": str(file),
                    "engine": target,
                    "result": "divergence" if d else "agree",
                    "moves_played": len(result.moves),
                    "divergence": d.to_json() if d else None,
                }
            )
        )
    else:
        click.echo(
            f"replay {file}: {deal.players} players, {len(replay.moves)} moves, reference {ruleset.label()}"
        )
        for seat, hand in enumerate(deal.hands):
            click.echo(f"  hand {seat}: {list(hand)}")
        for i, move in enumerate(result.moves):
            click.echo(f"  step {i}: {move}")
        if d is None:
            click.echo(
                f"no divergence: the engine agrees with the reference on all {len(result.moves)} moves"
            )
        else:
            request = f"apply {move_json(d.move)}" if d.move else d.request
            click.echo(f"diverges at step {d.step}, request {request}:")
            click.echo(f"  {d.summary}")
            click.echo(side_by_side(d.reference, d.engine))
    sys.exit(EXIT_FAILED if d else EXIT_OK)


# ---- perft -------------------------------------------------------------------------------------


@click.command("perft")
@rules_options
@click.option("--players", type=click.IntRange(min=2, max=12), required=True, help="Player count.")
@click.option("--seed", type=SEED, required=True, help="Seed of the deal (game.new_match(seed)).")
@click.option("--depth", type=click.IntRange(min=0, max=12), required=True, help="Plies to count.")
@click.option(
    "--engine", "target", default=None, help="Compare with this engine; stop at the first difference."
)
@engine_options
@summary_format_option
def perft_cmd(
    spec_path: Path | None,
    profile: str | None,
    readings: tuple[str, ...],
    players: int,
    seed: int,
    depth: int,
    target: str | None,
    timeout: float,
    max_line: int,
    fmt: str,
) -> None:
    """Count the leaves of the legal-move tree from a seeded deal, with a divide per root move."""
    choice = resolve(spec_path, profile, readings)
    choice.ruleset.check_players(players)
    if target is None:
        game = Game(choice.ruleset, players)
        state, deal = root_deal(game, seed)
        rows = divide(game, state, depth) if depth else []
        total = sum(n for _, n in rows) if depth else 1
        _perft_out(fmt, choice.ruleset, players, seed, depth, deal_json(deal), rows, total, None)
        sys.exit(EXIT_OK)
    try:
        with engine_session(target, timeout, max_line) as engine:
            ruleset, _, notes = _agree_on_rules(choice.spec, choice.ruleset, engine, readings)
            ruleset.check_players(players)
            game = Game(ruleset, players)
            state, deal = root_deal(game, seed)
            comparison = compare_perft(game, state, deal, engine, depth)
    except EngineFault as fault:
        _fault_exit(fault, fmt, {"engine": target, "players": players, "seed": seed, "depth": depth})
    _notes(notes)
    rows = list(comparison.agreed)
    total = sum(n for _, n in rows) if depth else 1
    _perft_out(fmt, ruleset, players, seed, depth, deal_json(deal), rows, total, comparison.difference)
    sys.exit(EXIT_FAILED if comparison.difference else EXIT_OK)


def _perft_out(
    fmt: str,
    ruleset: Ruleset,
    players: int,
    seed: int,
    depth: int,
    deal: dict[str, Any],
    rows: list[Any],
    total: int,
    difference: Any,
) -> None:
    if fmt == "json":
        out: dict[str, Any] = {
            "reference": ruleset.label(),
            "players": players,
            "seed": seed,
            "depth": depth,
            "deal": deal,
            "divide": [{"move": move_json(m), "leaves": n} for m, n in rows],
            "leaves": None if difference else total,
            "difference": difference.to_json() if difference else None,
        }
        click.echo(dumps(out))
        return
    click.echo(f"perft {ruleset.label()}, {players} players, seed {seed}, depth {depth}")
    click.echo(f"deal: leader {deal['leader']}, hands {deal['hands']}")
    for move, n in rows:
        click.echo(f"{move}: {n}")
    if difference is None:
        click.echo(f"leaves: {total}")
        return
    path = "; ".join(str(m) for m in difference.path) or "(the root)"
    click.echo(f"the engine differs after {path}: {difference.summary}")
    click.echo(side_by_side(difference.reference, difference.engine))


COMMANDS = [serve_cmd, fuzz_cmd, replay_cmd, perft_cmd]
