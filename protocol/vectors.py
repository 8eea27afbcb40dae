"""Conformance vectors: protocol conversations an engine can be driven through in its own test runner.

A vector is a small, self-contained JSON file (schemas/vector.schema.json): the rules it needs (the
profile's readings and the parameters), a `new_round` deal, the moves that reach a position, then the
requests about it (`legal`, one `apply`, `state`) with the reference engine's answers. An implementer
replays `conversation` against their engine and compares each answer by the rules of index.json's
`compare`; no five35 harness is needed (`examples/vectors-node/run.mjs` does it in JavaScript,
`run_vector` of vector_runner.py in Python).

Every expected answer is the reference's own: each conversation is sent through
`ReferenceEngine.handle`, exactly what `535-check serve` answers. The sources of positions:

- the texts' own examples (the ids of checks/text/text_examples.py), set up by hand (scenes.py);
- one scene per clause that governs play, set up by hand (scenes.py);
- deals the rules refuse (too many players, a rank the deck lacks, too many copies);
- for every variation point, its minimal witness: the smallest position within a bounded search (a
  lead, then one play onto it) where changing that reading alone changes an answer
  (witness_search.py);
- one seeded round per player count, played to its end with `legal` checked before every move.

What a vector covers is measured, not declared: `covers.readings` lists the points whose reading,
changed alone, changes some answer of the conversation (so an engine with the other reading fails
the vector). Clauses and text examples are named by the scene that sets the position up. What the
suite says in words (titles, reasons, `compare`) is the words file's `vectors` section.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import Move, Position
from ..engine.engines import engine_note
from ..engine.simulate import EndlessPlay, move_limit
from ..spec import Ruleset, Spec, other_game
from ..spec.words import words_of
from ..spec.words_model import VectorWords
from .messages import PROTOCOL_VERSION, deal_json, move_json
from .scenes import CLAUSE_SCENES, REFUSALS, TEXT_SCENES, Setup
from .server import ReferenceEngine
from .vector_runner import check_hello, compare, normal, run_vector
from .witness_search import Engines, alternatives, search

VECTOR_FORMAT = "five35-vector/1"
SUITE_FORMAT = "five35-vectors/1"
INDEX = "index.json"

#: Variation points the protocol cannot show: `new_round` gives the hands and the leader, so how a
#: deal is made and who leads a round are the engine's business outside protocol version 1 (why,
#: by point: the words file's `vectors.not_observable`).
PROTOCOL_INVISIBLE = frozenset({"deal", "first_leader", "round_leader"})

SLUG = re.compile(r"[^a-z0-9]+")


# ---- what a vector is made of -----------------------------------------------------------------


@dataclass(frozen=True)
class Vector:
    """One conversation and what it covers. `requests` are fixed by the profile; `responses` are the
    reference's answers under it (error messages dropped)."""

    slug: str
    title: str
    source: str
    deal: Mapping[str, Any]
    moves: tuple[Move, ...]
    move: Move | None
    requests: tuple[dict[str, Any], ...]
    responses: tuple[dict[str, Any], ...]
    clauses: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    witnesses: tuple[str, ...] = ()
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """Two vectors with the same requests are the same vector (their covers are merged)."""
        return json.dumps(self.requests, sort_keys=True)


# ---- conversations ----------------------------------------------------------------------------


def _requests(
    deal: Mapping[str, Any], moves: Sequence[Move], move: Move | None, every_step: bool
) -> list[dict[str, Any]]:
    requests: list[dict[str, Any]] = [{"type": "new_round", **deal}]
    for m in moves:
        if every_step:
            requests.append({"type": "legal"})
        requests.append({"type": "apply", "move": move_json(m)})
    if move is not None:
        requests += [{"type": "legal"}, {"type": "apply", "move": move_json(move)}]
    requests.append({"type": "state"})
    return [{"id": i, **r} for i, r in enumerate(requests, 1)]


