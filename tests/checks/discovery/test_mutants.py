"""Mutation analysis (checks/discovery): the mutant generator, the text-derived oracle, the
classification of a mutant, and the check discovery.mutants."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from five35.checks.discovery import silences
from five35.checks.discovery.mutants import HOOKS, MUTANTS
from five35.checks.discovery.oracle import QUESTIONS, ask_questions, quotation
from five35.checks.discovery.play_invariants import INVARIANTS, play_violation
from five35.checks.findings import CheckContext, FindingKind, engine_label
from five35.checks.runner import CHECKS, run_checks
from five35.engine import Game, Pile
from five35.reports.check_formats import status_word
from five35.spec import SpecError, embedded_spec_path, load_spec
from five35.spec.words import engine_hooks, words_of, words_path
from spec_copies import THREE_COPIES_TO_30, write_spec_copy

SPEC = load_spec()
PUBLISHED = SPEC.ruleset()
CI = silences.BUDGETS["ci"]
SEED = 535


def test_names_are_stable_and_say_what_changes() -> None:
    for name in ("beats.run.flip", "closing_size.set.p5.minus1", "rule_of_8.add.drop", "hand_size.all"):
        assert name in MUTANTS
    info = MUTANTS["closing_size.set.p5.minus1"].INFO
    assert (info.hook, info.operator, info.values) == (
        "closing_size",
        "kind_players_minus1",
        {"kind": "set", "players": "5"},
    )
    # Every mutant changes one public hook, the hook its name starts with, and nothing else.
    assert set(HOOKS) <= set(engine_hooks())
    for name, cls in MUTANTS.items():
        own = {k for k in vars(cls) if callable(vars(cls)[k]) and not k.startswith("__")}
        assert own == {cls.INFO.hook} and name.startswith(cls.INFO.hook + "."), name


def test_a_mutant_is_importable_by_its_label_in_another_process() -> None:
    label = engine_label(MUTANTS["beats.run.flip"])
    module, _, qualname = label.rpartition(".")
    assert getattr(importlib.import_module(module), qualname) is MUTANTS["beats.run.flip"]
    code = "from five35.checks.discovery.mutants import MUTANTS; print('\\n'.join(MUTANTS))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.split() == list(MUTANTS)  # the same names, in the same order


def test_the_generator_reads_no_reading_or_variation_point() -> None:
    """Its code names no reading, no variation point and not the engine's vocabulary (its
    docstring may say so)."""
    source = Path(importlib.import_module("five35.checks.discovery.mutants").__file__ or "").read_text()
    names = {
        n.attr if isinstance(n, ast.Attribute) else n.id
        for n in ast.walk(ast.parse(source))
        if isinstance(n, (ast.Attribute, ast.Name))
    }
    assert not names & {"VOCABULARY", "variation_points", "reading", "readings", "reading_items"}


@pytest.mark.parametrize(
    "readings",
    [
        {},
        {
            "run_gaps": "gaps_skipped",
            "run_wrap": "wrap",
            "add_run_ends": "top_end",
            "eight_forms": "listed_forms",
        },
        {"eight_rank": "strongest", "first_leader": "seat_0", "round_leader": "next_seat"},
    ],
)
def test_the_reference_engine_passes_every_question_and_invariant(readings: dict[str, str]) -> None:
    for profile in SPEC.playable_profiles:
        rs = SPEC.with_readings(SPEC.ruleset(profile), readings)
        for players in range(rs.players_min, rs.players_max + 1):
            try:
                rs.hand_size(players)
            except SpecError:
                continue
            game = Game(rs, players)
            assert ask_questions(game) is None, (profile, players)
            assert play_violation(game, SEED, 1) is None, (profile, players)


def test_every_mutant_differs_from_the_engine_in_some_hook_answer() -> None:
    rulesets = [
        PUBLISHED,
        SPEC.with_readings(
            PUBLISHED,
            {
                "run_gaps": "gaps_skipped",
                "run_wrap": "wrap",
                "eight_rank": "strongest",
                "add_run_ends": "top_end",
                "eight_forms": "listed_forms",
                "first_leader": "seat_0",
                "round_leader": "next_seat",
            },
        ),
    ]
    for name, cls in MUTANTS.items():
        assert any(silences.hook_changes(rs, cls, p) for rs in rulesets for p in range(2, 7)), (
            f"{name} answers every probe like the engine"
        )


class ReversedSingles(Game):
    """A planted bug: among singles the lower rank wins."""

    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind == old.kind == "single":
            return Game.beats(self, old, new)
        return Game.beats(self, new, old)


class NoSetCloses(Game):
    """A planted bug: a set never ends the trick by its size."""

    def closing_size(self, kind: str) -> int | None:
        return None if kind == "set" else Game.closing_size(self, kind)


def test_a_mutant_that_breaks_a_text_example_is_killed_naming_the_clause() -> None:
    kill = ask_questions(ReversedSingles(PUBLISHED, 3))
    assert kill is not None and (kill.by, kill.clause) == ("pile.single.example", "pile.single")
    # The message says what the engine did; the question quotes the example it breaks.
    assert kill.said.text(words_of(SPEC)) == "a single 7 does not beat a single 1"
    assert next(quotation(q, SPEC).states for q in QUESTIONS if q.id == kill.by) == "(1 < 7 < 14)"
    kill = ask_questions(NoSetCloses(PUBLISHED, 4))
    assert kill is not None and kill.clause == "trick.end.set"
    # Every question cites a clause of the spec.
    assert {q.clause for q in QUESTIONS} <= set(SPEC.clauses)


def test_classification_of_known_mutants() -> None:
    got = {
        n: silences.classify(SPEC, PUBLISHED, n, CI, SEED)
        for n in (
            "beats.single.flip",
            "follows.wrap",
            "hand_size.p4.plus1",
            "first_leader.drawn",
            "next_seat.p5.skip",
        )
    }
    assert got["beats.single.flip"].verdict == "killed"
    assert (
        got["beats.single.flip"].trial.kill is not None
        and got["beats.single.flip"].trial.kill.clause == "pile.single"
    )
    assert (got["follows.wrap"].verdict, got["follows.wrap"].asked) == ("already_asked", ("run_wrap=wrap",))
    assert got["hand_size.p4.plus1"].verdict == "silence" and got["hand_size.p4.plus1"].trial.players == 4
    # The reading it re-implements is the ruleset's own: no hook answer differs.
    assert got["first_leader.drawn"].verdict == "equivalent" and not got["first_leader.drawn"].trial.changed
    # Caught only by an invariant no clause writes down: still a silence, and it says which.
    skip = got["next_seat.p5.skip"]
    assert (
        skip.verdict == "silence"
        and skip.trial.invariant is not None
        and skip.trial.invariant.by == "turn.next"
    )


def test_a_mutant_s_trial_does_not_depend_on_the_points_the_spec_declares() -> None:
    """Hiding a point changes only whether a mutant is already asked, never what it does."""
    name = "round_leader.after_leader"
    silences.clear_memory()
    declared = silences.classify(SPEC, PUBLISHED, name, CI, SEED)
    silences.clear_memory()
    copy = SPEC.without_point("round_leader")
    hidden = silences.classify(copy, copy.ruleset(), name, CI, SEED)
    assert copy.ruleset() == PUBLISHED
    assert hidden.trial == declared.trial
    assert (declared.verdict, hidden.verdict) == ("already_asked", "silence")


def test_a_silence_is_a_finding_with_the_mutant_as_its_alternative() -> None:
    outcome = silences.classify(SPEC, PUBLISHED, "round_leader.after_went_out", CI, SEED)
    finding = silences.silence_finding(SPEC, PUBLISHED, outcome)
    assert finding.kind is FindingKind.SILENCE and finding.topic == "round_leader"
    assert finding.alternative is not None
    assert finding.alternative.played.engine is Game
    assert finding.alternative.compared.engine is MUTANTS["round_leader.after_went_out"]
    assert finding.alternative.compared.words == "the player after the one who went out leads the next round"
    assert finding.alternative.labels == ("the engine", "the mutant")
    assert "the player after the one who went out" in finding.detail and "round_leader" not in finding.detail
    assert finding.witness is not None and finding.clauses == ("round.end", "trick.winner")
    assert finding.proposed_wording == words_of(SPEC).mutations["round_leader"].wording["en"]


def test_the_check_at_levels_quick_and_ci() -> None:
    assert sum(1 for c in CHECKS if c.name == silences.NAME) == 1
    quick = silences.check_mutants(CheckContext(SPEC, PUBLISHED, "quick", SEED))
    assert quick.mutants == len(silences.QUICK_MUTANTS)
    ci = silences.check_mutants(CheckContext(SPEC, PUBLISHED, "ci", SEED))
    assert ci.mutants == len(silences.CI_MUTANTS) > quick.mutants
    assert ci.notes[0] == f"mutants run: {ci.mutants}"
    assert any(n.startswith("silences (") for n in ci.notes) and any(
        n.startswith("already asked (") for n in ci.notes
    )
    assert {f.topic for f in ci.findings} >= {"hand_size", "round_leader"}
    # Every topic the ci level finds on the embedded spec has its question in the words file.
    topics = {t for q in words_of(SPEC).questions.values() for t in q.topics}
    assert {f.topic for f in ci.findings} <= topics
    assert all("_" not in f.alternative.labels[1] for f in ci.findings if f.alternative)
    # Deterministic: the same seed gives the same findings, remembered or not.
    silences.clear_memory()
    again = silences.check_mutants(CheckContext(SPEC, PUBLISHED, "ci", SEED))
    assert json.dumps([f.to_json() for f in again.findings]) == json.dumps([f.to_json() for f in ci.findings])
    assert again.notes == ci.notes
    assert set(silences.mutants_for("deep")) == set(MUTANTS)
    # Every silence's witness is a table a designer can follow: at most ten moves before the one
    # that differs (a difference at the end of a round shows on a round of one move: the mover
    # goes out with it).
    for f in ci.findings:
        assert f.witness is not None, f.id
        moves = len(f.witness.position.moves) if f.witness.position is not None else 0
        assert moves <= 10, (f.id, moves)
    # On the embedded spec the engine passes every question: every mutant was examined.
    assert ci.examined == ci.mutants and ci.warnings == ()
    # What a clause settled is listed, one entry per mutant killed by a clause, in its words.
    found = silences.discover(SPEC, PUBLISHED, silences.CI_MUTANTS, CI, SEED)
    killed = [o.name for o in found.of("killed")]
    assert killed and [c.candidate for c in ci.settled] == killed
    for c in ci.settled:
        [clause] = c.clauses
        assert clause in SPEC.clauses and c.change == silences.describe(words_of(SPEC), c.candidate)
        assert "_" not in c.change and "_" not in c.found  # no ids in what a designer reads
        text = f"{SPEC.clauses[clause].de} {SPEC.clauses[clause].es}"
        # The quote is the source's own words (an ellipsis marks what it leaves out).
        assert all(part.strip() in text for part in c.says.split("...")), (c.says, text)


def test_mutants_killed_by_a_question_the_engine_fails_too_are_a_warning_not_ok(tmp_path: Path) -> None:
    """With 3 copies of each card the unmutated engine fails the texts' "4 pro Karte" question too,
    so the 16 mutants it "killed" were never compared with the engine: the check says so."""
    spec = load_spec(write_spec_copy(tmp_path / "house.yaml", THREE_COPIES_TO_30))
    [result] = run_checks(spec, spec.ruleset(), level="ci", seed=SEED, only=[silences.NAME]).results
    assert result.ok and result.mutants == 18 and result.exhaustive == result.generated == 0
    # Killed by a question the engine passes: pile.single (beats.single.flip), trick.winner.
    assert result.examined == 2
    assert result.warnings == (
        "16 of 18 mutants killed by a question of the texts that the unmutated engine fails too under "
        "these rules, so never compared with the engine (deck.copies (deck.copies.count): 3 copies of "
        "each card with 2 players, not 4)",
    )
    assert status_word(result) == "warning"
    # A mutant never compared with the engine was settled by nothing: only the two examined are listed.
    assert [c.candidate for c in result.settled] == [
        "beats.single.flip",
        "trick_winner.rule_of_8.first_placer",
    ]
    # Had every mutant been killed so, the check examined nothing, and says that first.
    found = silences.discover(spec, spec.ruleset(), silences.CI_MUTANTS, CI, SEED)
    void = silences.unexamined(spec.ruleset(), found)
    only_void = silences.Discovery([o for o, _ in void])
    [said] = silences.warnings_of(only_void, void, words_of(spec))
    assert said.startswith("examined nothing: every mutant (16) killed by a question of the texts")


def test_every_mutant_is_described_by_the_words_file() -> None:
    families = words_of(SPEC).mutations
    for name, cls in MUTANTS.items():
        family = families[cls.INFO.hook]
        assert cls.INFO.operator in family.operators, name
        assert "{" not in silences.describe(words_of(SPEC), name), name
        assert set(family.wording) == {"en", "de", "es"}
    texts = words_of(SPEC).mutation_texts
    assert texts is not None
    unwritten = {name for name, clause in INVARIANTS.items() if clause is None}
    # "tables": where the rule mutants' witness search (discovery.rules) finds one.
    assert unwritten <= set(texts.invariants) and set(texts.found) == {"deal", "tricks", "matches", "tables"}


def _house_words(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    text = words_path(embedded_spec_path()).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (tmp_path / "house.words.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '\n  penalty:\n    title: "How many points',
            '\n  scoring:\n    title: "How many points',
            "'scoring' is not a public hook",
        ),
        ("a {rank} left in hand", "a {colour} left in hand", "has the blank {colour}"),
        (
            "    clauses: [round.end, trick.winner]\n    operators:\n      after_leader",
            "    clauses: [round.ends, trick.winner]\n    operators:\n      after_leader",
            "names clause 'round.ends'",
        ),
    ],
)
def test_a_mistake_in_the_mutations_section_is_one_line_naming_file_and_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(SpecError) as err:
        load_spec(_house_words(tmp_path, old, new))
    text = str(err.value)
    assert "\n" not in text and "house.words.yaml:" in text and message in text, text
    line = int(text.split("house.words.yaml:")[1].split(":")[0])
    assert line > 1000  # in the mutations section, not at the top of the file
