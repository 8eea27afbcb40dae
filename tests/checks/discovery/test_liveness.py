"""discovery.liveness: the liveness and well-definedness properties of the rules, each proved with its
method (Z3 over every reading combination and symbolic parameters, or an exhaustive small search),
and the findings where one fails: a points table with a 0 (the smallest endless match, replayed
through Game.play_from) and a set that closes beyond the copies."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import z3  # type: ignore[import-untyped]  # z3-solver ships no type information
from five35.checks.discovery.liveness import MATCH_END_TOPIC, check_liveness, proofs, small_domains
from five35.checks.discovery.liveness.check import _describe, analyse
from five35.checks.discovery.liveness.outcome import SCHEMA_SCORE
from five35.checks.discovery.liveness.proofs import _premises_hold
from five35.checks.discovery.liveness.states import STATE_PLANS, _deals, _key, _state_rulesets, states
from five35.checks.findings import (
    DEFAULT_SOLVER_RLIMIT,
    CheckContext,
    CheckResult,
    FindingKind,
    Level,
    ReadingRef,
)
from five35.checks.oracles import z3model
from five35.checks.oracles.z3model import CheckedSolver
from five35.checks.play.graphs import PLAY_POINTS, variants
from five35.checks.runner import run_checks
from five35.engine import PASS, Game, Move, Play, RoundEnd, State, TrickEndReason
from five35.engine.cards import DealError
from five35.spec import Spec, SpecError, load_spec
from five35.spec.words import words_of

SPEC_FILE = Path(__file__).resolve().parents[3] / "spec" / "535.yaml"
WORDS_FILE = SPEC_FILE.with_name("535.words.yaml")

Z3_PROPERTIES = {
    "trick.play_places_cards",
    "trick.pass_leaves_trick",
    "trick.ends",
    "lead.single_is_legal",
    "round.ends",
    "match.ends",
}
EXHAUSTIVE_LIVENESS = {
    "turn.reaches_every_seat",
    "state.has_legal_move",
    "trick.rank_falls",
    "trick.winner_at_table",
    "round.one_goes_out",
    "close.run_reachable",
}


def run(spec: Spec, level: Level = "ci") -> CheckResult:
    result = check_liveness(CheckContext(spec, spec.ruleset(), level=level))
    assert not result.failures and result.error is None
    return result


def spec_copy(tmp_path: Path, old: str, new: str) -> Spec:
    text = SPEC_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "house.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_spec(path)


def test_the_embedded_spec_proves_every_liveness_property_with_its_method() -> None:
    spec = load_spec()
    result = run(spec)
    proved = {p.name: p for p in result.proved}
    assert set(proved) >= Z3_PROPERTIES | EXHAUSTIVE_LIVENESS
    words = words_of(spec).liveness
    for name, p in proved.items():
        assert p.method == ("z3" if name in Z3_PROPERTIES else "exhaustive"), name
        # The statement is the words file's, its blanks filled as the scope's are.
        template = words.properties[name].statement
        assert p.statement == template or ("{" in template and p.statement.startswith(template[:20]))
        assert "{" not in p.statement
        assert p.scope and "{" not in p.scope and p.clauses
        assert all(c in spec.clauses for c in p.clauses)
    assert "8,192 reading combinations" in proved["trick.play_places_cards"].scope
    assert "39, 29, 26, 24 and 23 rounds with 2, 3, 4, 5 and 6 players" in proved["match.ends"].statement
    # The deal is asked once per player count and playable reading of the two points it depends on.
    deal_cases = (
        5
        * len(spec.variation_points["deal"].playable)
        * len(spec.variation_points["five_player_copies"].playable)
    )
    deal = small_domains.deal(spec, spec.ruleset())
    assert deal.cases == deal_cases and deal.blanks["cases"] == f"{deal_cases:,}"
    # The symbolic proofs hold for every table a spec may give, and say which of them this spec plays.
    assert "2 to 12 players" in proved["turn.reaches_every_seat"].scope
    assert "this spec plays 2 to 6" in proved["trick.ends"].scope
    # The bound on a match's rounds, as numbers for this spec's tables (20 points, cheapest card 1).
    assert "at most 39, 29, 26, 24 and 23 rounds with 2, 3, 4, 5 and 6 players" in proved["match.ends"].scope
    for p in proved.values():
        # No spec id or state field a designer cannot read in what a proof states.
        assert not any(token in p.statement.split() for token in ("hands", "scores", "deck", "pile")), p.name
        assert "max_cards_per_turn" not in p.statement + p.scope and "trick.ends" not in p.statement
    assert result.proofs >= len(Z3_PROPERTIES) and result.exhaustive > 1000
    ids = {f.id for f in result.findings}
    assert "liveness.match_end" not in ids and "liveness.match.ends" not in ids
    # Two size questions fail under reading combinations no profile of the spec plays: with 5
    # players, 4 copies (five_is_small) cannot close a set at 5 or deal Board Game Arena's 12 cards.
    for f in result.findings:
        assert f.topic == f.id
        assert not f.status.is_open and f.severity == "medium"
        assert f.witness is not None and f.witness.situation["players"] == 5
        assert ReadingRef("five_player_copies", "five_is_small") in f.readings
        assert "{" not in f.title + f.detail
    assert ids == {"liveness.close.set_reachable", "liveness.deal.every_player_gets_a_card"}
    # Neither is a game that may never end: one table cannot be dealt (a gap), one ending can never
    # apply while the trick still ends by passing (a dead clause); each says its counterexample in words.
    found = {f.id: f for f in result.findings}
    deal, close = found["liveness.deal.every_player_gets_a_card"], found["liveness.close.set_reachable"]
    assert deal.kind == FindingKind.GAP and close.kind == FindingKind.DEAD_CLAUSE
    assert deal.detail == (
        "Under \u20184 copies of each card with 5 players\u2019, 5 players need 60 cards (12 each), "
        "but there are only 52: the game cannot start, and no rule says how to deal instead."
    )
    # The witness tells the table under the readings that make it, as a scene's one side.
    assert deal.witness is not None and deal.witness.outcomes == {
        "4 copies of each card with 5 players": "5 players need 60 cards (12 each), but there are only 52: "
        "the game cannot start."
    }
    assert "never reach 5 cards with 4 copies" in close.title and "all but one pass" in close.detail


def test_a_points_table_with_a_zero_gets_the_smallest_endless_match(tmp_path: Path) -> None:
    spec = spec_copy(tmp_path, "value: {1: 1, 2: 1, 3: 1,", "value: {1: 1, 2: 1, 3: 0,")
    ruleset = spec.ruleset()
    result = run(spec)
    assert "match.ends" not in {p.name for p in result.proved}
    found = {f.id: f for f in result.findings}["liveness.match_end"]
    assert found.kind == FindingKind.LIVENESS and found.topic == MATCH_END_TOPIC
    assert found.severity == "high" and found.status.is_open
    assert "3" in found.detail and "{" not in found.detail + found.title
    witness = found.witness
    assert witness is not None and witness.position is not None
    position = witness.position
    # The smallest: one card per player at the fewest players, every score one short of the end.
    assert position.players == ruleset.players_min and position.cards == position.players
    assert position.scores == (ruleset.match_end_score - 1,) * position.players
    assert witness.situation["zero_ranks"] == [3]
    # Replayed through the engine: the round ends by legal play and no score moves.
    game = Game(ruleset, position.players)
    state = game.play_from(position)
    assert state.phase == "round_over" and state.scores == position.scores
    replay = game.play_from(position.__class__(position.hands, position.leader, position.scores))
    events = []
    for move in position.moves:
        assert move in game.legal_moves(replay)
        replay, got = game.apply(replay, move)
        events.extend(got)
    ends = [e for e in events if isinstance(e, RoundEnd)]
    assert len(ends) == 1 and not any(ends[0].penalties) and ends[0].scores == position.scores
    # The next round starts from the same scores: the match can go on forever.
    assert game.next_round(state).scores == position.scores
    # Its question asks, in the three languages, that every card score at least 1 point.
    question = next(q for q in words_of(spec).questions.values() if MATCH_END_TOPIC in q.topics)
    assert set(question.ask) == {"en", "de", "es"}
    assert all({"en", "de", "es"} <= set(w.text) for w in question.wordings)


def test_a_set_that_closes_beyond_the_copies_fails_with_its_counterexample(tmp_path: Path) -> None:
    old = "value: {small_game: 4, large_game: 5}\n    cites: [trick.end.set]"
    spec = spec_copy(tmp_path, old, "value: {small_game: 5, large_game: 5}\n    cites: [trick.end.set]")
    result = run(spec)
    assert "close.set_reachable" not in {p.name for p in result.proved}
    found = {f.id: f for f in result.findings}["liveness.close.set_reachable"]
    assert found.kind == FindingKind.DEAD_CLAUSE and found.topic == "liveness.close.set_reachable"
    # The checked rules themselves fail: no reading is named, the rules as checked are.
    assert found.detail.startswith(
        "Under the rules as checked, with 2 players a set ends the trick once it holds 5"
    )
    assert found.witness is not None
    situation = found.witness.situation
    # The smallest counterexample: the fewest players, under the checked ruleset's own readings.
    assert situation["players"] == 2 and situation["set_closing_size"] == 5 and situation["copies"] == 4
    assert situation["largest_pile"] == 4
    assert found.severity == "high" and found.status.is_open
    # The liveness properties themselves still hold.
    assert {p.name for p in result.proved} >= Z3_PROPERTIES


def test_level_ci_is_deterministic() -> None:
    spec = load_spec()
    first = analyse(spec, spec.ruleset(), "ci", 0)
    second = analyse(spec, spec.ruleset(), "ci", 0)
    assert first == second
    assert run(spec).to_json() == run(spec).to_json()


def test_a_liveness_scope_with_an_unknown_blank_is_refused_at_its_line(tmp_path: Path) -> None:
    spec_text = SPEC_FILE.read_text(encoding="utf-8")
    (tmp_path / "house.yaml").write_text(spec_text, encoding="utf-8")
    words = WORDS_FILE.read_text(encoding="utf-8")
    old = 'scope: "every reading of {points}, for {players} players'
    assert old in words
    (tmp_path / "house.words.yaml").write_text(
        words.replace(old, 'scope: "every reading of {points}, for {seats} seats'), encoding="utf-8"
    )
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "house.yaml")
    message = str(err.value)
    assert "house.words.yaml:" in message and "liveness.properties.turn.reaches_every_seat.scope" in message
    assert "{seats}" in message and "\n" not in message


def test_a_failed_property_words_with_an_unknown_blank_or_kind_are_refused_at_their_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "house.yaml").write_text(SPEC_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    words = WORDS_FILE.read_text(encoding="utf-8")
    for old, new, needle in (
        ("but there are only {deck}:", "but there are only {cards}:", "{cards}"),
        ("        kind: gap\n", "        kind: endless\n", "endless"),
    ):
        assert old in words
        (tmp_path / "house.words.yaml").write_text(words.replace(old, new), encoding="utf-8")
        with pytest.raises(SpecError) as err:
            load_spec(tmp_path / "house.yaml")
        message = str(err.value)
        assert "house.words.yaml:" in message and "deal.every_player_gets_a_card" in message, message
        assert needle in message and "\n" not in message


def test_a_set_too_large_to_lead_closes_only_where_singles_take_adds(tmp_path: Path) -> None:
    # Sets of at least 4 cards with at most 3 placed per turn: only an add onto a single makes one.
    spec = spec_copy(tmp_path, "min_set_size:\n    value: 2", "min_set_size:\n    value: 4")
    result = run(spec)
    found = {f.id: f for f in result.findings}["liveness.close.set_reachable"]
    assert found.witness is not None
    assert found.witness.situation["readings"]["add_to_single"] == "not_allowed"
    assert found.witness.situation["largest_pile"] == 1  # a single, never a set
    # The checked profile lets cards be added to a single: it settles the question.
    assert not found.status.is_open and found.severity == "medium"


def test_a_property_over_an_empty_domain_is_never_called_proved() -> None:
    solver = CheckedSolver(DEFAULT_SOLVER_RLIMIT)
    x = z3.Int("x")
    solver.add(x > 1, x < 1)
    with pytest.raises(ValueError, match="empty"):
        _premises_hold(solver)


class LeaderMayPass(Game):
    """A planted bug: the leader of a trick may pass."""

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        moves = super().legal_moves(state)
        return (*moves, PASS) if state.phase == "play" and state.leading else moves


class FirstPlayerWins(Game):
    """A planted bug: a trick goes to whoever placed first in it, not last."""

    def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        return next(p.player for p in trick if p.move.action != "pass")


@pytest.mark.parametrize(
    ("engine", "broken"),
    [(LeaderMayPass, "state.has_legal_move"), (FirstPlayerWins, "trick.winner_at_table")],
)
def test_the_state_search_catches_a_planted_bug(engine: type[Game], broken: str) -> None:
    spec = load_spec()
    got = {o.name: o for o in states(spec, spec.ruleset(), "quick", 0, engine=engine)}
    assert got[broken].counterexample is not None and got[broken].position is not None
    assert all(o.proved for name, o in got.items() if name != broken)
    # The witness sets up the table where it breaks: its moves are legal for the broken engine.
    position = got[broken].position
    engine(spec.ruleset(), position.players).play_from(position)


def test_a_table_the_hand_picked_deals_miss_gets_deals_of_its_own() -> None:
    spec = load_spec()
    ruleset = replace(spec.ruleset(), players_min=4, players_max=6)
    deals = _deals(spec, ruleset, STATE_PLANS["ci"], 0)
    assert len(deals) >= 3 and all(len(d.hands) == 4 for d in deals)
    assert all(c in ruleset.ranks for d in deals for h in d.hands for c in h)
    # Two or three cards to every player, the same number around the table.
    assert all(len({len(h) for h in d.hands}) == 1 and len(d.hands[0]) in (2, 3) for d in deals)


def test_a_words_file_without_a_property_is_refused_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(SPEC_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    words = WORDS_FILE.read_text(encoding="utf-8")
    start = words.index("    trick.ends:\n")
    end = words.index("    lead.single_is_legal:\n")
    (tmp_path / "house.words.yaml").write_text(words[:start] + words[end:], encoding="utf-8")
    spec = load_spec(tmp_path / "house.yaml")
    with pytest.raises(SpecError) as err:
        check_liveness(CheckContext(spec, spec.ruleset(), level="quick"))
    message = str(err.value)
    assert "house.words.yaml:" in message and "liveness.properties" in message and "'trick.ends'" in message


# ---- the match bound: what the proof proved ----------------------------------------------------


def liveness_run(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> CheckResult:
    monkeypatch.setattr(z3model, "_MEMO", {})  # the proof asked again, under the patch
    [result] = run_checks(spec, spec.ruleset(), level="quick", only=["discovery.liveness"]).results
    return result


def test_the_match_bound_printed_is_the_one_the_proof_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds the scope names come from the proof's own term at the spec's score, not from
    spec/model.py: a model bound raised by one leaves them as they are."""
    model_bound = proofs.match_round_bound
    monkeypatch.setattr(proofs, "match_round_bound", lambda *args: (model_bound(*args) or 0) + 1)
    result = liveness_run(load_spec(), monkeypatch)
    [match] = [p for p in result.proved if p.name == "match.ends"]
    assert "at most 39, 29, 26, 24 and 23 rounds with 2, 3, 4, 5 and 6 players" in match.scope


