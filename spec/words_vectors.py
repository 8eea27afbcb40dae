"""The conformance vectors' section of the words file, built and checked (VectorWords)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .files import Key
from .words_model import (
    VECTOR_SENTENCE_BLANKS,
    VectorWords,
)
from .words_text import _blank_problems

# ---- the conformance vectors' words ----------------------------------------------------------


def _vector_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    # Only the sentences have blanks: `compare`, the titles and the reasons are printed as written.
    for name, text in section["sentences"].items():
        yield from _blank_problems(("vectors", "sentences", name), text, VECTOR_SENTENCE_BLANKS[name])


def _vectors(section: Mapping[str, Any]) -> VectorWords:
    return VectorWords(
        compare=section["compare"],
        not_observable=dict(section["not_observable"]),
        titles=dict(section["titles"]),
        sentences=dict(section["sentences"]),
    )
