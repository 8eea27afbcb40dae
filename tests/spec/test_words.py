"""The rulebook's words as data (spec/535.words.yaml): loaded and checked with the spec, every
reference in them real, every scene playable, and a designer's edit to the data shows in the
findings without touching Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.checks.impact.alternatives import variant
from five35.checks.impact.scenes import scene_of
from five35.checks.impact.variants import VARIANTS
from five35.checks.runner import all_checks
from five35.checks.solver.proofs import PROPERTIES
from five35.checks.text.dead_clauses import catalogue, player_classes
from five35.checks.text.examples import EXAMPLES
from five35.checks.text.text_audit import text_audit
from five35.engine import Game
from five35.spec import SpecError, embedded_spec_path, load_spec
from five35.spec.files import bundled_schema
from five35.spec.words import words_of, words_path
from five35.spec.words_model import (
    CHECK_NAMES,
    CHECK_SENTENCE_BLANKS,
    PLAIN_BLANKS,
    VECTOR_SENTENCE_BLANKS,
    WORDS_SUFFIX,
    Words,
)

SPEC = load_spec()
WORDS = words_of(SPEC)
EMBEDDED_WORDS = embedded_spec_path().with_name(embedded_spec_path().stem + WORDS_SUFFIX)
TEXT = EMBEDDED_WORDS.read_text(encoding="utf-8")


def test_the_embedded_spec_carries_its_words() -> None:
    assert SPEC.words is WORDS
    assert WORDS.path == EMBEDDED_WORDS
    assert {"E1", "E9"} <= set(WORDS.evidence)
    # "same page" names the page it refers to
    assert "boardgamearena.com" in WORDS.evidence["E6"].source
    assert len(WORDS.mismatches) == 7
    for m in WORDS.mismatches:
        assert re.search(m.de_pattern, SPEC.clauses[m.clause].de or ""), m.key
        assert re.search(m.es_pattern, SPEC.clauses[m.clause].es or ""), m.key


def test_every_variant_the_words_name_exists() -> None:
    for alt in WORDS.alternatives.values():
        engine = variant(WORDS, alt)
        assert alt.variant is None or VARIANTS[alt.variant] is engine


def test_every_scene_plays_from_its_position_under_the_published_rules() -> None:
    rs = SPEC.ruleset()
    for name, words in WORDS.scenes.items():
        scene = scene_of(words, WORDS.check("impact.scenes"))
        assert scene is not None
        game = Game(rs, scene.position.players)
        state = game.play_from(scene.position)  # every play so far is legal
        assert state.phase == "play", name
        assert scene.then, name


def test_every_scene_of_a_check_names_a_subject_the_check_has() -> None:
    rs = SPEC.ruleset()
    parts = {p.id for p in catalogue(rs)}
    dead = parts | {f"{p}@{n}" for p in parts for n in player_classes(rs)}
    subjects = {
        "dead_clauses": dead,
        "text_examples": {e.id for e in EXAMPLES},
        "proofs": {p.id for p in PROPERTIES}
        | {f"reach.{k}_close.players-{n}" for k in ("set", "run") for n in range(2, 7)},
    }
    assert set(WORDS.scene_of) <= set(subjects)
    for check, shown in WORDS.scene_of.items():
        assert set(shown) <= subjects[check], (check, set(shown) - subjects[check])


def test_one_wording_per_subject_and_the_turn_order_agrees_with_itself() -> None:
    found = {f.id: f for f in text_audit(SPEC, SPEC.ruleset())}
    sentence = WORDS.wording("turn_order")
    assert sentence and "clockwise" in sentence and "anticlockwise" not in sentence
    assert found["gap.point.turn_order"].proposed_wording == sentence
    assert set(WORDS.wordings) <= set(SPEC.variation_points) | set(SPEC.parameters)


# ---- a designer edits the words ------------------------------------------------------------------


def _house(tmp_path: Path, words: str, spec: str | None = None) -> Path:
    """A house-rules copy of the spec, with its own words file beside it."""
    path = tmp_path / "house.yaml"
    path.write_text(spec if spec is not None else embedded_spec_path().read_text(encoding="utf-8"), "utf-8")
    (tmp_path / f"house{WORDS_SUFFIX}").write_text(words, encoding="utf-8")
    return path


def test_a_changed_wording_in_the_data_is_the_finding_s_wording(tmp_path: Path) -> None:
    old = WORDS.wordings["points"]
    new = "Every card left in hand scores its printed points (see the table on the box)."
    house = load_spec(_house(tmp_path, TEXT.replace(old, new)))
    assert words_path(house.path) == tmp_path / f"house{WORDS_SUFFIX}"
    found = {f.id: f for f in text_audit(house, house.ruleset())}
    assert found["gap.parameter.points"].proposed_wording == new
    # a severity too
    graded = TEXT.replace("first_leader: {severity: low}", "first_leader: {severity: high}")
    again = load_spec(_house(tmp_path, graded))
    assert {f.id: f for f in text_audit(again, again.ruleset())}["gap.point.first_leader"].severity == "high"


def test_a_spec_without_its_own_words_uses_the_embedded_ones(tmp_path: Path) -> None:
    path = tmp_path / "plain.yaml"
    path.write_text(embedded_spec_path().read_text(encoding="utf-8"), encoding="utf-8")
    assert words_path(path) == EMBEDDED_WORDS
    assert isinstance(load_spec(path).words, Words)


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        ("scene: scoring}", "scene: scorign}", "scene: scorign", "gaps.points.scene: names scene 'scorign'"),
        ("    variant: example_order\n", "    variant: example_ordr\n", None, None),
        (
            "first_leader: {severity: low}",
            "first_leader: {severity: lowish}",
            "lowish",
            "first_leader.severity",
        ),
        ('parameter: "State the value', 'parameter: "State {what} the value', "State {what}", "{what}"),
        ("    same_source_as: E5\n", "    same_source_as: E55\n", "E55", "names evidence 'E55'"),
        (
            "    points: [turn_order]",
            "    points: [turn_ordre]",
            "turn_ordre",
            "neither a variation point",
        ),
        (
            "    points: [turn_order]\n",
            "    points: [turn_order]\n    texts_point_to_answer: true\n",
            "texts_point_to_answer",
            "is for a question without points",
        ),
        ("    hands: [[3], [1, 8, 15]]", "    hands: [[3], [1, 8, 16]]", "[1, 8, 16]", "ranks [16]"),
        ("mismatches:\n", "mismatchez:\n", "mismatchez", "unknown key 'mismatchez'"),
        (
            'defect_clause: "Clause {clause} is',
            'defect_clause: "Clause {clauses} is',
            "{clauses} is",
            "checks.sentences.text_audit.defect_clause: has the blank {clauses}",
        ),
        (
            "differently ({clauses}).",
            "differently ({clause}).",
            "({clause}).",
            "plain.findings.ambiguity: has the blank {clause}",
        ),
        (
            '      scope_ruleset: "the ruleset"\n',
            '      scope_rulset: "the ruleset"\n',
            "scope_rulset",
            "'scope_rulset'",
        ),
    ],
)
def test_a_mistake_in_the_words_is_one_line_naming_file_and_line(
    tmp_path: Path, old: str, new: str, needle: str | None, message: str | None
) -> None:
    assert old in TEXT
    bad = TEXT.replace(old, new, 1)
    path = _house(tmp_path, bad)
    if needle is None:
        # A variant name the words file cannot check by itself: refused where the check uses it.
        spec = load_spec(path)
        with pytest.raises(SpecError, match="names variant 'example_ordr'") as err:
            text_audit(spec, spec.ruleset())
        assert f"house{WORDS_SUFFIX}:" in str(err.value) and "\n" not in str(err.value)
        return
    with pytest.raises(SpecError) as err:
        load_spec(path)
    text = str(err.value)
    assert "\n" not in text
    assert f"house{WORDS_SUFFIX}:{_line_of(bad, needle)}:" in text, text
    assert message is not None and message in text, text


def test_an_evidence_id_the_spec_cites_must_be_in_the_evidence_table(tmp_path: Path) -> None:
    spec_text = (
        embedded_spec_path().read_text(encoding="utf-8").replace("evidence: [E8, E9]", "evidence: [E99]", 1)
    )
    path = _house(tmp_path, TEXT, spec_text)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert f"house.yaml:{_line_of(spec_text, 'evidence: [E99]')}:" in str(err.value)
    assert "cites evidence 'E99'" in str(err.value)


def test_the_command_line_names_the_words_file_and_exits_2(tmp_path: Path) -> None:
    path = _house(tmp_path, TEXT.replace("scene: scoring}", "scene: nowhere}", 1))
    run_bad_input(["rules", "--spec", str(path)], 2, f"house{WORDS_SUFFIX}:", "nowhere", cwd=tmp_path)


def test_the_checks_words_are_the_ones_the_loader_knows() -> None:
    """The schema's `checks` section and the blanks table name the same sentences, and the
    embedded words give every registered check its title."""
    checks = bundled_schema("words.schema.json")["properties"]["checks"]["properties"]
    assert list(checks["titles"]["properties"]) == list(CHECK_NAMES)
    sentences = checks["sentences"]["properties"]
    assert {c: set(row["properties"]) for c, row in sentences.items()} == {
        c: set(table) for c, table in CHECK_SENTENCE_BLANKS.items()
    }
    assert [c.name for c in all_checks()] == list(CHECK_NAMES)
    assert all(WORDS.check(name).title for name in CHECK_NAMES)


# ---- the conformance vectors' words ------------------------------------------------------------


def test_the_vectors_words_are_the_ones_the_loader_knows() -> None:
    """The schema's `vectors.sentences` and the blanks table name the same sentences."""
    section = bundled_schema("words.schema.json")["properties"]["vectors"]["properties"]
    assert list(section["sentences"]["properties"]) == list(VECTOR_SENTENCE_BLANKS)
    assert list(WORDS.vectors.sentences) == list(VECTOR_SENTENCE_BLANKS)


