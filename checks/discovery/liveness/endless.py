"""The smallest endless match, where the points table lets a round score nothing: a round legal
play ends with every penalty 0, which the match can repeat for ever (searched with the engine)."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator

from ....engine import Move, Position, State
from ....engine.engines import Engine, make_engine
from ....engine.state import RoundEnd
from ....spec import Ruleset
from .outcome import EndlessMatch

#: The endless-match search's budget: start positions tried, and states played from them in all.
ENDLESS_POSITIONS = 20_000
ENDLESS_STATES = 200_000


def endless_match(ruleset: Ruleset, *, most_cards: int = 4) -> EndlessMatch | None:
    """The smallest round, by cards dealt and then in rank order, at the fewest players, that legal
    play ends with every penalty 0: the match can repeat it forever. Searched with the engine over
    the deals of up to `most_cards` cards per player, within ENDLESS_POSITIONS start positions and
    ENDLESS_STATES states; None when none is found there (too few 0-point cards to leave one in
    every hand but the winner's, say)."""
    players = ruleset.players_min
    game = make_engine(ruleset, players)
    zero = tuple(sorted(r for r, p in ruleset.points.items() if p == 0))
    if not zero:
        return None
    score = max(0, ruleset.match_end_score - 1)
    scores = (score,) * players
    copies = game.copies
    budget = [ENDLESS_POSITIONS, ENDLESS_STATES]
    for total in range(players, players * most_cards + 1):
        for sizes in _compositions(total, players, most_cards):
            for hands in _hands(ruleset.ranks, sizes, copies):
                for leader in range(players):
                    budget[0] -= 1
                    if budget[0] < 0 or budget[1] < 0:
                        return None
                    state = game.start_round([list(h) for h in hands], leader, scores)
                    found = _zero_round(game, state, budget)
                    if found is not None:
                        moves, penalties = found
                        position = Position(hands=hands, leader=leader, scores=scores, moves=tuple(moves))
                        return EndlessMatch(position, zero, penalties)
    return None


def _compositions(total: int, parts: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every way to split `total` cards into `parts` hands of 1 to `most` cards, in order."""
    if parts == 1:
        if 1 <= total <= most:
            yield (total,)
        return
    for first in range(1, min(most, total - parts + 1) + 1):
        for rest in _compositions(total - first, parts - 1, most):
            yield (first, *rest)


def _hands(
    ranks: tuple[int, ...], sizes: tuple[int, ...], copies: int
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every deal of hands of these sizes the deck can hold, in rank order (lazily)."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations_with_replacement(ranks, sizes[0]):
        for rest in _hands(ranks, sizes[1:], copies):
            held: dict[int, int] = {}
            for c in (*first, *(c for h in rest for c in h)):
                held[c] = held.get(c, 0) + 1
            if all(v <= copies for v in held.values()):
                yield (first, *rest)


def _zero_round(game: Engine, start: State, budget: list[int]) -> tuple[list[Move], tuple[int, ...]] | None:
    """The shortest legal play from `start` to a round end that scores no point, if any (each state
    played takes one from budget[1])."""
    seen: dict[State, list[Move]] = {start: []}
    queue: deque[State] = deque([start])
    while queue and budget[1] > 0:
        state = queue.popleft()
        budget[1] -= 1
        for move in game.legal_moves(state):
            after, events = game.apply(state, move)
            path = [*seen[state], move]
            for e in events:
                if isinstance(e, RoundEnd) and not any(e.penalties):
                    return path, e.penalties
            if after.phase == "play" and after not in seen:
                seen[after] = path
                queue.append(after)
    return None
