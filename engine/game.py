"""The reference engine: 535 played under one Ruleset and one player count.

Readings are hooks (`GameHooks`, engine/hooks.py, which documents them and what a variant may
override) that `Game` inherits (python-chess style): each reads the ruleset's choice. Everything that
depends only on the ruleset (the rank succession, every pile a turn can place, every answer to a
given central pile) is computed once per Game and cached (engine/options.py), so a step costs a few
integer operations. A deal given from outside is checked by engine/deal.py.

Speed (issue 12). `apply` has two paths that give the same states and events. A Game whose class
overrides none of the hooks a step calls (`rule_of_8`, `trick_winner`, `next_seat`, `penalty`) nor
the private step methods takes the fast path: every answer those hooks give is cached per pile
(`Node`) and per placing move (`Entry`) when the pile is first met, so a step is a few dictionary
lookups keyed by object identity, integer operations and one new State. Any other class takes the
plain path, which calls every hook and private method at every step exactly as before, so an
overridden hook is always obeyed. Both paths build a State by copying its field dictionary rather
than through `dataclasses.replace`, which cost half of a step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..spec import Ruleset, SpecError
from . import _docstrings
from .cards import DealError
from .deal import checked_deal, dealt_state, pack_deal, seated_leader, shuffled_hands
from .hooks import GameHooks, mypyc_attr
from .options import EIGHT, LISTED_EIGHT_RUNS, SEGMENT_MEMORY, Ends, Entry, Node, Option
from .serial import state_from_json, state_to_json
from .state import (
    COMPILED,
    PASS,
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
    evolve,
    step_state,
)


def build() -> str:
    """Which build of the engine runs: the modules compiled by mypyc, or the pure-Python source."""
    return f"compiled by mypyc ({__file__.rsplit('/', 1)[-1]})" if COMPILED else "pure Python"


#: The private step methods the fast path stands in for: a class that overrides any of them takes
#: the plain path. Hooks are public and pure (see the module docstring): the fast path calls an
#: overridden rule_of_8 or trick_winner at every step, and caches next_seat in a table.
_FAST_PATH_METHODS = (
    "_apply_pass",
    "_apply_play",
    "_end_trick",
    "_next_active",
    "_trick_cards",
    "_options_for",
)


# Compiled by mypyc, Game is a native class; variants and tests subclass it in Python, and their
# overrides are called through Python (the fast path calls no overridable method per step).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(GameHooks):
    """535 under `ruleset` with `players` players: deal, legal moves, apply."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        super().__init__(ruleset, players)
        cls = type(self)
        self._fast = all(getattr(cls, name) is getattr(Game, name) for name in _FAST_PATH_METHODS)
        self._own_rule_of_8 = cls.rule_of_8 is Game.rule_of_8
        self._own_trick_winner = cls.trick_winner is Game.trick_winner
        self._guard = self.codec.guard
        self._deck = tuple(self.codec.cards(self.full_deck))
        self._units = {rank: self.codec.unit(rank) for rank in ruleset.ranks}
        self._pass_plays = tuple(Play(seat, PASS) for seat in range(players))
        self._events: dict[tuple[TrickEndReason, ...], Ends] = {}
        self._all_passed = self._trick_end_events((TrickEndReason.ALL_PASSED,))
        # Whether a trick ends once `passed` (a seat bit set) have passed: one player left.
        self._one_left = [players - passed.bit_count() == 1 for passed in range(1 << players)]
        # _next_active(seat, passed) at passed * players + seat, each asked of the hooks the first
        # time a step needs it (-1 until then): a next_seat that never reaches an active seat
        # loops where it always did, and only there.
        self._next_table = [-1] * ((1 << players) * players)
        # id(Play) -> its packed cards, for the Plays entries and _pass_plays hold (so keep alive).
        self._play_need: dict[int, int] = {id(play): 0 for play in self._pass_plays}
        self._piles: dict[Pile, Pile] = {}  # one object per distinct pile, so piles compare by identity
        self._nodes: dict[Pile | None, Node] = {}
        self._node_ids: dict[int, Node] = {}
        # The leads are built now, the answers to each pile when it is first met (as they always were).
        self._node(None)

    def ends_trick(self, state: State, move: Move) -> bool:
        """Whether placing `move` in `state` ends the trick (the Rule of 8 or a closed set or run),
        decided by the hooks, so that a variant's readings are respected (the bots ask it)."""
        option = self.option(state, move)
        if option is None:
            return False
        if self.rule_of_8(option, state):
            return True
        close = self.closing_size(option.pile.kind)
        return close is not None and option.pile.size >= close

    # ---- precomputed options -------------------------------------------------------------------

    def _option(self, action: str, added: tuple[int, ...], pile: Pile) -> Option:
        listed = (pile.kind in ("single", "set") and pile.cards[0] == EIGHT) or (
            pile.kind == "run" and pile.cards in LISTED_EIGHT_RUNS
        )
        return Option(
            move=Move(action, tuple(sorted(added))),  # type: ignore[arg-type]
            need=self.codec.pack(added),
            pile=self._piles.setdefault(pile, pile),
            has_eight=EIGHT in added,
            listed_eight=listed and EIGHT in added,
            # A hook is a pure function of its arguments, so its answer is cached with the option.
            closes=self.closes(pile, action),
        )

    def _build_lead_options(self) -> tuple[Option, ...]:
        return tuple(self._option("lead", p.cards, p) for p in self.placeable_piles())

    def _build_responses(self, pile: Pile) -> tuple[Option, ...]:
        options = [
            self._option("overwrite", p.cards, p) for p in self.placeable_piles() if self.beats(p, pile)
        ]
        options.extend(self._option("add", added, new) for added, new in self.add_options(pile))
        return tuple(options)

    def _node(self, pile: Pile | None) -> Node:
        """The node of `pile`, built the first time the pile is met."""
        node = self._nodes.get(pile)
        if node is None:
            options = self._build_lead_options() if pile is None else self._build_responses(pile)
            entries: tuple[Entry, ...] = ()
            if self._fast:
                leading = pile is None
                entries = tuple(
                    Entry(o, self.players, self._eight_play(o, leading), self._trick_end_events)
                    for o in options
                )
                for entry in entries:
                    for play in entry.plays:
                        self._play_need[id(play)] = entry.need
            node = self._nodes[pile] = Node(pile, options, entries, self.codec)
            self._node_ids[id(pile)] = node
        return node

    def _trick_end_events(self, reasons: tuple[TrickEndReason, ...]) -> Ends:
        """`(TrickEnd(seat, reasons),)` for every seat, one shared tuple per seat and reasons."""
        events = self._events.get(reasons)
        if events is None:
            events = self._events[reasons] = tuple((TrickEnd(seat, reasons),) for seat in range(self.players))
        return events

    def _options_for(self, pile: Pile | None) -> tuple[tuple[Option, ...], dict[Move, Option]]:
        node = self._node_ids.get(id(pile)) or self._node(pile)
        return node.options, node.index

    def placing_moves(self, pile: Pile | None) -> tuple[Move, ...]:
        """Every lead (pile None) or every overwrite and add onto `pile`, whatever the hands hold."""
        return tuple(o.move for o in self._options_for(pile)[0])

    def option(self, state: State, move: Move) -> Option | None:
        """What a placing move would make from `state` (its pile, its 8s), or None if it fits no
        lead, overwrite or add there. Does not check the hand."""
        return self._options_for(state.pile)[1].get(move)

    # ---- the state API -------------------------------------------------------------------------

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """The legal moves of the player to move, placing moves first; empty when the round is over."""
        if state.phase != "play":
            return ()
        pile = state.pile
        node = self._node_ids.get(id(pile)) or self._node(pile)
        guard = self._guard
        held = state.hands[state.to_move]
        hand = held | guard
        segments = node.segments
        if segments is None:
            moves = [move for move, need in node.pairs if (hand - need) & guard == guard]
        else:
            moves = []
            for segment in segments:
                memo = segment.memo
                key = (held + segment.add) & segment.mask
                found = memo.get(key)
                if found is None:
                    found = tuple(move for move, need in segment.pairs if (hand - need) & guard == guard)
                    if len(memo) < SEGMENT_MEMORY:
                        memo[key] = found
                moves += found
        if pile is not None:
            moves.append(PASS)
        return tuple(moves)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        """Play `move`; returns the new state and the events it caused. Raises IllegalMove."""
        if state.phase != "play":
            raise IllegalMove(
                move, state, f"the {'match' if state.phase == 'match_over' else 'round'} is over"
            )
        if self._fast:
            return self._fast_apply(state, move)
        if move.action == "pass":
            if state.pile is None:
                raise IllegalMove(move, state, "the leader may not pass")
            return self._apply_pass(state)
        _, index = self._options_for(state.pile)
        option = index.get(move)
        if option is None:
            raise IllegalMove(move, state, "not a lead, overwrite or add that fits the pile")
        hand = state.hands[state.to_move]
        if not self.codec.holds(hand, option.need):
            raise IllegalMove(move, state, f"player {state.to_move} does not hold those cards")
        return self._apply_play(state, option, hand - option.need)

    def _fast_apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        """`apply` for a Game that overrides no private step method: the same states and events as
        the plain path, from the answers cached in the pile's node and the move's entry."""
        pile = state.pile
        node = self._node_ids.get(id(pile))
        if node is None:
            node = self._node(pile)
        entry = node.by_id.get(id(move))
        player = state.to_move
        if entry is None:
            if move.action == "pass":
                if pile is None:
                    raise IllegalMove(move, state, "the leader may not pass")
                return self._fast_pass(state, player)
            entry = node.entries.get(move)
            if entry is None:
                raise IllegalMove(move, state, "not a lead, overwrite or add that fits the pile")
        hands = state.hands
        need = entry.need
        hand = hands[player]
        guard = self._guard
        if ((hand | guard) - need) & guard != guard:
            raise IllegalMove(move, state, f"player {player} does not hold those cards")
        hand -= need
        new_hands = (*hands[:player], hand, *hands[player + 1 :])
        trick = (*state.trick, entry.plays[player])
        if self._own_rule_of_8:
            fires = entry.fires and not self._eight_exempt(state)
        else:
            fires = self.rule_of_8(entry.option, state)
        ends = entry.ends_with_8 if fires else entry.ends
        opening_has_eight = entry.has_eight if pile is None else state.opening_has_eight
        if hand and ends is not None:
            if self._own_trick_winner:
                winner = player
            else:
                winner = self.trick_winner(trick, entry.reasons_with_8 if fires else entry.reasons)
            ended = self._trick_won(state, new_hands, winner, trick)
            return ended, self._ends_for(ends, winner, entry.reasons_with_8 if fires else entry.reasons)
        # The pile placed: the next active seat to move, or, when the player went out, the player
        # (the round ends with whatever the move ended).
        placed = step_state(
            state,
            new_hands,
            self._next_after(player, state.passed) if hand else player,
            entry.pile,
            player,
            state.passed,
            opening_has_eight,
            trick,
            state.cleared,
        )
        if hand:
            return placed, ()
        return self._end_round(placed, player, () if ends is None else ends[player])

    def _fast_pass(self, state: State, player: int) -> tuple[State, tuple[Event, ...]]:
        passed = state.passed | (1 << player)
        trick = (*state.trick, self._pass_plays[player])
        if self._one_left[passed]:
            winner = -1
            if self._own_trick_winner:
                for play in reversed(trick):
                    if play.move.action != "pass":
                        winner = play.player
                        break
            if winner < 0:  # also where Game's own trick_winner raises: a trick nobody placed in
                winner = self.trick_winner(trick, (TrickEndReason.ALL_PASSED,))
            ended = self._trick_won(state, state.hands, winner, trick)
            return ended, self._ends_for(self._all_passed, winner, (TrickEndReason.ALL_PASSED,))
        return step_state(
            state,
            state.hands,
            self._next_after(player, passed),
            state.pile,
            state.last_player,
            passed,
            state.opening_has_eight,
            trick,
            state.cleared,
        ), ()

    def _trick_won(self, state: State, hands: tuple[int, ...], winner: int, trick: tuple[Play, ...]) -> State:
        """The fast path's state after `trick` (its last Play in it) ended: the table cleared and
        its cards counted, `winner` to lead the next."""
        return step_state(
            state, hands, winner, None, -1, 0, False, (), state.cleared + self._trick_need(trick)
        )

    def _ends_for(self, ends: Ends, winner: int, reasons: tuple[TrickEndReason, ...]) -> tuple[Event, ...]:
        """The shared `(TrickEnd(winner, reasons),)`; made anew for a seat outside the table, which
        only an overridden trick_winner can name."""
        return ends[winner] if 0 <= winner < self.players else (TrickEnd(winner, reasons),)

    def _next_after(self, seat: int, passed: int) -> int:
        """`_next_active(seat, passed)`, remembered (the hooks it asks are pure)."""
        index = passed * self.players + seat
        found = self._next_table[index]
        if found < 0:
            found = self._next_table[index] = self._next_active(seat, passed)
        return found

    def _trick_need(self, trick: tuple[Play, ...]) -> int:
        """`_trick_cards(trick)`, from the packed cards of the Plays the entries hold."""
        total = 0
        need_of = self._play_need
        for play in trick:
            need = need_of.get(id(play))
            total += self.codec.pack(play.move.cards) if need is None else need
        return total

    def _apply_pass(self, state: State) -> tuple[State, tuple[Event, ...]]:
        passed = state.passed | (1 << state.to_move)
        trick = (*state.trick, Play(state.to_move, PASS))
        if (self.players - passed.bit_count()) == 1:
            # Only the last player to place cards is left (everyone after them passed).
            reasons = (TrickEndReason.ALL_PASSED,)
            return self._end_trick(state, trick, self.trick_winner(trick, reasons), reasons)
        return evolve(state, passed=passed, trick=trick, to_move=self._next_active(state.to_move, passed)), ()

    def _apply_play(self, state: State, option: Option, hand: int) -> tuple[State, tuple[Event, ...]]:
        player = state.to_move
        hands = (*state.hands[:player], hand, *state.hands[player + 1 :])
        trick = (*state.trick, Play(player, option.move))
        reasons: list[TrickEndReason] = []
        if self.rule_of_8(option, state):
            reasons.append(TrickEndReason.RULE_OF_8)
        if option.closes is not None:
            reasons.append(option.closes)
        opening_has_eight = option.has_eight if state.pile is None else state.opening_has_eight
        moved = evolve(
            state,
            hands=hands,
            trick=trick,
            pile=option.pile,
            last_player=player,
            opening_has_eight=opening_has_eight,
        )
        if hand == 0:
            events: tuple[Event, ...] = (TrickEnd(player, tuple(reasons)),) if reasons else ()
            return self._end_round(moved, player, events)
        if reasons:
            ended = tuple(reasons)
            return self._end_trick(moved, trick, self.trick_winner(trick, ended), ended)
        return evolve(moved, to_move=self._next_active(player, state.passed)), ()

    def _next_active(self, seat: int, passed: int) -> int:
        seat = self.next_seat(seat)
        while passed >> seat & 1:
            seat = self.next_seat(seat)
        return seat

    def _trick_cards(self, trick: tuple[Play, ...]) -> int:
        return sum(self.codec.pack(p.move.cards) for p in trick)

    def _end_trick(
        self, state: State, trick: tuple[Play, ...], winner: int, reasons: tuple[TrickEndReason, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        cleared = state.cleared + self._trick_cards(trick)
        new = evolve(
            state,
            pile=None,
            trick=(),
            passed=0,
            last_player=-1,
            opening_has_eight=False,
            to_move=winner,
            cleared=cleared,
        )
        return new, (TrickEnd(winner, reasons),)

    def _end_round(
        self, state: State, went_out: int, events: tuple[Event, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        penalties = tuple(self.penalty(h) for h in state.hands)
        scores = tuple(s + p for s, p in zip(state.scores, penalties, strict=True))
        events = (*events, RoundEnd(went_out, penalties, scores))
        over = max(scores) >= self.ruleset.match_end_score
        if over:
            best = min(scores)
            events = (*events, MatchEnd(scores, tuple(i for i, s in enumerate(scores) if s == best)))
        new = evolve(state, scores=scores, to_move=went_out, phase="match_over" if over else "round_over")
        return new, events

    # ---- dealing -------------------------------------------------------------------------------

    def new_match(self, seed: int) -> State:
        """Round 1 of a match, dealt from `seed`."""
        return self._deal(seed, 1, (0,) * self.players, leader=None)

    def next_round(self, state: State) -> State:
        """Deal the next round after a round ended (round_leader decides who leads)."""
        if state.phase != "round_over":
            raise ValueError(f"next_round needs a finished round, not phase {state.phase!r}")
        return self._deal(state.seed, state.round + 1, state.scores, self.round_leader(state))

    def _deal(self, seed: int, round_no: int, scores: tuple[int, ...], leader: int | None) -> State:
        size = self.hand_size()
        if not 0 < size * self.players <= len(self._deck):
            # Only a hook that overrides deck_copies or hand_size gets here: the ruleset's own
            # hand size is checked against its own deck.
            raise SpecError(
                "parameters.hand_size", f"{self.players} hands of {size} from a deck of {len(self._deck)}"
            )
        hands, rng = shuffled_hands(self._deck, seed, round_no, size, self.players)
        if leader is None:
            # Drawn under every reading, after the shuffle: the deck of a seed never depends on who
            # leads, and a first_leader that ignores the draw still deals the same hands.
            leader = self.first_leader(rng.randrange(self.players))
        return self.start_round(hands, leader, scores, round_no=round_no, seed=seed)

    def start_round(
        self,
        hands: Sequence[Sequence[object]],
        leader: object,
        scores: Sequence[object] | None = None,
        *,
        round_no: int = 1,
        seed: int = 0,
    ) -> State:
        """A round from given hands (for scenarios and the engine protocol); the rest is set aside.

        The engine's input boundary: a deal this engine cannot play, or its packed counts could not
        hold, raises DealError (a ValueError) naming the part at fault in the protocol's terms. The
        values are typed `object` because they are checked here: compiled by mypyc, an argument
        typed int would already be converted (True to 1) or refused with a TypeError."""
        players = self.players
        to_lead = seated_leader(players, hands, leader)
        points: list[int] = []
        if scores is not None:
            if len(scores) != players:
                raise DealError("scores", f"{len(scores)} scores for {players} players")
            for seat, score in enumerate(scores):
                if type(score) is not int or score < 0:
                    raise DealError(f"scores[{seat}]", f"expected a natural number, got {score!r}")
                points.append(score)
        packed = pack_deal(hands, self._units, self._guard, self.full_deck)
        if packed is None:
            packed = checked_deal(hands, self.codec, self.copies)
        return dealt_state(
            packed,
            to_lead,
            self.full_deck,
            tuple(points) if scores is not None else (0,) * players,
            round_no,
            seed,
        )

    def play_from(self, position: Position) -> State:
        """The state after setting up `position`: its round dealt as given, then its moves applied.
        Raises DealError (a ValueError) for a deal the engine cannot play, IllegalMove for a move
        that is not legal."""
        if position.players != self.players:
            raise DealError("hands", f"{position.players} hands for {self.players} players")
        state = self.start_round(
            position.hands,
            position.leader,
            position.scores,
            round_no=position.round,
            seed=position.seed,
        )
        for move in position.moves:
            state, _ = self.apply(state, move)
        return state

    # ---- serialisation -------------------------------------------------------------------------

    def hand(self, state: State, player: int) -> list[int]:
        return self.codec.cards(state.hands[player])

    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(self.codec, state)

    def from_json(self, data: dict[str, Any]) -> State:
        """The State that `to_json` wrote. ValueError naming the key for anything this engine
        cannot hold: a missing key, a card outside the deck or over a field's capacity, a seat
        outside the table."""
        return state_from_json(self.codec, self.players, data)

    def returns(self, state: State) -> tuple[int, ...]:
        """Penalty points so far per player (lower is better), as OpenSpiel's `returns`."""
        return state.scores


# Last: every class is defined.
_docstrings.restore(globals())
