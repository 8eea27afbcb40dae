"""The engine's source (engine/ of this checkout) imported as pure Python, beside whatever build is
installed, so that a benchmark can hold it against a pure-Python baseline in the same process.

`pip install .` compiles engine/cards.py, state.py and game.py with mypyc; a baseline written in
Python (benchmarks/naive_engine.py, python-chess) runs interpreted. Comparing the two would credit
the compiler with what the benchmark means to say about the engine's design, so the headline ratios
compare like with like: this module's engine against the baseline, both interpreted, and the
compiled build against this one (the same code, compiled and not).

    from source_engine import source_engine
    engine = source_engine()          # a module: engine.Game, engine.game.build(), ...
    engine.Game(ruleset, 4)           # plays byte for byte as five35.engine.Game does

The copy is the package five35_source_engine, loaded from the .py files only (never an extension
module beside them); it imports five35.spec like the installed engine does.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent.parent / "engine"
NAME = "five35_source_engine"


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds NAME and its modules in ENGINE, as source files."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == NAME:
            return importlib.util.spec_from_file_location(
                NAME, ENGINE / "__init__.py", submodule_search_locations=[str(ENGINE)]
            )
        leaf = fullname.removeprefix(f"{NAME}.")
        if leaf != fullname and "." not in leaf and (ENGINE / f"{leaf}.py").is_file():
            return importlib.util.spec_from_file_location(fullname, ENGINE / f"{leaf}.py")
        return None


def source_engine() -> ModuleType:
    """The engine package imported from its source as pure Python (once per process)."""
    if not any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())
    module = importlib.import_module(NAME)
    build = importlib.import_module(f"{NAME}.game").build()
    if build != "pure Python":
        raise RuntimeError(f"{ENGINE}: the source copy of the engine runs as {build!r}")
    return module
