"""A sentence of the words file with its blanks: how it is written with them filled (a blank not
given reads as nothing), how its blanks are checked against those five35 fills, the groups of
sentences the words file's sections hand out, and a side of a finding in words."""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .files import Key


class _Blanks(dict[str, object]):
    """A sentence's blanks (a number, an id or a sentence, written as format() writes it); a blank
    not given reads as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


@dataclass(frozen=True)
class Sentences:
    """A group of sentences (a group of the `plain`, `pages` or `formats` section, the vectors'), each
    written by calling it with the sentence's name and blanks."""

    sentences: Mapping[str, str]

    def __call__(self, which: str, /, **blanks: object) -> str:
        """Sentence `which` with its blanks filled in."""
        return self.sentences[which].format_map(_Blanks(blanks))


@dataclass(frozen=True)
class Side:
    label: str
    words: str


def _blanks(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


def _blank_problems(key: Key, text: str, allowed: frozenset[str]) -> Iterator[tuple[Key, str]]:
    try:
        names = _blanks(text)
    except ValueError as exc:
        yield key, f"has a broken blank ({exc}); write a literal brace as {{{{ or }}}}"
        return
    for name in names:
        if name not in allowed:
            known = ", ".join("{" + b + "}" for b in sorted(allowed)) or "none"
            yield key, f"has the blank {{{name}}}, which five35 does not fill (blanks: {known})"