def test_a_weakened_match_proof_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof of a bound one round looser still holds, and proves less than the loader and the
    simulations take as proved: the check stops, naming both numbers."""
    proved = proofs.round_limit
    monkeypatch.setattr(proofs, "round_limit", lambda n, score, p_min: proved(n, score, p_min) + 1)
    result = liveness_run(load_spec(), monkeypatch)
    assert result.error is not None and not result.proved
    assert result.error.message == (
        "ValueError: liveness: the match proof bounds a match of 2 players by 40 rounds, but "
        "spec/ruleset.py's match_round_bound, taken as proved, says 39"
    )


def test_a_match_bound_one_round_too_tight_is_disproved(monkeypatch: pytest.MonkeyPatch) -> None:
    proved = proofs.round_limit
    monkeypatch.setattr(proofs, "round_limit", lambda n, score, p_min: proved(n, score, p_min) - 1)
    result = liveness_run(load_spec(), monkeypatch)
    assert result.error is None and "match.ends" not in {p.name for p in result.proved}
    [finding] = [f for f in result.findings if f.id == "liveness.match.ends"]
    # Some score and number of rounds at 2 players: the first player count asked.
    assert finding.witness is not None and finding.witness.situation["players"] == 2


def test_a_bound_too_tight_only_at_the_highest_score_a_spec_may_set_is_disproved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proved, top = proofs.round_limit, SCHEMA_SCORE[1]

    def tight_at_top(n: int, score: Any, p_min: int) -> Any:
        return z3.If(score == top, proved(n, score, p_min) - 1, proved(n, score, p_min))

    monkeypatch.setattr(proofs, "round_limit", tight_at_top)
    result = liveness_run(load_spec(), monkeypatch)
    assert result.error is None and "match.ends" not in {p.name for p in result.proved}


def test_a_lead_of_more_cards_than_a_turn_places_fails_for_the_small_tables(tmp_path: Path) -> None:
    """max_cards_per_turn is symbolic (1 to 6): a lead fixed at up to 3 cards breaks the smaller ones."""
    lead = 'cards: {min: 1, max: max_cards_per_turn}\n    may: "true"'
    spec = spec_copy(tmp_path, lead, lead.replace("max_cards_per_turn", "3"))
    result = check_liveness(CheckContext(spec, spec.ruleset(), level="quick"))
    assert "trick.play_places_cards" not in {p.name for p in result.proved}
    [found] = [f for f in result.findings if f.id == "liveness.trick.play_places_cards"]
    assert found.witness is not None and found.witness.situation["max_cards_per_turn"] < 3


def test_the_match_bound_follows_the_spec_copys_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 30 points, the cheapest card 1: floor(n * 29 / (n - 1)) + 1 rounds.
    spec = spec_copy(tmp_path, "value: 20\n    cites: [match.end]", "value: 30\n    cites: [match.end]")
    [match] = [p for p in liveness_run(spec, monkeypatch).proved if p.name == "match.ends"]
    assert "at most 59, 44, 39, 37 and 35 rounds with 2, 3, 4, 5 and 6 players" in match.scope


class NoThrees(Game):
    """A deck without 3s: a deal that holds one cannot be dealt."""

    def start_round(self, hands: Any, *args: Any, **kwargs: Any) -> State:
        if any(3 in hand for hand in hands):
            raise DealError("hands", "this deck has no 3s")
        return super().start_round(hands, *args, **kwargs)


def test_a_deal_the_deck_cannot_hold_is_passed_over_and_the_others_played() -> None:
    spec = load_spec()
    full = {o.name: o for o in states(spec, spec.ruleset(), "quick", 0)}
    got = {o.name: o for o in states(spec, spec.ruleset(), "quick", 0, engine=NoThrees)}
    assert all(o.proved for o in got.values())
    dealt = [d for d in _deals(spec, spec.ruleset(), STATE_PLANS["quick"], 0) if 3 not in sum(d.hands, ())]
    assert got["state.has_legal_move"].blanks["deals"] == str(len(dealt))
    assert 0 < len(dealt) < int(full["state.has_legal_move"].blanks["deals"])


def test_the_state_search_changes_one_reading_at_a_time_below_level_deep() -> None:
    spec = load_spec()
    ruleset = spec.ruleset()
    singles = variants(spec, ruleset, PLAY_POINTS, all_combinations=False)
    assert _state_rulesets(spec, ruleset, STATE_PLANS["ci"]) == singles
    assert _state_rulesets(spec, ruleset, STATE_PLANS["quick"]) == singles[:1]
    deep = _state_rulesets(spec, ruleset, STATE_PLANS["deep"])
    assert deep[: len(singles)] == singles and len(deep) > len(singles)


def test_states_that_differ_only_in_the_tricks_record_are_one_state_under_the_printed_rules() -> None:
    game = Game(load_spec().ruleset(), 2)
    state = game.start_round([[1, 2], [3, 4]], 0)
    longer = replace(state, trick=(*state.trick, Play(1, PASS)))
    assert _key(state) == _key(longer)
    # Rules that state the passes otherwise may read the passes in a row: those states differ.
    assert _key(state, measured=False) != _key(longer, measured=False)


def test_a_counterexample_names_its_readings_or_says_it_holds_under_the_checked_ones() -> None:
    say = words_of(load_spec()).check("discovery.liveness")
    assert _describe({"players": 5, "readings": {}}, say) == "players=5; readings=the checked readings"
    assert (
        _describe({"readings": {"deal": "table", "run_wrap": "wrap"}}, say)
        == "readings=deal=table, run_wrap=wrap"
    )


def test_with_one_card_a_turn_a_run_grows_only_by_adds_onto_a_single(tmp_path: Path) -> None:
    spec = spec_copy(tmp_path, "max_cards_per_turn:\n    value: 3", "max_cards_per_turn:\n    value: 1")
    outcome = small_domains.run_reachable(spec, spec.ruleset())
    # Every run starts as a single; where nothing may be added onto a single, it stays one card.
    assert outcome.counterexample is not None
    assert outcome.counterexample["readings"]["add_to_single"] == "not_allowed"
    assert outcome.counterexample["longest_run"] == 1
