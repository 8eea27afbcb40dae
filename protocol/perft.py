"""perft for 535: count the leaves of the legal-move tree from a seeded deal.

perft(state, 0) = 1; perft(state, d) = the sum of perft(child, d - 1) over the legal moves. A
finished round has no legal moves, so it adds nothing at depth >= 1 (as checkmate in chess). The
divide lists perft(child, d - 1) per root move. With an engine, every inner node's legal moves are
compared with the reference's; the walk stops at the first node where they differ. The engine is
moved through the tree by `new_round` and `apply` from the root (the protocol has no undo).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Game, Move, Position, State
from ..engine.engines import Engine, make_engine
from ..spec import Ruleset
from .compare import moves_text
from .engine_client import EngineClient, response_body
from .messages import deal_json, move_json, move_key
from .replay import side_by_side
from .server import legal_json

# The standard positions published in docs/perft.md: (players, seed), each under every profile.
STANDARD_POSITIONS = ((2, 1), (2, 2), (3, 1), (4, 1), (4, 2), (5, 1), (6, 1))
STANDARD_DEPTH = 5


def perft(game: Engine, state: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    apply = game.apply
    total = 0
    if depth == 2:
        # The leaves are counted, not made: the last level costs one legal_moves per child.
        legal = game.legal_moves
        for move in moves:
            total += len(legal(apply(state, move)[0]))
        return total
    for move in moves:
        total += perft(game, apply(state, move)[0], depth - 1)
    return total


def divide(game: Engine, state: State, depth: int) -> list[tuple[Move, int]]:
    """perft(child, depth - 1) for each root move, in the reference's move order."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    return [(m, perft(game, game.apply(state, m)[0], depth - 1)) for m in game.legal_moves(state)]


def root_deal(game: Engine, seed: int) -> tuple[State, Position]:
    """The standard position for a seed: round 1 of `game.new_match(seed)`."""
    state = game.new_match(seed)
    hands = tuple(tuple(game.hand(state, p)) for p in range(game.players))
    return state, Position(hands, state.to_move, state.scores, seed=seed)


@dataclass(frozen=True)
class PerftDifference:
    path: tuple[Move, ...]  # the moves from the root to the node where the engines differ
    summary: str
    reference: Any
    engine: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "path": [move_json(m) for m in self.path],
            "summary": self.summary,
            "reference": self.reference,
            "engine": self.engine,
        }


@dataclass(frozen=True)
class PerftComparison:
    """Root moves whose subtrees agree (with their counts), then the first difference if any."""

    agreed: tuple[tuple[Move, int], ...]
    difference: PerftDifference | None
    requests: int


class _Walker:
    def __init__(self, game: Engine, engine: EngineClient, deal: Position) -> None:
        self.game = game
        self.engine = engine
        self.deal = deal
        self.at: list[Move] | None = None  # the engine's position as a path from the root

    def legal_at(self, path: list[Move]) -> dict[str, Any]:
        """Move the engine to `path` and ask for its legal moves, all in one pipelined batch."""
        at = self.at
        requests: list[tuple[str, dict[str, Any]]] = []
        if at is None or at != path[: len(at)]:
            requests.append(("new_round", deal_json(self.deal)))
            at = []
        steps = path[len(at) :]
        requests.extend(("apply", {"move": move_json(m)}) for m in steps)
        requests.append(("legal", {}))
        answers = self.engine.batch(requests)
        self.at = None  # unknown until every answer is checked
        if len(requests) > len(steps) + 1 and not answers[0]["ok"]:
            raise _Differs(
                PerftDifference((), "the engine refuses the deal", {"ok": True}, response_body(answers[0]))
            )
        for i, move in enumerate(steps):
            answer = answers[len(answers) - 1 - len(steps) + i]
            if not answer["ok"]:
                done = path[: len(path) - len(steps) + i + 1]
                summary = f"the engine rejects the legal move '{move}'"
                raise _Differs(PerftDifference(tuple(done), summary, {"ok": True}, response_body(answer)))
        self.at = list(path)
        return response_body(answers[-1])

    def count(self, state: State, path: list[Move], depth: int) -> int:
        """perft of the node, comparing its legal moves with the engine's at every inner node."""
        if depth == 0:
            return 1
        ref = {"ok": True, **legal_json(self.game, state)}
        eng = self.legal_at(path)
        if (
            not eng.get("ok")
            or eng["to_move"] != ref["to_move"]
            or {move_key(m) for m in eng["moves"]} != {move_key(m) for m in ref["moves"]}
        ):
            raise _Differs(PerftDifference(tuple(path), _legal_summary(ref, eng), ref, eng))
        moves = self.game.legal_moves(state)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child, _ = self.game.apply(state, move)
            total += self.count(child, [*path, move], depth - 1)
        return total


class _Differs(Exception):
    def __init__(self, difference: PerftDifference) -> None:
        super().__init__(difference.summary)
        self.difference = difference


