"""The positions the conformance vectors (vectors.py) are made of, set up by hand: a scene for each
of the texts' own examples (the ids of checks/text/text_examples.py) and for each clause that
governs play, and the deals the rules refuse. A scene's setups are tried in order, and the first
one the ruleset plays is used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Move, Position
from ..spec import Ruleset

# ---- what a scene is made of ------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """One way to set a scene up: the deal, the moves that reach the position, the move asked about."""

    hands: tuple[tuple[int, ...], ...]
    moves: tuple[str, ...] = ()
    move: str | None = None
    leader: int = 0
    scores: tuple[int, ...] | None = None

    def position(self) -> Position:
        return Position(self.hands, self.leader, self.scores, tuple(Move.parse(m) for m in self.moves))


@dataclass(frozen=True)
class Scene:
    """A position set up by hand for a clause or a text example. The first setup the ruleset plays
        (deal accepted, moves legal, and the asked move legal unless `may_refuse`) is used; a scene none
        of whose setups plays is listed as skipped in the index. Its title is the words file's
    `vectors.titles.<slug>`."""

    slug: str
    clauses: tuple[str, ...]
    setups: tuple[Setup, ...]
    examples: tuple[str, ...] = ()
    may_refuse: bool = False


@dataclass(frozen=True)
class Refusal:
    """A deal the rules refuse: the vector is one `new_round` answered `bad_request`. Its title is
    the words file's `vectors.titles.<slug>`."""

    slug: str
    clauses: tuple[str, ...]
    deal: Callable[[Ruleset], dict[str, Any] | None]
    examples: tuple[str, ...] = ()


# ---- the scenes -------------------------------------------------------------------------------

