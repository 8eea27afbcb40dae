"""Building a finding's `Alternative`: its two sides, from the words file.

The check that makes a finding calls one of these to fill in `Finding.alternative`: the words
(labels, plain words, method) come from the spec's words file (spec/535.words.yaml), the engine of
the compared side from variants.py, and the scene the words give from scenes.py, which also plays
it on both sides (`scene_witness`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ...engine import Game
from ...spec import Ruleset, Spec
from ...spec.words import words_of
from ...spec.words_model import AlternativeWords, SceneWords, Words
from ..findings import Alternative, ReadingRef, Side
from .scenes import scene_of
from .variants import VARIANTS, named_variant


def variant(words: Words, alt: AlternativeWords) -> type[Game]:
    """The engine class an alternative's words name for its compared side."""
    if alt.variant is None:
        return Game
    where = words.where("alternatives", alt.name, "variant")
    return named_variant(VARIANTS, alt.variant, where, "checks/impact/variants.py")


def from_words(
    words: Words,
    name: str,
    played: Ruleset,
    compared: Ruleset | None = None,
    *,
    engine: type[Game] | None = None,
    players: Sequence[int] = (),
    scene: SceneWords | None = None,
    shown_as_readings: bool = True,
    blanks: Mapping[str, str] | None = None,
) -> Alternative:
    """Alternative `name` of the words file: `played` by the reference engine against `compared`
    (the same rules when not given) played by `engine` (the variant the words name when not given),
    with the words' blanks filled in."""
    alt = words.alternative(name).filled(**(blanks or {}))
    return Alternative(
        played=Side(alt.played.label, alt.played.words, played),
        compared=Side(
            alt.compared.label, alt.compared.words, compared or played, engine or variant(words, alt)
        ),
        method=alt.method,
        players=tuple(players),
        # A scene the rules of either side cannot set up is left out (scenes.py says why).
        scene=scene_of(scene, words.check("impact.scenes"), played, compared or played),
        shown_as_readings=shown_as_readings,
    )


def first_readings(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Point -> reading, the first reading of each point winning (a finding listing several
    combinations compares the first)."""
    out: dict[str, str] = {}
    for point, reading in pairs:
        out.setdefault(point, reading)
    return out


def _plain(spec: Spec, readings: Mapping[str, str]) -> str:
    return "; ".join(
        f"{ReadingRef(p, r)}: {spec.variation_points[p].readings[r]}" for p, r in readings.items()
    )


def readings_alternative(
    spec: Spec,
    ruleset: Ruleset,
    readings: Mapping[str, str],
    *,
    players: Sequence[int] = (),
    scene: SceneWords | None = None,
) -> Alternative | None:
    """A contradiction that holds only under some readings: the rules as played against the same
    rules with those readings (None when there are none). Its sides restate the finding's readings,
    so they are not shown as readings of their own."""
    if not readings:
        return None
    refs = tuple(ReadingRef(p, r) for p, r in readings.items())
    combo = ", ".join(str(ref) for ref in refs)
    label = ruleset.label()
    alt = from_words(
        words_of(spec),
        "readings_changed",
        ruleset,
        spec.with_readings(ruleset, readings),
        engine=Game,
        players=players,
        scene=scene,
        shown_as_readings=False,
        blanks={"label": label, "combo": combo, "plain": _plain(spec, readings)},
    )
    return replace(alt, compared=replace(alt.compared, readings=refs))


def clause_deleted(
    spec: Spec,
    ruleset: Ruleset,
    readings: Mapping[str, str],
    engine: type[Game],
    *,
    players: Sequence[int] = (),
    scene: SceneWords | None = None,
    part: str = "",
) -> Alternative:
    """A dead clause: the rules under the readings it hinges on, with the clause (the reference
    engine) and without it (`engine`). `part` names the part of the rule that never applies (the
    words' blank {part})."""
    named = dict(readings)
    under = spec.with_readings(ruleset, named)
    if players and not all(under.can_deal(n) for n in players) and "deal" in spec.variation_points:
        # Readings that cannot deal the table's cards by the hand-size table can still be played by
        # dealing the whole deck; the finding does not hinge on the deal.
        named = {**named, "deal": "deal_all"}
        under = spec.with_readings(ruleset, named)
    words = words_of(spec)
    say = words.check("impact.alternatives")
    where = say("under", readings=", ".join(str(ReadingRef(p, r)) for p, r in named.items())) if named else ""
    return from_words(
        words,
        "clause_deleted",
        under,
        under,
        engine=engine,
        players=players,
        scene=scene,
        blanks={"where": where, "under": where or say("as_played"), "part": part[:1].lower() + part[1:]},
    )