def _answers(engine: ReferenceEngine, requests: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for request in requests:
        out.append(normal(engine.handle(request)))
        if request["type"] == "new_round" and not out[-1]["ok"]:
            break  # a refused deal starts no round: nothing after it would be about this vector
    return out


def _differs(engine: ReferenceEngine, requests: Sequence[Mapping[str, Any]], expected: Sequence[Any]) -> bool:
    """Whether `engine` answers any request differently from `expected` (stopping at the first)."""
    for i, request in enumerate(requests):
        if i >= len(expected) or normal(engine.handle(request)) != expected[i]:
            return True
    return False


def _vector(
    engines: Engines,
    ruleset: Ruleset,
    slug: str,
    title: str,
    source: str,
    position: Position,
    move: Move | None,
    every_step: bool = False,
    clauses: tuple[str, ...] = (),
    examples: tuple[str, ...] = (),
    witnesses: tuple[str, ...] = (),
) -> Vector:
    deal = deal_json(position)
    requests = _requests(deal, position.moves, move, every_step)
    responses = _answers(engines.engine(ruleset), requests)
    return Vector(
        slug,
        title,
        source,
        deal,
        position.moves,
        move,
        tuple(requests[: len(responses)]),
        tuple(responses),
        clauses=clauses,
        examples=examples,
        witnesses=witnesses,
    )


def _plays(engines: Engines, ruleset: Ruleset, setup: Setup, may_refuse: bool) -> bool:
    """Whether the ruleset plays this setup: the deal and moves accepted, the move legal (unless the
    scene is about a move that may be refused)."""
    position = setup.position()
    if not ruleset.players_min <= position.players <= ruleset.players_max:
        return False
    game = engines.game(ruleset, position.players)
    try:
        state = game.play_from(position)
    except ValueError:  # a DealError or an IllegalMove
        return False
    if setup.move is None or may_refuse:
        return True
    return Move.parse(setup.move) in game.legal_moves(state)


# ---- what a vector shows ------------------------------------------------------------------------


def shown_readings(
    spec: Spec, ruleset: Ruleset, vector: Vector, engines: Engines
) -> tuple[tuple[str, str], ...]:
    """The points whose reading, changed alone, changes some answer of the vector's conversation."""
    shown = []
    for point in spec.variation_points:
        if point in PROTOCOL_INVISIBLE:
            continue
        for other in alternatives(spec, ruleset, point):
            if _differs(engines.engine(other), vector.requests, vector.responses):
                shown.append((point, ruleset.reading(point)))
                break
    return tuple(shown)


# ---- the suite ----------------------------------------------------------------------------------


@dataclass
class Suite:
    """The vectors of one ruleset, their files' names, and what they cover."""

    spec: Spec
    ruleset: Ruleset
    seed: int
    say: VectorWords  # the words file's `vectors` section
    vectors: list[Vector] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    not_shown: dict[str, str] = field(default_factory=dict)
    #: Why no vector claims a clause (another game's spec), or None.
    clauses_not_claimed: str | None = None

    def names(self) -> list[str]:
        width = max(3, len(str(len(self.vectors))))
        return [f"{i:0{width}d}-{v.slug}.json" for i, v in enumerate(self.vectors, 1)]

    def rules(self) -> dict[str, Any]:
        return {
            "profile": self.ruleset.profile,
            "label": self.ruleset.label(),
            "readings": self.ruleset.readings,
            "parameters": self.ruleset.to_json()["parameters"],
        }

    def vector_json(self, vector: Vector, name: str) -> dict[str, Any]:
        return {
            "format": VECTOR_FORMAT,
            "name": name.removesuffix(".json"),
            "title": vector.title,
            "source": vector.source,
            "covers": _covers(vector),
            "rules": self.rules(),
            "deal": dict(vector.deal),
            "moves": [move_json(m) for m in vector.moves],
            "move": move_json(vector.move) if vector.move else None,
            "conversation": [
                {"request": q, "response": a} for q, a in zip(vector.requests, vector.responses, strict=True)
            ],
        }

    def index_json(self) -> dict[str, Any]:
        names = self.names()
        clauses: dict[str, list[str]] = {}
        readings: dict[str, dict[str, Any]] = {}
        for name, v in zip(names, self.vectors, strict=True):
            for c in v.clauses:
                clauses.setdefault(c, []).append(name)
            for point, reading in v.readings:
                readings.setdefault(point, {"reading": reading, "vectors": []})["vectors"].append(name)
        return {
            "format": SUITE_FORMAT,
            "spec": self.spec.label,
            "seed": self.seed,
            "protocol": PROTOCOL_VERSION,
            "rules": self.rules(),
            # Which engine gave the expected answers: the reference, or the spec interpreter where
            # the reference does not play these rules.
            "played_by": engine_note(self.ruleset, words_of(self.spec).engines),
            "not_observable": sorted(p for p in PROTOCOL_INVISIBLE if p in self.spec.variation_points),
            "compare": self.say.compare,
            "vectors": [
                {"file": name, "title": v.title, "source": v.source, "covers": _covers(v)}
                for name, v in zip(names, self.vectors, strict=True)
            ],
            "coverage": {
                "clauses": dict(sorted(clauses.items())),
                "readings": dict(sorted(readings.items())),
                "not_shown": dict(sorted(self.not_shown.items())),
                **({"clauses_not_claimed": self.clauses_not_claimed} if self.clauses_not_claimed else {}),
            },
            "skipped": self.skipped,
        }

    def files(self) -> dict[str, str]:
        """Every file of the suite, name -> text: the vectors and index.json."""
        out = {
            name: render(self.vector_json(v, name))
            for name, v in zip(self.names(), self.vectors, strict=True)
        }
        out[INDEX] = render(self.index_json())
        return out


def _covers(vector: Vector) -> dict[str, Any]:
    return {
        "clauses": sorted(vector.clauses),
        "readings": dict(sorted(vector.readings)),
        "examples": sorted(vector.examples),
        "witnesses": sorted(vector.witnesses),
    }


def render(data: Mapping[str, Any]) -> str:
    """A vector or index as text: one top-level key per line group, every exchange of a conversation
    and every vector of an index on one line, nested keys sorted (the same bytes on every run)."""

    def one(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    lines = ["{"]
    keys = list(data)  # the order the builder gives: what the vector is first, its conversation last
    for n, key in enumerate(keys):
        value = data[key]
        comma = "," if n < len(keys) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f"  {one(key)}: [")
            lines += [f"    {one(v)}{',' if i < len(value) - 1 else ''}" for i, v in enumerate(value)]
            lines.append(f"  ]{comma}")
        elif isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            lines.append(f"  {one(key)}: {{")
            items = sorted(value.items())
            lines += [
                f"    {one(k)}: {one(v)}{',' if i < len(items) - 1 else ''}" for i, (k, v) in enumerate(items)
            ]
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _slug(text: str) -> str:
    return SLUG.sub("-", text.lower()).strip("-")


def _merge(vectors: list[Vector], new: Vector) -> None:
    """Add `new`, or merge its covers into a vector with the same conversation."""
    for i, old in enumerate(vectors):
        if old.key == new.key:
            vectors[i] = replace(
                old,
                clauses=tuple(dict.fromkeys(old.clauses + new.clauses)),
                examples=tuple(dict.fromkeys(old.examples + new.examples)),
                witnesses=tuple(dict.fromkeys(old.witnesses + new.witnesses)),
            )
            return
    vectors.append(new)


def build_suite(
    spec: Spec, ruleset: Ruleset, seed: int, progress: Callable[[str], None] | None = None
) -> Suite:
    """The conformance vectors of `ruleset`: text examples, clause scenes, refused deals, the
    smallest position that shows each variation point's reading, and one seeded round per player
    count. `progress` is told when each part is done."""
    note = progress or (lambda _: None)
    say = words_of(spec).vectors
    engines = Engines()
    suite = Suite(spec, ruleset, seed, say)
    vectors: list[Vector] = []
    foreign = other_game(spec)
    _scene_vectors(suite, engines, vectors, foreign)
    _refusal_vectors(suite, engines, vectors)
    note(say("done_scenes"))
    _witness_vectors(suite, engines, vectors)
    note(say("done_witnesses"))
    for players in range(ruleset.players_min, ruleset.players_max + 1):
        vectors.append(_seeded(engines, ruleset, players, seed, say))
    note(say("done_seeded"))
    suite.vectors = [replace(v, readings=shown_readings(spec, ruleset, v, engines)) for v in vectors]
    for point in spec.variation_points:
        if point not in suite.not_shown and not any(point in dict(v.readings) for v in suite.vectors):
            suite.not_shown[point] = say("unshown")
    if foreign is not None:
        # The scenes' clause ids and examples are 535's texts': they cover none of another game's.
        suite.vectors = [replace(v, clauses=(), examples=()) for v in suite.vectors]
        suite.clauses_not_claimed = say("clauses_not_claimed", game=foreign)
    return suite


def _scene_vectors(suite: Suite, engines: Engines, vectors: list[Vector], foreign: str | None) -> None:
    """The vectors of the scenes set up by hand (the texts' examples, then the clauses), each
    played by the first of its setups the ruleset plays; a scene none plays is skipped."""
    ruleset, say = suite.ruleset, suite.say
    for source, scenes in (("text", TEXT_SCENES), ("clause", CLAUSE_SCENES)):
        for scene in scenes:
            if foreign is not None and source == "text":
                suite.skipped.append({"scene": scene.slug, "why": say("text_example", game=foreign)})
                continue
            setup = next((s for s in scene.setups if _plays(engines, ruleset, s, scene.may_refuse)), None)
            if setup is None:
                suite.skipped.append({"scene": scene.slug, "why": say("no_setup")})
                continue
            position = setup.position()
            move = Move.parse(setup.move) if setup.move else None
            _merge(
                vectors,
                _vector(
                    engines, ruleset, scene.slug, say.titles[scene.slug], source, position, move,
                    clauses=scene.clauses, examples=scene.examples,
                ),
            )  # fmt: skip


def _refusal_vectors(suite: Suite, engines: Engines, vectors: list[Vector]) -> None:
    """The vectors of the deals the rules refuse: one `new_round` each, answered `bad_request`."""
    ruleset, say = suite.ruleset, suite.say
    for refusal in REFUSALS:
        deal = refusal.deal(ruleset)
        requests = [{"id": 1, "type": "new_round", **deal}] if deal else []
        answers = _answers(engines.engine(ruleset), requests)
        if not answers or answers[0]["ok"]:
            suite.skipped.append(
                {"scene": refusal.slug, "why": say("not_refused" if answers else "no_such_deal")}
            )
            continue
        assert deal is not None
        vectors.append(
            Vector(
                refusal.slug, say.titles[refusal.slug], "deal", deal, (), None, tuple(requests),
                tuple(answers), clauses=refusal.clauses, examples=refusal.examples,
            )
        )  # fmt: skip


def _witness_vectors(suite: Suite, engines: Engines, vectors: list[Vector]) -> None:
    """The smallest position that shows each variation point's reading, or why there is none."""
    spec, ruleset, say = suite.spec, suite.ruleset, suite.say
    for point, vp in spec.variation_points.items():
        if point in PROTOCOL_INVISIBLE:
            suite.not_shown[point] = say("not_observable", why=say.not_observable[point])
            continue
        if len(vp.playable) < 2:
            suite.not_shown[point] = say("one_reading")
            continue
        found = search(spec, ruleset, point, engines)
        if found is None:
            others = ", ".join(f"{point}={r}" for r in vp.playable if r != ruleset.reading(point))
            suite.not_shown[point] = say("not_found", bounds=say("search_bounds"), others=others)
            continue
        position, move = found
        reading = ruleset.reading(point)
        onto = say("onto", move=position.moves[-1]) if position.moves else ""
        title = say("witness", point=point, reading=reading, players=position.players, move=move, onto=onto)
        _merge(
            vectors,
            _vector(
                engines, ruleset, f"witness-{_slug(point)}-{_slug(reading)}", title, "witness",
                position, move, clauses=vp.cites, witnesses=(f"divergence:vp.{point}",),
            ),
        )  # fmt: skip


def _seeded(engines: Engines, ruleset: Ruleset, players: int, seed: int, say: VectorWords) -> Vector:
    """A seeded deal played to the end of its round by random legal moves, `legal` checked before
    every move."""
    game = engines.game(ruleset, players)
    state = game.new_match(seed)
    start = Position(tuple(tuple(game.hand(state, p)) for p in range(players)), state.to_move, state.scores)
    rng = random.Random(f"five35-vectors:{seed}:{players}")
    moves: list[Move] = []
    most = move_limit(game)
    while state.phase == "play":
        if len(moves) >= most:
            raise EndlessPlay(f"the seeded round of {players} players", most)
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state, _ = game.apply(state, move)
    last = moves.pop()
    vector = _vector(
        engines, ruleset, f"seeded-{players}-players",
        say("seeded", players=players, seed=seed),
        "seeded", replace(start, moves=tuple(moves)), last, every_step=True,
        clauses=("game.players", "action.choice", "round.end", "round.scoring"),
    )  # fmt: skip
    return vector


__all__ = [
    "INDEX",
    "PROTOCOL_INVISIBLE",
    "SUITE_FORMAT",
    "VECTOR_FORMAT",
    "Suite",
    "Vector",
    "alternatives",
    "build_suite",
    "check_hello",
    "compare",
    "run_vector",
    "search",
]
