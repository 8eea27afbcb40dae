"""Impact: how often the choice of a reading changes anything in simulated play.

For a variation point and two readings A (played) and B (compared), seeded games are played by the
bots under A. At every step the same state is also put to an engine under B: does B allow another
set of legal moves, end the trick differently or give it to another player, end the round with
another result, deal differently or pass the turn to someone else? A game is *affected* when any
step differs. The share of affected games, with a 95% Wilson interval, is measured per player count.

Everything here is a pure function of its arguments: `measure` covers one player count and one
range of game numbers, and the counts of disjoint ranges add up (`ImpactCounts.merge`), so a long
estimate can be split across processes. Game i is dealt and played exactly as game i of
`five35.engine.simulate` with the same base seed, so impact and variant statistics describe the
same games.
"""

from __future__ import annotations

import multiprocessing
import re
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from five35.engine import Game, Move, Pile, RoundEnd, State, TrickEnd
from five35.engine.bots import Bot, get_bot
from five35.engine.simulate import bot_rngs, game_seed, wilson_interval
from five35.spec import Ruleset, Spec, SpecError

from .findings import Finding, Impact, Witness
from .variants import (
    AddClosesOnly,
    ExampleOrder,
    NoEightByAdd,
    NoExemptionAfterOpening,
    NoOverwriteOfFour,
    OnlyListedEights,
    PrintedPoints,
    RunsUncapped,
    SetsNeverClose,
    SetsUncapped,
    TrickTakenAway,
)

EngineFactory = Callable[[Ruleset, int], Game]

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


def _moves_text(moves: Sequence[Move]) -> list[str]:
    return [str(m) for m in sorted(moves, key=lambda m: (m.action, m.cards))]


def _pile_json(pile: Pile | None) -> dict[str, Any] | None:
    return pile.to_json() if pile else None


def _situation(game: Game, state: State) -> dict[str, Any]:
    cards = game.codec.cards
    return {
        "players": state.players,
        "to_move": state.to_move,
        "leading": state.leading,
        "hand": cards(state.hands[state.to_move]),
        "hands": [cards(h) for h in state.hands],
        "pile": _pile_json(state.pile),
        "opening_has_eight": state.opening_has_eight,
        "trick": [{"player": p.player, **p.move.to_json()} for p in state.trick],
        "passed": [p for p in range(state.players) if state.has_passed(p)],
        "round": state.round,
        "scores": list(state.scores),
    }


def _state_cards(game: Game, state: State) -> int:
    pile = state.pile.size if state.pile else 0
    return sum(game.codec.size(h) for h in state.hands) + pile


def _result(events: Sequence[object], state: State) -> dict[str, Any]:
    """What a move led to, in the terms a player notices: who won the trick, how the round ended,
    who moves next."""
    out: dict[str, Any] = {"trick_ends": False, "next_to_move": state.to_move, "pile": _pile_json(state.pile)}
    for event in events:
        if isinstance(event, TrickEnd):
            out["trick_ends"] = True
            out["trick_winner"] = event.winner
            out["trick_end_reasons"] = list(event.reasons)
        elif isinstance(event, RoundEnd):
            out["round_ends"] = True
            out["went_out"] = event.went_out
            out["penalties"] = list(event.penalties)
    return out


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


def _deal_outcome(game: Game, state: State) -> dict[str, Any]:
    return {
        "deck": game.codec.size(game.full_deck),
        "hand_size": game.codec.size(state.hands[0]),
        "leader": state.to_move,
        "copies": game.copies,
    }


def _deal_witness(a: Game, b: Game, sa: State, sb: State, names: tuple[str, str], first: bool) -> Witness:
    oa, ob = _deal_outcome(a, sa), _deal_outcome(b, sb)
    what = "the first deal" if first else f"the deal of round {sa.round}"
    diffs = [k for k in ("deck", "hand_size", "leader") if oa[k] != ob[k]]
    detail = ", ".join(f"{k.replace('_', ' ')} {oa[k]} against {ob[k]}" for k in diffs) or "the cards dealt"
    situation = {
        "players": sa.players,
        "round": sa.round,
        "to_move": sa.to_move,
        "leading": True,
        "pile": None,
        "scores": list(sa.scores),
    }
    return Witness(
        summary=f"{sa.players} players, {what}: {names[0]} and {names[1]} differ in {detail}.",
        situation=situation,
        outcomes={names[0]: oa, names[1]: ob},
        cards=min(oa["deck"], ob["deck"]),
    )


