"""The values the compiled rules (rulecompile.py) compute with: ranks, piles, cards, tables and
records, each held as the Z3 model (z3model.py) represents it; and `ModelOps`, what the compiled
closures ask of a model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: The rank whose presence in the opening pile a situation records (the engine's State has
#: `opening_has_eight`; "Regel der 8", clause eight.heading).
EIGHT = 8


class Rank:
    """A rank: its index in the rank list (-1: a number that is no rank of the deck) and its
    number. `exact` says the index is one of the deck's (so equal indices are equal ranks); a
    rank computed by arithmetic knows only its number, and its index is looked up when asked."""

    __slots__ = ("_index", "_m", "exact", "value")

    def __init__(self, m: ModelOps, index: Any, value: Any, exact: bool) -> None:
        self._m = m
        self._index = index
        self.value = value
        self.exact = exact

    @property
    def index(self) -> Any:
        if self._index is None:
            self._index = self._m.index_of(self.value)
        return self._index


class ModelOps(Protocol):
    """What the compiled closures ask of a model. z3model.Model provides it; the compiler is typed
    against this shape so that it depends on no model, and the model, which builds compilers, on it."""

    # Read-only here, so that a model may hold narrower types (a tuple of ranks, its own algebra).
    @property
    def A(self) -> Any: ...  # the algebra: Python values or Z3 terms
    @property
    def p(self) -> Any: ...  # the parameters and rules the model was built from
    @property
    def R(self) -> int: ...  # the number of ranks
    @property
    def maxn(self) -> int: ...
    @property
    def values(self) -> Sequence[int]: ...

    def idx(self, x: Any) -> Any: ...
    def succ(self, i: Any) -> Any: ...
    def rank_at(self, i: Any) -> Rank: ...
    def rank_of_value(self, v: Any) -> Rank: ...
    def follows_ranks(self, a: Rank, b: Rank) -> Any: ...
    def run_ok(self, low: Any, n: Any) -> Any: ...
    def strength(self, r: Any) -> Any: ...
    def same_kind(self, kind: Any) -> Any: ...
    def closes_at(self, kind: Any, players: Any) -> Any: ...
    def beats_piles(self, new: Any, old: Any, players: Any) -> Any: ...
    def is_cards(self, k: int, p: Sequence[Any], expected: Sequence[Any]) -> Any: ...
    def next_seat(self, seat: Any, players: Any) -> Any: ...
    def index_of(self, value: Any) -> Any: ...


@dataclass(frozen=True)
class PileV:
    """A pile in the model's representation: kind code (0: no pile), first card's index, size."""

    kind: Any
    low: Any
    size: Any


@dataclass(frozen=True)
class OpeningPile:
    """The trick's opening pile once the lead is made: known by whether it holds an 8."""

    has_eight: Any


@dataclass(frozen=True)
class CondPile:
    """`then` where `cond` holds, else `other` (a pile of one kind of value or the other)."""

    cond: Any
    then: Any
    other: Any


Piles = PileV | OpeningPile | CondPile


class Cards:
    """Cards as the rules see them (a tuple in the interpreter: runs in chain order, else sorted)."""


@dataclass(frozen=True)
class LitCards(Cards):
    ranks: tuple[Rank, ...]


@dataclass(frozen=True)
class Placed(Cards):
    """The cards a move places: rank indices p (sorted; positions past k repeat the last), k of them."""

    p: tuple[Any, ...]
    k: Any


@dataclass(frozen=True)
class PileCards(Cards):
    pile: PileV


@dataclass(frozen=True)
class OpeningCards(Cards):
    has_eight: Any


@dataclass(frozen=True)
class IteCards(Cards):
    cond: Any
    then: Cards
    other: Cards


@dataclass(frozen=True)
class Table:
    entries: Mapping[int, Any]


@dataclass(frozen=True)
class Record:
    fields: Mapping[str, Any]


# Kinds of pile, by what their `cards` part requires.
SAME, ONE, CHAIN = "same", "one", "chain"
