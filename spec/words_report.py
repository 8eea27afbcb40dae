"""The report's sections of the words file, built and checked: its prose (`plain`), its pages'
(`pages`) and the CI formats' (`formats`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .files import Key
from .words_model import (
    PLAIN_BLANKS,
    FormatWords,
    KindNoun,
    PageWords,
    PlainWords,
    Sentences,
)
from .words_text import _blank_problems

# ---- the report's own prose (the `plain` section) --------------------------------------------------


def _plain(section: Mapping[str, Any]) -> PlainWords:
    def group(name: str) -> Sentences:
        return Sentences({k: v for k, v in section[name].items() if k in PLAIN_BLANKS[name]})

    return PlainWords(
        languages=dict(section["languages"]),
        trick_ends=dict(section["trick_ends"]),
        verbs=dict(section["verbs"]),
        infinitives=dict(section["infinitives"]),
        and_=section["and"],
        basis=dict(section["summary"]["basis"]),
        findings=group("findings"),
        scenes=group("scenes"),
        summary=group("summary"),
        consistency=group("consistency"),
    )


# ---- the report pages' words ------------------------------------------------------------------


def _pages(section: Mapping[str, Any]) -> PageWords:
    def group(name: str) -> Sentences:
        return Sentences(dict(section[name]))

    return PageWords(
        tables=group("tables"),
        charts=group("charts"),
        outcomes=group("outcomes"),
        sections=group("sections"),
        summary=group("summary"),
        metrics=dict(section["metrics"]),
        trick_ends=dict(section["trick_ends"]),
        styles=dict(section["styles"]),
        methods=dict(section["methods"]),
    )


# ---- the CI formats' words --------------------------------------------------------------------


def _formats(section: Mapping[str, Any]) -> FormatWords:
    def group(name: str) -> Sentences:
        return Sentences(dict(section[name]))

    return FormatWords(
        kinds={k: KindNoun(row["one"], row["many"], row["means"]) for k, row in section["kinds"].items()},
        common=group("common"),
        github=group("github"),
        junit=group("junit"),
        text=group("text"),
        sarif=group("sarif"),
        job_summary=group("job_summary"),
    )


def _grouped_problems(
    part: str, section: Mapping[str, Any], blanks: Mapping[str, Mapping[str, frozenset[str]]]
) -> Iterator[tuple[Key, str]]:
    """The blank problems of a part of sentences in groups (`plain`, `pages`, `formats`): each
    sentence `blanks` names, against the blanks it allows."""
    for group, sentences in blanks.items():
        for name, allowed in sentences.items():
            yield from _blank_problems((part, group, name), section[group][name], allowed)
