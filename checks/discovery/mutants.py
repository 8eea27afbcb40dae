"""Engine mutants: the reference engine with one small, named change in one public hook.

Each mutant is a module-level `Game` subclass made here at import, in a fixed order, so that a
worker process imports it by name (`findings.engine_label`: this module and the class name) and the
same names always mean the same change. A mutant overrides exactly one public hook that
`five35.engine.hooks` lists for variants, and calls Game's own hook for everything it leaves alone.

The mutants come from generic operators over each hook's inputs and outputs: flip a comparison,
drop or add a condition on an input feature (the pile is a single, the add extends below, the
action is an add, the opening pile held an 8, the table has p players), swap an order, move a bound
by one (per kind, per player count), split moves, change who acts next, change what an event
reports. The features come from the data alone: the ranks of the embedded spec's deck, the three
pile kinds, the player counts it allows, the trick-end reasons. Nothing here reads the variation
points or the engine's vocabulary of readings, so hiding a point can never change a mutant.

Operators that could make play endless are not generated: a seat order that is not one cycle (a
turn that skips a seat at an even table loops on the seats it never reaches) and a penalty that can
score 0 (a match that never ends).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import yaml

from ...engine import TRICK_END_REASONS, Game, Pile, Play, State, TrickEndReason
from ...engine.options import Option
from ...spec import embedded_spec_path

#: The hooks a mutant may change, in the order they are generated: every public hook the engine
#: declares.
HOOKS: tuple[str, ...] = Game.HOOKS

KINDS: tuple[str, ...] = ("single", "set", "run")
ACTIONS: tuple[str, ...] = ("lead", "overwrite", "add")


@dataclass(frozen=True)
class MutantInfo:
    """What a mutant changes: its stable name, the hook, the operator (the words file's
    `mutations` entry that describes it) and the values its description is filled with."""

    name: str
    hook: str
    operator: str
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def values(self) -> dict[str, str]:
        return dict(self.fields)


class Mutant(Game):
    """The base of every mutant class (never itself a mutant)."""

    INFO: ClassVar[MutantInfo]


def _class_name(name: str) -> str:
    return "M_" + "".join(c if c.isalnum() else "_" for c in name)


#: Every mutant by its name, in generation order.
MUTANTS: dict[str, type[Mutant]] = {}


@dataclass(frozen=True)
class Feature:
    """A data part of a mutant's name (a pile kind, an action, a trick-end reason, a player count,
    a rank): written into the name as `prefix` and the value, and a blank of the words file's
    description of the operator (kind, made: the second kind, action, reason, players, rank)."""

    blank: str
    value: str
    prefix: str = ""

    @property
    def text(self) -> str:
        return f"{self.prefix}{self.value}"


def _kind(kind: str) -> Feature:
    return Feature("kind", kind)


def _action(action: str) -> Feature:
    return Feature("action", action)


def _reason(reason: TrickEndReason) -> Feature:
    return Feature("reason", reason.value)


def _players(players: int) -> Feature:
    return Feature("players", str(players), "p")


def _rank(rank: int) -> Feature:
    return Feature("rank", str(rank), "r")


def _add(method: Callable[..., Any], hook: str, *parts: str | Feature) -> None:
    """Make the mutant class that overrides `hook` with `method`, named by the hook and `parts`:
    the operator is the parts with each feature named by its blank (a second kind is the kind a
    play makes, `made`), and the features' values fill the description's blanks."""
    name = ".".join([hook, *(p.text if isinstance(p, Feature) else p for p in parts)])
    if name in MUTANTS:
        raise ValueError(f"mutant {name} generated twice")
    if hook not in HOOKS:
        raise ValueError(f"mutant {name}: {hook} is not a hook")
    operator: list[str] = []
    fields: list[tuple[str, str]] = []
    for part in parts:
        if isinstance(part, str):
            operator.append(part)
            continue
        blank = "made" if part.blank == "kind" and any(k == "kind" for k, _ in fields) else part.blank
        fields.append((blank, part.value))
        operator.append(blank)
    info = MutantInfo(name, hook, "_".join(operator), tuple(fields))
    cls_name = _class_name(name)
    method.__name__ = hook
    method.__qualname__ = f"{cls_name}.{hook}"
    cls = type(cls_name, (Mutant,), {hook: method, "INFO": info, "__module__": __name__, "__doc__": name})
    cls.__qualname__ = cls_name
    globals()[cls_name] = cls
    MUTANTS[name] = cls


# ---- the data the features come from --------------------------------------------------------------


def _embedded_parameters() -> dict[str, Any]:
    """The embedded spec's parameters, read from the file alone (no words, no validation beyond
    what the loader does elsewhere): the deck and the player counts are all a mutant needs."""
    data = yaml.safe_load(embedded_spec_path().read_text(encoding="utf-8"))
    return {name: entry["value"] for name, entry in data["parameters"].items()}


_PARAMETERS = _embedded_parameters()
_RANKS: tuple[int, ...] = tuple(sorted(_PARAMETERS["ranks"]))
_PLAYERS: tuple[int, ...] = tuple(range(_PARAMETERS["players"]["min"], _PARAMETERS["players"]["max"] + 1))
#: A number's off-by-one mutants: the step and the word in the mutant's name.
_STEPS: tuple[tuple[int, str], ...] = ((-1, "minus1"), (1, "plus1"))


def _steps_per_table() -> Iterator[tuple[int, int, str]]:
    """(players, step, word): the off-by-one mutants of a number that depends on the table size,
    one table size at a time."""
    for players in _PLAYERS:
        for step, word in _STEPS:
            yield players, step, word


def _next_in_deck(game: Game, a: int) -> int | None:
    ranks = game.ruleset.ranks
    i = ranks.index(a)
    return ranks[i + 1] if i + 1 < len(ranks) else None


def _wraps(game: Game, a: int, b: int) -> bool:
    ranks = game.ruleset.ranks
    return a == ranks[-1] and b == ranks[0]


# ---- follows(a, b) ---------------------------------------------------------------------------------


def _follows() -> None:
    def any_next(self: Game, a: int, b: int) -> bool:
        return Game.follows(self, a, b) or _next_in_deck(self, a) == b

    def consecutive(self: Game, a: int, b: int) -> bool:
        return Game.follows(self, a, b) and b == a + 1

    def wrap(self: Game, a: int, b: int) -> bool:
        return Game.follows(self, a, b) or _wraps(self, a, b)

    def no_wrap(self: Game, a: int, b: int) -> bool:
        return Game.follows(self, a, b) and not _wraps(self, a, b)

    def flip(self: Game, a: int, b: int) -> bool:
        return Game.follows(self, b, a)

    _add(any_next, "follows", "any_next")
    _add(consecutive, "follows", "consecutive")
    _add(wrap, "follows", "wrap")
    _add(no_wrap, "follows", "no_wrap")
    _add(flip, "follows", "flip")


# ---- strength(rank) --------------------------------------------------------------------------------


def _promote(rank: int) -> Callable[..., Any]:
    def promote(self: Game, r: int) -> int:
        return len(self.ruleset.ranks) if r == rank else Game.strength(self, r)

    return promote


def _strength() -> None:
    def flip(self: Game, rank: int) -> int:
        return -Game.strength(self, rank)

    for rank in _RANKS:
        _add(_promote(rank), "strength", _rank(rank), "strongest")
    _add(flip, "strength", "flip")


# ---- beats(new, old) -------------------------------------------------------------------------------


def _beats_flip(kind: str) -> Callable[..., Any]:
    def flip(self: Game, new: Pile, old: Pile) -> bool:
        if new.kind == kind:
            return Game.beats(self, old, new)
        return Game.beats(self, new, old)

    return flip


def _beats_or_equal(kind: str) -> Callable[..., Any]:
    def or_equal(self: Game, new: Pile, old: Pile) -> bool:
        same = new.kind == old.kind == kind and new.size == old.size and new.cards[0] == old.cards[0]
        return same or Game.beats(self, new, old)

    return or_equal


def _beats_any_size(kind: str) -> Callable[..., Any]:
    def any_size(self: Game, new: Pile, old: Pile) -> bool:
        if new.kind == old.kind == kind and new.size != old.size:
            cards = (old.cards[0],) * new.size if kind == "set" else self.runs_from(old.cards[0], new.size)
            return cards is not None and Game.beats(self, new, Pile(kind, cards))
        return Game.beats(self, new, old)

    return any_size


def _beats() -> None:
    for kind in KINDS:
        _add(_beats_flip(kind), "beats", _kind(kind), "flip")
    for kind in KINDS:
        _add(_beats_or_equal(kind), "beats", _kind(kind), "or_equal")
    for kind in ("set", "run"):
        _add(_beats_any_size(kind), "beats", _kind(kind), "any_size")


# ---- closing_size(kind) ----------------------------------------------------------------------------


def _closing_bound(kind: str, players: int, step: int) -> Callable[..., Any]:
    def bound(self: Game, k: str) -> int | None:
        size = Game.closing_size(self, k)
        if size is None or k != kind or self.players != players:
            return size
        return size + step

    return bound


def _closing_size() -> None:
    for kind in ("set", "run"):
        for players, step, word in _steps_per_table():
            _add(_closing_bound(kind, players, step), "closing_size", _kind(kind), _players(players), word)


# ---- closes(pile, action) --------------------------------------------------------------------------


def _closes_drop(action: str) -> Callable[..., Any]:
    def drop(self: Game, pile: Pile, a: str) -> TrickEndReason | None:
        return None if a == action else Game.closes(self, pile, a)

    return drop


_SWAPPED = {
    TrickEndReason.SET_CLOSED: TrickEndReason.RUN_CLOSED,
    TrickEndReason.RUN_CLOSED: TrickEndReason.SET_CLOSED,
}


def _closes() -> None:
    def swap(self: Game, pile: Pile, action: str) -> TrickEndReason | None:
        reason = Game.closes(self, pile, action)
        return None if reason is None else _SWAPPED.get(reason, reason)

    for action in ACTIONS:
        _add(_closes_drop(action), "closes", _action(action), "drop")
    _add(swap, "closes", "reason", "swap")


# ---- add_limit(pile, kind) -------------------------------------------------------------------------


def _limit(kind: str | None, step: int | None) -> Callable[..., Any]:
    def limit(self: Game, pile: Pile, k: str) -> int | None:
        size = Game.add_limit(self, pile, k)
        if kind is not None and k != kind:
            return size
        if step is None or size is None:
            return None
        return size + step

    return limit


def _add_limit() -> None:
    _add(_limit(None, None), "add_limit", "drop")
    for kind in ("set", "run"):
        _add(_limit(kind, None), "add_limit", _kind(kind), "drop")
        for step, word in _STEPS:
            _add(_limit(kind, step), "add_limit", _kind(kind), word)


# ---- add_options(pile) -----------------------------------------------------------------------------

AddList = list[tuple[tuple[int, ...], Pile]]


def _adds_filtered(keep: Callable[[Game, Pile, tuple[int, ...], Pile], bool]) -> Callable[..., Any]:
    def filtered(self: Game, pile: Pile) -> AddList:
        return [(added, new) for added, new in Game.add_options(self, pile) if keep(self, pile, added, new)]

    return filtered


def _below(pile: Pile, new: Pile) -> bool:
    """The add places cards before the pile's first card in the run."""
    return new.kind == "run" and new.cards[0] != pile.cards[0]


