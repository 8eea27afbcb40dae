"""The Hypothesis strategies produce what they promise: dealable rulesets, hands the deck can hold,
piles the spec calls valid, states reachable by legal play."""

from __future__ import annotations

from collections import Counter

from five35.checks.hypothesis_env import private_hypothesis_home
from five35.checks.oracles.rules_model import SpecRules
from five35.checks.oracles.strategies import (
    Setup,
    dealable_players,
    hands,
    moves_from,
    piles,
    reachable_states,
    reading_choices,
    rulesets,
    setups,
)
from five35.engine import Game, Move
from five35.spec import load_spec
from five35.spec.words import words_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")
GAME = Game(BASE, 4)
FAST = settings(
    max_examples=40, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)


def setup_module() -> None:
    # Hypothesis caches collected constants under .hypothesis/ in the working directory; keep the
    # checkout clean while these tests run.
    global _home
    _home = private_hypothesis_home()
    _home.__enter__()


def teardown_module() -> None:
    _home.__exit__(None, None, None)


@FAST
@given(reading_choices(SPEC))
def test_reading_choices_name_a_reading_of_every_point(readings: dict[str, str]) -> None:
    assert set(readings) == set(SPEC.variation_points)
    for point, reading in readings.items():
        assert reading in SPEC.variation_points[point].readings


@FAST
@given(rulesets(SPEC, BASE))
def test_rulesets_resolve_through_the_spec(rs: object) -> None:
    assert rs in {SPEC.ruleset(p) for p in SPEC.profiles} or getattr(rs, "profile", None) == BASE.profile


def test_dealable_players_leaves_out_the_deal_that_cannot_happen() -> None:
    rs = SPEC.ruleset(None, {"deal": "table", "five_player_copies": "five_is_small"})
    assert 5 not in dealable_players(rs)
    assert dealable_players(BASE) == [2, 3, 4, 5, 6]


@FAST
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(st.just(n), hands(BASE, n))))
def test_hands_never_hold_more_copies_than_the_deck(case: tuple[int, list[list[int]]]) -> None:
    players, dealt = case
    assert len(dealt) == players
    counts = Counter(c for h in dealt for c in h)
    assert all(n <= BASE.copies(players) for n in counts.values())
    assert all(1 <= len(h) <= 4 and h == sorted(h) for h in dealt)


@FAST
@given(setups(SPEC, BASE))
def test_setups_start_a_round_the_engine_accepts(setup: Setup) -> None:
    game = Game(setup.ruleset, setup.players)
    state = setup.start(game)
    assert state.phase == "play"
    assert game.legal_moves(state)


@FAST
@given(piles(GAME))
def test_piles_are_valid_under_the_spec(pile: object) -> None:
    rules = SpecRules(BASE, 4, ORACLES)
    made = rules.as_pile(sorted(pile.cards))  # type: ignore[attr-defined]
    assert made is not None and made.kind == pile.kind  # type: ignore[attr-defined]


@FAST
@given(reachable_states(GAME, max_steps=120))
def test_reachable_states_replay_from_their_moves(case: tuple[int, list[str], object]) -> None:
    seed, played, state = case
    again = GAME.new_match(seed)
    for text in played:
        again = GAME.next_round(again) if text == "next_round" else GAME.apply(again, Move.parse(text))[0]
    assert again == state


def test_move_parse_inverts_str() -> None:
    for move in (Move("lead", (3, 3)), Move("add", (4, 5, 7)), Move("pass"), Move("overwrite", (14,))):
        assert Move.parse(str(move)) == move


def test_moves_from_puts_next_round_between_rounds() -> None:
    state, played = moves_from(GAME, GAME.new_match(3), [0] * 400)
    assert "next_round" in played or state.phase != "play"
