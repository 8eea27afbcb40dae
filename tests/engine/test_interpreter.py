"""The spec interpreter: it plays what the rules say, agrees with the reference engine wherever the
reference plays, and refuses a rule it cannot play at the rule's own place in the file."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from five35.engine import Game
from five35.engine.engines import (
    INTERPRETER,
    REFERENCE,
    RulesApart,
    engine_name,
    lacks_words,
    make_engine,
    reference_lacks,
)
from five35.engine.interpreter import SpecEngine
from five35.engine.state import Event, State
from five35.spec import Ruleset, Spec, SpecError, embedded_spec_path, load_spec
from five35.spec.words import embedded_words

EMBEDDED = embedded_spec_path().read_text(encoding="utf-8")
HOUSE_RULES = Path(__file__).resolve().parents[2] / "examples" / "house-rules"


def _events(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    out = []
    for event in events:
        data = event.to_json()
        if "reasons" in data:
            data["reasons"] = sorted(data["reasons"])  # the order of reasons is the rules' order
        out.append(data)
    return out


def _play_both(ruleset: Ruleset, players: int, seed: int, max_steps: int) -> int:
    """Random play with both engines side by side: every state, legal move (in order) and event
    equal. Returns the steps compared."""
    ref, spec = Game(ruleset, players), SpecEngine(ruleset, players)
    a, b = ref.new_match(seed), spec.new_match(seed)
    rng = random.Random(seed)
    steps = 0
    while steps < max_steps:
        assert ref.to_json(a) == spec.to_json(b), (ruleset.label(), players, seed, steps)
        if a.phase == "match_over":
            break
        if a.phase == "round_over":
            a, b = ref.next_round(a), spec.next_round(b)
            continue
        moves = ref.legal_moves(a)
        assert spec.legal_moves(b) == moves, (ruleset.label(), players, seed, steps)
        move = rng.choice(moves)
        a, ea = ref.apply(a, move)
        b, eb = spec.apply(b, move)
        assert _events(eb) == _events(ea), (ruleset.label(), players, seed, move)
        steps += 1
    return steps


def _choices(spec: Spec, count: int, seed: int) -> list[Ruleset]:
    rng = random.Random(seed)
    points = spec.variation_points
    chosen = [spec.ruleset(p) for p in spec.playable_profiles]
    chosen += [
        spec.ruleset(None, {p: rng.choice(vp.playable) for p, vp in points.items()}) for _ in range(count)
    ]
    return chosen


def test_the_interpreter_plays_every_profile_and_random_readings_as_the_reference_does() -> None:
    spec = load_spec()
    compared = 0
    for ruleset in _choices(spec, 6, seed=17):
        assert engine_name(ruleset) == REFERENCE
        for players in (2, 3, 4, 5, 6):
            if ruleset.can_deal(players):
                compared += _play_both(ruleset, players, seed=players, max_steps=120)
    assert compared > 4_000


def test_every_reading_alone_plays_as_the_reference_plays_it() -> None:
    spec = load_spec()
    base = spec.ruleset()
    for point, vp in spec.variation_points.items():
        for reading in vp.playable:
            ruleset = spec.with_readings(base, {point: reading})
            for players in (2, 5):
                if ruleset.can_deal(players):
                    _play_both(ruleset, players, seed=len(point), max_steps=60)


# ---- spec copies ----------------------------------------------------------------------------------


def _copy(tmp_path: Path, edit: Callable[[dict[str, Any]], None], name: str = "copy.yaml") -> Path:
    data = yaml.safe_load(EMBEDDED)
    edit(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _without(rule_id: str, points: tuple[str, ...]) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["rules"] = [r for r in data["rules"] if r["id"] != rule_id]
        for point in points:
            del data["variation_points"][point]
            for profile in data["profiles"].values():
                profile.get("readings", {}).pop(point, None)

    return edit


def _moves_and_reasons(ruleset: Ruleset, players: int, games: int) -> tuple[set[str], set[str]]:
    engine = make_engine(ruleset, players)
    actions: set[str] = set()
    reasons: set[str] = set()
    for seed in range(games):
        state: State = engine.new_match(seed)
        rng = random.Random(seed)
        while state.phase != "match_over":
            if state.phase == "round_over":
                state = engine.next_round(state)
                continue
            move = rng.choice(engine.legal_moves(state))
            actions.add(move.action)
            state, events = engine.apply(state, move)
            reasons.update(str(r) for e in events for r in getattr(e, "reasons", ()))
    return actions, reasons


def test_a_copy_without_the_rule_of_8_plays_no_trick_ended_by_it(tmp_path: Path) -> None:
    path = _copy(tmp_path, _without("trick.end.eight", ("eight_forms", "eight_on_add", "eight_exemption")))
    ruleset = load_spec(path).ruleset()
    assert engine_name(ruleset) == INTERPRETER
    lacks = reference_lacks(ruleset)
    assert lacks is not None and lacks.apart == RulesApart((), ("trick.end.eight",), ())
    assert lacks_words(lacks, embedded_words().engines) == "rule trick.end.eight is left out"
    for players in (2, 4, 6):
        _actions, reasons = _moves_and_reasons(ruleset, players, games=6)
        assert "rule_of_8" not in reasons and "all_passed" in reasons
    # The embedded spec's games do end tricks by the Rule of 8, so the copy's zero means something.
    assert "rule_of_8" in _moves_and_reasons(load_spec().ruleset(), 4, games=6)[1]


def test_a_copy_without_the_add_action_plays_no_add(tmp_path: Path) -> None:
    path = _copy(
        tmp_path, _without("action.add", ("add_to_single", "add_run_ends", "add_past_closing", "add_count"))
    )
    ruleset = load_spec(path).ruleset()
    assert engine_name(ruleset) == INTERPRETER
    for players in (2, 4, 5):
        actions, _ = _moves_and_reasons(ruleset, players, games=6)
        assert "add" not in actions and {"lead", "overwrite", "pass"} <= actions
    assert "add" in _moves_and_reasons(load_spec().ruleset(), 4, games=6)[0]


@pytest.mark.parametrize(
    ("old", "new", "cards"),
    [
        # The set's own cards part reads the player count.
        (
            'cards: "size >= min_set_size and same_rank(cards)"',
            'cards: "size >= min_set_size and same_rank(cards) and (players < 4 or size <= 3)"',
            (5, 5, 5, 5),
        ),
        # The run's cards part asks `follows` (through chain), which reads it.
        (
            'follows: "b == next_rank(a) and (if order(b) > order(a) then gap else wrap)"',
            'follows: "b == next_rank(a) and (if order(b) > order(a) then gap else wrap) and players < 4"',
            (1, 2, 3),
        ),
    ],
    ids=["own-part", "through-a-function"],
)
def test_what_cards_make_is_not_shared_across_player_counts_where_a_rule_reads_the_count(
    tmp_path: Path, old: str, new: str, cards: tuple[int, ...]
) -> None:
    """Engines share which pile each multiset makes across player counts only where nothing the
    pile kinds ask reads the count: asked at 2 players first, the 4-player engine still answers
    for 4."""
    text = EMBEDDED.replace(old, new)
    assert text != EMBEDDED
    (tmp_path / "copy.yaml").write_text(text, encoding="utf-8")
    ruleset = load_spec(tmp_path / "copy.yaml").ruleset()
    small, large = SpecEngine(ruleset, 2), SpecEngine(ruleset, 4)
    assert small.pile_of(cards) is not None
    assert large.pile_of(cards) is None
    assert SpecEngine(load_spec().ruleset(), 4).pile_of(cards) is not None  # the embedded spec's


@pytest.mark.parametrize("path", sorted(HOUSE_RULES.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_house_rule_is_played_by_the_interpreter_and_changes_play(path: Path) -> None:
    spec = load_spec(path)
    house = spec.ruleset("house")
    printed = spec.ruleset("published")
    assert engine_name(house) == INTERPRETER
    assert house.rules_digest != printed.rules_digest
    differ = False
    for players in (2, 4):
        a, b = make_engine(house, players), make_engine(printed, players)
        for seed in range(4):
            sa, sb = a.new_match(seed), b.new_match(seed)
            rng_a, rng_b = random.Random(seed), random.Random(seed)
            for _ in range(400):
                if sa.phase != "play" or sb.phase != "play":
                    break
                ma, mb = a.legal_moves(sa), b.legal_moves(sb)
                if ma != mb:
                    differ = True
                    break
                sa, ea = a.apply(sa, rng_a.choice(ma))
                sb, eb = b.apply(sb, rng_b.choice(mb))
                if _events(ea) != _events(eb) or a.to_json(sa) != b.to_json(sb):
                    differ = True
                    break
            differ = differ or sa.phase != sb.phase
    assert differ, f"{path.name}: the house reading played like the printed rules"


# ---- errors at the rule's place ---------------------------------------------------------------------


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    assert EMBEDDED.count(old) == 1, old
    path = tmp_path / "bad.yaml"
    path.write_text(EMBEDDED.replace(old, new), encoding="utf-8")
    return path


def _line_col(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


@pytest.mark.parametrize(
    ("old", "new", "at", "words"),
    [
        ('cards: "size == 1"', 'cards: "size === 1"', "=== 1", "unexpected character '='"),
        ('cards: "size == 1"', 'cards: "sise == 1"', "sise", "unknown name 'sise'"),
        ('winner: "last_placer"', 'winner: "last_placer == 8"', "last_placer == 8", "winner must be a seat"),
        (
            'ends: "in_trick == 1"',
            'ends: "mover == highest_rank"',
            "mover == highest_rank",
            "'==' compares a seat with a rank",
        ),
        ('penalty: "total(hand, points)"', 'penalty: "total(hand)"', "total(hand)", "total takes 2 argument"),
    ],
)
def test_a_bad_expression_is_one_line_at_its_file_line_and_column(
    tmp_path: Path, old: str, new: str, at: str, words: str
) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    line, col = _line_col(path.read_text(encoding="utf-8"), at)
    message = str(caught.value)
    assert "\n" not in message and words in message
    where = message.split(": ")[0]
    file_line_col = where.rsplit(":", 2)
    assert int(file_line_col[1]) == line
    assert col <= int(file_line_col[2]) <= col + len(at), message


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            '    winner: "last_placer"\n',
            '    winner: "last_placer"\n    spare: "true"\n',
            "used by no other part",
        ),
        ('    cards: "size == 1"\n', "", "needs 'cards'"),
        ("    does: trick_winner\n", "    does: trick_winners\n", "does: expected one of"),
        ("    reason: set_closed\n", "", "needs 'reason'"),
        ('    cards: "size == 1"\n', '    cards: "size <= 2"\n', "both a single"),
        ("    after: pass\n", "    after: never\n", "expected one of play, pass"),
    ],
)
def test_a_rule_that_cannot_be_played_is_refused(tmp_path: Path, old: str, new: str, words: str) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(SpecError) as caught:
        ruleset = load_spec(path).ruleset()
        for players in (2, 4):
            engine = make_engine(ruleset, players)
            engine.legal_moves(engine.new_match(0))
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_spec_package_reads_no_engine() -> None:
    """The rules are the spec's own: loading a spec, resolving a ruleset and compiling its rules
    import nothing of five35.engine (imports follow the flow spec -> engine)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from five35.spec import load_spec\n"
        "spec = load_spec()\n"
        "spec.ruleset('german-literal').program(4)\n"
        "assert not [m for m in sys.modules if m.startswith('five35.engine')], sorted(sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_engines_share_what_they_work_out_per_pile_only_where_their_option_rules_agree() -> None:
    spec = load_spec()
    base = spec.ruleset()
    turn = spec.with_readings(base, {"turn_order": "descending_seats"})  # not an option rule
    order = spec.with_readings(base, {"run_order": "higher_beats"})  # an option rule
    plain = SpecEngine(base, 4)
    plain.legal_moves(plain.new_match(1))
    assert SpecEngine(base, 4)._nodes is plain._nodes
    assert SpecEngine(turn, 4)._nodes is plain._nodes
    assert SpecEngine(order, 4)._nodes is not plain._nodes
    assert SpecEngine(base, 5)._nodes is not plain._nodes
    # What is shared is what each engine would have worked out alone.
    for ruleset in (turn, order):
        assert _play_both(ruleset, 4, 7, 400) > 0
