"""The spec reader's input limits at their edges, and the proof that every match ends.

The table of bad files through the command line is tests/spec/test_bad_input_spec.py; here the limits
are probed one step either side, the reader is compared with PyYAML's own safe loader on the
embedded spec, and the round bound is checked against an exhaustive search and real play.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from five35.engine import Game, TrickEnd
from five35.spec import MATCH_ROUND_LIMIT, SpecError, embedded_spec_path, load_spec, match_round_bound
from five35.spec.limits import MAX_DEPTH, MAX_FILE_BYTES
from five35.spec.yaml_input import MAX_ALIAS_NODES, MAX_ALIASES, read_text, read_yaml

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")


def _yaml_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "data.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _one_line_error(path: Path) -> str:
    with pytest.raises(SpecError) as err:
        read_yaml(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def _str_keys(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): _str_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_str_keys(v) for v in data]
    return data


# ---- the reader ---------------------------------------------------------------------------------


def test_the_embedded_spec_reads_as_pyyaml_safe_load_reads_it() -> None:
    data, lines = read_yaml(embedded_spec_path())
    assert data == _str_keys(yaml.safe_load(EMBEDDED))
    assert lines[("game",)] == EMBEDDED[: EMBEDDED.index("\ngame:")].count("\n") + 2


def test_read_yaml_serves_other_data_files_with_their_own_name_and_limit(tmp_path: Path) -> None:
    path = _yaml_file(tmp_path, "words:\n  - 1\n")
    assert read_yaml(path) == ({"words": [1]}, {(): 1, ("words",): 1, ("words", 0): 2})
    with pytest.raises(SpecError) as err:
        read_yaml(path, what="words file", max_bytes=4)
    assert str(err.value) == f"{path}: words file is over the size limit of 4 bytes"


@pytest.mark.parametrize(
    ("extra", "loads"), [(MAX_FILE_BYTES - len("a: 1\n"), True), (MAX_FILE_BYTES - len("a: 1\n") + 1, False)]
)
def test_the_size_limit_is_exact(extra: int, loads: bool, tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" + b"#" * (extra - 1) + b"\n")
    assert path.stat().st_size == MAX_FILE_BYTES + (0 if loads else 1)
    if loads:
        assert read_yaml(path)[0] == {"a": 1}
    else:
        assert "over the size limit" in _one_line_error(path)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_file_is_refused_without_reading_it_all() -> None:
    started = time.process_time()  # CPU seconds: a busy machine adds none
    with pytest.raises(SpecError, match="over the size limit"):
        read_text(Path("/dev/zero"))
    assert time.process_time() - started < 2


@pytest.mark.parametrize(("depth", "loads"), [(MAX_DEPTH, True), (MAX_DEPTH + 1, False)])
def test_the_depth_limit_is_exact(depth: int, loads: bool, tmp_path: Path) -> None:
    # The top-level mapping is one level; the value adds depth - 1 lists.
    path = _yaml_file(tmp_path, "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n")
    if loads:
        read_yaml(path)
    else:
        assert f"a: nested more than {MAX_DEPTH} levels deep" in _one_line_error(path)


@pytest.mark.parametrize(("count", "loads"), [(MAX_ALIASES, True), (MAX_ALIASES + 1, False)])
def test_the_alias_count_limit_is_exact(count: int, loads: bool, tmp_path: Path) -> None:
    path = _yaml_file(tmp_path, "w: &w word\nmany: [" + ", ".join(["*w"] * count) + "]\n")
    if loads:
        assert read_yaml(path)[0]["many"] == ["word"] * count
    else:
        assert f"more than {MAX_ALIASES} aliases" in _one_line_error(path)


@pytest.mark.parametrize(
    ("uses", "loads"), [(MAX_ALIAS_NODES // 100, True), (MAX_ALIAS_NODES // 100 + 1, False)]
)
def test_the_alias_expansion_limit_counts_expanded_nodes(uses: int, loads: bool, tmp_path: Path) -> None:
    # The anchored list is 100 nodes: itself and 99 words.
    text = "block: &b [" + ", ".join(["x"] * 99) + "]\nuses: [" + ", ".join(["*b"] * uses) + "]\n"
    path = _yaml_file(tmp_path, text)
    if loads:
        assert len(read_yaml(path)[0]["uses"]) == uses
    else:
        assert f"expand to more than {MAX_ALIAS_NODES} nodes" in _one_line_error(path)


def test_a_shared_readings_block_still_loads(tmp_path: Path) -> None:
    """Anchors stay usable for what they are for: a house profile reusing published's readings."""
    assert EMBEDDED.count("    status: evidence-based\n    readings:\n") == 1
    text = EMBEDDED.replace(
        "    status: evidence-based\n    readings:\n", "    status: evidence-based\n    readings: &pub\n"
    )
    text = text.replace(
        "\ndefault_profile:",
        "\n  house:\n    title: Ours\n    source: our table\n    status: house\n"
        "    readings: *pub\n\ndefault_profile:",
    )
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_spec(path)
    assert spec.ruleset("house").readings == spec.ruleset("published").readings


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [*x]\n",
        "a: &x {b: [1, {c: *x}]}\n",
        "l0: &l0 [a, a, a, a, a, a, a, a, a]\n"
        + "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10)),
        "a: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "a: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n",
        "".join(" " * i + "k:\n" for i in range(2000)),
    ],
    ids=["self alias", "deep cycle", "billion laughs", "100k lists", "20k mappings", "2k block mappings"],
)
def test_hostile_yaml_is_refused_quickly(text: str, tmp_path: Path) -> None:
    path = _yaml_file(tmp_path, text)
    started = time.process_time()  # CPU seconds: a busy machine adds none
    _one_line_error(path)
    assert time.process_time() - started < 2


