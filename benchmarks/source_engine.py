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

The copy is the package five35_source.engine, loaded from the .py files only (never an extension
module beside them). Its imports of the spec are relative (`..spec`), as in the installed package:
five35_source.spec and its modules are the installed five35.spec's, the same module objects, so
that a Ruleset is one type for both engines.
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
PARENT = "five35_source"
NAME = f"{PARENT}.engine"


class _Installed(importlib.abc.Loader):
    """Hands out an installed module under the copy's name (five35_source.spec -> five35.spec)."""

    def __init__(self, installed: str) -> None:
        self.installed = installed

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.installed)

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed, under its own name


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds NAME and its modules in ENGINE, as source files; the rest of PARENT is five35's."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == PARENT:
            return importlib.machinery.ModuleSpec(PARENT, None, is_package=True)
        if fullname.startswith(f"{PARENT}.") and not (fullname == NAME or fullname.startswith(f"{NAME}.")):
            installed = "five35" + fullname.removeprefix(PARENT)
            return importlib.machinery.ModuleSpec(fullname, _Installed(installed))
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
