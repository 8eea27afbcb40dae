"""The engine's results are byte-identical to those recorded before it was optimised (issue 12):
the same seeds give the same states, legal moves (in the same order), moves and events, for every
profile and player count, every reading, and every variant and planted-bug engine."""

from __future__ import annotations

import json

from engine_digests import FIXTURE, compute


def test_seeded_play_matches_the_recorded_digests() -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    digests = compute()
    # Every recorded case is still played; a case added since (a new reading or variant) has no
    # recorded result to be held to, so adding a reading needs no new fixture.
    assert set(recorded) <= set(digests), sorted(set(recorded) - set(digests))
    differ = sorted(name for name, value in recorded.items() if digests[name] != value)
    assert not differ, f"{len(differ)} of {len(recorded)} cases play differently: {differ}"
