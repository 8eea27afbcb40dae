"""Run every check against an engine: the library behind `535-check check`.

`run_checks(spec, ruleset, level=..., seed=...)` runs the registered checks (CHECKS, each a `Check`
with the one name it is known by everywhere) in order and returns a `CheckRun`: every CheckResult,
the totals, the findings deduplicated by id, the failures. A baseline file records known finding
ids so that CI can fail on new findings only.

A check that raises is itself a failure of that check (named, with the exception), never a crash
of the run: the engine under check may be broken in any way. Its result also carries the error
(`CheckResult.error`: the traceback's last line, and whether the traceback passes through the
engine under check), so that JUnit can say <error> rather than <failure>. A solver that answers
"unknown" is a plain failure of the check that asked (`SolverUnknown`), naming the resource limit
each query ran under (`solver_rlimit`) and how to raise it. A check that does not use
the engine (`Check.uses_engine` false) is given the reference engine, so that no crash of the
engine under check can reach it; a check not registered for the level is reported skipped. A check
that examined nothing (`CheckResult.examined_count` 0) gets a warning, so that no output calls it ok.

Given an executor (`check` passes one at levels ci and deep; without one, or at level quick from
the CLI, the checks run here one by one), the checks are units of the one executor
(five35.executor: worker processes, or a Dask cluster): each check is a pure function of
(spec, ruleset, level, seed, engine, check name), and the results are assembled in CHECKS order,
so the run's JSON is the same as a serial run's, byte for byte.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import tempfile
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine.engines import engine_for, engine_note, lacks_words, reference_lacks
from ..engine.simulate import DEFAULT_SEED
from ..executor import Executor, LocalExecutor, describes_units
from ..spec import Ruleset, Spec, other_game
from ..spec.limits import MAX_FILE_BYTES, InputLimitError, load_json
from ..spec.vocabulary import UnimplementedReading
from ..spec.words import embedded_words
from ..spec.words_model import CheckWords, Words
from .findings import (
    DEFAULT_SOLVER_RLIMIT,
    LEVELS,
    MAX_SOLVER_RLIMIT,
    STATUS_WORDS,
    Check,
    CheckContext,
    CheckError,
    CheckResult,
    EngineFactory,
    Failure,
    Finding,
    Level,
    ModelLimit,
    SolverUnknown,
)

BASELINE_FORMAT = "five35-baseline/1"
RUN_FORMAT = "five35-check/1"


class _Deferred:
    """A check's function, imported where the check first runs: a command that fails on a bad
    argument, or that prints its help, does not import every check's libraries (Z3, Hypothesis,
    networkx) first."""

    __slots__ = ("_fn", "function", "module")

    def __init__(self, module: str, function: str) -> None:
        self.module = module
        self.function = function
        self._fn: Callable[[CheckContext], CheckResult] | None = None

    def load(self) -> Callable[[CheckContext], CheckResult]:
        fn = self._fn
        if fn is None:
            fn = self._fn = getattr(importlib.import_module(self.module, __package__), self.function)
        return fn

    def __call__(self, ctx: CheckContext) -> CheckResult:
        return self.load()(ctx)

    def __reduce__(self) -> tuple[type[_Deferred], tuple[str, str]]:
        return type(self), (self.module, self.function)


#: Every check of `535-check check`, in the order they run, each under the one name it is known by
#: (its title is the words file's, `checks.titles`: check_title).
CHECKS: tuple[Check, ...] = (
    Check(
        "conformance",
        _Deferred(".play.conformance", "check_conformance"),
    ),
    Check(
        "interpreter",
        _Deferred(".play.interpreter", "check_interpreter"),
    ),
    Check(
        "proofs",
        _Deferred(".solver.proofs", "check_proofs"),
        uses_engine=False,
    ),
    Check(
        "divergence",
        _Deferred(".solver.divergence", "check_divergence"),
        # The witness searches take several seconds: not at level quick.
        levels=("ci", "deep"),
    ),
    Check(
        "text_examples",
        _Deferred(".text.text_examples", "check_text_examples"),
        uses_engine=False,
    ),
    Check(
        "dead_clauses",
        _Deferred(".text.dead_clauses", "check_dead_clauses"),
        uses_engine=False,
        levels=("ci", "deep"),
    ),
    Check(
        "invariants.matches",
        _Deferred(".play.matches", "check_matches"),
    ),
    Check(
        "graphs.succession",
        _Deferred(".play.graphs", "check_succession"),
    ),
    Check(
        "graphs.beats",
        _Deferred(".play.graphs", "check_beats"),
    ),
    Check(
        "graphs.endgames",
        _Deferred(".play.graphs", "check_endgames"),
    ),
    Check(
        "text_audit",
        _Deferred(".text.text_audit", "check_text_audit"),
        # It reads the texts; the engine only draws its witness scenes, so the reference draws them.
        uses_engine=False,
        # The spec's own sources, clauses, parameters and points: another game's as much as 535's
        # (535's German/Spanish mismatches and scenes are in 535's words, which it does not borrow).
        other_games=True,
    ),
    Check(
        "discovery.decisions",
        # It plays the reference engine against the other choices, never the engine under check.
        _Deferred(".discovery.decisions", "check_decisions"),
        reference_only=True,
    ),
    Check(
        "discovery.mutants",
        _Deferred(".discovery.silences", "check_mutants"),
        # It plays the reference engine against its mutants, never the engine under check.
        uses_engine=False,
        reference_only=True,
    ),
    Check(
        "discovery.rules",
        _Deferred(".discovery.rules.check", "check_rule_mutants"),
        # Its mutants are classified one by one: at level deep, four units of contiguous blocks.
        shards=4,
        # Its silences are findings at every level, but the report's job (at level ci, the
        # default) would ask questions of a seeded handful of mutants: it runs the check at level
        # deep, where every mutant is classified.
        report_levels=("deep",),
        # It mutates the spec's rules and plays them with the spec interpreter, never the engine
        # under check.
        uses_engine=False,
    ),
    Check(
        "discovery.liveness",
        _Deferred(".discovery.liveness", "check_liveness"),
        # It proves properties of the rules; its exhaustive searches play the reference engine.
        uses_engine=False,
    ),
    Check(
        "discovery.interactions",
        _Deferred(".discovery.interactions", "check_interactions"),
        # A question about the spec's rules: the reference engine plays the orders, so a broken
        # engine under check (caught by the other checks) cannot stop it.
        uses_engine=False,
        reference_only=True,
    ),
)


#: The invariant under which the checks that catch an exception of the engine under check report it
#: (as a failure with its witness, checks/play/matches.py and checks/play/graphs.py): an engine crash.
ENGINE_RAISED = "engine.raised"


def is_engine_crash(failure: Failure) -> bool:
    """A failure that is the engine under check raising, not the engine deciding differently."""
    return failure.message.split(":", 1)[0].strip() == ENGINE_RAISED


class BaselineError(ValueError):
    """A baseline file that cannot be read; str() is one line naming the file."""


def load_checks(checks: Iterable[Check] = CHECKS) -> None:
    """Import the checks' modules here, before any worker process is forked: each worker then
    inherits them instead of importing Z3, Hypothesis and the rest again (about 0.5 s a worker)."""
    for check in checks:
        if isinstance(check.run, _Deferred):
            check.run.load()


def all_checks() -> tuple[Check, ...]:
    """Every registered check, in the order they run."""
    return CHECKS


def _matches(wanted: str, name: str) -> bool:
    group, _, short = name.partition(".")
    return wanted in (name, group, short)


def select_checks(only: Iterable[str] | None) -> list[Check]:
    """The checks whose name, or the part of it before or after its dot ("graphs", "beats"), is in
    `only` (all when None).

    Raises ValueError naming an entry that matches nothing, or an empty one (which would otherwise
    match the empty part after the dot of every name without one, i.e. nearly everything).
    """
    checks = list(all_checks())
    if only is None:
        return checks
    wanted = list(only)
    known = ", ".join(c.name for c in checks)
    for w in wanted:
        if not w.strip():
            raise ValueError(f"only: expected a check name, got an empty string (checks: {known})")
        if not any(_matches(w, c.name) for c in checks):
            raise ValueError(f"no check called {w!r} (checks: {known})")
    return [c for c in checks if any(_matches(w, c.name) for w in wanted)]


@dataclass(frozen=True)
class CheckRun:
    """The outcome of one `run_checks`: everything a summary, a CI gate or a report needs."""

    spec_path: str
    ruleset: Ruleset
    level: Level
    seed: int
    engine: str
    results: tuple[CheckResult, ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding once (the first check to make an id wins, naming the others), by id."""
        seen: dict[str, Finding] = {}
        for result in self.results:
            for f in result.findings:
                first = seen.setdefault(f.id, f)
                if first is not f and f.check != first.check and f.check not in first.also_by:
                    seen[f.id] = replace(first, also_by=(*first.also_by, f.check))
        return tuple(seen[i] for i in sorted(seen))

    @property
    def failures(self) -> tuple[Failure, ...]:
        """Every failure, a raised check's one included."""
        return tuple(f for r in self.results for f in r.failures)

    @property
    def errors(self) -> tuple[CheckResult, ...]:
        """The checks that raised instead of finishing."""
        return tuple(r for r in self.results if r.error is not None)

    @property
    def skipped(self) -> tuple[CheckResult, ...]:
        """The checks not run at this level."""
        return tuple(r for r in self.results if r.skipped is not None)

    @property
    def warned(self) -> tuple[CheckResult, ...]:
        """The checks that ran with a warning (one that examined nothing, above all)."""
        return tuple(r for r in self.results if r.warnings and r.skipped is None and r.error is None)

    @property
    def engine_crashed(self) -> bool:
        """The engine under check raised: a check stopped in it, or a check caught it (engine.raised)."""
        return any(r.error is not None and r.error.in_engine for r in self.results) or any(
            is_engine_crash(f) for f in self.failures
        )

    @property
    def ok(self) -> bool:
        return not self.failures and not self.errors

    def totals(self) -> dict[str, int]:
        return {
            "checks": len(self.results),
            "exhaustive": sum(r.exhaustive for r in self.results),
            "generated": sum(r.generated for r in self.results),
            "proofs": sum(r.proofs for r in self.results),
            "findings": len(self.findings),
            "failures": len(self.failures),
            "errors": len(self.errors),
            "skipped": len(self.skipped),
            "warnings": len(self.warned),
        }

    def new_findings(self, baseline: frozenset[str] | None) -> tuple[Finding, ...]:
        """Findings whose id the baseline does not hold (all of them without a baseline)."""
        if baseline is None:
            return self.findings
        return tuple(f for f in self.findings if f.id not in baseline)

    def passed(self, *, strict: bool = False, baseline: frozenset[str] | None = None) -> bool:
        """The CI verdict: no failure, and under `strict` no new finding."""
        return self.ok and not (strict and self.new_findings(baseline))

    def to_json(
        self,
        baseline: frozenset[str] | None = None,
        *,
        strict: bool = False,
        words: Words | None = None,
    ) -> dict[str, Any]:
        """Everything but timings, so the same seed gives byte-identical JSON. `words` (the spec's
        words file's; the embedded one's by default) word which engine played and each finding's
        status."""
        words = words or embedded_words()
        status = words.check(STATUS_WORDS)
        new = {f.id for f in self.new_findings(baseline)}
        return {
            "format": RUN_FORMAT,
            "spec": self.spec_path,
            "ruleset": self.ruleset.to_json(),
            "ruleset_label": self.ruleset.label(),
            "level": self.level,
            "seed": self.seed,
            "engine": self.engine,
            "rules_played_by": engine_note(self.ruleset, words.engines),
            "ok": self.passed(strict=strict, baseline=baseline),
            "strict": strict,
            "baseline": sorted(baseline) if baseline is not None else None,
            "totals": {**self.totals(), "new_findings": len(new)},
            "checks": [r.to_json(status) for r in self.results],
            "findings": [{**f.to_json(status), "new": f.id in new} for f in self.findings],
            "failures": [f.to_json() for f in self.failures],
        }