def _above(pile: Pile, new: Pile) -> bool:
    return new.kind == "run" and new.cards[-1] != pile.cards[-1]


def _adds_below(self: Game, pile: Pile) -> AddList:
    """Game's adds, and every add that extends a single or run below its first card (as far as the
    succession and the limits allow)."""
    out = Game.add_options(self, pile)
    if pile.kind not in ("single", "run"):
        return out
    have = {new for _, new in out}
    limit = self.add_limit(pile, "run")
    for k in range(1, self.add_cards + 1):
        size = pile.size + k
        if size < self.ruleset.min_run_size or (limit is not None and size > limit):
            continue
        for start in self.ruleset.ranks:
            run = self.runs_from(start, size)
            if run is None:
                continue
            for at in range(1, k + 1):
                if run[at : at + pile.size] == pile.cards:
                    new = Pile("run", run)
                    if new not in have:
                        have.add(new)
                        out.append((run[:at] + run[at + pile.size :], new))
    return out


def _add_options() -> None:
    _add(_adds_filtered(lambda g, p, a, n: p.kind != "single"), "add_options", _kind("single"), "drop")
    for made in ("set", "run"):
        _add(
            _adds_filtered(lambda g, p, a, n, made=made: not (p.kind == "single" and n.kind == made)),  # type: ignore[misc]
            "add_options",
            _kind("single"),
            _kind(made),
            "drop",
        )
    for kind in ("set", "run"):
        _add(
            _adds_filtered(lambda g, p, a, n, kind=kind: p.kind != kind),  # type: ignore[misc]
            "add_options",
            _kind(kind),
            "drop",
        )
    _add(_adds_filtered(lambda g, p, a, n: not _below(p, n)), "add_options", "below", "drop")
    _add(_adds_filtered(lambda g, p, a, n: not _above(p, n)), "add_options", "above", "drop")
    _add(_adds_below, "add_options", "below", "allow")
    _add(_adds_filtered(lambda g, p, a, n: len(a) == 1), "add_options", "split")
    for step, word in _STEPS:
        _add(_adds_counted(step), "add_options", "count", word)