def _legal_summary(ref: dict[str, Any], eng: dict[str, Any]) -> str:
    if not eng.get("ok"):
        return f"the engine refused legal: {eng.get('error')}"
    if eng["to_move"] != ref["to_move"]:
        return f"player to move: reference {ref['to_move']}, engine {eng['to_move']}"
    r = {move_key(m) for m in ref["moves"]}
    e = {move_key(m) for m in eng["moves"]}
    parts = []
    if r - e:
        parts.append(f"engine lacks [{moves_text(list(r - e))}]")
    if e - r:
        parts.append(f"engine adds [{moves_text(list(e - r))}]")
    return "legal moves differ: " + "; ".join(parts)


def compare_perft(
    game: Engine, state: State, deal: Position, engine: EngineClient, depth: int
) -> PerftComparison:
    """Divide on both engines, root move by root move, stopping at the first node that differs."""
    start = engine.requests
    walker = _Walker(game, engine, deal)
    agreed: list[tuple[Move, int]] = []
    try:
        if depth >= 1:
            walker.count(state, [], 1)  # the root's own move list first
        for move in game.legal_moves(state) if depth >= 1 else ():
            child, _ = game.apply(state, move)
            agreed.append((move, walker.count(child, [move], depth - 1)))
    except _Differs as differs:
        return PerftComparison(tuple(agreed), differs.difference, engine.requests - start)
    return PerftComparison(tuple(agreed), None, engine.requests - start)


@dataclass(frozen=True)
class PerftRun:
    """One `535-check perft`: the divide from a seeded deal, alone or compared with an engine (then
    the root moves whose subtrees agree, and the first difference if any)."""

    label: str  # the reference ruleset's label
    players: int
    seed: int
    depth: int
    deal: Position
    rows: tuple[tuple[Move, int], ...]
    difference: PerftDifference | None = None

    @property
    def leaves(self) -> int:
        """The leaves of the tree: the divide's sum (the root alone at depth 0)."""
        return sum(n for _, n in self.rows) if self.depth else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "reference": self.label,
            "players": self.players,
            "seed": self.seed,
            "depth": self.depth,
            "deal": deal_json(self.deal),
            "divide": [{"move": move_json(m), "leaves": n} for m, n in self.rows],
            "leaves": None if self.difference else self.leaves,
            "difference": self.difference.to_json() if self.difference else None,
        }

    def lines(self) -> list[str]:
        """The run for people: the deal, the divide, then the leaves or where the engine differs."""
        deal = deal_json(self.deal)
        out = [f"perft {self.label}, {self.players} players, seed {self.seed}, depth {self.depth}"]
        out.append(f"deal: leader {deal['leader']}, hands {deal['hands']}")
        out += [f"{move}: {n}" for move, n in self.rows]
        if self.difference is None:
            return [*out, f"leaves: {self.leaves}"]
        path = "; ".join(str(m) for m in self.difference.path) or "(the root)"
        out.append(f"the engine differs after {path}: {self.difference.summary}")
        return [*out, side_by_side(self.difference.reference, self.difference.engine)]


def perft_run(
    ruleset: Ruleset, players: int, seed: int, depth: int, engine: EngineClient | None = None
) -> PerftRun:
    """The divide of `ruleset`'s deal for `seed` at `depth`; with `engine`, compared with it root
    move by root move, stopping at the first node that differs."""
    ruleset.check_players(players)
    # The reference engine: perft counts its tree, and an engine under check is compared with it.
    game = Game(ruleset, players)
    state, deal = root_deal(game, seed)
    if engine is None:
        rows = tuple(divide(game, state, depth)) if depth else ()
        return PerftRun(ruleset.label(), players, seed, depth, deal, rows)
    comparison = compare_perft(game, state, deal, engine, depth)
    return PerftRun(ruleset.label(), players, seed, depth, deal, comparison.agreed, comparison.difference)


def standard_table(rulesets: dict[str, Ruleset], depth: int = STANDARD_DEPTH) -> list[dict[str, Any]]:
    """perft 1..depth for the standard positions under each named ruleset (profile name -> Ruleset)."""
    rows = []
    for profile, ruleset in rulesets.items():
        for players, seed in STANDARD_POSITIONS:
            game = make_engine(ruleset, players)
            state, _ = root_deal(game, seed)
            counts = [perft(game, state, d) for d in range(1, depth + 1)]
            rows.append({"profile": profile, "players": players, "seed": seed, "perft": counts})
    return rows


def table_markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as the Markdown table of docs/perft.md."""
    depth = max(len(r["perft"]) for r in rows)
    head = "| profile | players | seed | " + " | ".join(f"perft({d})" for d in range(1, depth + 1)) + " |"
    rule = "|---|---:|---:|" + "---:|" * depth
    body = [
        f"| {r['profile']} | {r['players']} | {r['seed']} | " + " | ".join(map(str, r["perft"])) + " |"
        for r in rows
    ]
    return "\n".join([head, rule, *body])


def main() -> None:
    """Print the standard perft table of the embedded spec (`python -m five35.protocol.perft`)."""
    from ..spec import load_spec

    spec = load_spec()
    print(table_markdown(standard_table({p: spec.ruleset(p) for p in spec.profiles})))


if __name__ == "__main__":
    main()
