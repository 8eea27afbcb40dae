"""The loaded spec: the whole validated file, its clauses, parameters, variation points, rules and
profiles. `Spec.ruleset` resolves a choice of readings into a `Ruleset` (five35.spec.ruleset), what
the engine plays under; it never sees the spec file itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from .files import SpecError
from .lang.compile import RuleDef
from .lang.rulebook import Rulebook, describe
from .ruleset import Ruleset
from .vocabulary import PARAMETERS
from .words_model import Words


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
class Cited:
    """What a parameter and a variation point both are: a named entry of the spec that cites its
    clauses, and says whether the texts state it (`in_text`) and on what `evidence`."""

    name: str
    cites: tuple[str, ...]
    in_text: bool
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Parameter(Cited):
    value: Any
    explain: str


@dataclass(frozen=True)
class VariationPoint(Cited):
    question: str
    #: Every reading the file lists, in its order, with its explanation: the proposals too.
    listed: Mapping[str, str]
    default: str
    rationale: str
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
