"""Lock-step play of one round on the reference and an engine, comparing every answer.

This is shared by `fuzz` (moves drawn by Hypothesis), `replay` (moves read from a file) and the
shrinker (moves replayed on a smaller deal). The reference is called directly (no protocol), the
engine through its client; the first disagreement is a `Divergence`. The deal of a round is a
`five35.engine.Position` without moves (what `new_round` sends), as everywhere else in five35.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jsonschema

from ..engine import IllegalMove, Move, Position, State
from ..engine.engines import Engine
from ..spec import Ruleset, Spec, SpecError
from ..spec.vocabulary import PARAMETERS
from .engine_client import EngineClient, EngineFault, Posted, response_body
from .messages import deal_json, event_json, move_json, move_key, shown
from .server import Answers, ReferenceGames

MAX_MOVES = 400
FIRST_MOVES = 4  # moves sent with a round's new_round (see play_round)
STATE: tuple[str, dict[str, Any]] = ("state", {})
LEGAL: tuple[str, dict[str, Any]] = ("legal", {})


@dataclass(frozen=True)
class Divergence:
    """The first request the two engines answered differently.

    `step` is the number of moves applied before it; `move` is the move of an `apply`.
    `reference` and `engine` are the two answers without their envelope.
    """

    step: int
    request: str
    move: Move | None
    summary: str
    reference: Any
    engine: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "request": self.request,
            "move": move_json(self.move) if self.move else None,
            "summary": self.summary,
            "reference": self.reference,
            "engine": self.engine,
        }


@dataclass(frozen=True)
class RoundResult:
    """What lock-step play of one round did: the moves sent and the divergence, if any."""

    deal: Position  # the round's start: hands, leader, scores (no moves)
    moves: tuple[Move, ...]
    divergence: Divergence | None
    requests: int
    ended: bool = False  # the round reached its end
    seen: tuple[tuple[str, int], ...] = ()  # what the agreed moves exercised (see compare_apply)

    @property
    def size(self) -> tuple[int, int, int, int]:
        """Smaller is a better witness: fewer cards dealt, fewer moves, fewer players, lower scores."""
        return (self.deal.cards, len(self.moves), self.deal.players, sum(self.deal.scores or ()))


# A chooser picks the next move (legal or, as a probe, illegal) or None to stop.
Chooser = Callable[[Engine, State, tuple[Move, ...]], Move | None]


class _Found(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.summary)
        self.divergence = divergence


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def moves_text(keys: list[tuple[str, tuple[int, ...]]]) -> str:
    return "; ".join(f"{a} {','.join(map(str, c))}".strip() for a, c in sorted(keys))


def compare_legal(step: int, body: dict[str, Any], answer: dict[str, Any]) -> None:
    """`answer` to `legal` against the reference's answer body `body` (Answers.legal)."""
    ref = {"ok": True, **body}
    eng = response_body(answer)
    if not answer["ok"]:
        raise _Found(Divergence(step, "legal", None, f"the engine refused legal: {eng['error']}", ref, eng))
    if ref["to_move"] != eng["to_move"]:
        summary = f"player to move: reference {ref['to_move']}, engine {eng['to_move']}"
        raise _Found(Divergence(step, "legal", None, summary, ref, eng))
    ref_keys = {move_key(m) for m in ref["moves"]}
    eng_keys = {move_key(m) for m in eng["moves"]}
    if ref_keys != eng_keys:
        parts = []
        if ref_keys - eng_keys:
            parts.append(f"engine lacks [{moves_text(list(ref_keys - eng_keys))}]")
        if eng_keys - ref_keys:
            parts.append(f"engine adds [{moves_text(list(eng_keys - ref_keys))}]")
        summary = f"legal moves of player {ref['to_move']} differ: " + "; ".join(parts)
        raise _Found(Divergence(step, "legal", None, summary, ref, eng))


def compare_state(step: int, body: dict[str, Any], answer: dict[str, Any]) -> None:
    """`answer` to `state` against the reference's answer body `body` (Answers.state, wrapped)."""
    mine = body["state"]
    ref = {"ok": True, "state": mine}
    eng = response_body(answer)
    if not answer["ok"]:
        raise _Found(Divergence(step, "state", None, f"the engine refused state: {eng['error']}", ref, eng))
    theirs = eng["state"]
    differ = [f for f in mine if mine[f] != theirs.get(f)]
    if differ:
        shown = "; ".join(f"{f}: reference {mine[f]}, engine {theirs.get(f)}" for f in differ[:3])
        raise _Found(
            Divergence(step, "state", None, f"state differs in {', '.join(differ)} ({shown})", ref, eng)
        )


