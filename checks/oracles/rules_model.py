"""The rules of 535 as the spec states them, for the invariants to hold an engine against.

`SpecRules` states the rules from the Ruleset alone (readings and parameters, never the engine's
hooks), so an engine whose hook is wrong is measured against something independent of it. What
each reading means it asks the Z3 model's reading hooks (z3model.py beside it), the one place the
checks state readings: a reading added there is known here too, a reading without a hook is
refused (`UnimplementedReading`) instead of played like another. The engine's hooks are not an
option (the invariants would check the engine against itself), and a second table of meanings here
could drift from the model's; the model is compiled from the spec's data and checked against the
texts (text_examples), the proofs and the engine (conformance). SpecRules keeps its own statement
of what piles, adds and trick endings are; only readings come from there.

The invariants of play (five35.checks.play.invariants) and the exhaustive endgame graphs
(five35.checks.play.graphs) judge every state and move by it.
"""

from __future__ import annotations

from collections import Counter

from five35.engine import CardCodec, Game, Move, Pile
from five35.spec import Ruleset
from five35.spec.vocabulary import Vocabulary

from .vocab import ComponentVocabulary, table_vocabulary
from .z3model import EIGHT, KIND_CODES, LISTED_EIGHT_RUNS, NOT_MODELLED, READING_HOOKS, Model


def rules_vocabulary(vocabulary: Vocabulary) -> ComponentVocabulary:
    """What SpecRules implements (the Z3 model's hooks, whose meanings it asks), checked against an
    engine's vocabulary."""
    return table_vocabulary("the invariants' rules model", READING_HOOKS, vocabulary, NOT_MODELLED)


RULES_VOCABULARY = rules_vocabulary(Game.VOCABULARY)


