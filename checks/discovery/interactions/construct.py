"""The plays built where rules meet that no small deal may reach: every lead, and every play onto
every central pile one or two plays leave, the mover going out with it or not, each reached by
legal play from a deal made for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ....engine import Game, Move, Pile, State
from ....spec import Ruleset, SpecError
from ....spec.model import Rule
from ...play.graphs import Deal
from .step import Step
from .verdicts import Search, _judge


def built_counts(level: str, ruleset: Ruleset) -> range:
    """The player counts whose plays are built: at quick the fewest, at ci 2 and 3 (as its deals),
    at deep every one."""
    high = {"quick": ruleset.players_min, "deep": ruleset.players_max}.get(level, min(3, ruleset.players_max))
    return range(ruleset.players_min, high + 1)


def _spare(game: Game, used: Sequence[int]) -> int | None:
    """A card the deck still holds after `used`, lowest rank first: what keeps a player in the round."""
    for rank in game.ruleset.ranks:
        if used.count(rank) < game.copies:
            return rank
    return None


def _routes(game: Game) -> dict[tuple[Pile, bool], tuple[Move, ...]]:
    """For every central pile one or two plays leave, with or without an 8 in the trick's opening
    pile: the shortest plays that leave it (a lead, or a lead and an overwrite or add that does not
    end the trick), the first in the engines' order of moves."""
    state = game.start_round([[r] for r in game.ruleset.ranks[: game.players]], 0)
    routes: dict[tuple[Pile, bool], tuple[Move, ...]] = {}
    leads = game.placing_moves(None)
    for lead in leads:
        opened = game.option(state, lead)
        if opened is None:
            continue
        eight = 8 in opened.pile.cards
        routes.setdefault((opened.pile, eight), (lead,))
    for lead in leads:
        opened = game.option(state, lead)
        if opened is None:
            continue
        on = replace(state, pile=opened.pile, opening_has_eight=8 in opened.pile.cards)
        for move in game.placing_moves(opened.pile):
            option = game.option(on, move)
            if option is not None and game.closes(option.pile, move.action) is None:
                routes.setdefault((option.pile, 8 in opened.pile.cards), (lead, move))
    return routes


def construct(
    out: Search, game: Game, rules: Mapping[str, Rule], at_once: Mapping[str, tuple[str, ...]]
) -> None:
    """Build and judge every play onto every central pile one or two plays leave (and every lead),
    the mover going out with it or not, by legal play from a deal made for it: the plays where
    rules meet that the small deals may never reach. Each seat holds what it places and one card
    more (the mover none more when it goes out with the play); the seats take turns in the rules'
    turn order from seat 0."""
    players = game.players
    scores = (game.ruleset.match_end_score - 1, *([0] * (players - 1)))
    out.built_players.add(players)
    # Every lead from the empty table first, then every pile by its shortest route.
    routes = sorted(_routes(game).items(), key=lambda item: (len(item[1]), [m.cards for m in item[1]]))
    openings: list[tuple[Pile | None, tuple[Move, ...]]] = [(None, ()), *((p, r) for (p, _), r in routes)]
    for pile, route in openings:
        for move in game.placing_moves(pile):
            for going_out in (False, True):
                built = _built(game, route, move, going_out, scores)
                if built is None:
                    continue
                deal, state = built
                option = game.option(state, move)
                if option is None:
                    continue
                after, events = game.apply(state, move)
                out.built += 1
                step = Step(game, state, move, option, after, events)
                _judge(out, step, deal, scores, route, rules, at_once)


def _built(
    game: Game, route: tuple[Move, ...], move: Move, going_out: bool, scores: tuple[int, ...]
) -> tuple[Deal, State] | None:
    """A deal in which seats 0, 1, ... play `route` and then `move`, and the state before `move`;
    None where the deck cannot hold the cards or the plays are not legal in turn."""
    players = game.players
    seats = [0]
    for _ in route:
        seats.append(game.next_seat(seats[-1]))
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, played in zip(seats, (*route, move), strict=True):
        hands[seat].extend(played.cards)
    used = [c for h in hands for c in h]
    for seat in range(players):
        if going_out and seat == seats[-1]:
            continue
        spare = _spare(game, used)
        if spare is None:
            return None
        hands[seat].append(spare)
        used.append(spare)
    deal = Deal("built", tuple(tuple(sorted(h)) for h in hands), 0)
    try:
        state = game.start_round([list(h) for h in deal.hands], 0, scores)
    except (ValueError, SpecError):
        return None
    # Each seat holds the cards it places, so a play is legal where it fits the pile (`apply`
    # refuses one that does not).
    for played in route:
        if game.option(state, played) is None:
            return None
        state, _ = game.apply(state, played)
        if state.phase != "play" or state.pile is None:
            return None
    if game.option(state, move) is None:
        return None
    return deal, state