def test_a_blank_the_vectors_do_not_fill_is_named_with_its_line(tmp_path: Path) -> None:
    old = '    seeded: "{players} players, match seed {seed}:'
    bad = TEXT.replace(old, old.replace("{seed}", "{sed}"), 1)
    assert bad != TEXT
    with pytest.raises(SpecError) as err:
        load_spec(_house(tmp_path, bad))
    text = str(err.value)
    assert f"house{WORDS_SUFFIX}:{_line_of(bad, 'match seed {sed}')}:" in text, text
    assert "vectors.sentences.seeded: has the blank {sed}" in text, text


def test_the_plain_words_are_the_ones_the_loader_knows() -> None:
    """The schema's `plain` section and the blanks table name the same sentences, and every one of
    them is in the embedded words, filled by its group."""
    plain = bundled_schema("words.schema.json")["properties"]["plain"]["properties"]
    named = {group: set(plain[group]["properties"]) - {"basis"} for group in PLAIN_BLANKS}
    assert named == {group: set(table) for group, table in PLAIN_BLANKS.items()}
    groups = {name: getattr(WORDS.plain, name).sentences for name in PLAIN_BLANKS}
    assert {name: set(row) for name, row in groups.items()} == named
    assert WORDS.plain.scenes("won_by", player="player 2") == ", won by player 2"
