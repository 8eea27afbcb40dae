"""Every deal of a small table: the ranks merged, the deals counted, and a merged deal playing as
every deal of its class does."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from five35.checks.discovery.liveness.states import Search, every_deal_of, states
from five35.checks.discovery.liveness.tables import TABLES as TABLES_OF
from five35.checks.discovery.liveness.tables import (
    Symmetry,
    Table,
    alike_segments,
    canonical,
    every_deal,
)
from five35.checks.discovery.rules.operators import _with_part
from five35.engine import Game, Move, State
from five35.engine.engines import make_engine
from five35.spec import Ruleset, Spec, embedded_spec
from five35.spec.lang.rulebook import Rulebook
from five35.spec.lang.syntax import parse


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return embedded_spec().ruleset()


def _with(spec: Spec, rule_id: str, part: str, text: str) -> Spec:
    book = spec.rulebook
    assert book is not None
    rules = tuple(_with_part(r, part, parse(text)) if r.id == rule_id else r for r in book.rules)
    return replace(spec, rulebook=Rulebook(rules, book.fragments))


def test_the_ranks_no_rule_tells_apart_are_the_segments_between_the_singled_out(ruleset: Ruleset) -> None:
    # 1 and 15 end the deck, 5, 7, 9 and 11 stand beside its gaps, and the 8 is named by the rules.
    assert alike_segments(ruleset) == Symmetry(((2, 3, 4), (12, 13, 14)))


def test_every_reading_of_the_embedded_spec_keeps_the_same_segments() -> None:
    spec = embedded_spec()
    for point, vp in spec.variation_points.items():
        for reading in vp.readings:
            got = alike_segments(spec.ruleset(readings={point: reading}))
            assert got == Symmetry(((2, 3, 4), (12, 13, 14))), (point, reading)


def test_a_rule_naming_a_rank_singles_it_out() -> None:
    spec = _with(
        embedded_spec(),
        "pile.single",
        "beats",
        "strength(new.first) > strength(old.first) or new.first == 13",
    )
    assert alike_segments(spec.ruleset()).segments == ((2, 3, 4),)


def test_a_rule_reading_a_rank_by_its_place_merges_none() -> None:
    spec = _with(
        embedded_spec(),
        "pile.single",
        "beats",
        "strength(new.first) > strength(old.first) and order(new.first) >= 2",
    )
    got = alike_segments(spec.ruleset())
    assert got.segments == () and got.refused == "pile.single.beats"


def test_canonical_keeps_order_and_succession() -> None:
    sym = Symmetry(((2, 3, 4), (12, 13, 14)))
    assert canonical(((3,), (13,)), sym) == ((2,), (12,))
    # 4 follows straight on to the 5 held: packed to the high end, the step kept.
    assert canonical(((1, 4), (5,)), sym) == ((1, 4), (5,))
    assert canonical(((3, 4), (9,)), sym) == ((2, 3), (9,))
    # 12 and 14 are no run: they stay a step of two apart.
    assert canonical(((12, 14),), sym) == ((12, 14),)
    # 2 follows the 1 held, 4 leads to the 5 held, 3 is missing: nothing can move.
    assert canonical(((1, 2), (4, 5)), sym) == ((1, 2), (4, 5))


def _explored(ruleset: Ruleset, hands: tuple[tuple[int, ...], ...]) -> tuple[int, object]:
    game = make_engine(ruleset, len(hands))
    search = Search(game)
    found = search.run(game.start_round([list(h) for h in hands], 0, None), 0, 10**6)
    return search.count, None if found is None else found[0]


def test_a_deal_plays_as_the_deal_its_class_is_explored_by(ruleset: Ruleset) -> None:
    # The symmetry's soundness on the play itself: the same number of states, the same verdict,
    # under the readings that change which ranks follow one another too.
    spec = embedded_spec()
    rulesets = [
        ruleset,
        spec.ruleset(readings={"run_wrap": "wrap"}),
        spec.ruleset(readings={"run_gaps": "gaps_skipped"}),
    ]
    rng = random.Random(11)
    hands = [h for k in (1, 2, 3) for h in itertools.combinations_with_replacement(ruleset.ranks, k)]
    for rs in rulesets:
        sym = alike_segments(rs)
        for _ in range(40):
            deal = (rng.choice(hands), rng.choice(hands))
            assert _explored(rs, deal) == _explored(rs, canonical(deal, sym)), deal


def test_every_deal_counts_the_deals_the_copies_allow(ruleset: Ruleset) -> None:
    deals, classes = every_deal(ruleset, Table(2, 2), alike_segments(ruleset))
    hands = 13 + 13 * 14 // 2  # one card, or two (of one rank or two)
    assert deals == hands * hands  # four copies: no two hands of two can run out a rank
    assert sum(classes.values()) == deals and len(classes) == 5_764
    deals, classes = every_deal(ruleset, Table(3, 1), Symmetry(()))
    assert deals == len(classes) == 13**3


class StuckOnFiveEleven(Game):
    """A planted bug no hand-picked deal of two players meets: a mover holding just a 5 and an 11
    has no legal move."""

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        if state.phase == "play" and sorted(self.codec.cards(state.hands[state.to_move])) == [5, 11]:
            return ()
        return super().legal_moves(state)


TABLES = (Table(2, 2), Table(3, 1))


def test_a_bug_only_a_small_table_meets_is_caught_with_its_deal(ruleset: Ruleset) -> None:
    spec = embedded_spec()
    assert all(o.proved for o in states(spec, ruleset, "quick", 0, engine=StuckOnFiveEleven))
    failed: dict[str, Any] = {}
    every_deal_of(spec, ruleset, TABLES, [ruleset], True, StuckOnFiveEleven, failed)
    facts, position = failed["state.has_legal_move"]
    # Found on the first deal (in the tables' order) that reaches it, the fewest moves from there.
    assert facts["legal_moves"] == 0 and len(position.moves) <= 1 and (5, 11) in position.hands


def test_level_ci_explores_the_tables_under_the_checked_ruleset_and_quick_none() -> None:
    assert not TABLES_OF["quick"].tables and TABLES_OF["ci"].tables == TABLES_OF["deep"].tables
    assert TABLES_OF["deep"].readings_changed and not TABLES_OF["ci"].readings_changed
    spec = embedded_spec()
    out = states(spec, spec.ruleset(), "ci", 0)
    assert all(o.counterexample is None for o in out)
    ci = out[0].blanks["tables"]
    assert "under the checked ruleset: 2 players holding 1 to 2 cards each (10,816 deals, 5,764 once" in ci
    assert "3 players holding one card each (2,197 deals, 1,173 once" in ci and "2-4, 12-14" in ci
    # Every state of the tables counted once, the hand-picked deals' beside them.
    assert ci.endswith(" states") and out[0].cases > int(out[0].blanks["states"].replace(",", ""))
    assert states(spec, spec.ruleset(), "quick", 0)[0].blanks["tables"] == ""


def test_a_search_that_meets_its_limit_says_not_every_deal_was_explored(
    ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    import five35.checks.discovery.liveness.states as states_module

    monkeypatch.setattr(states_module, "TABLE_STATE_LIMIT", 1_000)
    _, scope, _ = every_deal_of(embedded_spec(), ruleset, TABLES, [ruleset], True, make_engine, {})
    assert scope.count("stopped at the limit of 1,000 states under one ruleset") == 2
