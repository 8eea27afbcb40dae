"""The networkx analyses: rank succession, the beats order, exhaustive endgames."""

from __future__ import annotations

import networkx as nx
from five35.checks.findings import CheckContext
from five35.checks.oracles.rules_model import SpecRules
from five35.checks.play.graphs import (
    HAND_PICKED,
    Deal,
    beats_graph,
    check_beats,
    check_endgames,
    check_succession,
    explore,
    graph_runs,
    seeded_deals,
    succession_graph,
    variants,
)
from five35.engine import Game
from five35.spec import load_spec
from five35.spec.words import words_of

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")


def components(readings: dict[str, str]) -> list[list[int]]:
    rs = SPEC.ruleset(None, readings)
    graph = succession_graph(rs.ranks, SpecRules(rs, 4, ORACLES).follows)
    return sorted(sorted(c) for c in nx.weakly_connected_components(graph))


def test_gaps_break_the_succession_into_the_three_groups() -> None:
    assert components({}) == [[1, 2, 3, 4, 5], [7, 8, 9], [11, 12, 13, 14, 15]]
    assert components({"run_gaps": "gaps_skipped"}) == [[1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15]]


def test_runs_are_the_paths_of_the_succession_graph() -> None:
    game = Game(BASE, 4)
    graph = succession_graph(BASE.ranks, game.follows)
    engine_runs = {p.cards for p in game.placeable_piles() if p.kind == "run"}
    assert graph_runs(graph, 2, 3) == engine_runs
    assert (5, 7) not in engine_runs


def test_the_beats_order_is_a_chain_through_every_pile() -> None:
    game = Game(BASE, 4)
    for kind in ("single", "set", "run"):
        piles = [p for p in game.placeable_piles() if p.kind == kind and p.size == 2 - (kind == "single")]
        graph = beats_graph(piles, game.beats)
        assert nx.is_directed_acyclic_graph(graph)
        assert nx.dag_longest_path_length(graph) == len(piles) - 1


def test_variants_flip_one_point_at_a_time() -> None:
    one = variants(SPEC, BASE, ("run_gaps", "run_wrap"), all_combinations=False)
    every = variants(SPEC, BASE, ("run_gaps", "run_wrap"), all_combinations=True)
    assert len(one) == 3 and len(every) == 4 and one[0] == BASE


def test_an_endgame_graph_is_acyclic_and_reaches_the_trick_endings() -> None:
    game = Game(BASE, 2)
    deal = next(d for d in HAND_PICKED if d.name == "a set closes")
    start = game.start_round([list(h) for h in deal.hands], deal.leader)
    result = explore(game, SpecRules(BASE, 2, ORACLES), start, words_of(SPEC).check("invariants"))
    assert result.violations == [] and result.dead_ends == 0
    assert nx.is_directed_acyclic_graph(result.graph)
    assert result.endings["set_closed"] > 0 and result.endings["all_passed"] > 0
    assert result.finished > 0


def test_seeded_deals_are_reproducible() -> None:
    assert seeded_deals(5, 3, BASE.ranks) == seeded_deals(5, 3, BASE.ranks)
    assert seeded_deals(5, 3, BASE.ranks) != seeded_deals(6, 3, BASE.ranks)
    assert all(isinstance(d, Deal) and 2 <= len(d.hands) <= 3 for d in seeded_deals(5, 10, BASE.ranks))


def test_the_graph_checks_hold_on_the_reference_engine() -> None:
    ctx = CheckContext(SPEC, BASE, level="quick", seed=1)
    for check in (check_succession, check_beats, check_endgames):
        result = check(ctx)
        assert result.ok, result.failures
        assert result.exhaustive > 0
        assert not result.findings


def test_a_trick_ending_that_cannot_happen_is_a_dead_clause_candidate(tmp_path: object) -> None:
    # Runs can never reach 9 cards (there are only five ranks in a row), so run_closed never fires.
    import pathlib

    text = (
        (SPEC.path)
        .read_text(encoding="utf-8")
        .replace("run_closing_size:\n    value: 5", "run_closing_size:\n    value: 9")
    )
    path = pathlib.Path(str(tmp_path)) / "535.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_spec(path)
    result = check_endgames(CheckContext(spec, spec.ruleset(), level="quick", seed=1))
    assert result.ok
    assert any(f.kind == "dead_clause" and "trick.end.run" in f.clauses for f in result.findings)
