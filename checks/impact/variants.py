"""The other side of findings that are not one variation point, as small engines.

A contradiction, a mismatch, a defect or a dead clause puts two alternatives of its own (two
wordings, a text as printed and as repaired, a clause kept or deleted). Each class here is the
reference engine with one of them: a `Game` subclass that overrides only the public hooks
`five35.engine.hooks` documents for variants, never a `_private` method, and never changes an
attribute after `__init__`. The classes are module-level so that an impact measurement can send
them to worker processes.

`VARIANTS` names them for the words file (spec/535.words.yaml), whose alternatives say by name which
engine plays the other side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from ...engine import Game, Pile, Play, State, TrickEndReason
from ...engine.options import Option
from ...spec import SpecError


class AddClosesOnly(Game):
    """The Spanish 'añade la cuarta/quinta carta': only an add closes a set or run, not a lead or
    an overwrite that happens to reach the closing size."""

    def closes(self, pile: Pile, action: str) -> TrickEndReason | None:
        return super().closes(pile, action) if action == "add" else None


class TrickTakenAway(Game):
    """The Spanish 'la baza se retira ... el jugador que jugó la Regla de los 8 se lleva la baza y sale
    en la siguiente', written out on its own: the cards of the trick leave the table, and the player
    of the trick's last play (the 8) leads next."""

    def trick_winner(self, trick: tuple[Play, ...], reasons: tuple[TrickEndReason, ...]) -> int:
        if TrickEndReason.RULE_OF_8 in reasons:
            return trick[-1].player
        return super().trick_winner(trick, reasons)


class PrintedPoints(Game):
    """The Spanish 'los puntos indicados en las cartas': a hand is scored card by card, each card
    for the points it shows."""

    def penalty(self, hand: int) -> int:
        return sum(self.points[rank] for rank in self.codec.cards(hand))


class PointsByNumber(Game):
    """A point table that rises with the number, as 'depends on the strength of the rank' allows:
    every card scores its number, and the cards the spec's table values most (the 8s) score one
    more than the highest number, so that they stay the most valuable."""

    def penalty(self, hand: int) -> int:
        most = max(self.points.values())
        top = max(self.ruleset.ranks) + 1
        return sum(top if self.points[rank] == most else rank for rank in self.codec.cards(hand))


class ExampleOrder(Game):
    """The repaired examples '1 < 7 < 14' and '1,1,1 < 14,14,14': among singles and among sets of
    one size the higher number wins."""

    def beats(self, new: Pile, old: Pile) -> bool:
        if new.kind == old.kind and new.size == old.size and new.kind in ("single", "set"):
            return new.cards[0] > old.cards[0]
        return super().beats(new, old)


class SetsNeverClose(Game):
    """Clause trick.end.set deleted: no set ever ends a trick by its size."""

    def closing_size(self, kind: str) -> int | None:
        return None if kind == "set" else super().closing_size(kind)


class NoOverwriteOfFour(Game):
    """The overwrite of a 4-card pile deleted from the rules."""

    SIZE: ClassVar[int] = 4

    def beats(self, new: Pile, old: Pile) -> bool:
        return old.size != self.SIZE and super().beats(new, old)


class NoEightByAdd(Game):
    """Clause eight.trigger.added deleted: an added 8 never applies the Rule of 8."""

    def rule_of_8(self, option: Option, state: State) -> bool:
        return option.move.action != "add" and super().rule_of_8(option, state)


class OnlyListedEights(Game):
    """Clause eight.trigger.unlisted_run deleted: only the listed forms apply the Rule of 8."""

    def rule_of_8(self, option: Option, state: State) -> bool:
        return option.listed_eight and super().rule_of_8(option, state)


class NoExemptionAfterOpening(Game):
    """Clause eight.exemption.later_plays deleted: an 8 in the opening pile exempts nothing later."""

    def rule_of_8(self, option: Option, state: State) -> bool:
        return super().rule_of_8(option, replace(state, opening_has_eight=False))


class SetsUncapped(Game):
    """add_past_closing=overflow for sets only: an add onto a set may take it past its closing size
    (an add onto a single stays as the rules say)."""

    def add_limit(self, pile: Pile, kind: str) -> int | None:
        return None if pile.kind == "set" else super().add_limit(pile, kind)


class RunsUncapped(Game):
    """add_past_closing=overflow for runs only: an add onto a run may take it past its closing size
    (an add onto a single stays as the rules say)."""

    def add_limit(self, pile: Pile, kind: str) -> int | None:
        return None if pile.kind == "run" else super().add_limit(pile, kind)


#: The variants by the name the words file gives them; "reference" is the engine itself.
VARIANTS: dict[str, type[Game]] = {
    "reference": Game,
    "add_closes_only": AddClosesOnly,
    "trick_taken_away": TrickTakenAway,
    "printed_points": PrintedPoints,
    "points_by_number": PointsByNumber,
    "example_order": ExampleOrder,
    "sets_never_close": SetsNeverClose,
    "no_overwrite_of_four": NoOverwriteOfFour,
    "no_eight_by_add": NoEightByAdd,
    "only_listed_eights": OnlyListedEights,
    "no_exemption_after_opening": NoExemptionAfterOpening,
    "sets_uncapped": SetsUncapped,
    "runs_uncapped": RunsUncapped,
}


def named_variant(variants: Mapping[str, type[Game]], name: str, where: str, module: str) -> type[Game]:
    """The engine class `variants` (a table of `module`'s) holds under the name a words-file entry
    gives; SpecError at the entry (`where`) listing the names there are, for a name it does not hold."""
    engine = variants.get(name)
    if engine is None:
        known = ", ".join(sorted(variants))
        raise SpecError(where, f"names variant {name!r}, which {module} does not have (variants: {known})")
    return engine