def engine_name(engine: EngineFactory) -> str:
    module = getattr(engine, "__module__", "?")
    name = getattr(engine, "__qualname__", getattr(engine, "__name__", repr(engine)))
    return f"{module}.{name}"


Progress = Callable[[str, CheckResult], None]
_observers: ContextVar[tuple[Progress, ...]] = ContextVar("five35_check_observers", default=())


@contextmanager
def observing(progress: Progress) -> Iterator[None]:
    """Call `progress(name, result)` after each check of every `run_checks` inside the block, also
    those a caller further down makes (the report job runs the checks for a command that wants to
    show how far they are)."""
    token = _observers.set((*_observers.get(), progress))
    try:
        yield
    finally:
        _observers.reset(token)


def run_checks(
    spec: Spec,
    ruleset: Ruleset,
    *,
    level: Level = "ci",
    seed: int = DEFAULT_SEED,
    engine: EngineFactory | None = None,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    solver_rlimit: int = DEFAULT_SOLVER_RLIMIT,
) -> CheckRun:
    """Run the checks (all, or those named in `only`) of the engine against the spec's rules.

    Every check gets the same seed; each derives its own random choices from it. Every Z3 query
    runs under the resource limit `solver_rlimit` (a count of Z3's steps, never a time). With an
    `executor`, and at level deep always, every check is a unit of it (default: this process); the
    engine factory then goes to the workers, so it must be picklable (a class or function at
    module level). Without `engine`, the engine that plays the rules is checked: the reference
    engine where it implements them, the spec interpreter elsewhere.
    """
    if engine is None:
        engine = engine_for(ruleset)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    started = time.perf_counter()
    if not 1 <= solver_rlimit <= MAX_SOLVER_RLIMIT:
        raise ValueError(f"solver_rlimit must be between 1 and {MAX_SOLVER_RLIMIT:,}, not {solver_rlimit:,}")
    ctx = CheckContext(
        spec=spec, ruleset=ruleset, level=level, seed=seed, engine=engine, solver_rlimit=solver_rlimit
    )
    results: list[CheckResult] = []
    observers = (*_observers.get(), *([progress] if progress is not None else []))
    checks = select_checks(only)
    load_checks(checks)
    # `check --level ci` passes an executor too (its checks side by side within 15 s, issue 12).
    if level == "deep" or executor is not None:
        # An engine that cannot travel (a closure, a lambda) is checked here, one check at a time.
        runner = executor if executor is not None and _picklable(engine) else LocalExecutor(1)
        # A check split into units (`Check.shards`, at level deep) is one unit per share.
        units = [(c.name, i, _shards(c, level)) for c in checks for i in range(_shards(c, level))]
        n = len(units)
        outcomes = _merged(
            checks,
            runner.map(
                _run_unit,
                [spec] * n,
                [ruleset] * n,
                [level] * n,
                [seed] * n,
                [engine] * n,
                [name for name, _, _ in units],
                [solver_rlimit] * n,
                [(i, count) for _, i, count in units],
            ),
            level,
        )
    else:
        outcomes = (_run_one(check, ctx) for check in checks)
    # Closed on any way out, so that an interrupt stops the checks still running in workers too.
    with contextlib.closing(outcomes):
        for check, result in zip(checks, outcomes, strict=True):
            results.append(result)
            for observer in observers:
                observer(check.name, result)
    return CheckRun(
        spec_path=str(spec.path),
        ruleset=ruleset,
        level=level,
        seed=seed,
        engine=engine_name(engine),
        results=tuple(results),
        seconds=time.perf_counter() - started,
    )


