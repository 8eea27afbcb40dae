"""The reference engine: 535 played under one Ruleset and one player count.

Readings are hooks on `Game` (python-chess style): each reads the ruleset's choice. Everything that
depends only on the ruleset (the rank succession, every pile a turn can place, every answer to a
given central pile) is computed once per Game and cached, so a step costs a few integer operations.

A variant (a house rule, or the other side of a finding the checks measure) is a subclass of `Game`
that overrides some of these public hooks (`Game.HOOKS`) and nothing else:

- `follows(a, b)`: whether rank b comes straight after rank a in a run;
- `strength(rank)`: how strong a single or set of that rank is;
- `beats(new, old)`: whether pile `new` overwrites pile `old`;
- `closing_size(kind)`: the size at which a set or run ends the trick;
- `closes(pile, action)`: whether placing `pile` by `action` ends the trick by its size, and why;
- `add_limit(pile, kind)`: the largest `kind` pile an add onto `pile` may make;
- `add_options(pile)`: every add onto `pile` and the pile it makes;
- `rule_of_8(option, state)`: whether a placing move is the Rule of 8;
- `trick_winner(trick, reasons)`: who wins a trick that ends for `reasons`;
- `next_seat(seat)`: whose turn follows a seat's;
- `penalty(hand)`: the points a hand left at the end of a round scores;
- `deck_copies()`: how many copies of each rank the deck holds at this table (`__init__` reads it);
- `hand_size()`: how many cards each player is dealt;
- `first_leader(draw)`: who leads round 1, given the seat `draw` drawn from the deal's generator;
- `round_leader(state)`: who leads the round after the finished round `state`.

A hook is a pure function of its arguments and of what `__init__` set: a variant never overrides a
`_private` method and never changes an attribute after `__init__`, so the cached answers stay true
and a variant class can be sent to a worker process by name.

Speed (issue 12). `apply` has two paths that give the same states and events. A Game whose class
overrides none of the hooks a step calls (`rule_of_8`, `trick_winner`, `next_seat`, `penalty`) nor
the private step methods takes the fast path: every answer those hooks give is cached per pile
(`_Node`) and per placing move (`_Entry`) when the pile is first met, so a step is a few dictionary
lookups keyed by object identity, integer operations and one new State. Any other class takes the
plain path, which calls every hook and private method at every step exactly as before, so an
overridden hook is always obeyed. Both paths build a State by copying its field dictionary rather
than through `dataclasses.replace`, which cost half of a step.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from ..spec import Ruleset, SpecError
from ..spec.vocabulary import ENGINE_HOOKS, PARAMETERS, Vocabulary
from . import _docstrings
from .cards import FIELD, MAX_COPIES, CardCodec, DealError, ranks_text, shuffle
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
    new_state,
    step_state,
)

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - installed without mypy_extensions: no compiler to tell

    def mypyc_attr(*args: object, **kwargs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


class Option(NamedTuple):
    """A placing move with everything apply needs, precomputed."""

    move: Move
    need: int  # packed cards it takes from the hand
    pile: Pile  # the central pile after it
    has_eight: bool
    listed_eight: bool  # the pile is a single 8, a set of 8s, or exactly the run 7,8 or 7,8,9
    closes: TrickEndReason | None = None  # why placing it ends the trick by its size (the closes hook)


EIGHT = 8
LISTED_EIGHT_RUNS = ((7, 8), (7, 8, 9))


def build() -> str:
    """Which build of the engine runs: the modules compiled by mypyc, or the pure-Python source."""
    return f"compiled by mypyc ({__file__.rsplit('/', 1)[-1]})" if COMPILED else "pure Python"


Ends = tuple[tuple[Event, ...], ...]  # (TrickEnd(seat, reasons),) for every seat


class _Entry:
    """One placing move from one pile, with what a fast step needs about it."""

    __slots__ = (
        "ends",
        "ends_with_8",
        "fires",
        "has_eight",
        "move",
        "need",
        "option",
        "pile",
        "plays",
        "reasons",
        "reasons_with_8",
    )

    def __init__(self, game: Game, option: Option, leading: bool) -> None:
        self.option = option
        self.move = option.move
        self.need = option.need
        self.pile = option.pile
        self.has_eight = option.has_eight
        # Play(seat, move) for every seat, shared by every trick that has it.
        self.plays = tuple(Play(seat, option.move) for seat in range(game.players))
        # What the rule_of_8 hook answers, less its one input known only at the step (the opening
        # pile's 8, under eight_exemption=whole_trick); used only where the hook is Game's own.
        self.fires = game._eight_play(option, leading)
        # The events when placing it ends the trick: by its size alone (None: it does not), and
        # with the Rule of 8.
        self.reasons: tuple[TrickEndReason, ...] = () if option.closes is None else (option.closes,)
        self.reasons_with_8 = (TrickEndReason.RULE_OF_8, *self.reasons)
        self.ends: Ends | None = game._trick_end_events(self.reasons) if self.reasons else None
        self.ends_with_8: Ends = game._trick_end_events(self.reasons_with_8)


class _Segment:
    """A run of a node's moves that each take the same number k of every rank they use, and the
    answers found so far: which of the moves a hand holds, by the hand's key."""

    __slots__ = ("add", "mask", "memo", "pairs")

    def __init__(self, add: int, mask: int, pairs: tuple[tuple[Move, int], ...]) -> None:
        self.add = add
        self.mask = mask
        self.pairs = pairs
        self.memo: dict[int, tuple[Move, ...]] = {}