def _adds_counted(step: int) -> Callable[..., Any]:
    """Game's adds with the most cards one add places moved by `step` (add_count's bound)."""

    def counted(self: Game, pile: Pile) -> AddList:
        before = self.add_cards
        self.add_cards = max(1, before + step)
        try:
            return Game.add_options(self, pile)
        finally:
            # The bound is the engine's own, read by add_options alone: restored before any
            # other hook runs.
            self.add_cards = before

    return counted


# ---- rule_of_8(option, state) ----------------------------------------------------------------------


def _rule_of_8() -> None:
    def add_drop(self: Game, option: Option, state: State) -> bool:
        return option.move.action != "add" and Game.rule_of_8(self, option, state)

    def opening_drop(self: Game, option: Option, state: State) -> bool:
        return Game.rule_of_8(self, option, replace(state, opening_has_eight=False))

    def listed_add(self: Game, option: Option, state: State) -> bool:
        return option.listed_eight and Game.rule_of_8(self, option, state)

    def listed_drop(self: Game, option: Option, state: State) -> bool:
        return Game.rule_of_8(self, option._replace(listed_eight=option.has_eight), state)

    def lead_add(self: Game, option: Option, state: State) -> bool:
        return (state.pile is None and option.has_eight) or Game.rule_of_8(self, option, state)

    def negate(self: Game, option: Option, state: State) -> bool:
        return state.pile is not None and not Game.rule_of_8(self, option, state)

    _add(add_drop, "rule_of_8", _action("add"), "drop")
    _add(opening_drop, "rule_of_8", "opening8", "drop")
    _add(listed_add, "rule_of_8", "listed", "require")
    _add(listed_drop, "rule_of_8", "listed", "drop")
    _add(lead_add, "rule_of_8", _action("lead"), "fires")
    for kind in KINDS:

        def kind_drop(self: Game, option: Option, state: State, kind: str = kind) -> bool:
            return option.pile.kind != kind and Game.rule_of_8(self, option, state)

        _add(kind_drop, "rule_of_8", _kind(kind), "drop")
    _add(negate, "rule_of_8", "negate")


