"""examples/president/: a second climbing game, stated in the rule language with no Python beside
it, played by the spec interpreter, and the commands that cannot speak of it saying why."""

from __future__ import annotations

import json
import random
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.engine import RoundEnd, TrickEnd
from five35.engine.bots import get_bot
from five35.engine.engines import engine_name, make_engine, reference_lacks
from five35.engine.interpreter import NAME as INTERPRETER
from five35.engine.interpreter import SpecEngine
from five35.spec import Ruleset, Spec, SpecError, load_spec, other_game
from five35.spec.words import no_wording

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "president"
SPEC = FOLDER / "president.yaml"


@cache
def _spec() -> Spec:
    return load_spec(SPEC)


def _ruleset() -> Ruleset:
    return _spec().ruleset()


def test_the_folder_holds_a_text_and_a_spec_and_no_python_or_words_file() -> None:
    names = sorted(p.name for p in FOLDER.iterdir())
    assert names == ["president.yaml", "rules.en.txt"]
    spec = _spec()
    # Every clause quotes the English text, and no 535 point or parameter is required of it.
    assert {code for c in spec.clauses.values() for code in c.languages} == {"en"}
    assert set(spec.variation_points) == {"first_leader"}
    for name in ("copies", "hand_size", "points", "set_closing_size", "run_closing_size", "min_run_size"):
        assert name not in spec.parameters
        assert not _ruleset().has(name)
        assert name not in _ruleset().to_json()["parameters"]
    assert other_game(spec) == "President is another game than 535 (Five Three Five)"
    assert other_game(load_spec()) is None


def test_the_interpreter_plays_it_and_says_so() -> None:
    ruleset = _ruleset()
    assert reference_lacks(ruleset) is not None
    assert engine_name(ruleset) == INTERPRETER
    game = make_engine(ruleset, 4)
    assert isinstance(game, SpecEngine)
    # The deck and the deal are the rules': 4 copies of 13 ranks, dealt out evenly.
    assert game.copies == ruleset.copies(4) == 4
    assert ruleset.hand_size(5) == 52 // 5


def _play_rounds(players: int, rounds: int, seed: int) -> list[tuple[str, tuple[int, ...], str, int]]:
    """(action, cards, pile kind before, pile size before) of every move of random play."""
    game = make_engine(_ruleset(), players)
    rng = random.Random(seed)
    seen: list[tuple[str, tuple[int, ...], str, int]] = []
    for r in range(rounds):
        state = game.new_match(seed + r)
        while state.phase == "play":
            move = rng.choice(game.legal_moves(state))
            before = state.pile
            kind, size = (before.kind, before.size) if before else ("", 0)
            seen.append((move.action, move.cards, kind, size))
            if before is not None and move.action == "overwrite":
                # A pair only by a higher pair, and so on: same kind, same size, higher rank.
                new = game.pile_of(move.cards)
                assert new is not None and new.kind == before.kind and new.size == before.size
                assert new.cards[0] > before.cards[0]
            state, events = game.apply(state, move)
            for event in events:
                if isinstance(event, TrickEnd):
                    # The one way a President trick ends: never a Rule of 8, a closed set or run.
                    assert event.reasons == ("all_passed",)
    return seen


def test_random_play_never_adds_never_ends_a_trick_by_the_rule_of_8_and_beats_like_with_like() -> None:
    seen = _play_rounds(players=4, rounds=3, seed=17)
    actions = {a for a, *_ in seen}
    assert "add" not in actions
    assert {"lead", "overwrite", "pass"} <= actions
    game = make_engine(_ruleset(), 4)
    assert isinstance(game, SpecEngine)
    kinds = {pile.kind for a, cards, *_ in seen if a == "lead" and (pile := game.pile_of(cards))}
    assert kinds and kinds <= {"single", "pair", "triple"}
    assert {p.kind for p in game.placeable_piles()} == {"single", "pair", "triple"}
    assert max(p.size for p in game.placeable_piles()) == 3


def test_a_pair_is_beaten_only_by_a_higher_pair() -> None:
    game = make_engine(_ruleset(), 3)
    state = game.start_round([[9, 9, 5], [10, 10, 12, 12, 4, 4, 4], [3]], 0)
    state, _ = game.apply(state, next(m for m in game.legal_moves(state) if m.cards == (9, 9)))
    onto = {(m.action, m.cards) for m in game.legal_moves(state)}
    assert onto == {("overwrite", (10, 10)), ("overwrite", (12, 12)), ("pass", ())}


