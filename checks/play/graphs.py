"""Graph analyses with networkx: rank succession, the "beats" order, and exhaustive endgame graphs.

(a) The rank-succession graph per reading of run_gaps and run_wrap: an edge a -> b when b continues
    a run after a. Runs are its paths; with gaps_break it falls apart into 1-5, 7-9 and 11-15.
(b) The "beats" graph per pile kind, size and reading: an edge new -> old when new overwrites old.
    A cycle would make overwriting contradictory; its longest path is the longest chain of
    overwrites a trick can see.
(c) Exhaustive state graphs of small endgames (2, 3 and 5 players, a few cards each) per reading:
    every state reachable by legal play, checked with the same invariants as whole matches
    (five35.checks.play.invariants), so a broken rule shows up with the smallest deal that breaks it.
    The graphs must be acyclic (play terminates) and free of dead ends; the trick endings that
    occur are counted, and one that never occurs under a reading is a dead-clause candidate.

Each graph is built from the engine under check and compared with the same graph built from the
spec's readings (`SpecRules`); a difference is a failure with the smallest example.

The readings flipped come from the spec, the points from the engine's vocabulary (`PLAY_POINTS`:
every point of `Game.VOCABULARY` but those in `NOT_PLAY_POINTS`, which say why they cannot change
play within a round). A reading the rules model cannot state is refused (`UnimplementedReading`).
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx  # type: ignore[import-untyped]

from ...engine import TRICK_END_REASONS, Game, Move, Pile, State, TrickEndReason
from ...engine.engines import Engine
from ...engine.state import Event, TrickEnd
from ...spec import Ruleset, Spec, SpecError
from ...spec.vocabulary import Vocabulary
from ...spec.words_model import CheckWords
from ..findings import (
    CheckContext,
    CheckResult,
    Failure,
    Finding,
    FindingKind,
    Level,
    Severity,
    Witness,
    readings_of,
)
from ..oracles.rules_model import RULES_VOCABULARY, SpecRules
from ..oracles.vocab import ComponentVocabulary, VocabularyMismatch, require_with_stated, table_vocabulary
from .conformance import FIVE_PLAYER_POINTS
from .invariants import Violation, situation, state_violations, step_violations

#: Variation points that cannot change play inside a round, and why; the endgames start from a deal
#: with a leader, so flipping them would explore the same graphs again.
NOT_PLAY_POINTS: dict[str, str] = {
    "deal": "decides the hands a round starts with; an endgame is given its hands",
    "first_leader": "decides who leads the first round; an endgame is given its leader",
    "round_leader": "decides who leads the next round; an endgame ends with its round",
}
# The points that change play inside a round, in the engine's order, flipped one at a time around
# the ruleset under check (the five-player points only matter to deals of five).
PLAY_POINTS: tuple[str, ...] = tuple(p for p in Game.VOCABULARY.points if p not in NOT_PLAY_POINTS)
# The points the succession and beats graphs depend on (every reading of each, from the spec).
PILE_ORDER_POINTS = ("run_gaps", "run_wrap", "run_order", "eight_rank")
SUCCESSION_POINTS = ("run_gaps", "run_wrap")


def graphs_vocabulary(vocabulary: Vocabulary) -> ComponentVocabulary:
    """The points the graphs flip or leave alone, checked against an engine's vocabulary."""
    stray = set(PILE_ORDER_POINTS) - set(vocabulary.points)
    if stray:
        raise VocabularyMismatch(f"PILE_ORDER_POINTS names unknown points: {', '.join(sorted(stray))}")
    table = {p: vocabulary.points[p] for p in vocabulary.points if p not in NOT_PLAY_POINTS}
    return table_vocabulary("the graph checks", table, vocabulary, NOT_PLAY_POINTS)


GRAPHS_VOCABULARY = graphs_vocabulary(Game.VOCABULARY)


def require_readings(ctx: CheckContext) -> None:
    """Refuse (UnimplementedReading) a ruleset or spec with a reading the graphs cannot state: the
    graph checks' own points, and the rules model (SpecRules) every graph is compared with."""
    require_with_stated(GRAPHS_VOCABULARY, RULES_VOCABULARY, ctx.ruleset, ctx.spec)
    RULES_VOCABULARY.require_ruleset(ctx.ruleset)
    RULES_VOCABULARY.require_spec(ctx.spec)


