"""Impact: how often the choice of a reading changes anything in simulated play.

For a variation point and two readings A (played) and B (compared), seeded games are played by the
bots under A. At every step the same state is also put to an engine under B: does B allow another
set of legal moves, end the trick differently or give it to another player, end the round with
another result, deal differently or pass the turn to someone else? A game is *affected* when any
step differs. The share of affected games, with a 95% Wilson interval (estimate.py), is measured
per player count; the first difference of a game is written down as a witness (witnesses.py). Over
the first COMES_UP_GAMES matches every step is compared to the match's end, to count how often the
rule comes up: the steps per match at which B decides differently.

Everything here is a pure function of its arguments: `measure` covers one player count and one
range of game numbers, and the counts of disjoint ranges add up (`ImpactCounts.merge`), so a long
estimate can be split across processes. Game i is dealt and played exactly as game i of
`five35.engine.simulate` with the same base seed, so impact and variant statistics describe the
same games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ...engine import Game, MatchEnd, Move, RoundEnd, State, TrickEnd
from ...engine.bots import seat_bots, turning_seats
from ...engine.engines import Engine, make_engine
from ...engine.simulate import EndlessPlay, Step, _Tally, bot_rngs, game_seed, move_limit, round_limit
from ...engine.stats import Stats
from ...spec import Ruleset, SpecError
from ...spec.words import embedded_words
from ...spec.words_model import CheckWords
from ..findings import EngineFactory, Witness
from .witnesses import WORDS, RoundHistory, deal_witness, shrunk_witness, step_witness, undealable_witness

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
    # How often the rule comes up: over the first COMES_UP_GAMES played matches, the moves (and
    # deals) at which the compared reading decides differently, summed and summed as squares per
    # match (for an interval), the moves played, and those matches.
    comes_up: int = 0
    comes_up_sq: int = 0
    moves: int = 0
    comes_up_games: int = 0

    def comes_up_per_match(self) -> tuple[float, float, float, float, int] | None:
        """(mean, 95 % low, 95 % high, moves per match, matches counted) of the moves per match at
        which the two readings decide differently; None without games."""
        n = self.comes_up_games
        if not n:
            return None
        mean = self.comes_up / n
        var = max(0.0, self.comes_up_sq / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
        half = 1.959964 * (var / n) ** 0.5
        return (mean, max(0.0, mean - half), mean + half, self.moves / n, n)

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
            comes_up=self.comes_up + other.comes_up,
            comes_up_sq=self.comes_up_sq + other.comes_up_sq,
            moves=self.moves + other.moves,
            comes_up_games=self.comes_up_games + other.comes_up_games,
        )


@dataclass(frozen=True)
class Match:
    """One match's result: the seats with the lowest final score (more than one on a tie), the
    rounds played, and the highest final score minus the lowest."""

    game: int
    winners: tuple[int, ...]
    rounds: int
    spread: int

    @classmethod
    def ended(cls, game: int, rounds: int, scores: Sequence[int]) -> Match:
        """Match `game`, played for `rounds` rounds to the final `scores`."""
        best = min(scores)
        return cls(
            game, tuple(s for s, score in enumerate(scores) if score == best), rounds, max(scores) - best
        )


def final_scores(events: Sequence[object], scores: tuple[int, ...]) -> tuple[int, ...]:
    """The scores after a step's `events`: those of its RoundEnd or MatchEnd, else `scores`."""
    for event in events:
        if isinstance(event, (RoundEnd, MatchEnd)):
            scores = event.scores
    return scores


def outcome_key(events: Sequence[object]) -> tuple[Any, ...]:
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
class _Member:
    """One compared name's counts; several names comparing the same engine share one _Tracker."""

    name: str
    names: tuple[str, str]
    games: int = 0
    affected: int = 0
    first_change: dict[str, int] = field(default_factory=dict)
    witness: Witness | None = None
    witness_game: int = -1
    comes_up: int = 0
    comes_up_sq: int = 0
    moves: int = 0
    comes_up_games: int = 0

    def end_game(self, comes_up: int, moves: int) -> None:
        self.comes_up += comes_up
        self.comes_up_sq += comes_up * comes_up
        self.moves += moves
        self.comes_up_games += 1

    def counts(self) -> ImpactCounts:
        return ImpactCounts(
            self.games,
            self.affected,
            dict(self.first_change),
            self.witness,
            self.witness_game,
            self.comes_up,
            self.comes_up_sq,
            self.moves,
            self.comes_up_games,
        )