def _undealable_witness(a: Game, state: State, names: tuple[str, str], error: str) -> Witness:
    oa = _deal_outcome(a, state)
    return Witness(
        summary=f"{state.players} players: {names[1]} cannot deal this table ({error}).",
        situation={
            "players": state.players,
            "round": state.round,
            "to_move": state.to_move,
            "leading": True,
            "pile": None,
            "scores": list(state.scores),
        },
        outcomes={names[0]: oa, names[1]: {"error": error}},
        cards=oa["deck"],
    )


def _shrunk_witness(
    a: Game, b: Game, state: State, legal: tuple[set[Move], set[Move]], names: tuple[str, str]
) -> Witness | None:
    """The same table with the mover holding only the cards of one move the readings disagree on,
    when the readings still disagree there: the pile and those few cards are the whole witness."""
    la, lb = legal
    differing = sorted(la ^ lb, key=lambda m: (len(m.cards), m.action, m.cards))
    for move in differing:
        if not move.cards:
            continue
        hand = a.codec.pack(move.cards)
        small = replace(
            state, hands=tuple(hand if i == state.to_move else h for i, h in enumerate(state.hands))
        )
        sa, sb = set(a.legal_moves(small)), set(b.legal_moves(small))
        if sa == sb:
            continue
        situation = _situation(a, small)
        situation.pop("hands")  # the other hands play no part in what the mover may do
        only_a, only_b = (
            _moves_text([m for m in sa if m not in sb]),
            _moves_text([m for m in sb if m not in sa]),
        )
        parts = [f"only {n} allows {'; '.join(o)}" for n, o in ((names[0], only_a), (names[1], only_b)) if o]
        where = f"on the {state.pile}" if state.pile else "leading"
        return Witness(
            summary=f"{state.players} players, player {state.to_move} to move {where} holding "
            f"{','.join(map(str, move.cards))}: {' and '.join(parts)}.",
            situation=situation,
            outcomes={
                names[0]: {"legal_moves": _moves_text(list(sa)), "only_here": only_a},
                names[1]: {"legal_moves": _moves_text(list(sb)), "only_here": only_b},
            },
            cards=len(move.cards) + (state.pile.size if state.pile else 0),
        )
    return None


def _step_witness(
    a: Game,
    b: Game,
    state: State,
    move: Move,
    legal: tuple[set[Move], set[Move]],
    after: tuple[tuple[State, Sequence[object]], tuple[State, Sequence[object]] | None],
    names: tuple[str, str],
    change: str,
) -> Witness:
    la, lb = legal
    (sa, ea), b_after = after
    out_a: dict[str, Any] = {
        "legal_moves": len(la),
        "only_here": _moves_text([m for m in la if m not in lb]),
        "played": str(move),
        **_result(ea, sa),
    }
    out_b: dict[str, Any] = {"legal_moves": len(lb), "only_here": _moves_text([m for m in lb if m not in la])}
    if b_after is None:
        out_b["played"] = None
        out_b["note"] = f"'{move}' is not legal under {names[1]}"
    else:
        sb, eb = b_after
        out_b["played"] = str(move)
        out_b.update(_result(eb, sb))
    pile = f"on the {state.pile}" if state.pile else "leading"
    if change == "legal_moves":
        extra_a, extra_b = out_a["only_here"], out_b["only_here"]
        parts = []
        if extra_a:
            parts.append(f"only {names[0]} allows {'; '.join(extra_a[:3])}")
        if extra_b:
            parts.append(f"only {names[1]} allows {'; '.join(extra_b[:3])}")
        what = " and ".join(parts)
    elif change == "trick_end":
        what = (
            f"after '{move}' the trick ending differs ({names[0]}: {_trick_text(out_a)}; "
            f"{names[1]}: {_trick_text(out_b)})"
        )
    elif change == "round_result":
        what = f"after '{move}' the round's result differs"
    else:
        what = (
            f"after '{move}' player {out_a['next_to_move']} moves next under {names[0]}, "
            f"player {out_b.get('next_to_move')} under {names[1]}"
        )
    return Witness(
        summary=f"{state.players} players, player {state.to_move} to move {pile}: {what}.",
        situation=_situation(a, state),
        outcomes={names[0]: out_a, names[1]: out_b},
        cards=_state_cards(a, state),
    )