def test_the_round_plays_on_and_scores_the_order_of_going_out() -> None:
    game = make_engine(_ruleset(), 4)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_match(seed)
        out: list[int] = []
        while state.phase == "play":
            # A player who has gone out takes no further turn.
            assert state.to_move not in out and game.hand(state, state.to_move)
            mover = state.to_move
            state, events = game.apply(state, rng.choice(game.legal_moves(state)))
            if not game.hand(state, mover) and mover not in out:
                out.append(mover)
        (end,) = [e for e in events if isinstance(e, RoundEnd)]
        # The round went on until one player held cards: 0 points for the first out, 1 for the
        # second, and so on, the one left holding cards scoring the most.
        assert len(out) == 3 and sum(1 for h in state.hands if h) == 1
        assert [end.penalties[seat] for seat in out] == [0, 1, 2]
        assert sorted(end.penalties) == [0, 1, 2, 3]
        assert end.went_out == out[0]


def test_a_player_going_out_leaves_the_trick_to_the_others() -> None:
    game = make_engine(_ruleset(), 3)
    # Player 0 goes out with a 9; player 1 may still beat it, and when both others pass, player 1
    # (the next holding cards after player 0) leads.
    state = game.start_round([[9], [10, 4], [3, 5]], 0)
    state, _ = game.apply(state, next(m for m in game.legal_moves(state) if m.cards == (9,)))
    assert state.phase == "play" and state.out == (0,)
    assert state.to_move == 1
    assert {(m.action, m.cards) for m in game.legal_moves(state)} == {("overwrite", (10,)), ("pass", ())}
    state, _ = game.apply(state, next(m for m in game.legal_moves(state) if m.action == "pass"))
    assert state.to_move == 2
    state, events = game.apply(state, next(m for m in game.legal_moves(state) if m.action == "pass"))
    assert [e.reasons for e in events if isinstance(e, TrickEnd)] == [("all_passed",)]
    assert state.pile is None and state.to_move == 1
    assert game.from_json(game.to_json(state)) == state


def test_a_play_nobody_is_left_to_answer_ends_the_trick() -> None:
    game = make_engine(_ruleset(), 4)
    state = game.start_round([[4, 9, 12], [3, 13], [6], [5, 14]], 0)
    for seat, text in ((0, "lead 4"), (1, "pass"), (2, "overwrite 6"), (3, "pass")):
        assert state.to_move == seat
        state, _ = game.apply(state, next(m for m in game.legal_moves(state) if str(m) == text))
    # Player 2 went out with the 6; players 1 and 3 passed: player 0's 9 has nobody left to answer.
    assert state.out == (2,) and state.to_move == 0
    state, events = game.apply(state, next(m for m in game.legal_moves(state) if str(m) == "overwrite 9"))
    assert [(e.winner, e.reasons) for e in events if isinstance(e, TrickEnd)] == [(0, ("all_passed",))]
    assert state.pile is None and state.to_move == 0


