"""The search: every candidate judged at every play of small deals explored exhaustively and of the
plays built, then the built plays again under each other reading."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Mapping, Sequence

from ....engine import Game, Move, State
from ....spec import Ruleset, Spec, SpecError
from ....spec.model import Rule
from ....spec.words import words_of
from ...play.graphs import HAND_PICKED, Deal, seeded_deals
from .candidates import candidates
from .construct import built_counts, construct
from .step import Step, _at_once_rules, _evaluable
from .verdicts import Elsewhere, Search, Verdict, _judge

#: Extra deals beside graphs.py's endgames: each puts two rules on one play in a few cards. Their
#: names are ids (the search lists them, no reader sees them): going out on a closing set or run,
#: going out with an 8, an 8 added to a set of 8s, an 8 closing a run past the gap, three players
#: with a pass after a placer, a set overwritten.
EXTRA_DEALS: tuple[Deal, ...] = (
    Deal("out_on_closing_set", ((3, 3, 12), (3, 3))),
    Deal("out_on_closing_run", ((1, 2, 9), (3, 4, 5))),
    Deal("out_with_8", ((2, 5), (8,))),
    Deal("eight_onto_set_of_8s", ((8, 8, 2), (8, 8, 12))),
    Deal("eight_closing_run_past_gap", ((4, 5, 7, 13), (8, 9, 1))),
    Deal("three_players_pass_after_placer", ((2, 13), (5, 9), (11, 14))),
    Deal("set_overwritten", ((2, 2, 9), (5, 5, 12))),
)


def deals_for(level: str, seed: int, ruleset: Ruleset) -> list[Deal]:
    """The deals of a level: at ci those of 2 and 3 players (the five-player endgame alone takes
    longer than all of them together), at deep every endgame and 40 seeded ones besides."""
    deals = [*EXTRA_DEALS, *HAND_PICKED]
    if level != "deep":
        return [d for d in deals if len(d.hands) <= 3]
    return [*deals, *seeded_deals(seed, 40, ruleset.ranks)]


def search(
    spec: Spec,
    ruleset: Ruleset,
    *,
    engine: Callable[[Ruleset, int], Game] = Game,
    level: str = "ci",
    seed: int = 0,
    at_once_words: Mapping[str, Sequence[str]] | None = None,
    limit: int = 20_000,
) -> Search:
    """Explore the deals of `level` exhaustively and judge every candidate at every play."""
    if at_once_words is None:
        section = words_of(spec).interactions
        at_once_words = section.at_once if section is not None else {}
    rules = {r.id: r for r in spec.rules}
    at_once = _at_once_rules(spec, at_once_words)
    verdicts = [Verdict(c) for c in candidates(spec)]
    for v in verdicts:
        c = v.candidate
        v.orders = tuple(itertools.permutations(c.rules))
        v.evaluable = all(_evaluable(rules[r]) for r in c.all_rules)
    out = Search(spec, ruleset, verdicts)
    for v in verdicts:
        for moment in v.candidate.moments if v.evaluable else ():
            table = out.by_moment_follows if v.candidate.how == "follows" else out.by_moment
            table.setdefault(moment, []).append(v)
    games: dict[int, Game] = {}
    for deal in deals_for(level, seed, ruleset):
        players = len(deal.hands)
        if not ruleset.players_min <= players <= ruleset.players_max:
            continue
        if players not in games:
            games[players] = engine(ruleset, players)
        game = games[players]
        scores = (ruleset.match_end_score - 1, *([0] * (players - 1)))
        try:
            start = game.start_round([list(h) for h in deal.hands], deal.leader, scores)
        except (ValueError, SpecError):
            continue  # the deck under this reading cannot hold these cards
        out.deals += 1
        out.deal_names.append(deal.name)
        out.player_counts.add(players)
        out.most_cards = max(out.most_cards, sum(len(h) for h in deal.hands))
        _explore(out, game, deal, scores, start, rules, at_once, limit)
    for players in built_counts(level, ruleset):
        if players not in games:
            games[players] = engine(ruleset, players)
        construct(out, games[players], rules, at_once)
    if level != "quick":
        _other_readings(out, engine, level, rules, at_once)
    return out


def _other_readings(
    out: Search,
    engine: Callable[[Ruleset, int], Game],
    level: str,
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
) -> None:
    """The built plays again under each other reading of every point (one reading changed at a
    time, at 2 players below level deep), for the candidates whose rules never meet and those whose
    order changed nothing under the checked readings: the first reading that makes the rules meet
    (`Verdict.meets_under`), or makes their order change an outcome (`Verdict.differs_under`), is
    named. Every point, not only those of the candidates' rules: a reading of another rule can
    change what one of them decides (who leads the next round, for the end of a round)."""
    spec, ruleset = out.spec, out.ruleset
    book = spec.rulebook
    looked_at = [v for v in out.verdicts if v.status in ("dead", "same")]
    if book is None or not looked_at:
        return
    points = dict.fromkeys(f.point for f in book.fragments if f.point in spec.variation_points)
    for point in points:
        for reading in spec.variation_points[point].playable:
            waiting = [
                v for v in looked_at if (v.meets_under if v.status == "dead" else v.differs_under) is None
            ]
            if reading == ruleset.readings.get(point) or not waiting:
                continue
            try:
                other = spec.with_readings(ruleset, {point: reading})
            except SpecError:
                continue
            trial = Search(spec, other, [Verdict(v.candidate, orders=v.orders) for v in waiting])
            for t in trial.verdicts:
                table = trial.by_moment_follows if t.candidate.how == "follows" else trial.by_moment
                for moment in t.candidate.moments:
                    table.setdefault(moment, []).append(t)
            counts = (
                built_counts(level, other)
                if level == "deep"
                else range(other.players_min, other.players_min + 1)
            )
            for players in counts:
                try:
                    construct(trial, engine(other, players), rules, at_once)
                except (ValueError, SpecError):
                    continue
            for v, t in zip(waiting, trial.verdicts, strict=True):
                if v.status == "dead" and t.occurs:
                    v.meets_under = Elsewhere(point, reading, t)
                elif v.status == "same" and t.differ:
                    v.differs_under = Elsewhere(point, reading, t)


def _explore(
    out: Search,
    game: Game,
    deal: Deal,
    scores: tuple[int, ...],
    start: State,
    rules: Mapping[str, Rule],
    at_once: Mapping[str, tuple[str, ...]],
    limit: int,
) -> None:
    seen: set[tuple[object, ...]] = {_situation(start)}
    queue: deque[tuple[State, tuple[Move, ...]]] = deque([(start, ())])
    while queue and len(seen) <= limit:
        state, path = queue.popleft()
        out.states += 1
        if state.phase != "play":
            continue
        for move in game.legal_moves(state):
            after, events = game.apply(state, move)
            out.plays += 1
            option = game.option(state, move) if move.action != "pass" else None
            step = Step(game, state, move, option, after, events)
            _judge(out, step, deal, scores, path, rules, at_once)
            key = _situation(after)
            if key not in seen:
                seen.add(key)
                queue.append((after, (*path, move)))


def _situation(state: State) -> tuple[object, ...]:
    """A state without the record of its trick, which no rule reads beyond who placed last (the
    state keeps that): two plays into one situation play on alike."""
    return (
        state.hands,
        state.to_move,
        state.pile,
        state.last_player,
        state.passed,
        state.opening_has_eight,
        state.phase,
        state.scores,
    )