def _trick_text(out: Mapping[str, Any]) -> str:
    if not out.get("trick_ends"):
        return "the trick goes on"
    return f"player {out['trick_winner']} wins it ({', '.join(out['trick_end_reasons'])})"


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
        for t, error in unplayable:
            t.games += 1
            t.record("deal", _undealable_witness(base, state, t.names, error), index)
        for t in trackers:
            other = t.game.new_match(seed)
            if other != state:
                t.record("deal", _deal_witness(base, t.game, state, other, t.names, True), index)
        while True:
            while state.phase == "play":
                legal = base.legal_moves(state)
                move = seated[state.to_move].choose(base, state, legal, rngs[state.to_move])
                new, events = base.apply(state, move)
                _compare_step(base, trackers, state, legal, move, (new, events), index)
                state = new
            if state.phase == "match_over" or all(t.diverged for t in trackers):
                break
            nxt = base.next_round(state)
            for t in trackers:
                if not t.diverged:
                    other = t.game.next_round(state)
                    if other != nxt:
                        t.record("deal", _deal_witness(base, t.game, nxt, other, t.names, False), index)
            state = nxt
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
                w = _shrunk_witness(base, t.game, state, (legal_a, lb), t.names) or _step_witness(
                    base, t.game, state, move, (legal_a, lb), (after, b_after), t.names, "legal_moves"
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
            w = _step_witness(
                base,
                t.game,
                state,
                move,
                (legal_set, legal_set),
                (after, (other_new, other_events)),
                t.names,
                change,
            )
            t.record(change, w, index)


def player_counts(ruleset: Ruleset) -> tuple[int, ...]:
    return tuple(range(ruleset.players_min, ruleset.players_max + 1))


def comparison(
    spec: Spec, ruleset: Ruleset, point: str, other: str | None = None
) -> tuple[Ruleset, str, str]:
    """The ruleset that differs from `ruleset` only in `point` (read as `other`, or the point's
    first reading that is not the chosen one), with the played and compared reading names."""
    if point not in spec.variation_points:
        raise SpecError("impact", f"unknown variation point {point!r}")
    vp = spec.variation_points[point]
    chosen = ruleset.reading(point)
    if other is None:
        others = [r for r in vp.readings if r != chosen]
        if not others:
            raise SpecError("impact", f"{point} has no reading other than {chosen!r}")
        other = others[0]
    if other not in vp.readings:
        raise SpecError("impact", f"{point} has no reading {other!r}")
    readings = dict(ruleset.readings)
    readings[point] = other
    profile = spec.profiles[ruleset.profile]
    base = {p: c.reading for p, c in profile.readings.items()}
    overrides = {p: r for p, r in readings.items() if base.get(p) != r}
    return spec.ruleset(ruleset.profile, overrides), chosen, other


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
# wordings, two point tables, a clause kept or deleted). Each alternative below is an engine: the
# reference engine under the played rules, and a small subclass or another ruleset for the other
# alternative. Playing both over the same seeded games measures the finding's impact with the same
# machinery as a variation point; when a finding cannot change play the measurement comes out 0,
# it is never written down as 0.


@dataclass(frozen=True)
class Alternative:
    """The two alternatives a finding puts, as two engines over the same seeded games.

    `played` (under `played_engine`) is one alternative, `compared` (under `engine`) the other;
    `labels` name them and `readings` says each in plain words. `players` limits the player counts
    (empty: every count both can deal)."""

    finding: str
    labels: tuple[str, str]
    readings: Mapping[str, str]
    played: Ruleset
    compared: Ruleset
    engine: EngineFactory = Game
    played_engine: EngineFactory = Game
    players: tuple[int, ...] = ()
    method: str = ""


def _with_readings(spec: Spec, ruleset: Ruleset, readings: Mapping[str, str]) -> Ruleset:
    merged = {**ruleset.readings, **readings}
    profile = spec.profiles[ruleset.profile]
    base = {p: c.reading for p, c in profile.readings.items()}
    return spec.ruleset(ruleset.profile, {p: r for p, r in merged.items() if base.get(p) != r})


def named_readings(spec: Spec, text: str) -> dict[str, str]:
    """The `point=reading` pairs a finding id names (first one of a point wins)."""
    out: dict[str, str] = {}
    for part in re.findall(r"([a-z_0-9]+)=([a-z_0-9]+)", text):
        point, reading = part
        if point in spec.variation_points and reading in spec.variation_points[point].readings:
            out.setdefault(point, reading)
    return out


def _players_named(text: str) -> tuple[int, ...]:
    found = re.search(r"players-(\d+)", text)
    return (int(found.group(1)),) if found else ()


def _plain(spec: Spec, readings: Mapping[str, str]) -> str:
    return "; ".join(f"{p}={r}: {spec.variation_points[p].readings[r]}" for p, r in readings.items())


def finding_alternative(spec: Spec, ruleset: Ruleset, finding: Finding) -> Alternative | None:
    """The alternatives `finding` puts, as engines, for findings that are not one variation point
    (a finding of one point shares the point's impact)."""
    fid = finding.id
    label = ruleset.label()
    # A finding names its readings in its id, or (a proof) as the keys of its readings.
    named = named_readings(spec, fid) or named_readings(spec, " ".join(finding.readings))
    players = _players_named(fid)
    if fid.startswith("mismatch.trick.end.") and fid.endswith(".verb"):
        return Alternative(
            fid,
            ("German 'legt' (any placing closes)", "Spanish 'añade' (only an add closes)"),
            {
                "German 'legt' (any placing closes)": (
                    "The trick ends when the closing card is placed, by whatever action."
                ),
                "Spanish 'añade' (only an add closes)": (
                    "The trick ends only when the closing card is added (the action Añadir)."
                ),
            },
            ruleset,
            ruleset,
            engine=AddClosesOnly,
            method="the reference engine (any placing closes) against one where only an add closes",
        )
    if fid == "mismatch.eight.trigger.cleared":
        return Alternative(
            fid,
            ("German 'der Stich wird beendet'", "Spanish 'la baza se retira'"),
            {
                "German 'der Stich wird beendet'": (
                    "The trick ends; its winner is the player of the Rule of 8, who leads next."
                ),
                "Spanish 'la baza se retira'": (
                    "The trick's cards are taken away at once by the player who played the 8, who leads next."
                ),
            },
            ruleset,
            ruleset,
            engine=TrickTakenAway,
            method="the reference engine against one that clears the trick to the player of the 8",
        )
    if fid == "mismatch.round.scoring.printed":
        return Alternative(
            fid,
            ("German: count the points of the cards in hand", "Spanish: the points printed on the cards"),
            {
                "German: count the points of the cards in hand": (
                    "A hand scores the points of its ranks, counted rank by rank."
                ),
                "Spanish: the points printed on the cards": (
                    "A hand scores what is printed on its cards, card by card."
                ),
            },
            ruleset,
            ruleset,
            engine=PrintedPoints,
            method="the reference engine's scoring against scoring card by card",
        )
    if fid == "gap.parameter.points":
        flat = replace(ruleset, point_items=tuple((rank, 1) for rank, _ in ruleset.point_items))
        table = ", ".join(f"{r}:{p}" for r, p in ruleset.point_items)
        return Alternative(
            fid,
            ("the spec's point table", "one point per card"),
            {
                "the spec's point table": f"The spec's assumed values ({table}).",
                "one point per card": "Every card left in hand scores 1 point, whatever its rank.",
            },
            ruleset,
            flat,
            method="the spec's point table against one point per card",
        )
    if fid in ("defect.pile.single", "defect.pile.set", "defect.source.es.1") or (
        fid.startswith("defect.source.") and finding.clauses
    ):
        return Alternative(
            fid,
            ("as printed (example cut off)", "as repaired from the German"),
            {
                "as printed (example cut off)": (
                    "The Spanish example breaks off after its first pile; the order comes from the "
                    "rules around it, which the reference engine plays."
                ),
                "as repaired from the German": (
                    "The example restored: a higher number beats a lower one (1 < 7 < 14, 1,1,1 < 14,14,14)."
                ),
            },
            ruleset,
            ruleset,
            engine=ExampleOrder,
            method="the reference engine against one that orders singles and sets by the repaired example",
        )
    if fid.startswith("mismatch.only_one_text."):
        clause = fid.removeprefix("mismatch.only_one_text.")
        kept = {k: v for k, v in spec.clauses.items() if k != clause}
        without = _with_readings(replace(spec, clauses=kept), ruleset, {})
        return Alternative(
            fid,
            ("with the clause", "without the clause"),
            {
                "with the clause": f"The text that has clause {clause}.",
                "without the clause": f"The text that lacks clause {clause}.",
            },
            ruleset,
            without,
            method=f"the rules read from the spec with and without clause {clause}",
        )
    if fid.startswith("dead."):
        under = _with_readings(spec, ruleset, named)
        if players and not all(_dealable(under, n) for n in players) and "deal" in spec.variation_points:
            # Readings that cannot deal the table's cards by the hand-size table can still be
            # played by dealing the whole deck; the finding does not hinge on the deal.
            named = {**named, "deal": "deal_all"}
            under = _with_readings(spec, ruleset, named)
        engine: EngineFactory | None = None
        compared = under
        if fid.startswith("dead.add_past_closing.run"):
            engine = RunsUncapped
        elif fid.startswith("dead.add_past_closing.set"):
            engine = SetsUncapped
        elif fid.startswith("dead.trick.end.set"):
            engine = SetsNeverClose
        elif fid.startswith("dead.overwrite.size-4"):
            engine = NoOverwriteOfFour
        elif fid.startswith("dead.eight.trigger.added"):
            engine = NoEightByAdd
        elif fid.startswith("dead.eight.trigger.unlisted_run"):
            engine = OnlyListedEights
        elif fid.startswith("dead.eight.exemption.later_plays"):
            engine = NoExemptionAfterOpening
        if engine is None:
            return None
        where = f" under {', '.join(f'{p}={r}' for p, r in named.items())}" if named else ""
        return Alternative(
            fid,
            ("clause as written", "clause deleted"),
            {
                "clause as written": f"The rules as the spec has them{where}.",
                "clause deleted": f"The same rules without the clause the finding calls dead{where}.",
            },
            under,
            compared,
            engine=engine,
            players=players,
            method=f"the rules{where or ' as played'} with the clause and without it",
        )
    if finding.kind == "contradiction" and named and finding.variation_point is None:
        compared = _with_readings(spec, ruleset, named)
        combo = ", ".join(f"{p}={r}" for p, r in named.items())
        return Alternative(
            fid,
            (label, combo),
            {label: f"The rules as played ({label}).", combo: _plain(spec, named)},
            ruleset,
            compared,
            players=players,
            method=f"{label} against {combo}",
        )
    return None


def _alt_counts(
    alts: Sequence[Alternative], players: int, games: range, seed: int, bots: Sequence[str]
) -> dict[str, ImpactCounts]:
    """Alternatives sharing their played side are measured on one played game each."""
    groups: dict[tuple[Ruleset, EngineFactory], list[Alternative]] = {}
    for alt in alts:
        groups.setdefault((alt.played, alt.played_engine), []).append(alt)
    out: dict[str, ImpactCounts] = {}
    for (played, factory), members in groups.items():
        out.update(
            measure(
                played,
                {a.finding: (a.compared, a.labels) for a in members},
                players,
                games,
                base_seed=seed,
                bots=bots,
                engine=factory,
                engines={a.finding: a.engine for a in members},
            )
        )
    return out


def _dealable(ruleset: Ruleset, players: int) -> bool:
    try:
        ruleset.hand_size(players)
    except SpecError:
        return False
    return True


def alternative_units(
    alts: Sequence[Alternative], played: Ruleset, games: int, chunk: int = 50
) -> list[tuple[tuple[Alternative, ...], int, range]]:
    """The work as (alternatives, player count, game range) units: each a pure function of its
    arguments (`alternative_unit`), so the estimate splits across processes."""
    units = []
    for players in player_counts(played):
        here = tuple(
            a for a in alts if (not a.players or players in a.players) and _dealable(a.played, players)
        )
        if not here:
            continue
        for lo in range(0, games, chunk):
            units.append((here, players, range(lo, min(games, lo + chunk))))
    return units


def _ignore_interrupts() -> None:
    # Workers leave Ctrl-C to the main process, which stops them all at once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def alternative_unit(
    alts: tuple[Alternative, ...], players: int, games: range, seed: int, bots: tuple[str, ...]
) -> dict[str, ImpactCounts]:
    return _alt_counts(alts, players, games, seed, bots)


