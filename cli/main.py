"""`535-check`: the thin command-line shell over the five35 library.

Exit codes (documented in the README):
  0  success (and, for `check`, the checks hold)
  1  a check failed / a divergence was found (engine faults are 3)
  2  bad input or usage: a bad option, a spec file that does not load, an unknown profile or reading
  3  an engine under test misbehaved (crash, timeout, malformed output) -- `fuzz`, `replay`, `perft`;
     also a worker process that died under a command
 130 interrupted (Ctrl-C, SIGINT)
 143 terminated (SIGTERM)

Every error, click's own usage errors included, is one line on stderr: `535-check: error: PLACE:
what was expected`, PLACE being the option, argument, command or file (and line) at fault.

Every command takes the shared options --spec, --profile and --reading POINT=VALUE, resolved here
into a Spec and a Ruleset; the commands themselves only call the library. Every command also takes
-q/--quiet and -v/--verbose (before or after the command's name), and `[tool.five35]` in the nearest
pyproject.toml gives defaults the command line overrides (cli/config.py).
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TypeVar

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem
from five35.checks.findings import DEFAULT_SOLVER_RLIMIT, MAX_SOLVER_RLIMIT
from five35.engine.executor import (
    DASK_HINT,
    EXECUTORS,
    MAX_JOBS,
    DaskExecutor,
    ExecutorUnavailable,
    LocalExecutor,
    WorkerDied,
    make_executor,
    tune_gc,
)
from five35.engine.simulate import DEFAULT_SEED
from five35.spec import Ruleset, Spec, SpecError, load_spec
from five35.spec.vocabulary import UnimplementedReading

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_ENGINE_FAULT = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143, what a shell reports for a process ended by SIGTERM

PROG = "535-check"

F = TypeVar("F", bound=Callable[..., Any])

#: The one type of every seed option: a whole number a 64-bit engine can hold too.
SEED = click.IntRange(0, 2**63 - 1)
#: Worker processes.
JOBS = click.IntRange(1, MAX_JOBS)
#: Z3's resource limit on each query of the checks (checks/findings.py, DEFAULT_SOLVER_RLIMIT).
SOLVER_RLIMIT = click.IntRange(1, MAX_SOLVER_RLIMIT)

__all__ = [
    "DEFAULT_SEED",
    "EXIT_ENGINE_FAULT",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "JOBS",
    "SEED",
    "SOLVER_RLIMIT",
    "PathGiven",
    "RulesChoice",
    "Terminated",
    "cli_executor",
    "detail",
    "executor_options",
    "fail_usage",
    "info",
    "keep_interrupts_from_z3",
    "main",
    "parse_readings",
    "resolve",
    "rules_options",
    "solver_rlimit_option",
    "verbosity",
]


@dataclass(frozen=True)
class RulesChoice:
    """What the shared options chose: the loaded spec and the resolved ruleset."""

    spec: Spec
    ruleset: Ruleset


def parse_readings(values: tuple[str, ...]) -> dict[str, str]:
    readings: dict[str, str] = {}
    for value in values:
        point, sep, reading = value.partition("=")
        if not sep or not point or not reading:
            raise SpecError("--reading", f"expected POINT=VALUE, got {value!r}")
        readings[point.strip()] = reading.strip()
    return readings


# ---- -q / -v ------------------------------------------------------------------------------------

_VERBOSITY = "five35.verbosity"


def verbosity() -> int:
    """-1 or less with -q, 0 by default, 1 or more with -v (the flags add up, before or after the
    command's name)."""
    ctx = click.get_current_context(silent=True)
    return int(ctx.meta.get(_VERBOSITY, 0)) if ctx is not None else 0


def info(message: str) -> None:
    """A line for the person watching (the seed, progress, what was written): stderr, not with -q."""
    if verbosity() >= 0:
        click.echo(message, err=True)


def detail(message: str) -> None:
    """A line only -v asks for."""
    if verbosity() > 0:
        click.echo(message, err=True)


def _count_into_verbosity(step: int) -> Callable[[click.Context, click.Parameter, int], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: int) -> None:
        if value and not ctx.resilient_parsing:
            ctx.meta[_VERBOSITY] = ctx.meta.get(_VERBOSITY, 0) + step * value

    return callback


def verbosity_options() -> list[click.Option]:
    """-q and -v, fresh for each command they are added to."""
    return [
        click.Option(
            ["-q", "--quiet"],
            count=True,
            expose_value=False,
            callback=_count_into_verbosity(-1),
            help="Print less on stderr: no progress lines or notes, only errors.",
        ),
        click.Option(
            ["-v", "--verbose"],
            count=True,
            expose_value=False,
            callback=_count_into_verbosity(1),
            help="Print more on stderr (each check's notes, each phase's timing).",
        ),
    ]


# ---- shell completion ---------------------------------------------------------------------------


def _completion_spec(ctx: click.Context) -> Spec | None:
    """The spec the command line (or [tool.five35]) names, for completing its profiles and readings;
    None when it does not load: a completion must never fail."""
    path = ctx.params.get("spec_path")
    try:
        if path is None:
            from . import config as project_config

            found = project_config.load()
            path = found.path_value("spec") if found is not None else None
        return load_spec(path)
    except Exception:
        return None


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    spec = _completion_spec(ctx)
    if spec is None:
        return []
    return [
        CompletionItem(name, help=profile.title)
        for name, profile in spec.profiles.items()
        if name.startswith(incomplete)
    ]


def complete_readings(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """POINT= while the point is being typed, then POINT=READING for that point's readings."""
    spec = _completion_spec(ctx)
    if spec is None:
        return []
    point, sep, _ = incomplete.partition("=")
    if not sep:
        return [
            CompletionItem(f"{name}=", help=vp.question)
            for name, vp in spec.variation_points.items()
            if name.startswith(incomplete)
        ]
    vp = spec.variation_points.get(point)
    if vp is None:
        return []
    items = [CompletionItem(f"{point}={r}", help=words) for r, words in vp.readings.items()]
    return [item for item in items if item.value.startswith(incomplete)]


def _no_empty_profile(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    # `--profile=` (an unset shell variable) would otherwise quietly mean the default profile.
    if value is not None and not value.strip():
        raise click.BadParameter("expected a profile name, got an empty string", ctx, param)
    return value


def rules_options(func: F) -> F:
    """The options every command shares: --spec, --profile, --reading."""
    func = click.option(
        "--reading",
        "readings",
        multiple=True,
        metavar="POINT=VALUE",
        shell_complete=complete_readings,
        help="Choose a reading for a variation point (repeatable); overrides the profile.",
    )(func)
    func = click.option(
        "--profile",
        default=None,
        callback=_no_empty_profile,
        shell_complete=complete_profiles,
        help="Named profile from the spec (default: the spec's default).",
    )(func)
    func = click.option(
        "--spec",
        "spec_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Spec file to use instead of the embedded one (e.g. a house-rules copy).",
    )(func)
    return func


# ---- --executor / --scheduler -------------------------------------------------------------------


def executor_options(func: F) -> F:
    """--executor and --scheduler: where the long work's units run (cli_executor builds it)."""
    func = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="The Dask scheduler to send the work to, e.g. tcp://10.0.0.5:8786 (with --executor dask).",
    )(func)
    func = click.option(
        "--executor",
        "executor_kind",
        type=click.Choice(EXECUTORS),
        default="local",
        show_default=True,
        help="Where the work runs: local (processes on this machine) or dask (a Dask distributed "
        f"cluster, at --scheduler; needs {DASK_HINT}). The output is the same either way.",
    )(func)
    return func


def solver_rlimit_option(func: F) -> F:
    """--solver-rlimit: Z3's resource limit on each query of the checks (check, report)."""
    return click.option(
        "--solver-rlimit",
        type=SOLVER_RLIMIT,
        default=DEFAULT_SOLVER_RLIMIT,
        show_default=True,
        metavar="N",
        help="Z3's resource limit on each query of the checks: a count of its steps, not a time, so a "
        "check answers the same on any machine under any load. Raise it when a check fails with "
        "'Z3 answered unknown'.",
    )(func)


def _place(option: str, param: str) -> str:
    """The option, or the [tool.five35] line when the value came from there."""
    ctx = click.get_current_context(silent=True)
    config = ctx.meta.get(_CONFIG) if ctx is not None else None
    from_config = ctx is not None and ctx.get_parameter_source(param) is ParameterSource.DEFAULT_MAP
    if ctx is not None and config is not None and from_config:
        return str(config.place(param.removesuffix("_kind")))
    return option


def cli_executor(kind: str, jobs: int, scheduler: str | None) -> LocalExecutor | DaskExecutor:
    """The executor --executor, --jobs and --scheduler ask for; SpecError (exit 2) naming the
    option when they do not fit together, dask is missing or the scheduler does not answer."""
    ctx = click.get_current_context(silent=True)
    if kind == "local" and scheduler is not None:
        raise SpecError(_place("--scheduler", "scheduler"), "only used with --executor dask")
    if kind == "dask":
        if scheduler is None:
            raise SpecError(_place("--executor", "executor_kind"), "dask needs --scheduler ADDRESS")
        jobs_given = ctx is not None and ctx.get_parameter_source("jobs") is ParameterSource.COMMANDLINE
        if jobs_given:
            raise SpecError("--jobs", "not used with --executor dask (the cluster's workers run the work)")
    try:
        return make_executor(kind, jobs, scheduler)
    except ExecutorUnavailable as exc:
        if exc.argument == "scheduler":
            raise SpecError(_place("--scheduler", "scheduler"), str(exc)) from None
        raise SpecError(_place("--executor", "executor_kind"), str(exc)) from None


class PathGiven(click.Path):
    """click.Path that refuses an empty string: that is a shell variable that was not set, not the
    current directory Path("") would quietly become."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("expected a path, got an empty string", param, ctx)
        return super().convert(value, param, ctx)


def resolve(spec_path: Path | None, profile: str | None, readings: tuple[str, ...]) -> RulesChoice:
    """Load the spec and resolve the ruleset; raises SpecError with a one-line message (naming
    pyproject.toml's line when the profile came from [tool.five35])."""
    spec = load_spec(spec_path)
    try:
        return RulesChoice(spec, spec.ruleset(profile, parse_readings(readings)))
    except SpecError as exc:
        ctx = click.get_current_context(silent=True)
        config = ctx.meta.get(_CONFIG) if ctx is not None else None
        from_config = ctx is not None and ctx.get_parameter_source("profile") is ParameterSource.DEFAULT_MAP
        if exc.where == "--profile" and from_config and config is not None:
            raise SpecError(config.place("profile"), exc.message) from None
        raise


def fail_usage(message: str) -> NoReturn:
    """Print a one-line error and exit 2."""
    click.echo(f"{PROG}: error: {_one_line(message)}", err=True)
    sys.exit(EXIT_USAGE)


def keep_interrupts_from_z3() -> None:
    """Let Ctrl-C reach Python during a Z3 solve.

    By default Z3 takes SIGINT for itself while it solves: it cancels that one query (which then
    answers "unknown") and the run goes on, so the user's Ctrl-C is lost. Without its handler the
    signal waits for the query to return (each takes well under a second here) and stops the run.
    """
    try:
        import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
    except ImportError:
        return
    z3.set_param("ctrl_c", False)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the main thread is, so that it unwinds (outputs discarded, workers
    stopped) exactly as a Ctrl-C does."""


class _Stop:
    """SIGINT and SIGTERM as exceptions in the main thread, raised again every REPEAT seconds
    until the command has unwound.

    Raising once is not enough: Python swallows an exception raised inside a garbage-collector
    callback, a __del__ or a weakref callback (printing "Exception ignored"), and Hypothesis runs
    a gc callback during its tests, so an unlucky Ctrl-C would be lost and the run would go on.
    """

    REPEAT = 0.4  # seconds; a few repeats fit in the 2 s a stop may take

    def __init__(self) -> None:
        self.signum: int | None = None
        self.done = threading.Event()
        self.repeater: threading.Thread | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.done.is_set():
            return  # already unwound and on the way out: nothing more to stop
        if self.signum is None:
            self.signum = signum
            self.repeater = threading.Thread(target=self._repeat, name="535-check-stop", daemon=True)
            self.repeater.start()
        raise Terminated() if self.signum == signal.SIGTERM else KeyboardInterrupt()

    def _repeat(self) -> None:
        while not self.done.wait(self.REPEAT):
            # Through the process's signal mask, so it waits while a clean-up step holds signals
            # back (stop_signals_held) instead of cutting that step in half.
            signal.pthread_kill(threading.main_thread().ident or 0, self.signum or signal.SIGINT)


_stop = _Stop()


@contextmanager
def _signals_unwind() -> Iterator[None]:
    # Only the main thread may set handlers (a test runner may call us from another thread).
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _stop
    _stop = _Stop()
    previous = {sig: signal.signal(sig, _stop.handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook

    def quiet_stop(unraisable: Any) -> None:
        # A stop swallowed by a gc callback is raised again (see _Stop): not worth a traceback.
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)

    sys.unraisablehook = quiet_stop
    try:
        yield
    finally:
        _stop.done.set()
        if _stop.repeater is not None:
            # A repeat already on its way must land on our handler (which now ignores it), not
            # on the default one restored below: that would raise in some __del__ on the way out
            # and print "Exception ignored".
            _stop.repeater.join(2 * _Stop.REPEAT)
        else:
            sys.unraisablehook = hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)


# ---- one error style ---------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _plain(message: str) -> str:
    """click's sentence ("'x' is not a valid integer.") as a clause after `PLACE: `."""
    message = _one_line(message).rstrip(".")
    return message[:1].lower() + message[1:] if message[:2] != message[:2].upper() else message


def _param_place(param: click.Parameter | None, hint: str | Sequence[str] | None) -> str:
    if isinstance(param, click.Option):
        # The long name is the one the README and --help show.
        return max(param.opts, key=len)
    if isinstance(param, click.Argument):
        return param.human_readable_name
    if isinstance(hint, str):
        return hint.strip("'\"")
    if hint:
        return " / ".join(h.strip("'\"") for h in hint)
    return "argument"


def _command_place(ctx: click.Context | None) -> str:
    """The subcommand at fault (`simulate`), empty at the top level."""
    if ctx is None or ctx.parent is None:
        return ""
    return ctx.command_path.removeprefix(ctx.find_root().info_name or "").strip()


_NOT_A_NUMBER = re.compile(
    r"^'?(?P<value>.*?)'? is not (?:a valid (?:integer|float)(?: range)?|in the range .*?)\.?$", re.DOTALL
)


def _bounds(kind: click.IntRange | click.FloatRange) -> str:
    low, high = kind.min, kind.max
    lower = f"{'above' if kind.min_open else 'of at least'} {low}" if low is not None else ""
    upper = f"{'below' if kind.max_open else 'at most'} {high}" if high is not None else ""
    if low is not None and high is not None and not kind.min_open and not kind.max_open:
        return f" from {low} to {high}"
    if lower and upper:
        return f" {lower} and {upper}"
    return f" {lower or upper}" if lower or upper else ""


def _number_message(exc: click.BadParameter) -> str | None:
    """One style for every bad number, whichever of click's number types refused it:
    `expected a whole number from 0 to 9, got -1`."""
    kind = exc.param.type if exc.param is not None else None
    found = _NOT_A_NUMBER.match(_one_line(exc.message))
    if found is None or not isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return None
    what = "a whole number" if isinstance(kind, click.types.IntParamType) else "a number"
    if isinstance(kind, click.IntRange | click.FloatRange):
        what += _bounds(kind)
    return f"expected {what}, got {found['value']}"


def usage_message(exc: click.ClickException) -> str:
    """One line `PLACE: what was expected` for any of click's errors."""
    if isinstance(exc, click.NoSuchOption):
        message = f"{exc.option_name}: no such option"
        if exc.possibilities:
            message += f" (did you mean {', '.join(sorted(exc.possibilities))}?)"
        return message
    if isinstance(exc, click.BadOptionUsage):
        # "Option '--seed' requires an argument." names the option already: keep the rest.
        rest = re.sub(r"^Option '[^']*' ", "", _one_line(exc.message))
        return f"{exc.option_name}: {_plain(rest)}"
    if isinstance(exc, click.MissingParameter):
        place = _param_place(exc.param, exc.param_hint)
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        return f"{place}: missing (a required {kind})"
    if isinstance(exc, click.BadParameter):
        number = _number_message(exc)
        return f"{_param_place(exc.param, exc.param_hint)}: {number or _plain(exc.message)}"
    if isinstance(exc, click.UsageError):
        message = _plain(exc.message)
        if message.startswith("no such command") and exc.ctx is not None:
            group = exc.ctx.command
            if isinstance(group, click.Group):
                message += f" (commands: {', '.join(group.list_commands(exc.ctx))})"
        place = _command_place(exc.ctx)
        return f"{place}: {message}" if place else message
    return _plain(exc.format_message())


#: Every command, with the module of cli/ that states it (in its COMMANDS). Each command lives in its
#: own module, so the commands stay independent of each other, and a module is imported when one of
#: its commands is asked for: `535-check serve` or a bad argument to `rules` does not import the
#: checks (Z3, Hypothesis, networkx). tests/cli/test_cli_conventions.py holds this table to the
#: modules' COMMANDS.
COMMAND_MODULES: dict[str, str] = {
    "check": "check_cmd",
    "fuzz": "protocol_cmds",
    "merge": "merge_cmd",
    "perft": "protocol_cmds",
    "replay": "protocol_cmds",
    "report": "report_cmd",
    "rulebook": "rulebook_cmd",
    "rules": "rules_cmd",
    "serve": "protocol_cmds",
    "simulate": "simulate_cmd",
    "vectors": "vectors_cmd",
}


class Five35Group(click.Group):
    """Turns every expected error into one line and a documented exit code, never a traceback;
    imports a command's module when the command is asked for (COMMAND_MODULES)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            self._load(COMMAND_MODULES[cmd_name])
        return self.commands.get(cmd_name)

    def _load(self, name: str) -> None:
        module = importlib.import_module(f"{__package__}.{name}")
        for command in module.COMMANDS:
            if command.name in self.commands:
                continue
            if command.epilog is None and command.name in EXAMPLES:
                command.epilog = examples_epilog(EXAMPLES[command.name])
            command.params.extend(verbosity_options())
            self.add_command(command)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        tune_gc()
        with _signals_unwind():
            try:
                code = super().main(args, prog_name or PROG, complete_var, standalone_mode=False, **extra)
            except click.exceptions.Abort as exc:
                sys.exit(_interrupted(exc.__cause__))
            except click.ClickException as exc:
                click.echo(f"{PROG}: error: {usage_message(exc)}", err=True)
                # click's own exit code: 2 for usage errors, 1 for the others (e.g. FileError).
                sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        """click's shell completion, with a bad completion environment (an unknown shell, a
        COMP_CWORD that is not a number) one line and exit 2 rather than a silent exit 1 or a
        traceback. The completions themselves never fail (see _completion_spec)."""
        from click.shell_completion import get_completion_class

        var = complete_var or "_{}_COMPLETE".format(prog_name.replace("-", "_").replace(".", "_").upper())
        instruction = os.environ.get(var)
        if not instruction:
            return
        shell, _, action = instruction.partition("_")
        if get_completion_class(shell) is None:
            fail_usage(f"{var}: unknown shell {shell!r} (expected bash_source, zsh_source or fish_source)")
        if action not in ("source", "complete"):
            fail_usage(f"{var}: expected {shell}_source or {shell}_complete, got {instruction!r}")
        if action == "complete":
            # What the shell's completion function sets; fish's COMP_CWORD is the word itself.
            for name in ("COMP_WORDS", "COMP_CWORD"):
                if name not in os.environ:
                    fail_usage(f"{name}: missing (the shell's completion function sets it)")
            cword = os.environ["COMP_CWORD"]
            if shell != "fish" and not cword.strip().isdigit():
                fail_usage(f"COMP_CWORD: expected the number of the word being completed, got {cword!r}")
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpecError as exc:
            fail_usage(str(exc))
        except UnimplementedReading as exc:
            # A part of the toolkit that holds readings in code was given rules it cannot play: a
            # limit of that part for these rules, said in one line, never a traceback.
            fail_usage(f"--spec: {exc}, which these rules choose")
        except WorkerDied as exc:
            click.echo(f"{PROG}: error: {_one_line(str(exc))}", err=True)
            sys.exit(EXIT_ENGINE_FAULT)
        except KeyboardInterrupt as exc:
            sys.exit(_interrupted(exc))
        except BrokenPipeError:
            sys.exit(EXIT_OK)


def _interrupted(exc: BaseException | None) -> int:
    _stop.done.set()
    if isinstance(exc, Terminated) or _stop.signum == signal.SIGTERM:
        click.echo(f"{PROG}: terminated", err=True)
        return EXIT_TERMINATED
    click.echo(f"{PROG}: interrupted", err=True)
    return EXIT_INTERRUPTED


# ---- [tool.five35] --------------------------------------------------------------------------------

_CONFIG = "five35.config"
#: Which parameter of which commands a [tool.five35] key is the default of ("*": every command that
#: has the parameter). `format` and `baseline` are check's: the other commands' formats differ.
CONFIG_PARAMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "spec": ("spec_path", ("*",)),
    "profile": ("profile", ("*",)),
    "level": ("level", ("check", "report")),
    "format": ("fmt", ("check",)),
    "baseline": ("baseline_path", ("check",)),
    "executor": ("executor_kind", ("simulate", "report", "fuzz", "check")),
    "scheduler": ("scheduler", ("simulate", "report", "fuzz", "check")),
    "solver-rlimit": ("solver_rlimit", ("check", "report")),
}


def project_defaults(command: click.Command, config: Any) -> dict[str, Any]:
    """What a loaded [tool.five35] gives `command`'s parameters: its entry of click's default_map."""
    defaults: dict[str, Any] = {}
    for key, (param, commands) in CONFIG_PARAMS.items():
        if config.get(key) is None or ("*" not in commands and command.name not in commands):
            continue
        if any(p.name == param for p in command.params):
            defaults[param] = config.path_value(key) if key in ("spec", "baseline") else config.get(key)
    return defaults


def project_config() -> Any:
    """The [tool.five35] this run uses (a cli.config.Config), or None."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(_CONFIG) if ctx is not None else None


EPILOG = """\b
Examples:
  535-check                                       # check at level ci, write ./535-report/
  535-check check --level quick                   # seconds: is the engine still right?
  535-check rules --profile german-literal        # the spec, and the readings a profile picks
  535-check check -h                              # one command's options

\b
Defaults for a project: [tool.five35] in pyproject.toml (level, format, baseline, spec, profile,
executor, scheduler, solver-rlimit).
"""

#: An example for the help of each command whose module gives none.
EXAMPLES = {
    "serve": ["535-check serve < requests.jsonl", "535-check serve --profile german-literal"],
    "fuzz": [
        '535-check fuzz --engine "535-check serve" --examples 500',
        '535-check fuzz --engine "python examples/engine535.py --bug run-gap" --time-budget 60',
        '535-check fuzz --engine "python examples/engine535.py" --campaign 20 --executor dask --scheduler tcp://10.0.0.5:8786',
    ],
    "replay": ['535-check replay 535-replay-seed0.json --engine "python examples/engine535.py"'],
    "perft": [
        "535-check perft --players 4 --seed 1 --depth 3",
        '535-check perft --players 4 --seed 1 --depth 3 --engine "python examples/engine535.py"',
    ],
}


def examples_epilog(lines: Sequence[str]) -> str:
    """An epilog of example command lines, kept as they are (click's \\b) rather than rewrapped."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


@click.group(
    cls=Five35Group,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EPILOG,
)
@click.version_option(package_name="five35", prog_name=PROG)
@click.pass_context
def main(ctx: click.Context) -> None:
    """Check the rules of 535 against the reference engine, write rule-clarification reports, and
    fuzz other engines against it.

    Run with no command to check the spec at level ci and write the report into ./535-report/
    (as `535-check report` does).
    """
    from . import config as project_config_module

    try:
        config = project_config_module.load()
    except SpecError as exc:
        fail_usage(str(exc))
    ctx.meta[_CONFIG] = config
    name = ctx.invoked_subcommand
    command = main.get_command(ctx, name) if name is not None else None
    if config is not None and name is not None and command is not None:
        ctx.default_map = {name: project_defaults(command, config)}
    if ctx.invoked_subcommand is None:
        from .default_job import default_job

        ctx.exit(default_job(config))


main.params.extend(verbosity_options())
