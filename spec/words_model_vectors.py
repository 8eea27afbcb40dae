"""The conformance vectors' words (the `vectors` section): the sentences of the suite and of its
runner with their blanks, and VectorWords."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .words_text import Sentences

#: The sentences of the conformance vectors (`vectors.sentences`): each one's name and its blanks.
VECTOR_SENTENCE_BLANKS: Mapping[str, frozenset[str]] = {
    "text_example": frozenset({"game"}),
    "no_setup": frozenset(),
    "not_refused": frozenset(),
    "no_such_deal": frozenset(),
    "not_observable": frozenset({"why"}),
    "one_reading": frozenset(),
    "not_found": frozenset({"bounds", "others"}),
    "search_bounds": frozenset(),
    "unshown": frozenset(),
    "clauses_not_claimed": frozenset({"game"}),
    "witness": frozenset({"point", "reading", "players", "move", "onto"}),
    "onto": frozenset({"move"}),
    "seeded": frozenset({"players", "seed"}),
    "done_scenes": frozenset(),
    "done_witnesses": frozenset(),
    "done_seeded": frozenset(),
    "not_object": frozenset({"got"}),
    "differs": frozenset({"field", "expected", "got"}),
    "unknown_fields": frozenset({"fields"}),
    "not_error": frozenset({"got"}),
    "missing": frozenset({"field"}),
    "not_list": frozenset({"got"}),
    "twice": frozenset(),
    "moves": frozenset({"lacks", "adds"}),
    "request": frozenset({"id", "type", "why"}),
    "other_readings": frozenset({"readings"}),
    "other_reading": frozenset({"point", "reading", "suite"}),
    "other_parameters": frozenset({"parameters"}),
}


@dataclass(frozen=True)
class VectorWords(Sentences):
    """The conformance vectors' words (the `vectors` section): index.json's `compare`, why each
    point the protocol cannot show is not shown (by point), each scene's title (by its slug), and
    the sentences of the suite and of its runner (VECTOR_SENTENCE_BLANKS), each written by calling
    it with the sentence's name and blanks."""

    compare: str
    not_observable: Mapping[str, str]
    titles: Mapping[str, str]
