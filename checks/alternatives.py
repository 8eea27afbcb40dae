"""Building a finding's `Alternative` from the words file, and playing its scene.

The check that makes a finding calls one of these to fill in `Finding.alternative`: the words
(labels, plain words, method) come from the spec's words file (spec/535.words.yaml), the engine of
the compared side from checks/variants.py. `scene_witness` sets the finding's scene up on both
sides' engines and says what each asked-about move leads to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from five35.engine import Game, Move, Position, State
from five35.spec import Ruleset, Spec, SpecError
from five35.spec.words import AlternativeWords, SceneWords, Words, words_of

from .findings import Alternative, EngineFactory, Scene, Side, Witness, reading_key
from .impact import dealable, moves_text, result_of, situation_of, state_cards
from .variants import VARIANTS


def scene_of(words: SceneWords | None) -> Scene | None:
    """The words file's scene as a position and the moves asked about."""
    if words is None:
        return None
    position = Position(
        hands=words.hands,
        leader=words.leader,
        moves=tuple(Move(action, cards) for action, cards in words.plays),  # type: ignore[arg-type]
    )
    then = tuple(Move(action, cards) for action, cards in words.then)  # type: ignore[arg-type]
    return Scene(words.name, position, then, words.describe, words.show_deck)


def variant(words: Words, alt: AlternativeWords) -> type[Game]:
    """The engine class an alternative's words name for its compared side."""
    if alt.variant is None:
        return Game
    engine = VARIANTS.get(alt.variant)
    if engine is None:
        known = ", ".join(sorted(VARIANTS))
        raise SpecError(
            words.where("alternatives", alt.name, "variant"),
            f"names variant {alt.variant!r}, which checks/variants.py does not have (variants: {known})",
        )
    return engine


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
        scene=scene_of(scene),
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
        f"{reading_key(p, r)}: {spec.variation_points[p].readings[r]}" for p, r in readings.items()
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
    combo = ", ".join(reading_key(p, r) for p, r in readings.items())
    label = ruleset.label()
    return from_words(
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


def clause_deleted(
    spec: Spec,
    ruleset: Ruleset,
    readings: Mapping[str, str],
    engine: type[Game],
    *,
    players: Sequence[int] = (),
    scene: SceneWords | None = None,
) -> Alternative:
    """A dead clause: the rules under the readings it hinges on, with the clause (the reference
    engine) and without it (`engine`)."""
    named = dict(readings)
    under = spec.with_readings(ruleset, named)
    if players and not all(dealable(under, n) for n in players) and "deal" in spec.variation_points:
        # Readings that cannot deal the table's cards by the hand-size table can still be played by
        # dealing the whole deck; the finding does not hinge on the deal.
        named = {**named, "deal": "deal_all"}
        under = spec.with_readings(ruleset, named)
    where = f" under {', '.join(reading_key(p, r) for p, r in named.items())}" if named else ""
    return from_words(
        words_of(spec),
        "clause_deleted",
        under,
        under,
        engine=engine,
        players=players,
        scene=scene,
        blanks={"where": where, "under": where or " as played"},
    )


# ---- the scene, played on both sides -------------------------------------------------------------


def _side(game: Game, state: State, then: Sequence[Move], deck: bool = False) -> dict[str, Any]:
    legal = game.legal_moves(state)
    out: dict[str, Any] = {"legal_moves": moves_text(legal)}
    if deck:
        out["copies_of_each_card"] = game.copies
        out["set_closes_at"] = game.closing_size("set")
    for move in then:
        if move in legal:
            after, events = game.apply(state, move)
            out[f"after {move}"] = result_of(events, after)
        else:
            out[f"after {move}"] = "not allowed"
    return out


def scene_witness(alt: Alternative, engine: EngineFactory | None = None) -> Witness | None:
    """The alternative's scene played under both sides (the played side by `engine`, the engine under
    check, when given): the legal moves, and what each asked-about move leads to."""
    scene = alt.scene
    if scene is None:
        return None
    players = scene.position.players
    played = (engine or alt.played.engine)(alt.played.ruleset, players)
    compared = alt.compared.engine(alt.compared.ruleset, players)
    state = played.play_from(scene.position)
    a = _side(played, state, scene.then, scene.show_deck)
    b = _side(compared, state, scene.then, scene.show_deck)
    if a == b:
        verdict = (
            "Both alternatives allow the same moves, and every move asked about leads to the same result."
        )
    else:
        differ = [k for k in a if a[k] != b.get(k)]
        verdict = "The alternatives differ in: " + ", ".join(k.replace("_", " ") for k in differ) + "."
    return Witness(
        summary=f"{scene.describe} {verdict}",
        situation=situation_of(played, state),
        outcomes={alt.labels[0]: a, alt.labels[1]: b},
        cards=state_cards(played, state),
        position=scene.position,
    )
