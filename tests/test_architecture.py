"""The imports run one way: executor -> spec -> engine -> protocol -> checks -> reports -> cli, with no
circle (the executor, which runs any pure function over units, imports nothing of five35).

Read from the source as text (ast), as a tool that draws the structure reads it: every import
counts, the late ones inside functions and those only for the type checker included, because each is
an arrow a reader follows. Inside the package every import is relative, so that such a tool can
resolve it to a file without knowing how the folders install.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The floors, lowest first: a package may import its own floor's modules and those below.
FLOORS = ("executor", "spec", "engine", "protocol", "checks", "reports", "cli")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted (five35.checks.runner)
    target: str  # the module it names, dotted
    place: str  # file:line

    @property
    def floors(self) -> tuple[int, int]:
        return FLOORS.index(self.source.split(".")[1]), FLOORS.index(self.target.split(".")[1])


def _modules() -> dict[str, Path]:
    modules = {"five35": ROOT / "__init__.py"}
    for folder in FLOORS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = ["five35", *path.relative_to(ROOT).with_suffix("").parts]
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module of ours that `name` names (a name imported from a module gives the module)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in MODULES and name != "five35" else None


def _imports(module: str, path: Path) -> Iterator[tuple[ast.stmt, str]]:
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                start = ".".join([*base, node.module] if node.module else base)
            else:
                start = node.module or ""
            for alias in node.names:
                yield node, f"{start}.{alias.name}"


def _graph() -> tuple[list[Import], list[str]]:
    imports: list[Import] = []
    absolute: list[str] = []
    for module, path in MODULES.items():
        for node, name in _imports(module, path):
            place = f"{path.relative_to(ROOT)}:{node.lineno}"
            if not getattr(node, "level", 0) and name.split(".")[0] == "five35":
                absolute.append(place)
            target = _resolve(name)
            if target is not None and target != module:
                imports.append(Import(module, target, place))
    return imports, absolute


@functools.cache
def import_graph() -> tuple[list[Import], list[str]]:
    """The import graph, read once in the worker process that runs these tests (tests/scheduling.py),
    not at import in every worker that collects this module."""
    return _graph()


def test_the_graph_is_read_at_all() -> None:
    # A reader that found no imports would pass every test below.
    assert len(import_graph()[0]) > 300
    assert {i.floors[1] for i in import_graph()[0]} == set(range(len(FLOORS)))


def test_no_package_imports_one_above_it() -> None:
    against = [
        f"{i.place}: {i.source} imports {i.target}" for i in import_graph()[0] if i.floors[1] > i.floors[0]
    ]
    assert not against, "\n".join(against)


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = nx.DiGraph()
    places = {}
    for i in import_graph()[0]:
        graph.add_edge(i.source, i.target)
        places[i.source, i.target] = i.place
    circles = [
        " -> ".join(f"{a} ({places[a, b]})" for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True))
        for cycle in nx.simple_cycles(graph)
    ]
    assert not circles, "\n".join(circles)


def test_inside_the_package_every_import_is_relative() -> None:
    assert not import_graph()[1], (
        "absolute imports of five35 (a tool reading the source cannot place them): "
        + ", ".join(import_graph()[1])
    )


@pytest.mark.parametrize(
    ("source", "line", "target"),
    [
        ("five35.spec.model", "from ..engine.game import Game", "five35.engine.game"),
        ("five35.engine.game", "    from ..checks import findings", "five35.checks.findings"),
        ("five35.protocol.client", "import five35.reports.build", "five35.reports.build"),
    ],
)
def test_the_reader_ranks_a_planted_import_against_the_flow(
    source: str, line: str, target: str, tmp_path: Path
) -> None:
    path = tmp_path / "planted.py"
    path.write_text(
        f"def f() -> None:\n{line if line.startswith(' ') else '    ' + line}\n", encoding="utf-8"
    )
    [(node, name)] = list(_imports(source, path))
    assert _resolve(name) == target
    planted = Import(source, target, f"planted.py:{node.lineno}")
    assert planted.floors[1] > planted.floors[0]


def test_every_package_folder_is_installed() -> None:
    # setuptools installs only the packages pyproject.toml lists: a sub-package left out imports
    # from a checkout but is missing from the wheel.
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    )
    folders = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    assert listed == folders, (
        f"not listed: {sorted(folders - listed)}; listed, no folder: {sorted(listed - folders)}"
    )
