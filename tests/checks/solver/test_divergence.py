"""Divergence witnesses: every variation point gets the smallest situation its readings play
differently, complete enough to draw, and each witness really separates the readings."""

from __future__ import annotations

from five35.checks.findings import STATUS_WORDS, CheckContext, Finding, ReadingRef
from five35.checks.oracles.situations import Situation, pile_key
from five35.checks.oracles.z3model import Model
from five35.checks.play.conformance import model_answer, ruleset_with
from five35.checks.solver.divergence import DIRECT, check_divergence, point_witness
from five35.engine import Game, Move, Pile
from five35.spec import dumps, load_spec
from five35.spec.words import embedded_words, words_of

STATUS = embedded_words().check(STATUS_WORDS)

SPEC = load_spec()
CTX = CheckContext(SPEC, SPEC.ruleset(), level="ci")


def findings() -> dict[str, Finding]:
    return {f.id: f for f in check_divergence(CTX).findings}


def test_every_variation_point_has_a_witness() -> None:
    got = findings()
    assert set(got) == {f"vp.{p}" for p in SPEC.variation_points}
    for point, vp in SPEC.variation_points.items():
        f = got[f"vp.{point}"]
        assert f.kind == "ambiguity" and f.variation_point == point
        assert f.witness is not None, point
        assert set(f.witness.outcomes) == set(vp.playable), point
        assert set(f.readings) == {ReadingRef(point, r) for r in vp.readings}, point
        assert f.clauses == vp.cites
        assert f.proposed_wording
        # Settled only where the profile's choice rests on the text or on outside evidence.
        basis = SPEC.profiles["published"].readings[point].basis
        settled = f"settled by profile published: {point}={CTX.ruleset.reading(point)}"
        assert f.status.words(STATUS) == (settled if basis in ("text", "evidence") else "open"), point
    dumps([f.to_json() for f in got.values()])


def test_the_smallest_witnesses_are_the_expected_ones() -> None:
    got = findings()
    expected = {
        "run_gaps": ("lead 5,7", 2),
        "run_wrap": ("lead 1,15", 2),
        "add_to_single": ("add 1", 2),
        "eight_on_add": ("add 8", 2),
        "eight_exemption": ("add 8", 2),
        "five_player_set_close": ("add 1,1,1", 4),  # onto a single 1: fewest cards on the table first
        # Ties in the explicit order: a single 8 below a single 9, but no play leaves a single 8 to
        # face (it ends the trick), so the first tie play can set up: an 8 onto a 9.
        "eight_rank": ("overwrite 8", 2),
        "run_order": ("overwrite 2,3", 4),  # onto the lower of the two smallest runs
    }
    for point, (move, cards) in expected.items():
        w = got[f"vp.{point}"].witness
        assert w is not None
        assert str(Move.from_json(w.situation["move"])) == move, (point, w.summary)
        assert w.cards == cards, (point, w.summary)
    assert got["vp.five_player_set_close"].witness.situation["players"] == 5  # type: ignore[union-attr]
    assert got["vp.eight_rank"].witness.situation["pile"]["cards"] == [9]  # type: ignore[union-attr]
    # At level ci the example says which answer played to another question it needs (at deep a
    # larger table that needs none is looked for: the test below).
    assert got["vp.add_run_ends"].witness.situation["rests_on"] == {"add_to_single": "allowed"}  # type: ignore[union-attr]
    assert got["vp.eight_on_add"].witness.situation["rests_on"] == {"add_to_single": "allowed"}  # type: ignore[union-attr]
    assert got["vp.run_order"].witness.situation["pile"]["cards"] == [1, 2]  # type: ignore[union-attr]