def _merged(
    checks: Sequence[Check], outcomes: Generator[CheckResult, None, None], level: Level
) -> Generator[CheckResult, None, None]:
    """One result per check from the results of its units, in order (closing them on any way out,
    so that an interrupt stops the units still running)."""
    with contextlib.closing(outcomes):
        for check in checks:
            yield CheckResult.merged([next(outcomes) for _ in range(_shards(check, level))])


def _shards(check: Check, level: Level) -> int:
    return check.shards if level == "deep" else 1


def _picklable(engine: EngineFactory) -> bool:
    try:
        pickle.dumps(engine)
    except Exception:
        return False
    return True


@describes_units(lambda spec, ruleset, level, seed, engine, name, *_: f"the check {name}")
def _run_unit(
    spec: Spec,
    ruleset: Ruleset,
    level: Level,
    seed: int,
    engine: EngineFactory,
    name: str,
    solver_rlimit: int,
    shard: tuple[int, int] = (0, 1),
) -> CheckResult:
    # Module-level and positional: what an executor can send to another process or machine.
    check = next(c for c in all_checks() if c.name == name)
    ctx = CheckContext(
        spec=spec,
        ruleset=ruleset,
        level=level,
        seed=seed,
        engine=engine,
        solver_rlimit=solver_rlimit,
        shard=shard,
    )
    return _run_one(check, ctx)


