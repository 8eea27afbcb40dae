"""Impact: how often the choice of a reading changes anything in simulated play.

For a variation point and two readings A (played) and B (compared), seeded games are played by the
bots under A. At every step the same state is also put to an engine under B: does B allow another
set of legal moves, end the trick differently or give it to another player, end the round with
another result, deal differently or pass the turn to someone else? A game is *affected* when any
step differs. The share of affected games, with a 95% Wilson interval, is measured per player count;
the first difference of a game is written down as a witness (witnesses.py).

Everything here is a pure function of its arguments: `measure` covers one player count and one
range of game numbers, and the counts of disjoint ranges add up (`ImpactCounts.merge`), so a long
estimate can be split across processes. Game i is dealt and played exactly as game i of
`five35.engine.simulate` with the same base seed, so impact and variant statistics describe the
same games.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from five35.engine import Game, Move, RoundEnd, State, TrickEnd
from five35.engine.bots import Bot, get_bot
from five35.engine.executor import LocalExecutor
from five35.engine.simulate import bot_rngs, game_seed, wilson_interval
from five35.spec import Ruleset, Spec, SpecError

from ..findings import Alternative, EngineFactory, Impact, Witness
from .witnesses import RoundHistory, deal_witness, shrunk_witness, step_witness, undealable_witness

# A mixed table: the greedy and cautious bots play like people who want to go out, the random one
# reaches the corners of the rules that sensible play avoids.
DEFAULT_BOTS: tuple[str, ...] = ("greedy", "cautious", "random")

# What changed first in an affected game, in the order a step is compared.
CHANGES: tuple[str, ...] = ("deal", "legal_moves", "trick_end", "round_result", "next_turn")


@dataclass(frozen=True)
class ImpactCounts:
    """Counts for one comparison at one player count over some games; counts of disjoint game
    ranges merge exactly."""

    games: int = 0
    affected: int = 0
    first_change: Mapping[str, int] = field(default_factory=dict)  # what changed first -> games
    witness: Witness | None = None  # the smallest divergence seen (fewest cards), earliest on ties
    witness_game: int = -1

    def merge(self, other: ImpactCounts) -> ImpactCounts:
        first = dict(self.first_change)
        for key, n in other.first_change.items():
            first[key] = first.get(key, 0) + n
        mine = (self.witness.cards, self.witness_game) if self.witness else None
        theirs = (other.witness.cards, other.witness_game) if other.witness else None
        take_other = theirs is not None and (mine is None or theirs < mine)
        return ImpactCounts(
            games=self.games + other.games,
            affected=self.affected + other.affected,
            first_change=first,
            witness=other.witness if take_other else self.witness,
            witness_game=other.witness_game if take_other else self.witness_game,
        )


def _outcome_key(events: Sequence[object]) -> tuple[Any, ...]:
    """The parts of a move's events a player notices: a trick ending and its winner, and the round's
    result. Which rule ended a trick is not compared when the ending and winner agree."""
    key: list[Any] = []
    for event in events:
        if isinstance(event, TrickEnd):
            key.append(("trick", event.winner))
        elif isinstance(event, RoundEnd):
            key.append(("round", event.went_out, event.penalties, event.scores))
    return tuple(key)


@dataclass
class _Tracker:
    """One compared engine while a game is played."""

    name: str
    game: Game
    names: tuple[str, str]
    games: int = 0
    affected: int = 0
    first_change: dict[str, int] = field(default_factory=dict)
    witness: Witness | None = None
    witness_game: int = -1
    diverged: bool = False

    def record(self, change: str, witness: Witness, index: int) -> None:
        self.diverged = True
        self.affected += 1
        self.first_change[change] = self.first_change.get(change, 0) + 1
        if self.witness is None or witness.cards < self.witness.cards:
            self.witness, self.witness_game = witness, index

    def counts(self) -> ImpactCounts:
        return ImpactCounts(
            self.games, self.affected, dict(self.first_change), self.witness, self.witness_game
        )


def _seat_bots(bots: Sequence[str], players: int) -> tuple[Bot, ...]:
    return tuple(get_bot(bots[seat % len(bots)]) for seat in range(players))


def measure(
    played: Ruleset,
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    players: int,
    games: range,
    *,
    base_seed: int = 0,
    bots: Sequence[str] = DEFAULT_BOTS,
    engine: EngineFactory = Game,
    progress: Callable[[int], None] | None = None,
    engines: Mapping[str, EngineFactory] | None = None,
) -> dict[str, ImpactCounts]:
    """Play game i for every i in `games` under `played` and compare every step with each ruleset
    in `compared` (name -> (ruleset, (played reading, compared reading))).

    Bots sit round the table in the order given (seat s plays bots[s % len(bots)]). `engines` may
    give a compared name its own engine class (default: `engine`). Returns the counts per compared
    name. A comparison stops for a game at its first difference.
    """
    base = engine(played, players)
    played.hand_size(players)  # a played ruleset that cannot deal is the caller's error
    trackers: list[_Tracker] = []
    unplayable: list[tuple[_Tracker, str]] = []
    for name, (rs, labels) in compared.items():
        try:
            rs.hand_size(players)
            trackers.append(_Tracker(name, (engines or {}).get(name, engine)(rs, players), labels))
        except SpecError as exc:
            # The compared reading cannot even deal this table: every game differs at the deal.
            unplayable.append((_Tracker(name, base, labels), str(exc)))
    seated = _seat_bots(bots, players)
    for index in games:
        seed = game_seed(base_seed, index)
        rngs = bot_rngs(seed, players)
        for t in trackers:
            t.games += 1
            t.diverged = False
        state = base.new_match(seed)
        history = RoundHistory(state)
        for t, error in unplayable:
            t.games += 1
            t.record("deal", undealable_witness(base, state, t.names, error), index)
        for t in trackers:
            other = t.game.new_match(seed)
            if other != state:
                t.record("deal", deal_witness(base, t.game, state, other, t.names, True), index)
        while True:
            while state.phase == "play":
                legal = base.legal_moves(state)
                move = seated[state.to_move].choose(base, state, legal, rngs[state.to_move])
                new, events = base.apply(state, move)
                _compare_step(base, trackers, state, legal, move, (new, events), index, history)
                history.plays.append((state.to_move, move))
                state = new
            if state.phase == "match_over" or all(t.diverged for t in trackers):
                break
            nxt = base.next_round(state)
            for t in trackers:
                if not t.diverged:
                    other = t.game.next_round(state)
                    if other != nxt:
                        t.record("deal", deal_witness(base, t.game, nxt, other, t.names, False), index)
            state = nxt
            history = RoundHistory(state)
        if progress is not None:
            progress(1)
    counted = {t.name: t.counts() for t in trackers}
    counted.update({t.name: t.counts() for t, _ in unplayable})
    return {name: counted[name] for name in compared}


def _compare_step(
    base: Game,
    trackers: Sequence[_Tracker],
    state: State,
    legal: tuple[Move, ...],
    move: Move,
    after: tuple[State, tuple[object, ...]],
    index: int,
    history: RoundHistory,
) -> None:
    legal_a: set[Move] | None = None
    new, events = after
    for t in trackers:
        if t.diverged:
            continue
        other_legal = t.game.legal_moves(state)
        if other_legal != legal:
            legal_a = legal_a if legal_a is not None else set(legal)
            if set(other_legal) != legal_a:
                lb = set(other_legal)
                b_after = t.game.apply(state, move) if move in lb else None
                w = shrunk_witness(base, t.game, state, (legal_a, lb), t.names, history) or step_witness(
                    base,
                    t.game,
                    state,
                    move,
                    (legal_a, lb),
                    (after, b_after),
                    t.names,
                    "legal_moves",
                    history,
                )
                t.record("legal_moves", w, index)
                continue
        other_new, other_events = t.game.apply(state, move)
        change = None
        if _outcome_key(other_events) != _outcome_key(events):
            trick_a = [e for e in events if isinstance(e, TrickEnd)]
            trick_b = [e for e in other_events if isinstance(e, TrickEnd)]
            change = (
                "trick_end" if [e.winner for e in trick_a] != [e.winner for e in trick_b] else "round_result"
            )
        elif other_new != new:
            change = "next_turn"
        if change is not None:
            legal_set = set(legal)
            w = step_witness(
                base,
                t.game,
                state,
                move,
                (legal_set, legal_set),
                (after, (other_new, other_events)),
                t.names,
                change,
                history,
            )
            t.record(change, w, index)


def player_counts(ruleset: Ruleset) -> tuple[int, ...]:
    return tuple(range(ruleset.players_min, ruleset.players_max + 1))


def comparison(
    spec: Spec, ruleset: Ruleset, point: str, other: str | None = None
) -> tuple[Ruleset, str, str]:
    """The ruleset that differs from `ruleset` only in `point` (read as `other`, or the point's
    first playable reading that is not the chosen one), with the played and compared reading names."""
    if point not in spec.variation_points:
        raise SpecError("impact", f"unknown variation point {point!r}")
    vp = spec.variation_points[point]
    chosen = ruleset.reading(point)
    if other is None:
        others = [r for r in vp.playable if r != chosen]
        if not others:
            raise SpecError("impact", f"{point} has no reading other than {chosen!r}")
        other = others[0]
    if other not in vp.readings:
        raise SpecError("impact", f"{point} has no reading {other!r}")
    return spec.with_readings(ruleset, {point: other}), chosen, other


def describe_method(games: int, seed: int, bots: Sequence[str], played: str, compared: str) -> str:
    return (
        f"{games} seeded matches per player count (base seed {seed}), bots {'/'.join(bots)} round the "
        f"table, played under {played}; a match counts as affected when {compared} would at some step "
        "deal differently, allow a different set of legal moves, end a trick differently or give it "
        "to another player, end the round with another result, or pass the turn to someone else. "
        "95% Wilson interval."
    )


def to_impact(per_players: Mapping[int, ImpactCounts], games: int, seed: int, method: str) -> Impact:
    table: dict[int, tuple[int, float, float, float]] = {}
    for players, c in sorted(per_players.items()):
        # With no games at all nothing is known about the share: the whole range.
        lo, hi = wilson_interval(c.affected, c.games) or (0.0, 1.0)
        share = round(c.affected / c.games, 4) if c.games else 0.0
        table[players] = (c.affected, share, lo, hi)
    return Impact(games=games, seed=seed, per_players=table, method=method)


def estimate_impact(
    spec: Spec,
    ruleset: Ruleset,
    point: str,
    other: str | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    bots: Sequence[str] = DEFAULT_BOTS,
    engine: EngineFactory = Game,
) -> Impact:
    """The impact of reading `point` as `other` instead of the ruleset's choice, per player count."""
    compared, chosen, alt = comparison(spec, ruleset, point, other)
    per: dict[int, ImpactCounts] = {}
    for players in player_counts(ruleset):
        counts = measure(
            ruleset,
            {point: (compared, (chosen, alt))},
            players,
            range(games),
            base_seed=seed,
            bots=bots,
            engine=engine,
        )
        per[players] = counts[point]
    return to_impact(per, games, seed, describe_method(games, seed, bots, chosen, alt))


