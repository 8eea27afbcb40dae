"""The resolved ruleset: one complete choice of a reading for every variation point and a value for
every parameter (`Spec.ruleset`, five35.spec.model, makes one). The engine plays under a `Ruleset`;
it never sees the spec file itself."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .files import SpecError
from .lang.compile import Program, RuleDef
from .lang.rulebook import Rulebook

#: The number of rounds after which `simulate`, `report` and the checks stop a match whose end they
#: cannot prove (some cards score 0 points, so `Ruleset.round_bound` is None), and say so. A spec
#: whose proved bound is higher than this is refused when it loads: a match that long is a mistake
#: (such as match_end_score 10**100), not a game to simulate.
MATCH_ROUND_LIMIT = 1000


def match_round_bound(points: Iterable[int], match_end_score: int, players: int) -> int | None:
    """The most rounds a match of `players` can last, or None when no bound follows from the rules.

    Why every round ends: each trick places at least one card, because its leader must place 1 to
    max_cards_per_turn cards (max_cards_per_turn >= 1, and a single of any rank in the hand is always
    a lead), while a follower may always pass and the trick ends once all players but one have
    passed, so no trick goes on forever. Cards never go back to a hand, and every hand is dealt at
    least one card, so a round ends within (cards dealt) tricks: once a hand is empty.

    Why a match ends: when one player goes out, every other player still holds at least one card
    and adds at least p_min (the lowest point value) to their score. A match that is not over after
    r rounds has every score below match_end_score M, so r * (players - 1) * p_min <= sum of scores
    <= players * (M - 1), and the match ends by round floor(players * (M - 1) / ((players - 1) *
    p_min)) + 1. (Not M / p_min: with two players taking turns to go out, each gains only every
    other round.) With p_min = 0 nothing forces any score up, so there is no bound.
    """
    lowest = min(points, default=0)
    if lowest <= 0 or players < 2:
        return None
    return players * (match_end_score - 1) // ((players - 1) * lowest) + 1


_PROGRAMS: dict[tuple[Any, ...], Program] = {}


@dataclass(frozen=True)
class Ruleset:
    """One complete choice of readings and parameters: what the engine plays under.

    Readings and parameters are stored as sorted tuples so that a Ruleset is hashable and two equal
    choices compare equal whatever order they were made in.
    """

    profile: str
    reading_items: tuple[tuple[str, str], ...]
    ranks: tuple[int, ...]
    players_min: int
    players_max: int
    # 535's parameters: 0 (or empty) where the spec leaves one out, which `absent` then names;
    # another game's deck, deal and scoring are its rules' (see copies, hand_size).
    copies_small: int = 0
    copies_large: int = 0
    max_cards_per_turn: int = 0
    min_set_size: int = 0
    min_run_size: int = 0
    set_closing_small: int = 0
    set_closing_large: int = 0
    run_closing_size: int = 0
    match_end_score: int = 0
    point_items: tuple[tuple[int, int], ...] = ()
    hand_size_items: tuple[tuple[int, int], ...] = ()
    overridden: tuple[str, ...] = field(default=())
    #: The digest of the rules in force (the spec's rules with the chosen readings' fragments): two
    #: rulesets that state different games never compare equal.
    rules_digest: str = ""
    #: Parameters beyond the ones every ruleset has (a house rule's own), as (name, JSON value).
    extra_items: tuple[tuple[str, str], ...] = ()
    #: The spec's rules and fragments (not compared: the digest stands for them).
    rulebook: Rulebook | None = field(default=None, compare=False, hash=False, repr=False)
    #: 535's parameters (vocabulary.PARAMETERS) the spec does not give: its rules name none of them.
    absent: tuple[str, ...] = ()

    def has(self, parameter: str) -> bool:
        """Whether the spec gives `parameter` (one of 535's: every other game leaves some out)."""
        return parameter not in self.absent

    @property
    def rules(self) -> tuple[RuleDef, ...]:
        """The rules in force under this ruleset's readings."""
        if self.rulebook is None:
            return ()
        return self.rulebook.effective(self.readings)

    @property
    def values(self) -> dict[str, Any]:
        """The parameters' values as the rules name them."""
        params = self.to_json()["parameters"]
        if "points" in params:
            params["points"] = {int(k): v for k, v in params["points"].items()}
        if "hand_size" in params:
            params["hand_size"] = {int(k): v for k, v in params["hand_size"].items()}
        params.update((name, json.loads(value)) for name, value in self.extra_items)
        return dict(params)

    def program(self, players: int) -> Program:
        """The rules in force compiled for `players` players (cached per process)."""
        key = (self.rules_digest, self.point_items, self.hand_size_items, self.to_json_key(), players)
        found = _PROGRAMS.get(key)
        if found is None:
            found = _PROGRAMS[key] = Program(self.rules, self.values, players)
        return found

    def to_json_key(self) -> str:
        return json.dumps(self.to_json()["parameters"], sort_keys=True)

    @property
    def readings(self) -> dict[str, str]:
        return dict(self.reading_items)

    def reading(self, point: str) -> str:
        for name, value in self.reading_items:
            if name == point:
                return value
        raise KeyError(point)

    @property
    def points(self) -> dict[int, int]:
        return dict(self.point_items)

    def _large_game(self, players: int, point: str) -> bool:
        # Six players is a large game in every reading; five depends on "5+" against "más de 5".
        if players >= 6:
            return True
        if players == 5:
            return self.readings.get(point, "five_is_large") == "five_is_large"
        return False

    def copies(self, players: int) -> int:
        if not self.has("copies"):
            return int(self.program(players).ask("deck", "copies"))
        return self.copies_large if self._large_game(players, "five_player_copies") else self.copies_small

    def set_closing_size(self, players: int) -> int:
        large = self._large_game(players, "five_player_set_close")
        return self.set_closing_large if large else self.set_closing_small

    def deck_size(self, players: int) -> int:
        return self.copies(players) * len(self.ranks)

    @property
    def _deals_by_rule(self) -> bool:
        # No hand-size table, or no reading that deals by it: the deal rule says.
        return not self.has("hand_size") or "deal" not in self.readings

    def asked_hand_size(self, players: int) -> int | None:
        """The cards the deal gives each player, whether or not the deck can supply them; None
        where the hand-size table has no entry for `players`."""
        deck = self.deck_size(players)
        if self._deals_by_rule:
            return int(self.program(players).ask("deal", "hand_size", deck_size=deck))
        if self.reading("deal") == "deal_all":
            return deck // players
        return dict(self.hand_size_items).get(players)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player; raises SpecError when the deck cannot supply them."""
        self.check_players(players)
        deck = self.deck_size(players)
        size = self.asked_hand_size(players)
        if size is None:
            raise SpecError("parameters.hand_size", f"no hand size for {players} players")
        if self._deals_by_rule:
            if not 0 < size * players <= deck:
                raise SpecError("rules.deal.hand_size", f"{players} hands of {size} from a deck of {deck}")
        elif self.reading("deal") == "deal_all":
            if deck < players:
                # An empty hand would end the round before it starts (and breaks the round bound).
                message = f"a deck of {deck} cards cannot deal a card to each of {players} players"
                raise SpecError("parameters.copies", message)
        elif size * players > deck:
            raise SpecError(
                "parameters.hand_size",
                f"{players} hands of {size} need {size * players} cards, but the deck has {deck} "
                f"(five_player_copies={self.reading('five_player_copies')})",
            )
        return size

    def can_deal(self, players: int) -> bool:
        """Whether a round can be dealt to `players` (`hand_size` refuses it otherwise)."""
        try:
            self.hand_size(players)
        except SpecError:
            return False
        return True

    @property
    def round_bound(self) -> int | None:
        """The proved maximum number of rounds in a match at any player count this ruleset allows,
        or None when some card scores 0 points and no bound can be proved (see match_round_bound;
        the fewest players give the longest matches)."""
        bounds = [
            match_round_bound(self.points.values(), self.match_end_score, n)
            for n in range(self.players_min, self.players_max + 1)
        ]
        return None if None in bounds else max(b for b in bounds if b is not None)

    def trick_bound(self, players: int) -> int:
        """The most tricks a round of `players` can take: every trick places a card from a hand."""
        return self.hand_size(players) * players

    def check_players(self, players: int) -> None:
        if not self.players_min <= players <= self.players_max:
            raise SpecError(
                "--players", f"{players} players is outside {self.players_min} to {self.players_max}"
            )

    def to_json(self) -> dict[str, Any]:
        params = self._parameters()
        for name in self.absent:
            params.pop(name, None)
        return {
            "profile": self.profile,
            "readings": dict(self.reading_items),
            "overridden": list(self.overridden),
            "rules_digest": self.rules_digest,
            "parameters": params,
        }

    def _parameters(self) -> dict[str, Any]:
        return {
            "ranks": list(self.ranks),
            "players": {"min": self.players_min, "max": self.players_max},
            "copies": {"small_game": self.copies_small, "large_game": self.copies_large},
            "max_cards_per_turn": self.max_cards_per_turn,
            "min_set_size": self.min_set_size,
            "min_run_size": self.min_run_size,
            "set_closing_size": {
                "small_game": self.set_closing_small,
                "large_game": self.set_closing_large,
            },
            "run_closing_size": self.run_closing_size,
            "match_end_score": self.match_end_score,
            "points": {str(k): v for k, v in self.point_items},
            "hand_size": {str(k): v for k, v in self.hand_size_items},
            **{name: json.loads(value) for name, value in self.extra_items},
        }

    def label(self) -> str:
        """Short human name: the profile plus any readings changed from it."""
        if not self.overridden:
            return self.profile
        changed = ",".join(f"{p}={self.reading(p)}" for p in self.overridden)
        return f"{self.profile}+{changed}"
