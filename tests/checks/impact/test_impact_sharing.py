"""Impact work shared between comparisons (issue 12, item 3): names comparing the same engine share
one tracker, an engine compared with itself plays nothing, and a finding's alternative that compares
what a variation point's impact compared takes those counts. Each must give exactly what measuring
alone gives, witnesses included (told in each name's own labels)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from five35.checks.findings import Alternative, Side
from five35.checks.impact import measure as measure_module
from five35.checks.impact.estimate import comparison, comparison_of, estimate_alternatives
from five35.checks.impact.measure import ImpactCounts, _scope, measure
from five35.checks.impact.variants import VARIANTS, ExampleOrder
from five35.engine import Game
from five35.spec import Spec, load_spec
from five35.spec.words import words_of

BOTS = ("greedy", "random", "cautious")

IMPACT = words_of(load_spec()).check("impact")


def _alt(spec: Spec, point: str, labels: tuple[str, str], engine: type[Game] = Game) -> Alternative:
    rs = spec.ruleset()
    other, _, _ = comparison(spec, rs, point)
    return Alternative(
        played=Side(labels[0], "as played", rs),
        compared=Side(labels[1], "the other reading", other, engine),
        method="",
    )


def test_names_sharing_an_engine_count_as_if_measured_alone(spec: Spec) -> None:
    rs = spec.ruleset()
    other, played, alt = comparison(spec, rs, "eight_forms")
    together = measure(
        rs,
        {"a": (other, (played, alt)), "b": (other, ("side one", "side two")), "c": (rs, ("x", "y"))},
        4,
        range(12),
        base_seed=5,
        bots=BOTS,
    )
    alone_a = measure(rs, {"a": (other, (played, alt))}, 4, range(12), base_seed=5, bots=BOTS)["a"]
    alone_b = measure(rs, {"b": (other, ("side one", "side two"))}, 4, range(12), base_seed=5, bots=BOTS)["b"]
    assert together["a"] == alone_a and together["b"] == alone_b
    assert alone_a.affected > 0 and alone_a.witness is not None and alone_b.witness is not None
    assert "side two" in alone_b.witness.outcomes and played in alone_a.witness.outcomes
    # The engine against itself: every game counted, none affected, no witness.
    assert together["c"].games == 12 and together["c"].affected == 0 and together["c"].witness is None


def test_an_alternative_a_point_measured_takes_its_counts_and_retells_its_witness(spec: Spec) -> None:
    rs = spec.ruleset()
    point_alt = _alt(spec, "eight_exemption", ("a label", "another label"))
    same_alt = replace(point_alt)
    variant_alt = replace(point_alt, compared=replace(point_alt.compared, engine=ExampleOrder))
    alts = {"f.point": point_alt, "f.variant": variant_alt}
    plain = estimate_alternatives(alts, rs, 6, 9, BOTS, say=IMPACT)
    other, played, alt = comparison(spec, rs, "eight_exemption")
    counts = {
        n: measure(rs, {"p": (other, (played, alt))}, n, range(6), base_seed=9, bots=BOTS)["p"]
        for n in range(rs.players_min, rs.players_max + 1)
    }
    known = {comparison_of(same_alt): ((played, alt), counts)}
    shared = estimate_alternatives(alts, rs, 6, 9, BOTS, known=known, say=IMPACT)
    assert shared == plain
    assert any(c.witness is not None for c in counts.values())
    witnesses = [c.witness for c in shared["f.point"][1].values() if c.witness is not None]
    assert witnesses and all("another label" in w.outcomes for w in witnesses)


def test_sharing_is_the_same_in_worker_processes(spec: Spec) -> None:
    rs = spec.ruleset()
    alts = {
        "one": _alt(spec, "turn_order", ("p", "q")),
        "two": _alt(spec, "turn_order", ("r", "s")),
        "three": _alt(spec, "eight_rank", ("p", "q"), ExampleOrder),
    }
    assert estimate_alternatives(alts, rs, 4, 3, BOTS, jobs=1, say=IMPACT) == estimate_alternatives(
        alts, rs, 4, 3, BOTS, jobs=2, say=IMPACT
    )


@pytest.mark.parametrize("players", [2, 4, 5])
def test_comparing_only_where_a_variants_hooks_are_consulted_changes_no_count(
    spec: Spec, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rs = spec.ruleset()
    if players == 5:
        rs = spec.with_readings(rs, {"deal": "deal_all"})  # four copies of a rank cannot be dealt to 5
    variants = {name: cls for name, cls in VARIANTS.items() if cls is not Game}
    scoped = {name: _scope(Game(rs, players), cls(rs, players), rs, rs) for name, cls in variants.items()}
    # The variants that only change options, a trick's winner or the points are compared less often.
    assert scoped["printed_points"] == "round_end" and scoped["trick_taken_away"] == "trick_end"
    assert scoped["runs_uncapped"] == "options" and scoped["no_overwrite_of_four"] == "options"
    assert scoped["no_eight_by_add"] == ""  # rule_of_8 is asked at every placing step

    def counts() -> dict[str, ImpactCounts]:
        return measure(
            rs,
            {name: (rs, (name, "reference")) for name in variants},
            players,
            range(8),
            base_seed=17,
            bots=BOTS,
            engine=Game,
            engines=variants,
        )

    fast = counts()
    monkeypatch.setattr(measure_module, "SKIP_UNCHANGED", False)
    assert fast == counts()
    assert any(c.affected for c in fast.values())


@pytest.mark.parametrize("players", [3, 5])
def test_points_compared_by_their_options_count_as_compared_step_by_step(
    spec: Spec, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rs = spec.ruleset()
    compared = {}
    for point, vp in spec.variation_points.items():
        if len(vp.readings) > 1:
            other, played, alt = comparison(spec, rs, point)
            compared[point] = (other, (played, alt))
    fast = measure(rs, compared, players, range(6), base_seed=29, bots=BOTS)
    monkeypatch.setattr(measure_module, "SKIP_UNCHANGED", False)
    assert fast == measure(rs, compared, players, range(6), base_seed=29, bots=BOTS)
    assert sum(c.affected for c in fast.values()) > 0
