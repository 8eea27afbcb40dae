"""Digests of seeded play, to hold the engine's results byte-identical across optimisations.

Each case is a game class, a ruleset and a player count; its digest is the SHA-256 of every step of
a few seeded matches played by bots: the state before the move (`Game.to_json`), the legal moves in
the engine's order (a random bot's choice depends on that order), the move and the events, then the
finished state. The cases cover every playable profile at every player count, every reading of every
variation point, and every variant and planted-bug engine (they override public hooks and some
private methods, which must keep working).

    python tests/engine_digests.py --write    # record tests/engine_digests.json from this code
    python tests/engine_digests.py            # compare this code with the recorded file
    python tests/engine_digests.py --many 20  # this build and its digests over 20 matches per case

The recorded file was written from the engine before it was optimised (issue 12); the test
tests/engine/test_engine_golden.py compares the current engine with it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from five35.engine import Game
from five35.engine.simulate import play_game
from five35.spec import Ruleset, SpecError, load_spec

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).with_name("engine_digests.json")
PLAYERS = (2, 3, 4, 5, 6)
BOT_LINEUPS = (("random",), ("greedy", "cautious", "random"))

GameClass = Callable[[Ruleset, int], Game]


class TurnsGoBackwards(Game):
    """Overrides the next_seat hook (which the fast path tables): turns pass to the lower seat."""

    def next_seat(self, seat: int) -> int:
        return (seat - 1) % self.players


class LastSeatWinsAllPassed(Game):
    """Overrides the trick_winner hook for one reason only, so both of its answers are played."""

    def trick_winner(self, trick: tuple[Any, ...], reasons: tuple[Any, ...]) -> int:
        if reasons == ("all_passed",):
            return int(trick[-1].player)
        return super().trick_winner(trick, reasons)


def _json(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def match_digest(game: Game, seeds: range, bots: tuple[str, ...]) -> str:
    """The SHA-256 of every step of the matches dealt from `seeds`, played by `bots` (one for every
    seat, or cycled over the seats)."""
    digest = hashlib.sha256()
    lineup = [bots[seat % len(bots)] for seat in range(game.players)]
    for seed in seeds:
        last = None
        try:
            for step in play_game(game, seed, lineup, "match"):
                digest.update(_json(game.to_json(step.state)))
                digest.update(_json([m.to_json() for m in game.legal_moves(step.state)]))
                digest.update(_json(step.move.to_json()))
                digest.update(_json([e.to_json() for e in step.events]))
                last = step
        except ValueError as exc:
            # A planted bug may break the engine's own invariants (a leader's pass leaves a trick
            # without a winner): where and how it fails is part of its behaviour.
            digest.update(_json(["raised", type(exc).__name__, str(exc)]))
            continue
        if last is not None:
            digest.update(_json(game.to_json(game.apply(last.state, last.move)[0])))
    return digest.hexdigest()


def cases() -> Iterator[tuple[str, GameClass, Ruleset, int, range, tuple[str, ...]]]:
    """(name, game class, ruleset, players, seeds, bots) for every case of the fixture."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from five35.checks.impact.variants import VARIANTS

    from tests.planted import BUGS

    spec = load_spec()
    for profile in spec.playable_profiles:
        ruleset = spec.ruleset(profile)
        for players in PLAYERS:
            for bots in BOT_LINEUPS:
                yield f"{profile}/{players}/{'+'.join(bots)}", Game, ruleset, players, range(4), bots
    base = spec.ruleset()
    for point, vp in spec.variation_points.items():
        for reading in vp.playable:
            if reading == base.readings[point]:
                continue
            ruleset = spec.with_readings(base, {point: reading})
            for players in (3, 5):
                if not _deals(ruleset, players):
                    continue  # e.g. five_player_copies=five_is_small has too few cards for 5 hands
                yield f"{point}={reading}/{players}", Game, ruleset, players, range(3), ("random",)
    for name, cls in VARIANTS.items():
        for players in (4, 5):
            yield f"variant:{name}/{players}", cls, base, players, range(3), ("random",)
    for name, (cls, _) in BUGS.items():
        for players in (4, 5):
            yield f"planted:{name}/{players}", cls, base, players, range(3), ("random",)
    for hooked in (TurnsGoBackwards, LastSeatWinsAllPassed):
        for players in (3, 4):
            yield f"hook:{hooked.__name__}/{players}", hooked, base, players, range(3), ("random",)


def _deals(ruleset: Ruleset, players: int) -> bool:
    try:
        Game(ruleset, players).new_match(0)
    except SpecError:
        return False
    return True


def compute() -> dict[str, str]:
    return {
        name: match_digest(cls(ruleset, players), seeds, bots)
        for name, cls, ruleset, players, seeds, bots in cases()
    }


def many(matches: int) -> dict[str, str]:
    """Every case's digest over `matches` seeded matches instead of the fixture's few."""
    return {
        name: match_digest(cls(ruleset, players), range(matches), bots)
        for name, cls, ruleset, players, _, bots in cases()
    }


def main(argv: list[str]) -> int:
    if "--many" in argv:
        # For tests/engine/test_engine_builds.py: this interpreter's engine build and its digests, as JSON.
        from five35.engine.game import build

        matches = int(argv[argv.index("--many") + 1])
        print(json.dumps({"build": build(), "digests": many(matches)}, sort_keys=True))
        return 0
    if "--write-missing" in argv:
        # Cases added after the file was recorded, computed by the engine this interpreter imports
        # (for the engine before issue 12: a checkout of it on PYTHONPATH).
        recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
        for name, cls, ruleset, players, seeds, bots in cases():
            if name not in recorded:
                recorded[name] = match_digest(cls(ruleset, players), seeds, bots)
                print(f"added {name}")
        FIXTURE.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return 0
    digests = compute()
    if "--write" in argv:
        FIXTURE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(digests)} digests to {FIXTURE}")
        return 0
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    differ = sorted(name for name in recorded if digests.get(name) != recorded[name])
    print(
        f"{len(recorded) - len(differ)} of {len(recorded)} digests agree"
        + (f"; differ: {differ}" if differ else "")
    )
    # A case the file lacks (a reading or a variant added since) has no recorded result to be held
    # to; every recorded one must still be computed and agree.
    return 1 if differ or not set(recorded) <= set(digests) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
