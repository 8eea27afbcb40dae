"""The state properties, searched over every state legal play reaches from small deals: whoever is
to move has a legal move, every move lowers the trick's ranking function, the trick's winner sits at
the table, one player goes out; and play that comes back to a state it has been in."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx  # type: ignore[import-untyped]

from ....engine import PASS, Move, Position, State
from ....engine.engines import Engine, make_engine, rules_apart
from ....engine.state import RoundEnd, TrickEnd
from ....spec import Ruleset, Spec, SpecError
from ....spec.words import words_of
from ....spec.words_model import Words
from ...findings import Level
from ...play.graphs import HAND_PICKED, PLAY_POINTS, Deal, seeded_deals, variants
from .outcome import NAME, Outcome
from .proofs import HAND_STATED
from .tables import TABLES, Table, alike_segments, every_deal

#: Most states explored per deal: far above what the small deals reach (a few thousand).
STATE_LIMIT = 500_000
STATE_PROPERTIES = {
    "state.has_legal_move": ("lead.no_pass", "action.pass", "action.choice"),
    "trick.rank_falls": ("action.pass.out", "trick.end.passes", "turn.cards"),
    "trick.winner_at_table": ("trick.winner",),
    "round.one_goes_out": ("round.end", "round.scoring"),
    "play.no_endless_trick": ("trick.end.passes", "action.pass", "action.pass.out"),
}


@dataclass(frozen=True)
class StatePlan:
    core_only: bool  # the hand-picked deals marked core only
    seeded: int  # random small deals besides
    all_pairs: bool  # every pair of reading changes besides one at a time
    flips: bool = True  # the ruleset's one-reading changes besides the ruleset itself


STATE_PLANS: dict[Level, StatePlan] = {
    "quick": StatePlan(core_only=True, seeded=0, all_pairs=False, flips=False),
    "ci": StatePlan(core_only=True, seeded=0, all_pairs=False),
    "deep": StatePlan(core_only=False, seeded=12, all_pairs=True),
}


def _state_rulesets(spec: Spec, ruleset: Ruleset, plan: StatePlan) -> list[Ruleset]:
    base = variants(spec, ruleset, PLAY_POINTS, all_combinations=False)
    if not plan.flips:
        return base[:1]
    if not plan.all_pairs:
        return base
    out, seen = list(base), {rs.reading_items for rs in base}
    for first in base[1:]:
        for rs in variants(spec, first, PLAY_POINTS, all_combinations=False)[1:]:
            if rs.reading_items not in seen:
                seen.add(rs.reading_items)
                out.append(rs)
    return out


def varied_words(spec: Spec, words: Words, ruleset: Ruleset, rulesets: Sequence[Ruleset]) -> str:
    """Which questions' answers `rulesets` change around `ruleset`, and which they leave (the
    words file's `liveness.tables.varied`; "" where it has none)."""
    template = words.liveness.tables.varied
    if not template:
        return ""
    varied = {p for rs in rulesets for p in spec.variation_points if rs.reading(p) != ruleset.reading(p)}
    left = [
        f"\u2018{q.title if (q := words.question_of(p)) is not None else p}\u2019"
        for p in spec.variation_points
        if p not in varied and len(spec.variation_points[p].playable) > 1
    ]
    return template.format(count=len(varied), left=", ".join(dict.fromkeys(left)))


Problem = tuple[str, dict[str, Any]]  # the property a state or step breaks, and the facts that show it


def _state_problems(game: Engine, state: State) -> Iterator[Problem]:
    if state.phase != "play":
        return
    mover = state.to_move
    facts: dict[str, Any] = {"to_move": mover, "leading": state.leading}
    if not 0 <= mover < game.players:
        yield "state.has_legal_move", {**facts, "seat_at_table": False}
        return
    moves = game.legal_moves(state)
    facts |= {
        "cards_in_hand": _held(game, state.hands[mover]),
        "passed": state.has_passed(mover),
        "legal_moves": len(moves),
        "may_pass": PASS in moves,
    }
    if not facts["cards_in_hand"] or facts["passed"] or not moves or facts["may_pass"] == state.leading:
        yield "state.has_legal_move", facts


_HELD: dict[tuple[tuple[int, ...], int], int] = {}


def _held(game: Engine, hand: int) -> int:
    """The cards in a packed hand, remembered: the search asks it for every hand of every step."""
    key = (game.ruleset.ranks, hand)  # the packing depends on the ranks alone
    got = _HELD.get(key)
    if got is None:
        got = _HELD[key] = len(game.codec.cards(hand))
    return got


def _in_trick(state: State) -> int:
    """The players still in the trick: the ranking function's second part (cards in hands the first)."""
    return state.players - state.passed.bit_count()


