"""A finding's scene: a table from the words file, played on both sides of its alternative.

The words file (spec/535.words.yaml) may give a finding a scene: a deal, the moves that set the
table up, and the moves asked about (`then`). `scene_of` turns those words into a `Scene` (a
`Position` and moves); `scene_witness` sets it up on the engines of both sides and writes down, as
a `Witness`, the legal moves of each and what every asked-about move leads to.

The words file is written for the embedded spec; a copy with other numbers (fewer ranks, fewer
copies, other player counts, a smaller turn) may not be able to supply a scene's table. That is the
words file's problem for that spec, not the engine's: `scene_problem` says why a scene cannot be set
up under a ruleset, `scene_of` gives no scene then (the finding is shown without it), and
`skipped_scenes` lists them for the note the text audit makes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...engine import Game, IllegalMove, Move, Position, State
from ...engine.cards import DealError
from ...engine.engines import Engine, make_engine
from ...spec import Ruleset, Spec, SpecError
from ...spec.vocabulary import UnimplementedReading
from ...spec.words_model import CheckWords, SceneWords, Words
from ..findings import Alternative, EngineFactory, OutcomeMoves, Scene, Witness, asked_key
from .witnesses import moves_text, result_of, situation_of, sorted_moves, state_cards


def _position(words: SceneWords) -> Position:
    return Position(
        hands=words.hands,
        leader=words.leader,
        moves=tuple(Move(action, cards) for action, cards in words.plays),  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class SceneProblem:
    """Why a scene cannot be set up: sentence `which` of the check words `impact.scenes`, and its
    blanks."""

    which: str
    blanks: tuple[tuple[str, object], ...]

    def text(self, say: CheckWords) -> str:
        return say(self.which, **dict(self.blanks))


@lru_cache(maxsize=1024)
def scene_problem(words: SceneWords, ruleset: Ruleset) -> SceneProblem | None:
    """Why the reference engine cannot set `words`' table up under `ruleset` (None when it can): a
    player count the rules do not play, a rank the deck lacks, more cards of a rank than its copies,
    or a move that sets the table up and is not legal under these rules."""
    players = len(words.hands)
    if not ruleset.players_min <= players <= ruleset.players_max:
        return SceneProblem(
            "players", (("players", players), ("low", ruleset.players_min), ("high", ruleset.players_max))
        )
    held = Counter(card for hand in words.hands for card in hand)
    stray = sorted(set(held) - set(ruleset.ranks))
    if stray:
        return SceneProblem("ranks" if len(stray) > 1 else "rank", (("ranks", ", ".join(map(str, stray))),))
    copies = ruleset.copies(players)
    over = [(rank, count) for rank, count in sorted(held.items()) if count > copies]
    if over:
        rank, count = over[0]
        return SceneProblem(
            "copies", (("count", count), ("rank", rank), ("copies", copies), ("players", players))
        )
    try:
        make_engine(ruleset, players).play_from(_position(words))
    except (DealError, IllegalMove, SpecError) as exc:
        return SceneProblem("not_set_up", (("error", " ".join(str(exc).split())),))
    return None


def scene_of(words: SceneWords | None, say: CheckWords, *rulesets: Ruleset) -> Scene | None:
    """The words file's scene as a position and the moves asked about; None when there is none, or
    when the reference engine cannot set it up under one of `rulesets` (the sides it is played on).
    `say`: the words its witness is written in (check words `impact.scenes`)."""
    if words is None or any(scene_problem(words, r) is not None for r in rulesets):
        return None
    then = tuple(Move(action, cards) for action, cards in words.then)  # type: ignore[arg-type]
    return Scene(words.name, _position(words), then, words.describe, say, words.show_deck)


def skipped_scenes(spec: Spec, words: Words, ruleset: Ruleset) -> tuple[str, ...]:
    """A note for every scene of the spec's words file (`words`) that `ruleset` cannot supply, in the
    file's order: such a scene is left out of the findings it would show."""
    say = words.check("impact.scenes")
    out = []
    for name, scene in words.scenes.items():
        problem = scene_problem(scene, ruleset)
        if problem is not None:
            out.append(
                say(
                    "skipped",
                    scene=name,
                    words=words.path.name,
                    spec=spec.path.name,
                    label=ruleset.label(),
                    problem=problem.text(say),
                )
            )
    return tuple(out)


def _made(factory: EngineFactory, ruleset: Ruleset, players: int) -> Engine:
    # The reference stands for "whichever engine plays these rules" (as in measure.py): where it
    # does not play them (a house rule, another game), the spec interpreter does.
    return make_engine(ruleset, players) if factory is Game else factory(ruleset, players)


def _side(
    game: Engine, state: State, then: Sequence[Move], say: CheckWords, deck: bool = False
) -> dict[str, Any]:
    legal = game.legal_moves(state)
    out: dict[str, Any] = {"legal_moves": moves_text(legal)}
    if deck:
        out["copies_of_each_card"] = game.copies
        out["set_closes_at"] = game.closing_size("set")
    for move in then:
        if move in legal:
            after, events = game.apply(state, move)
            out[asked_key(move)] = result_of(events, after)
        else:
            out[asked_key(move)] = say("not_allowed")
    return out


def scene_witness(alt: Alternative, engine: EngineFactory | None = None) -> Witness | None:
    """The alternative's scene played under both sides (the played side by `engine`, the engine under
    check, when given): the legal moves, and what each asked-about move leads to."""
    scene = alt.scene
    if scene is None:
        return None
    players = scene.position.players
    try:
        played = _made(engine or alt.played.engine, alt.played.ruleset, players)
        compared = _made(alt.compared.engine, alt.compared.ruleset, players)
    except UnimplementedReading:
        # A side made of the reference engine's hooks (a clause deleted, an example repaired)
        # cannot play rules the reference does not: no scene rather than one played otherwise.
        return None
    state = played.play_from(scene.position)
    say = scene.say
    a = _side(played, state, scene.then, say, scene.show_deck)
    b = _side(compared, state, scene.then, say, scene.show_deck)
    if a == b:
        verdict = say("same")
    else:
        # The outcomes by what they are called: their own names, or the move asked about.
        named = {k: say(k) for k in ("legal_moves", "copies_of_each_card", "set_closes_at")}
        verdict = say("differ", differ=", ".join(named.get(k, k) for k in a if a[k] != b.get(k)))
    return Witness(
        summary=say("summary", describe=scene.describe, verdict=verdict),
        situation=situation_of(played, state),
        outcomes={alt.labels[0]: a, alt.labels[1]: b},
        cards=state_cards(played, state),
        position=scene.position,
        asked=scene.then,
        moves={
            alt.labels[0]: OutcomeMoves(legal=sorted_moves(played.legal_moves(state))),
            alt.labels[1]: OutcomeMoves(legal=sorted_moves(compared.legal_moves(state))),
        },
    )
