"""The text-derived oracle's questions asked of the spec interpreter.

The oracle (checks/discovery/oracle.py) asks an engine what the clauses state through the
reference engine's public hooks (`beats`, `closes`, `rule_of_8`, `add_options`, `trick_winner`,
`penalty`, ...). A mutant of the rules is played by the spec interpreter, which has the state API
but not those hooks; `Hooks` answers each of them from the interpreter's rules, by the same
definitions the reference engine documents, so the same questions kill a rule mutant as kill an
engine mutant.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....engine import Pile, Play, State, TrickEndReason
from ....engine.interpreter import SpecEngine
from ..questions import holding


class Hooks:
    """A spec interpreter seen through the reference engine's hooks the oracle asks."""

    def __init__(self, engine: SpecEngine) -> None:
        self.engine = engine
        self.ruleset = engine.ruleset
        self.players = engine.players
        self.copies = engine.copies
        self.max_cards = engine.max_cards
        self.codec = engine.codec
        self._table: State | None = None

    def __getattr__(self, name: str) -> Any:
        # The state API (start_round, option, placeable_piles, beats, follows, ...) is the engine's.
        return getattr(self.engine, name)

    def rule_of_8(self, option: Any, state: State) -> bool:
        move = option.move
        # The mover holds the cards (and one more), in a trick the central pile opened.
        on = holding(self, state, move.cards)  # type: ignore[arg-type]  # Hooks answers as a Game
        return TrickEndReason.RULE_OF_8 in self.engine.play_reasons(on, move)

    def closes(self, pile: Pile, action: str) -> TrickEndReason | None:
        """Why `pile`, just made by `action`, ends the trick: the first reason of the trick
        endings asked after a play, with the pile's last card the one placed and the pile its
        own trick's opening."""
        engine = self.engine
        placed = pile.cards[-1:]
        env = {
            "action": action,
            "pile": pile,
            "placed": placed,
            "opening": pile,
            "mover": 0,
            "in_trick": self.players,
            "cards_left": 1,
            "passes_in_a_row": 0,
            "others_in": self.players - 1,
        }
        reasons = engine.reasons_after_play(env)
        return reasons[0] if reasons else None

    def runs_from(self, start: int, length: int) -> tuple[int, ...] | None:
        ranks = self.ruleset.ranks
        run = [start]
        while len(run) < length:
            nxt = ranks[(ranks.index(run[-1]) + 1) % len(ranks)]
            if not self.engine.follows(run[-1], nxt):
                return None
            run.append(nxt)
        return tuple(run)

    def add_options(self, pile: Pile) -> list[tuple[tuple[int, ...], Pile]]:
        if self._table is None:
            self._table = self.engine.start_round([[r] for r in self.ruleset.ranks[: self.players]], 0)
        state = replace(self._table, pile=pile)
        out = []
        for move in self.engine.placing_moves(pile):
            option = self.engine.option(state, move) if move.action == "add" else None
            if option is not None:
                out.append((move.cards, option.pile))
        return out

    def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        last = next((p.player for p in reversed(trick) if p.move.action != "pass"), -1)
        program = self.engine.program
        return int(program.ask("trick_winner", "winner", last_placer=last, mover=trick[-1].player))
