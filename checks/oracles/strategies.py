"""Hypothesis strategies for 535: readings, rulesets and profiles, hands, piles and reachable states.

Every strategy lists its "simplest" value first (the spec's default reading, the ruleset under
check, two players, short hands of low ranks), because Hypothesis shrinks towards the start of a
`sampled_from`/`one_of`: a shrunk failure then differs from the usual game only where it must.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import partial

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ...engine import Game, Pile, Position, State
from ...engine.engines import Engine
from ...spec import Ruleset, Spec


def reading_choices(spec: Spec) -> SearchStrategy[dict[str, str]]:
    """A reading for every variation point, the point's default first."""
    per_point: dict[str, SearchStrategy[str]] = {}
    for name, vp in spec.variation_points.items():
        ordered = [vp.default, *(r for r in vp.readings if r != vp.default)]
        per_point[name] = st.sampled_from(ordered)
    return st.fixed_dictionaries(per_point)


def profile_rulesets(spec: Spec) -> list[Ruleset]:
    """The ruleset of every playable profile, the default profile first."""
    playable = spec.playable_profiles
    names = [p for p in (spec.default_profile, *playable) if p in playable]
    names = list(dict.fromkeys(names))
    return [spec.ruleset(name) for name in names]


def rulesets(
    spec: Spec, base: Ruleset | None = None, *, profiles: bool = True, combinations: bool = True
) -> SearchStrategy[Ruleset]:
    """The ruleset under check (when given), every profile, and random reading combinations.

    Random combinations keep the base's profile, so they keep its parameters too.
    """
    options: list[SearchStrategy[Ruleset]] = []
    if base is not None:
        options.append(st.just(base))
    if profiles or base is None:
        options.append(st.sampled_from(profile_rulesets(spec)))
    if combinations:
        profile = base.profile if base is not None else None
        options.append(reading_choices(spec).map(partial(_resolve, spec, profile)))
    return st.one_of(options)


# Named functions rather than lambdas in map/filter/flatmap: Hypothesis describes a lambda by
# reading its source, which costs more than the draw itself when a state machine shrinks.
def _resolve(spec: Spec, profile: str | None, readings: dict[str, str]) -> Ruleset:
    return spec.ruleset(profile, readings)


def _sorted_hands(hs: list[list[int]]) -> list[list[int]]:
    return [sorted(h) for h in hs]


def _fits(copies: int, all_hands: list[list[int]]) -> bool:
    counts = Counter(card for hand in all_hands for card in hand)
    return all(n <= copies for n in counts.values())


def _can_deal(rs: Ruleset) -> bool:
    return bool(dealable_players(rs))


def dealable_players(ruleset: Ruleset) -> list[int]:
    """Player counts this ruleset can deal for (deal=table with 5 players and 4 copies cannot)."""
    return [n for n in range(ruleset.players_min, ruleset.players_max + 1) if ruleset.can_deal(n)]


def hands(
    ruleset: Ruleset, players: int, *, min_cards: int = 1, max_cards: int = 4
) -> SearchStrategy[list[list[int]]]:
    """One sorted hand per player, never more copies of a rank than the deck holds."""
    copies = ruleset.copies(players)
    one_hand = st.lists(st.sampled_from(ruleset.ranks), min_size=min_cards, max_size=max_cards)
    return (
        st.lists(one_hand, min_size=players, max_size=players)
        .filter(partial(_fits, copies))
        .map(_sorted_hands)
    )