@dataclass
class _Tracker:
    """One compared engine while a game is played, and the names that compare it."""

    game: Engine
    members: list[_Member] = field(default_factory=list)
    diverged: bool = False
    comes_up: int = 0  # in the match being played: the steps at which this engine decides differently
    # Where this engine can differ from the played one (`_scope`): "options" (only where a pile's
    # options differ), "trick_end" (only at steps that end a trick or the round), "round_end", or
    # "" (anywhere: every step is compared).
    scope: str = ""
    # id(pile) -> (the pile, kept alive so that its id is not reused; whether both engines give it
    # the same options), for scope "options".
    same_options: dict[int, tuple[object, bool]] = field(default_factory=dict)
    # Both engines list legal moves as Game does (a pile's options the hand holds, and a pass when
    # there is a pile): where the pile's options agree, so do the legal moves of every hand.
    legal_by_options: bool = False

    def record(self, change: str, witness: Callable[[tuple[str, str]], Witness], index: int) -> None:
        """The game differs here: counted as the rule coming up; the first time in a match, every
        member counts the match as affected, with the witness told in its own labels (a witness's
        size does not depend on them, so every member keeps the same game)."""
        self.comes_up += 1
        if self.diverged:
            return
        self.diverged = True
        told: dict[tuple[str, str], Witness] = {}
        for m in self.members:
            w = told.get(m.names)
            if w is None:
                w = told[m.names] = witness(m.names)
            m.affected += 1
            m.first_change[change] = m.first_change.get(change, 0) + 1
            if m.witness is None or w.cards < m.witness.cards:
                m.witness, m.witness_game = w, index


# Where a Game subclass's own hooks are consulted (five35.engine.game): the option hooks only when a
# pile's options are built (their answers are cached with each option), `trick_winner` only when a
# trick ends, `penalty` only when a round ends. A compared engine that overrides nothing else, under
# the played rules, can only differ at such steps; the others need not be compared (exact: the
# tests compare both ways, tests/checks/impact/test_impact_sharing.py).
OPTION_HOOKS = frozenset(
    {"follows", "strength", "beats", "closing_size", "closes", "add_limit", "add_options"}
)
SCOPES: tuple[tuple[str, frozenset[str]], ...] = (
    ("round_end", frozenset({"penalty"})),
    ("trick_end", frozenset({"penalty", "trick_winner"})),
    ("options", OPTION_HOOKS),
)
SKIP_UNCHANGED = True  # False compares every step (the tests' reference)
# How often a rule comes up is counted over the first matches of each player count only: counting
# compares every step of a match after its first difference, which over every match would cost
# about as much as the rest of the impact measurement.
COMES_UP_GAMES = 50


def _overrides(cls: type) -> set[str] | None:
    """The methods `cls` defines over Game's, or None when it is no Game subclass."""
    if not issubclass(cls, Game):
        return None
    own: set[str] = set()
    for klass in cls.__mro__:
        if klass is Game:
            return own
        own.update(
            k
            for k, v in vars(klass).items()
            if callable(v) or isinstance(v, (property, staticmethod, classmethod))
        )
    return None


def _scope(base: Engine, game: Engine, played: Ruleset, compared: Ruleset) -> str:
    if not SKIP_UNCHANGED or type(base) is not Game or compared != played or not isinstance(game, Game):
        return ""
    own = _overrides(type(game))
    if own is None:
        return ""
    for scope, hooks in SCOPES:
        if own <= hooks:
            return scope
    return ""


# Engines built in this process, by (class, ruleset, players): an engine remembers every pile and
# legal-move table it has met, so a unit that reuses one skips that warm-up. Only Game classes are
# kept (their methods are pure functions of the ruleset, the table size and the state); bounded, so
# that a long campaign over many rulesets does not grow without end.
_ENGINES: dict[tuple[EngineFactory, Ruleset, int], Engine] = {}
_ENGINES_MAX = 256
# Per pair of cached engines (by id: both are kept alive in _ENGINES), the piles whose options they
# agree on (`_same_options`), so that a unit reuses what earlier units of the worker worked out.
_PAIRS: dict[tuple[int, int], dict[int, tuple[object, bool]]] = {}


