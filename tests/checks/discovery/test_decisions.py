"""The engine's own decisions (issue 13, item 1): declared in the words file and checked there at
file:line, each other choice a variant that overrides only public hooks, and the check
`discovery.decisions` finding for each the smallest table where the two choices play differently."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.checks.discovery.decisions import (
    DECISION_VARIANTS,
    check_decisions,
    decision_finding,
    search,
    search_play,
    variant_of,
)
from five35.checks.findings import CheckContext, FindingKind
from five35.checks.impact.witnesses import WORDS as WITNESS_WORDS
from five35.checks.runner import CHECKS, run_checks
from five35.engine import Game, Pile
from five35.spec import SpecError, embedded_spec_path, load_spec
from five35.spec.words import engine_hooks, words_of
from five35.spec.words_model import WORDS_SUFFIX

SPEC = load_spec()
WITNESS = words_of(SPEC).check(WITNESS_WORDS)
WORDS = words_of(SPEC)
DECISIONS = WORDS.decisions
TEXT = embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX).read_text(encoding="utf-8")


def _house(tmp_path: Path, words: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / f"house{WORDS_SUFFIX}").write_text(words, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_the_decisions_load_with_hooks_clauses_and_variants_that_exist() -> None:
    assert len(DECISIONS) >= 5
    hooks = engine_hooks()
    # The hooks are the docstring's list, each a method of Game.
    assert {"beats", "add_options", "rule_of_8", "hand_size", "round_leader"} <= set(hooks)
    for did, d in DECISIONS.items():
        assert did not in SPEC.variation_points
        assert d.clauses and set(d.clauses) <= set(SPEC.clauses)
        assert d.hook is None or d.hook in hooks
        assert set(d.ask) == {"en", "de", "es"}
        if d.variant is None:
            assert d.reason
        else:
            assert d.hook is not None and d.variant in DECISION_VARIANTS
        for eid in d.evidence:
            assert eid in WORDS.evidence


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        (
            "    hook: beats\n",
            "    hook: beat\n",
            "hook: beat\n",
            "names hook 'beat', which is not a public hook",
        ),
        ("    hook: add_options\n", "    hook: _options_for\n", "hook: _options_for", "'_options_for'"),
        (
            "    clauses: [pile.run, action.overwrite]\n",
            "    clauses: [pile.run, action.overwrit]\n",
            "clauses: [pile.run, action.overwrit]",
            "names clause 'action.overwrit'",
        ),
        (
            "  run_first_card:\n    title:",
            "  run_wrap:\n    title:",
            "  run_wrap:\n",
            "is the variation point",
        ),
        ("    under: {run_wrap: wrap}\n", "    under: {run_wrap: wrapped}\n", "wrapped", "reading 'wrapped'"),
        (
            "    under: {run_wrap: wrap}\n",
            "    under: {run_wrapp: wrap}\n",
            "run_wrapp",
            "not a variation point",
        ),
        (
            "    evidence: [E6]\n    clauses:",
            "    evidence: [E66]\n    clauses:",
            "[E66]",
            "cites evidence 'E66'",
        ),
        ("    players: [2]\n", "    players: [9]\n", "players: [9]", "outside the game's 2 to 6"),
        (
            "    variant: none\n    reason:",
            "    variant: none\n    why_not:",
            "why_not",
            "unknown key 'why_not'",
        ),
        (
            "    hook: hand_size\n",
            "    hook: none\n",
            "hook: none\n    variant: both",
            "name the hook it overrides",
        ),
    ],
)
def test_a_mistake_in_a_decision_is_one_line_naming_file_line_and_key(
    tmp_path: Path, old: str, new: str, needle: str, message: str
) -> None:
    assert TEXT.count(old) >= 1
    start = TEXT.index("\ndecisions:\n")
    bad = TEXT[:start] + TEXT[start:].replace(old, new, 1)
    with pytest.raises(SpecError) as err:
        load_spec(_house(tmp_path, bad))
    text = str(err.value)
    assert "\n" not in text
    line = _line_of(bad[start:], needle) + bad[:start].count("\n")
    assert f"house{WORDS_SUFFIX}:{line}:" in text, text
    assert "decisions." in text and message in text, text


def test_a_variant_without_a_reason_must_give_one(tmp_path: Path) -> None:
    bad = TEXT.replace("    variant: none\n    reason: ", "    variant: none\n    note: ", 1)
    with pytest.raises(SpecError, match="unknown key 'note'"):
        load_spec(_house(tmp_path, bad))
    no_reason = TEXT.replace(
        TEXT[TEXT.index('    reason: "perft') : TEXT.index("\n", TEXT.index('    reason: "perft')) + 1], "", 1
    )
    with pytest.raises(SpecError) as err:
        load_spec(_house(tmp_path, no_reason))
    assert "decisions.perft_finished_round: 'reason' is missing" in str(err.value)


def test_an_unknown_variant_is_refused_where_the_check_uses_it(tmp_path: Path) -> None:
    spec = load_spec(_house(tmp_path, TEXT.replace("variant: runs_by_last_card", "variant: runs_by_lst", 1)))
    decision = words_of(spec).decisions["run_first_card"]
    with pytest.raises(SpecError) as err:
        variant_of(words_of(spec).where("decisions", "run_first_card", "variant"), decision)
    assert f"house{WORDS_SUFFIX}:" in str(err.value) and "names variant 'runs_by_lst'" in str(err.value)


def test_the_command_line_names_the_decision_and_exits_2(tmp_path: Path) -> None:
    path = _house(tmp_path, TEXT.replace("    hook: beats\n", "    hook: nohook\n", 1))
    run_bad_input(
        ["rules", "--spec", str(path)],
        2,
        f"house{WORDS_SUFFIX}:",
        "decisions.run_first_card.hook",
        cwd=tmp_path,
    )


@pytest.mark.parametrize("name", sorted(DECISION_VARIANTS))
def test_every_variant_overrides_only_public_hooks_and_differs_from_game(name: str) -> None:
    cls = DECISION_VARIANTS[name]
    assert issubclass(cls, Game) and cls.__module__ == "five35.checks.discovery.decisions"
    overridden = {
        attr for attr, value in vars(cls).items() if inspect.isfunction(value) and hasattr(Game, attr)
    }
    assert overridden and overridden <= set(engine_hooks()), overridden
    # No new attribute that a cached answer could go stale on: only hook overrides and a docstring.
    assert {a for a in vars(cls) if not a.startswith("__")} == overridden
    decision = next(d for d in DECISIONS.values() if d.variant == name)
    assert decision.hook in overridden


def test_the_check_finds_a_witness_for_every_decision_with_a_variant() -> None:
    result = check_decisions(CheckContext(spec=SPEC, ruleset=SPEC.ruleset(), seed=535))
    found = {f.topic: f for f in result.findings}
    assert set(found) == set(DECISIONS)
    for did, decision in DECISIONS.items():
        finding = found[did]
        assert finding.kind is FindingKind.DECISION and finding.id == f"decision.{did}"
        assert finding.title == decision.title and finding.clauses == decision.clauses
        assert finding.detail.startswith(decision.engine.words)
        if decision.variant is None:
            assert finding.alternative is None and finding.witness is None
            assert decision.reason is not None and decision.reason in finding.detail
            continue
        alt = finding.alternative
        assert alt is not None and alt.played.engine is Game
        assert alt.compared.engine is DECISION_VARIANTS[decision.variant]
        assert finding.witness is not None and finding.witness.position is not None, did
        assert set(finding.witness.outcomes) == {decision.engine.label, decision.other.label}


@pytest.mark.parametrize("did", sorted(d for d, w in DECISIONS.items() if w.variant is not None))
def test_each_witness_plays_differently_from_its_position(did: str) -> None:
    decision = DECISIONS[did]
    variant = DECISION_VARIANTS[decision.variant or ""]
    found = search(SPEC, SPEC.ruleset(), decision, variant, seed=535)
    assert found.witness is not None and found.ruleset is not None
    position = found.witness.position
    assert position is not None
    a, b = Game(found.ruleset, position.players), variant(found.ruleset, position.players)
    if not position.moves and found.witness.situation.get("leading") and a.hand_size() != b.hand_size():
        return  # a deal-time decision: the two deal different hands from the same seed
    sa, sb = a.play_from(position), b.play_from(position)
    assert sa == sb
    la, lb = set(a.legal_moves(sa)), set(b.legal_moves(sb))
    if la != lb:
        return
    played = found.witness.outcomes[decision.engine.label]["played"]
    move = next(m for m in la if str(m) == played)
    assert a.apply(sa, move) != b.apply(sb, move)


def test_the_witnesses_are_the_smallest_tables() -> None:
    sizes = {}
    for did, decision in DECISIONS.items():
        if decision.variant is not None:
            found = search(SPEC, SPEC.ruleset(), decision, DECISION_VARIANTS[decision.variant], seed=535)
            assert found.witness is not None
            sizes[did] = found.witness.cards
    # One pile and the few cards that answer it: 15,1 against 1,2; 1 and 4 around the run 2,3 (not
    # 1 and 3 around a single 2, which shows only while a single may be added to, another open
    # question); 9, an added 8 and the 7,8 that follows (no table shows it without adding to a single).
    assert sizes["run_first_card"] == 4
    assert sizes["add_both_ends"] == 4
    assert sizes["opening_pile"] <= 6


def test_a_witness_does_not_hang_on_another_open_answer_where_one_need_not() -> None:
    decision = DECISIONS["add_both_ends"]
    found = search(SPEC, SPEC.ruleset(), decision, DECISION_VARIANTS[decision.variant], seed=535)
    assert found.witness is not None
    assert found.witness.situation["pile"] == {"kind": "run", "cards": [2, 3]}
    # Without the robustness asked, the smallest table is the single 2 (three cards in all).
    ruleset = SPEC.ruleset()
    names = (decision.engine.label, decision.other.label)
    variant = DECISION_VARIANTS[decision.variant]
    plain, _, _ = search_play(Game(ruleset, 2), variant(ruleset, 2), names, say=WITNESS)
    assert plain is not None and plain.situation["pile"]["kind"] == "single"


class SameAsGame(Game):
    """Overrides a hook and changes nothing: the search must say so, not invent a difference."""

    def beats(self, new: Pile, old: Pile) -> bool:
        return super().beats(new, old)


def test_a_decision_whose_choices_never_differ_is_reported_with_that_said() -> None:
    ruleset = SPEC.ruleset()
    names = ("engine", "other")
    witness, tables, exhausted = search_play(
        Game(ruleset, 2), SameAsGame(ruleset, 2), names, max_nodes=200, say=WITNESS
    )
    assert witness is None and tables == 200 and not exhausted
    decision = DECISIONS["run_first_card"]
    found = search(SPEC, ruleset, decision, SameAsGame, seed=535)
    assert found.witness is None
    finding = decision_finding(
        SPEC, ruleset, decision, SameAsGame, found, words_of(SPEC).check("discovery.decisions")
    )
    assert "never play differently" in finding.detail and finding.alternative is not None


def test_every_decision_is_a_topic_of_one_question_with_a_wording_in_three_languages() -> None:
    owners = {t: q for q in WORDS.questions.values() for t in q.topics}
    for did in DECISIONS:
        question = owners[did]
        assert set(question.ask) == {"en", "de", "es"}
        # A question may give no wording (the rulebooks then leave it out, as for a decision that
        # matters only under a reading no profile plays); every wording it gives has all three.
        assert all(set(w.text) == {"en", "de", "es"} for w in question.wordings)


def test_the_check_is_registered_and_deterministic() -> None:
    assert "discovery.decisions" in [c.name for c in CHECKS]
    runs = [
        run_checks(SPEC, SPEC.ruleset(), level="ci", seed=535, only=["discovery.decisions"]) for _ in range(2)
    ]
    first, second = (json.dumps(r.to_json(), sort_keys=True) for r in runs)
    assert first == second
    assert runs[0].ok and len(runs[0].findings) == len(DECISIONS)


def test_a_witness_found_only_under_other_readings_names_them() -> None:
    # The opening pile's two choices part only where the exemption lasts the whole trick: under
    # eight_exemption=opening_play the witness is a table of the `under` readings, and it says so
    # for the report's caveat.
    ruleset = SPEC.with_readings(SPEC.ruleset(), {"eight_exemption": "opening_play"})
    decision = dataclasses.replace(DECISIONS["opening_pile"], under={"eight_exemption": "whole_trick"})
    found = search(SPEC, ruleset, decision, DECISION_VARIANTS[decision.variant or ""], seed=535)
    assert found.witness is not None and found.ruleset != ruleset
    assert found.witness.situation["needs_readings"] == {"eight_exemption": "whole_trick"}
    finding = decision_finding(
        SPEC,
        ruleset,
        decision,
        DECISION_VARIANTS[decision.variant or ""],
        found,
        words_of(SPEC).check("discovery.decisions"),
    )
    assert "only under eight_exemption=whole_trick" in finding.detail
    assert "no game simulated under them changes" in finding.detail
    # Under the rules as played the two choices part at once: an 8 added to the leader's pile.
    played = search(
        SPEC, SPEC.ruleset(), DECISIONS["opening_pile"], DECISION_VARIANTS["opening_pile_grows"], 535
    )
    assert played.witness is not None and "needs_readings" not in played.witness.situation
    # A witness of the rules as played carries no such caveat.
    first = DECISIONS["add_both_ends"]
    plain = search(
        SPEC, SPEC.with_readings(ruleset, first.under), first, DECISION_VARIANTS[first.variant or ""], 535
    )
    assert plain.witness is not None and "needs_readings" not in plain.witness.situation


def test_the_two_player_deal_says_it_departs_from_bga_and_is_graded_by_its_reach() -> None:
    decision = DECISIONS["two_player_hands"]
    assert decision.departs_from == ("E5",) and "departs from" in decision.why
    result = check_decisions(CheckContext(spec=SPEC, ruleset=SPEC.ruleset(), seed=535))
    finding = next(f for f in result.findings if f.topic == "two_player_hands")
    assert finding.severity == "high"
    # Every other decision keeps the words file's grade for engine decisions.
    assert {f.severity for f in result.findings if f.topic != "two_player_hands"} == {"low"}
    w = finding.witness
    assert w is not None
    shown = {name: (o["hand_size"], o["set_aside"]) for name, o in w.outcomes.items()}
    assert shown == {decision.engine.label: (12, 28), decision.other.label: (24, 4)}
    wording = next(q for q in WORDS.questions.values() if "two_player_hands" in q.topics).wordings[0].text
    # It says what sets it apart from the deal question's table: one hand, not Board Game Arena's two.
    assert "28" in wording["de"] and "28" in wording["es"] and "nicht mit zwei Kartenhänden" in wording["de"]


def test_a_departure_from_evidence_the_words_file_lacks_is_refused_at_its_line(tmp_path: Path) -> None:
    text = TEXT.replace("    departs_from: [E5]\n", "    departs_from: [E55]\n")
    assert text != TEXT
    path = _house(tmp_path, text)
    run_bad_input(
        ["rules", "--spec", str(path)],
        2,
        f"house{WORDS_SUFFIX}:{_line_of(text, 'departs_from: [E55]')}",
        "decisions.two_player_hands.departs_from",
        "'E55'",
        cwd=tmp_path,
    )