def estimate_alternatives(
    alts: Sequence[Alternative],
    played: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    jobs: int = 1,
) -> dict[str, tuple[Impact, dict[int, ImpactCounts]]]:
    """Every alternative's impact over games 0..games-1 of base seed `seed`, per player count.
    With jobs > 1 the units run in that many worker processes; the result is the same."""
    units = alternative_units(alts, played, games)
    args = [(a, p, r, seed, tuple(bots)) for a, p, r in units]
    if jobs > 1 and len(units) > 1:
        pool = multiprocessing.get_context().Pool(min(jobs, len(units)), initializer=_ignore_interrupts)
        try:
            results = pool.starmap(alternative_unit, args)
        except BaseException:
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
    else:
        results = [alternative_unit(*a) for a in args]
    per: dict[str, dict[int, ImpactCounts]] = {a.finding: {} for a in alts}
    for (_, players, _), result in zip(units, results, strict=True):
        for fid, counts in result.items():
            have = per[fid].get(players)
            per[fid][players] = have.merge(counts) if have else counts
    out = {}
    for alt in alts:
        method = describe_method(games, seed, bots, alt.labels[0], alt.labels[1])
        if alt.method:
            method = f"Compared: {alt.method}. {method}"
        out[alt.finding] = (to_impact(per[alt.finding], games, seed, method), per[alt.finding])
    return out