def variants(spec: Spec, base: Ruleset, points: tuple[str, ...], *, all_combinations: bool) -> list[Ruleset]:
    """The base ruleset and its variants over `points`: every combination, or one point at a time."""
    present = [p for p in points if p in spec.variation_points]
    chosen: list[dict[str, str]] = [{}]
    if all_combinations:
        for point in present:
            chosen = [{**c, point: r} for c in chosen for r in spec.variation_points[point].readings]
    else:
        for point in present:
            chosen.extend(
                {point: r} for r in spec.variation_points[point].readings if r != base.reading(point)
            )
    out: list[Ruleset] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for change in chosen:
        rs = spec.with_readings(base, change)
        if rs.reading_items not in seen:
            seen.add(rs.reading_items)
            out.append(rs)
    return out


def _changed(base: Ruleset, rs: Ruleset) -> dict[str, str]:
    return {p: r for p, r in rs.reading_items if base.reading(p) != r}


def _label(base: Ruleset, rs: Ruleset, under_check: str) -> str:
    """How the graph checks name `rs`: its readings that differ from `base`'s, or `under_check`
    (the words file's) where none does."""
    changed = _changed(base, rs)
    return ",".join(f"{p}={r}" for p, r in changed.items()) or under_check


# ---- (a) rank succession ------------------------------------------------------------------------