# ---- findings that are not one variation point ----------------------------------------------------
#
# A contradiction, a gap, a dead clause, a mismatch or a defect puts two alternatives of its own (two
# wordings, two point tables, a clause kept or deleted): the `Alternative` its check fills in, two
# engines (variants.py) or two rulesets. Playing both over the same seeded games measures the
# finding's impact with the same machinery as a variation point; when a finding cannot change play
# the measurement comes out 0, it is never written down as 0.


Measured = tuple[str, Alternative]  # a finding id and the alternative its impact compares


def _alt_counts(
    alts: Sequence[Measured], players: int, games: range, seed: int, bots: Sequence[str]
) -> dict[str, ImpactCounts]:
    """Alternatives sharing their played side are measured on one played game each."""
    groups: dict[tuple[Ruleset, type[Game]], list[Measured]] = {}
    for fid, alt in alts:
        groups.setdefault((alt.played.ruleset, alt.played.engine), []).append((fid, alt))
    out: dict[str, ImpactCounts] = {}
    for (played, factory), members in groups.items():
        out.update(
            measure(
                played,
                {fid: (a.compared.ruleset, a.labels) for fid, a in members},
                players,
                games,
                base_seed=seed,
                bots=bots,
                engine=factory,
                engines={fid: a.compared.engine for fid, a in members},
            )
        )
    return out