def compare_apply(step: int, move: Move, ref: dict[str, Any], answer: dict[str, Any]) -> None:
    """`answer` to applying `move` against the reference's answer `ref` (see Step.apply)."""
    eng = response_body(answer)
    if ref["ok"] and not eng["ok"]:
        summary = f"the engine rejects the legal move '{move}': {eng['error']['message']}"
        raise _Found(Divergence(step, "apply", move, summary, ref, eng))
    if not ref["ok"] and eng["ok"]:
        summary = f"the engine accepts the illegal move '{move}' (events {_compact(eng['events'])})"
        raise _Found(Divergence(step, "apply", move, summary, ref, eng))
    if ref["ok"] and ref["events"] != eng["events"]:
        summary = (
            f"'{move}' has different events: reference {_compact(ref['events'])}, "
            f"engine {_compact(eng['events'])}"
        )
        raise _Found(Divergence(step, "apply", move, summary, ref, eng))
    if not ref["ok"] and eng["error"]["code"] != "illegal_move":
        summary = f"the engine refuses the illegal move '{move}' with code {eng['error']['code']}"
        raise _Found(Divergence(step, "apply", move, summary, ref, eng))


@dataclass(frozen=True)
class Step:
    """One move as the reference plays it: the answers it gives to the move's apply, and to the
    state and legal requests after it. `apply` is the whole answer body (ok, events or error);
    an illegal move (a probe) leaves the state as it was."""

    move: Move
    apply: dict[str, Any]
    state: dict[str, Any]
    legal: dict[str, Any]
    after: State


def reference_step(game: Engine, answers: Answers, state: State, move: Move) -> Step:
    try:
        new, events = game.apply(state, move)
        ref: dict[str, Any] = {"ok": True, "events": [event_json(e) for e in events]}
    except IllegalMove as exc:
        new = state
        ref = {"ok": False, "error": {"code": "illegal_move", "message": str(exc)}}
    return Step(move, ref, {"state": answers.state(new)}, answers.legal(new), new)


def _exercised(seen: Counter[str], ref: dict[str, Any]) -> None:
    """Count what an agreed move exercised: events, trick-end reasons, refused probes."""
    if not ref["ok"]:
        seen["illegal_move_refused"] += 1
        return
    for event in ref["events"]:
        seen[event["event"]] += 1
        seen.update(event.get("reasons", ()))


def play_round(
    game: Engine,
    engine: EngineClient,
    deal: Position,
    chooser: Chooser,
    max_moves: int = MAX_MOVES,
    answers: Answers | None = None,
) -> RoundResult:
    """Play one round on the reference and the engine and compare every answer.

    The moves are chosen on the reference alone (the chooser never sees the engine's answers), so
    they can be sent ahead: new_round, state and legal go to the engine with the first FIRST_MOVES
    moves, then the moves follow in batches of twice as many each time (apply, state and legal per
    move), each batch posted before the previous one's answers are read, so that the engine
    answers while the harness chooses and compares. The answers are compared in order, so the
    first difference is the divergence; the moves after it are dropped from the result (the
    requests sent ahead are still answered, and checked: an engine fault in them is a fault).
    Engine faults (EngineFault) propagate: they are not divergences.

    The reference's answers are worked out as the moves are chosen and handed to the client with
    the requests (EngineClient.post): an answer that is exactly the reference's is neither
    validated nor compared again. `answers` is a cache of the reference's answers for `game`,
    shared between the rounds of a run.
    """
    ref = answers if answers is not None and answers.game is game else Answers(game)
    start_requests = engine.requests
    moves: list[Move] = []
    plan = game.play_from(deal)
    planned = 0
    stopped = False
    seen: Counter[str] = Counter()

    def plan_steps(count: int) -> list[Step]:
        nonlocal plan, planned, stopped
        steps: list[Step] = []
        while len(steps) < count and plan.phase == "play" and planned < max_moves:
            move = chooser(game, plan, ref.moves(plan))
            if move is None:
                stopped = True
                break
            step = reference_step(game, ref, plan, move)
            steps.append(step)
            planned += 1
            plan = step.after
        return steps

    def post(steps: list[Step], requests: list[tuple[str, dict[str, Any]]], expected: list[Any]) -> None:
        for step in steps:
            requests.extend((("apply", {"move": move_json(step.move)}), STATE, LEGAL))
            expected.extend((_ok(step.apply), _ok(step.state), _ok(step.legal)))
        batches.append((engine.post(requests, expected), steps, not batches and not moves))

    legal_body = ref.legal(plan)
    state_body = {"state": ref.state(plan)}
    batches: deque[tuple[Posted, list[Step], bool]] = deque()
    post(
        plan_steps(FIRST_MOVES),
        [("new_round", deal_json(deal)), ("state", {}), ("legal", {})],
        [{"ok": True}, _ok(state_body), _ok(legal_body)],
    )
    batch_size = FIRST_MOVES
    legal_answer: dict[str, Any] | None = None
    try:
        while batches:
            if len(batches) == 1 and not stopped and plan.phase == "play" and planned < max_moves:
                ahead = plan_steps(batch_size)
                if ahead:
                    post(ahead, [], [])
                    batch_size *= 2
            posted, steps, first = batches.popleft()
            got = engine.collect(posted)
            offset = 0
            if first:  # the deal, and the answers before any move
                answer = got[0]
                if answer is not None and not answer["ok"]:
                    body = response_body(answer)
                    summary = f"the engine refuses the deal: {body['error']['message']}"
                    raise _Found(Divergence(0, "new_round", None, summary, {"ok": True}, body))
                state_answer = got[1]
                if state_answer is not None:
                    compare_state(0, state_body, state_answer)
                legal_answer, offset = got[2], 3
            for i, step in enumerate(steps):
                if legal_answer is not None:
                    compare_legal(len(moves), legal_body, legal_answer)
                moves.append(step.move)
                applied, state_answer = got[offset + 3 * i], got[offset + 3 * i + 1]
                if applied is not None:
                    compare_apply(len(moves) - 1, step.move, step.apply, applied)
                _exercised(seen, step.apply)
                if state_answer is not None:
                    compare_state(len(moves), step.state, state_answer)
                legal_answer, legal_body = got[offset + 3 * i + 2], step.legal
        if legal_answer is not None:
            compare_legal(len(moves), legal_body, legal_answer)
    except _Found as found:
        while batches:  # the requests sent ahead: read (and checked), so the next round starts clean
            engine.collect(batches.popleft()[0])
        d = found.divergence
        return RoundResult(deal, tuple(moves), d, engine.requests - start_requests)
    except (KeyboardInterrupt, SystemExit, EngineFault):
        raise  # the session ends: the answers still to come no longer matter
    except BaseException:
        # The chooser stopped the round (Hypothesis abandons an example by raising from a draw):
        # the answers to what was sent ahead are read, so the next round starts clean.
        while batches:
            engine.collect(batches.popleft()[0])
        raise
    ended = plan.phase != "play"
    return RoundResult(
        deal, tuple(moves), None, engine.requests - start_requests, ended, tuple(sorted(seen.items()))
    )