@dataclass(frozen=True)
class Scene:
    """A small table set up by hand: the hands, who leads, the plays made so far, and the moves
    whose outcome the two alternatives are asked about."""

    players: int
    hands: tuple[tuple[int, ...], ...]
    leader: int
    plays: tuple[Move, ...]
    then: tuple[Move, ...]
    describe: str
    show_deck: bool = False  # when the alternatives differ in the deck itself


def _m(action: str, *cards: int) -> Move:
    return Move(action, tuple(sorted(cards)))  # type: ignore[arg-type]


_SCORING = Scene(
    2,
    ((3,), (1, 8, 15)),
    0,
    (),
    (_m("lead", 3),),
    "Player 0 leads the last card of their hand and goes out; player 1 is left holding 1, 8 and 15.",
)
_SINGLE = Scene(
    2,
    ((2, 7), (1, 14)),
    0,
    (_m("lead", 7),),
    (_m("overwrite", 14), _m("overwrite", 1)),
    "Player 1, facing a single 7, holds 1 and 14 (the Spanish example '(1 < 7 < 14)').",
)
_SET = Scene(
    2,
    ((1, 1, 1, 2), (3, 14, 14, 14)),
    0,
    (_m("lead", 1, 1, 1),),
    (_m("overwrite", 14, 14, 14),),
    "Player 1, facing the set 1,1,1, holds 14,14,14 (the Spanish example '(1,1,1 < 14,14,14)').",
)