class _Node:
    """A central pile (None: the table is empty, the player to move leads) and every placing move
    onto it, in the engine's move order."""

    __slots__ = ("by_id", "entries", "index", "options", "pairs", "pile", "segments")

    def __init__(
        self, pile: Pile | None, options: tuple[Option, ...], entries: tuple[_Entry, ...], codec: CardCodec
    ) -> None:
        self.pile = pile  # holding the pile keeps its id() unique while the node is in the id table
        self.options = options
        self.index = {o.move: o for o in options}
        self.entries = {e.move: e for e in entries}
        # Moves are looked up by identity first: legal_moves hands out these very objects, and an
        # id() is unique among live objects, which the entries keep alive.
        self.by_id = {id(e.move): e for e in entries}
        self.pairs = tuple((o.move, o.need) for o in options)
        self.segments = _segments(self.pairs, codec)


#: Answers a segment remembers at most (2 ** ranks can be many for a deck of many ranks).
SEGMENT_MEMORY = 8192


def _segments(pairs: tuple[tuple[Move, int], ...], codec: CardCodec) -> tuple[_Segment, ...] | None:
    """The moves split into runs of moves that each take the same number `k` of every rank they
    use (singles and runs: k = 1, sets: k = their size), for a memo per run: which of its moves a
    hand holds depends only on which of the run's ranks it holds k of, the segment's key
    `(hand + add) & mask` (adding 8 - k to a field of at most 7 sets its guard bit exactly when it
    holds k). None when a move takes different numbers of two ranks: the node's moves are then
    filtered one by one. Remembering beats filtering even for a node of two moves."""
    top = 1 << (FIELD - 1)
    runs: list[tuple[int, int, list[tuple[Move, int]]]] = []
    for move, need in pairs:
        counts = codec.counts(need)
        taken = {c for c in counts if c}
        if len(taken) != 1:
            return None
        k = taken.pop()
        mask = sum(top << (i * FIELD) for i, c in enumerate(counts) if c)
        if runs and runs[-1][0] == k:
            runs[-1] = (k, runs[-1][1] | mask, [*runs[-1][2], (move, need)])
        else:
            runs.append((k, mask, [(move, need)]))
    every = range(len(codec.ranks))
    return tuple(
        _Segment(sum((top - k) << (i * FIELD) for i in every), mask, tuple(moves)) for k, mask, moves in runs
    )


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
class Game:
    """535 under `ruleset` with `players` players: deal, legal moves, apply."""

    #: Every variation point this engine plays, with its readings: the one place that says which
    #: readings exist. The loader refuses a spec that names any other; a subclass that implements a
    #: house rule declares `VOCABULARY = Game.VOCABULARY.extended({...})`.
    VOCABULARY: ClassVar[Vocabulary] = Vocabulary(
        points={
            "run_gaps": ("gaps_break", "gaps_skipped"),
            "run_wrap": ("no_wrap", "wrap"),
            "run_order": ("lower_beats", "higher_beats"),
            "five_player_copies": ("five_is_large", "five_is_small"),
            "five_player_set_close": ("five_is_large", "five_is_small"),
            "add_to_single": ("allowed", "not_allowed"),
            "add_run_ends": ("either_end", "top_end"),
            "add_past_closing": ("capped", "overflow"),
            "add_count": ("turn_limit", "any_number"),
            "eight_forms": ("any_eight", "listed_forms"),
            "eight_on_add": ("adds_trigger", "plays_only"),
            "eight_exemption": ("whole_trick", "opening_play"),
            "eight_rank": ("by_number", "strongest"),
            "deal": ("table", "deal_all"),
            "first_leader": ("drawn", "seat_0"),
            "round_leader": ("went_out", "next_seat"),
            "turn_order": ("ascending_seats", "descending_seats"),
        },
        parameters=PARAMETERS,
    )

    #: The public hooks a variant may override (the list above, in its order): the one place that
    #: names them; the variants' and mutants' contracts and the words file's decisions read it here.
    HOOKS: ClassVar[tuple[str, ...]] = ENGINE_HOOKS

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.VOCABULARY.require(type(self).__name__, ruleset.readings)
        ruleset.check_players(players)
        self.ruleset = ruleset
        self.players = players
        self.codec = CardCodec(ruleset.ranks)
        self.copies = self.deck_copies()
        if self.copies > MAX_COPIES:
            raise SpecError("parameters.copies", f"at most {MAX_COPIES} copies of a rank are supported")
        self.set_closing_size = ruleset.set_closing_size(players)
        self.run_closing_size = ruleset.run_closing_size
        # A lead or an overwrite places up to the turn's limit; an add up to add_count's.
        self.turn_cards = ruleset.max_cards_per_turn
        self.add_cards = self.turn_cards
        if ruleset.reading("add_count") == "any_number":
            # As many as a pile takes before it ends the trick: one fewer than its closing size.
            largest = max(ruleset.run_closing_size, ruleset.set_closing_large)
            self.add_cards = max(self.turn_cards, largest - 1)
        self.max_cards = max(self.turn_cards, self.add_cards)
        self.points = ruleset.points
        r = ruleset.reading
        self.gaps_skipped = r("run_gaps") == "gaps_skipped"
        self.wrap = r("run_wrap") == "wrap"
        self.lower_runs_beat = r("run_order") == "lower_beats"
        self.add_to_single = r("add_to_single") == "allowed"
        self.add_either_end = r("add_run_ends") == "either_end"
        self.capped = r("add_past_closing") == "capped"
        self.eight_listed_only = r("eight_forms") == "listed_forms"
        self.eight_on_add = r("eight_on_add") == "adds_trigger"
        self.exempt_whole_trick = r("eight_exemption") == "whole_trick"
        self.eight_strongest = r("eight_rank") == "strongest"
        self.descending_turns = r("turn_order") == "descending_seats"
        self.full_deck = self.codec.pack([rank for rank in ruleset.ranks for _ in range(self.copies)])
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
        self._nodes: dict[Pile | None, _Node] = {}
        self._node_ids: dict[int, _Node] = {}
        # The leads are built now, the answers to each pile when it is first met (as they always were).
        self._node(None)

    # ---- reading hooks -------------------------------------------------------------------------

    def follows(self, a: int, b: int) -> bool:
        """Whether rank b comes straight after rank a in a run (run_gaps, run_wrap)."""
        ranks = self.ruleset.ranks
        i = ranks.index(a)
        if i + 1 < len(ranks):
            nxt = ranks[i + 1]
            return b == nxt and (self.gaps_skipped or nxt == a + 1)
        return self.wrap and b == ranks[0]

    def strength(self, rank: int) -> int:
        """How strong a single or a set of this rank is (eight_rank)."""
        if self.eight_strongest and rank == EIGHT:
            return len(self.ruleset.ranks)
        return self.ruleset.ranks.index(rank)

    def beats(self, new: Pile, old: Pile) -> bool:
        """Whether `new` overwrites `old`: same kind and size, higher-ranked (run_order for runs)."""
        if new.kind != old.kind or new.size != old.size:
            return False
        if new.kind == "run":
            a, b = self.ruleset.ranks.index(new.cards[0]), self.ruleset.ranks.index(old.cards[0])
            return a < b if self.lower_runs_beat else a > b
        return self.strength(new.cards[0]) > self.strength(old.cards[0])

    def runs_from(self, start: int, length: int) -> tuple[int, ...] | None:
        """The run of `length` cards starting at `start`, or None where the succession breaks."""
        run = [start]
        while len(run) < length:
            ranks = self.ruleset.ranks
            i = ranks.index(run[-1])
            nxt = ranks[(i + 1) % len(ranks)]
            if not self.follows(run[-1], nxt) or nxt in run:
                return None
            run.append(nxt)
        return tuple(run)

    def closing_size(self, kind: str) -> int | None:
        """The size at which a pile of `kind` ends the trick (None: never by its size)."""
        if kind == "set":
            return self.set_closing_size
        if kind == "run":
            return self.run_closing_size
        return None

    def closes(self, pile: Pile, action: str) -> TrickEndReason | None:
        """Why placing `pile` (by `action`: lead, overwrite or add) ends the trick by its size, or
        None when it does not."""
        close = self.closing_size(pile.kind)
        if close is None or pile.size < close:
            return None
        return TrickEndReason.SET_CLOSED if pile.kind == "set" else TrickEndReason.RUN_CLOSED

    def add_limit(self, pile: Pile, kind: str) -> int | None:
        """The largest pile of `kind` an add onto `pile` may make (add_past_closing), or None when
        only the deck limits it."""
        return self.closing_size(kind) if self.capped else None

    def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        """Who wins a trick that ends for `reasons`: the last player to place cards in it."""
        for play in reversed(trick):
            if play.move.action != "pass":
                return play.player
        raise ValueError("a trick without a placing move has no winner")

    def rule_of_8(self, option: Option, state: State) -> bool:
        """Whether placing `option` is the Rule of 8 (eight_forms, eight_on_add, eight_exemption)."""
        return self._eight_play(option, state.pile is None) and not self._eight_exempt(state)

    # The Rule of 8 in two parts, each stated once: what the play must be, and the exemption that
    # depends on the trick. The fast path caches the first per placing move.
    def _eight_play(self, option: Option, leading: bool) -> bool:
        """Whether placing `option` is a Rule-of-8 play (eight_forms, eight_on_add), before the
        exemption: never a lead, whose 8 is the opening pile's."""
        if leading or (option.move.action == "add" and not self.eight_on_add):
            return False
        return option.listed_eight if self.eight_listed_only else option.has_eight

    def _eight_exempt(self, state: State) -> bool:
        """Whether the trick of `state` is exempt from the Rule of 8 (eight_exemption)."""
        return self.exempt_whole_trick and state.opening_has_eight

    def next_seat(self, seat: int) -> int:
        step = -1 if self.descending_turns else 1
        return (seat + step) % self.players

    def deck_copies(self) -> int:
        """Copies of each rank at this table (five_player_copies); `__init__` reads it once, so it
        sees only `ruleset` and `players`."""
        return self.ruleset.copies(self.players)

    def hand_size(self) -> int:
        """Cards dealt to each player (deal, parameters.hand_size); SpecError when the deck cannot
        supply them."""
        return self.ruleset.hand_size(self.players)

    def first_leader(self, draw: int) -> int:
        """Who leads round 1 (first_leader): `draw` is the seat drawn from the deal's generator."""
        return draw if self.ruleset.reading("first_leader") == "drawn" else 0

    def round_leader(self, state: State) -> int:
        """Who leads the round after the finished round `state` (round_leader): the player who
        went out (the finished round's player to move) or the seat after the round's leader."""
        if self.ruleset.reading("round_leader") == "went_out":
            return state.to_move
        return self.next_seat(state.round_leader)

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

    def placeable_piles(self) -> list[Pile]:
        """Every pile a lead or an overwrite can place: singles, sets and runs of up to
        max_cards_per_turn cards."""
        rs = self.ruleset
        piles: list[Pile] = []
        for rank in rs.ranks:
            piles.append(Pile("single", (rank,)))
        for size in range(rs.min_set_size, min(self.turn_cards, self.copies) + 1):
            piles.extend(Pile("set", (rank,) * size) for rank in rs.ranks)
        for size in range(rs.min_run_size, self.turn_cards + 1):
            for rank in rs.ranks:
                run = self.runs_from(rank, size)
                if run is not None:
                    piles.append(Pile("run", run))
        return piles

    def _build_lead_options(self) -> tuple[Option, ...]:
        return tuple(self._option("lead", p.cards, p) for p in self.placeable_piles())

    def _build_responses(self, pile: Pile) -> tuple[Option, ...]:
        options = [
            self._option("overwrite", p.cards, p) for p in self.placeable_piles() if self.beats(p, pile)
        ]
        options.extend(self._option("add", added, new) for added, new in self.add_options(pile))
        return tuple(options)

    def add_options(self, pile: Pile) -> list[tuple[tuple[int, ...], Pile]]:
        """Every add onto `pile`: the cards added and the pile they make (add_* readings)."""
        out: list[tuple[tuple[int, ...], Pile]] = []
        if pile.kind == "single" and not self.add_to_single:
            return out
        rank = pile.cards[0]
        if pile.kind in ("single", "set"):
            limit = self.add_limit(pile, "set")
            for k in range(1, self.add_cards + 1):
                size = pile.size + k
                if size > self.copies or (limit is not None and size > limit):
                    break
                if size >= self.ruleset.min_set_size:
                    out.append(((rank,) * k, Pile("set", (rank,) * size)))
        if pile.kind in ("single", "run"):
            limit = self.add_limit(pile, "run")
            for k in range(1, self.add_cards + 1):
                size = pile.size + k
                if size < self.ruleset.min_run_size:
                    continue
                if limit is not None and size > limit:
                    break
                below_choices = range(k + 1) if self.add_either_end else range(1)
                for below in below_choices:
                    run = self._extended_run(pile.cards, below, k - below)
                    if run is not None:
                        added = run[:below] + run[below + pile.size :]
                        out.append((added, Pile("run", run)))
        return out

    def _extended_run(self, core: tuple[int, ...], below: int, above: int) -> tuple[int, ...] | None:
        ranks = self.ruleset.ranks
        run = list(core)
        for _ in range(above):
            nxt = ranks[(ranks.index(run[-1]) + 1) % len(ranks)]
            if not self.follows(run[-1], nxt) or nxt in run:
                return None
            run.append(nxt)
        for _ in range(below):
            prev = ranks[(ranks.index(run[0]) - 1) % len(ranks)]
            if not self.follows(prev, run[0]) or prev in run:
                return None
            run.insert(0, prev)
        return tuple(run)

    def _node(self, pile: Pile | None) -> _Node:
        """The node of `pile`, built the first time the pile is met."""
        node = self._nodes.get(pile)
        if node is None:
            options = self._build_lead_options() if pile is None else self._build_responses(pile)
            entries: tuple[_Entry, ...] = ()
            if self._fast:
                entries = tuple(_Entry(self, o, leading=pile is None) for o in options)
                for entry in entries:
                    for play in entry.plays:
                        self._play_need[id(play)] = entry.need
            node = self._nodes[pile] = _Node(pile, options, entries, self.codec)
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
        if hand == 0:
            moved = step_state(
                state,
                new_hands,
                player,
                entry.pile,
                player,
                state.passed,
                opening_has_eight,
                trick,
                state.cleared,
            )
            return self._end_round(moved, player, () if ends is None else ends[player])
        if ends is not None:
            if self._own_trick_winner:
                winner = player
            else:
                winner = self.trick_winner(trick, entry.reasons_with_8 if fires else entry.reasons)
            ended = step_state(
                state,
                new_hands,
                winner,
                None,
                -1,
                0,
                False,
                (),
                state.cleared + self._trick_need(trick),
            )
            return ended, self._ends_for(ends, winner, entry.reasons_with_8 if fires else entry.reasons)
        return step_state(
            state,
            new_hands,
            self._next_after(player, state.passed),
            entry.pile,
            player,
            state.passed,
            opening_has_eight,
            trick,
            state.cleared,
        ), ()

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
            ended = step_state(
                state,
                state.hands,
                winner,
                None,
                -1,
                0,
                False,
                (),
                state.cleared + self._trick_need(trick),
            )
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

    def penalty(self, hand: int) -> int:
        """The points a hand left at the end of a round scores (a hook: variants may score otherwise)."""
        return sum(
            self.points[r] * n for r, n in zip(self.ruleset.ranks, self.codec.counts(hand), strict=True)
        )

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
        # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
        rng = random.Random(f"five35-deal:{seed}:{round_no}")
        deck = list(self._deck)
        shuffle(rng, deck)
        size = self.hand_size()
        if not 0 < size * self.players <= len(deck):
            # Only a hook that overrides deck_copies or hand_size gets here: the ruleset's own
            # hand size is checked against its own deck.
            raise SpecError(
                "parameters.hand_size", f"{self.players} hands of {size} from a deck of {len(deck)}"
            )
        hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(self.players)]
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
        if len(hands) != players:
            raise DealError("hands", f"{len(hands)} hands for {players} players")
        if type(leader) is not int or not 0 <= leader < players:
            raise DealError("leader", f"seat {leader!r} is not at the table (seats 0-{players - 1})")
        points: list[int] = []
        if scores is not None:
            if len(scores) != players:
                raise DealError("scores", f"{len(scores)} scores for {players} players")
            for seat, score in enumerate(scores):
                if type(score) is not int or score < 0:
                    raise DealError(f"scores[{seat}]", f"expected a natural number, got {score!r}")
                points.append(score)
        packed = self._pack_deal(hands)
        if packed is None:
            packed = self._checked_deal(hands)
        dealt = sum(packed)
        return new_state(
            players,
            tuple(packed),
            leader,
            None,
            -1,
            0,
            False,
            (),
            0,
            self.full_deck - dealt,
            tuple(points) if scores is not None else (0,) * players,
            round_no,
            leader,
            "play",
            seed,
        )

    def _pack_deal(self, hands: Sequence[Sequence[object]]) -> list[int] | None:
        """The packed hands of a deal this engine can play, or None when anything is wrong with it
        (then `_checked_deal` finds the first fault and names it). Every card must be an int of the
        deck, and the deck must hold every hand after the ones before it (so no rank exceeds its
        copies in a hand or in all of them): one packed subtraction per hand."""
        unit = self._units
        guard = self._guard
        room = self.full_deck
        packed = []
        for hand in hands:
            # Under 16 cards no rank's field can carry into the next one's.
            if not hand or len(hand) >= 1 << FIELD:
                return None
            held = 0
            for card in hand:
                step = unit.get(card) if type(card) is int else None
                if step is None:
                    return None
                held += step
            if held & guard or ((room | guard) - held) & guard != guard:
                return None
            room -= held
            packed.append(held)
        return packed

    def _checked_deal(self, hands: Sequence[Sequence[object]]) -> list[int]:
        """The packed hands, checked card by card: DealError naming the first fault."""
        copies = self.copies
        ranks = self.codec.index
        total: Counter[int] = Counter()
        packed = []
        for seat, hand in enumerate(hands):
            if not hand:
                raise DealError(f"hands[{seat}]", "the hand is empty (every player holds a card)")
            cards: list[int] = []
            for card in hand:
                if type(card) is not int or card not in ranks:
                    raise DealError(
                        f"hands[{seat}]",
                        f"{card!r} is not a rank of the deck ({ranks_text(self.ruleset.ranks)})",
                    )
                cards.append(card)
            held = Counter(cards)
            for rank, count in sorted(held.items()):
                if count > copies:
                    raise DealError(f"hands[{seat}]", f"{count} cards of rank {rank}, the deck has {copies}")
            total.update(held)
            packed.append(self.codec.pack(cards))
        for rank, count in sorted(total.items()):
            if count > copies:
                raise DealError("hands", f"{count} cards of rank {rank} in all, the deck has {copies}")
        return packed

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
