"""The report words a witness's moves and a dead clause's part from what the checks hand it typed
(Witness.moves, Finding.dead_part), never from the text the JSON writes them as."""

from __future__ import annotations

from five35.checks.findings import DeadPart, Finding, FindingKind, OutcomeMoves, ReadingRef, Witness
from five35.engine import Move
from five35.reports.plain import Plain
from five35.spec import load_spec

SPEC = load_spec()
RULESET = SPEC.ruleset()


def test_a_move_is_worded_from_the_typed_move_not_from_its_text() -> None:
    # The JSON's text says something else: the words follow the typed move.
    witness = Witness(
        summary="",
        situation={"players": 3, "to_move": 0},
        outcomes={"a": {"played": "lead 9", "legal_moves": ["pass"]}},
        cards=0,
        moves={"a": OutcomeMoves(played=Move("add", (4, 5)))},
    )
    words = Plain(SPEC, RULESET).scene(witness)["outcomes"][0]["words"]
    assert "adds 4,5" in words and "9" not in words


def test_a_list_of_legal_moves_is_worded_from_the_typed_moves() -> None:
    witness = Witness(
        summary="",
        situation={"players": 3, "to_move": 0},
        outcomes={"a": {"legal_moves": ["x", "y"]}},
        cards=0,
        moves={"a": OutcomeMoves(legal=(Move("lead", (7,)), Move("pass")))},
    )
    words = Plain(SPEC, RULESET).scene(witness)["outcomes"][0]["words"]
    assert "leads 7" in words and "passes" in words and "x" not in words


def test_a_dead_part_is_worded_from_its_typed_part_and_reading() -> None:
    # The title names nothing the sentence takes: the part and its reading come typed.
    point = next(p for p, vp in SPEC.variation_points.items() if "overflow" in vp.readings)
    finding = Finding(
        id="dead.test",
        kind=FindingKind.DEAD_CLAUSE,
        title="no part here",
        clauses=("action.add",),
        detail="",
        check="dead_clauses",
        dead_part=DeadPart("set_overflow", {}, (ReadingRef(point, "overflow"),)),
    )
    plain = Plain(SPEC, RULESET)
    said = plain.finding(finding)
    label = plain.labels[(point, "overflow")]
    assert said.startswith(f"An add taking a set past its closing size (if \u2018{label}\u2019)")
    assert "(reading overflow)" not in said
