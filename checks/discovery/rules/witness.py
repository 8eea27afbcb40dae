"""A table where a mutant of the rules plays otherwise than the rules as stated: the witness of a
silence, set up in at most `MAX_MOVES` moves.

The rules as stated are played by the engine `make_engine` gives (the reference where it
implements them), the mutant by the spec interpreter. The search goes as the engine mutants' does
(silences.diverge): the first deal, then the short tricks from a table where the mover holds the
whole deck, at every player count; then real small tables, the two sides in lockstep, breadth
first, so that a rule reading what a hand holds (a player's last cards, the players still in the
trick) is met with the hands it needs; then seeded matches, cut back to their last trick. A
difference counts only where the tables after a move differ: a trick recorded as ended on the move
that ends the round, the round's result the same, is no difference a player notices.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ....engine import Move, State
from ....engine.engines import Engine, make_engine
from ....engine.interpreter import SpecEngine
from ....spec import Ruleset, SpecError
from ....spec.words_model import CheckWords
from ...findings import Witness
from ...impact.witnesses import RoundHistory, shrunk_witness, step_witness
from ..decisions import _change
from ..silences import Budget, Effort, diverge

#: The most moves a witness takes to set up (from the deal to the table it shows).
MAX_MOVES = 10
#: The short-trick search's tables, and no seeded matches: those come last, and only if needed.
SHORT = Budget(tables=200, matches=0, invariant_matches=0)
SHORT_LARGER = Budget(tables=60, matches=0, invariant_matches=0)
MATCHES = Budget(tables=0, matches=2, invariant_matches=0)
#: The small tables played in lockstep: how many deals per player count, and the most states each.
SMALL_DEALS = 18
SMALL_STATES = 300


@dataclass(frozen=True)
class Found:
    """A mutant's witness, the player count it is at, and where it was found (`mutations.texts`'
    `found` words: deal, tricks, tables or matches)."""

    witness: Witness
    players: int
    found: str

    @property
    def moves(self) -> int:
        position = self.witness.position
        return len(position.moves) if position is not None else 0


def rule_witness(
    played: Ruleset, mutant: Ruleset, names: tuple[str, str], seed: int, *, say: CheckWords
) -> Found | None:
    """The first table, in the order of the module's docstring, where the two rule sets differ;
    None when none is found. `say`: the words of a witness (the check words `impact.witnesses`)."""
    players = range(played.players_min, played.players_max + 1)
    for p in players:
        # Past the smallest table the short tricks seldom show what it did not (a rule of one
        # player count): a smaller search there.
        budget = SHORT if p == players[0] else SHORT_LARGER
        witness, how = diverge(
            (played, make_engine),
            (mutant, SpecEngine),
            p,
            budget,
            seed,
            names,
            Effort(),
            noticed=True,
            say=say,
        )
        if witness is not None:
            found = Found(witness, p, how)
            if found.moves <= MAX_MOVES:
                return found
    # Small tables at the two smallest player counts: what a hand's size or the scores decide
    # shows there as well as at a larger table, at a fraction of the states.
    for p in players[:2]:
        table = _small_tables(played, mutant, p, names, seed, say)
        if table is not None:
            return table
    for p in players:
        witness, how = diverge(
            (played, make_engine), (mutant, SpecEngine), p, MATCHES, seed, names, Effort(), say=say
        )
        if witness is not None:
            # A match shows any difference, a trick recorded otherwise too: set up again from its
            # last trick, the difference must show on the tables after a move.
            return _from_trick(played, mutant, Found(witness, p, how), names, say)
    return None


def _from_trick(
    played: Ruleset, mutant: Ruleset, found: Found, names: tuple[str, str], say: CheckWords
) -> Found | None:
    """A seeded match's witness set up again from the start of its last trick: the hands, the
    scores and the leader of that moment dealt as a round, and the two sides played in lockstep
    from there (what came before the trick is not part of the table any more); None where no
    difference the tables after a move show is found there."""
    position = found.witness.position
    if position is None:
        return None
    try:
        a, b = make_engine(played, found.players), SpecEngine(mutant, found.players)
        state = a.start_round([list(h) for h in position.hands], position.leader, position.scores)
        trick_start, since = state, 0
        for i, move in enumerate(position.moves):
            if state.phase != "play":
                return None
            if state.pile is None and not state.passed:
                trick_start, since = state, i
            state, _ = a.apply(state, move)
    except (ValueError, SpecError):
        return None
    hands = [a.codec.cards(h) for h in trick_start.hands]
    start = _dealt(a, b, hands, trick_start.to_move, trick_start.scores, trick_start.round)
    if start is None:
        return None
    witness = _along(a, b, start, position.moves[since:], names, say) or _lockstep(a, b, start, names, say)
    return Found(witness, found.players, "tables") if witness is not None else None


def _along(
    a: Engine, b: Engine, start: State, moves: Sequence[Move], names: tuple[str, str], say: CheckWords
) -> Witness | None:
    """The first difference on the path `moves` from `start` (at most MAX_MOVES of them)."""
    state = start
    plays: list[tuple[int, Move]] = []
    for move in moves[: MAX_MOVES + 1]:
        found = _difference(a, b, state, [move], names, RoundHistory(start, list(plays)), say)
        if found is not None:
            return found
        plays.append((state.to_move, move))
        state, _ = a.apply(state, move)
    return None


def _difference(
    a: Engine,
    b: Engine,
    state: State,
    moves: Sequence[Move] | None,
    names: tuple[str, str],
    history: RoundHistory,
    say: CheckWords,
) -> Witness | None:
    """The witness at `state` where the two sides allow different moves, or where one of `moves`
    (None: every move both allow) changes the tables after it differently; None where neither."""
    la, lb = set(a.legal_moves(state)), set(b.legal_moves(state))
    if la != lb:
        return shrunk_witness(a, b, state, (la, lb), names, history, say) or _legal_witness(
            a, b, state, (la, lb), names, history, say
        )
    for move in sorted(la, key=str) if moves is None else moves:
        changed = _change(a, b, state, move, noticed=True)
        if changed is not None:
            change, after_a, after_b = changed
            return step_witness(a, b, state, move, (la, lb), (after_a, after_b), names, change, history, say)
    return None


def _dealt(
    a: Engine,
    b: Engine,
    hands: Sequence[Sequence[int]],
    leader: int,
    scores: tuple[int, ...],
    round_no: int = 1,
) -> State | None:
    """The round both sides set up from these hands, None where they set it up differently (the
    deal itself differs: the first search looks at deals) or cannot."""
    try:
        start = a.start_round(hands, leader, scores, round_no=round_no)
        return start if b.start_round(hands, leader, scores, round_no=round_no) == start else None
    except (ValueError, SpecError):
        return None


def _deals(ruleset: Ruleset, players: int, seed: int) -> list[tuple[list[list[int]], tuple[int, ...]]]:
    """`SMALL_DEALS` seeded deals of 2 to 4 cards per hand at a player count, the smallest first,
    every third one from three neighbouring ranks only, every other one in a match under way
    (seeded scores up to the score that ends it: what the end of a round decides shows on a small
    table then)."""
    copies = ruleset.copies(players)
    deck = [r for r in ruleset.ranks for _ in range(copies)]
    out = []
    for i in range(SMALL_DEALS):
        rng = random.Random(f"five35-rule-witness:{seed}:{players}:{i}")
        cards = list(deck)
        if i % 3 == 2:
            # From three ranks that follow one another in the deck: sets and runs to close.
            at = rng.randrange(len(ruleset.ranks) - 2)
            cards = [r for r in ruleset.ranks[at : at + 3] for _ in range(copies)]
        rng.shuffle(cards)
        size = 2 + i * 3 // SMALL_DEALS  # 2, then 3, then 4 cards each
        hands = [sorted(cards[p * size : (p + 1) * size]) for p in range(players)]
        top = max(ruleset.match_end_score, 1)
        scores = tuple(rng.randrange(top) for _ in range(players)) if i % 2 else (0,) * players
        out.append((hands, scores))
    return out


def _small_tables(
    played: Ruleset, mutant: Ruleset, players: int, names: tuple[str, str], seed: int, say: CheckWords
) -> Found | None:
    try:
        a, b = make_engine(played, players), SpecEngine(mutant, players)
    except SpecError:
        return None
    for hands, scores in _deals(played, players, seed):
        start = _dealt(a, b, hands, 0, scores)
        if start is None:
            continue
        witness = _lockstep(a, b, start, names, say)
        if witness is not None:
            return Found(witness, players, "tables")
    return None


def _lockstep(a: Engine, b: Engine, start: State, names: tuple[str, str], say: CheckWords) -> Witness | None:
    """Breadth first from `start`, every move both sides allow, to the first state where they
    allow different moves or a move ends differently (within MAX_MOVES moves)."""
    queue: deque[tuple[State, tuple[tuple[int, Move], ...]]] = deque([(start, ())])
    seen = {start}
    while queue and len(seen) <= SMALL_STATES:
        state, plays = queue.popleft()
        found = _difference(a, b, state, None, names, RoundHistory(start, list(plays)), say)
        if found is not None:
            return found
        # No difference here: both sides allow the same moves, and each ends alike.
        for move in sorted(a.legal_moves(state), key=str):
            child, _ = a.apply(state, move)
            if child.phase == "play" and len(plays) + 1 < MAX_MOVES and child not in seen:
                seen.add(child)
                queue.append((child, (*plays, (state.to_move, move))))
    return None


def _legal_witness(
    a: Engine,
    b: Engine,
    state: State,
    legal: tuple[set[Move], set[Move]],
    names: tuple[str, str],
    history: RoundHistory,
    say: CheckWords,
) -> Witness:
    """The table as it is, where one side allows a move the other does not (a pass, or cards a
    smaller hand cannot show): played by the side that allows it."""
    la, lb = legal
    only_a = sorted(la - lb, key=str)
    if only_a:
        move = only_a[0]
        return step_witness(
            a, b, state, move, legal, (a.apply(state, move), None), names, "legal_moves", history, say
        )
    move = sorted(lb - la, key=str)[0]
    swapped = (names[1], names[0])
    return step_witness(
        b, a, state, move, (lb, la), (b.apply(state, move), None), swapped, "legal_moves", history, say
    )
