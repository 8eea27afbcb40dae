"""A sentence of the words file named with its blanks, written out only where a reader sees it.

The oracle's questions (oracle.py, universal.py) answer an engine with why it contradicts a clause.
They are asked of mutants whose trials are remembered across checks and specs, and of the spec
interpreter behind other checks, so they answer with the sentence's name and blanks (`Said`) rather
than the words: the words are the ones of the spec whose finding or note shows the answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...spec.words_model import Words

#: The words file's sections (`checks.sentences`) whose sentences the answers name.
ORACLE = "discovery.oracle"
UNIVERSAL = "discovery.universal"

#: A blank's value: a number, a pile, a move, an id (written as format() writes it), another
#: sentence, or several sentences listed with ", ".
Blank = object


@dataclass(frozen=True)
class Said:
    """Sentence `name` of section `section` with its blanks (name, value), in the order given."""

    section: str
    name: str
    blanks: tuple[tuple[str, Blank], ...] = ()

    def text(self, words: Words) -> str:
        """The sentence in `words`, its blanks filled in (a blank that is a sentence written first)."""
        return words.check(self.section)(self.name, **{k: _written(v, words) for k, v in self.blanks})


def _written(value: Blank, words: Words) -> Blank:
    if isinstance(value, Said):
        return value.text(words)
    if isinstance(value, tuple) and value and all(isinstance(v, Said) for v in value):
        return ", ".join(v.text(words) for v in value)
    return value


def oracle(name: str, /, **blanks: Blank) -> Said:
    """Sentence `name` of the oracle's section (`discovery.oracle`)."""
    return Said(ORACLE, name, tuple(blanks.items()))


def universal(name: str, /, **blanks: Blank) -> Said:
    """Sentence `name` of the universal questions' section (`discovery.universal`)."""
    return Said(UNIVERSAL, name, tuple(blanks.items()))