def check_title(check: Check, words: Words) -> str:
    """A check's one-line title: the words file's (`checks.titles`), or the check's own where it
    brings one (a check a test makes up, which the words file does not know)."""
    return check.title or words.check(check.name).title or check.name


def _own(say: CheckWords, sentence: str, check: str) -> str:
    """The runner's sentence for one check (`bound_to_535.<check>`), or the one for any check
    where it has none of its own (a check a test makes up)."""
    return say.sentences.get(f"{sentence}.{check}", say.sentences[sentence])


def _run_one(check: Check, ctx: CheckContext) -> CheckResult:
    """One check's result under the check's registered name and title, whatever it calls itself;
    a check that raises is a failure under that same name."""
    words = ctx.words
    title = check_title(check, words)
    say = words.check("runner")
    if ctx.level not in check.levels:
        reason = say("level", level=ctx.level, levels=say("and").join(check.levels))
        return CheckResult(name=check.name, title=title, seconds=0.0, skipped=reason, notes=(reason,))
    foreign = other_game(ctx.spec)
    if foreign is not None and not check.other_games:
        # Not "these rules are not 535's, rule by rule": another game is not 535 at all.
        reason = say("other_game", bound=_own(say, "bound_to_535", check.name), game=foreign)
        return CheckResult(name=check.name, title=title, seconds=0.0, skipped=reason, notes=(reason,))
    lacks = reference_lacks(ctx.ruleset)
    if check.reference_only and lacks is not None:
        why = _own(say, "reference_only", check.name)
        reason = say("not_reference", why=why, lacks=lacks_words(lacks, words.engines))
        return CheckResult(name=check.name, title=title, seconds=0.0, skipped=reason, notes=(reason,))
    if not check.uses_engine:
        # The engine that plays these rules, never the engine under check: see Check.uses_engine.
        ctx = replace(ctx, engine=engine_for(ctx.ruleset))
    started = time.perf_counter()
    left_out: list[str] = []
    try:
        while True:
            try:
                result = check.run(ctx)
                break
            except UnimplementedReading as exc:
                if not _can_leave_out(ctx, exc):
                    raise
                # A sweep over the spec's readings met one its own component cannot play or model
                # (a reading a spec copy adds): the check sweeps the others and says which it left
                # out, rather than stopping or playing that reading as another.
                left_out.append(f"{exc.point}={exc.reading}")
                ctx = replace(ctx, spec=_leave_out(ctx.spec, exc.point, exc.reading))
    except SolverUnknown as exc:
        rlimit = exc.rlimit or ctx.solver_rlimit
        message = say("unknown", reason=exc.reason, rlimit=f"{rlimit:,}", option=say("raise_rlimit"))
        return CheckResult(
            name=check.name,
            title=title,
            seconds=time.perf_counter() - started,
            failures=(Failure(check=check.name, message=message),),
        )
    except ModelLimit as exc:
        # Rules the Z3 model cannot represent (a house rule, another game): the model can say
        # nothing of them, which is a reason to skip, never a failure or a fake answer.
        reason = say("model_limit", error=exc)
        return CheckResult(
            name=check.name,
            title=title,
            seconds=time.perf_counter() - started,
            skipped=reason,
            notes=(reason,),
        )
    except Exception as exc:
        # The engine under check (or a spec) can make any check fall over; that is a failure to
        # report with its cause, not a reason to lose the other checks' results.
        last = traceback.format_exception_only(exc)[-1].strip()
        error = CheckError(
            message=last,
            traceback="".join(traceback.format_exception(exc)),
            in_engine=_through_engine(exc, ctx.engine),
        )
        return CheckResult(
            name=check.name,
            title=title,
            seconds=time.perf_counter() - started,
            failures=(Failure(check=check.name, message=say("stopped", error=last)),),
            error=error,
        )
    warnings = (*result.warnings, *(say("left_out", reading=reading) for reading in left_out))
    if result.examined_count == 0 and not warnings and result.skipped is None:
        warnings = (say("nothing"),)
    # Timed here, for every check alike: a check's own figure may leave out part of its work.
    seconds = time.perf_counter() - started
    return replace(result, name=check.name, title=title, warnings=warnings, seconds=seconds)


