"""Planted-bug engines: copies of the reference engine, each with one deliberate rules bug.

Each is a small subclass of five35.engine.Game overriding one hook or method, so `535-check check
--engine python:tests.planted:<Name>` (or `run_checks(engine=<Name>)`) must catch it. `BUGS` lists
them with the rule they break, for tests/checks/test_planted_bugs.py.
"""

from __future__ import annotations

from five35.engine import PASS, Game, Move, Pile, State
from five35.engine.options import Option
from five35.engine.state import Event, Play
from five35.spec import Ruleset


class RunsCrossGaps(Game):
    """Runs continue across the missing 6 and 10 even when run_gaps=gaps_break (5,7 is a run)."""

    def follows(self, a: int, b: int) -> bool:
        ranks = self.ruleset.ranks
        i = ranks.index(a)
        if i + 1 < len(ranks):
            return b == ranks[i + 1]
        return self.wrap and b == ranks[0]


class ExemptionIgnored(Game):
    """The Rule of 8 fires even when the opening pile held an 8 (eight_exemption ignored)."""

    def rule_of_8(self, option: Option, state: State) -> bool:
        if state.pile is None:
            return False
        if option.move.action == "add" and not self.eight_on_add:
            return False
        return option.listed_eight if self.eight_listed_only else option.has_eight


class FirstPlacerWins(Game):
    """The trick goes to the first player who placed cards in it, not the last."""

    def _end_trick(
        self, state: State, trick: tuple[Play, ...], winner: int, reasons: tuple[str, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        first = next((p.player for p in trick if p.move.action != "pass"), winner)
        return super()._end_trick(state, trick, first, reasons)


class FivePlayersCloseAtFour(Game):
    """With 5 players a set closes at its 4th card, although five_player_set_close=five_is_large says 5th."""

    def closing_size(self, kind: str) -> int | None:
        if kind == "set" and self.players == 5:
            return 4
        return super().closing_size(kind)


class LeaderMayPass(Game):
    """The leader is offered (and allowed) a pass."""

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        moves = super().legal_moves(state)
        if state.phase == "play" and state.pile is None:
            return (*moves, PASS)
        return moves

    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        if move.action == "pass" and state.phase == "play" and state.pile is None:
            return self._apply_pass(state)
        return super().apply(state, move)


class EqualPileOverwrites(Game):
    """A pile equal to the central pile overwrites it (ties count as higher)."""

    def beats(self, new: Pile, old: Pile) -> bool:
        return new == old or super().beats(new, old)


class AddPastCap(Game):
    """Adds may take a set or run past its closing size although add_past_closing=capped."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        super().__init__(ruleset, players)
        self.capped = False


class PenaltyCountsCards(Game):
    """Penalties count the cards left in hand instead of their points."""

    def penalty(self, hand: int) -> int:
        return self.codec.size(hand)


class PassedPlayerMovesAgain(Game):
    """A player who passed still gets turns in the same trick."""

    def _next_active(self, seat: int, passed: int) -> int:
        return self.next_seat(seat)


class RunOrderReversed(Game):
    """Runs compare the wrong way round: 11,12,13 beats 1,2,3 under run_order=lower_beats."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        super().__init__(ruleset, players)
        self.lower_runs_beat = not self.lower_runs_beat


BUGS: dict[str, tuple[type[Game], str]] = {
    "RunsCrossGaps": (RunsCrossGaps, "runs cross the gap at 6/10 under run_gaps=gaps_break"),
    "ExemptionIgnored": (ExemptionIgnored, "Rule-of-8 exemption for an 8 in the opening pile ignored"),
    "FirstPlacerWins": (FirstPlacerWins, "trick won by the first placer instead of the last"),
    "FivePlayersCloseAtFour": (FivePlayersCloseAtFour, "set closes at 4 with 5 players under five_is_large"),
    "LeaderMayPass": (LeaderMayPass, "a pass allowed to the leader"),
    "EqualPileOverwrites": (EqualPileOverwrites, "overwrite allowed with an equal pile"),
    "AddPastCap": (AddPastCap, "add allowed past the closing size under add_past_closing=capped"),
    "PenaltyCountsCards": (PenaltyCountsCards, "penalties count cards instead of points"),
    "PassedPlayerMovesAgain": (PassedPlayerMovesAgain, "a player who passed gets another turn"),
    "RunOrderReversed": (RunOrderReversed, "run order reversed (higher runs beat lower)"),
}