def _ok(body: dict[str, Any]) -> dict[str, Any] | None:
    """What a matching answer must be: ok true with `body` (None for a refusal: its message is
    the engine's own, so a refusal is always validated and compared)."""
    if "ok" in body:
        return body if body["ok"] is True else None
    return {"ok": True, **body}


class Games(ReferenceGames):
    """The reference Games of a run, whose rounds share the answers' cache."""

    def play(self, engine: EngineClient, deal: Position, chooser: Chooser) -> RoundResult:
        """`play_round` at the deal's table, with the answers every round of the run shares."""
        return play_round(self(deal.players), engine, deal, chooser, answers=self.answers(deal.players))


def script(moves: tuple[Move, ...]) -> Chooser:
    """A chooser that plays `moves` in order, then stops."""
    it = iter(moves)

    def choose(game: Engine, state: State, legal: tuple[Move, ...]) -> Move | None:
        return next(it, None)

    return choose


# ---- agreeing on the rules: the readings and parameters the engine declares --------------------


def check_readings(spec: Spec, declared: Mapping[str, str], where: str) -> None:
    """Every declared point and reading must be one the spec knows; SpecError `where: readings: ...`."""
    for point, reading in sorted(declared.items()):
        if point not in spec.variation_points:
            known = ", ".join(sorted(spec.variation_points))
            raise SpecError(
                where, f"readings: unknown variation point {shown(point)} (the spec knows: {known})"
            )
        readings = spec.variation_points[point].readings
        if reading not in readings:
            raise SpecError(
                where,
                f"readings: {point}={shown(reading)}: the spec has no such reading "
                f"(readings: {', '.join(readings)})",
            )


def negotiate(
    spec: Spec, base: Ruleset, hello: Mapping[str, Any], forced: Mapping[str, str]
) -> tuple[Ruleset, tuple[str, ...]]:
    """The reference ruleset for an engine: `base` with the engine's declared readings and parameters.

    `forced` are readings the user named with --reading; an engine declaring otherwise is an error,
    as is a declared point or reading the spec does not know. Returns the ruleset and notes (points
    the engine did not declare, parameters taken from the engine).
    """
    declared: dict[str, str] = dict(hello["readings"])
    notes: list[str] = []
    check_readings(spec, declared, "engine hello")
    for point, reading in sorted(declared.items()):
        if point in forced and forced[point] != reading:
            raise SpecError(
                "--reading", f"{point}={forced[point]} was asked, but the engine declares {point}={reading}"
            )
    missing = sorted(set(spec.variation_points) - set(declared))
    if missing:
        notes.append(
            "the engine does not declare " + ", ".join(f"{p} (assuming {base.reading(p)})" for p in missing)
        )
    chosen = {**base.readings, **declared}
    # Name the ruleset after a profile when the engine implements exactly that profile.
    profile = base.profile
    if spec.ruleset(base.profile, chosen).overridden:
        for name, prof in spec.profiles.items():
            if {point: c.reading for point, c in prof.readings.items()} == chosen:
                profile = name
                break
    ruleset = spec.ruleset(profile, chosen)
    ruleset, changed = with_parameters(ruleset, hello["parameters"], "engine hello")
    if changed:
        notes.append("parameters taken from the engine: " + ", ".join(changed))
    return ruleset, tuple(notes)


