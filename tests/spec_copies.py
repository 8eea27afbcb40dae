"""Copies of the embedded spec with other numbers, as a house-rules user would write them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from five35.spec import embedded_spec_path

#: 3 copies of each of the 13 ranks at every table (39 cards, so smaller hands from 4 players up)
#: and a match to 30 points.
THREE_COPIES_TO_30: tuple[tuple[str, str], ...] = (
    (
        "value: {small_game: 4, large_game: 5}\n    cites: [deck.copies]",
        "value: {small_game: 3, large_game: 3}\n    cites: [deck.copies]",
    ),
    ("value: 20\n    cites: [match.end]", "value: 30\n    cites: [match.end]"),
    ("value: {2: 12, 3: 13, 4: 12, 5: 12, 6: 10}", "value: {2: 12, 3: 13, 4: 9, 5: 7, 6: 6}"),
)


def write_spec_copy(path: Path, changes: Sequence[tuple[str, str]]) -> Path:
    """The embedded spec with each (old, new) text replaced once, written to `path`."""
    text = embedded_spec_path().read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return path
