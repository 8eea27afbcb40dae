"""The report's consistency check: the embedded spec's report holds, and each kind of wrong claim a
report has made before is caught when it is planted in the report's data."""

from __future__ import annotations

import copy
from typing import Any

from five35.reports import consistency
from five35.spec import load_spec
from full_report import full_report
from test_reports import fixture_data

SPEC = load_spec()


def _question(data: dict[str, Any], qid: str) -> dict[str, Any]:
    return next(q for q in data["questions"] if q["id"] == qid)


def test_the_embedded_spec_s_report_holds() -> None:
    data, _ = full_report()
    assert data["consistency"] == []
    assert consistency.problems(SPEC, data) == []
    assert fixture_data()["consistency"] == []


def test_settled_by_the_texts_where_a_text_read_word_for_word_says_otherwise_is_caught() -> None:
    data = copy.deepcopy(full_report()[0])
    # The Spanish 'más de 5' read word for word makes 5 players a small game: claim the texts
    # settle that 5 players play a large one.
    q = _question(data, "five_players")
    q["status"], q["choice"]["basis"] = "settled", "text"
    (problem,) = consistency.problems(SPEC, data)
    assert q["title"] in problem and SPEC.profiles["spanish-literal"].title in problem


def test_a_wording_shared_by_an_open_and_a_settled_question_is_caught() -> None:
    data = copy.deepcopy(full_report()[0])
    settled = next(q for q in data["questions"] if q["status"] == "settled" and q["wording"].get("en"))
    opened = next(q for q in data["questions"] if q["status"] == "open" and q["wording"].get("en"))
    opened["wording"] = dict(settled["wording"])
    (problem,) = consistency.problems(SPEC, data)
    assert "one is open and one settled" in problem and settled["title"] in problem


def test_a_rulebook_insertion_whose_kind_disagrees_with_the_report_is_caught() -> None:
    data = copy.deepcopy(full_report()[0])
    opened = next(q for q in data["questions"] if q["status"] == "open" and q["in_rulebooks"])
    opened["in_rulebooks"][1]["kinds"] = ["clarification"] * len(opened["in_rulebooks"][1]["kinds"])
    (problem,) = consistency.problems(SPEC, data)
    assert opened["title"] in problem and "prints its answer as settled" in problem
    data = copy.deepcopy(full_report()[0])
    settled = next(q for q in data["questions"] if q["status"] == "settled" and q["in_rulebooks"])
    settled["in_rulebooks"][0]["kinds"][0] = "proposal"
    (problem,) = consistency.problems(SPEC, data)
    assert settled["title"] in problem and "as a proposal for an open question" in problem


def test_an_example_whose_trick_goes_on_after_the_round_ended_is_caught() -> None:
    data = copy.deepcopy(full_report()[0])
    q = next(q for q in data["questions"] if q["scene"] and q["scene"].get("outcomes"))
    q["scene"]["outcomes"][0]["words"] = (
        "When player 1 leads 3, the trick goes on with the single 3; player 1 goes out."
    )
    (problem,) = consistency.problems(SPEC, data)
    assert "lets the trick go on and the round end" in problem


def test_a_summary_that_does_not_add_up_is_caught() -> None:
    data = copy.deepcopy(full_report()[0])
    data["summary"]["open"] += 1
    # a finding that stands alone and under a question too
    data["standalone"].append(data["questions"][0]["members"][0])
    found = consistency.problems(SPEC, data)
    assert any("open and settled" in p for p in found)
    assert any("count of the findings does not add up" in p for p in found)