TEXT_SCENES: tuple[Scene, ...] = (
    Scene(
        "single-order",
        ("pile.single", "action.overwrite"),
        (Setup(((7, 12), (1, 14, 15)), ("lead 7",), "overwrite 14"),),
        examples=("pile.single",),
    ),
    Scene(
        "set-order",
        ("pile.set", "action.overwrite"),
        (Setup(((1, 1, 1, 5), (2, 14, 14, 14)), ("lead 1,1,1",), "overwrite 14,14,14"),),
        examples=("pile.set",),
    ),
    Scene(
        "run-order",
        ("pile.run", "action.overwrite"),
        (Setup(((5, 11, 12, 13), (1, 2, 3, 15)), ("lead 11,12,13",), "overwrite 1,2,3"),),
        examples=("pile.run",),
        may_refuse=True,
    ),
    Scene(
        "eight-single",
        ("eight.heading", "eight.special", "eight.trigger", "trick.end", "trick.end.eight", "trick.winner"),
        (Setup(((2, 5), (8, 15)), ("lead 5",), "overwrite 8"),),
        examples=("eight.trigger.single",),
    ),
    Scene(
        "eight-set",
        ("eight.trigger", "trick.end.eight", "action.overwrite"),
        (Setup(((2, 5, 5), (8, 8, 15)), ("lead 5,5",), "overwrite 8,8"),),
        examples=("eight.trigger.set",),
    ),
    Scene(
        "eight-run-78",
        ("eight.trigger", "trick.end.eight", "pile.run"),
        (
            Setup(((2, 11, 12), (7, 8, 15)), ("lead 11,12",), "overwrite 7,8"),
            Setup(((1, 2, 12), (7, 8, 15)), ("lead 1,2",), "overwrite 7,8"),
        ),
        examples=("eight.trigger.run78", "eight.trigger.list"),
    ),
    Scene(
        "eight-run-789",
        ("eight.trigger", "trick.end.eight", "pile.run"),
        (
            Setup(((2, 11, 12, 13), (7, 8, 9, 15)), ("lead 11,12,13",), "overwrite 7,8,9"),
            Setup(((1, 2, 3, 12), (7, 8, 9, 15)), ("lead 1,2,3",), "overwrite 7,8,9"),
        ),
        examples=("eight.trigger.run789", "eight.trigger.list"),
    ),
    Scene(
        "eight-run-89",
        ("eight.trigger", "trick.end.eight"),
        (
            Setup(((2, 11, 12), (8, 9, 15)), ("lead 11,12",), "overwrite 8,9"),
            Setup(((1, 2, 12), (8, 9, 15)), ("lead 1,2",), "overwrite 8,9"),
        ),
        examples=("eight.trigger.any",),
    ),
    Scene(
        "eight-added",
        ("eight.trigger", "trick.end.eight", "action.add"),
        (Setup(((2, 7), (8, 15)), ("lead 7",), "add 8"),),
        examples=("eight.trigger.added",),
        may_refuse=True,
    ),
    Scene(
        "eight-exemption",
        ("eight.exemption", "eight.trigger", "action.add"),
        (
            Setup(((2, 8), (8, 15)), ("lead 8",), "add 8"),
            Setup(((2, 8, 8), (8, 15)), ("lead 8,8",), "add 8"),
        ),
        examples=("eight.exemption",),
        may_refuse=True,
    ),
    Scene(
        "set-closes-small",
        ("trick.end.set", "trick.end", "action.add", "trick.winner"),
        (Setup(((2, 5, 5), (5, 5, 15)), ("lead 5,5",), "add 5,5"),),
        examples=("trick.end.set.reachable",),
    ),
    Scene(
        "set-four-of-five-players",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (14,), (13,), (12,)), ("lead 3,3",), "add 3,3"),),
        examples=("trick.end.set@de", "trick.end.set@es"),
    ),
    Scene(
        "set-five-of-five-players",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (3, 14), (13,), (12,)), ("lead 3,3", "add 3,3"), "add 3"),),
        examples=("trick.end.set@de", "deck.copies@de", "deck.copies@es"),
        may_refuse=True,
    ),
    Scene(
        "set-four-of-six-players",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (14,), (13,), (12,), (11,)), ("lead 3,3",), "add 3,3"),),
        examples=("trick.end.set@de", "trick.end.set@es"),
    ),
    Scene(
        "run-closes",
        ("trick.end.run", "trick.end", "action.add", "pile.run"),
        (Setup(((1, 2, 3, 12), (4, 5, 15)), ("lead 1,2,3",), "add 4,5"),),
        examples=("trick.end.run", "trick.end.run.reachable"),
    ),
    Scene(
        "lead-options",
        ("turn.cards", "pile.types", "pile.single", "pile.set", "pile.run", "action.choice", "lead.no_pass"),
        (Setup(((1, 1, 1, 1, 2, 3, 5, 7), (15,), (14,), (13,)), (), "lead 1,1,1"),),
        examples=("turn.cards", "pile.set.size", "pile.run.size"),
    ),
    Scene(
        "going-out",
        ("round.end", "game.goal", "round.scoring", "deck.points", "eight.value"),
        (Setup(((4,), (2, 8, 13)), (), "lead 4"),),
        examples=("eight.value",),
    ),
    Scene(
        "match-end",
        ("match.end", "match.winner", "round.end", "round.scoring"),
        (Setup(((4,), (1,), (2,)), (), "lead 4", scores=(13, 19, 12)),),
        examples=("match.end",),
    ),
)

