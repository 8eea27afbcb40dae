"""Conformance vectors: protocol conversations an engine can be driven through in its own test runner.

A vector is a small, self-contained JSON file (schemas/vector.schema.json): the rules it needs (the
profile's readings and the parameters), a `new_round` deal, the moves that reach a position, then the
requests about it (`legal`, one `apply`, `state`) with the reference engine's answers. An implementer
replays `conversation` against their engine and compares each answer by the rules in `COMPARE`; no
five35 harness is needed (`examples/vectors-node/run.mjs` does it in JavaScript, `run_vector` here in
Python).

Every expected answer is the reference's own: each conversation is sent through
`ReferenceEngine.handle`, exactly what `535-check serve` answers. The sources of positions:

- the texts' own examples (the ids of checks/text/text_examples.py), set up by hand;
- one scene per clause that governs play, set up by hand;
- deals the rules refuse (too many players, a rank the deck lacks, too many copies);
- for every variation point, its minimal witness: the smallest position (sized as the divergence
  check sizes its witnesses: cards, then players, then ranks, then pile) within a bounded search (a
  lead, then one play onto it) where changing that reading alone changes an answer. It is searched
  on the engine rather than taken from the check's Z3 model: no solver is needed, the search sees
  every answer the protocol compares (the state's `aside` too, which the model does not hold), and
  only positions play reaches are candidates (tests/protocol/test_vectors.py checks that where the check's
  witness is reachable the two are the same size);
- one seeded round per player count, played to its end with `legal` checked before every move.

What a vector covers is measured, not declared: `covers.readings` lists the points whose reading,
changed alone, changes some answer of the conversation (so an engine with the other reading fails
the vector). Clauses and text examples are named by the scene that sets the position up.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import PASS, Move, Pile, Position, State
from ..engine.engines import Engine, engine_note, make_engine
from ..engine.simulate import EndlessPlay, move_limit
from ..spec import Ruleset, Spec, other_game
from .messages import PROTOCOL_VERSION, deal_json, move_json
from .scenes import CLAUSE_SCENES, REFUSALS, TEXT_SCENES, Setup
from .server import ReferenceEngine, state_json

VECTOR_FORMAT = "five35-vector/1"
SUITE_FORMAT = "five35-vectors/1"
INDEX = "index.json"

#: How an answer is compared with a vector's expected response (the schema and docs say the same).
COMPARE = (
    "Send each request as one JSON line and compare the answer with the expected response: "
    "id, type and ok must be equal; when ok is false only error.code is compared (the message is "
    "free text); a legal answer's moves are compared as a set (any order, each once); every other "
    "field must be equal as a JSON value, and the answer may hold no other field."
)

#: Variation points the protocol cannot show: `new_round` gives the hands and the leader, so how a
#: deal is made and who leads a round are the engine's business outside protocol version 1.
PROTOCOL_INVISIBLE: dict[str, str] = {
    "deal": "new_round gives every hand, so how many cards a deal gives is not asked",
    "first_leader": "new_round names the leader of the round",
    "round_leader": "new_round names the leader of the round; a round's successor is not asked",
}

#: The search for a position that shows a reading: a lead, then at most one play onto it.
SEARCH_BOUNDS = "a lead and at most one play onto it, at every player count"

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


class _Engines:
    """One reference engine per ruleset, reused across conversations (each starts with new_round)."""

    def __init__(self) -> None:
        self._engines: dict[Ruleset, ReferenceEngine] = {}
        self._games: dict[tuple[Ruleset, int], Engine] = {}

    def engine(self, ruleset: Ruleset) -> ReferenceEngine:
        found = self._engines.get(ruleset)
        if found is None:
            found = self._engines[ruleset] = ReferenceEngine(ruleset)
        return found

    def game(self, ruleset: Ruleset, players: int) -> Engine:
        found = self._games.get((ruleset, players))
        if found is None:
            found = self._games[(ruleset, players)] = make_engine(ruleset, players)
        return found


def normal(response: Mapping[str, Any]) -> dict[str, Any]:
    """An answer as a vector stores it and compares it: no error message (free text), a legal
    answer's moves in one order (they are a set)."""
    out = dict(response)
    if out.get("ok") is False and isinstance(out.get("error"), Mapping):
        out["error"] = {k: v for k, v in out["error"].items() if k != "message"}
    if out.get("type") == "legal" and out.get("ok") is True and isinstance(out.get("moves"), list):
        out["moves"] = sorted(out["moves"], key=lambda m: json.dumps(m, sort_keys=True))
    return out


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
    engines: _Engines,
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