def test_every_match_ends_at_every_player_count_with_every_bot() -> None:
    for players in range(3, 7):
        game = make_engine(_ruleset(), players)
        for name in ("greedy", "cautious", "random"):
            bot = get_bot(name)
            for seed in range(3):
                rng = random.Random(seed)
                state = game.new_match(seed)
                rounds = 1
                while state.phase != "match_over":
                    if state.phase == "round_over":
                        state, rounds = game.next_round(state), rounds + 1
                        continue
                    state, _ = game.apply(state, bot.choose(game, state, game.legal_moves(state), rng))
                assert 1 <= rounds <= 5


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_rules_and_simulate_run_and_name_the_interpreter() -> None:
    code, out = _cli("rules", "--spec", str(SPEC))
    assert code == 0, out
    assert "played by the spec interpreter" in out
    code, out = _cli("simulate", "--spec", str(SPEC), "--games", "3", "--players", "3", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert "the spec interpreter" in json.dumps(data["ruleset"])
    counts = data["counts"]
    assert counts["trick_ends"]["rule_of_8"] == 0
    assert counts["moves"]["add"] == 0
    assert counts["moves"]["overwrite"] > 0


def test_check_quick_skips_what_it_cannot_say_naming_the_reason_in_every_format() -> None:
    code, out = _cli("check", "--level", "quick", "--spec", str(SPEC), "--format", "json")
    assert code == 0, out
    run = json.loads(out[out.index("{") :])
    assert "the spec interpreter" in run["rules_played_by"]
    skipped = {c["name"]: c["skipped"] for c in run["checks"]}
    # Nothing is run and faked: the text audit reads President's own spec, every other check is
    # skipped, each with its reason.
    assert skipped.pop("text_audit") is None
    assert all("another game" in s or "not run at level quick" in s for s in skipped.values())
    assert sum("another game" in s for s in skipped.values()) == 13
    assert "the reference engine, which plays 535 alone" in skipped["interpreter"]
    (gap,) = run["findings"]
    assert gap["id"] == "gap.point.first_leader"
    assert gap["detail"].startswith("The text does not say.")
    code, out = _cli("check", "--level", "quick", "--spec", str(SPEC), "--format", "junit")
    assert code == 0
    root = ET.fromstring(out[out.index("<") :])
    messages = [s.get("message", "") for s in root.iter("skipped")]
    assert messages and any("President is another game" in m for m in messages)
    code, out = _cli("check", "--level", "quick", "--spec", str(SPEC), "--format", "sarif")
    assert code == 0
    notes = json.loads(out[out.index("{") :])["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes and all(n["level"] == "note" and "another game" in n["message"]["text"] for n in notes)


def test_vectors_claim_none_of_535s_clauses(tmp_path: Path) -> None:
    code, out = _cli("vectors", "--spec", str(SPEC), "--out", str(tmp_path / "v"))
    assert code == 0, out
    index = json.loads((tmp_path / "v" / "index.json").read_text(encoding="utf-8"))
    assert index["coverage"]["clauses"] == {}
    assert "another game" in index["coverage"]["clauses_not_claimed"]
    assert any(v["file"].endswith("seeded-3-players.json") for v in index["vectors"])
    # 535's text examples are not tried on President: each is skipped with the reason.
    assert any("535's texts" in s["why"] for s in index["skipped"])


def test_without_a_words_file_no_wording_exists_yet() -> None:
    message = no_wording(_spec())
    assert message is not None and "no wording exists yet for President" in message
    assert no_wording(load_spec()) is None
    code, out = _cli("rulebook", "--spec", str(SPEC), "--lang", "en")
    assert code == 2
    assert "no wording exists yet for President" in out
    assert len(out.strip().splitlines()) == 1


def test_the_deal_is_the_rules_and_the_player_bounds_the_specs() -> None:
    ruleset = _ruleset()
    # No hand-size table: the deal rule deals the whole deck evenly.
    assert [ruleset.hand_size(n) for n in range(3, 7)] == [17, 13, 10, 8]
    with pytest.raises(SpecError, match="7 players is outside 3 to 6"):
        SpecEngine(ruleset, 7)


def test_the_report_says_who_played_and_that_no_wording_exists_yet(tmp_path: Path) -> None:
    out = tmp_path / "report"
    code, text = _cli(
        "report", "--spec", str(SPEC), "--out", str(out), "--games", "4", "--level", "quick", "--jobs", "1"
    )
    assert code == 0, text
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["game"] == "President"
    verdict = " ".join(data["verdict"])
    assert "Played by the spec interpreter" in verdict
    assert "No wording exists yet for President" in verdict
    assert "The reference engine passed every check" not in verdict
    markdown = (out / "report.md").read_text(encoding="utf-8")
    # The clauses are quoted in the text's own language, not as missing German and Spanish ones.
    assert "en: The player who leads a trick plays a single card" in markdown
    assert "(not in the German text)" not in markdown


def test_fuzz_plays_president_through_the_protocol() -> None:
    # A pile kind of President's own (pair, triple) crosses the protocol, and so do its parameters.
    serve = f"{Path(sys.executable).parent / '535-check'} serve --spec {SPEC}"
    code, out = _cli("fuzz", "--spec", str(SPEC), "--engine", serve, "--examples", "3")
    assert code == 0, out
    assert "played by the spec interpreter" in out


def test_without_its_after_play_ending_the_rules_stall_and_say_so_in_one_line(tmp_path: Path) -> None:
    # The turn would reach nobody after a play that no one is left to answer: the rules' fault, a
    # one-line error (exit 2), not a traceback or a hang.
    text = SPEC.read_text(encoding="utf-8")
    start, end = text.index("  - id: trick.end.nobody_left"), text.index("  - id: trick.winner")
    (tmp_path / "rules.en.txt").write_text((FOLDER / "rules.en.txt").read_text(encoding="utf-8"))
    copy = tmp_path / "stalls.yaml"
    copy.write_text(text[:start] + text[end:], encoding="utf-8")
    code, out = _cli("simulate", "--spec", str(copy), "--games", "50", "--bots", "greedy")
    assert code == 2
    assert out.strip().splitlines()[-1].startswith("535-check: error: rules: the turn order after player")