@dataclass(frozen=True)
class Setup:
    """How a generated match starts: a full deal from `seed`, or a round set up from a `Position`
    (the one position type of five35: hands, leader, scores).

    A round from small hands is the usual shrunk witness; its scores then start near the match end
    so that round and match ends are reached in a few moves.
    """

    ruleset: Ruleset
    players: int
    seed: int
    position: Position | None = None

    @property
    def hands(self) -> tuple[tuple[int, ...], ...] | None:
        return self.position.hands if self.position else None

    @property
    def leader(self) -> int:
        return self.position.leader if self.position else 0

    @property
    def scores(self) -> tuple[int, ...] | None:
        return self.position.scores if self.position else None

    def start(self, game: Engine) -> State:
        if self.position is None:
            return game.new_match(self.seed)
        return game.play_from(self.position)

    def to_json(self) -> dict[str, object]:
        start: dict[str, object]
        if self.position is None:
            start = {"deal_seed": self.seed}
        else:
            start = {
                "hands": [list(h) for h in self.position.hands],
                "leader": self.position.leader,
                "scores": list(self.position.scores or ()),
                "seed": self.seed,
            }
        return {
            "profile": self.ruleset.profile,
            "readings": self.ruleset.readings,
            "players": self.players,
            "start": start,
        }


@st.composite
def small_round_setups(
    draw: st.DrawFn, ruleset: Ruleset, *, max_cards: int = 4, seed_bits: int = 16
) -> Setup:
    players = draw(st.sampled_from(dealable_players(ruleset)))
    dealt = draw(hands(ruleset, players, max_cards=max_cards))
    leader = draw(st.integers(0, players - 1))
    end = ruleset.match_end_score
    scores = draw(st.lists(st.integers(0, end - 1), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**seed_bits - 1))
    position = Position(tuple(tuple(h) for h in dealt), leader, tuple(scores), seed=seed)
    return Setup(ruleset, players, seed, position)


@st.composite
def deal_setups(draw: st.DrawFn, ruleset: Ruleset, *, seed_bits: int = 32) -> Setup:
    players = draw(st.sampled_from(dealable_players(ruleset)))
    return Setup(ruleset, players, draw(st.integers(0, 2**seed_bits - 1)))


def setups(
    spec: Spec, base: Ruleset, *, profiles: bool = True, combinations: bool = True, max_cards: int = 4
) -> SearchStrategy[Setup]:
    """A ruleset, a player count and a start: small hands first (they shrink best), then full deals."""
    chosen = rulesets(spec, base, profiles=profiles, combinations=combinations).filter(_can_deal)
    return chosen.flatmap(partial(_starts, max_cards))


def _starts(max_cards: int, rs: Ruleset) -> SearchStrategy[Setup]:
    return st.one_of(small_round_setups(rs, max_cards=max_cards), deal_setups(rs))


def piles(game: Game, *, max_adds: int = 2) -> SearchStrategy[Pile]:
    """Central piles as play makes them: a lead, then up to `max_adds` adds the engine allows."""
    leads = game.placeable_piles()

    @st.composite
    def grown(draw: st.DrawFn) -> Pile:
        pile = draw(st.sampled_from(leads))
        for _ in range(draw(st.integers(0, max_adds))):
            options = game.add_options(pile)
            if not options:
                break
            pile = draw(st.sampled_from(options))[1]
        return pile

    return grown()


def moves_from(game: Engine, state: State, picks: list[int]) -> tuple[State, list[str]]:
    """Play `picks` (indices into the legal moves, modulo their number) from `state`.

    Returns the state reached and the moves as replayable strings ("next_round" between rounds).
    """
    played: list[str] = []
    for pick in picks:
        if state.phase == "round_over":
            state = game.next_round(state)
            played.append("next_round")
            continue
        moves = game.legal_moves(state)
        if not moves:
            break
        move = moves[pick % len(moves)]
        state, _ = game.apply(state, move)
        played.append(str(move))
    return state, played


@st.composite
def reachable_states(draw: st.DrawFn, game: Engine, *, max_steps: int = 200) -> tuple[int, list[str], State]:
    """A state reached from a seeded deal by legal play: (deal seed, moves, state)."""
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(0, max_steps))
    play_seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(play_seed)
    state, played = moves_from(game, game.new_match(seed), [rng.randrange(1 << 16) for _ in range(steps)])
    return seed, played, state