CLAUSE_SCENES: tuple[Scene, ...] = (
    Scene(
        "leader-may-not-pass",
        ("lead.no_pass", "action.pass"),
        (Setup(((4, 9), (15,), (14,)), (), "pass"),),
        may_refuse=True,
    ),
    Scene(
        "overwrite-same-size",
        ("action.overwrite", "pile.set"),
        (Setup(((2, 5, 5), (2, 2, 7, 7, 7, 9)), ("lead 5,5",), "overwrite 7,7,7"),),
        may_refuse=True,
    ),
    Scene(
        "add-to-single",
        ("action.add", "pile.single"),
        (Setup(((2, 7), (7, 15)), ("lead 7",), "add 7"),),
        may_refuse=True,
    ),
    Scene(
        "add-below-run",
        ("action.add", "pile.run"),
        (Setup(((3, 4, 12), (2, 15)), ("lead 3,4",), "add 2"),),
        may_refuse=True,
    ),
    Scene(
        "add-both-ends",
        ("action.add", "pile.run"),
        (Setup(((3, 4, 12), (2, 5, 15)), ("lead 3,4",), "add 2,5"),),
        may_refuse=True,
    ),
    Scene(
        "all-passed",
        ("action.pass", "action.pass.out", "trick.end", "trick.end.passes", "trick.winner"),
        (Setup(((5, 12), (2, 13), (3, 14)), ("lead 5", "pass"), "pass"),),
    ),
    Scene(
        "passed-player-is-out",
        ("action.pass.out", "trick.end.passes", "trick.winner", "action.overwrite"),
        (Setup(((5, 9, 12), (2, 13), (7, 14)), ("lead 5", "pass", "overwrite 7"), "pass"),),
    ),
    Scene(
        "winner-leads-at-a-full-table",
        ("trick.winner", "trick.end.eight", "lead.no_pass"),
        (Setup(((14,), (15,), (13,), (5, 12), (8, 11)), ("lead 5",), "overwrite 8", leader=3),),
    ),
    Scene(
        "cleared-holds-overwritten",
        ("trick.end.passes", "action.overwrite", "trick.winner"),
        (Setup(((5, 9, 12), (7, 13)), ("lead 5", "overwrite 7", "overwrite 9"), "pass"),),
    ),
    Scene(
        "out-on-a-trick-end",
        ("round.end", "trick.end.eight", "round.scoring"),
        (Setup(((5, 8), (7, 15)), ("lead 5", "overwrite 7"), "overwrite 8"),),
    ),
)


def _too_many_players(ruleset: Ruleset) -> dict[str, Any] | None:
    players = ruleset.players_max + 1
    ranks = ruleset.ranks
    return {
        "players": players,
        "hands": [[ranks[i % len(ranks)]] for i in range(players)],
        "leader": 0,
        "scores": [0] * players,
    }


def _missing_rank(ruleset: Ruleset) -> dict[str, Any] | None:
    missing = next((r for r in range(1, max(ruleset.ranks) + 2) if r not in ruleset.ranks), None)
    if missing is None:
        return None
    players = ruleset.players_min
    hands = [[missing]] + [[ruleset.ranks[-1]] for _ in range(players - 1)]
    return {"players": players, "hands": hands, "leader": 0, "scores": [0] * players}


def _too_many_copies(ruleset: Ruleset) -> dict[str, Any] | None:
    players = ruleset.players_min
    rank, spare = ruleset.ranks[0], ruleset.ranks[-1]
    hands = [[rank] * ruleset.copies(players), [rank]] + [[spare] for _ in range(players - 2)]
    return {"players": players, "hands": hands, "leader": 0, "scores": [0] * players}


def _five_copies_five_players(ruleset: Ruleset) -> dict[str, Any] | None:
    if not ruleset.players_min <= 5 <= ruleset.players_max or ruleset.copies_large <= ruleset.copies_small:
        return None
    rank, spare = ruleset.ranks[0], ruleset.ranks[-1]
    large = ruleset.copies_large
    hands = [[rank] * (large - 1), [rank]] + [[spare] for _ in range(3)]
    return {"players": 5, "hands": hands, "leader": 0, "scores": [0] * 5}


REFUSALS: tuple[Refusal, ...] = (
    Refusal(
        "too-many-players",
        ("game.players",),
        _too_many_players,
        examples=("game.players",),
    ),
    Refusal(
        "rank-not-in-deck",
        ("deck.ranks",),
        _missing_rank,
        examples=("deck.ranks",),
    ),
    Refusal(
        "too-many-copies",
        ("deck.copies",),
        _too_many_copies,
    ),
    Refusal(
        "five-players-large-deck",
        ("deck.copies",),
        _five_copies_five_players,
        examples=("deck.copies@de", "deck.copies@es"),
    ),
)