def test_at_level_deep_a_table_needs_no_other_open_answer_where_a_larger_one_does_not() -> None:
    """The 1 added below the run 2,3, not to a single 2 (which needs cards to be added to a single,
    another open question); the set 1,1, not a single 1, for the same reason."""
    deep = CheckContext(SPEC, SPEC.ruleset(), level="deep")
    for point, pile, move in (
        ("add_run_ends", {"kind": "run", "cards": [2, 3]}, "add 1"),
        ("five_player_set_close", {"kind": "set", "cards": [1, 1]}, "add 1,1"),
    ):
        w = point_witness(deep, point, words_of(SPEC).check("divergence"))[0]
        assert w is not None
        assert w.situation["pile"] == pile and str(Move.from_json(w.situation["move"])) == move, w.summary
        assert "rests_on" not in w.situation and w.situation["instead_of_needing"] == {
            "add_to_single": "allowed"
        }


def test_each_witness_separates_its_readings_in_the_model() -> None:
    for point, f in findings().items():
        w = f.witness
        assert w is not None
        if f.variation_point in DIRECT:
            continue  # the points outside the texts: deal, first leader, ...
        s = w.situation
        pile = Pile.from_json(s["pile"]) if s["pile"] else None
        sit = Situation(
            s["players"], pile, s["opening_has_eight"], tuple(s["hand"]), s["to_move"], s["last_player"]
        )
        move = Move.from_json(s["move"])
        extra = list(s.get("needs_readings", {}).items())
        answers = []
        for reading in SPEC.variation_points[f.variation_point or ""].readings:
            rs = ruleset_with(CTX, [*extra, (f.variation_point or "", reading)])
            model = Model.concrete(rs)
            answers.append(dumps(model_answer(model, rs, sit, pile_key(model, pile), move)))
        assert len(set(answers)) > 1, point


def test_a_point_that_needs_other_readings_says_so() -> None:
    w = findings()["vp.add_past_closing"].witness
    assert w is not None
    assert w.situation["needs_readings"], w.summary
    assert "only with" in w.summary


def test_quick_does_not_search() -> None:
    result = check_divergence(CheckContext(SPEC, SPEC.ruleset(), level="quick"))
    assert not result.findings and result.notes


def test_a_witness_the_engine_can_reach_carries_its_position() -> None:
    # Every witness of the Z3 search here is a pile led by the player before the mover: play sets
    # it up, and the position replays on the engine to exactly the table drawn.
    for point, f in findings().items():
        w = f.witness
        assert w is not None
        if f.variation_point in ("deal", "first_leader"):
            assert w.position is None, point  # a deck size or a seed: no table to set up
            continue
        assert w.position is not None, point
        s = w.situation
        rs = ruleset_with(CTX, list(s.get("needs_readings", {}).items()))
        game = Game(rs, w.position.players)
        state = game.play_from(w.position)
        if "hand" in s:
            assert game.hand(state, s["to_move"]) == sorted(s["hand"]), point
            assert (state.pile.to_json() if state.pile else None) == s["pile"], point
            assert state.opening_has_eight == s["opening_has_eight"], point


def test_no_witnessed_move_ends_the_round_under_every_reading() -> None:
    """The mover holds one card more than the move places, so that the scene shows what each
    reading does to the trick rather than the mover going out under both (the scenes of the Rule
    of 8's questions once all ended 'and goes out')."""
    placing = 0
    for finding in findings().values():
        w = finding.witness
        outcomes = list(w.outcomes.values()) if w is not None else []
        if not outcomes or not all(isinstance(o, dict) and "legal" in o for o in outcomes):
            continue  # not a placing move's scene (the deal, the turn order, who leads)
        assert w is not None
        placing += 1
        move = Move.from_json(w.situation["move"])
        assert len(w.situation["hand"]) == len(move.cards) + 1, w.summary
        answers = [o for o in outcomes if o["legal"]]
        assert answers and not all(o.get("round_end") for o in answers), w.summary
        assert w.position is not None, w.summary  # play still reaches the table
    assert placing >= 10


def test_a_table_the_other_reading_s_deck_cannot_hold_says_so() -> None:
    """Five 1s on the table: only the reading with 5 copies of each card at 5 players deals it."""
    w = findings()["vp.five_player_copies"].witness
    assert w is not None and w.situation["only_under"] == ["five_is_large"]
    assert all(
        "only_under" not in f.witness.situation
        for f in findings().values()
        if f.witness and f.variation_point in ("run_gaps", "eight_on_add")
    )
