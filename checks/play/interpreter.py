"""The engine under check held to the spec interpreter: seeded random matches played by both side
by side, every legal move (in order), state and event compared.

The interpreter plays the rules as the spec states them (engine/interpreter.py), so this is the
check that the engine does what the spec's rules say, rather than what a hand-written model of
them says. Its witness is the deal and the moves up to the first step where the two part.
"""

from __future__ import annotations

import random
from typing import Any

from ...engine.interpreter import SpecEngine
from ...engine.state import Event, Move, Position, State
from ...spec.words_model import CheckWords
from ..findings import CheckContext, CheckResult, Failure, Witness

#: Matches per player count, and the most moves of one, at each level.
MATCHES = {"quick": 1, "ci": 2, "deep": 20}
MAX_MOVES = 600


def _events(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    out = []
    for event in events:
        data = event.to_json()
        if "reasons" in data:
            # The interpreter gives a trick's reasons in its rules' order; which reasons, not their
            # order, is what the rules decide.
            data["reasons"] = sorted(data["reasons"])
        out.append(data)
    return out


def check_interpreter(ctx: CheckContext) -> CheckResult:
    ruleset = ctx.ruleset
    say = ctx.words.check("interpreter")
    if ctx.engine is SpecEngine:
        # Where the reference does not play the rules, the interpreter is the engine under check:
        # it would be compared with itself.
        reason = say("itself")
        return CheckResult(name="interpreter", title=say.title, seconds=0.0, skipped=reason, notes=(reason,))
    steps = 0
    failures: list[Failure] = []
    for players in range(ruleset.players_min, ruleset.players_max + 1):
        if not ruleset.can_deal(players):
            continue
        engine, spec = ctx.engine(ruleset, players), SpecEngine(ruleset, players)
        for match in range(MATCHES[ctx.level]):
            seed = ctx.seed * 1000 + players * 100 + match
            found = _compare(engine, spec, seed, say)
            steps += found[0]
            if found[1] is not None:
                failures.append(Failure(check="interpreter", message=found[1], witness=found[2]))
                break
        if failures:
            break
    notes = (say("read", moves=f"{steps:,}"),)
    return CheckResult(
        name="interpreter",
        title=say.title,
        seconds=0.0,
        generated=steps,
        failures=tuple(failures),
        notes=notes,
    )


def _compare(
    engine: Any, spec: SpecEngine, seed: int, say: CheckWords
) -> tuple[int, str | None, Witness | None]:
    a, b = engine.new_match(seed), spec.new_match(seed)
    rng = random.Random(seed)
    moves: list[Move] = []
    start = b
    for step in range(MAX_MOVES):
        if engine.to_json(a) != spec.to_json(b):
            what = say("state_differs", seed=seed, moves=len(moves))
            return step, what, _witness(spec, start, moves, what)
        if b.phase == "match_over":
            return step, None, None
        if b.phase == "round_over":
            a, b = engine.next_round(a), spec.next_round(b)
            start, moves = b, []
            continue
        ours, theirs = engine.legal_moves(a), spec.legal_moves(b)
        if ours != theirs:
            extra = sorted(set(ours) - set(theirs), key=str)[:3]
            lacking = sorted(set(theirs) - set(ours), key=str)[:3]
            why = []
            if extra:
                why.append(say("allows", moves=", ".join(map(str, extra))))
            if lacking:
                why.append(say("lacks", moves=", ".join(map(str, lacking))))
            if not why:
                why.append(say("order"))
            what = say("moves_differ", seed=seed, why="; ".join(why))
            return step, what, _witness(spec, start, moves, what)
        move = rng.choice(theirs)
        a, ea = engine.apply(a, move)
        b, eb = spec.apply(b, move)
        moves.append(move)
        if _events(ea) != _events(eb):
            what = say("events_differ", seed=seed, move=move, engine=_events(ea), rules=_events(eb))
            return step, what, _witness(spec, start, moves, what)
    return MAX_MOVES, None, None


def _witness(spec: SpecEngine, start: State, moves: list[Move], what: str) -> Witness:
    """The round's deal and the moves up to the step where the engine and the rules part."""
    hands = tuple(tuple(spec.hand(start, seat)) for seat in range(start.players))
    position = Position(
        hands=hands,
        leader=start.to_move,
        scores=start.scores,
        moves=tuple(moves),
        round=start.round,
        seed=start.seed,
    )
    return Witness(
        summary=what,
        situation={
            "players": start.players,
            "hands": [list(h) for h in hands],
            "moves": [str(m) for m in moves],
        },
        outcomes={},
        cards=sum(len(h) for h in hands),
        position=position,
    )
