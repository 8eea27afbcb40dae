"""Mutants of the rules themselves (checks/discovery/rules): generated from the rule tree by generic
operators, classified by Z3, the texts' questions, play and the spec's readings."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from five35.checks.discovery.oracle import contradicted
from five35.checks.discovery.play_invariants import play_violation
from five35.checks.discovery.rules.check import NAME, check_rule_mutants, selected
from five35.checks.discovery.rules.classify import Budget, classify, kill_words, killed_by
from five35.checks.discovery.rules.hidden import Hidden, copies, hidden_rule
from five35.checks.discovery.rules.hooks import Hooks
from five35.checks.discovery.rules.operators import (
    OPERATORS,
    RuleMutant,
    mutant_ruleset,
    mutants,
    singled_out,
)
from five35.checks.findings import CheckContext, CheckResult
from five35.engine import Game, Move, Pile, Play, State
from five35.engine.interpreter import SpecEngine
from five35.engine.simulate import EndlessPlay
from five35.reports.check_formats.common import tally_lines
from five35.spec import Ruleset, embedded_spec, embedded_spec_path, load_spec
from five35.spec.lang.syntax import parse, unparse
from five35.spec.words import embedded_words, words_of
from five35.spec.words_model import WORDS_SUFFIX

BUDGET = Budget(matches=2, invariant_matches=1, rlimit=20_000_000)


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return embedded_spec().ruleset()


@pytest.fixture(scope="module")
def every(ruleset: Ruleset) -> list[RuleMutant]:
    return mutants(ruleset)


@pytest.fixture(scope="module")
def quick(ruleset: Ruleset) -> CheckResult:
    """The check at level quick (2 mutants drawn with seed 3), shared by the tests of its output."""
    return check_rule_mutants(CheckContext(spec=embedded_spec(), ruleset=ruleset, level="quick", seed=3))


def _mutant(ruleset: Ruleset, rule: str, part: str, text: str, operator: str = "test") -> RuleMutant:
    before = next(unparse(n) for r in ruleset.rules if r.id == rule for p, n in r.parts if p == part)
    return RuleMutant(rule, part, operator, before, unparse(parse(text)), parse(text))


def test_every_rule_in_force_and_every_operator_makes_mutants(
    ruleset: Ruleset, every: list[RuleMutant]
) -> None:
    assert {m.rule for m in every} == {r.id for r in ruleset.rules}
    assert {m.operator for m in every} == set(OPERATORS)


def test_a_mutant_changes_its_part_and_is_named_by_it(every: list[RuleMutant]) -> None:
    names = [m.name for m in every]
    assert len(names) == len(set(names))
    assert all(m.before != m.after for m in every)


def test_a_mutant_ruleset_states_another_game_played_by_the_interpreter(
    ruleset: Ruleset, every: list[RuleMutant]
) -> None:
    changed = mutant_ruleset(ruleset, every[0])
    assert changed.rules_digest != ruleset.rules_digest
    rule = next(r for r in changed.rules if r.id == every[0].rule)
    assert (
        unparse(dict([*rule.parts, *(("cards." + b, n) for b, n in rule.cards)])[every[0].part])
        == every[0].after
    )


def test_conditions_name_the_ranks_the_data_singles_out(ruleset: Ruleset) -> None:
    # The lowest and highest, the 8 the Rule of 8 names, the ranks beside the gaps at 6 and 10,
    # and one ordinary rank for the rest.
    assert singled_out(ruleset, ruleset.rules) == (1, 2, 5, 7, 8, 9, 11, 15)


def test_a_flipped_run_order_is_the_run_order_question(ruleset: Ruleset) -> None:
    m = _mutant(ruleset, "pile.run", "beats", "order(new.first) > order(old.first)", "comparison")
    verdict = classify(embedded_spec(), ruleset, m, BUDGET, 0)
    assert (verdict.verdict, verdict.point) == ("already_asked", "run_order")


def test_an_exception_no_play_can_meet_is_proved_equivalent(ruleset: Ruleset) -> None:
    # No add ever makes a single: the pile it leaves has at least two cards.
    m = _mutant(ruleset, "action.add", "may", "(onto and grows and end and cap) and not (new.size == 1)")
    assert classify(embedded_spec(), ruleset, m, BUDGET, 0).verdict == "equivalent"


#: Mutants a clause kills, with the clause: each is a question the texts answer.
KILLED_BY = [
    # Runs of ranks that do not follow on (pile.run: "aufeinanderfolgender Ränge").
    ("ranks", "gap", "b != a + 1", "pile.run"),
    # A leader who may pass ("Ein führender Spieler ... darf niemals „passen“").
    ("action.pass", "may", "leading", "lead.no_pass"),
    # A 9 that ends the trick like an 8: none of the four endings ("1 von 4 Dingen").
    ("trick.end.eight", "forms", "has(placed, 8) or has(placed, 9)", "trick.end"),
    # A leader who cannot lead a 9: any card is a single ("Spielbare Stapeltypen").
    ("action.lead", "may", "true and not has(placed, 9)", "pile.types"),
    # Winners other than the fewest points ("Der/die Spieler mit den wenigsten Punkten").
    ("match.end", "winner", "score == score", "match.winner"),
    ("match.end", "winner", "(score == lowest_score) and not (score == 2)", "match.winner"),
    ("match.end", "winner", "score == highest_score", "match.winner"),
]


@pytest.mark.parametrize(("rule", "part", "text", "clause"), KILLED_BY)
def test_a_mutant_the_texts_answer_is_killed_naming_the_clause(
    ruleset: Ruleset, rule: str, part: str, text: str, clause: str
) -> None:
    verdict = classify(embedded_spec(), ruleset, _mutant(ruleset, rule, part, text), BUDGET, 0)
    assert (verdict.verdict, verdict.clause) == ("killed", clause)


def test_rules_that_leave_a_player_without_a_move_are_unplayable(ruleset: Ruleset) -> None:
    # Nobody but the leader may pass at 3 players: a player who cannot overwrite or add is stuck.
    m = _mutant(ruleset, "action.pass", "may", "(not leading) and not (players == 3)", "condition")
    verdict = classify(embedded_spec(), ruleset, m, BUDGET, 0)
    assert verdict.verdict == "broken" and "without a legal move" in verdict.why


def test_rules_under_which_a_pass_never_takes_a_player_out_never_end_a_trick(ruleset: Ruleset) -> None:
    changed = mutant_ruleset(ruleset, _mutant(ruleset, "action.pass", "out", "false", "negate"))
    with pytest.raises(EndlessPlay):
        play_violation(SpecEngine(changed, 3), 0, 1)  # type: ignore[arg-type]


def test_a_match_end_one_point_early_is_killed_by_the_clause_that_gives_the_score(ruleset: Ruleset) -> None:
    m = _mutant(ruleset, "match.end", "ends", "highest_score >= match_end_score - 1", "bound")
    verdict = classify(embedded_spec(), ruleset, m, BUDGET, 0)
    assert (verdict.verdict, verdict.clause) == ("killed", "match.end")
    assert verdict.why.startswith(
        "match.end.score: the match ends after a round that leaves a player on 19 points"
    )


def test_a_turn_order_that_skips_a_seat_is_a_silence(ruleset: Ruleset) -> None:
    # Neither text says how the turn passes round the table.
    m = _mutant(ruleset, "trick.next", "next", "(seat + 2) % players", "bound")
    assert classify(embedded_spec(), ruleset, m, BUDGET, 0).verdict == "silence"


@pytest.mark.parametrize("profile", embedded_spec().playable_profiles)
def test_the_interpreter_answers_every_question_of_the_texts_as_the_reference_does(profile: str) -> None:
    r = embedded_spec().ruleset(profile)
    for players in range(r.players_min, r.players_max + 1):
        assert contradicted(Hooks(SpecEngine(r, players))) == contradicted(Game(r, players))  # type: ignore[arg-type]


def test_the_hooks_answer_as_the_reference_engine(ruleset: Ruleset) -> None:
    for players in (2, 5):
        game, hooks = Game(ruleset, players), Hooks(SpecEngine(ruleset, players))
        for pile in game.placeable_piles():
            assert sorted(hooks.add_options(pile)) == sorted(game.add_options(pile)), pile
            for action in ("lead", "overwrite", "add"):
                if 8 not in pile.cards:
                    assert hooks.closes(pile, action) == game.closes(pile, action), (pile, action)
        state: State = game.start_round([[r] for r in ruleset.ranks[:players]], 0)
        for old in (Pile("single", (3,)), Pile("set", (4, 4)), Pile("run", (1, 2))):
            on = replace(state, pile=old, trick=(Play(players - 1, Move("lead", old.cards)),), to_move=0)
            for move in game.placing_moves(old):
                option = game.option(on, move)
                if option is not None:
                    assert hooks.rule_of_8(hooks.option(on, move), on) == game.rule_of_8(option, on), move
        codec = game.codec
        for r in ruleset.ranks:
            assert hooks.penalty(codec.unit(r)) == game.penalty(codec.unit(r))


def test_a_level_draws_the_same_mutants_for_the_same_seed(every: list[RuleMutant]) -> None:
    assert selected(every, "ci", 7) == selected(every, "ci", 7)
    assert selected(every, "ci", 7) != selected(every, "ci", 8)
    assert len(selected(every, "ci", 7)) == 6
    assert selected(every, "deep", 7) == every


def test_the_check_counts_every_classified_mutant_per_rule_and_per_operator(
    ruleset: Ruleset, quick: CheckResult
) -> None:
    result = quick
    assert result.name == NAME and result.tally is not None
    per_rule = Counter({rule: sum(n for _, n in c) for rule, c in result.tally.per_rule})
    per_operator = Counter({op: sum(n for _, n in c) for op, c in result.tally.per_operator})
    assert (
        sum(per_rule.values()) == sum(per_operator.values()) == result.tally.classified == result.mutants == 2
    )
    assert result.tally.generated == len(mutants(ruleset))


def test_the_check_split_into_units_gives_the_result_it_gives_whole(
    ruleset: Ruleset, quick: CheckResult
) -> None:
    ctx = CheckContext(spec=embedded_spec(), ruleset=ruleset, level="quick", seed=3)
    whole = quick
    parts = [check_rule_mutants(replace(ctx, shard=(i, 3))) for i in range(3)]
    merged = CheckResult.merged(parts)
    assert merged.to_json() == whole.to_json()
    assert [p.mutants for p in parts] == [0, 1, 1]


def _hidden(rule: str, part: str, weakened: str) -> Hidden:
    spec = embedded_spec()
    for copy, r, p, tree in copies(spec):
        if (r.id, p, unparse(tree)) == (rule, part, weakened):
            return hidden_rule(spec, copy, r, p, tree, BUDGET, 0)
    raise AssertionError(f"no copy weakens {rule}.{part} to {weakened}")


def test_a_rule_left_out_of_a_copy_comes_back_killed_by_its_clause() -> None:
    found = _hidden("action.overwrite", "may", "((new.kind == old.kind) and beats(new, old))")
    assert found.back == "killed" and "action.overwrite" in found.why and found.own_clause
    # A set left to close a run as well is killed by the run's clause, which the set's rule does not cite.
    other = _hidden("trick.end.set", "ends", "(pile.size >= closes_at(pile))")
    assert other.back == "killed" and "trick.end.run" in other.why and not other.own_clause


@pytest.mark.slow  # some hundred solver queries, one per mutant of the weakened part (~20 s)
def test_an_exemption_left_out_of_a_copy_comes_back_as_a_silence() -> None:
    # Without the exemption no question of the texts fails; the mutant that adds it back is a
    # silence of the copy: the Rule of 8's exemption is a reading the copy's rules leave open.
    found = _hidden("trick.end.eight", "ends", "((action != lead) and counts and forms)")
    assert found.back == "silence" and "has(opening.cards, 8)" in found.why


def test_a_weakening_that_changes_no_play_is_counted_apart() -> None:
    # No set or run can outgrow its closing size with the printed copies: the cap never binds.
    found = _hidden("action.add", "may", "(onto and grows and end)")
    assert found.dead and found.back is None


def test_the_text_output_counts_the_mutants_per_operator_and_per_rule_and_names_the_silences(
    quick: CheckResult,
) -> None:
    result = quick
    assert result.tally is not None
    lines = tally_lines(result.tally, embedded_words().formats)
    assert lines[0] == f"Mutants of the rules: {result.tally.generated:,} generated, 2 classified."
    assert lines.index("  per operator:") < lines.index("  per rule:")
    for rule, _ in result.tally.per_rule:
        assert any(line.startswith(f"    {rule}: ") for line in lines)
    for verdict, name, _ in result.tally.named:
        assert any(line.startswith(f"  {verdict.replace('_', ' ')}: {name}") for line in lines)


def test_a_silence_is_a_finding_with_a_short_witness_and_the_rule_in_every_language(
    ruleset: Ruleset, tmp_path: Path
) -> None:
    from five35.checks.discovery.rules.check import silence_finding
    from five35.checks.job.questions import assign, gathered_questions

    spec = embedded_spec()
    m = _mutant(ruleset, "trick.next", "next", "(seat + 2) % players", "bound")
    f = silence_finding(spec, ruleset, classify(spec, ruleset, m, BUDGET, 535))
    assert f.kind.value == "silence" and f.check == NAME and f.topic == "rule.trick.next"
    assert f.witness is not None and f.witness.position is not None and len(f.witness.position.moves) <= 10
    # The witness is a real table: the rules as stated play its moves.
    Game(ruleset, f.witness.position.players).play_from(f.witness.position)
    assert f.title == "Who moves next in a trick" and "a number one more or one less" in f.detail
    # The words file gives the rule's topic to the question of the order of turns: it joins it.
    assert assign(spec, ruleset, [f]) == {f.id: "turn_order"}
    assert gathered_questions(spec, ruleset, [f]) == ()
    # Without that topic, the rule's silences make a question of their own, in the rule's words.
    words = (
        embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX).read_text(encoding="utf-8")
    )
    assert "topics: [next_seat, rule.trick.next]" in words
    (tmp_path / f"copy{WORDS_SUFFIX}").write_text(
        words.replace("topics: [next_seat, rule.trick.next]", "topics: [next_seat]"), encoding="utf-8"
    )
    (tmp_path / "copy.yaml").write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    copy = load_spec(tmp_path / "copy.yaml")
    f = silence_finding(copy, copy.ruleset(), classify(copy, copy.ruleset(), m, BUDGET, 535))
    (q,) = gathered_questions(copy, copy.ruleset(), [f])
    (wording,) = q.wordings
    assert set(wording.text) == {"en", "de", "es"}
    assert "Stich" in wording.text["de"] and "baza" in wording.text["es"]
    assert wording.text["en"] == f.proposed_wording
    assert "more than one way" in q.ask["en"] and "Lesart" in q.ask["de"] and "lectura" in q.ask["es"]


def test_a_rule_the_spec_states_otherwise_gets_no_words_of_the_embedded_rule(ruleset: Ruleset) -> None:
    from five35.checks.discovery.rules.check import silence_finding

    spec = embedded_spec()
    m = _mutant(ruleset, "trick.next", "next", "(seat + 2) % players", "bound")
    verdict = classify(spec, ruleset, m, BUDGET, 535)
    assert silence_finding(spec, ruleset, verdict).proposed_wording is not None
    # A house rule that states the turn order otherwise: the embedded rule's words describe
    # another rule, so the finding has none of them (the spec's own statement is its title).
    house = mutant_ruleset(ruleset, m)
    f = silence_finding(spec, house, verdict)
    assert (
        f.proposed_wording is None
        and f.title == "Players take turns in seat order, skipping those out of the trick."
    )


def test_a_rule_in_force_under_another_reading_is_not_worded_as_the_default_one(ruleset: Ruleset) -> None:
    from five35.checks.discovery.rules.check import _as_worded

    spec = embedded_spec()
    other = spec.ruleset(readings={"run_order": "higher_beats"})
    assert _as_worded(spec, ruleset, "pile.run") and not _as_worded(spec, other, "pile.run")
    assert _as_worded(spec, other, "trick.next")  # no reading of run_order touches the turn


@pytest.mark.parametrize(
    ("name", "question", "says"),
    [
        # An exception on a rank that a clause speaking of every set and run leaves no room for.
        (
            "action.add.may: ((onto and grows and end and cap) and (not has(old.cards, 11)))",
            "action.add.every",
            "lengthens the set 11,11",
        ),
        # An exception on the moment: the closing card ends the trick however many cards are kept.
        (
            "trick.end.set.ends: (((pile.kind == set) and (pile.size >= closes_at(pile)))"
            " and (not (cards_left == 2)))",
            "trick.end.set.every",
            "(keeping 2 cards)",
        ),
        (
            "pile.run.beats: ((order(new.first) < order(old.first)) and (not has(new.cards, 9)))",
            "pile.ranked.every",
            "neither ranks higher",
        ),
        # A 9 in the opening pile switching the Rule of 8 off: only an 8 there does.
        ("trick.end.eight.exempt: has(opening.cards, 9)", "eight.trigger.every", "in a trick the"),
        # Passing that never ends the trick: all but one passing is one of the four endings.
        ("trick.end.passes.ends: (in_trick == 0)", "trick.end.four", "leaves one player"),
        # A play of an 8 ending the trick as a closed run below its size.
        (
            "trick.end.run.ends: (((pile.kind == run) and (pile.size >= closes_at(pile))) or has(placed, 8))",
            "trick.end.four",
            "as a closed run, below its size",
        ),
        ("action.lead.cards.max: (max_cards_per_turn + 1)", "pile.types.lead", "4 cards can be led"),
        # An overwrite of 4 cards (a run of 4 by a higher one): a turn places at most three.
        ("action.overwrite.cards.max: (max_cards_per_turn + 1)", "action.overwrite.every", "at most 3 cards"),
        (
            "action.overwrite.may: (((new.kind == old.kind) and (new.size == old.size)"
            " and beats(new, old)) or (old.size == 4))",
            "action.overwrite.every",
            "which is not of its size",
        ),
        (
            "match.end.ends: ((highest_score >= match_end_score) and (not (lowest_score == 1)))",
            "match.end.score",
            "the others on 1",
        ),
    ],
)
def test_a_clause_of_every_case_kills_an_exception_it_leaves_no_room_for(
    ruleset: Ruleset, every: list[RuleMutant], name: str, question: str, says: str
) -> None:
    mutant = next(m for m in every if m.name == name)
    kill = killed_by(mutant_ruleset(ruleset, mutant), BUDGET, 0)
    assert kill is not None, name
    why = kill_words(kill, words_of(embedded_spec()))
    assert why.startswith(question + ":"), why
    assert says in why, why