def _plays(engines: _Engines, ruleset: Ruleset, setup: Setup, may_refuse: bool) -> bool:
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


# ---- the positions where readings differ --------------------------------------------------------


def alternatives(spec: Spec, ruleset: Ruleset, point: str) -> list[Ruleset]:
    """`ruleset` with each other playable reading of `point` in turn."""
    mine = ruleset.reading(point)
    return [
        spec.with_readings(ruleset, {point: r}) for r in spec.variation_points[point].playable if r != mine
    ]


def shown_readings(
    spec: Spec, ruleset: Ruleset, vector: Vector, engines: _Engines
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


def _spares(ruleset: Ruleset, used: set[int], count: int) -> list[int]:
    # A card per seat that nobody plays keeps every hand non-empty after its plays; never an 8.
    free = [r for r in reversed(ruleset.ranks) if r not in used and r != 8]
    free = free or [r for r in reversed(ruleset.ranks) if r != 8] or list(ruleset.ranks)
    return [free[i % len(free)] for i in range(count)]


def _responses_to(games: Sequence[Engine], pile: Pile) -> list[Move]:
    """Every overwrite and add onto `pile` under any of `games`, and pass: the union, in one order."""
    found: dict[Move, None] = {}
    for game in games:
        for move in game.placing_moves(pile):
            found[move] = None
    found[PASS] = None
    return sorted(found, key=lambda m: (len(m.cards), m.cards, m.action))


def _leads(games: Sequence[Engine]) -> list[Move]:
    found = {Move("lead", tuple(sorted(p.cards))): None for g in games for p in g.placeable_piles()}
    return sorted(found, key=lambda m: (len(m.cards), m.cards))


def _position(
    ruleset: Ruleset, players: int, plays: Sequence[tuple[int, Move]], asked: tuple[int, Move] | None
) -> Position:
    """A deal in which every seat holds the cards it places (the setup `plays`, then the `asked`
    move) and one spare card, seat 0 leading."""
    placed = [*plays, *([asked] if asked else [])]
    used = {c for _, m in placed for c in m.cards}
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, m in placed:
        hands[seat].extend(m.cards)
    for seat, spare in enumerate(_spares(ruleset, used, players)):
        hands[seat].append(spare)
    return Position(tuple(tuple(sorted(h)) for h in hands), 0, None, tuple(m for _, m in plays))


def _outcome(game: Engine, position: Position, move: Move) -> Any:
    """What playing `move` in `position` does: refused, or its events and the state after it. Only
    the move is judged (as the divergence check judges one play), not the mover's other options,
    which the spare cards of a searched deal would widen."""
    try:
        state = game.play_from(position)
    except ValueError as exc:  # the deal or a setup move refused
        return ("refused", type(exc).__name__)
    try:
        after, events = game.apply(state, move)
    except ValueError:
        return "illegal"
    return (events, json.dumps(state_json(game, after), sort_keys=True))


def _differs_at(mine: Engine, theirs: Sequence[Engine], position: Position, move: Move) -> bool:
    expected = _outcome(mine, position, move)
    return any(_outcome(g, position, move) != expected for g in theirs)


def search(
    spec: Spec, ruleset: Ruleset, point: str, engines: _Engines | None = None
) -> tuple[Position, Move] | None:
    """The smallest position within SEARCH_BOUNDS where changing `point`'s reading alone changes the
    answer to one move: legal or refused, its events, the state after it. Smallest as the divergence
    check measures its witnesses: fewest cards on the pile and in the play, then the fewest players,
    then the lowest sum of their ranks, then the smallest pile; remaining ties go to the first in a
    fixed order, so the answer never varies."""
    engines = engines or _Engines()
    others = alternatives(spec, ruleset, point)
    tables = [
        _Table(ruleset, n, engines.game(ruleset, n), [engines.game(o, n) for o in others])
        for n in range(ruleset.players_min, ruleset.players_max + 1)
    ]
    # Candidates are tried size by size (cards on the pile and in the play), so the replies to a
    # lead are listed only once a size needs them: the answer is the one a sort of every
    # candidate would give first, without building every pile's options for every reading.
    largest_lead = max((len(m.cards) for t in tables for m in t.leads), default=0)
    size = 1
    while size <= largest_lead or any(size <= t.largest_reply_seen() for t in tables):
        candidates: list[tuple[tuple[int, int, int, int, str], Engine, list[Engine], Position, Move]] = []
        for t in tables:
            for lead in t.leads:
                if len(lead.cards) == size:
                    position = _position(ruleset, t.players, (), (0, lead))
                    key = (size, t.players, sum(lead.cards), 0, str(lead))
                    candidates.append((key, t.mine, t.theirs, position, lead))
            for lead, state, pile in t.opened(size):
                for reply in t.replies(pile, size - len(lead.cards)):
                    position = _position(ruleset, t.players, [(0, lead)], (state.to_move, reply))
                    total = sum(lead.cards) + sum(reply.cards)
                    key = (size, t.players, total, len(lead.cards), f"{lead}/{reply}")
                    candidates.append((key, t.mine, t.theirs, position, reply))
        candidates.sort(key=lambda c: c[0])
        for _, mine, theirs, position, move in candidates:
            if _differs_at(mine, theirs, position, move):
                return position, move
        size += 1
    return None


class _Table:
    """One player count of a search: the engines, the leads, and the replies listed as needed."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        mine: Engine,
        theirs: list[Engine],
    ) -> None:
        self.ruleset, self.players, self.mine, self.theirs = ruleset, players, mine, theirs
        self.every = [mine, *theirs]
        self.leads = _leads(self.every)
        self._opened: list[tuple[Move, State, Pile]] | None = None
        self._replies: dict[Pile, list[Move]] = {}

    def opened(self, size: int) -> list[tuple[Move, State, Pile]]:
        """My leads shorter than `size` that leave a pile, with the state after each and its pile."""
        if self._opened is None:
            self._opened = []
            for lead in _leads([self.mine]):
                try:
                    state = self.mine.play_from(_position(self.ruleset, self.players, [(0, lead)], None))
                except ValueError:
                    continue
                if state.pile is not None:  # else the lead ended the trick (or the round)
                    self._opened.append((lead, state, state.pile))
        return [(lead, state, pile) for lead, state, pile in self._opened if len(lead.cards) < size]

    def replies(self, pile: Pile, size: int) -> list[Move]:
        if pile not in self._replies:
            self._replies[pile] = _responses_to(self.every, pile)
        return [m for m in self._replies[pile] if len(m.cards) == size]

    def largest_reply_seen(self) -> int:
        """The longest lead and reply together among the piles listed so far (every lead's pile is
        listed once the sizes pass the longest lead)."""
        sizes = [
            len(lead.cards) + len(m.cards)
            for lead, _state, pile in self._opened or ()
            for m in self._replies.get(pile, ())
        ]
        return max(sizes, default=0)


# ---- the suite ----------------------------------------------------------------------------------


@dataclass
class Suite:
    """The vectors of one ruleset, their files' names, and what they cover."""

    spec: Spec
    ruleset: Ruleset
    seed: int
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
            "played_by": engine_note(self.ruleset),
            "not_observable": sorted(p for p in PROTOCOL_INVISIBLE if p in self.spec.variation_points),
            "compare": COMPARE,
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
    engines = _Engines()
    suite = Suite(spec, ruleset, seed)
    vectors: list[Vector] = []
    foreign = other_game(spec)
    for source, scenes in (("text", TEXT_SCENES), ("clause", CLAUSE_SCENES)):
        for scene in scenes:
            if foreign is not None and source == "text":
                suite.skipped.append({"scene": scene.slug, "why": f"an example of 535's texts: {foreign}"})
                continue
            setup = next((s for s in scene.setups if _plays(engines, ruleset, s, scene.may_refuse)), None)
            if setup is None:
                suite.skipped.append(
                    {"scene": scene.slug, "why": "no setup of the scene plays under these rules"}
                )
                continue
            position = setup.position()
            move = Move.parse(setup.move) if setup.move else None
            _merge(
                vectors,
                _vector(
                    engines, ruleset, scene.slug, scene.title, source, position, move,
                    clauses=scene.clauses, examples=scene.examples,
                ),
            )  # fmt: skip
    for refusal in REFUSALS:
        deal = refusal.deal(ruleset)
        requests = [{"id": 1, "type": "new_round", **deal}] if deal else []
        answers = _answers(engines.engine(ruleset), requests)
        if not answers or answers[0]["ok"]:
            why = "these rules do not refuse the deal" if answers else "these rules have no such deal"
            suite.skipped.append({"scene": refusal.slug, "why": why})
            continue
        assert deal is not None
        vectors.append(
            Vector(
                refusal.slug, refusal.title, "deal", deal, (), None, tuple(requests), tuple(answers),
                clauses=refusal.clauses, examples=refusal.examples,
            )
        )  # fmt: skip
    note("text examples, clause scenes and refused deals")
    for point, vp in spec.variation_points.items():
        if point in PROTOCOL_INVISIBLE:
            suite.not_shown[point] = f"not observable through the protocol: {PROTOCOL_INVISIBLE[point]}"
            continue
        if len(vp.playable) < 2:
            suite.not_shown[point] = "the point has one playable reading"
            continue
        found = search(spec, ruleset, point, engines)
        if found is None:
            others = ", ".join(f"{point}={r}" for r in vp.playable if r != ruleset.reading(point))
            suite.not_shown[point] = (
                f"no position within the search ({SEARCH_BOUNDS}) plays differently under {others}: "
                "under this profile's other readings the reading cannot matter"
            )
            continue
        position, move = found
        reading = ruleset.reading(point)
        onto = f" onto '{position.moves[-1]}'" if position.moves else ""
        _merge(
            vectors,
            _vector(
                engines, ruleset, f"witness-{_slug(point)}-{_slug(reading)}",
                f"The smallest position where {point}={reading} plays differently from the other readings: "
                f"{position.players} players, '{move}'{onto}",
                "witness", position, move, clauses=vp.cites, witnesses=(f"divergence:vp.{point}",),
            ),
        )  # fmt: skip
    note("the smallest position for every variation point")
    for players in range(ruleset.players_min, ruleset.players_max + 1):
        vectors.append(_seeded(engines, ruleset, players, seed))
    note("seeded rounds")
    suite.vectors = [replace(v, readings=shown_readings(spec, ruleset, v, engines)) for v in vectors]
    for point in spec.variation_points:
        if point not in suite.not_shown and not any(point in dict(v.readings) for v in suite.vectors):
            suite.not_shown[point] = "no vector's answers change with this reading alone"
    if foreign is not None:
        # The scenes' clause ids and examples are 535's texts': they cover none of another game's.
        suite.vectors = [replace(v, clauses=(), examples=()) for v in suite.vectors]
        suite.clauses_not_claimed = (
            f"{foreign}: the vectors' scenes were written for 535's texts, so no vector claims a clause"
        )
    return suite


def _seeded(engines: _Engines, ruleset: Ruleset, players: int, seed: int) -> Vector:
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
        f"{players} players, match seed {seed}: a round played to its end, legal moves checked at every step",
        "seeded", replace(start, moves=tuple(moves)), last, every_step=True,
        clauses=("game.players", "action.choice", "round.end", "round.scoring"),
    )  # fmt: skip
    return vector


