"""The reference engine's readings, as hooks: `GameHooks` reads the ruleset's choice of every
variation point once, and answers the questions play asks of it; `Game` (engine/game.py) plays by it.

Readings are hooks on `Game` (python-chess style): each reads the ruleset's choice. Everything that
depends only on the ruleset (the rank succession, every pile a turn can place, every answer to a
given central pile) is computed once per Game and cached, so a step costs a few integer operations.

A variant (a house rule, or the other side of a finding the checks measure) is a subclass of `Game`
(and so of `GameHooks`) that overrides some of these public hooks (`Game.HOOKS`) and nothing else:

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
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..spec import Ruleset, SpecError
from ..spec.vocabulary import ENGINE_HOOKS, PARAMETERS, Vocabulary
from . import _docstrings
from .cards import MAX_COPIES, CardCodec
from .options import EIGHT, Option
from .state import Pile, Play, State, TrickEndReason

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - installed without mypy_extensions: no compiler to tell

    def mypyc_attr(*args: object, **kwargs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


# Compiled by mypyc, GameHooks is a native class, and so is Game, its subclass; variants and tests
# subclass Game in Python, and their overrides of these hooks are called through Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class GameHooks:
    """535's readings under `ruleset` with `players` players, as the hooks a variant overrides."""

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

    def penalty(self, hand: int) -> int:
        """The points a hand left at the end of a round scores (a hook: variants may score otherwise)."""
        return sum(
            self.points[r] * n for r, n in zip(self.ruleset.ranks, self.codec.counts(hand), strict=True)
        )


__all__ = ["GameHooks", "mypyc_attr"]

# Last: every class is defined.
_docstrings.restore(globals())