def _can_leave_out(ctx: CheckContext, exc: UnimplementedReading) -> bool:
    """Whether a check can go on without the reading it refused: one of the spec's playable
    readings that the ruleset under check does not play (that one is never left out: the check is
    then about rules it cannot play, which reference_only or the error says)."""
    vp = ctx.spec.variation_points.get(exc.point)
    return (
        vp is not None and exc.reading in vp.readings and ctx.ruleset.readings.get(exc.point) != exc.reading
    )


def _leave_out(spec: Spec, point: str, reading: str) -> Spec:
    """The spec as a check sees it without one reading: kept as a proposal (listed, never played),
    so that every sweep over the point's readings and every profile that takes it passes it by."""
    vp = spec.variation_points[point]
    points = {**spec.variation_points, point: replace(vp, unimplemented=vp.unimplemented | {reading})}
    return replace(spec, variation_points=points)


def _engine_modules(engine: EngineFactory) -> set[str]:
    """The modules the engine's code lives in: the factory's, and its base classes' for a class."""
    modules = {getattr(engine, "__module__", "")}
    if isinstance(engine, type):
        modules |= {cls.__module__ for cls in engine.__mro__ if cls is not object}
    return modules - {""}


def _through_engine(exc: BaseException, engine: EngineFactory) -> bool:
    modules = _engine_modules(engine)
    frames = traceback.walk_tb(exc.__traceback__)
    return any(frame.f_globals.get("__name__") in modules for frame, _ in frames)


