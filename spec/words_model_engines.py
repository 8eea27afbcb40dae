"""The engines' words (the `engines` section of the words file): which engine played a ruleset, and
why the reference engine does not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .words_text import Sentences

#: The blanks each sentence of the `engines` section may use.
ENGINE_BLANKS: Mapping[str, frozenset[str]] = {
    "played_by": frozenset({"engine"}),
    "played_by_other": frozenset({"interpreter", "reference", "why"}),
    "no_reading": frozenset({"point", "reading"}),
    "no_rules": frozenset(),
    "changed_one": frozenset({"rules"}),
    "changed_many": frozenset({"rules"}),
    "missing_one": frozenset({"rules"}),
    "missing_many": frozenset({"rules"}),
    "added_one": frozenset({"rules"}),
    "added_many": frozenset({"rules"}),
    "apart_joint": frozenset(),
    "unchosen": frozenset({"points"}),
}


@dataclass(frozen=True)
class EngineWords(Sentences):
    """The engines' words (the `engines` section): which engine played a ruleset, and why the
    reference engine does not (ENGINE_BLANKS), each written by calling it with the sentence's name
    and blanks (five35.engine.engines words a `ReferenceLacks` with them)."""
