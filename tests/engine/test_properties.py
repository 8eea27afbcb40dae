"""Property tests (Hypothesis, derandomized, no example database): random play under every profile and
under random reading combinations, for 2 to 6 players.

- every match ends, with someone at or above match_end_score, and the winners hold the fewest points;
- at every step every card is accounted for: hands + the trick on the table + cleared tricks + the
  cards set aside are exactly the deck;
- scores only grow; the player who went out scores nothing, everyone else at least a point;
- at every step the engine's legal moves equal those of scenario_tools.RulesOracle (a brute-force
  statement of the rules), and every trick ends exactly when, and for the reasons, the oracle says,
  won by the player it names; the turn passes to the next seat in turn order that has not passed.

deal=table with 5 players and five_player_copies=five_is_small cannot deal (5 x 12 > 52 cards): that
combination must raise SpecError, and is checked on its own.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from five35.engine import Game, MatchEnd, Option, Pile, RoundEnd, State, TrickEnd
from five35.spec import Ruleset, SpecError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_tools import RulesOracle, deck_counter, spec

SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow],
)
STEP_LIMIT = 20_000  # far beyond any real match (a few hundred moves): reaching it means no termination


def _choices() -> st.SearchStrategy[dict[str, str]]:
    points = spec().variation_points
    return st.fixed_dictionaries({name: st.sampled_from(sorted(vp.readings)) for name, vp in points.items()})


rulesets = st.one_of(
    st.sampled_from(sorted(spec().profiles)).map(lambda name: spec().ruleset(name)),
    _choices().map(lambda readings: spec().ruleset("published", readings)),
)


def _cannot_deal(rules: Ruleset, players: int) -> bool:
    return (
        players == 5
        and rules.reading("deal") == "table"
        and rules.reading("five_player_copies") == "five_is_small"
    )


def _counter(game: Game, packed: int) -> Counter[int]:
    return Counter(game.codec.cards(packed))


def _accounted(game: Game, oracle: RulesOracle, state: State) -> None:
    table: Counter[int] = Counter()
    for hand in state.hands:
        table += _counter(game, hand)
    for turn in state.trick:
        table += Counter(turn.move.cards)
    table += _counter(game, state.cleared) + _counter(game, state.aside)
    assert table == deck_counter(game.ruleset, oracle.copies), "cards lost or invented"


def _next_seat(game: Game, seat: int, passed: set[int]) -> int:
    step = -1 if game.ruleset.reading("turn_order") == "descending_seats" else 1
    seat = (seat + step) % game.players
    while seat in passed:
        seat = (seat + step) % game.players
    return seat


def _play_match(game: Game, seed: int, *, oracle_check: bool, rounds: int | None) -> None:
    rules, players = game.ruleset, game.players
    oracle = RulesOracle(rules, players)
    points = {int(k): v for k, v in spec().parameters["points"].value.items()}
    rng = random.Random(f"prop:{seed}")
    state = game.new_match(seed)
    played_rounds = 0
    opening_eight = False
    for _ in range(STEP_LIMIT):
        _accounted(game, oracle, state)
        if state.phase == "round_over":
            played_rounds += 1
            if rounds is not None and played_rounds >= rounds:
                return
            state = game.next_round(state)
            continue
        if state.phase == "match_over":
            assert max(state.scores) >= rules.match_end_score
            return
        moves = game.legal_moves(state)
        pile = (state.pile.kind, state.pile.cards) if state.pile else None
        if oracle_check:
            hand = _counter(game, state.hands[state.to_move])
            assert frozenset(moves) == oracle.legal(hand, pile), (game.to_json(state), rules.label())
        move = rng.choice(moves)
        after, events = game.apply(state, move)
        ends = [e for e in events if isinstance(e, TrickEnd)]
        round_ends = [e for e in events if isinstance(e, RoundEnd)]
        passed = {p for p in range(players) if state.has_passed(p)}
        expected: set[str] | None
        if move.action == "pass":
            expected = {"all_passed"} if len(passed) + 1 == players - 1 else set()
            winner = state.last_player
        else:
            # The trick's opening pile as this test saw it led, not as the engine remembers it.
            if pile is None:
                opening_eight = 8 in move.cards
            expected = oracle.trick_end_reasons(pile, opening_eight, move) if oracle_check else None
            winner = state.to_move
        if expected is not None:
            assert {r for e in ends for r in e.reasons} == expected, (game.to_json(state), move)
        if ends:
            assert ends[0].winner == winner
            if not round_ends:
                assert after.to_move == winner and after.pile is None
        elif not round_ends:
            mover_out = passed | ({state.to_move} if move.action == "pass" else set())
            assert after.to_move == _next_seat(game, state.to_move, mover_out)
        if round_ends:
            end = round_ends[0]
            assert end.went_out == state.to_move and after.hands[end.went_out] == 0
            assert end.penalties == tuple(sum(points[c] for c in game.codec.cards(h)) for h in after.hands)
            assert all(p >= 1 for i, p in enumerate(end.penalties) if i != end.went_out)
            assert all(new >= old for new, old in zip(end.scores, state.scores, strict=True))
            assert sum(end.scores) > sum(state.scores), "scores must grow every round"
            matches = [e for e in events if isinstance(e, MatchEnd)]
            if max(end.scores) >= rules.match_end_score:
                assert matches and set(matches[0].winners) == {
                    i for i, s in enumerate(end.scores) if s == min(end.scores)
                }
            else:
                assert not matches
        state = after
    pytest.fail(f"no end after {STEP_LIMIT} moves under {rules.label()}, {players} players, seed {seed}")


@settings(SETTINGS, max_examples=60)
@given(rules=rulesets, players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_matches_end_with_cards_and_scores_consistent(
    engine_class: type[Game], rules: Ruleset, players: int, seed: int
) -> None:
    if _cannot_deal(rules, players):
        with pytest.raises(SpecError):
            engine_class(rules, players).new_match(seed)
        return
    _play_match(engine_class(rules, players), seed, oracle_check=False, rounds=None)


@settings(SETTINGS, max_examples=50)
@given(rules=rulesets, players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_rules_oracle(
    engine_class: type[Game], rules: Ruleset, players: int, seed: int
) -> None:
    if _cannot_deal(rules, players):
        return
    _play_match(engine_class(rules, players), seed, oracle_check=True, rounds=1)


@pytest.mark.parametrize("profile", sorted(spec().profiles))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_profile_plays_seeded_matches_to_the_end(
    engine_class: type[Game], profile: str, players: int
) -> None:
    rules = spec().ruleset(profile)
    for seed in range(3):
        _play_match(engine_class(rules, players), seed, oracle_check=True, rounds=None)


@pytest.mark.parametrize("deal", ["table", "deal_all"])
def test_five_players_with_four_copies(engine_class: type[Game], deal: str) -> None:
    """deal=table cannot deal 5 x 12 from 52 cards; deal_all deals 10 each and sets 2 aside."""
    rules = spec().ruleset("published", {"five_player_copies": "five_is_small", "deal": deal})
    game = engine_class(rules, 5)
    if deal == "table":
        with pytest.raises(SpecError) as err:
            game.new_match(0)
        assert "\n" not in str(err.value)
    else:
        _play_match(game, 0, oracle_check=True, rounds=None)


# ---- the checks can fail: engines with one planted rule bug are caught ------------------------------


class _EqualSingleBeats(Game):
    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind == old.kind == "single" and new.cards == old.cards:
            return True
        return super().beats(new, old)


class _NoRuleOf8(Game):
    def rule_of_8(self, option: Option, state: State) -> bool:
        return False


class _RunsNeverClose(Game):
    def closing_size(self, kind: str) -> int | None:
        return None if kind == "run" else super().closing_size(kind)


class _AlwaysAddToSingles(Game):
    def add_options(self, pile: Pile) -> list[tuple[tuple[int, ...], Pile]]:
        saved, self.add_to_single = self.add_to_single, True
        try:
            return super().add_options(pile)
        finally:
            self.add_to_single = saved


class _TurnsSkipASeat(Game):
    def next_seat(self, seat: int) -> int:
        return (seat + 2) % self.players


@pytest.mark.parametrize(
    ("mutant", "profile"),
    [
        (_EqualSingleBeats, "published"),
        (_NoRuleOf8, "published"),
        (_RunsNeverClose, "published"),
        (_AlwaysAddToSingles, "german-literal"),
        (_TurnsSkipASeat, "published"),
    ],
    ids=lambda v: v if isinstance(v, str) else v.__name__,
)
def test_a_planted_rule_bug_is_caught(mutant: type[Game], profile: str) -> None:
    game = mutant(spec().ruleset(profile), 4)
    with pytest.raises(AssertionError):
        for seed in range(5):
            _play_match(game, seed, oracle_check=True, rounds=None)


def test_the_rules_oracle_refuses_a_reading_it_does_not_state() -> None:
    """The tests' own statement of the rules never plays a new reading like an old one."""
    import dataclasses

    from five35.spec.vocabulary import UnimplementedReading

    base = spec().ruleset()
    items = tuple(sorted({**base.readings, "run_order": "runs_unbeaten"}.items()))
    with pytest.raises(UnimplementedReading, match="RulesOracle does not implement reading run_order"):
        RulesOracle(dataclasses.replace(base, reading_items=items), 2)


def test_the_rules_oracle_states_every_reading_of_the_engine() -> None:
    from five35.engine import Game

    assert dict(RulesOracle.KNOWN) == dict(Game.VOCABULARY.points)