# ---- a runner: replay a vector against any engine ---------------------------------------------


def compare(expected: Mapping[str, Any], answer: Any) -> str | None:
    """Why `answer` does not match the expected response (COMPARE's rules), or None."""
    if not isinstance(answer, dict):
        return f"expected a JSON object, got {one_line(answer)}"
    for key in ("id", "type", "ok"):
        if answer.get(key) != expected.get(key) or type(answer.get(key)) is not type(expected.get(key)):
            return f"{key}: expected {one_line(expected.get(key))}, got {one_line(answer.get(key))}"
    extra = sorted(str(k) for k in set(answer) - set(expected))
    if extra:
        return f"unknown field(s) {', '.join(extra)}"
    if expected["ok"] is False:
        error = answer.get("error")
        if not isinstance(error, dict) or set(error) - {"code", "message"}:
            return f"error: expected an object of code and message, got {one_line(error)}"
        if error.get("code") != expected["error"]["code"]:
            return f"error.code: expected {expected['error']['code']!r}, got {one_line(error.get('code'))}"
        return None
    for key in sorted(expected):
        if key not in answer:
            return f"{key}: missing"
    if expected["type"] == "legal":
        moves = answer["moves"]
        if not isinstance(moves, list):
            return f"moves: expected a list, got {one_line(moves)}"
        theirs = {one_line(m) for m in moves}
        if len(moves) != len(theirs):
            return "moves: a move is listed twice"
        ours = {one_line(m) for m in expected["moves"]}
        if ours != theirs:
            lacks, adds = " ".join(sorted(ours - theirs)), " ".join(sorted(theirs - ours))
            return f"moves: the engine lacks [{lacks}], adds [{adds}]"
    got = normal(answer)
    for key in sorted(expected):
        if got[key] != expected[key]:
            return f"{key}: expected {one_line(expected[key])}, got {one_line(got[key])}"
    return None


