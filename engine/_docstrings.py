"""Docstrings for the modules mypyc compiles (setup.py): a compiled module and its classes keep
none (help(Game) would show a bare signature), so each gives itself those of its source, which is
installed beside it. From source this does nothing."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path
from typing import Any


def restore(namespace: dict[str, Any]) -> None:
    """Set the module docstring and each top-level class's from the module's .py file, when the
    module (its `globals()`) runs compiled; methods' docstrings cannot be set and stay bare."""
    where = Path(namespace.get("__file__") or "")
    if where.suffix == ".py" or not where.name:
        return
    source = where.with_name(namespace["__name__"].rsplit(".", 1)[-1] + ".py")
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return  # no source beside it: the bare docstrings are all there is
    namespace["__doc__"] = ast.get_docstring(tree, clean=False)
    for node in tree.body:
        doc = ast.get_docstring(node, clean=False) if isinstance(node, ast.ClassDef) else None
        cls = namespace.get(node.name) if isinstance(node, ast.ClassDef) else None
        if doc is not None and isinstance(cls, type):
            with contextlib.suppress(AttributeError, TypeError):  # if refused: mypyc's signature
                cls.__doc__ = doc