# The situation each finding is about, by id prefix (first match wins).
# Whether a set can close at its fifth card with 5 players: shown by a contradiction and a proof alike.
FIFTH_THREE = Scene(
    5,
    ((1, 3, 3, 3), (2, 3), (4,), (5,), (7,)),
    0,
    (_m("lead", 3, 3, 3),),
    (_m("add", 3),),
    "5 players: player 1 faces the set 3,3,3 holding a fourth 3; whether a fifth 3 exists to "
    "close the set depends on the deck.",
    show_deck=True,
)

SCENES: tuple[tuple[str, Scene], ...] = (
    (
        "mismatch.trick.end.set.verb",
        Scene(
            2,
            ((1, 3, 3, 3), (2, 3)),
            0,
            (_m("lead", 3, 3, 3),),
            (_m("add", 3),),
            "Player 0 has led the set 3,3,3 (a turn places at most 3 cards, so no lead or overwrite "
            "is ever a set of 4); player 1 holds the fourth 3.",
        ),
    ),
    (
        "mismatch.trick.end.run.verb",
        Scene(
            2,
            ((1, 2, 3, 9), (4, 5, 11)),
            0,
            (_m("lead", 1, 2, 3),),
            (_m("add", 4, 5),),
            "Player 0 has led the run 1,2,3 (a turn places at most 3 cards, so no lead or overwrite "
            "is ever a run of 5); player 1 holds 4 and 5.",
        ),
    ),
    (
        "mismatch.eight.trigger.cleared",
        Scene(
            2,
            ((5, 9, 12), (8, 13)),
            0,
            (_m("lead", 5),),
            (_m("overwrite", 8),),
            "Player 0 has led a single 5; player 1 overwrites it with an 8 (the Rule of 8).",
        ),
    ),
    ("mismatch.round.scoring.printed", _SCORING),
    ("gap.parameter.points", _SCORING),
    ("defect.pile.single", _SINGLE),
    ("defect.pile.set", _SET),
    ("defect.source.", _SINGLE),
    (
        "mismatch.only_one_text.",
        Scene(
            2,
            ((1, 2), (3, 4)),
            0,
            (),
            (_m("lead", 1),),
            "The first lead of a round, with and without the clause.",
        ),
    ),
    (
        "dead.overwrite.size-4",
        Scene(
            2,
            ((1, 2, 3, 4, 9, 11, 12, 13), (7, 14)),
            0,
            (_m("lead", 11, 12, 13), _m("add", 14)),
            (_m("overwrite", 1, 2, 3, 4),),
            "The closest situation: player 0 faces the run 11,12,13,14 holding 1,2,3,4, the only cards "
            "that could overwrite it, but that is 4 cards in one turn.",
        ),
    ),
    (
        "dead.add_past_closing.set.players-5",
        Scene(
            5,
            ((1, 3, 3, 3), (2, 3), (4,), (5,), (7,)),
            0,
            (_m("lead", 3, 3, 3),),
            (_m("add", 3),),
            "The closest situation: player 1 faces the set 3,3,3 holding another 3; the set closes at "
            "its fifth card, and the deck holds no card to add past it.",
            show_deck=True,
        ),
    ),
    (
        "dead.eight.trigger.added",
        Scene(
            2,
            ((7, 11), (8, 12)),
            0,
            (_m("lead", 7),),
            (_m("add", 8),),
            "The closest situation: player 1 adds an 8 to the single 7, making the run 7,8.",
        ),
    ),
    (
        "dead.eight.trigger.unlisted_run",
        Scene(
            2,
            ((1, 11, 12), (8, 9, 13)),
            0,
            (_m("lead", 11, 12),),
            (_m("overwrite", 8, 9),),
            "The closest situation: player 1 overwrites the run 11,12 with 8,9, a run with an 8 that "
            "the list does not name.",
        ),
    ),
    (
        "dead.eight.exemption.later_plays",
        Scene(
            2,
            ((1, 8, 9), (7, 8, 13)),
            0,
            (_m("lead", 8, 9),),
            (_m("overwrite", 7, 8),),
            "The closest situation: the trick opened with 8,9, and player 1 now places a second 8 "
            "by overwriting with 7,8.",
        ),
    ),
    (
        "dead.add_past_closing.set.players-6",
        Scene(
            6,
            ((1, 3, 3, 3), (2, 3, 3), (4,), (5,), (7,), (9,)),
            0,
            (_m("lead", 3, 3, 3),),
            (_m("add", 3, 3), _m("add", 3)),
            "The closest situation: player 1 faces the set 3,3,3 holding the last two 3s of the "
            "deck; the set closes at 5 cards and no sixth 3 exists.",
        ),
    ),
    (
        "dead.add_past_closing.set",
        Scene(
            2,
            ((1, 3, 3, 3), (2, 3)),
            0,
            (_m("lead", 3, 3, 3),),
            (_m("add", 3),),
            "The closest situation: player 1 faces the set 3,3,3 holding the last 3 of the deck; "
            "no card is left to add past it.",
        ),
    ),
    (
        "dead.add_past_closing.run",
        Scene(
            2,
            ((1, 2, 3, 9), (4, 5, 7)),
            0,
            (_m("lead", 1, 2, 3),),
            (_m("add", 4, 5), _m("add", 4)),
            "The closest situation: player 1 faces the run 1,2,3 holding 4, 5 and 7; 5 ends the "
            "run's stretch of numbers, so nothing can be added past its fifth card.",
        ),
    ),
    (
        "text.trick.end.set.reachable",
        FIFTH_THREE,
    ),
    (
        "proof.reach.set_close",
        FIFTH_THREE,
    ),
    (
        "dead.trick.end.set",
        Scene(
            5,
            ((1, 3, 3, 3), (2, 3), (4,), (5,), (7,)),
            0,
            (_m("lead", 3, 3, 3),),
            (_m("add", 3),),
            "The closest situation: player 1 faces the set 3,3,3 holding the fourth and last 3; the "
            "set would close only at its fifth card.",
        ),
    ),
)