def one_line(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_vector(vector: Mapping[str, Any], handle: Callable[[dict[str, Any]], Any]) -> str | None:
    """Drive `handle` (one request in, one answer out) through the vector's conversation; the first
    mismatch as `request N (type): why`, or None when every answer matches."""
    for exchange in vector["conversation"]:
        request = exchange["request"]
        why = compare(exchange["response"], handle(json.loads(json.dumps(request))))
        if why is not None:
            return f"request {request['id']} ({request['type']}): {why}"
    return None


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def check_hello(index: Mapping[str, Any], hello: Mapping[str, Any]) -> str | None:
    """Whether an engine's hello declares the rules a suite (its index.json) was written for: every
    reading the protocol can observe, and every parameter. Why not, or None."""
    rules = index["rules"]
    skip = set(index.get("not_observable", ()))
    readings: dict[str, Any] = _object(hello.get("readings"))
    differ = sorted(p for p, r in rules["readings"].items() if p not in skip and readings.get(p) != r)
    if differ:
        shown = ", ".join(f"{p}={readings.get(p)} (the suite: {rules['readings'][p]})" for p in differ)
        return f"the engine declares other readings: {shown}"
    parameters: dict[str, Any] = _object(hello.get("parameters"))
    changed = sorted(k for k, v in rules["parameters"].items() if parameters.get(k) != v)
    if changed:
        return f"the engine declares other parameters: {', '.join(changed)}"
    return None


__all__ = [
    "COMPARE",
    "INDEX",
    "PROTOCOL_INVISIBLE",
    "SUITE_FORMAT",
    "VECTOR_FORMAT",
    "Suite",
    "Vector",
    "build_suite",
    "check_hello",
    "compare",
    "run_vector",
    "search",
]
