"""Questions gather discovered findings by topic (the words file's `questions.<id>.topics`): the
loader reads the list, a topic claimed by two questions is a file:line error, and `assign` puts a
finding whose topic a question lists under that question before any other rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from five35.checks.findings import Finding, FindingKind
from five35.checks.job.questions import assign
from five35.spec import SpecError, embedded_spec_path, load_spec
from five35.spec.words import words_of
from five35.spec.words_model import WORDS_SUFFIX

EMBEDDED_WORDS = embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX)
TEXT = EMBEDDED_WORDS.read_text(encoding="utf-8")
ANCHOR = "  run_wrap:\n    title:"


def _house(tmp_path: Path, words: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / f"house{WORDS_SUFFIX}").write_text(words, encoding="utf-8")
    return path


def _with_topics(*topics_of: tuple[str, list[str]]) -> str:
    """The embedded words with `topics:` added to the named questions."""
    text = TEXT
    for qid, topics in topics_of:
        head = f"  {qid}:\n    title:"
        assert head in text, qid
        listed = ", ".join(f'"{t}"' for t in topics)
        text = text.replace(head, f"  {qid}:\n    topics: [{listed}]\n    title:", 1)
    return text


def _finding(fid: str, topic: str | None, point: str | None = None) -> Finding:
    return Finding(
        id=fid,
        kind=FindingKind.SILENCE,
        title="A mutant plays differently",
        clauses=("pile.run",),
        detail="",
        check="mutants",
        variation_point=point,
        topic=topic,
    )


def test_the_loader_reads_a_question_s_topics(tmp_path: Path) -> None:
    spec = load_spec(_house(tmp_path, _with_topics(("run_wrap", ["hook:run_next", "interaction:a+b"]))))
    words = words_of(spec)
    assert words.questions["run_wrap"].topics == ("hook:run_next", "interaction:a+b")
    assert words.questions["five_players"].topics == ()


def test_a_topic_listed_by_two_questions_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    bad = _with_topics(("five_players", ["hook:run_next"]), ("run_wrap", ["hook:run_next"]))
    with pytest.raises(SpecError) as err:
        load_spec(_house(tmp_path, bad))
    text = str(err.value)
    line = bad[: bad.index("  run_wrap:\n    topics:")].count("\n") + 2  # run_wrap' topics line
    assert "\n" not in text
    assert f"house{WORDS_SUFFIX}:{line}:" in text, text
    assert "questions.run_wrap.topics.0" in text and "already a topic of question 'five_players'" in text


def test_a_topic_that_is_not_a_string_is_refused(tmp_path: Path) -> None:
    bad = TEXT.replace(ANCHOR, "  run_wrap:\n    topics: [[1]]\n    title:", 1)
    with pytest.raises(SpecError, match=r"questions\.run_wrap\.topics\.0"):
        load_spec(_house(tmp_path, bad))


def test_a_finding_s_topic_wins_over_its_variation_point(tmp_path: Path) -> None:
    spec = load_spec(_house(tmp_path, _with_topics(("run_wrap", ["hook:run_next"]))))
    ruleset = spec.ruleset()
    owners = assign(
        spec,
        ruleset,
        [
            _finding("silence.a", "hook:run_next", point="run_gaps"),
            _finding("silence.b", "hook:unlisted", point="run_gaps"),
            _finding("silence.c", "hook:run_next"),
        ],
    )
    assert owners["silence.a"] == "run_wrap"
    assert owners["silence.c"] == "run_wrap"
    # An unlisted topic falls through to the other rules (here: its variation point's question).
    assert owners["silence.b"] == "run_gaps"