def _side(game: Game, state: State, then: Sequence[Move], deck: bool = False) -> dict[str, Any]:
    legal = game.legal_moves(state)
    out: dict[str, Any] = {"legal_moves": _moves_text(legal)}
    if deck:
        out["copies_of_each_card"] = game.copies
        out["set_closes_at"] = game.closing_size("set")
    for move in then:
        if move in legal:
            after, events = game.apply(state, move)
            out[f"after {move}"] = _result(events, after)
        else:
            out[f"after {move}"] = "not allowed"
    return out


def alternative_witness(alt: Alternative, engine: EngineFactory | None = None) -> Witness | None:
    """The finding's table situation played under both alternatives (the played side by `engine`,
    the engine under check, when given): the legal moves, and what each asked-about move leads to."""
    scene = next((sc for prefix, sc in SCENES if alt.finding.startswith(prefix)), None)
    if scene is None:
        return None
    played = (engine or alt.played_engine)(alt.played, scene.players)
    compared = alt.engine(alt.compared, scene.players)
    state = played.start_round([list(h) for h in scene.hands], scene.leader)
    for move in scene.plays:
        state, _ = played.apply(state, move)
    a = _side(played, state, scene.then, scene.show_deck)
    b = _side(compared, state, scene.then, scene.show_deck)
    if a == b:
        verdict = (
            "Both alternatives allow the same moves, and every move asked about leads to the same result."
        )
    else:
        differ = [k for k in a if a[k] != b.get(k)]
        verdict = "The alternatives differ in: " + ", ".join(k.replace("_", " ") for k in differ) + "."
    situation = _situation(played, state)
    return Witness(
        summary=f"{scene.describe} {verdict}",
        situation=situation,
        outcomes={alt.labels[0]: a, alt.labels[1]: b},
        cards=_state_cards(played, state),
    )