class SpecRules:
    """The rules of one Ruleset and player count: its parameters, and its readings' meanings as the
    Z3 model's reading hooks state them. Raises UnimplementedReading for a reading without one."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        RULES_VOCABULARY.require_ruleset(ruleset)
        self.ruleset = ruleset
        self.players = players
        self.ranks = ruleset.ranks
        self._index = {rank: i for i, rank in enumerate(ruleset.ranks)}
        self.model = model = Model.concrete(ruleset)
        self.add_to_single = bool(model.to_single)
        self.top_end_only = not model.either_end
        self.capped = bool(model.capped)
        self.adds_trigger = bool(model.adds_trigger)
        self.copies: int = model.copies(players)
        self.set_close: int = model.set_close(players)
        self.run_close = ruleset.run_closing_size
        self.max_cards = ruleset.max_cards_per_turn
        self.points = ruleset.points
        self.deck = Counter({rank: self.copies for rank in self.ranks})
        self._judged: dict[tuple[Pile | None, Move], tuple[Pile | None, str | None]] = {}
        self._packed: dict[tuple[int, ...], int] = {}
        self._packed_deck: int | None = None

    def follows(self, a: int, b: int) -> bool:
        """Rank b continues a run after rank a (run_gaps, run_wrap)."""
        i, j = self._index.get(a), self._index.get(b)
        if i is None or j is None:
            return False
        return bool(self.model.follows(i, j))

    def as_pile(self, cards: tuple[int, ...] | list[int]) -> Pile | None:
        """The pile these cards make (runs put in succession order), or None."""
        cards = tuple(cards)
        if len(cards) == 1:
            return Pile("single", cards)
        if len(set(cards)) == 1 and len(cards) >= self.ruleset.min_set_size:
            return Pile("set", cards)
        if len(cards) >= self.ruleset.min_run_size and len(set(cards)) == len(cards):
            successor = {a: b for a in cards for b in cards if a != b and self.follows(a, b)}
            starts = [c for c in cards if c not in successor.values()]
            if len(starts) == 1:
                run = [starts[0]]
                while run[-1] in successor and len(run) < len(cards):
                    run.append(successor[run[-1]])
                if len(run) == len(cards):
                    return Pile("run", tuple(run))
        return None

    def strength(self, rank: int) -> int:
        """How strong a single or set of this rank is (eight_rank)."""
        strength: int = self.model.strength(self._index[rank])
        return strength

    def beats(self, new: Pile, old: Pile) -> bool:
        """`new` overwrites `old`: same kind and size, and stronger (run_order for runs)."""
        if new.kind != old.kind or new.size != old.size:
            return False
        a, b = self._index[new.cards[0]], self._index[old.cards[0]]
        return bool(self.model.beats(KIND_CODES[new.kind], a, b))

    def closing(self, kind: str) -> int | None:
        return {"set": self.set_close, "run": self.run_close}.get(kind)

    def rule_of_8(self, action: str, added: tuple[int, ...], new: Pile, opening_has_eight: bool) -> bool:
        """Placing `added` to make `new` is the Rule of 8 (eight_forms, eight_on_add, eight_exemption)."""
        if action == "lead" or EIGHT not in added:
            return False
        if self.model.says("eight_exemption", opening_has_eight):
            return False
        if action == "add" and not self.adds_trigger:
            return False

        def listed() -> bool:
            if new.kind in ("single", "set"):
                return new.cards[0] == EIGHT
            return new.cards in LISTED_EIGHT_RUNS

        return bool(self.model.says("eight_forms", listed))

    def judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        """The pile `move` makes on `pile`, or why the spec does not allow it (holding aside)."""
        key = (pile, move)
        if key not in self._judged:
            self._judged[key] = self._judge(pile, move)
        return self._judged[key]

    def _judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        if move.action == "pass":
            return None, "the leader may not pass" if pile is None else None
        n = len(move.cards)
        if not 1 <= n <= self.max_cards:
            return None, f"places {n} cards; a turn places 1 to {self.max_cards}"
        if move.action == "lead":
            if pile is not None:
                return None, "a lead while a pile is on the table"
            new = self.as_pile(move.cards)
            return (new, None) if new else (None, f"{move.cards} is not a single, set or run")
        if pile is None:
            return None, f"an {move.action} with no central pile (the mover leads)"
        if move.action == "overwrite":
            new = self.as_pile(move.cards)
            if new is None:
                return None, f"{move.cards} is not a single, set or run"
            if not self.beats(new, pile):
                return None, f"{new} does not beat {pile}"
            return new, None
        if pile.kind == "single" and not self.add_to_single:
            return None, "adds to a single (add_to_single=not_allowed)"
        new = self.as_pile(pile.cards + move.cards)
        if new is None or new.kind == "single":
            return None, f"{pile} plus {move.cards} is not one set or run"
        if new.kind == "run":
            start = new.cards.index(pile.cards[0])
            if new.cards[start : start + pile.size] != pile.cards:
                return None, f"{pile} is not kept in order inside {new}"
            if self.top_end_only and start != 0:
                return None, f"adds below {pile} (add_run_ends=top_end)"
        closing = self.closing(new.kind)
        if self.capped and closing is not None and new.size > closing:
            return None, f"{new} passes the closing size {closing} (add_past_closing=capped)"
        return new, None

    def packed_deck(self, codec: CardCodec) -> int:
        if self._packed_deck is None:
            self._packed_deck = codec.pack(self.deck.elements())
        return self._packed_deck

    def packed(self, codec: CardCodec, cards: tuple[int, ...]) -> int:
        found = self._packed.get(cards)
        if found is None:
            found = self._packed[cards] = codec.pack(cards)
        return found

    def penalty(self, cards: list[int]) -> int:
        return sum(self.points[c] for c in cards)

    def next_seat(self, seat: int, passed: int) -> int:
        """The next seat after `seat` in turn order that has not passed (turn_order)."""
        nxt = self.model.next_seat(seat, self.players)
        while passed >> nxt & 1:
            nxt = self.model.next_seat(nxt, self.players)
        return nxt
