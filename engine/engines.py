"""Which engine plays a ruleset, and the state API every engine offers.

The reference engine (`Game`, engine/game.py) is written by hand: fast, and independent of the
spec's rules, which is what lets the checks hold one to the other. It implements the rules of the
embedded spec under every reading its `VOCABULARY` declares. Any other ruleset (a house rule stated
in a spec copy's rules, a reading the reference does not declare, another game) is played by the
spec interpreter (engine/interpreter.py), which plays whatever the rules say. `make_engine` picks;
`engine_name` says which, so that every output can say who played; nothing plays a reading as
another. Why the reference does not play a ruleset is a fact (`ReferenceLacks`), worded from the
words file's `engines` section where it is printed (`lacks_words`, `engine_note`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, Protocol

from ..spec import Ruleset, embedded_spec
from ..spec.lang.rulebook import rules_digest
from ..spec.words_model import EngineWords
from .game import Game
from .interpreter import NAME as INTERPRETER
from .interpreter import SpecEngine
from .state import Event, Move, Pile, Position, State

REFERENCE = "the reference engine"


class Engine(Protocol):
    """The state API bots, simulate, the protocol server and the fuzzer use (OpenSpiel-like)."""

    @property
    def players(self) -> int: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def copies(self) -> int: ...
    @property
    def max_cards(self) -> int: ...
    @property
    def points(self) -> dict[int, int]: ...
    @property
    def codec(self) -> Any: ...
    @property
    def full_deck(self) -> int: ...

    def legal_moves(self, state: State) -> tuple[Move, ...]: ...
    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]: ...
    def ends_trick(self, state: State, move: Move) -> bool: ...
    def option(self, state: State, move: Move) -> Any: ...
    def closing_size(self, kind: str) -> int | None: ...
    def new_match(self, seed: int) -> State: ...
    def next_round(self, state: State) -> State: ...
    def start_round(
        self,
        hands: Sequence[Sequence[object]],
        leader: object,
        scores: Sequence[object] | None = None,
        *,
        round_no: int = 1,
        seed: int = 0,
    ) -> State: ...
    def play_from(self, position: Position) -> State: ...
    def hand(self, state: State, player: int) -> list[int]: ...
    def to_json(self, state: State) -> dict[str, Any]: ...
    def from_json(self, data: dict[str, Any]) -> State: ...
    def returns(self, state: State) -> tuple[int, ...]: ...
    def placeable_piles(self) -> list[Pile]: ...
    def placing_moves(self, pile: Pile | None) -> tuple[Move, ...]: ...
    def follows(self, a: int, b: int) -> bool: ...
    def beats(self, new: Pile, old: Pile) -> bool: ...
    def next_seat(self, seat: int) -> int: ...


def _embedded_book() -> Any:
    return embedded_spec().rulebook


class RulesApart(NamedTuple):
    """How the rules in force of a ruleset stand apart from the embedded spec's under the same
    readings, by rule id, in the rules' order."""

    changed: tuple[str, ...]
    missing: tuple[str, ...]
    added: tuple[str, ...]

    def among(self, rule_ids: Iterable[str]) -> list[str]:
        """Which of `rule_ids` are stated otherwise, left out or added."""
        apart = {*self.changed, *self.missing, *self.added}
        return [i for i in rule_ids if i in apart]


NOTHING_APART = RulesApart((), (), ())  # rules in force just as the embedded spec's


@cache
def rules_apart(ruleset: Ruleset) -> RulesApart:
    """The one comparison of a ruleset's rules with the embedded spec's (by a digest of each rule's
    tree): which engine plays, and which of the checks' hand-stated premises still hold, read it."""
    book = _embedded_book()
    known = {r.id: rules_digest((r,)) for r in book.effective(ruleset.readings)} if book else {}
    ours = {r.id: rules_digest((r,)) for r in ruleset.rules}
    return RulesApart(
        changed=tuple(i for i in ours if i in known and ours[i] != known[i]),
        missing=tuple(i for i in known if i not in ours),
        added=tuple(i for i in ours if i not in known),
    )


@dataclass(frozen=True)
class ReferenceLacks:
    """Why the reference engine cannot play a ruleset, the first of these that holds: a reading it
    does not declare (`reading`, point and reading), no rules in the embedded spec (`no_rules`),
    rules in force apart from the embedded spec's (`apart`), or variation points the ruleset
    chooses no reading of (`unchosen`)."""

    reading: tuple[str, str] | None = None
    no_rules: bool = False
    apart: RulesApart = NOTHING_APART
    unchosen: tuple[str, ...] = ()


@cache
def reference_lacks(ruleset: Ruleset) -> ReferenceLacks | None:
    """Why the reference engine cannot play `ruleset` (None: it can): rules in force that differ
    from the embedded spec's under the same readings, or a reading it does not declare."""
    vocabulary = Game.VOCABULARY
    for point, reading in sorted(ruleset.readings.items()):
        if not vocabulary.implements(point, reading):
            return ReferenceLacks(reading=(point, reading))
    if _embedded_book() is None:  # pragma: no cover - the embedded spec always has rules
        return ReferenceLacks(no_rules=True)
    apart = rules_apart(ruleset)
    if any(apart):
        return ReferenceLacks(apart=apart)
    absent = sorted(set(Game.VOCABULARY.points) - set(ruleset.readings))
    if absent:
        return ReferenceLacks(unchosen=tuple(absent))
    return None


def lacks_words(lacks: ReferenceLacks, say: EngineWords) -> str:
    """Why the reference engine does not play a ruleset, in the words file's `engines` words."""
    if lacks.reading is not None:
        return say("no_reading", point=lacks.reading[0], reading=lacks.reading[1])
    if lacks.no_rules:
        return say("no_rules")
    parts = [
        say(f"{which}_one" if len(ids) == 1 else f"{which}_many", rules=", ".join(ids))
        for which, ids in zip(("changed", "missing", "added"), lacks.apart, strict=True)
        if ids
    ]
    if parts:
        return say("apart_joint").join(parts)
    return say("unchosen", points=", ".join(lacks.unchosen))


def engine_for(ruleset: Ruleset) -> type[Game] | type[SpecEngine]:
    """The class of the engine that plays `ruleset` (module-level, so a worker process can import
    it): the reference where it implements the rules in force, the spec interpreter elsewhere."""
    return Game if reference_lacks(ruleset) is None else SpecEngine


def make_engine(ruleset: Ruleset, players: int) -> Engine:
    """The engine that plays `ruleset`: the reference where it implements the rules in force,
    the spec interpreter elsewhere."""
    if reference_lacks(ruleset) is None:
        return Game(ruleset, players)
    return SpecEngine(ruleset, players)


def engine_name(ruleset: Ruleset) -> str:
    """Which engine plays `ruleset`, in the words the outputs use."""
    return REFERENCE if reference_lacks(ruleset) is None else INTERPRETER


def engine_note(ruleset: Ruleset, say: EngineWords) -> str:
    """One line for an output: which engine played, and why where it is the interpreter."""
    lacks = reference_lacks(ruleset)
    if lacks is None:
        return say("played_by", engine=REFERENCE)
    return say("played_by_other", interpreter=INTERPRETER, reference=REFERENCE, why=lacks_words(lacks, say))