def _pair_memo(base: Engine, game: Engine) -> dict[int, tuple[object, bool]]:
    cached = set(map(id, _ENGINES.values()))
    if id(base) not in cached or id(game) not in cached:
        return {}
    return _PAIRS.setdefault((id(base), id(game)), {})


def _lists_like_game(game: Engine) -> bool:
    return type(game).legal_moves is Game.legal_moves and getattr(type(game), "option", None) is Game.option


def _engine(factory: EngineFactory, ruleset: Ruleset, players: int) -> Engine:
    if not isinstance(factory, type):
        return factory(ruleset, players)
    key: tuple[EngineFactory, Ruleset, int] = (factory, ruleset, players)
    game = _ENGINES.get(key)
    if game is None:
        if len(_ENGINES) >= _ENGINES_MAX:
            _ENGINES.clear()
            _PAIRS.clear()
        # The reference stands for "whichever engine plays these rules": where it does not play
        # them (a house rule, another game), the spec interpreter does; nothing plays them as 535.
        made = make_engine(ruleset, players) if factory is Game else factory(ruleset, players)
        _ENGINES[key] = made
        return made
    return game


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
    say: CheckWords | None = None,
) -> dict[str, ImpactCounts]:
    """`_measure`; `say` words the witnesses (the embedded words file's when not given)."""
    words = say or embedded_words().check(WORDS)
    return _measure(played, compared, players, games, base_seed, bots, engine, progress, engines, None, words)


def measure_with_stats(
    played: Ruleset,
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    players: int,
    games: range,
    *,
    base_seed: int = 0,
    bots: Sequence[str] = DEFAULT_BOTS,
    say: CheckWords | None = None,
) -> tuple[dict[str, ImpactCounts], Stats, tuple[Match, ...]]:
    """`measure`, the statistics `five35.engine.simulate.simulate` gives for the same games of the
    played rules (match mode, the bots seated as here), and each of those matches' result as
    `five35.checks.impact.outcomes.play_outcomes` gives it: the played games are the same, so
    neither the variant comparison nor the outcomes of the played rules need play them again."""
    tally = _Tally(players)
    matches: list[Match] = []
    words = say or embedded_words().check(WORDS)
    counts = _measure(
        played, compared, players, games, base_seed, bots, Game, None, None, (tally, matches), words
    )
    return counts, tally.freeze("match", played.label(), tuple(bots), turning=True), tuple(matches)