# ---- every match ends ---------------------------------------------------------------------------


def _longest_match(players: int, end: int, lowest: int) -> int:
    """The most rounds any sequence of round results can take: exhaustive over who goes out and what
    each other player adds (lowest or lowest + 1 points; more only ends the match sooner)."""

    @cache
    def rounds_left(scores: tuple[int, ...]) -> int:
        best = 0
        for out in range(players):
            others = [i for i in range(players) if i != out]
            for extra in range(1 << len(others)):
                new = list(scores)
                for bit, i in enumerate(others):
                    new[i] += lowest + (extra >> bit & 1)
                # The round that takes a player to `end` is the match's last.
                after = 0 if max(new) >= end else rounds_left(tuple(sorted(new)))
                best = max(best, 1 + after)
        return best

    return rounds_left((0,) * players)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("end", "lowest"), [(1, 1), (5, 1), (7, 1), (7, 2), (9, 3), (4, 5)])
def test_the_round_bound_holds_and_is_tight_for_one_point_cards(players: int, end: int, lowest: int) -> None:
    bound = match_round_bound([lowest, lowest + 4], end, players)
    longest = _longest_match(players, end, lowest)
    assert bound is not None and longest <= bound
    if lowest == 1:
        # Taking turns to go out, every player can sit at end - 1 points together.
        assert longest == bound


def test_no_bound_without_points() -> None:
    assert match_round_bound([0, 1, 2], 20, 4) is None
    assert match_round_bound([], 20, 4) is None


def test_the_embedded_rulesets_have_a_proved_bound() -> None:
    spec = load_spec()
    for name in spec.profiles:
        rules = spec.ruleset(name)
        # Two players, a 1-point card, 20 to reach: 2 * 19 // 1 + 1.
        assert rules.round_bound == 39, name
        assert rules.round_bound <= MATCH_ROUND_LIMIT


def _play_match(game: Game, seed: int) -> tuple[int, int]:
    """Random legal moves to the end of a match: (rounds played, most tricks in a round)."""
    rng = random.Random(seed)
    state = game.new_match(seed)
    most_tricks = tricks = 0
    while True:
        if state.phase == "round_over":
            state, tricks = game.next_round(state), 0
            continue
        if state.phase == "match_over":
            return state.round, most_tricks
        state, events = game.apply(state, rng.choice(game.legal_moves(state)))
        tricks += sum(isinstance(e, TrickEnd) for e in events)
        most_tricks = max(most_tricks, tricks)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_played_matches_stay_within_the_bounds(players: int) -> None:
    rules = load_spec().ruleset()
    assert rules.round_bound is not None
    game = Game(rules, players)
    for seed in range(6):
        rounds, tricks = _play_match(game, seed)
        assert rounds <= rules.round_bound
        assert tricks <= rules.trick_bound(players)


def test_some_zero_point_cards_load_without_a_bound(tmp_path: Path) -> None:
    path = tmp_path / "free-ones.yaml"
    path.write_text(EMBEDDED.replace("value: {1: 1, 2: 1,", "value: {1: 0, 2: 1,"), encoding="utf-8")
    rules = load_spec(path).ruleset()
    assert rules.points[1] == 0 and rules.round_bound is None


def test_the_round_limit_refuses_the_first_score_over_it(tmp_path: Path) -> None:
    # With two players and 1-point cards the bound is 2 * (M - 1) + 1: M = 500 gives 999 rounds.
    for end, loads in ((500, True), (501, False)):
        path = tmp_path / f"end-{end}.yaml"
        path.write_text(
            EMBEDDED.replace("  match_end_score:\n    value: 20", f"  match_end_score:\n    value: {end}"),
            encoding="utf-8",
        )
        if loads:
            assert load_spec(path).ruleset().round_bound == 999
        else:
            with pytest.raises(
                SpecError, match=r"parameters\.match_end_score: 501 points can take up to 1001"
            ):
                load_spec(path)


def test_a_deck_too_small_for_an_even_deal_is_a_one_line_error() -> None:
    rules = load_spec().ruleset(readings={"deal": "deal_all"})
    tiny = replace(rules, ranks=(1, 2), point_items=((1, 1), (2, 1)), copies_small=1, copies_large=1)
    assert tiny.hand_size(2) == 1
    with pytest.raises(SpecError) as err:
        tiny.hand_size(3)
    assert str(err.value) == "parameters.copies: a deck of 2 cards cannot deal a card to each of 3 players"