def agree_on_rules(
    spec: Spec, base: Ruleset, engine: EngineClient, forced: Mapping[str, str]
) -> tuple[Ruleset, str, tuple[str, ...]]:
    """hello, then the reference set to the readings and parameters the engine declares
    (`negotiate`): the ruleset, the engine's name and the notes to show."""
    hello = engine.hello()
    agreed, notes = negotiate(spec, base, hello, forced)
    return agreed, str(hello["name"]), notes


@functools.cache
def _parameter_validator(name: str) -> jsonschema.Draft202012Validator:
    """The spec schema's own definition of a parameter's value (`$defs/<name>_value`): a value an
    engine or replay declares is held to the same bounds as one written in a spec file."""
    text = resources.files("five35.spec").joinpath("spec.schema.json").read_text("utf-8")
    defs = json.loads(text)["$defs"]
    if f"{name}_value" not in defs:
        # A spec's own parameter (a house rule's, another game's): the schema gives it no shape,
        # any JSON value is one (what its rules make of it is theirs to say).
        return jsonschema.Draft202012Validator(True)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}_value", "$defs": defs})


def _check_value(name: str, value: Any, where: str) -> None:
    error = jsonschema.exceptions.best_match(_parameter_validator(name).iter_errors(value))
    if error is None:
        return
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    if error.validator in ("minimum", "maximum", "minItems", "maxItems", "minProperties"):
        expected = f"{error.validator} {error.validator_value}"
    elif error.validator == "type":
        expected = f"{error.validator_value}"
    else:
        expected = f"{error.validator} {shown(error.validator_value)}"
    raise SpecError(where, f"parameters.{name}{key}: expected {expected}, got {shown(error.instance)}")


def with_parameters(
    ruleset: Ruleset, params: Mapping[str, Any], where: str = "engine hello"
) -> tuple[Ruleset, list[str]]:
    """`ruleset` with the parameters an engine or a replay file declares (the shape of
    Ruleset.to_json()['parameters']), each held to the spec schema's bounds and then to what the
    engine can deal; SpecError `where: parameters.KEY: ...` otherwise."""
    current = ruleset.to_json()["parameters"]
    unknown = sorted(set(params) - set(current))
    if unknown:
        raise SpecError(where, f"unknown parameter(s) {', '.join(map(shown, unknown))}")
    for name in sorted(params):
        # Every declared value, changed or not: `true` equals 1 in Python but is no integer here.
        _check_value(name, params[name], where)
    changed = sorted(k for k in params if params[k] != current[k])
    fields: dict[str, Any] = {}
    for name in changed:
        value = params[name]
        if name == "ranks":
            if min(value) < 1:
                raise SpecError(where, "parameters.ranks: protocol cards are ranks of 1 or more")
            fields["ranks"] = tuple(sorted(value))
        elif name == "players":
            if value["min"] > value["max"]:
                raise SpecError(where, f"parameters.players: min {value['min']} is above max {value['max']}")
            fields["players_min"], fields["players_max"] = value["min"], value["max"]
        elif name == "copies":
            fields["copies_small"], fields["copies_large"] = value["small_game"], value["large_game"]
        elif name == "set_closing_size":
            fields["set_closing_small"], fields["set_closing_large"] = (
                value["small_game"],
                value["large_game"],
            )
        elif name in ("points", "hand_size"):
            fields[f"{name.removesuffix('s')}_items"] = tuple(sorted((int(k), v) for k, v in value.items()))
        elif name not in PARAMETERS:
            extra = dict(ruleset.extra_items)
            extra[name] = json.dumps(value, sort_keys=True)
            fields["extra_items"] = tuple(sorted(extra.items()))
        else:
            fields[name] = value
    new = dataclasses.replace(ruleset, **fields)
    if new.has("points") and {r for r, _ in new.point_items} != set(new.ranks):
        raise SpecError(where, "parameters.points: needs exactly one value per rank")
    for players in range(new.players_min, new.players_max + 1):
        try:
            new.hand_size(players)
        except SpecError as exc:
            raise SpecError(where, f"{exc.where}: {exc.message}") from None
    return new, changed
