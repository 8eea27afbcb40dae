"""A deal witness says how many cards each reading sets aside: the deck less the hands dealt."""

from __future__ import annotations

import pytest
from five35.checks.impact.measure import comparison, measure
from five35.spec import Spec, load_spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


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
