"""A finding's scene: a table from the words file, played on both sides of its alternative.

The words file (spec/535.words.yaml) may give a finding a scene: a deal, the moves that set the
table up, and the moves asked about (`then`). `scene_of` turns those words into a `Scene` (a
`Position` and moves); `scene_witness` sets it up on the engines of both sides and writes down, as
a `Witness`, the legal moves of each and what every asked-about move leads to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from five35.engine import Game, Move, Position, State
from five35.spec.words import SceneWords

from ..findings import Alternative, EngineFactory, Scene, Witness
from .witnesses import moves_text, result_of, situation_of, state_cards


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
