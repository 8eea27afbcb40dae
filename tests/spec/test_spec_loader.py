"""The embedded spec loads and is complete; a bad spec file is one line naming file, line and key."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from five35.spec import SpecError, dumps, embedded_spec_path, load_spec
from scenario_tools import spec

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")


# ---- the embedded spec ----------------------------------------------------------------------------


def test_embedded_spec_loads_with_its_three_profiles() -> None:
    s = spec()
    assert s.default_profile == "published"
    assert {"published", "german-literal", "spanish-literal"} <= set(s.profiles)
    assert set(s.sources) == {"de", "es"}


def test_variation_points_have_readings_a_default_and_real_clauses() -> None:
    s = spec()
    assert len(s.variation_points) >= 10
    for vp in s.variation_points.values():
        assert len(vp.readings) >= 2, vp.name
        assert vp.default in vp.readings, vp.name
        assert vp.cites, f"{vp.name} cites no clause"
        for cid in vp.cites:
            assert cid in s.clauses, f"{vp.name} cites missing clause {cid}"
        assert vp.question.strip() and vp.rationale.strip()
        assert all(text.strip() for text in vp.readings.values())


def test_every_citation_names_an_existing_clause() -> None:
    s = spec()
    for param in s.parameters.values():
        assert set(param.cites) <= set(s.clauses), param.name
    for rule in s.rules:
        assert rule.cites and set(rule.cites) <= set(s.clauses), rule.id
        assert set(rule.uses) <= set(s.parameters) | set(s.variation_points), rule.id


@pytest.mark.parametrize("profile", ["published", "german-literal", "spanish-literal"])
def test_every_profile_chooses_a_reading_for_every_point(profile: str) -> None:
    s = spec()
    chosen = s.profiles[profile].readings
    assert set(chosen) == set(s.variation_points)
    for point, choice in chosen.items():
        assert choice.reading in s.variation_points[point].readings, (profile, point)
    rules = s.ruleset(profile)
    assert set(rules.readings) == set(s.variation_points)
    assert rules.overridden == ()


def test_the_default_profile_uses_every_default_reading_the_evidence_settles() -> None:
    """The published profile and the defaults agree: a default that no profile uses would be odd."""
    s = spec()
    published = s.profiles["published"].readings
    for vp in s.variation_points.values():
        assert published[vp.name].reading == vp.default, vp.name


def test_ruleset_is_hashable_and_order_independent() -> None:
    s = spec()
    a = s.ruleset("published", {"run_wrap": "wrap", "deal": "deal_all"})
    b = s.ruleset("published", {"deal": "deal_all", "run_wrap": "wrap"})
    assert a == b and hash(a) == hash(b)
    assert a.overridden == ("deal", "run_wrap")
    assert a.label() == "published+deal=deal_all,run_wrap=wrap"
    assert s.ruleset("published", {"run_wrap": "no_wrap"}).overridden == ()


def test_to_json_is_stable() -> None:
    s = spec()
    assert dumps(s.to_json()) == dumps(load_spec().to_json())
    assert dumps(s.ruleset().to_json()) == dumps(s.ruleset("published").to_json())


@pytest.mark.parametrize(
    ("profile", "readings", "where", "words"),
    [
        ("nonesuch", {}, "--profile", "nonesuch"),
        ("published", {"run_wrapp": "wrap"}, "--reading", "run_wrapp"),
        ("published", {"run_wrap": "sometimes"}, "--reading", "sometimes"),
    ],
)
def test_bad_profile_or_reading_choice_is_one_line(
    profile: str, readings: dict[str, str], where: str, words: str
) -> None:
    with pytest.raises(SpecError) as err:
        spec().ruleset(profile, readings)
    assert err.value.where == where
    assert words in str(err.value) and "\n" not in str(err.value)


# ---- bad spec files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadSpec:
    """Edit the embedded spec text (`old` -> `new`); the error must point at the line holding
    `line_of` in the edited file and name `key`."""

    old: str
    new: str
    line_of: str
    key: str
    words: str = ""


BAD_SPECS = {
    "misspelt key": BadSpec(
        "    cites: [pile.run, deck.ranks]\n    readings:\n      gaps_break",
        "    cites: [pile.run, deck.ranks]\n    readngs:\n      gaps_break",
        "    readngs:",
        "variation_points.run_gaps.readngs",
        "unknown key",
    ),
    "misspelt top-level key": BadSpec("\nprofiles:\n", "\nprofils:\n", "profils:", "profils", "unknown key"),
    "unknown reading in a profile": BadSpec(
        '      run_order: {reading: lower_beats, basis: text, note: "The example (1,2,3 > 11,12,13) defines',
        '      run_order: {reading: lower_beat, basis: text, note: "The example (1,2,3 > 11,12,13) defines',
        "{reading: lower_beat,",
        "profiles.german-literal.readings.run_order",
        "lower_beat",
    ),
    "unknown variation point in a profile": BadSpec(
        "      turn_order: {reading: ascending_seats, basis: silent}\n\ndefault_profile",
        "      turn_ordr: {reading: ascending_seats, basis: silent}\n\ndefault_profile",
        "turn_ordr:",
        "profiles.spanish-literal.readings.turn_ordr",
        "unknown variation point",
    ),
    "missing clause cited by a rule": BadSpec(
        "    cites: [trick.end, trick.end.run, trick.winner]",
        "    cites: [trick.end, trick.end.rn, trick.winner]",
        "trick.end.rn",
        "rules.12.cites",
        "'trick.end.rn', which does not exist",
    ),
    "missing clause cited by a variation point": BadSpec(
        "    cites: [eight.value, deck.points]",
        "    cites: [eight.valu, deck.points]",
        "[eight.valu,",
        "variation_points.eight_rank.cites",
        "eight.valu",
    ),
    "wrong type": BadSpec(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: five",
        "value: five",
        "parameters.run_closing_size.value",
        "expected integer",
    ),
    "wrong type (text for a boolean)": BadSpec(
        "    in_text: false\n    readings:\n      table:",
        '    in_text: "no"\n    readings:\n      table:',
        'in_text: "no"',
        "variation_points.deal.in_text",
        "expected boolean",
    ),
    "empty value": BadSpec(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value:",
        "    value:\n    cites: [trick.end.run]",
        "parameters.run_closing_size.value",
        "expected integer, got null",
    ),
    "a date for a list": BadSpec(
        "    cites: [eight.value, deck.points]",
        "    cites: 2020-01-01",
        "cites: 2020-01-01",
        "variation_points.eight_rank.cites",
        "expected array",
    ),
    "min_set_size above set_closing_size": BadSpec(
        "  min_set_size:\n    value: 2",
        "  min_set_size:\n    value: 6",
        "  set_closing_size:",
        "parameters.set_closing_size",
        "below min_set_size 6",
    ),
    "min_run_size above run_closing_size": BadSpec(
        "  min_run_size:\n    value: 2",
        "  min_run_size:\n    value: 6",
        "  run_closing_size:",
        "parameters.run_closing_size",
        "below min_run_size 6",
    ),
    "a default that is not a reading": BadSpec(
        "    default: gaps_break", "    default: gaps_broken", "default: gaps_broken", "run_gaps.default"
    ),
    "invalid YAML (unclosed bracket)": BadSpec(
        '    explain: "A game has 2 to 6 players."',
        "    explain: [A game has 2 to 6 players.",
        "explain: [A game",
        "parameters.players.explain",
        "not valid YAML",
    ),
    "invalid YAML (a colon in a plain value)": BadSpec(
        '    question: "Does a run continue from 15 to 1 (is 15,1 a run)?"',
        "    question: Does a run continue: from 15 to 1?",
        "Does a run continue:",
        "variation_points.run_wrap.question",
        "not valid YAML",
    ),
    "a tag the safe loader refuses": BadSpec(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: !!python/object:os.system 5",
        "value: !!python/object",
        "parameters.run_closing_size.value",
        "tag '!!python/object:os.system' is not allowed",
    ),
    "duplicate key": BadSpec(
        "  run_wrap:\n    question:", "  run_gaps:\n    question:", "  run_gaps:\n    question:", "run_gaps"
    ),
    "a profile choosing no reading for a point": BadSpec(
        "      turn_order: {reading: ascending_seats, basis: silent}\n\ndefault_profile",
        "\ndefault_profile",
        "  spanish-literal:",
        "profiles.spanish-literal",
        "turn_order",
    ),
}


def _line_of(text: str, fragment: str, occurrence: int = -1) -> int:
    """1-based line where `fragment` starts (its last occurrence: edits that duplicate a key put the
    new copy after the first)."""
    index = text.rfind(fragment) if occurrence == -1 else text.find(fragment)
    assert index >= 0, fragment
    line = text.count("\n", 0, index) + 1
    # A fragment that starts with a newline points at the line after it.
    return line + (len(fragment) - len(fragment.lstrip("\n")))


@pytest.mark.parametrize("case", list(BAD_SPECS), ids=list(BAD_SPECS))
def test_bad_spec_file_is_one_line_naming_file_line_and_key(case: str, tmp_path: Path) -> None:
    bad = BAD_SPECS[case]
    assert EMBEDDED.count(bad.old) == 1, f"{case}: the edit no longer applies to the spec"
    text = EMBEDDED.replace(bad.old, bad.new)
    path = tmp_path / "house-535.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    message = str(err.value)
    assert "\n" not in message
    line = _line_of(text, bad.line_of.lstrip(" ") if bad.line_of.startswith("  ") else bad.line_of)
    assert message.startswith(f"{path}:{line}: "), f"{case}: expected line {line}: {message}"
    assert bad.key in message, message
    assert bad.words in message, message


def test_a_house_profile_extending_published_loads(tmp_path: Path) -> None:
    text = EMBEDDED.replace(
        "\ndefault_profile:",
        "\n  house:\n    title: House rules\n    source: our table\n    status: house\n"
        "    extends: published\n    readings:\n      run_wrap: {reading: wrap, basis: house}\n"
        "    parameters:\n      match_end_score: 30\n\ndefault_profile:",
    )
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    s = load_spec(path)
    rules = s.ruleset("house")
    assert rules.reading("run_wrap") == "wrap"
    assert rules.reading("run_gaps") == "gaps_break"  # inherited from published
    assert rules.match_end_score == 30
    # The source texts are found even though the copy lives elsewhere.
    assert s.sources["de"].file.is_file()


def test_bad_bounds_in_a_profile_point_at_the_profile(tmp_path: Path) -> None:
    text = EMBEDDED.replace(
        "\ndefault_profile:",
        "\n  house:\n    title: House rules\n    source: our table\n    status: house\n"
        "    extends: published\n    parameters:\n      min_run_size: 6\n\ndefault_profile:",
    )
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    message = str(err.value)
    assert "\n" not in message and "min_run_size 6" in message
    assert message.startswith(f"{path}:{_line_of(text, '    parameters:')}: profiles.house.parameters")


@pytest.mark.parametrize(
    ("content", "words"), [(b"", "empty"), (b"\xff\xfe\x00bad", "UTF-8"), (b"- just\n- a list\n", "expected")]
)
def test_unusable_files_are_one_line(content: bytes, words: str, tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(content)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert words in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)


def test_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "nope.yaml")
    assert "cannot read" in str(err.value) and "\n" not in str(err.value)


# Values a hand-edited spec might end up with: wrong types, YAML oddities (dates, binary, aliases).
ODD_VALUES = ["x", "1", "-3", "[]", "{}", "null", "", "true", "'5'", "[1, two]", "{a: 1}", "0", "99", '""',
              "~", "&a x", "*a", "!!binary aGk=", "2020-01-01", "1.5", "[[]]", "{7: 1}"]  # fmt: skip


def _mutate(text: str, seed: int) -> str:
    rng = random.Random(f"spec-mutation:{seed}")
    lines = text.splitlines()
    j = rng.randrange(len(lines))
    kind = rng.randrange(3)
    if kind == 0:
        del lines[j]
    elif kind == 1 and ":" in lines[j]:
        lines[j] = lines[j].partition(":")[0] + ": " + rng.choice(ODD_VALUES)
    else:
        lines.insert(j, lines[rng.randrange(len(lines))])
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(24))
def test_a_mangled_spec_never_gives_a_traceback(seed: int, tmp_path: Path) -> None:
    """One random edit (seeded: delete a line, give a key an odd value, duplicate a line): the file
    either still loads or raises a one-line SpecError naming the file; nothing else escapes."""
    path = tmp_path / "mangled.yaml"
    path.write_text(_mutate(EMBEDDED, seed), encoding="utf-8")
    try:
        load_spec(path)
    except SpecError as err:
        assert "\n" not in str(err) and str(err).startswith(str(path))


def test_a_profile_that_extends_itself_in_a_loop_is_refused(tmp_path: Path) -> None:
    house = (
        "\n  house-a:\n    title: A\n    source: ours\n    status: house\n    extends: house-b\n"
        "  house-b:\n    title: B\n    source: ours\n    status: house\n    extends: house-a\n"
    )
    text = EMBEDDED.replace("\ndefault_profile:", house + "\ndefault_profile:")
    path = tmp_path / "loop.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:{_line_of(text, 'extends: house-b')}: profiles.house-a.extends")
    assert "house-a -> house-b -> house-a" in message
