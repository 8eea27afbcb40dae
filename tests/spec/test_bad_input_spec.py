"""Bad spec files through the real command line: one line `file:line: key: message`, exit 2.

Every case is the embedded spec with one small edit (a text replacement), written to a temporary
folder and run through `535-check rules --spec` (a few also through `simulate` and `check`). The
expected line is where the edit's `line_of` fragment stands in the edited file: the line a user
has to change, not the line where a parser happened to notice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.engine.cards import MAX_COPIES
from five35.spec import MATCH_ROUND_LIMIT, embedded_spec_path
from five35.spec.limits import MAX_DEPTH, MAX_FILE_BYTES
from five35.spec.yaml_input import MAX_ALIAS_NODES, MAX_ALIASES

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")
NAME = "house-535.yaml"


@dataclass(frozen=True)
class Bad:
    """Replace `old` (which must occur once) by `new`; the error must name the line of `line_of` in
    the edited text (its first occurrence, or the whole file when None), the key and the words."""

    old: str
    new: str
    line_of: str | None
    key: str
    words: str
    setup: Callable[[Path], None] | None = None
    also: tuple[tuple[str, str], ...] = ()  # further replacements, applied after the first


def _block(start: str, end: str) -> str:
    """The embedded text from `start` up to (not including) `end`."""
    i = EMBEDDED.index(start)
    return EMBEDDED[i : EMBEDDED.index(end, i)]


LAUGHS = "lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9)
)


def _laughs_line() -> str:
    """The line whose aliases push the expansion over the limit: line i holds 9 aliases of a list
    that expands to size(i - 1) nodes, where size(0) = 10 and size(i) = 1 + 9 * size(i - 1)."""
    size, added = 10, 0
    for i in range(1, 9):
        added += 9 * size
        if added > MAX_ALIAS_NODES:
            return f"lol{i}: &l{i}"
        size = 1 + 9 * size
    raise AssertionError("the bomb is too small for the limit")


LAUGHS_LINE = _laughs_line()
END = "\ndefault_profile: published\n"
HOUSE = (
    "\n  house:\n    title: House rules\n    source: our table\n    status: house\n"
    "    extends: published\n    parameters:\n"
)
PLAYERS_PARAM = '    explain: "A game has 2 to 6 players."'
COPIES = "    value: {small_game: 4, large_game: 5}\n    cites: [deck.copies]"
POINTS = "{1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}"
ZERO_POINTS = "{" + ", ".join(f"{r}: 0" for r in (1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15)) + "}"
RUN_GAPS = "      gaps_skipped:\n"
HAND_SIZES = "{2: 12, 3: 13, 4: 12, 5: 12, 6: 10}"
TURN_ORDER_POINT = _block("  turn_order:\n    question:", "\nrules:")


def _write_bad_source(folder: Path) -> None:
    (folder / "sources").mkdir()
    (folder / "sources" / "latin1.txt").write_bytes("Fünf Drei Fünf".encode("latin-1"))


CASES: dict[str, Bad] = {
    # ---- YAML syntax: the line where the mistake starts -----------------------------------------
    "unclosed double quote": Bad(
        'game: "535 (Five Three Five)"', 'game: "535 (Five Three Five)', "game:", "game", "quote opened"
    ),
    "unclosed single quote": Bad(
        'game: "535 (Five Three Five)"', "game: '535 (Five Three Five)", "game:", "game", "not valid YAML"
    ),
    "unclosed quote in a nested value": Bad(
        PLAYERS_PARAM,
        '    explain: "A game has 2 to 6 players.',
        "A game has 2",
        "parameters.players.explain",
        "quote opened",
    ),
    "unclosed quote on the last line": Bad(
        END, '\ndefault_profile: "published\n', "default_profile:", "default_profile", "quoted scalar"
    ),
    "unclosed flow sequence": Bad(
        "    cites: [eight.exemption]\n",
        "    cites: [eight.exemption\n",
        "[eight.exemption",
        "variation_points.eight_exemption.cites",
        "flow sequence",
    ),
    "unclosed flow mapping": Bad(
        "    value: {min: 2, max: 6}",
        "    value: {min: 2, max: 6",
        "{min: 2, max: 6",
        "parameters.players.value",
        "flow mapping",
    ),
    "a tab for indentation": Bad(
        PLAYERS_PARAM, '\texplain: "A game has 2 to 6 players."', "\texplain", "parameters", "tab"
    ),
    "a key indented too far": Bad(
        PLAYERS_PARAM,
        '     explain: "A game has 2 to 6 players."',
        '     explain: "A game has 2',
        "parameters.players",
        "not valid YAML",
    ),
    "a key indented too little": Bad(
        PLAYERS_PARAM,
        '   explain: "A game has 2 to 6 players."',
        '   explain: "A game has 2',
        "parameters.players",
        "not valid YAML",
    ),
    "a colon in a plain value": Bad(
        '    question: "Does a run continue from 15 to 1 (is 15,1 a run)?"',
        "    question: Does a run continue: from 15 to 1?",
        "Does a run continue:",
        "variation_points.run_wrap.question",
        "not valid YAML",
    ),
    "a bad escape": Bad(
        PLAYERS_PARAM,
        '    explain: "A game has 2 to 6 players.\\q"',
        "players.\\q",
        "parameters.players.explain",
        "escape",
    ),
    "a second document": Bad(END, "\n---\ndefault_profile: published\n", "---", "", "single document"),
    "a control character": Bad(
        PLAYERS_PARAM,
        '    explain: "A game has 2 to 6\x07 players."',
        "\x07",
        "parameters.players.explain",
        "U+0007",
    ),
    "an empty file": Bad(EMBEDDED, "", None, "", "empty"),
    "a list instead of a mapping": Bad(
        EMBEDDED, "- just\n- a list\n", "- just", "(top level)", "expected object"
    ),
    # ---- anchors and aliases ---------------------------------------------------------------------
    "an alias that contains itself": Bad(END, "\nloop: &x [*x]" + END, "loop:", "loop", "cycle"),
    "a mapping alias that contains itself": Bad(
        PLAYERS_PARAM, "    explain: &x {more: *x}", "explain: &x", "parameters.players.explain", "cycle"
    ),
    "a billion laughs alone": Bad(EMBEDDED, LAUGHS, LAUGHS_LINE, "lol", "expand to more than"),
    "a billion laughs under an unknown key": Bad(
        END,
        "\nbomb:\n" + "".join(f"  {line}\n" for line in LAUGHS.splitlines()) + END,
        "  " + LAUGHS_LINE,
        "bomb.lol",
        "expand to more than",
    ),
    "too many aliases": Bad(
        END,
        "\nwords: &w word\nmany: [" + ", ".join(["*w"] * (MAX_ALIASES + 1)) + "]" + END,
        "many:",
        "many",
        f"more than {MAX_ALIASES} aliases",
    ),
    "an alias that expands too deep": Bad(
        END,
        f"\ndeep: &d {'[' * (MAX_DEPTH - 2)}{']' * (MAX_DEPTH - 2)}\nuses: [[[*d]]]" + END,
        "uses: [[[",
        "uses",
        "levels of nesting",
    ),
    "an alias to no anchor": Bad(
        PLAYERS_PARAM, "    explain: *nowhere", "*nowhere", "parameters.players", "no anchor"
    ),
    "a duplicate anchor": Bad(
        PLAYERS_PARAM,
        "    explain: &a one\n    in_text: &a true",
        "in_text: &a",
        "parameters.players.in_text",
        "duplicate anchor",
    ),
    "a merge key": Bad(
        PLAYERS_PARAM, PLAYERS_PARAM + "\n    <<: {in_text: true}", "<<:", "parameters.players", "merge keys"
    ),
    "a list as a key": Bad(
        PLAYERS_PARAM,
        PLAYERS_PARAM + "\n    ? [a, b]\n    : 1",
        "? [a, b]",
        "parameters.players",
        "plain value",
    ),
    # ---- nesting and size ------------------------------------------------------------------------
    "20,000 nested lists": Bad(
        END,
        "\nextra: " + "[" * 20_000 + "]" * 20_000 + END,
        "extra:",
        "extra",
        f"more than {MAX_DEPTH} levels",
    ),
    "3,000 nested flow mappings": Bad(
        END, "\nextra: " + "{a: " * 3000 + "1" + "}" * 3000 + END, "extra:", "extra", "levels deep"
    ),
    "1,000 nested block mappings": Bad(
        END,
        "\n" + "".join(" " * i + "k:\n" for i in range(1000)) + END,
        " " * MAX_DEPTH + "k:",
        "k.k.k",
        "levels deep",
    ),
    "nested lists in a known value": Bad(
        "    value: {min: 2, max: 6}",
        "    value: " + "[" * 500 + "]" * 500,
        "[[[[",
        "parameters.players.value",
        "levels deep",
    ),
    "a file over the size limit": Bad(END, END + "#" * (MAX_FILE_BYTES + 1) + "\n", None, NAME, "size limit"),
    # ---- tags ------------------------------------------------------------------------------------
    "a python object tag": Bad(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: !!python/object:os.system 5",
        "value: !!python",
        "parameters.run_closing_size.value",
        "'!!python/object:os.system' is not allowed",
    ),
    "a python name tag on a mapping": Bad(
        "    value: {min: 2, max: 6}",
        "    value: !!python/name:os.system {min: 2, max: 6}",
        "python/name",
        "parameters.players.value",
        "is not allowed",
    ),
    "a local tag": Bad(
        PLAYERS_PARAM,
        '    explain: !shout "A game has 2 to 6 players."',
        "!shout",
        "parameters.players.explain",
        "'!shout' is not allowed",
    ),
    "a binary tag": Bad(
        PLAYERS_PARAM, "    explain: !!binary aGk=", "!!binary", "parameters.players.explain", "!!binary"
    ),
    "a set tag": Bad(
        "    value: {min: 2, max: 6}",
        "    value: !!set {min: 2, max: 6}",
        "!!set",
        "parameters.players.value",
        "'!!set' is not allowed",
    ),
    "an explicit timestamp tag": Bad(
        PLAYERS_PARAM,
        "    explain: !!timestamp 2020-01-01",
        "!!timestamp",
        "parameters.players.explain",
        "!!timestamp",
    ),
    "a string tag on a mapping": Bad(
        "    value: {min: 2, max: 6}",
        "    value: !!str {min: 2, max: 6}",
        "!!str",
        "parameters.players.value",
        "does not fit a mapping",
    ),
    "a mapping tag on a scalar": Bad(
        PLAYERS_PARAM,
        "    explain: !!map text",
        "!!map",
        "parameters.players.explain",
        "does not fit a plain value",
    ),
    "an int tag on text": Bad(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: !!int five",
        "!!int five",
        "parameters.run_closing_size.value",
        "cannot read value 'five'",
    ),
    "a bool tag on a word": Bad(
        PLAYERS_PARAM,
        "    in_text: !!bool maybe",
        "!!bool maybe",
        "parameters.players.in_text",
        "cannot read value 'maybe' as !!bool",
    ),
    # ---- types and ranges ------------------------------------------------------------------------
    "copies as a float": Bad(
        COPIES,
        COPIES.replace("small_game: 4", "small_game: 4.0"),
        "small_game: 4.0",
        "parameters.copies.value.small_game",
        "expected integer, got 4.0",
    ),
    "copies as a boolean": Bad(
        COPIES,
        COPIES.replace("large_game: 5", "large_game: true"),
        "large_game: true",
        "parameters.copies.value.large_game",
        "expected integer, got true",
    ),
    "copies beyond the packed hand": Bad(
        COPIES,
        COPIES.replace("large_game: 5", f"large_game: {MAX_COPIES + 1}"),
        "large_game:",
        "parameters.copies.value.large_game",
        f"at most {MAX_COPIES}",
    ),
    "max cards as a float": Bad(
        "  max_cards_per_turn:\n    value: 3",
        "  max_cards_per_turn:\n    value: 3.0",
        "value: 3.0",
        "parameters.max_cards_per_turn.value",
        "expected integer, got 3.0",
    ),
    "max cards zero": Bad(
        "  max_cards_per_turn:\n    value: 3",
        "  max_cards_per_turn:\n    value: 0",
        "value: 0",
        "parameters.max_cards_per_turn.value",
        "at least 1",
    ),
    "a run closing size as text": Bad(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: '5'",
        "value: '5'",
        "parameters.run_closing_size.value",
        "expected integer",
    ),
    "a run closing size of 1.5": Bad(
        "  run_closing_size:\n    value: 5",
        "  run_closing_size:\n    value: 1.5",
        "value: 1.5",
        "parameters.run_closing_size.value",
        "expected integer, got 1.5",
    ),
    "a match end score of 10**100": Bad(
        "  match_end_score:\n    value: 20",
        "  match_end_score:\n    value: 1" + "0" * 100,
        "value: 1000",
        "parameters.match_end_score.value",
        "at most 1000000",
    ),
    "a match end score of 0": Bad(
        "  match_end_score:\n    value: 20",
        "  match_end_score:\n    value: 0",
        "value: 0",
        "parameters.match_end_score.value",
        "at least 1",
    ),
    "an integer of 5,000 digits": Bad(
        "  match_end_score:\n    value: 20",
        "  match_end_score:\n    value: " + "9" * 5000,
        "value: 999",
        "parameters.match_end_score.value",
        "cannot read value",
    ),
    "a negative point value": Bad(
        POINTS, POINTS.replace("8: 5", "8: -5"), "8: -5", "parameters.points.value.8", "at least 0"
    ),
    "a huge point value": Bad(
        POINTS, POINTS.replace("8: 5", "8: 10000001"), "8: 10000001", "parameters.points.value.8", "at most"
    ),
    "a point value as a float": Bad(
        POINTS, POINTS.replace("8: 5", "8: 5.0"), "8: 5.0", "parameters.points.value.8", "expected integer"
    ),
    "a rank of 100": Bad(
        "[1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]",
        "[1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 100]",
        "100]",
        "parameters.ranks.value.12",
        "at most 99",
    ),
    "a rank as a float": Bad(
        "[1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]",
        "[1.0, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]",
        "[1.0,",
        "parameters.ranks.value.0",
        "expected integer, got 1.0",
    ),
    "a hand size of 1001": Bad(
        "{2: 12, 3: 13, 4: 12, 5: 12, 6: 10}",
        "{2: 12, 3: 13, 4: 12, 5: 12, 6: 1001}",
        "6: 1001",
        "parameters.hand_size.value.6",
        "at most 1000",
    ),
    "a hand size keyed 05": Bad(
        "{2: 12, 3: 13, 4: 12, 5: 12, 6: 10}",
        "{2: 12, 3: 13, 4: 12, '05': 12, 6: 10}",
        "'05'",
        "parameters.hand_size.value",
        "does not match",
    ),
    "13 players": Bad(
        "    value: {min: 2, max: 6}",
        "    value: {min: 2, max: 13}",
        "max: 13",
        "parameters.players.value.max",
        "at most 12",
    ),
    "a date where a list is meant": Bad(
        "    cites: [eight.value, deck.points]",
        "    cites: 2020-01-01",
        "cites: 2020-01-01",
        "variation_points.eight_rank.cites",
        "expected array",
    ),
    "an impossible date": Bad(
        "    cites: [eight.value, deck.points]",
        "    cites: 2020-13-45",
        "cites: 2020-13-45",
        "variation_points.eight_rank.cites",
        "cannot read value '2020-13-45'",
    ),
    # ---- matches that never end ------------------------------------------------------------------
    "no card scores a point": Bad(
        POINTS, ZERO_POINTS, "  points:", "parameters.points", "no card scores a point, so no match can end"
    ),
    "a match too long to prove finite": Bad(
        "  match_end_score:\n    value: 20",
        "  match_end_score:\n    value: 600",
        "  match_end_score:",
        "parameters.match_end_score",
        f"over the limit of {MATCH_ROUND_LIMIT} rounds",
    ),
    "a profile whose cards score nothing": Bad(
        END,
        HOUSE + f"      points: {ZERO_POINTS}" + END,
        "      points:",
        "profiles.house.parameters.points",
        "no card scores a point",
    ),
    "a profile whose match is too long": Bad(
        END,
        HOUSE + "      match_end_score: 1000000" + END,
        "match_end_score: 1000000",
        "profiles.house.parameters.match_end_score",
        "rounds",
    ),
    "a profile whose deck cannot deal": Bad(
        END,
        HOUSE
        + "      ranks: [1, 2]\n      points: {1: 1, 2: 1}\n      copies: {small_game: 1, large_game: 1}"
        + END,
        "      copies:",
        "profiles.house.parameters.copies",
        "cannot deal a card to each of 3 players",
    ),
    # ---- deals a job would play (issue 20): found at load, at the key of the user's file ------------
    "a two-player table the deck cannot deal": Bad(
        COPIES,
        "    value: {small_game: 3, large_game: 3}\n    cites: [deck.copies]",
        "{2: 24,",
        "parameters.hand_size.value.2",
        "2 hands of 24 need 48 cards, but the deck has 39 at 2 players",
        also=((HAND_SIZES, "{2: 24, 3: 13, 4: 9, 5: 7, 6: 6}"),),
    ),
    "a profile whose copies cannot deal its table": Bad(
        END,
        HOUSE + f"      hand_size: {HAND_SIZES}\n      copies: {{small_game: 3, large_game: 3}}" + END,
        f"      hand_size: {HAND_SIZES}",
        "profiles.house.parameters.hand_size.4",
        "4 hands of 12 need 48 cards, but the deck has 39 at 4 players",
    ),
    "a profile whose readings cannot deal its table": Bad(
        END,
        "\n  house:\n    title: House rules\n    source: our table\n    status: house\n"
        "    extends: published\n    readings:\n"
        "      five_player_copies: {reading: five_is_small, basis: silent}" + END,
        "      five_player_copies: {reading: five_is_small, basis: silent}",
        "profiles.house.readings",
        "deals by the hand-size table, and 5 hands of 12 need 60 cards, but the deck has 52 under "
        "five_player_copies=five_is_small",
    ),
    # ---- a bad name is named at its own line, not at the mapping that holds it -----------------------
    "a clause id that is not a name": Bad(
        "  eight.trigger:\n",
        "  Eight Trigger!:\n",
        "  Eight Trigger!:",
        "clauses.Eight Trigger!",
        "the name 'Eight Trigger!' does not match",
    ),
    "a reading name that is not a name": Bad(
        "      gaps_skipped:\n        explain:",
        "      Gaps Skipped:\n        explain:",
        "      Gaps Skipped:",
        "variation_points.run_gaps.readings.Gaps Skipped",
        "the name 'Gaps Skipped' does not match",
    ),
    "a profile with a float": Bad(
        END,
        HOUSE + "      run_closing_size: 5.0" + END,
        "run_closing_size: 5.0",
        "profiles.house.parameters.run_closing_size",
        "expected integer, got 5.0",
    ),
    # ---- the engine's vocabulary -----------------------------------------------------------------
    "a profile naming a point the spec does not have": Bad(
        "  run_wrap:\n    question:",
        "  run_spin:\n    question:",
        '      run_wrap: {reading: no_wrap, basis: silent, note: "No source',
        "profiles.published.readings.run_wrap",
        "unknown variation point 'run_wrap'",
    ),
    "a reading that states no rule fragment": Bad(
        RUN_GAPS,
        '      any_pair: "Any two cards make a run."\n' + RUN_GAPS,
        "any_pair:",
        "variation_points.run_gaps.readings.any_pair",
        "states the rule fragment it substitutes",
    ),
    "a misspelt parameter": Bad(
        "  run_closing_size:\n    value: 5",
        "  run_closing_sise:\n    value: 5",
        "run_closing_sise:",
        "parameters.run_closing_sise",
        "did you mean 'run_closing_size'?",
    ),
    "a variation point the spec leaves out, still chosen by a profile": Bad(
        TURN_ORDER_POINT,
        "",
        "      turn_order: {reading: ascending_seats, basis: silent}",
        "profiles.published.readings.turn_order",
        "unknown variation point 'turn_order'",
    ),
    "an unimplemented default": Bad(
        RUN_GAPS,
        '      any_pair: {explain: "Any two cards.", unimplemented: true}\n' + RUN_GAPS,
        "    default: any_pair",
        "variation_points.run_gaps.default",
        "'any_pair' is marked unimplemented",
        also=(("    default: gaps_break", "    default: any_pair"),),
    ),
    "a proposal that states rules": Bad(
        RUN_GAPS,
        '      any_pair:\n        explain: "Any two."\n        unimplemented: true\n'
        '        rules: {ranks: {gap: "true"}}\n' + RUN_GAPS,
        "any_pair:",
        "variation_points.run_gaps.readings.any_pair",
        "a proposal (unimplemented: true) states no rules",
    ),
    "a reading mapping without its explanation": Bad(
        RUN_GAPS,
        "      any_pair: {unimplemented: true}\n" + RUN_GAPS,
        "any_pair:",
        "variation_points.run_gaps.readings.any_pair",
        "'explain' is missing",
    ),
    "an unimplemented marker that is text": Bad(
        RUN_GAPS,
        '      any_pair: {explain: "Any two.", unimplemented: "yes"}\n' + RUN_GAPS,
        "any_pair:",
        "variation_points.run_gaps.readings.any_pair.unimplemented",
        "expected boolean",
    ),
    # ---- source texts ----------------------------------------------------------------------------
    "a source text that is not UTF-8": Bad(
        "file: sources/000_2c50664644f6068b.txt",
        "file: sources/latin1.txt",
        "sources/latin1.txt",
        "sources.de.file",
        "is not UTF-8",
        setup=_write_bad_source,
    ),
    "a source text that does not exist": Bad(
        "file: sources/001_9e420866597c1958.txt",
        "file: sources/nowhere.txt",
        "sources/nowhere.txt",
        "sources.es.file",
        "does not exist",
    ),
}


def _edited(case: Bad) -> str:
    assert EMBEDDED.count(case.old) == 1, "the edit no longer applies to the embedded spec"
    text = EMBEDDED.replace(case.old, case.new)
    for old, new in case.also:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _expected_place(text: str, case: Bad) -> str:
    if case.line_of is None:
        return f"{NAME}: "
    index = text.find(case.line_of)
    assert index >= 0, case.line_of
    return f"{NAME}:{text.count(chr(10), 0, index) + 1}: "


def _write(tmp_path: Path, case: Bad) -> str:
    text = _edited(case)
    if case.setup:
        case.setup(tmp_path)
    (tmp_path / NAME).write_bytes(text.encode("utf-8"))
    return text


def test_there_are_at_least_50_distinct_bad_files() -> None:
    texts = {_edited(case) for case in CASES.values()}
    assert len(texts) == len(CASES) >= 50


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_rules_refuses_a_bad_spec_in_one_line(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    text = _write(tmp_path, case)
    started = time.process_time()  # CPU seconds: a busy machine adds none
    run_bad_input(
        ["rules", "--spec", NAME], 2, _expected_place(text, case), case.key, case.words, cwd=tmp_path
    )
    assert time.process_time() - started < 5


SOME = [
    "unclosed double quote",
    "a billion laughs under an unknown key",
    "20,000 nested lists",
    "copies as a float",
    "no card scores a point",
    "a reading that states no rule fragment",
]


@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--players", "4", "--games", "1", "--seed", "1"],
        ["check", "--level", "quick", "--seed", "1"],
    ],
    ids=["simulate", "check"],
)
def test_simulate_and_check_refuse_a_bad_spec_the_same_way(
    name: str, command: list[str], tmp_path: Path
) -> None:
    case = CASES[name]
    text = _write(tmp_path, case)
    args = [*command, "--spec", NAME]
    run_bad_input(args, 2, _expected_place(text, case), case.key, case.words, cwd=tmp_path)


def test_a_bad_spec_file_given_as_bytes_not_utf8(tmp_path: Path) -> None:
    raw = EMBEDDED.encode("utf-8").replace(b'game: "535', b'game: "\xe9535')
    (tmp_path / NAME).write_bytes(raw)
    line = EMBEDDED[: EMBEDDED.index('game: "535')].count("\n") + 1
    run_bad_input(["rules", "--spec", NAME], 2, f"{NAME}:{line}: ", "not UTF-8", cwd=tmp_path)


def test_a_missing_spec_file(tmp_path: Path) -> None:
    run_bad_input(["rules", "--spec", "absent.yaml"], 2, "absent.yaml", "cannot read", cwd=tmp_path)
