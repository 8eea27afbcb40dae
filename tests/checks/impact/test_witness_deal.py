"""A deal witness says how many cards each reading sets aside: the deck less the hands dealt."""

from __future__ import annotations

import pytest
from five35.checks.impact.estimate import comparison
from five35.checks.impact.measure import measure
from five35.spec import Spec


@pytest.mark.parametrize(
    ("players", "table", "even"),
    # BGA's table (E5) against the whole deck dealt evenly: 52 cards with 4 copies up to 4 players
    [(2, (12, 28), (26, 0)), (3, (13, 13), (17, 1)), (4, (12, 4), (13, 0))],
)
def test_deal_witness_counts_the_cards_set_aside(
    spec: Spec, players: int, table: tuple[int, int], even: tuple[int, int]
) -> None:
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, "deal")
    counts = measure(rs, {"deal": (other, (played, alt))}, players, range(2), base_seed=3)["deal"]
    w = counts.witness
    assert w is not None
    shown = {name: (o["hand_size"], o["set_aside"]) for name, o in w.outcomes.items()}
    assert shown == {played: table, alt: even}
    for o in w.outcomes.values():
        assert o["hand_size"] * players + o["set_aside"] == o["deck"]


def test_a_later_rounds_deal_is_told_with_the_round_before_it(spec: Spec) -> None:
    # Who leads a later round follows from the round before: its witness says who led that round
    # and who went out, so that it reads as the deal of round 2, not as a first deal.
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, "round_leader")
    counts = measure(rs, {"round_leader": (other, (played, alt))}, 3, range(3), base_seed=3)["round_leader"]
    w = counts.witness
    assert w is not None and w.position is not None
    assert w.situation["round"] == w.position.round > 1
    assert "round_leader" in w.situation and "went_out" in w.situation
    assert "the deal of round" in w.summary
    # Under the played reading the player who went out leads: the deal shows it.
    assert w.outcomes[played]["leader"] == w.situation["went_out"]
    # A first deal has no round before it.
    deal_other, deal_played, deal_alt = comparison(spec, rs, "deal")
    fw = measure(rs, {"deal": (deal_other, (deal_played, deal_alt))}, 2, range(1))["deal"].witness
    assert fw is not None and fw.situation["round"] == 1 and "went_out" not in fw.situation