def _step_problems(
    game: Engine, state: State, move: Move, after: State, events: tuple[Any, ...]
) -> Iterator[Problem]:
    mover = state.to_move
    placed = move.action != "pass"
    last = mover if placed else state.last_player
    ended = False
    for e in events:
        if isinstance(e, TrickEnd):
            ended = True
            if not 0 <= e.winner < game.players or e.winner != last:
                yield "trick.winner_at_table", {"winner": e.winner, "last_to_place": last}
        if isinstance(e, RoundEnd):
            ended = True
            empty = [p for p, h in enumerate(after.hands) if not h]
            if empty != [e.went_out] or e.went_out != mover:
                yield "round.one_goes_out", {"empty_hands": empty, "went_out": e.went_out, "mover": mover}
    held = [_held(game, h) for h in state.hands]
    held_after = [_held(game, h) for h in after.hands]
    took = held[mover] - held_after[mover]
    if (placed and not 1 <= took <= game.max_cards) or (not placed and took):
        yield "state.has_legal_move", {"move": str(move), "cards_taken": took, "max": game.max_cards}
    if not ended:
        before = sum(held) + _in_trick(state)
        now = sum(held_after) + _in_trick(after)
        if now >= before:
            yield "trick.rank_falls", {"move": str(move), "rank_before": before, "rank_after": now}


Found = tuple[str, dict[str, Any], int, list[Move]]  # property, facts, the start's index, path


class Search:
    """Every state reachable from one or more starts, each explored once however many starts
    reach it (the states of a small table's deals overlap: after a trick, a deal is a smaller
    one). `measured`: the rules are the printed ones whose trick-ending measure (trick.rank_falls)
    every move must lower; under rules stated otherwise the measure is not asked, and `cycle`
    looks for play that comes back to a state it has been in instead (a cycle of the state graph:
    play that may go on for ever)."""

    def __init__(self, game: Engine, *, measured: bool = True) -> None:
        self.game = game
        self.measured = measured
        self.count = 0
        # Per state: the start it was first reached from and the moves from there.
        self.seen: dict[tuple[object, ...], tuple[int, list[Move]]] = {}
        self.graph: nx.DiGraph[tuple[object, ...]] = nx.DiGraph()
        self.moves_of: dict[tuple[tuple[object, ...], tuple[object, ...]], Move] = {}

    def run(self, start: State, origin: int, limit: int) -> Found | None:
        """Explore from `start` (the start numbered `origin`) until `limit` states are counted in
        all: the first problem found, breadth first, so with the shortest path to it."""
        game, measured, seen = self.game, self.measured, self.seen
        first = _key(start, measured)
        if first in seen:
            return None
        seen[first] = (origin, [])
        queue: deque[State] = deque([start])
        while queue and self.count < limit:
            state = queue.popleft()
            self.count += 1
            here = _key(state, measured)
            came_from, path = seen[here]
            for name, facts in _state_problems(game, state):
                return name, facts, came_from, path
            if state.phase != "play":
                continue
            for move in game.legal_moves(state):
                after, events = game.apply(state, move)
                for name, facts in _step_problems(game, state, move, after, events):
                    if name == "trick.rank_falls" and not measured:
                        continue
                    return name, facts, came_from, [*path, move]
                key = _key(after, measured)
                if not measured:
                    self.graph.add_edge(here, key)
                    self.moves_of.setdefault((here, key), move)
                if key not in seen:
                    seen[key] = (came_from, [*path, move])
                    queue.append(after)
        return None

    def cycle(self) -> Found | None:
        """Play that comes back to a state it has been in, from the start that first reached it.

        Under measured rules none can, once `run` found no problem: a state comes back only with
        the same cards in hand, so only passes lie between; a pass that does not end the trick
        lowers the measure (trick.rank_falls, checked on every step), and after one that does the
        new leader, who may not pass (state.has_legal_move), must place a card. The state graph is
        kept, and searched, only under rules stated otherwise."""
        if self.measured or nx.is_directed_acyclic_graph(self.graph):
            return None
        try:
            cycle = nx.find_cycle(self.graph)
        except nx.NetworkXNoCycle:
            return None
        origin, path = self.seen[cycle[0][0]]
        around = [self.moves_of[(a, b)] for a, b in cycle]
        facts = {"repeats_after": [str(m) for m in around]}
        return "play.no_endless_trick", facts, origin, [*path, *around]


def _explore(
    game: Engine, start: State, limit: int, *, measured: bool = True
) -> tuple[int, tuple[str, dict[str, Any], list[Move]] | None]:
    """Every state reachable from `start` (at most `limit`): how many, and the first problem found
    (Search.run, then Search.cycle)."""
    search = Search(game, measured=measured)
    found = search.run(start, 0, limit) or search.cycle()
    if found is None:
        return search.count, None
    name, facts, _, path = found
    return search.count, (name, facts, path)


