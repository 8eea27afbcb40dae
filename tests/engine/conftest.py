"""The engine path fixture of the scenario and property tests (scenario_tools.ENGINES)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from five35.engine import Game
from scenario_tools import ENGINES, engine_path


@pytest.fixture(scope="module", params=list(ENGINES.values()), ids=list(ENGINES))
def engine_class(request: pytest.FixtureRequest) -> Iterator[type[Game]]:
    """Each test that uses it runs once per path a step can take; `make_game` builds that class.
    Module-scoped, so that Hypothesis' @given tests can take it as an argument."""
    cls: type[Game] = request.param
    with engine_path(cls):
        yield cls
