"""Run Hypothesis without touching the user's directory and independent of what else is loaded.

Used by every Hypothesis-driven check and by the fuzzer, so that the same seed generates the same
examples whether five35 runs from the command line, inside a test suite, or from a notebook.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis.configuration import set_hypothesis_home_dir, storage_directory


@contextmanager
def private_hypothesis_home() -> Iterator[None]:
    """Keep Hypothesis out of the user's directory and independent of what else is imported.

    Even with database=None, Hypothesis collects constants from the source of every "local" module
    that is loaded, mixes them into generation, and caches them under `.hypothesis/` in the current
    directory. So what it generates would depend on the modules loaded and on where five35 is
    installed, and it would write into the user's directory. For the duration, storage goes to a
    temporary directory and the local constants are switched off.
    """
    from hypothesis.internal.conjecture import providers

    previous = storage_directory(intent_to_write=False).home_directory
    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    with tempfile.TemporaryDirectory(prefix="five35-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        if original is not None:
            empty = providers.Constants()  # type: ignore[attr-defined]
            providers._get_local_constants = lambda: empty
        if isinstance(cache, dict):
            cache.clear()  # constants chosen before, with local ones mixed in
        try:
            yield
        finally:
            set_hypothesis_home_dir(previous)
            if original is not None:
                providers._get_local_constants = original
            if isinstance(cache, dict):
                cache.clear()