def _key(s: State, measured: bool = True) -> tuple[object, ...]:
    # States that differ only in the trick's record play on alike under the printed rules (the
    # state keeps who placed last); rules stated otherwise may read the passes in a row from it.
    key = (s.hands, s.to_move, s.pile, s.last_player, s.passed, s.opening_has_eight, s.phase, s.scores)
    if measured:
        return key
    # Counted up to one more than the table: a rule that counts further (passes_in_a_row == 2 *
    # players) is not told apart here, and a cycle the search reports may then be a long trick.
    in_a_row = 0
    for play in reversed(s.trick):
        if play.move.action != "pass" or in_a_row > s.players:
            break
        in_a_row += 1
    return (*key, in_a_row)


def _deals(spec: Spec, ruleset: Ruleset, plan: StatePlan, seed: int) -> list[Deal]:
    deals = [d for d in HAND_PICKED if d.core or not plan.core_only]
    deals += seeded_deals(seed, plan.seeded, ruleset.ranks)
    ranks = set(ruleset.ranks)
    players = range(ruleset.players_min, ruleset.players_max + 1)
    fit = [d for d in deals if all(c in ranks for h in d.hands for c in h) and len(d.hands) in players]
    if len(fit) < FEWEST_DEALS:
        # A house spec whose ranks or player counts the hand-picked deals miss: deals of its own.
        fit += _own_deals(ruleset, seed, FEWEST_DEALS - len(fit))
    return fit


FEWEST_DEALS = 3