def _measure(
    played: Ruleset,
    compared: Mapping[str, tuple[Ruleset, tuple[str, str]]],
    players: int,
    games: range,
    base_seed: int,
    bots: Sequence[str],
    engine: EngineFactory,
    progress: Callable[[int], None] | None,
    engines: Mapping[str, EngineFactory] | None,
    kept: tuple[_Tally, list[Match]] | None,
    say: CheckWords,
) -> dict[str, ImpactCounts]:
    """Play game i for every i in `games` under `played` and compare every step with each ruleset
    in `compared` (name -> (ruleset, (played reading, compared reading))).

    The bots take turns round the seats from one game to the next (`turning_seats`). `engines` may
    give a compared name its own engine class (default: `engine`). Returns the counts per compared
    name. A comparison stops for a game at its first difference. With `kept` (a tally and a list),
    every game is also counted into the tally as `simulate` counts it (its first round_limit rounds)
    and its result appended to the list.
    """
    base = _engine(engine, played, players)
    played.hand_size(players)  # a played ruleset that cannot deal is the caller's error
    trackers: list[_Tracker] = []
    unplayable: list[tuple[_Tracker, str]] = []
    # Names that compare the same engine under the same rules share one tracker: its steps are
    # asked once. A name comparing the played engine with itself cannot differ anywhere (the engine
    # is a pure function of the ruleset and the state), so it only counts its games.
    by_engine: dict[tuple[Ruleset, EngineFactory], _Tracker] = {}
    members: dict[str, _Member] = {}
    unchanged: list[_Member] = []
    for name, (rs, labels) in compared.items():
        factory = (engines or {}).get(name, engine)
        member = members[name] = _Member(name, labels)
        if rs == played and factory is engine and isinstance(factory, type):
            unchanged.append(member)
            continue
        tracker = by_engine.get((rs, factory))
        if tracker is None:
            try:
                rs.hand_size(players)
                game = _engine(factory, rs, players)
                # An engine's own deal hooks (hand_size, deck_copies) must fit its deck too: Board
                # Game Arena's two hands each at 2 players need twice the table's cards.
                game.new_match(base_seed)
                tracker = _Tracker(
                    game,
                    scope=_scope(base, game, played, rs),
                    same_options=_pair_memo(base, game),
                    legal_by_options=SKIP_UNCHANGED and _lists_like_game(base) and _lists_like_game(game),
                )
                trackers.append(tracker)
            except SpecError as exc:
                # The compared reading cannot even deal this table: every game differs at the deal.
                tracker = _Tracker(base)
                unplayable.append((tracker, str(exc)))
            by_engine[(rs, factory)] = tracker
        tracker.members.append(member)
    every = list(members.values())
    # Every tracker whose members count a game's difference: the compared engines and the readings
    # that cannot deal this table.
    counted_trackers = [*trackers, *(t for t, _ in unplayable)]
    limit = round_limit(played)
    for index in games:
        seed = game_seed(base_seed, index)
        rngs = bot_rngs(seed, players)
        seated = seat_bots(turning_seats(bots, players, index), players)
        for m in every:
            m.games += 1
        for t in counted_trackers:
            t.diverged = False
            t.comes_up = 0
        played_moves = 0
        counting = index < COMES_UP_GAMES
        state = base.new_match(seed)
        history = RoundHistory(state)
        for t, error in unplayable:
            t.record("deal", partial(undealable_witness, base, state, error=error, say=say), index)
        for t in trackers:
            other = t.game.new_match(seed)
            if other != state:
                t.record(
                    "deal", partial(deal_witness, base, t.game, state, other, first=True, say=say), index
                )
        steps: list[Step] | None = [] if kept is not None else None
        scores: tuple[int, ...] = (0,) * players
        rounds = 0
        most = move_limit(base)
        while True:
            moves = 0
            events: Sequence[object] = ()
            while state.phase == "play":
                moves += 1
                if moves > most:
                    raise EndlessPlay(f"game seed {seed}, round {rounds + 1}", most)
                legal = base.legal_moves(state)
                move = seated[state.to_move].choose(base, state, legal, rngs[state.to_move])
                new, events = base.apply(state, move)
                played_moves += 1
                _compare_step(
                    base, trackers, state, legal, move, (new, events), index, history, say, counting
                )
                history.plays.append((state.to_move, move))
                if steps is not None and rounds < limit:
                    steps.append(Step(state, move, events))
                state = new
            scores = final_scores(events, scores)
            rounds += 1
            # The tally, when kept, needs the match played to its end or to simulate's round limit,
            # and so does a match in which how often each rule comes up is counted.
            counted = steps is None and not counting
            if (
                state.phase == "match_over"
                or rounds >= limit
                or (counted and all(t.diverged for t in trackers))
            ):
                break
            nxt = base.next_round(state)
            for t in trackers:
                if t.diverged and not counting:
                    continue
                other = t.game.next_round(state)
                if other != nxt:
                    t.record(
                        "deal",
                        partial(deal_witness, base, t.game, nxt, other, first=False, previous=state, say=say),
                        index,
                    )
            state = nxt
            history = RoundHistory(state)
        if counting:
            for t in counted_trackers:
                for m in t.members:
                    m.end_game(t.comes_up, played_moves)
            for m in unchanged:
                m.end_game(0, played_moves)
        if kept is not None and steps is not None:
            kept[0].add_game(steps, "match")
            kept[1].append(Match.ended(index, rounds, scores))
        if progress is not None:
            progress(1)
    return {name: members[name].counts() for name in compared}