def succession_graph(ranks: tuple[int, ...], follows: Callable[[int, int], bool]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(ranks)
    graph.add_edges_from((a, b) for a in ranks for b in ranks if a != b and follows(a, b))
    return graph


def graph_runs(graph: nx.DiGraph, min_size: int, max_size: int) -> set[tuple[int, ...]]:
    """Every path of min_size..max_size distinct ranks: the runs a turn can place."""
    runs: set[tuple[int, ...]] = set()

    def extend(path: list[int]) -> None:
        if min_size <= len(path):
            runs.add(tuple(path))
        if len(path) == max_size:
            return
        for nxt in graph.successors(path[-1]):
            if nxt not in path:
                extend([*path, nxt])

    for start in graph.nodes:
        extend([start])
    return runs


def _components(graph: nx.DiGraph) -> str:
    parts = sorted((sorted(c) for c in nx.weakly_connected_components(graph)), key=lambda c: c[0])
    return ", ".join(f"{c[0]}-{c[-1]}" if len(c) > 1 else str(c[0]) for c in parts)


def _side_by_side(
    ctx: CheckContext, points: tuple[str, ...]
) -> Iterator[tuple[Ruleset, SpecRules, Engine, str]]:
    """The graph checks' subjects, at the smallest table: for every combination of the readings of
    `points`, the ruleset, the spec's rules, the engine under check, and the label messages name it by."""
    players = max(ctx.ruleset.players_min, 2)
    words = ctx.words
    under_check, oracles = words.check("graphs")("under_check"), words.check("oracles")
    for rs in variants(ctx.spec, ctx.ruleset, points, all_combinations=True):
        rules = SpecRules(rs, players, oracles)
        yield rs, rules, ctx.engine(rs, players), _label(ctx.ruleset, rs, under_check)


def check_succession(ctx: CheckContext) -> CheckResult:
    """(a) The rank-succession graph per reading: the engine's against the spec's."""
    require_readings(ctx)
    started = time.perf_counter()
    say = ctx.words.check("graphs.succession")
    failures: list[Failure] = []
    notes: list[str] = []
    compared = 0
    for rs, rules, game, label in _side_by_side(ctx, SUCCESSION_POINTS):
        ranks = rs.ranks
        want = succession_graph(ranks, rules.follows)
        got = succession_graph(ranks, game.follows)
        compared += len(ranks) * len(ranks)
        for a, b in sorted(set(got.edges) ^ set(want.edges)):
            engine_says = got.has_edge(a, b)
            failures.append(
                _pair_failure(
                    "graphs.succession",
                    rs,
                    say("follows" if engine_says else "does_not_follow", label=label, later=b, earlier=a),
                    {"run": [a, b]},
                    engine_says,
                    not engine_says,
                    2,
                )
            )
        max_run = min(rs.run_closing_size, rs.max_cards_per_turn)
        spec_runs = graph_runs(want, rs.min_run_size, max_run)
        engine_runs = {p.cards for p in game.placeable_piles() if p.kind == "run"}
        compared += len(spec_runs | engine_runs)
        for run in sorted(spec_runs ^ engine_runs, key=lambda r: (len(r), r))[:3]:
            engine_has = run in engine_runs
            failures.append(
                _pair_failure(
                    "graphs.succession",
                    rs,
                    say(
                        "offers" if engine_has else "does_not_offer", label=label, run=",".join(map(str, run))
                    ),
                    {"run": list(run)},
                    engine_has,
                    not engine_has,
                    len(run),
                )
            )
        cycle = say("cycle") if not nx.is_directed_acyclic_graph(want) else say("no_cycle")
        notes.append(
            say(
                "read",
                label=label,
                groups=_components(want),
                cycle=cycle,
                runs=len(spec_runs),
                low=rs.min_run_size,
                high=max_run,
            )
        )
    return CheckResult(
        name="graphs.succession",
        title=say.title,
        seconds=time.perf_counter() - started,
        exhaustive=compared,
        failures=tuple(_dedupe(failures, ctx.ruleset)),
        notes=tuple(notes),
    )


def _pair_failure(
    check: str, rs: Ruleset, message: str, situation_data: dict[str, Any], engine: Any, spec: Any, cards: int
) -> Failure:
    return Failure(
        check=check,
        message=message,
        readings=rs.readings,
        witness=Witness(
            summary=message, situation=situation_data, outcomes={"engine": engine, "spec": spec}, cards=cards
        ),
    )


def _dedupe(failures: list[Failure], base: Ruleset, limit: int = 10) -> list[Failure]:
    """At most `limit` failures: the smallest witnesses first, then the fewest readings changed."""
    out: list[Failure] = []
    seen: set[str] = set()

    def order(f: Failure) -> tuple[int, int, str]:
        changed = sum(1 for p, r in f.readings.items() if base.reading(p) != r)
        return (f.witness.cards if f.witness else 0, changed, f.message)

    for f in sorted(failures, key=order):
        if f.message not in seen:
            seen.add(f.message)
            out.append(f)
    return out[:limit]


# ---- (b) the beats order ------------------------------------------------------------------------


def beats_graph(piles: list[Pile], beats: Callable[[Pile, Pile], bool]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(piles)
    graph.add_edges_from((new, old) for new in piles for old in piles if beats(new, old))
    return graph


def check_beats(ctx: CheckContext) -> CheckResult:
    """(b) The beats graph per pile kind, size and reading: acyclic, the spec's, longest chain."""
    require_readings(ctx)
    started = time.perf_counter()
    say = ctx.words.check("graphs.beats")
    failures: list[Failure] = []
    findings: list[Finding] = []
    notes: list[str] = []
    compared = 0
    for rs, rules, game, label in _side_by_side(ctx, PILE_ORDER_POINTS):
        groups: dict[tuple[str, int], list[Pile]] = {}
        for pile in game.placeable_piles():
            groups.setdefault((pile.kind, pile.size), []).append(pile)
        chains: list[str] = []
        for (kind, size), piles in sorted(groups.items()):
            got = beats_graph(piles, game.beats)
            want = beats_graph(piles, rules.beats)
            compared += len(piles) * len(piles)
            for new, old in sorted(set(got.edges) ^ set(want.edges), key=lambda e: (e[0].cards, e[1].cards))[
                :3
            ]:
                engine_says = got.has_edge(new, old)
                msg = say(
                    "overwrites" if engine_says else "does_not_overwrite", label=label, new=new, old=old
                )
                failures.append(
                    _pair_failure(
                        "graphs.beats",
                        rs,
                        msg,
                        {"pile": old.to_json(), "overwrite": new.to_json()},
                        engine_says,
                        not engine_says,
                        new.size + old.size,
                    )
                )
            if nx.is_directed_acyclic_graph(got):
                length = nx.dag_longest_path_length(got) + 1
                chains.append(say("chain", kind=kind, size=size, length=length, piles=len(piles)))
                continue
            cycle = [edge[0] for edge in nx.find_cycle(got)]
            text = " > ".join(str(p) for p in [*cycle, cycle[0]])
            if not nx.is_directed_acyclic_graph(want):
                findings.append(
                    Finding(
                        id=f"graphs.beats.cycle.{kind}-{size}",
                        kind=FindingKind.CONTRADICTION,
                        title=say("cycle", kind=kind, size=size),
                        clauses=("action.overwrite", f"pile.{kind}"),
                        detail=say("cycle_detail", label=label, kind=kind, size=size, cycle=text),
                        check="graphs.beats",
                        severity=Severity.HIGH,
                        witness=Witness(
                            summary=text,
                            situation={"cycle": [p.to_json() for p in cycle]},
                            outcomes={"spec": "cycle"},
                            cards=sum(p.size for p in cycle),
                        ),
                    )
                )
            else:
                failures.append(
                    _pair_failure(
                        "graphs.beats",
                        rs,
                        say("engine_cycle", label=label, kind=kind, size=size, cycle=text),
                        {"cycle": [p.to_json() for p in cycle]},
                        "cycle",
                        "acyclic",
                        sum(p.size for p in cycle) + cycle[0].size,
                    )
                )
        notes.append(say("chains", label=label, chains="; ".join(chains)))
    return CheckResult(
        name="graphs.beats",
        title=say.title,
        seconds=time.perf_counter() - started,
        exhaustive=compared,
        findings=tuple(findings),
        failures=tuple(_dedupe(failures, ctx.ruleset)),
        notes=tuple(notes[:4]) + ((say("more", count=len(notes) - 4),) if len(notes) > 4 else ()),
    )


# ---- (c) exhaustive endgames --------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """A small endgame: hands and the leader. `name` says what it is there to exercise."""

    name: str
    hands: tuple[tuple[int, ...], ...]
    leader: int = 0
    # Explored under every changed reading even at level quick (the others only from ci on).
    core: bool = False

    @property
    def cards(self) -> int:
        return sum(len(h) for h in self.hands)


HAND_PICKED: tuple[Deal, ...] = (
    Deal("singles and passes", ((2, 9), (4, 12)), core=True),
    Deal("a set closes", ((3, 3, 9), (3, 3, 11)), core=True),
    Deal("a run closes", ((1, 2, 3, 14), (4, 5, 12))),
    Deal("a long run (past the cap when gaps are skipped)", ((1, 2, 3, 13), (4, 5, 7)), core=True),
    Deal("an 8 overwrites", ((2, 5), (8, 9)), core=True),
    Deal("an 8 in the opening pile", ((7, 8, 13), (8, 8, 12)), core=True),
    Deal("runs at the gaps", ((4, 5, 7, 13), (9, 11, 12))),
    Deal("runs at the wrap", ((14, 15, 1), (2, 13)), core=True),
    Deal("three players", ((1, 1, 8), (1, 7, 9), (1, 2, 15))),
    Deal("five players, a set of five", ((1, 3, 3), (2, 3, 3), (3, 4), (5, 11), (12, 13))),
)


def seeded_deals(seed: int, count: int, ranks: tuple[int, ...]) -> list[Deal]:
    """`count` random endgames of 2-3 players with 2-4 cards each, from `seed`."""
    deals = []
    for i in range(count):
        rng = random.Random(f"five35-endgame:{seed}:{i}")
        deck = [r for r in ranks for _ in range(4)]
        rng.shuffle(deck)
        players = rng.choice((2, 3))
        hands = []
        for _ in range(players):
            # Three hands of four cards already make tens of thousands of states.
            size = rng.randint(2, 4 if players == 2 else 3)
            hands.append(tuple(sorted(deck[:size])))
            deck = deck[size:]
        deals.append(Deal(f"seeded {seed}:{i}", tuple(hands), rng.randrange(players)))
    return deals


@dataclass
class EndgameGraph:
    """The state graph of one deal under one ruleset, and what exploring it found."""

    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    states: int = 0
    transitions: int = 0
    endings: Counter[TrickEndReason] = field(default_factory=Counter)
    dead_ends: int = 0
    finished: int = 0
    violations: list[tuple[Violation, State, list[Move]]] = field(default_factory=list)


def explore(
    game: Engine, rules: SpecRules, start: State, say: CheckWords, *, limit: int = 50_000
) -> EndgameGraph:
    """Breadth first over every state reachable from `start` by legal moves until the round ends;
    `say` is the words of the invariants' failures (check `invariants`)."""
    out = EndgameGraph()
    ids: dict[tuple[object, ...], int] = {_situation_key(start): 0}
    paths: dict[int, tuple[int, Move] | None] = {0: None}
    out.graph.add_node(0)
    queue: deque[State] = deque([start])

    def path_to(node: int) -> list[Move]:
        moves: list[Move] = []
        step = paths[node]
        while step is not None:
            moves.append(step[1])
            step = paths[step[0]]
        return moves[::-1]

    while queue and len(ids) <= limit:
        state = queue.popleft()
        node = ids[_situation_key(state)]
        out.states += 1
        found = state_violations(game, rules, state, say, roundtrip=False)
        if found:
            out.violations.append((found[0], state, path_to(node)))
            continue
        if state.phase != "play":
            out.finished += 1
            continue
        moves = game.legal_moves(state)
        if not moves:
            out.dead_ends += 1
        for move in moves:
            out.transitions += 1
            try:
                after, events = game.apply(state, move)
            except Exception as exc:
                raised = say("move_raised", move=move, exception=type(exc).__name__, error=exc)
                v = Violation("engine.raised", raised)
                out.violations.append((v, state, [*path_to(node), move]))
                continue
            found = step_violations(game, rules, state, move, after, events, say)
            if found:
                out.violations.append((found[0], state, [*path_to(node), move]))
                continue
            _count_endings(out.endings, events)
            # Two states that differ only in how the trick got here play on identically (the
            # trick record matters only for who placed last, which the state keeps), so the
            # graph's nodes are situations, not histories.
            key = _situation_key(after)
            if key not in ids:
                ids[key] = len(ids)
                paths[ids[key]] = (node, move)
                queue.append(after)
            out.graph.add_edge(node, ids[key])
    return out


def _situation_key(s: State) -> tuple[object, ...]:
    return (
        s.hands,
        s.to_move,
        s.pile,
        s.last_player,
        s.passed,
        s.opening_has_eight,
        s.cleared,
        s.phase,
        s.scores,
    )


def _count_endings(endings: Counter[TrickEndReason], events: tuple[Event, ...]) -> None:
    for e in events:
        if isinstance(e, TrickEnd):
            endings.update(e.reasons)


@dataclass(frozen=True)
class EndgamePlan:
    seeded: int  # random deals besides the hand-picked ones
    variant_players: int  # most players in a deal explored under a changed reading
    core_only: bool = False  # a changed reading explores only the core deals


PLANS: dict[Level, EndgamePlan] = {
    "quick": EndgamePlan(seeded=0, variant_players=2, core_only=True),
    "ci": EndgamePlan(seeded=4, variant_players=3),
    "deep": EndgamePlan(seeded=40, variant_players=6),
}


def endgame_rulesets(ctx: CheckContext) -> list[Ruleset]:
    """The ruleset under check and every one-point change around it; from ci on the profiles too,
    and at deep every pair of changes."""
    base = variants(ctx.spec, ctx.ruleset, PLAY_POINTS, all_combinations=False)
    if ctx.level == "quick":
        return base
    rulesets = list(base)
    seen = {rs.reading_items for rs in rulesets}
    extra = [ctx.spec.ruleset(name) for name in ctx.spec.playable_profiles]
    if ctx.level == "deep":
        for first in base[1:]:
            extra.extend(variants(ctx.spec, first, PLAY_POINTS, all_combinations=False)[1:])
    for rs in extra:
        if rs.reading_items not in seen:
            seen.add(rs.reading_items)
            rulesets.append(rs)
    return rulesets


def _start(game: Engine, deal: Deal) -> State | None:
    try:
        return game.start_round([list(h) for h in deal.hands], deal.leader, None)
    except (ValueError, SpecError):
        return None  # the deck under this reading cannot hold these cards (e.g. five 3s with 4 copies)


def check_endgames(ctx: CheckContext) -> CheckResult:
    """(c) Exhaustive state graphs of small endgames per reading, every invariant on every move."""
    require_readings(ctx)
    words = ctx.words
    say, under_check = words.check("graphs.endgames"), words.check("graphs")("under_check")
    oracles = words.check("oracles")
    invariants = words.check("invariants")
    started = time.perf_counter()
    plan = PLANS[ctx.level]
    deals = sorted(
        [*HAND_PICKED, *seeded_deals(ctx.seed, plan.seeded, ctx.ruleset.ranks)],
        key=lambda d: (d.cards, len(d.hands), d.name),
    )
    best: dict[str, tuple[tuple[int, int], Failure]] = {}
    findings: list[Finding] = []
    notes: list[str] = []
    states = transitions = graphs = 0
    for rs in endgame_rulesets(ctx):
        endings: Counter[TrickEndReason] = Counter()
        counts: list[int] = []
        five_player_points = bool(_changed(ctx.ruleset, rs).keys() & FIVE_PLAYER_POINTS)
        for deal in deals:
            if not rs.players_min <= len(deal.hands) <= rs.players_max:
                continue
            many_hands = len(deal.hands) > plan.variant_players
            if _changed(ctx.ruleset, rs) and (
                (plan.core_only and not deal.core)
                or (many_hands and not (five_player_points and len(deal.hands) == 5))
            ):
                # More hands make much larger graphs; a changed reading is explored with the
                # smaller deals only (five hands when the change concerns five players).
                continue
            game = ctx.engine(rs, len(deal.hands))
            start = _start(game, deal)
            if start is None:
                continue
            rules = SpecRules(rs, len(deal.hands), oracles)
            result = explore(game, rules, start, invariants)
            graphs += 1
            states += result.states
            transitions += result.transitions
            counts.append(result.states)
            endings.update(result.endings)
            for key, failure in _graph_failures(
                rs, deal, game, result, _label(ctx.ruleset, rs, under_check), say
            ):
                rank = (
                    failure.witness.cards if failure.witness else 0,
                    len(failure.witness.situation.get("moves", ())) if failure.witness else 0,
                )
                if key not in best or rank < best[key][0]:
                    best[key] = (rank, failure)
        label = _label(ctx.ruleset, rs, under_check)
        never = [e for e in TRICK_END_REASONS if endings[e] == 0]
        if never and not best:
            findings.append(_never_finding(ctx, rs, label, never, len(counts), say))
        seen = ", ".join(f"{e} {endings[e]}" for e in TRICK_END_REASONS)
        notes.append(
            say(
                "read",
                label=label,
                endgames=len(counts),
                states=sum(counts),
                largest=max(counts, default=0),
                endings=seen,
            )
        )
    summary = say("counted" if best else "all_sound", graphs=graphs, states=states, moves=transitions)
    return CheckResult(
        name="graphs.endgames",
        title=say.title,
        seconds=time.perf_counter() - started,
        exhaustive=states,
        findings=tuple(findings),
        failures=tuple(f for _, f in sorted(best.values(), key=lambda x: (x[0], x[1].message))),
        notes=(summary, *notes[:3], *((say("more", count=len(notes) - 3),) if len(notes) > 3 else ())),
    )


def _graph_failures(
    rs: Ruleset, deal: Deal, game: Engine, result: EndgameGraph, label: str, say: CheckWords
) -> Iterator[tuple[str, Failure]]:
    """The graph's failures, each with what it breaks (an invariant, or the graph's termination):
    one witness, the smallest, is kept per key."""
    for violation, state, moves in result.violations[:1]:
        scenario = {
            "profile": rs.profile,
            "readings": rs.readings,
            "players": len(deal.hands),
            "start": {
                "hands": [list(h) for h in deal.hands],
                "leader": deal.leader,
                "scores": [0] * len(deal.hands),
                "seed": 0,
            },
            "moves": [str(m) for m in moves],
        }
        text = say(
            "failure",
            invariant=violation.invariant,
            message=violation.message,
            label=label,
            hands=list(map(list, deal.hands)),
            leader=deal.leader,
            moves=", ".join(map(str, moves)) or say("no_moves"),
        )
        yield (
            violation.invariant,
            Failure(
                check="graphs.endgames",
                message=text,
                readings=rs.readings,
                witness=Witness(
                    summary=text,
                    situation={**situation(game, state), "scenario": scenario, "moves": scenario["moves"]},
                    outcomes={"engine": violation.actual, "spec": violation.expected},
                    cards=deal.cards,
                ),
            ),
        )
    if not nx.is_directed_acyclic_graph(result.graph):
        yield (
            "terminates",
            Failure("graphs.endgames", say("no_end", deal=deal.name, label=label), rs.readings),
        )
    if result.dead_ends:
        dead_ends = say("dead_ends", count=result.dead_ends, deal=deal.name, label=label)
        yield "moves.nonempty", Failure("graphs.endgames", dead_ends, rs.readings)


def _never_finding(
    ctx: CheckContext, rs: Ruleset, label: str, never: list[TrickEndReason], deals: int, say: CheckWords
) -> Finding:
    clause = {
        TrickEndReason.ALL_PASSED: "trick.end.passes",
        TrickEndReason.SET_CLOSED: "trick.end.set",
        TrickEndReason.RUN_CLOSED: "trick.end.run",
        TrickEndReason.RULE_OF_8: "trick.end.eight",
    }
    changed = _changed(ctx.ruleset, rs)
    ident = ".".join(f"{p}={r}" for p, r in changed.items()) or "base"
    return Finding(
        id=f"graphs.endgames.never.{'+'.join(never)}.{ident}",
        kind=FindingKind.DEAD_CLAUSE,
        title=say("never", endings=", ".join(never)),
        clauses=tuple(clause[e] for e in never),
        detail=say("never_detail", label=label, deals=deals, endings=", ".join(never)),
        check="graphs.endgames",
        severity=Severity.LOW,
        readings=readings_of(ctx.spec, changed.items()),
        trick_end_reasons=tuple(never),
    )
