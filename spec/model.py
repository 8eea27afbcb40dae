"""The loaded spec and the resolved ruleset.

A `Spec` is the whole validated file: clauses, parameters, variation points, rules and profiles.
A `Ruleset` is one complete choice: a reading for every variation point and a value for every
parameter. The engine plays under a `Ruleset`; it never sees the spec file itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from .files import SpecError
from .lang.compile import Program, RuleDef
from .lang.rulebook import Rulebook, describe
from .vocabulary import PARAMETERS
from .words_model import Words

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


@dataclass(frozen=True)
class Clause:
    id: str
    de: str | None
    es: str | None
    defect: str | None
    line: int
    #: Every language's text, as (language code, text): `de` and `es` for 535's texts, any other
    #: source's code (`en`) for another game's.
    texts: tuple[tuple[str, str], ...] = ()

    def text(self, language: str) -> str | None:
        found = dict(self.texts).get(language)
        if found is not None:
            return found
        return {"de": self.de, "es": self.es}.get(language)

    @property
    def languages(self) -> tuple[str, ...]:
        """The codes of the languages this clause quotes."""
        codes = [code for code, _t in self.texts]
        codes += [code for code, text in (("de", self.de), ("es", self.es)) if text is not None]
        return tuple(dict.fromkeys(codes))

    @property
    def any_text(self) -> str:
        """The clause in the first language it has."""
        return self.de or self.es or next((text for _c, text in self.texts), "")


@dataclass(frozen=True)
class Source:
    language_code: str
    file: Path
    language: str
    title: str | None
    defects: tuple[str, ...]


@dataclass(frozen=True)
class Parameter:
    name: str
    value: Any
    cites: tuple[str, ...]
    explain: str
    in_text: bool
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class VariationPoint:
    name: str
    question: str
    cites: tuple[str, ...]
    #: Every reading the file lists, in its order, with its explanation: the proposals too.
    listed: Mapping[str, str]
    default: str
    rationale: str
    in_text: bool
    evidence: tuple[str, ...]
    line: int
    #: Readings the spec keeps as proposals (`unimplemented: true`): listed, never played.
    unimplemented: frozenset[str] = frozenset()

    @cached_property
    def readings(self) -> Mapping[str, str]:
        """The readings engines play, in the spec's order. Proposals are left out here, so that
        every sweep, product or comparison over a point's readings can only pick playable ones;
        `listed` has them all."""
        return {r: e for r, e in self.listed.items() if r not in self.unimplemented}

    @property
    def playable(self) -> tuple[str, ...]:
        """The names of the readings engines play, in the spec's order."""
        return tuple(self.readings)


@dataclass(frozen=True)
class Rule:
    """A rule as the spec states it: its citations and prose, and its definition in the rule
    language (the base rule, before any reading's fragment)."""

    id: str
    cites: tuple[str, ...]
    statement: str
    definition: RuleDef
    #: The parameters its parts name and the variation points whose readings change it.
    uses: tuple[str, ...] = ()
    #: The moments the rule applies at and what it decides, following from what it states
    #: (five35.spec.lang.schema.MOMENTS_OF): the rule-interaction check pairs rules by them.
    when: tuple[str, ...] = ()
    decides: tuple[str, ...] = ()

    @property
    def does(self) -> str:
        return self.definition.does

    @property
    def kind(self) -> str | None:
        """The kind of pile a `pile` rule states."""
        return self.definition.field("kind")

    @property
    def reason(self) -> str | None:
        """The reason a `trick_end` rule gives for the end of a trick."""
        return self.definition.field("reason")


#: The bases on which a profile's reading settles its question: the rule text says so, outside
#: evidence shows how the published game is played, or the profile plays it as its house rule. Any
#: other basis (silent, defective) leaves the question open.
SETTLING_BASES = frozenset({"text", "evidence", "house"})


@dataclass(frozen=True)
class ReadingChoice:
    reading: str
    basis: str
    note: str | None
    #: The profile whose entry in the file made this choice: the profile itself, or one it extends.
    profile: str | None = None

    @property
    def settles(self) -> bool:
        return self.basis in SETTLING_BASES


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    source: str
    status: str
    defects: tuple[str, ...]
    readings: Mapping[str, ReadingChoice]
    parameters: Mapping[str, Any]

    @property
    def on_the_text(self) -> dict[str, str]:
        """What its source text says, point by point, for a literal profile: the readings it takes
        on the text's own word (basis text). Empty for any other profile."""
        if self.status != "literal":
            return {}
        return {point: c.reading for point, c in self.readings.items() if c.basis == "text"}


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


_PROGRAMS: dict[tuple[Any, ...], Program] = {}