# ---- trick_winner(trick, reasons) ------------------------------------------------------------------


def _first_placer(reason: TrickEndReason) -> Callable[..., Any]:
    def first(self: Game, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        if reason in reasons:
            for play in trick:
                if play.move.action != "pass":
                    return play.player
        return Game.trick_winner(self, trick, reasons)

    return first


def _after_winner(reason: TrickEndReason) -> Callable[..., Any]:
    def after(self: Game, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        winner = Game.trick_winner(self, trick, reasons)
        return self.next_seat(winner) if reason in reasons else winner

    return after


def _trick_winner() -> None:
    for reason in TRICK_END_REASONS:
        _add(_first_placer(reason), "trick_winner", _reason(reason), "first_placer")
        _add(_after_winner(reason), "trick_winner", _reason(reason), "next_seat")


# ---- next_seat(seat) -------------------------------------------------------------------------------


def _next_seat() -> None:
    def reverse(self: Game, seat: int) -> int:
        return (2 * seat - Game.next_seat(self, seat)) % self.players

    _add(reverse, "next_seat", "reverse")
    for players in _PLAYERS:
        # Two seats on is one cycle through every seat only at an odd table, and at 3 seats it is the
        # other direction: from 5 seats.
        if players >= 5 and players % 2 == 1:

            def skip(self: Game, seat: int, players: int = players) -> int:
                nxt = Game.next_seat(self, seat)
                return Game.next_seat(self, nxt) if self.players == players else nxt

            _add(skip, "next_seat", _players(players), "skip")


# ---- penalty(hand) ---------------------------------------------------------------------------------


def _penalty_plus(rank: int) -> Callable[..., Any]:
    def plus(self: Game, hand: int) -> int:
        base = Game.penalty(self, hand)
        if rank not in self.codec.index:
            return base
        return base + self.codec.counts(hand)[self.ruleset.ranks.index(rank)]

    return plus


def _penalty() -> None:
    def cards(self: Game, hand: int) -> int:
        return self.codec.size(hand)

    _add(cards, "penalty", "cards")
    for rank in _RANKS:
        _add(_penalty_plus(rank), "penalty", _rank(rank), "plus1")


# ---- deck_copies(), hand_size() --------------------------------------------------------------------


def _per_players(hook: str, players: int, step: int) -> Callable[..., Any]:
    base = getattr(Game, hook)

    def changed(self: Game) -> int:
        value: int = base(self)
        return max(1, value + step) if self.players == players else value

    return changed


def _deal() -> None:
    for hook in ("deck_copies", "hand_size"):
        for players, step, word in _steps_per_table():
            _add(_per_players(hook, players, step), hook, _players(players), word)

    def deal_all(self: Game) -> int:
        return self.copies * len(self.ruleset.ranks) // self.players

    _add(deal_all, "hand_size", "all")


# ---- first_leader(draw), round_leader(state) -------------------------------------------------------


def _leaders() -> None:
    def seat_0(self: Game, draw: int) -> int:
        return 0

    def drawn(self: Game, draw: int) -> int:
        return draw

    def after_drawn(self: Game, draw: int) -> int:
        return self.next_seat(Game.first_leader(self, draw))

    _add(seat_0, "first_leader", "seat_0")
    _add(drawn, "first_leader", "drawn")
    _add(after_drawn, "first_leader", "next_seat")

    def after_leader(self: Game, state: State) -> int:
        return self.next_seat(state.round_leader)

    def went_out(self: Game, state: State) -> int:
        return state.to_move

    def after_went_out(self: Game, state: State) -> int:
        return self.next_seat(state.to_move)

    def same(self: Game, state: State) -> int:
        return state.round_leader

    def most_points(self: Game, state: State) -> int:
        return state.scores.index(max(state.scores))

    for name, method in (
        ("after_leader", after_leader),
        ("went_out", went_out),
        ("after_went_out", after_went_out),
        ("same_leader", same),
        ("most_points", most_points),
    ):
        _add(method, "round_leader", name)


for _generate in (
    _follows,
    _strength,
    _beats,
    _closing_size,
    _closes,
    _add_limit,
    _add_options,
    _rule_of_8,
    _trick_winner,
    _next_seat,
    _penalty,
    _deal,
    _leaders,
):
    _generate()


def mutant(name: str) -> type[Mutant]:
    """The mutant class of a name; KeyError naming the name for an unknown one."""
    try:
        return MUTANTS[name]
    except KeyError:
        raise KeyError(f"unknown mutant {name!r}") from None