def _compare_step(
    base: Engine,
    trackers: Sequence[_Tracker],
    state: State,
    legal: tuple[Move, ...],
    move: Move,
    after: tuple[State, tuple[object, ...]],
    index: int,
    history: RoundHistory,
    say: CheckWords,
    counting: bool = False,
) -> None:
    """Compare one played step with every tracker's engine; a tracker whose match differed already
    is compared only while `counting` how often its rule comes up."""
    legal_a: set[Move] | None = None
    new, events = after
    key_a: tuple[Any, ...] | None = None  # the played side's outcome, worked out once per step
    ends: tuple[bool, bool] | None = None  # whether the step ends a trick, the round
    # The per-pile answers looked up inline: this loop runs for every tracker at every step played.
    pile_id = id(state.pile)
    for t in trackers:
        if t.diverged and not counting:
            continue
        if t.scope:
            if t.scope == "options":
                known = t.same_options.get(pile_id)
                if known[1] if known is not None else _same_options(base, t, state):
                    continue
            else:
                if ends is None:
                    ends = (
                        any(isinstance(e, TrickEnd) for e in events),
                        any(isinstance(e, RoundEnd) for e in events),
                    )
                if not (ends[1] or (t.scope == "trick_end" and ends[0])):
                    continue
        if t.legal_by_options and (
            known[1] if (known := t.same_options.get(pile_id)) is not None else _same_options(base, t, state)
        ):
            pass  # the same legal moves: on to the move's outcome
        elif (other_legal := t.game.legal_moves(state)) != legal:
            legal_a = legal_a if legal_a is not None else set(legal)
            lb = set(other_legal)
            if lb != legal_a:
                b_after = t.game.apply(state, move) if move in lb else None
                t.record(
                    "legal_moves",
                    partial(
                        _legal_witness,
                        base,
                        t.game,
                        state,
                        move,
                        (legal_a, lb),
                        (after, b_after),
                        history,
                        say,
                    ),
                    index,
                )
                continue
        other_new, other_events = t.game.apply(state, move)
        change = None
        if key_a is None:
            key_a = outcome_key(events)
        if outcome_key(other_events) != key_a:
            trick_a = [e for e in events if isinstance(e, TrickEnd)]
            trick_b = [e for e in other_events if isinstance(e, TrickEnd)]
            change = (
                "trick_end" if [e.winner for e in trick_a] != [e.winner for e in trick_b] else "round_result"
            )
        elif other_new != new:
            change = "next_turn"
        if change is not None:
            legal_set = set(legal)
            t.record(
                change,
                partial(
                    _step_witness,
                    base,
                    t.game,
                    state,
                    move,
                    (legal_set, legal_set),
                    (after, (other_new, other_events)),
                    change,
                    history,
                    say,
                ),
                index,
            )


def _same_options(base: Engine, t: _Tracker, state: State) -> bool:
    """Whether both engines give the state's pile the same options (moves, cards needed, the pile
    each makes, its 8s, whether it ends the trick): then they agree on every hand's legal moves
    and on every move's outcome there. Worked out once per pile, with a hand of the whole deck."""
    pile = state.pile
    known = t.same_options.get(id(pile))
    if known is not None:
        return known[1]
    hands = list(state.hands)
    hands[state.to_move] = base.full_deck
    probe = replace(state, hands=tuple(hands))
    moves = base.legal_moves(probe)
    same = set(moves) == set(t.game.legal_moves(probe)) and all(
        base.option(probe, m) == t.game.option(probe, m) for m in moves
    )
    t.same_options[id(pile)] = (pile, same)
    return same


def _legal_witness(
    base: Engine,
    game: Engine,
    state: State,
    move: Move,
    legal: tuple[set[Move], set[Move]],
    after: tuple[tuple[State, tuple[object, ...]], tuple[State, tuple[object, ...]] | None],
    history: RoundHistory,
    say: CheckWords,
    names: tuple[str, str],
) -> Witness:
    """The witness of a legal-move difference: the shrunk table where one exists, else the step."""
    return shrunk_witness(base, game, state, legal, names, history, say) or step_witness(
        base, game, state, move, legal, after, names, "legal_moves", history, say
    )


def _step_witness(
    base: Engine,
    game: Engine,
    state: State,
    move: Move,
    legal: tuple[set[Move], set[Move]],
    after: tuple[tuple[State, tuple[object, ...]], tuple[State, tuple[object, ...]] | None],
    change: str,
    history: RoundHistory,
    say: CheckWords,
    names: tuple[str, str],
) -> Witness:
    return step_witness(base, game, state, move, legal, after, names, change, history, say)