# ---- baselines ----------------------------------------------------------------------------------


def baseline_data(run: CheckRun) -> dict[str, Any]:
    return {
        "format": BASELINE_FORMAT,
        "spec": run.spec_path,
        "findings": [{"id": f.id, "kind": f.kind, "title": f.title} for f in run.findings],
    }


def load_baseline(path: str | Path) -> frozenset[str]:
    """The finding ids a baseline file records; BaselineError (one line, naming the file) when it
    cannot be used. Read through the input limits: at most MAX_FILE_BYTES, nested at most
    MAX_DEPTH levels."""
    where = str(path)
    try:
        with open(path, "rb") as handle:
            # One byte over the limit is enough to refuse it; a huge or endless file is never read whole.
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise BaselineError(f"{where}: cannot read baseline ({exc.strerror or exc})") from None
    try:
        data = load_json(raw, where, unique_keys=True)
    except InputLimitError as exc:
        raise BaselineError(str(exc)) from None
    if not isinstance(data, Mapping) or data.get("format") != BASELINE_FORMAT:
        raise BaselineError(
            f'{where}: format: not a five35 baseline (expected "format": "{BASELINE_FORMAT}"; '
            "write one with --write-baseline)"
        )
    entries = data.get("findings")
    if not isinstance(entries, list):
        raise BaselineError(f'{where}: findings: expected a list of {{"id": ...}} entries')
    ids: set[str] = set()
    for i, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, Mapping) else entry
        if not isinstance(ident, str) or not ident:
            raise BaselineError(f"{where}: findings[{i}]: expected an entry with a non-empty string id")
        ids.add(ident)
    return frozenset(ids)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write beside the target, then rename: a reader never sees half a file."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def baseline_text(run: CheckRun) -> str:
    """The baseline file of a run, as text (what `save_baseline` writes)."""
    from ..spec import dumps

    return dumps(baseline_data(run)) + "\n"


def save_baseline(run: CheckRun, path: str | Path) -> None:
    write_text_atomic(path, baseline_text(run))
