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
    of whose setups plays is listed as skipped in the index."""

    slug: str
    title: str
    clauses: tuple[str, ...]
    setups: tuple[Setup, ...]
    examples: tuple[str, ...] = ()
    may_refuse: bool = False


@dataclass(frozen=True)
class Refusal:
    """A deal the rules refuse: the vector is one `new_round` answered `bad_request`."""

    slug: str
    title: str
    clauses: tuple[str, ...]
    deal: Callable[[Ruleset], dict[str, Any] | None]
    examples: tuple[str, ...] = ()


# ---- the scenes -------------------------------------------------------------------------------

TEXT_SCENES: tuple[Scene, ...] = (
    Scene(
        "single-order",
        "A higher single overwrites a single: 14 onto 7 (the text's example 1 < 7 < 14)",
        ("pile.single", "action.overwrite"),
        (Setup(((7, 12), (1, 14, 15)), ("lead 7",), "overwrite 14"),),
        examples=("pile.single",),
    ),
    Scene(
        "set-order",
        "A higher set overwrites a set of its size: 14,14,14 onto 1,1,1 (the text's 1,1,1 < 14,14,14)",
        ("pile.set", "action.overwrite"),
        (Setup(((1, 1, 1, 5), (2, 14, 14, 14)), ("lead 1,1,1",), "overwrite 14,14,14"),),
        examples=("pile.set",),
    ),
    Scene(
        "run-order",
        "The run 1,2,3 played onto the run 11,12,13 (the text's example 1,2,3 > 11,12,13)",
        ("pile.run", "action.overwrite"),
        (Setup(((5, 11, 12, 13), (1, 2, 3, 15)), ("lead 11,12,13",), "overwrite 1,2,3"),),
        examples=("pile.run",),
        may_refuse=True,
    ),
    Scene(
        "eight-single",
        "A single 8 overwrites a single 5: the Rule of 8 ends the trick",
        ("eight.heading", "eight.special", "eight.trigger", "trick.end", "trick.end.eight", "trick.winner"),
        (Setup(((2, 5), (8, 15)), ("lead 5",), "overwrite 8"),),
        examples=("eight.trigger.single",),
    ),
    Scene(
        "eight-set",
        "A set of 8s overwrites a set of 5s: the Rule of 8 ends the trick",
        ("eight.trigger", "trick.end.eight", "action.overwrite"),
        (Setup(((2, 5, 5), (8, 8, 15)), ("lead 5,5",), "overwrite 8,8"),),
        examples=("eight.trigger.set",),
    ),
    Scene(
        "eight-run-78",
        "The run 7,8 overwrites a run of two: the Rule of 8 (the text's 'ein Lauf mit 7,8')",
        ("eight.trigger", "trick.end.eight", "pile.run"),
        (
            Setup(((2, 11, 12), (7, 8, 15)), ("lead 11,12",), "overwrite 7,8"),
            Setup(((1, 2, 12), (7, 8, 15)), ("lead 1,2",), "overwrite 7,8"),
        ),
        examples=("eight.trigger.run78", "eight.trigger.list"),
    ),
    Scene(
        "eight-run-789",
        "The run 7,8,9 overwrites a run of three: the Rule of 8 (the text's '7,8,9')",
        ("eight.trigger", "trick.end.eight", "pile.run"),
        (
            Setup(((2, 11, 12, 13), (7, 8, 9, 15)), ("lead 11,12,13",), "overwrite 7,8,9"),
            Setup(((1, 2, 3, 12), (7, 8, 9, 15)), ("lead 1,2,3",), "overwrite 7,8,9"),
        ),
        examples=("eight.trigger.run789", "eight.trigger.list"),
    ),
    Scene(
        "eight-run-89",
        "The run 8,9 overwrites a run of two: a card of rank 8 is played, but 8,9 is not in the list",
        ("eight.trigger", "trick.end.eight"),
        (
            Setup(((2, 11, 12), (8, 9, 15)), ("lead 11,12",), "overwrite 8,9"),
            Setup(((1, 2, 12), (8, 9, 15)), ("lead 1,2",), "overwrite 8,9"),
        ),
        examples=("eight.trigger.any",),
    ),
    Scene(
        "eight-added",
        "An 8 added to a single 7 (making the run 7,8)",
        ("eight.trigger", "trick.end.eight", "action.add"),
        (Setup(((2, 7), (8, 15)), ("lead 7",), "add 8"),),
        examples=("eight.trigger.added",),
        may_refuse=True,
    ),
    Scene(
        "eight-exemption",
        "An 8 added to a trick whose opening pile is an 8",
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
        "Two 5s added to a set of two 5s with 2 players: the 4th card of a set ends the trick",
        ("trick.end.set", "trick.end", "action.add", "trick.winner"),
        (Setup(((2, 5, 5), (5, 5, 15)), ("lead 5,5",), "add 5,5"),),
        examples=("trick.end.set.reachable",),
    ),
    Scene(
        "set-four-of-five-players",
        "With 5 players a set grows to its 4th card (the texts: 'the 5th in a game of 5+' / 'more than 5')",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (14,), (13,), (12,)), ("lead 3,3",), "add 3,3"),),
        examples=("trick.end.set@de", "trick.end.set@es"),
    ),
    Scene(
        "set-five-of-five-players",
        "With 5 players and five copies of a rank, the 5th card is added to a set of four",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (3, 14), (13,), (12,)), ("lead 3,3", "add 3,3"), "add 3"),),
        examples=("trick.end.set@de", "deck.copies@de", "deck.copies@es"),
        may_refuse=True,
    ),
    Scene(
        "set-four-of-six-players",
        "With 6 players (a large game in every reading) a set grows to its 4th card",
        ("trick.end.set", "deck.copies", "action.add"),
        (Setup(((2, 3, 3), (3, 3, 15), (14,), (13,), (12,), (11,)), ("lead 3,3",), "add 3,3"),),
        examples=("trick.end.set@de", "trick.end.set@es"),
    ),
    Scene(
        "run-closes",
        "4,5 added to the run 1,2,3: the 5th card of a run ends the trick",
        ("trick.end.run", "trick.end", "action.add", "pile.run"),
        (Setup(((1, 2, 3, 12), (4, 5, 15)), ("lead 1,2,3",), "add 4,5"),),
        examples=("trick.end.run", "trick.end.run.reachable"),
    ),
    Scene(
        "lead-options",
        "Every lead of one, two or three cards: singles, sets of 2-3, runs of 2-3, never four cards",
        ("turn.cards", "pile.types", "pile.single", "pile.set", "pile.run", "action.choice", "lead.no_pass"),
        (Setup(((1, 1, 1, 1, 2, 3, 5, 7), (15,), (14,), (13,)), (), "lead 1,1,1"),),
        examples=("turn.cards", "pile.set.size", "pile.run.size"),
    ),
    Scene(
        "going-out",
        "A player leads their last card: the round ends and the others score the cards they hold",
        ("round.end", "game.goal", "round.scoring", "deck.points", "eight.value"),
        (Setup(((4,), (2, 8, 13)), (), "lead 4"),),
        examples=("eight.value",),
    ),
    Scene(
        "match-end",
        "A round ends with a score of 20 or more: the match ends, the fewest points win (ties share)",
        ("match.end", "match.winner", "round.end", "round.scoring"),
        (Setup(((4,), (1,), (2,)), (), "lead 4", scores=(13, 19, 12)),),
        examples=("match.end",),
    ),
)

CLAUSE_SCENES: tuple[Scene, ...] = (
    Scene(
        "leader-may-not-pass",
        "The leader tries to pass",
        ("lead.no_pass", "action.pass"),
        (Setup(((4, 9), (15,), (14,)), (), "pass"),),
        may_refuse=True,
    ),
    Scene(
        "overwrite-same-size",
        "A set of three played onto a set of two",
        ("action.overwrite", "pile.set"),
        (Setup(((2, 5, 5), (2, 2, 7, 7, 7, 9)), ("lead 5,5",), "overwrite 7,7,7"),),
        may_refuse=True,
    ),
    Scene(
        "add-to-single",
        "A 7 added to a single 7 (making a set of two)",
        ("action.add", "pile.single"),
        (Setup(((2, 7), (7, 15)), ("lead 7",), "add 7"),),
        may_refuse=True,
    ),
    Scene(
        "add-below-run",
        "A 2 added below the run 3,4",
        ("action.add", "pile.run"),
        (Setup(((3, 4, 12), (2, 15)), ("lead 3,4",), "add 2"),),
        may_refuse=True,
    ),
    Scene(
        "add-both-ends",
        "One add that extends the run 3,4 at both ends at once (2 below, 5 above)",
        ("action.add", "pile.run"),
        (Setup(((3, 4, 12), (2, 5, 15)), ("lead 3,4",), "add 2,5"),),
        may_refuse=True,
    ),
    Scene(
        "all-passed",
        "All but the last player to place cards pass: that player wins the trick and leads",
        ("action.pass", "action.pass.out", "trick.end", "trick.end.passes", "trick.winner"),
        (Setup(((5, 12), (2, 13), (3, 14)), ("lead 5", "pass"), "pass"),),
    ),
    Scene(
        "passed-player-is-out",
        "A player who passed takes no further turn in the trick; the trick ends when the others pass",
        ("action.pass.out", "trick.end.passes", "trick.winner", "action.overwrite"),
        (Setup(((5, 9, 12), (2, 13), (7, 14)), ("lead 5", "pass", "overwrite 7"), "pass"),),
    ),
    Scene(
        "winner-leads-at-a-full-table",
        "The last seat of 5 wins a trick by the Rule of 8 and leads the next one",
        ("trick.winner", "trick.end.eight", "lead.no_pass"),
        (Setup(((14,), (15,), (13,), (5, 12), (8, 11)), ("lead 5",), "overwrite 8", leader=3),),
    ),
    Scene(
        "cleared-holds-overwritten",
        "A trick of three piles ends: every card of the trick goes to cleared, overwritten piles too",
        ("trick.end.passes", "action.overwrite", "trick.winner"),
        (Setup(((5, 9, 12), (7, 13)), ("lead 5", "overwrite 7", "overwrite 9"), "pass"),),
    ),
    Scene(
        "out-on-a-trick-end",
        "A player goes out with a Rule-of-8 play: the trick ends, then the round; nothing is cleared",
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
        "A deal for one player more than the game allows is refused",
        ("game.players",),
        _too_many_players,
        examples=("game.players",),
    ),
    Refusal(
        "rank-not-in-deck",
        "A deal holding a rank the deck does not have is refused",
        ("deck.ranks",),
        _missing_rank,
        examples=("deck.ranks",),
    ),
    Refusal(
        "too-many-copies",
        "A deal holding more copies of a rank than the deck has is refused",
        ("deck.copies",),
        _too_many_copies,
    ),
    Refusal(
        "five-players-large-deck",
        "A deal for 5 players holding as many copies of a rank as a large game's deck has",
        ("deck.copies",),
        _five_copies_five_players,
        examples=("deck.copies@de", "deck.copies@es"),
    ),
)
