"""SpecRules says why it refuses a move in the words file's sentences (checks.sentences.oracles)."""

from __future__ import annotations

from dataclasses import replace

from five35.checks.oracles.rules_model import SpecRules
from five35.engine import Move, Pile
from five35.spec import load_spec
from five35.spec.words import words_of

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")


def test_a_refusal_is_the_words_files_sentence_with_its_blanks() -> None:
    rules = SpecRules(BASE, 4, ORACLES)
    assert rules.judge(Pile("single", (7,)), Move("lead", (3,)))[1] == "a lead while a pile is on the table"
    assert rules.judge(None, Move("add", (3,)))[1] == "an add with no central pile (the mover leads)"
    assert rules.judge(None, Move("lead", (99,)))[1] == "(99,) are not cards of the deck"
    why = rules.judge(Pile("single", (7,)), Move("overwrite", (5,)))[1]
    assert why is not None and why.startswith("rule ") and "does not allow it (" in why


def test_the_words_given_are_the_words_said() -> None:
    say = replace(ORACLES, sentences={**ORACLES.sentences, "lead_on_pile": "no lead on {nothing}"})
    assert SpecRules(BASE, 4, say).judge(Pile("single", (7,)), Move("lead", (3,)))[1] == "no lead on "
