"""The simulate documents (cli/simulation_files.py): written, read back and merged."""

from __future__ import annotations

import pytest
from five35.cli.simulation_files import merge_simulations, read_simulation, simulation_json
from five35.engine.simulate import simulate
from five35.engine.stats import SimulationFileError
from five35.spec import Ruleset, dumps, load_spec


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_spec().ruleset()


def test_documents_of_adjacent_ranges_read_back_and_merge_to_the_whole(ruleset: Ruleset) -> None:
    def document(first: int, games: int) -> str:
        stats = simulate(ruleset, 3, range(first, first + games), ["random"], "round", base_seed=7)
        return dumps(
            simulation_json(
                seed=7,
                first_game=first,
                games=games,
                mode="round",
                round_limit=0,
                ruleset=ruleset.to_json(),
                stats=stats,
            )
        )

    a, b = read_simulation(document(2, 3), "a.json"), read_simulation(document(5, 4), "b.json")
    assert (a.games, b.games) == (range(2, 5), range(5, 9))
    assert a.stats == simulate(ruleset, 3, range(2, 5), ["random"], "round", base_seed=7)
    whole = read_simulation(document(2, 7), "whole.json")
    merged = merge_simulations([b, a])
    assert (merged["first_game"], merged["games"]) == (2, 7)
    assert dumps(merged) == dumps(
        simulation_json(
            seed=7,
            first_game=2,
            games=7,
            mode="round",
            round_limit=0,
            ruleset=ruleset.to_json(),
            stats=whole.stats,
        )
    )
    with pytest.raises(
        SimulationFileError, match=r"c\.json: first_game: games 4-5 overlap a\.json's games 2-4"
    ):
        merge_simulations([a, read_simulation(document(4, 2), "c.json")])
