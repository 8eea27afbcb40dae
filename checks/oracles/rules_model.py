"""The rules of a ruleset as the spec states them, for the invariants to hold an engine against.

`SpecRules` asks the Z3 model compiled from the spec's rules (z3model.py, evaluated concretely) and
states nothing of its own: which cards make a pile, what beats what, what an add makes, which trick
endings a play causes, whose turn follows, what a hand scores. The engine's hooks are not an option
(the invariants would check the engine against itself), and the spec interpreter's Program is the
other implementation being checked; the model is compiled from the same rules independently of
both, and checked against the texts (text_examples), the proofs and the engines (conformance). A
reading whose fragment the spec does not state is refused (`UnimplementedReading`).

The invariants of play (five35.checks.play.invariants) and the exhaustive endgame graphs
(five35.checks.play.graphs) judge every state and move by it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TypeVar

from ...engine import CardCodec, Move, Pile
from ...spec import Ruleset
from ...spec.words_model import CheckWords
from .model_values import OpeningPile, PileV
from .situations import add_candidates, central_piles, to_pile
from .vocab import StatedVocabulary
from .z3model import ACTION_CODES, ADD, NONE, Model

RULES_VOCABULARY = StatedVocabulary("the invariants' rules model")

T = TypeVar("T")
_MISSING = object()

PileKey = tuple[int, int, int]


class SpecRules:
    """The rules of one Ruleset and player count, as the model compiled from the spec states them.
    Raises UnimplementedReading for a reading whose fragment the spec does not state. `say`: the
    words file's oracles sentences, in which `judge` says why a move is not allowed."""

    def __init__(self, ruleset: Ruleset, players: int, say: CheckWords) -> None:
        RULES_VOCABULARY.require_ruleset(ruleset)
        self.ruleset = ruleset
        self.say = say
        self.players = players
        self.ranks = ruleset.ranks
        self._index = {rank: i for i, rank in enumerate(ruleset.ranks)}
        self.model = model = Model.concrete(ruleset)
        self.copies: int = int(model.copies(players))
        self.deck = Counter({rank: self.copies for rank in self.ranks})
        self._judged: dict[tuple[Pile | None, Move], tuple[Pile | None, str | None]] = {}
        self._packed: dict[tuple[int, ...], int] = {}
        self._packed_deck: int | None = None
        # Answers remembered per question: the graphs and the state machine ask the same ones of
        # every state and step (the model's closures are pure in their arguments).
        self._asked: dict[tuple[object, ...], object] = {}

    def _once(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        found = self._asked.get(key, _MISSING)
        if found is _MISSING:
            found = self._asked[key] = compute()
        return found  # type: ignore[return-value]

    # ---- ranks and piles ---------------------------------------------------------------------------

    def follows(self, a: int, b: int) -> bool:
        """Rank b continues a run after rank a (the `ranks` rule's `follows`)."""
        i, j = self._index.get(a), self._index.get(b)
        if i is None or j is None:
            return False
        return bool(self.model.follows(i, j))

    def key(self, pile: Pile | None) -> PileKey:
        if pile is None:
            return (NONE, 0, 0)
        code = self.model.code(pile.kind)
        if code is None or pile.cards[0] not in self._index:
            raise ValueError(f"{pile} is no pile the rules state")
        return (code, self._index[pile.cards[0]], pile.size)

    def pile(self, key: PileKey) -> Pile | None:
        return to_pile(self.model, key)

    def as_pile(self, cards: Sequence[int]) -> Pile | None:
        """The pile these cards make (runs put in succession order), or None."""
        cards = tuple(sorted(cards))

        def make() -> Pile | None:
            key = self.model.pile_of(cards, self.players)
            return None if key is None else self.pile(key)

        return self._once(("pile", cards), make)

    def strength(self, rank: int) -> int:
        """How strong a single or set of this rank is (the `ranks` rule's `strength`)."""
        return int(self.model.strength(self._index[rank]))

    def beats(self, new: Pile, old: Pile) -> bool:
        """`new` overwrites `old` by strength: same kind and size, and its kind's `beats` holds."""
        if new.kind != old.kind or new.size != old.size:
            return False
        a, b = self.key(new), self.key(old)
        return bool(self.model.beats_piles(PileV(*a), PileV(*b), self.players))

    def closing(self, kind: str) -> int | None:
        """The size at which a pile of `kind` ends the trick, or None when it never does by size."""
        code = self.model.code(kind)
        if code is None:
            return None
        size = int(self.model.closes_at(code, self.players))
        return None if size >= self.model.R * 1000 else size

    @cached_property
    def capped(self) -> bool:
        """Whether no add takes a pile past its kind's closing size, over the bounded domain of
        central piles and adds (the question a pile on the table past its closing size asks)."""
        m = self.model
        maxk = max(1, m.maxk)
        for key in central_piles(m, self.players, False):
            closing = self.closing(m.kind_names[key[0]])
            if closing is None or key[2] + maxk <= closing:
                continue
            for cards in add_candidates(m, key, maxk):
                p = [self._index[c] for c in cards]
                p += [p[-1]] * (m.maxk - len(p))
                out = m.decide(ADD, key, len(cards), p, self.players, False)
                if out.legal and out.size > closing:
                    return False
        return True

    # ---- moves ---------------------------------------------------------------------------------------

    def judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        """The pile `move` makes on `pile`, or why the spec does not allow it (holding aside)."""
        key = (pile, move)
        if key not in self._judged:
            self._judged[key] = self._judge(pile, move)
        return self._judged[key]

    def _judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        m, say = self.model, self.say
        if move.action == "pass":
            if pile is None:
                return None, None if m.may_pass(True, self.players) else say("leader_may_not_pass")
            return None, None if m.may_pass(False, self.players) else say("may_not_pass")
        if move.action == "lead" and pile is not None:
            return None, say("lead_on_pile")
        if move.action != "lead" and pile is None:
            return None, say("no_pile", action=move.action)
        rule = m.rules.one(move.action)
        if rule is None:
            return None, say("no_rule", action=move.action)
        n = len(move.cards)
        if not m._bounds(rule, n, self.players) or n > m.maxk:
            return None, say("card_count", count=n, rule=rule)
        if any(c not in self._index for c in move.cards):
            return None, say("not_in_deck", cards=move.cards)
        p = sorted(self._index[c] for c in move.cards)
        p += [p[-1]] * (m.maxk - len(p))
        out = m.decide(ACTION_CODES[move.action], self.key(pile), n, p, self.players, False)
        if out.legal:
            return self.pile((out.kind, out.low, out.size)), None
        made = self.as_pile(move.cards if pile is None or move.action != "add" else pile.cards + move.cards)
        if made is None:
            if move.action == "add":
                return None, say("not_one_pile", pile=pile, cards=move.cards)
            return None, say("not_a_pile", cards=move.cards)
        return None, say("not_allowed", rule=rule, failing=self._failing(rule, move.action, made, pile, move))

    def _failing(self, rule: str, action: str, new: Pile, old: Pile | None, move: Move) -> str:
        """The parts of the rule's `may` that do not hold, in words for a violation."""
        placed = tuple(sorted(self._index[c] for c in move.cards))
        failing = self.model.failing_parts(
            rule,
            new=PileV(*self.key(new)),
            old=PileV(*self.key(old)) if old is not None else None,
            placed=placed,
            players=self.players,
        )
        return ", ".join(self.say("does_not_hold", part=name) for name in failing) or self.say("may_fails")

    def trick_ends(self, action: str, added: Sequence[int], new: Pile, opening_has_eight: bool) -> list[str]:
        """The reasons of the trick endings asked after placing `added` to make `new`."""
        key = ("ends", action, tuple(added), new, opening_has_eight)
        return self._once(
            key,
            lambda: self.model.ends_after_play(
                ACTION_CODES[action],
                self.key(new),
                [self._index[c] for c in added],
                self.players,
                opening_has_eight,
            ),
        )

    def rule_of_8(self, action: str, added: tuple[int, ...], new: Pile, opening_has_eight: bool) -> bool:
        """Placing `added` to make `new` ends the trick by the Rule of 8."""
        return "rule_of_8" in self.trick_ends(action, added, new, opening_has_eight)

    def may_pass(self, leading: bool) -> bool:
        return bool(self.model.may_pass(leading, self.players))

    def pass_takes_out(self) -> bool:
        """Whether a pass takes the player out of the trick (the `pass` rule's `out`)."""
        return bool(self.model.pass_takes_out(self.players))

    def pass_ends(
        self, pile: Pile, opening_has_eight: bool, mover: int, in_trick: int, cards_left: int, in_a_row: int
    ) -> list[str]:
        """The reasons of the trick endings asked after a pass (in_trick: players still in it after)."""
        key = ("pass", pile, opening_has_eight, mover, in_trick, cards_left, in_a_row)
        return self._once(
            key,
            lambda: self.model.ends_after_pass(
                self.players,
                pile=PileV(*self.key(pile)),
                opening=OpeningPile(opening_has_eight),
                mover=mover,
                in_trick=in_trick,
                cards_left=cards_left,
                passes_in_a_row=in_a_row,
            ),
        )

    def winner(self, last_placer: int, mover: int) -> int:
        """Who wins a trick that ended (the `trick_winner` rule)."""
        return self._once(
            ("winner", last_placer, mover), lambda: int(self.model.winner(self.players, last_placer, mover))
        )

    def round_ends(self, cards_left: int, mover: int) -> bool:
        """Whether a placing move that leaves `cards_left` in the mover's hand ends the round."""
        return self._once(
            ("round", cards_left, mover), lambda: bool(self.model.round_ends(self.players, cards_left, mover))
        )

    def match_ends(self, scores: Sequence[int], round_no: int) -> bool:
        high, low = max(scores), min(scores)
        return self._once(
            ("match", high, low, round_no),
            lambda: bool(self.model.match_ends(self.players, high, low, round_no)),
        )

    def match_winners(self, scores: Sequence[int]) -> list[int]:
        high, low = max(scores), min(scores)
        return [i for i, s in enumerate(scores) if self.model.match_winner(self.players, s, high, low)]

    # ---- the rest of play ----------------------------------------------------------------------------

    def packed_deck(self, codec: CardCodec) -> int:
        if self._packed_deck is None:
            self._packed_deck = codec.pack(self.deck.elements())
        return self._packed_deck

    def packed(self, codec: CardCodec, cards: tuple[int, ...]) -> int:
        found = self._packed.get(cards)
        if found is None:
            found = self._packed[cards] = codec.pack(cards)
        return found

    def penalty(self, cards: list[int], went_out: bool = False) -> int:
        """The points a hand left at the end of a round scores (the `scoring` rule)."""
        hand = tuple(sorted(cards))
        return self._once(
            ("penalty", hand, went_out), lambda: int(self.model.penalty(hand, went_out, self.players))
        )

    def next_seat(self, seat: int, passed: int) -> int:
        """The next seat after `seat` in turn order that has not passed (the `turn` rule)."""
        nxt = int(self.model.next_seat(seat, self.players)) % self.players
        for _ in range(self.players):
            if not passed >> nxt & 1:
                return nxt
            nxt = int(self.model.next_seat(nxt, self.players)) % self.players
        return nxt
