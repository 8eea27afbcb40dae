"""`535-check`: the thin command-line shell over the five35 library.

Every error, click's own usage errors included, is one line on stderr: `535-check: error: PLACE:
what was expected`, PLACE being the option, argument, command or file (and line) at fault; the exit
codes are cli/common.py's (documented in the README).

Every command takes the shared options --spec, --profile and --reading POINT=VALUE (cli/common.py).
Every command also takes -q/--quiet and -v/--verbose (before or after the command's name), and
`[tool.five35]` in the nearest pyproject.toml gives defaults the command line overrides
(cli/config.py).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from ..executor import (
    WorkerDied,
    tune_gc,
)
from ..spec import SpecError
from ..spec.vocabulary import UnimplementedReading
from .common import (
    CONFIG_KEY,
    EXIT_ENGINE_FAULT,
    EXIT_OK,
    PROG,
    examples_epilog,
    fail_usage,
    one_line,
    verbosity_options,
)
from .signals import interrupted, signals_unwind
from .usage import usage_message

#: Every command, with the module of cli/ that states it (in its COMMANDS). Each command lives in its
#: own module, so the commands stay independent of each other, and a module is imported when one of
#: its commands is asked for: `535-check serve` or a bad argument to `rules` does not import the
#: checks (Z3, Hypothesis, networkx). tests/cli/test_cli_conventions.py holds this table to the
#: modules' COMMANDS.
COMMAND_MODULES: dict[str, str] = {
    "check": "check_cmd",
    "fuzz": "fuzz_cmd",
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
        with signals_unwind():
            try:
                code = super().main(args, prog_name or PROG, complete_var, standalone_mode=False, **extra)
            except click.exceptions.Abort as exc:
                sys.exit(interrupted(exc.__cause__))
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
            click.echo(f"{PROG}: error: {one_line(str(exc))}", err=True)
            sys.exit(EXIT_ENGINE_FAULT)
        except KeyboardInterrupt as exc:
            sys.exit(interrupted(exc))
        except BrokenPipeError:
            sys.exit(EXIT_OK)


# ---- [tool.five35] --------------------------------------------------------------------------------

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
    "only": ("only", ("check",)),
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


EPILOG = """\b
Examples:
  535-check                                       # check at level ci, write ./535-report/
  535-check check --level quick                   # seconds: is the engine still right?
  535-check rules --profile german-literal        # the spec, and the readings a profile picks
  535-check check -h                              # one command's options

\b
Defaults for a project: [tool.five35] in pyproject.toml (level, format, baseline, spec, profile,
executor, scheduler, solver-rlimit, only).
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
    ctx.meta[CONFIG_KEY] = config
    name = ctx.invoked_subcommand
    command = main.get_command(ctx, name) if name is not None else None
    if config is not None and name is not None and command is not None:
        ctx.default_map = {name: project_defaults(command, config)}
    if ctx.invoked_subcommand is None:
        from .default_job import default_job

        ctx.exit(default_job(config))


main.params.extend(verbosity_options())