@dataclass(frozen=True)
class Spec:
    path: Path
    game: str
    sources: Mapping[str, Source]
    clauses: Mapping[str, Clause]
    parameters: Mapping[str, Parameter]
    variation_points: Mapping[str, VariationPoint]
    rules: tuple[Rule, ...]
    profiles: Mapping[str, Profile]
    default_profile: str
    lines: Mapping[tuple[str | int, ...], int] = field(repr=False, compare=False)
    embedded: bool = False  # the spec shipped with five35, not a user's file
    #: The rulebook's words (spec/words.py): set by load_spec; `words_of(spec)` never gives None.
    words: Words | None = field(default=None, repr=False, compare=False)
    #: Readings fixed in place of points this copy no longer declares (`without_point`): every
    #: ruleset still gives them to the engine, no profile or --reading may choose them.
    hardwired: tuple[tuple[str, str], ...] = ()
    #: The rules and every reading's fragment, in the rule language.
    rulebook: Rulebook | None = field(default=None, repr=False, compare=False)

    @property
    def label(self) -> str:
        """The file's name, marked when it is the embedded spec: unlike the absolute path, the same
        on every machine and install, so outputs that show it stay byte-identical."""
        return f"{self.path.name} (embedded)" if self.embedded else self.path.name

    def where(self, *key: str | int) -> str:
        """`file:line` of a key path, for messages that point into the spec file."""
        line = self.lines.get(tuple(key))
        dotted = ".".join(str(k) for k in key)
        return f"{self.path}:{line}: {dotted}" if line else f"{self.path}: {dotted}"

    @property
    def playable_profiles(self) -> tuple[str, ...]:
        """The profiles an engine can play, in the file's order: all but those that choose a
        reading marked unimplemented. Sweeps over "every profile" take these, so that one proposal
        in a house-rules file does not stop the checks of every other profile."""
        return tuple(
            name
            for name, p in self.profiles.items()
            if all(c.reading not in self.variation_points[pt].unimplemented for pt, c in p.readings.items())
        )

    @property
    def texts_read_literally(self) -> list[dict[str, str]]:
        """What each source text says, point by point, read on its own word: the readings its
        literal profile takes with basis text (`Profile.on_the_text`), one dict per literal profile
        that takes any."""
        return [p.on_the_text for p in self.profiles.values() if p.on_the_text]

    def ruleset(self, profile: str | None = None, readings: Mapping[str, str] | None = None) -> Ruleset:
        """Resolve a profile plus reading overrides (`--reading POINT=VALUE`) into a Ruleset.

        A reading marked unimplemented is refused wherever the choice came from: the profile entry
        that chose it (`file:line: profiles.NAME.readings.POINT`), or `--reading`.
        """
        name = profile or self.default_profile
        if name not in self.profiles:
            known = ", ".join(sorted(self.profiles))
            raise SpecError("--profile", f"unknown profile {name!r} (known: {known})")
        choices = self.profiles[name].readings
        chosen = {point: choice.reading for point, choice in choices.items()}
        fixed = dict(self.hardwired)
        overridden = []
        for point, value in (readings or {}).items():
            if point not in self.variation_points:
                known = ", ".join(sorted(self.variation_points))
                raise SpecError("--reading", f"unknown variation point {point!r} (known: {known})")
            vp = self.variation_points[point]
            if value not in vp.listed:
                known = ", ".join(vp.listed)
                raise SpecError("--reading", f"{point} has no reading {value!r} (readings: {known})")
            if chosen.get(point) != value:
                overridden.append(point)
            chosen[point] = value
        for point, value in chosen.items():
            if value in self.variation_points[point].unimplemented:
                if readings and point in readings:
                    where = "--reading"
                else:
                    where = self.where("profiles", choices[point].profile or name, "readings", point)
                raise SpecError(where, f"reading {point}={value} is marked unimplemented: no engine plays it")
        params = {n: p.value for n, p in self.parameters.items()}
        params.update(self.profiles[name].parameters)
        readings_in_force = {**fixed, **chosen}
        get = params.get
        return Ruleset(
            profile=name,
            reading_items=tuple(sorted({**fixed, **chosen}.items())),
            ranks=tuple(sorted(params["ranks"])),
            players_min=params["players"]["min"],
            players_max=params["players"]["max"],
            copies_small=get("copies", {}).get("small_game", 0),
            copies_large=get("copies", {}).get("large_game", 0),
            max_cards_per_turn=get("max_cards_per_turn", 0),
            min_set_size=get("min_set_size", 0),
            min_run_size=get("min_run_size", 0),
            set_closing_small=get("set_closing_size", {}).get("small_game", 0),
            set_closing_large=get("set_closing_size", {}).get("large_game", 0),
            run_closing_size=get("run_closing_size", 0),
            match_end_score=get("match_end_score", 0),
            point_items=tuple(sorted((int(k), v) for k, v in get("points", {}).items())),
            hand_size_items=tuple(sorted((int(k), v) for k, v in get("hand_size", {}).items())),
            absent=tuple(p for p in PARAMETERS if p not in params),
            overridden=tuple(sorted(overridden)),
            rules_digest=self.rulebook.digest(readings_in_force) if self.rulebook is not None else "",
            extra_items=tuple(
                (n, json.dumps(v, sort_keys=True)) for n, v in sorted(params.items()) if n not in PARAMETERS
            ),
            rulebook=self.rulebook,
        )

    def with_readings(self, ruleset: Ruleset, readings: Mapping[str, str]) -> Ruleset:
        """`ruleset` with some readings changed: the same profile, and `overridden` naming every point
        whose reading now differs from that profile's choice, so a label like
        `published+run_wrap=wrap` says exactly what changed. The one "change some readings"
        function: the checks and reports build their variants with it."""
        merged = {**ruleset.readings, **readings}
        if ruleset.profile not in self.profiles:
            known = ", ".join(sorted(self.profiles))
            raise SpecError("--profile", f"unknown profile {ruleset.profile!r} (known: {known})")
        base = {p: c.reading for p, c in self.profiles[ruleset.profile].readings.items()}
        base.update(self.hardwired)
        return self.ruleset(ruleset.profile, {p: r for p, r in merged.items() if base.get(p) != r})

    def one_reading_changed(self, ruleset: Ruleset) -> list[tuple[str, str, Ruleset]]:
        """(point, reading, ruleset) for every playable reading `ruleset` does not play, one point
        changed at a time; a reading the spec cannot build a ruleset for is left out."""
        out = []
        for point, vp in self.variation_points.items():
            if point not in ruleset.readings:
                continue
            for reading in vp.playable:
                if reading != ruleset.reading(point):
                    try:
                        out.append((point, reading, self.with_readings(ruleset, {point: reading})))
                    except SpecError:
                        continue
        return out

    def without_point(self, point: str) -> Spec:
        """This spec with `point` no longer a variation point: its default reading hard-wired (every
        ruleset still gives it to the engine), the point gone from the points and from every
        profile. What the hidden-point benchmark of discovery hides."""
        if point not in self.variation_points:
            raise SpecError("variation_points", f"unknown variation point {point!r}")
        default = self.variation_points[point].default
        profiles = {
            name: replace(p, readings={k: c for k, c in p.readings.items() if k != point})
            for name, p in self.profiles.items()
        }
        return replace(
            self,
            variation_points={k: v for k, v in self.variation_points.items() if k != point},
            profiles=profiles,
            hardwired=(*self.hardwired, (point, default)),
        )

    def all_reading_combinations(self) -> int:
        """How many complete choices of playable readings there are."""
        total = 1
        for vp in self.variation_points.values():
            total *= len(vp.playable)
        return total

    def to_json(self) -> dict[str, Any]:
        """Everything `535-check rules --format json` lists."""
        return {
            "game": self.game,
            "spec": str(self.path),
            "default_profile": self.default_profile,
            "sources": {
                code: {
                    "file": str(s.file),
                    "language": s.language,
                    "title": s.title,
                    "defects": list(s.defects),
                }
                for code, s in self.sources.items()
            },
            "clauses": [
                {
                    "id": c.id,
                    "de": c.de,
                    "es": c.es,
                    "defect": c.defect,
                    **{code: text for code, text in c.texts if code not in ("de", "es")},
                }
                for c in self.clauses.values()
            ],
            "parameters": [
                {
                    "name": p.name,
                    "value": p.value,
                    "cites": list(p.cites),
                    "in_text": p.in_text,
                    "evidence": list(p.evidence),
                    "explain": p.explain,
                }
                for p in self.parameters.values()
            ],
            "variation_points": [
                {
                    "name": vp.name,
                    "question": vp.question,
                    "in_text": vp.in_text,
                    "readings": [
                        {"name": r, "explain": e, "unimplemented": r in vp.unimplemented}
                        for r, e in vp.listed.items()
                    ],
                    "default": vp.default,
                    "rationale": vp.rationale,
                    "evidence": list(vp.evidence),
                    "clauses": [
                        {"id": c, "de": self.clauses[c].de, "es": self.clauses[c].es} for c in vp.cites
                    ],
                }
                for vp in self.variation_points.values()
            ],
            "rules": [
                {
                    "id": r.id,
                    "cites": list(r.cites),
                    "statement": r.statement,
                    "does": r.does,
                    "definition": describe(r.definition),
                    "uses": list(r.uses),
                    "when": list(r.when),
                    "decides": list(r.decides),
                }
                for r in self.rules
            ],
            "profiles": [
                {
                    "name": p.name,
                    "title": p.title,
                    "source": p.source,
                    "status": p.status,
                    "defects": list(p.defects),
                    "readings": {
                        point: {"reading": c.reading, "basis": c.basis, "note": c.note}
                        for point, c in p.readings.items()
                    },
                    "parameters": p.parameters,
                }
                for p in self.profiles.values()
            ],
        }


def dumps(data: Any) -> str:
    """The one JSON encoding used for every machine-readable output: stable key order."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