def _own_deals(ruleset: Ruleset, seed: int, count: int) -> list[Deal]:
    """`count` deals of two or three cards each at the spec's fewest players, from its own ranks."""
    players = ruleset.players_min
    deck = [r for r in ruleset.ranks for _ in range(min(ruleset.copies_small, ruleset.copies_large))]
    out = []
    for i in range(count):
        rng = random.Random(f"five35-liveness:{seed}:{i}")
        cards = list(deck)
        rng.shuffle(cards)
        size = max(1, min(2 + i % 2, len(cards) // players))
        hands = tuple(tuple(sorted(cards[p * size : (p + 1) * size])) for p in range(players))
        out.append(Deal(f"own {seed}:{i}", hands))
    return out


def stated_otherwise(ruleset: Ruleset, rule_ids: Iterable[str]) -> list[str]:
    """Which of `rule_ids` the ruleset's rules in force state otherwise than the embedded spec's
    under the same readings (or leave out, or add)."""
    if ruleset.rulebook is None:
        return list(rule_ids)
    return rules_apart(ruleset).among(rule_ids)


Failed = dict[str, tuple[Mapping[str, Any], Position]]


def _record(
    failed: Failed, ruleset: Ruleset, rs: Ruleset, name: str, facts: Mapping[str, Any], position: Position
) -> None:
    """A property `rs` breaks, with its facts, the readings it changes from `ruleset`'s, and the
    moves from `position`'s deal to where it breaks."""
    changed = {p: r for p, r in rs.reading_items if ruleset.reading(p) != r}
    failed[name] = ({"readings": changed, **facts, "moves": [str(m) for m in position.moves]}, position)


def every_deal_of(
    spec: Spec,
    ruleset: Ruleset,
    tables: Sequence[Table],
    rulesets: Sequence[Ruleset],
    measured: bool,
    engine: Callable[[Ruleset, int], Engine],
    failed: Failed,
) -> tuple[int, str, str]:
    """Every deal of `tables` (tables.py) under each of `rulesets` (`ruleset` first), each class
    of alike deals once, the states of all of a table's deals searched together; a property one
    breaks goes into `failed` (as `states` records it). How many states, the scope's words, and the
    tables in a designer's words."""
    all_words = words_of(spec)
    words = all_words.liveness.tables
    states = 0
    scope: dict[Table, str] = {}
    plain: dict[Table, str] = {}
    stopped: set[Table] = set()  # a search that met the limit: not every deal was explored
    for rs in rulesets:
        symmetry = alike_segments(rs)
        for table in tables:
            if not rs.players_min <= table.players <= rs.players_max:
                continue
            deals, classes = every_deal(rs, table, symmetry)
            game = engine(rs, table.players)
            search = Search(game, measured=measured)
            starts = list(classes)
            found = None
            for i, hands in enumerate(starts):
                start = game.start_round([list(h) for h in hands], 0, None)
                found = search.run(start, i, TABLE_STATE_LIMIT)
                if found is not None:
                    break
            found = found or search.cycle()
            states += search.count
            if search.count >= TABLE_STATE_LIMIT:
                stopped.add(table)
            if found is not None and found[0] not in failed:
                name, facts, origin, path = found
                _record(
                    failed,
                    ruleset,
                    rs,
                    name,
                    facts,
                    Position(hands=starts[origin], leader=0, moves=tuple(path)),
                )
            if table not in scope:  # the checked ruleset's words (it comes first)
                total = table.players * table.most
                runs_short = total < rs.run_closing_size
                sets_short = total < rs.set_closing_size(table.players)
                piles = (
                    words.too_few_piles
                    if runs_short and sets_short
                    else words.too_few_runs
                    if runs_short
                    else words.too_few_sets
                )
                blanks = {
                    "players": str(table.players),
                    "cards": words.one_card if table.most == 1 else words.cards.format(most=table.most),
                    "deals": f"{deals:,}",
                    "classes": f"{len(classes):,}",
                    "merged": ", ".join(f"{seg[0]}-{seg[-1]}" for seg in symmetry.segments),
                    "part": symmetry.refused,
                    "too_few": words.too_few.format(total=total, piles=piles)
                    if runs_short or sets_short
                    else "",
                }
                merged = symmetry.segments and not symmetry.refused
                scope[table] = (words.table if merged else words.unmerged).format(**blanks)
                plain[table] = words.plain_table.format(**blanks)
    joined = words.join.join(
        words.stopped.format(table=scope[t], limit=f"{TABLE_STATE_LIMIT:,}") if t in stopped else scope[t]
        for t in tables
        if t in scope
    )
    varied = varied_words(spec, all_words, ruleset, rulesets) if len(rulesets) > 1 else ""
    under = words.checked if len(rulesets) == 1 else words.changed.format(count=len(rulesets), varied=varied)
    said = [plain[t] for t in tables if t in plain and t not in stopped]
    plain_tables = (words.plain_join.join(said) if said else "") if words.plain_table else ""
    return states, words.scope.format(rulesets=under, tables=joined, states=f"{states:,}"), plain_tables


#: Most states one table's deals may reach under one ruleset (the embedded spec's reach some 26,000).
TABLE_STATE_LIMIT = 2_000_000


def states(
    spec: Spec,
    ruleset: Ruleset,
    level: Level,
    seed: int,
    engine: Callable[[Ruleset, int], Engine] = make_engine,
) -> list[Outcome]:
    """The state properties over every state the small deals reach, played by `engine` (the check
    plays the reference; the tests plant bugs)."""
    words = words_of(spec)
    plan = STATE_PLANS[level]
    rulesets = _state_rulesets(spec, ruleset, plan)
    deals = _deals(spec, ruleset, plan, seed)
    measured = not stated_otherwise(ruleset, HAND_STATED["trick.ends"])
    states = 0
    failed: dict[str, tuple[Mapping[str, Any], Position]] = {}
    explored_deals: set[str] = set()
    for rs in rulesets:
        for deal in deals:
            n = len(deal.hands)
            if not rs.players_min <= n <= rs.players_max:
                continue
            game = engine(rs, n)
            try:
                start = game.start_round([list(h) for h in deal.hands], deal.leader, None)
            except (ValueError, SpecError):
                continue  # the deck under this reading cannot hold the deal (five 3s with 4 copies)
            explored_deals.add(deal.name)
            count, problem = _explore(game, start, limit=STATE_LIMIT, measured=measured)
            states += count
            if problem is not None and problem[0] not in failed:
                name, facts, path = problem
                position = Position(hands=deal.hands, leader=deal.leader, moves=tuple(path))
                _record(failed, ruleset, rs, name, facts, position)
    if not states:
        raise ValueError("liveness: no small deal could be played, so no state property was checked")
    table_states, tables, tables_plain = 0, "", ""
    table_plan = TABLES[level]
    if table_plan.tables:
        table_rulesets = [ruleset]
        if table_plan.readings_changed:
            table_rulesets = _state_rulesets(
                spec, ruleset, StatePlan(core_only=True, seeded=0, all_pairs=False)
            )
        table_states, tables, tables_plain = every_deal_of(
            spec, ruleset, table_plan.tables, table_rulesets, measured, engine, failed
        )
    blanks = {
        "states": f"{states:,}",
        "deals": str(len(explored_deals)),
        "rulesets": str(len(rulesets)),
        "varied": varied_words(spec, words, ruleset, rulesets),
        "tables": tables,
        "tables_plain": tables_plain,
    }
    out = []
    for name, clauses in STATE_PROPERTIES.items():
        got = failed.get(name)
        if name == "trick.rank_falls" and not measured:
            why = words.check(NAME)("measure_otherwise")
            out.append(Outcome(name, "exhaustive", blanks, clauses, unasked=why))
            continue
        out.append(
            Outcome(
                name,
                "exhaustive",
                blanks,
                clauses,
                got[0] if got else None,
                got[1] if got else None,
                cases=states + table_states if name == "state.has_legal_move" else 0,
            )
        )
    return out
