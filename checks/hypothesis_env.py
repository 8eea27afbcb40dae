"""Run Hypothesis without touching the user's directory and independent of what else is loaded.

Used by every Hypothesis-driven check and by the fuzzer, so that the same seed generates the same
examples whether five35 runs from the command line, inside a test suite, or from a notebook:

- `hypothesis_settings` gives every setting explicitly, so neither the profile Hypothesis loads when
  it detects CI nor a profile the user registered changes a run.
- `private_hypothesis_home` keeps Hypothesis's files in a temporary directory and switches off its
  "local constants" (see there).

Hypothesis has no public switch for the local constants (settings, phases, derandomize, database,
the HYPOTHESIS_* variables and `set_hypothesis_home_dir` leave them on; Hypothesis's own tests patch
the same function), so `private_hypothesis_home` replaces one private function. Its shape is
checked every time (`HypothesisIncompatible` otherwise, never a silent no-op), and pyproject.toml
pins Hypothesis to `SUPPORTED_HYPOTHESIS`, the releases whose source was read for it (6.152.0 to
6.165.10: the function, `Constants` and `CONSTANTS_CACHE` are unchanged there, and
`storage_directory` returns a `StorageDirectory`). tests/checks/test_hypothesis_env.py fails when an
installed release breaks any of this.
"""

from __future__ import annotations

import inspect
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

#: The Hypothesis releases this module was checked against; pyproject.toml pins the same range.
SUPPORTED_HYPOTHESIS = ">=6.152,<6.166"


class HypothesisIncompatible(RuntimeError):
    """The installed Hypothesis changed a private piece five35 relies on. `str()` is one line."""


def hypothesis_settings(examples: int, *, steps: int = 50, explain: bool = False) -> settings:
    """The settings of every Hypothesis run five35 makes.

    `examples` is max_examples, `steps` the state machines' step count; `explain` adds Hypothesis's
    explain phase (extra runs after shrinking). No database, no deadline, no health checks, no
    output: a run's examples depend on its seed alone.
    """
    phases = [Phase.explicit, Phase.generate, Phase.shrink]
    if explain:
        phases.append(Phase.explain)
    return settings(
        settings.get_profile("default"),
        max_examples=examples,
        stateful_step_count=steps,
        derandomize=True,  # a run without a seed is still the same run; a seed overrides it
        database=None,
        deadline=None,
        print_blob=False,
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        backend="hypothesis",
    )


def local_constants_hook() -> tuple[Any, Callable[[], Any]]:
    """Hypothesis's providers module and its private `_get_local_constants`, after checking that
    everything `private_hypothesis_home` replaces still has the shape it was written for."""
    from hypothesis.internal.conjecture import providers

    problem = None
    found = getattr(providers, "_get_local_constants", None)
    if not callable(found):
        problem = "has no _get_local_constants"
    elif any(
        p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in inspect.signature(found).parameters.values()
    ):
        problem = f"_get_local_constants takes arguments {inspect.signature(found)}"
    elif not isinstance(getattr(providers, "Constants", None), type):
        problem = "has no Constants class"
    elif not isinstance(getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None), dict):
        problem = "has no CONSTANTS_CACHE.cache dict"
    elif not hasattr(storage_directory(intent_to_write=False), "home_directory"):
        problem = "storage_directory() has no home_directory"
    if problem is not None:
        raise HypothesisIncompatible(
            f"hypothesis {hypothesis.__version__}: hypothesis.internal.conjecture.providers {problem}; "
            f"five35 needs it to generate the same examples wherever it runs "
            f"(install hypothesis{SUPPORTED_HYPOTHESIS})"
        )
    assert found is not None
    return providers, found


@contextmanager
def private_hypothesis_home() -> Iterator[None]:
    """Keep Hypothesis out of the user's directory and independent of what else is imported.

    Even with database=None, Hypothesis collects constants from the source of every "local" module
    that is loaded, mixes them into generation, and caches them under `.hypothesis/` in the current
    directory. So what it generates would depend on the modules loaded and on where five35 is
    installed, and it would write into the user's directory. For the duration, storage goes to a
    temporary directory and the local constants are switched off. Raises HypothesisIncompatible if
    the installed Hypothesis no longer has what is switched off.
    """
    providers, original = local_constants_hook()
    previous = storage_directory(intent_to_write=False).home_directory
    cache: dict[Any, Any] = providers.CONSTANTS_CACHE.cache
    with tempfile.TemporaryDirectory(prefix="five35-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty
        cache.clear()  # constants chosen before, with local ones mixed in
        try:
            yield
        finally:
            set_hypothesis_home_dir(previous)
            providers._get_local_constants = original
            cache.clear()
