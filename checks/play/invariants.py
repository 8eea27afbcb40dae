"""Invariants of 535 play, checked at every state and every step of whole matches.

Two layers:

- `SpecRules` states the rules from the Ruleset alone (readings and parameters, never the engine's
  hooks), so an engine whose hook is wrong is measured against something independent of it.
  What each reading means it asks the Z3 model's reading hooks (five35.checks.z3model), the one
  place the checks state readings: a reading added there is known here too, a reading without a
  hook is refused (`UnimplementedReading`) instead of played like another. The engine's hooks are
  not an option (the invariants would check the engine against itself), and a second table of
  meanings here could drift from the model's; the model is compiled from the spec's data and
  checked against the texts (text_examples), the proofs and the engine (conformance). SpecRules
  keeps its own statement of what piles, adds and trick endings are; only readings come from there.
- `state_violations` / `step_violations` check one state or one move against the invariants below
  (OpenSpiel's generic game checks plus 535's own). The Hypothesis state machine (`MatchMachine`)
  and the exhaustive endgame graphs (five35.checks.graphs) both call them.

Invariants (ids as they appear in failures):
  moves.mover_only     only the player to move has moves: the mover is a seat in the trick, the
                       moves take only the mover's cards, and a finished round has no moves
  moves.nonempty       a state that is not over has at least one legal move
  moves.allowed        every legal move is a lead, overwrite, add or pass that the spec allows
  leader.no_pass       the leader never passes
  cards.accounted      hands + current trick + cleared tricks + set aside = the full deck
  pile.valid           the central pile is a single, set or run under the readings
  pile.caps            sets and runs never pass their closing size (add_past_closing=capped)
  pile.result          the pile after a lead, overwrite or add is the one the spec makes
  trick.end            a trick ends exactly when the spec's endings say, with those reasons
  trick.winner         the trick winner is the last player who placed cards
  turn.next            the next player is the next seat in turn order still in the trick
  round.end            the round ends exactly when a player places their last card
  round.penalties      penalties equal the points left in hand, and add to the scores
  match.end            the match ends at match_end_score or more; the winners have the fewest points
  state.roundtrip      to_json -> JSON text -> from_json gives the same state; so does a copy
  game.deterministic   the same seed deals the same game, and replaying the moves reaches the same
                       state
  engine.raised        the engine raised while listing or applying a legal move
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from five35.engine import CardCodec, Game, Move, Pile, State, TrickEndReason
from five35.engine.state import Event, MatchEnd, RoundEnd, TrickEnd
from five35.spec import Ruleset, Spec
from five35.spec.vocabulary import Vocabulary
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.reporting import with_reporter
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from hypothesis.strategies import SearchStrategy

from .findings import CheckContext, CheckResult, EngineFactory, Failure, Level, Witness
from .hypothesis_env import hypothesis_settings, private_hypothesis_home
from .strategies import Setup, parse_move, setups
from .vocab import ComponentVocabulary, table_vocabulary
from .z3model import EIGHT, KIND_CODES, LISTED_EIGHT_RUNS, NOT_MODELLED, READING_HOOKS, Model


def rules_vocabulary(vocabulary: Vocabulary) -> ComponentVocabulary:
    """What SpecRules implements (the Z3 model's hooks, whose meanings it asks), checked against an
    engine's vocabulary."""
    return table_vocabulary("the invariants' rules model", READING_HOOKS, vocabulary, NOT_MODELLED)


RULES_VOCABULARY = rules_vocabulary(Game.VOCABULARY)


# ---- the rules as the spec states them ----------------------------------------------------------


class SpecRules:
    """The rules of one Ruleset and player count: its parameters, and its readings' meanings as the
    Z3 model's reading hooks state them. Raises UnimplementedReading for a reading without one."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        RULES_VOCABULARY.require_ruleset(ruleset)
        self.ruleset = ruleset
        self.players = players
        self.ranks = ruleset.ranks
        self._index = {rank: i for i, rank in enumerate(ruleset.ranks)}
        self.model = model = Model.concrete(ruleset)
        self.add_to_single = bool(model.to_single)
        self.top_end_only = not model.either_end
        self.capped = bool(model.capped)
        self.adds_trigger = bool(model.adds_trigger)
        self.copies: int = model.copies(players)
        self.set_close: int = model.set_close(players)
        self.run_close = ruleset.run_closing_size
        self.max_cards = ruleset.max_cards_per_turn
        self.points = ruleset.points
        self.deck = Counter({rank: self.copies for rank in self.ranks})
        self._judged: dict[tuple[Pile | None, Move], tuple[Pile | None, str | None]] = {}
        self._packed: dict[tuple[int, ...], int] = {}
        self._packed_deck: int | None = None

    def follows(self, a: int, b: int) -> bool:
        """Rank b continues a run after rank a (run_gaps, run_wrap)."""
        i, j = self._index.get(a), self._index.get(b)
        if i is None or j is None:
            return False
        return bool(self.model.follows(i, j))

    def as_pile(self, cards: tuple[int, ...] | list[int]) -> Pile | None:
        """The pile these cards make (runs put in succession order), or None."""
        cards = tuple(cards)
        if len(cards) == 1:
            return Pile("single", cards)
        if len(set(cards)) == 1 and len(cards) >= self.ruleset.min_set_size:
            return Pile("set", cards)
        if len(cards) >= self.ruleset.min_run_size and len(set(cards)) == len(cards):
            successor = {a: b for a in cards for b in cards if a != b and self.follows(a, b)}
            starts = [c for c in cards if c not in successor.values()]
            if len(starts) == 1:
                run = [starts[0]]
                while run[-1] in successor and len(run) < len(cards):
                    run.append(successor[run[-1]])
                if len(run) == len(cards):
                    return Pile("run", tuple(run))
        return None

    def strength(self, rank: int) -> int:
        """How strong a single or set of this rank is (eight_rank)."""
        strength: int = self.model.strength(self._index[rank])
        return strength

    def beats(self, new: Pile, old: Pile) -> bool:
        """`new` overwrites `old`: same kind and size, and stronger (run_order for runs)."""
        if new.kind != old.kind or new.size != old.size:
            return False
        a, b = self._index[new.cards[0]], self._index[old.cards[0]]
        return bool(self.model.beats(KIND_CODES[new.kind], a, b))

    def closing(self, kind: str) -> int | None:
        return {"set": self.set_close, "run": self.run_close}.get(kind)

    def rule_of_8(self, action: str, added: tuple[int, ...], new: Pile, opening_has_eight: bool) -> bool:
        """Placing `added` to make `new` is the Rule of 8 (eight_forms, eight_on_add, eight_exemption)."""
        if action == "lead" or EIGHT not in added:
            return False
        if self.model.says("eight_exemption", opening_has_eight):
            return False
        if action == "add" and not self.adds_trigger:
            return False

        def listed() -> bool:
            if new.kind in ("single", "set"):
                return new.cards[0] == EIGHT
            return new.cards in LISTED_EIGHT_RUNS

        return bool(self.model.says("eight_forms", listed))

    def judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        """The pile `move` makes on `pile`, or why the spec does not allow it (holding aside)."""
        key = (pile, move)
        if key not in self._judged:
            self._judged[key] = self._judge(pile, move)
        return self._judged[key]

    def _judge(self, pile: Pile | None, move: Move) -> tuple[Pile | None, str | None]:
        if move.action == "pass":
            return None, "the leader may not pass" if pile is None else None
        n = len(move.cards)
        if not 1 <= n <= self.max_cards:
            return None, f"places {n} cards; a turn places 1 to {self.max_cards}"
        if move.action == "lead":
            if pile is not None:
                return None, "a lead while a pile is on the table"
            new = self.as_pile(move.cards)
            return (new, None) if new else (None, f"{move.cards} is not a single, set or run")
        if pile is None:
            return None, f"an {move.action} with no central pile (the mover leads)"
        if move.action == "overwrite":
            new = self.as_pile(move.cards)
            if new is None:
                return None, f"{move.cards} is not a single, set or run"
            if not self.beats(new, pile):
                return None, f"{new} does not beat {pile}"
            return new, None
        if pile.kind == "single" and not self.add_to_single:
            return None, "adds to a single (add_to_single=not_allowed)"
        new = self.as_pile(pile.cards + move.cards)
        if new is None or new.kind == "single":
            return None, f"{pile} plus {move.cards} is not one set or run"
        if new.kind == "run":
            start = new.cards.index(pile.cards[0])
            if new.cards[start : start + pile.size] != pile.cards:
                return None, f"{pile} is not kept in order inside {new}"
            if self.top_end_only and start != 0:
                return None, f"adds below {pile} (add_run_ends=top_end)"
        closing = self.closing(new.kind)
        if self.capped and closing is not None and new.size > closing:
            return None, f"{new} passes the closing size {closing} (add_past_closing=capped)"
        return new, None

    def packed_deck(self, codec: CardCodec) -> int:
        if self._packed_deck is None:
            self._packed_deck = codec.pack(self.deck.elements())
        return self._packed_deck

    def packed(self, codec: CardCodec, cards: tuple[int, ...]) -> int:
        found = self._packed.get(cards)
        if found is None:
            found = self._packed[cards] = codec.pack(cards)
        return found

    def penalty(self, cards: list[int]) -> int:
        return sum(self.points[c] for c in cards)

    def next_seat(self, seat: int, passed: int) -> int:
        """The next seat after `seat` in turn order that has not passed (turn_order)."""
        nxt = self.model.next_seat(seat, self.players)
        while passed >> nxt & 1:
            nxt = self.model.next_seat(nxt, self.players)
        return nxt


# ---- violations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    invariant: str
    message: str
    expected: Any = None
    actual: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"invariant": self.invariant, "expected": self.expected, "actual": self.actual}


def situation(game: Game, state: State) -> dict[str, Any]:
    """A state as witness data (see Witness.situation)."""
    cards = game.codec.cards
    return {
        "players": state.players,
        "to_move": state.to_move,
        "leading": state.leading,
        "hand": cards(state.hands[state.to_move]) if 0 <= state.to_move < state.players else [],
        "hands": [cards(h) for h in state.hands],
        "pile": state.pile.to_json() if state.pile else None,
        "opening_has_eight": state.opening_has_eight,
        "trick": [{"player": p.player, **p.move.to_json()} for p in state.trick],
        "passed": [p for p in range(state.players) if state.has_passed(p)],
        "scores": list(state.scores),
        "phase": state.phase,
    }


def state_cards(game: Game, state: State) -> int:
    """The witness size of a state: the cards in hands and on the central pile."""
    in_hands = sum(len(game.codec.cards(h)) for h in state.hands)
    return in_hands + (state.pile.size if state.pile else 0)


def _trick_cards(state: State) -> list[int]:
    return [c for play in state.trick for c in play.move.cards]


def state_violations(
    game: Game, rules: SpecRules, state: State, *, roundtrip: bool = True
) -> list[Violation]:
    """Every invariant of a single state."""
    out: list[Violation] = []
    codec = game.codec
    # Packed counts add field by field, so one sum compares every rank at once; the card lists
    # are only unpacked to explain a difference.
    packed = sum(state.hands) + codec.pack(_trick_cards(state)) + state.cleared + state.aside
    if packed != rules.packed_deck(codec):
        cards = codec.cards
        held = Counter(c for h in state.hands for c in cards(h))
        total = (
            held + Counter(_trick_cards(state)) + Counter(cards(state.cleared)) + Counter(cards(state.aside))
        )
        diff = {str(r): total[r] - rules.deck[r] for r in rules.ranks if total[r] != rules.deck[r]}
        out.append(Violation("cards.accounted", f"cards do not add up to the deck: {diff}", 0, diff))
    if state.pile is not None:
        made = rules.as_pile(sorted(state.pile.cards))
        if made is None or made.kind != state.pile.kind:
            out.append(
                Violation(
                    "pile.valid",
                    f"the pile {state.pile} is not a valid {state.pile.kind}",
                    None,
                    str(state.pile),
                )
            )
        closing = rules.closing(state.pile.kind)
        if rules.capped and closing is not None and state.pile.size > closing:
            out.append(
                Violation(
                    "pile.caps",
                    f"the pile {state.pile} is past its closing size {closing}",
                    closing,
                    state.pile.size,
                )
            )
    try:
        moves = game.legal_moves(state)
    except Exception as exc:  # the engine under check may be broken in any way
        return [*out, Violation("engine.raised", f"legal_moves raised {type(exc).__name__}: {exc}")]
    if state.phase != "play":
        if moves:
            out.append(
                Violation(
                    "moves.mover_only",
                    f"the round is over but there are moves: {moves[0]}",
                    [],
                    [str(m) for m in moves],
                )
            )
    else:
        out.extend(_play_state_violations(game, rules, state, moves))
        if max(state.scores) >= rules.ruleset.match_end_score:
            out.append(
                Violation(
                    "match.end",
                    f"play goes on with scores {list(state.scores)}",
                    f"< {rules.ruleset.match_end_score}",
                    list(state.scores),
                )
            )
    if roundtrip:
        out.extend(_roundtrip_violations(game, state))
    return out


def _play_state_violations(
    game: Game, rules: SpecRules, state: State, moves: tuple[Move, ...]
) -> list[Violation]:
    out: list[Violation] = []
    mover = state.to_move
    if not 0 <= mover < state.players or state.has_passed(mover):
        out.append(
            Violation(
                "moves.mover_only",
                f"player {mover} is to move but is not in the trick",
                "a seat still in the trick",
                mover,
            )
        )
        return out
    if not moves:
        out.append(Violation("moves.nonempty", "the round is not over but there is no legal move", ">= 1", 0))
    hand = state.hands[mover]
    for move in moves:
        if move.action == "pass":
            if state.leading:
                out.append(
                    Violation("leader.no_pass", f"the leader (player {mover}) may pass", "no pass", "pass")
                )
            continue
        if not game.codec.holds(hand, rules.packed(game.codec, move.cards)):
            out.append(
                Violation(
                    "moves.mover_only",
                    f"'{move}' uses cards player {mover} does not hold",
                    game.codec.cards(hand),
                    list(move.cards),
                )
            )
            continue
        _, why = rules.judge(state.pile, move)
        if why is not None:
            out.append(
                Violation(
                    "moves.allowed", f"'{move}' is legal in the engine, but {why}", "not legal", str(move)
                )
            )
    return out


def _roundtrip_violations(game: Game, state: State, *, deep: bool = False) -> list[Violation]:
    out: list[Violation] = []
    try:
        restored = game.from_json(json.loads(json.dumps(game.to_json(state))))
    except Exception as exc:
        return [Violation("state.roundtrip", f"serialising and restoring raised {type(exc).__name__}: {exc}")]
    if restored != state:
        out.append(Violation("state.roundtrip", "a serialised-and-restored state differs from the original"))
    # A deep copy costs more than the rest of a step's checks together; the machine makes one at
    # every round end (see MatchMachine._check_replay).
    if copy.copy(state) != state or (deep and copy.deepcopy(state) != state):
        out.append(Violation("state.roundtrip", "a copy of the state differs from the original"))
    return out


def step_violations(
    game: Game, rules: SpecRules, before: State, move: Move, after: State, events: tuple[Event, ...]
) -> list[Violation]:
    """Every invariant of one move: what the spec says it must do against what the engine did."""
    out: list[Violation] = []
    mover = before.to_move
    trick_ends = [e for e in events if isinstance(e, TrickEnd)]
    round_ends = [e for e in events if isinstance(e, RoundEnd)]
    match_ends = [e for e in events if isinstance(e, MatchEnd)]
    if move.action == "pass" and before.leading:
        out.append(Violation("leader.no_pass", f"the leader (player {mover}) passed", "no pass", "pass"))
        return out
    new_pile, why = rules.judge(before.pile, move)
    if why is not None:
        out.append(Violation("moves.allowed", f"'{move}' was applied, but {why}", "not legal", str(move)))
        return out
    hand_after = game.codec.cards(after.hands[mover])
    expected: list[TrickEndReason] = []
    if move.action == "pass":
        passed = before.passed | (1 << mover)
        if before.players - passed.bit_count() == 1:
            expected.append(TrickEndReason.ALL_PASSED)
        placers = [p.player for p in before.trick if p.move.action != "pass"]
        last_placer = placers[-1] if placers else -1
    else:
        assert new_pile is not None
        opening = before.opening_has_eight if before.pile is not None else EIGHT in move.cards
        if rules.rule_of_8(move.action, move.cards, new_pile, opening):
            expected.append(TrickEndReason.RULE_OF_8)
        closing = rules.closing(new_pile.kind)
        if closing is not None and new_pile.size >= closing:
            expected.append(
                TrickEndReason.SET_CLOSED if new_pile.kind == "set" else TrickEndReason.RUN_CLOSED
            )
        last_placer = mover
        if after.pile != new_pile and not (trick_ends and not round_ends):
            out.append(
                Violation(
                    "pile.result",
                    f"'{move}' on {before.pile or 'no pile'} made {after.pile}",
                    str(new_pile),
                    str(after.pile),
                )
            )
    went_out = move.action != "pass" and not hand_after
    # Plain names on both sides: the violation's values are shown with repr() in the text output.
    got = sorted(str(r) for e in trick_ends for r in e.reasons)
    want = sorted(str(r) for r in expected)
    if want != got:
        message = _ending_message(move, before, [str(r) for r in expected], got)
        out.append(Violation("trick.end", message, want, got))
    for e in trick_ends:
        if e.winner != last_placer:
            out.append(
                Violation(
                    "trick.winner",
                    f"player {e.winner} won the trick, but player {last_placer} placed cards last",
                    last_placer,
                    e.winner,
                )
            )
    out.extend(_round_violations(game, rules, before, move, after, round_ends, match_ends, went_out))
    if not round_ends and after.phase == "play":
        if expected:
            if after.to_move != last_placer or after.pile is not None or after.passed:
                out.append(
                    Violation(
                        "turn.next",
                        f"after the trick ended, player {after.to_move} leads",
                        last_placer,
                        after.to_move,
                    )
                )
        else:
            passed = before.passed | (1 << mover) if move.action == "pass" else before.passed
            nxt = rules.next_seat(mover, passed)
            if after.to_move != nxt:
                out.append(
                    Violation(
                        "turn.next",
                        f"after player {mover}'s '{move}', player {after.to_move} "
                        f"moves; the next seat still in the trick is {nxt}",
                        nxt,
                        after.to_move,
                    )
                )
    return out


def _ending_message(move: Move, before: State, expected: list[str], got: list[str]) -> str:
    where = f"'{move}' on {before.pile or 'no pile'}"
    if not got:
        return f"{where} should end the trick ({', '.join(expected)}), but play went on"
    if not expected:
        return f"{where} ended the trick ({', '.join(got)}), but no trick ending applies"
    return f"{where} ended the trick for {', '.join(got)}, the spec says {', '.join(expected)}"


def _round_violations(
    game: Game,
    rules: SpecRules,
    before: State,
    move: Move,
    after: State,
    round_ends: list[RoundEnd],
    match_ends: list[MatchEnd],
    went_out: bool,
) -> list[Violation]:
    out: list[Violation] = []
    if went_out != bool(round_ends):
        out.append(
            Violation(
                "round.end",
                f"player {before.to_move} has {'no' if went_out else 'some'} cards "
                f"left, but the round {'went on' if went_out else 'ended'}",
                went_out,
                bool(round_ends),
            )
        )
        return out
    if not round_ends:
        if after.phase != "play":
            out.append(
                Violation("round.end", f"phase {after.phase} without a round end", "play", after.phase)
            )
        return out
    end = round_ends[0]
    penalties = [rules.penalty(game.codec.cards(h)) for h in after.hands]
    if list(end.penalties) != penalties:
        out.append(
            Violation(
                "round.penalties",
                f"penalties {list(end.penalties)}, but the points left in hand are {penalties}",
                penalties,
                list(end.penalties),
            )
        )
    scores = [s + p for s, p in zip(before.scores, penalties, strict=True)]
    if list(end.scores) != scores or list(after.scores) != scores:
        out.append(
            Violation(
                "round.penalties",
                f"scores {list(after.scores)}, expected {scores}",
                scores,
                list(after.scores),
            )
        )
    over = max(scores) >= rules.ruleset.match_end_score
    if over != bool(match_ends) or after.phase != ("match_over" if over else "round_over"):
        out.append(
            Violation(
                "match.end",
                f"scores {scores}: the match should {'end' if over else 'go on'}",
                over,
                after.phase,
            )
        )
    elif match_ends:
        best = min(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        if list(match_ends[0].winners) != winners:
            out.append(
                Violation(
                    "match.end",
                    f"winners {list(match_ends[0].winners)}, but the fewest points ({best}) are {winners}'s",
                    winners,
                    list(match_ends[0].winners),
                )
            )
    return out


# ---- replayable scenarios -----------------------------------------------------------------------


@dataclass
class Scenario:
    """A start and the moves since: replays a failure exactly (see `replay`)."""

    setup: Setup
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**self.setup.to_json(), "moves": list(self.moves)}


def replay(
    game: Game, setup: Setup, moves: list[str]
) -> Iterator[tuple[State, str, State, tuple[Event, ...]]]:
    """Replay a scenario: yields (before, move, after, events) for each move ("next_round" too)."""
    state = setup.start(game)
    for text in moves:
        if text == "next_round":
            after, events = game.next_round(state), cast(tuple[Event, ...], ())
        else:
            after, events = game.apply(state, parse_move(text))
        yield state, text, after, events
        state = after


def scenario_text(data: Mapping[str, Any]) -> str:
    """A scenario as a few readable lines a person can replay by hand."""
    start = data["start"]
    if "hands" in start:
        begin = (
            f"{data['players']} players, hands {start['hands']}, player {start['leader']} leads, "
            f"scores {start['scores']}"
        )
    else:
        begin = f"{data['players']} players, deal seed {start['deal_seed']}"
    moves = ", ".join(data["moves"]) or "(no moves)"
    return f"{begin}; moves: {moves}"


# ---- the Hypothesis state machine ---------------------------------------------------------------


class InvariantBroken(AssertionError):
    """An invariant failed; carries the violation, the situation and the scenario that reach it."""

    def __init__(
        self, violation: Violation, scenario: dict[str, Any], witness_situation: dict[str, Any], cards: int
    ) -> None:
        super().__init__(f"{violation.invariant}: {violation.message}")
        self.violation = violation
        self.scenario = scenario
        self.situation = witness_situation
        self.cards = cards


@dataclass
class MachineStats:
    examples: int = 0
    states: int = 0
    steps: int = 0
    matches_finished: int = 0
    rulesets: set[str] = field(default_factory=set)


class MatchMachine(RuleBasedStateMachine):
    """Whole matches under generated rulesets and starts; every invariant at every step.

    Configure a subclass with `machine_for` (the spec, the ruleset under check, the engine).
    """

    spec: ClassVar[Spec]
    setup_strategy: ClassVar[SearchStrategy[Setup]]
    engine: ClassVar[EngineFactory]
    stats: ClassVar[MachineStats]
    games: ClassVar[dict[tuple[Ruleset, int], tuple[Game, SpecRules]]]

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.spec_rules: SpecRules | None = None
        self.state: State | None = None
        self.scenario: Scenario | None = None

    # -- helpers

    def _fail(self, violation: Violation, before: State) -> None:
        assert self.game is not None and self.scenario is not None
        raise InvariantBroken(
            violation, self.scenario.to_json(), situation(self.game, before), state_cards(self.game, before)
        )

    def _check_state(self, state: State) -> None:
        assert self.game is not None and self.spec_rules is not None
        self.stats.states += 1
        found = state_violations(self.game, self.spec_rules, state)
        if found:
            self._fail(found[0], state)

    def _step(self, move: Move) -> None:
        assert self.game is not None and self.spec_rules is not None
        assert self.state is not None and self.scenario is not None
        before = self.state
        self.scenario.moves.append(str(move))
        self.stats.steps += 1
        try:
            after, events = self.game.apply(before, move)
        except Exception as exc:
            self._fail(
                Violation(
                    "engine.raised",
                    f"applying its own legal move '{move}' raised {type(exc).__name__}: {exc}",
                ),
                before,
            )
            return
        found = step_violations(self.game, self.spec_rules, before, move, after, events)
        if found:
            self._fail(found[0], before)
        self.state = after
        self._check_state(after)

    def _moves(self) -> tuple[Move, ...]:
        assert self.game is not None and self.state is not None
        try:
            return self.game.legal_moves(self.state)
        except Exception as exc:
            self._fail(
                Violation("engine.raised", f"legal_moves raised {type(exc).__name__}: {exc}"), self.state
            )
            raise

    def _check_replay(self) -> None:
        """game.deterministic: a fresh engine, the same start and the same moves reach the same state."""
        assert self.scenario is not None and self.state is not None and self.spec_rules is not None
        setup = self.scenario.setup
        fresh = type(self).engine(setup.ruleset, setup.players)
        last = setup.start(fresh)
        for _, _, after, _ in replay(fresh, setup, self.scenario.moves):
            last = after
        if last != self.state:
            self._fail(
                Violation(
                    "game.deterministic",
                    "replaying the same start and moves on a fresh engine reached a different state",
                ),
                self.state,
            )
        found = _roundtrip_violations(fresh, self.state, deep=True)
        if found:
            self._fail(found[0], self.state)

    # -- rules

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        setup = data.draw(self.setup_strategy, label="setup")
        self.stats.examples += 1
        self.stats.rulesets.add(setup.ruleset.label())
        key = (setup.ruleset, setup.players)
        if key not in self.games:
            # Building an engine precomputes every pile; shrinking replays thousands of examples.
            self.games[key] = (
                type(self).engine(setup.ruleset, setup.players),
                SpecRules(setup.ruleset, setup.players),
            )
        self.game, self.spec_rules = self.games[key]
        self.scenario = Scenario(setup)
        state = setup.start(self.game)
        self.state = state
        if setup.hands is None and self.game.new_match(setup.seed) != state:
            self._fail(Violation("game.deterministic", f"two deals from seed {setup.seed} differ"), state)
        self._check_state(state)

    @precondition(lambda self: self.state is not None and self.state.phase == "play")
    @rule(pick=st.integers(0, 63))
    def play(self, pick: int) -> None:
        moves = self._moves()
        self._step(moves[pick % len(moves)])

    @precondition(lambda self: self.state is not None and self.state.phase == "play")
    @rule(steps=st.integers(1, 400), seed=st.integers(0, 255))
    def play_on(self, steps: int, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            assert self.state is not None
            if self.state.phase != "play":
                break
            moves = self._moves()
            self._step(moves[rng.randrange(len(moves))])

    @precondition(lambda self: self.state is not None and self.state.phase == "round_over")
    @rule()
    def next_round(self) -> None:
        assert self.game is not None and self.state is not None and self.scenario is not None
        self._check_replay()
        before = self.state
        try:
            self.state = self.game.next_round(before)
        except Exception as exc:
            self._fail(Violation("engine.raised", f"next_round raised {type(exc).__name__}: {exc}"), before)
        self.scenario.moves.append("next_round")
        self._check_state(self.state)

    @precondition(lambda self: self.state is not None and self.state.phase == "match_over")
    @rule(seed=st.integers(0, 2**16))
    def another_match(self, seed: int) -> None:
        """After a match, check it replays, then deal a new match under the same ruleset."""
        assert self.game is not None and self.scenario is not None
        self._check_replay()
        self.stats.matches_finished += 1
        old = self.scenario.setup
        setup = Setup(old.ruleset, old.players, seed)
        self.scenario = Scenario(setup)
        self.state = setup.start(self.game)
        self._check_state(self.state)


def machine_for(
    spec: Spec,
    base: Ruleset,
    engine: EngineFactory = Game,
    *,
    profiles: bool = True,
    combinations: bool = True,
    run_seed: int | None = None,
) -> type[MatchMachine]:
    """A MatchMachine subclass for one spec, ruleset under check and engine.

    With `run_seed`, Hypothesis draws from that seed (so `--seed` changes the matches played).
    """
    attrs: dict[str, Any] = {
        "spec": spec,
        "setup_strategy": setups(spec, base, profiles=profiles, combinations=combinations),
        "engine": staticmethod(engine),
        "stats": MachineStats(),
        "games": {},
    }
    machine = type("MatchMachine", (MatchMachine,), attrs)
    if run_seed is not None:
        machine = hypothesis_seed(run_seed)(machine)
    return machine


@dataclass(frozen=True)
class Budget:
    examples: int
    steps: int


BUDGETS: Mapping[Level, Budget] = {
    "quick": Budget(examples=25, steps=12),
    "ci": Budget(examples=100, steps=25),
    "deep": Budget(examples=1500, steps=60),
}


def run_machine(
    machine: type[MatchMachine], examples: int, steps: int
) -> tuple[InvariantBroken | None, list[str]]:
    """Run the machine; returns the shrunk failure (if any) and what Hypothesis would have printed."""
    printed: list[str] = []
    with private_hypothesis_home(), with_reporter(lambda value: printed.append(str(value))):
        try:
            # Typed only in newer Hypothesis releases; calling through Any keeps mypy quiet on both.
            runner: Any = run_state_machine_as_test
            runner(machine, settings=hypothesis_settings(examples, steps=steps))
        except InvariantBroken as broken:
            return broken, printed
    return None, printed


def check_matches(ctx: CheckContext) -> CheckResult:
    """Whole matches (Hypothesis state machine), every invariant at every step. Raises
    UnimplementedReading for a reading the rules model cannot state."""
    RULES_VOCABULARY.require_ruleset(ctx.ruleset)
    RULES_VOCABULARY.require_spec(ctx.spec)
    started = time.perf_counter()
    budget = BUDGETS[ctx.level]
    machine = machine_for(ctx.spec, ctx.ruleset, ctx.engine, run_seed=ctx.seed)
    failures: list[Failure] = []
    try:
        broken, _ = run_machine(machine, budget.examples, budget.steps)
    except Exception as exc:  # a crash inside the engine that escaped the step checks
        broken = None
        failures.append(
            Failure("invariants.matches", f"the state machine stopped: {type(exc).__name__}: {exc}")
        )
    if broken is not None:
        failures.append(machine_failure(broken))
    stats = machine.stats
    notes = (
        f"{stats.examples} generated matches under {len(stats.rulesets)} rulesets "
        f"(the one under check, the profiles, random reading combinations); "
        f"{stats.steps} moves and {stats.states} states checked; {stats.matches_finished} matches played "
        "to the end",
    )
    return CheckResult(
        name="invariants.matches",
        title="Invariants at every step of whole matches (Hypothesis state machine)",
        seconds=time.perf_counter() - started,
        generated=stats.states,
        failures=tuple(failures),
        notes=notes,
    )


def machine_failure(broken: InvariantBroken) -> Failure:
    """A shrunk state-machine failure as a Failure whose witness replays it."""
    scenario = broken.scenario
    v = broken.violation
    return Failure(
        check="invariants.matches",
        message=f"{v.invariant}: {v.message}",
        readings=dict(scenario["readings"]),
        witness=Witness(
            summary=f"{v.invariant}: {v.message}. Replay: {scenario_text(scenario)}",
            situation={**broken.situation, "scenario": scenario},
            outcomes={"engine": v.actual, "spec": v.expected},
            cards=broken.cards,
        ),
    )
