"""five35.engine: the reference engine for 535, configured by a Ruleset.

from five35.spec import load_spec
from five35.engine import Game

game = Game(load_spec().ruleset(), players=4)
state = game.new_match(seed=7)
move = game.legal_moves(state)[0]
state, events = game.apply(state, move)
"""

from .bots import BOTS, Bot, get_bot
from .cards import CardCodec
from .game import Game
from .options import Option
from .simulate import Step, play_game
from .state import (
    ACTIONS,
    PASS,
    TRICK_END_REASONS,
    Event,
    IllegalMove,
    MatchEnd,
    Move,
    Pile,
    Play,
    Position,
    RoundEnd,
    State,
    TrickEnd,
    TrickEndReason,
)
from .stats import Stats, merge

__all__ = [
    "ACTIONS",
    "BOTS",
    "PASS",
    "TRICK_END_REASONS",
    "Bot",
    "CardCodec",
    "Event",
    "Game",
    "IllegalMove",
    "MatchEnd",
    "Move",
    "Option",
    "Pile",
    "Play",
    "Position",
    "RoundEnd",
    "State",
    "Stats",
    "Step",
    "TrickEnd",
    "TrickEndReason",
    "get_bot",
    "merge",
    "play_game",
]
