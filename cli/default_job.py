"""What `535-check` does with no command: check the spec at level ci and write the report into
./535-report/, with the profile's clarified rulebooks in German, Spanish and English beside it
(rulebook.LANG.md and .html), then say where it went. The exit code is the one `check` would give.

The spec is the embedded one unless `[tool.five35]` in pyproject.toml names another (`spec`), and
that table's `profile`, `level` and `solver-rlimit` apply too."""

from __future__ import annotations

from typing import cast

from ..checks.findings import DEFAULT_SOLVER_RLIMIT, Level
from ..executor import ExecutorUnavailable, make_executor
from ..reports.rulebook import rulebook_files
from ..spec import SpecError, load_spec
from .common import DEFAULT_SEED
from .config import Config
from .report_cmd import DEFAULT_GAMES, DEFAULT_JOBS, DEFAULT_OUT, run_report


def default_job(config: Config | None = None) -> int:
    spec = load_spec(config.path_value("spec") if config is not None else None)
    profile = config.get("profile") if config is not None else None
    try:
        ruleset = spec.ruleset(profile)
    except SpecError as exc:
        if config is not None and exc.where == "--profile":
            raise SpecError(config.place("profile"), exc.message) from None
        raise
    level = cast(Level, config.get("level") or "ci") if config is not None else "ci"
    rlimit = config.get("solver-rlimit") if config is not None else None
    # The clarified rulebooks of the profile go beside the report, made before the long work.
    rulebooks = rulebook_files(spec, ruleset)
    kind = (config.get("executor") or "local") if config is not None else "local"
    scheduler = config.get("scheduler") if config is not None else None
    try:
        executor = make_executor(kind, DEFAULT_JOBS, scheduler)
    except ExecutorUnavailable as exc:
        assert config is not None  # the local default with no scheduler always works
        raise SpecError(
            config.place("scheduler" if exc.argument == "scheduler" else "executor"), str(exc)
        ) from None
    # No option names the directory here, so an error about it names the path.
    with executor:
        return run_report(
            spec,
            ruleset,
            DEFAULT_OUT,
            DEFAULT_GAMES,
            DEFAULT_SEED,
            level,
            place=f"./{DEFAULT_OUT}",
            extra_files=rulebooks,
            executor=executor,
            solver_rlimit=rlimit if rlimit is not None else DEFAULT_SOLVER_RLIMIT,
        )
