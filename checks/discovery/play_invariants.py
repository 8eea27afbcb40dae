"""The play invariants an engine is checked against besides the oracle's questions (oracle.py).

Play invariants (`play_violation`) are the invariants of checks/play/invariants.py that hold under
every reading, checked over a few seeded matches of the engine itself (never against a model, which
would read the readings): `leader.no_pass` (clause lead.no_pass), `round.end` (round.end),
`turn.passed` (action.pass.out: "scheidet er für den Stich aus"), `match.end` (match.end). Two more
encode rules no clause writes down, and a mutant that only they catch is still a silence:
`cards.accounted` (no card appears or vanishes) and `turn.next` (turns go round the table in one
direction: the texts never say how turns pass). The others in invariants.py judge by the spec's
rules model, that is by the readings, and are not used.
"""

from __future__ import annotations

from ...engine import PASS, Game, Move, State
from ...engine.bots import get_bot
from ...engine.simulate import EndlessPlay, bot_rngs, game_seed, move_limit
from ...engine.state import RoundEnd, TrickEnd
from ...spec import SpecError
from .oracle import Kill
from .said import oracle

#: The play invariants: id -> the clause it cites (None: a rule the texts never write).
INVARIANTS: dict[str, str | None] = {
    "leader.no_pass": "lead.no_pass",
    "turn.passed": "action.pass.out",
    "round.end": "round.end",
    "match.end": "match.end",
    "cards.accounted": None,
    "moves.nonempty": None,
    "turn.next": None,
}

#: Rounds played at most per match when looking for an invariant's violation.
MAX_ROUNDS = 40


def _next_in_turn(game: Game, seat: int, passed: int) -> set[int]:
    """The seats that can come next in either direction round the table, skipping passed seats."""
    out = set()
    for step in (1, -1):
        s = (seat + step) % game.players
        while passed >> s & 1 and s != seat:
            s = (s + step) % game.players
        out.add(s)
    return out


def _step_violation(
    game: Game, state: State, move: Move, new: State, events: tuple[object, ...]
) -> str | None:
    mover = state.to_move
    if state.pile is None and move.action == "pass":
        return "leader.no_pass"
    went_out = move.action != "pass" and new.hands[mover] == 0
    if went_out != any(isinstance(e, RoundEnd) for e in events):
        return "round.end"
    if new.phase == "play":
        if new.passed >> new.to_move & 1:
            return "turn.passed"
        trick_ended = any(isinstance(e, TrickEnd) for e in events)
        if not trick_ended and new.to_move not in _next_in_turn(game, mover, new.passed):
            return "turn.next"
    return None


def _state_violation(game: Game, state: State) -> str | None:
    played = sum(game.codec.pack(p.move.cards) for p in state.trick)
    if sum(state.hands) + played + state.cleared + state.aside != game.full_deck:
        return "cards.accounted"
    if state.phase == "play":
        moves = game.legal_moves(state)
        if not moves:
            return "moves.nonempty"
        if state.pile is None and PASS in moves:
            return "leader.no_pass"
    over = max(state.scores) >= game.ruleset.match_end_score
    if over != (state.phase == "match_over"):
        return "match.end"
    return None


def play_violation(game: Game, seed: int, matches: int) -> Kill | None:
    """The first play invariant the engine breaks over `matches` seeded matches (random bots).
    Raises EndlessPlay where a round goes on past `move_limit` (rules that never end a trick)."""
    bot = get_bot("random")
    most = move_limit(game)
    for index in range(matches):
        match_seed = game_seed(seed, index)
        rngs = bot_rngs(match_seed, game.players)
        try:
            state = game.new_match(match_seed)
        except (ValueError, SpecError):
            return None  # a deal the engine cannot make is a difference in play, not an invariant
        for _ in range(MAX_ROUNDS):
            moves = 0
            while True:
                moves += 1
                if moves > most:
                    raise EndlessPlay(f"match {index}, round {state.round}", most)
                broken = _state_violation(game, state)
                if broken is not None:
                    return Kill(
                        broken, INVARIANTS[broken], oracle("in_match", match=index, round=state.round)
                    )
                if state.phase != "play":
                    break
                move = bot.choose(game, state, game.legal_moves(state), rngs[state.to_move])
                new, events = game.apply(state, move)
                broken = _step_violation(game, state, move, new, events)
                if broken is not None:
                    return Kill(
                        broken,
                        INVARIANTS[broken],
                        oracle("in_match_move", match=index, round=state.round, move=move),
                    )
                state = new
            if state.phase == "match_over":
                break
            state = game.next_round(state)
    return None