def dealable(ruleset: Ruleset, players: int) -> bool:
    """Whether the ruleset can deal a table of `players`."""
    try:
        ruleset.hand_size(players)
    except SpecError:
        return False
    return True


def alternative_units(
    alts: Mapping[str, Alternative], played: Ruleset, games: int, chunk: int = 50
) -> list[tuple[tuple[Measured, ...], int, range]]:
    """The work as (alternatives, player count, game range) units: each a pure function of its
    arguments (`alternative_unit`), so the estimate splits across processes."""
    units = []
    for players in player_counts(played):
        here = tuple(
            (fid, a)
            for fid, a in alts.items()
            if (not a.players or players in a.players) and dealable(a.played.ruleset, players)
        )
        if not here:
            continue
        for lo in range(0, games, chunk):
            units.append((here, players, range(lo, min(games, lo + chunk))))
    return units


def alternative_unit(
    alts: tuple[Measured, ...], players: int, games: range, seed: int, bots: tuple[str, ...]
) -> dict[str, ImpactCounts]:
    return _alt_counts(alts, players, games, seed, bots)


def estimate_alternatives(
    alts: Mapping[str, Alternative],
    played: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    jobs: int = 1,
) -> dict[str, tuple[Impact, dict[int, ImpactCounts]]]:
    """The impact of every finding's alternative (by finding id) over games 0..games-1 of base seed
    `seed`, per player count. With jobs > 1 the units run in that many worker processes (the one
    executor, five35.engine.executor); the result is the same."""
    units = alternative_units(alts, played, games)
    outcomes = LocalExecutor(jobs).map(
        alternative_unit,
        [a for a, _, _ in units],
        [p for _, p, _ in units],
        [r for _, _, r in units],
        [seed] * len(units),
        [tuple(bots)] * len(units),
    )
    with contextlib.closing(outcomes):  # an error or interrupt stops every worker at once
        results = list(outcomes)
    per: dict[str, dict[int, ImpactCounts]] = {fid: {} for fid in alts}
    for (_, players, _), result in zip(units, results, strict=True):
        for fid, counts in result.items():
            have = per[fid].get(players)
            per[fid][players] = have.merge(counts) if have else counts
    out = {}
    for fid, alt in alts.items():
        method = describe_method(games, seed, bots, alt.labels[0], alt.labels[1])
        if alt.method:
            method = f"Compared: {alt.method}. {method}"
        out[fid] = (to_impact(per[fid], games, seed, method), per[fid])
    return out
