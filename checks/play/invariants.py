"""Invariants of 535 play, checked at one state or one step.

`state_violations` / `step_violations` check one state or one move against the invariants below
(OpenSpiel's generic game checks plus 535's own), judging by the rules as the spec states them
(`SpecRules`, five35.checks.oracles.rules_model). The Hypothesis state machine over whole matches
(five35.checks.play.matches) and the exhaustive endgame graphs (five35.checks.play.graphs) both
call them.

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
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine import Move, State
from ...engine.engines import Engine
from ...engine.state import Event, MatchEnd, RoundEnd, TrickEnd
from ...spec.words_model import CheckWords
from ..findings import table_situation
from ..oracles.rules_model import SpecRules
from ..oracles.z3model import EIGHT


@dataclass(frozen=True)
class Violation:
    invariant: str
    message: str
    expected: Any = None
    actual: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"invariant": self.invariant, "expected": self.expected, "actual": self.actual}


def situation(game: Engine, state: State) -> dict[str, Any]:
    """A state as witness data (see Witness.situation): the table, the scores and the phase."""
    return {**table_situation(game, state), "scores": list(state.scores), "phase": state.phase}


def state_cards(game: Engine, state: State) -> int:
    """The witness size of a state: the cards in hands and on the central pile."""
    in_hands = sum(len(game.codec.cards(h)) for h in state.hands)
    return in_hands + (state.pile.size if state.pile else 0)


def _trick_cards(state: State) -> list[int]:
    return [c for play in state.trick for c in play.move.cards]


def state_violations(
    game: Engine, rules: SpecRules, state: State, say: CheckWords, *, roundtrip: bool = True
) -> list[Violation]:
    """Every invariant of a single state; `say` is the words of the failures (check `invariants`)."""
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
        out.append(Violation("cards.accounted", say("cards_accounted", diff=diff), 0, diff))
    if state.pile is not None:
        made = rules.as_pile(sorted(state.pile.cards))
        if made is None or made.kind != state.pile.kind:
            out.append(
                Violation(
                    "pile.valid",
                    say("pile_valid", pile=state.pile, kind=state.pile.kind),
                    None,
                    str(state.pile),
                )
            )
        closing = rules.closing(state.pile.kind)
        if closing is not None and state.pile.size > closing and rules.capped:
            out.append(
                Violation(
                    "pile.caps",
                    say("pile_caps", pile=state.pile, closing=closing),
                    closing,
                    state.pile.size,
                )
            )
    try:
        moves = game.legal_moves(state)
    except Exception as exc:  # the engine under check may be broken in any way
        return [*out, Violation("engine.raised", say("raised", exception=type(exc).__name__, error=exc))]
    if state.phase != "play":
        if moves:
            out.append(
                Violation(
                    "moves.mover_only",
                    say("over_with_moves", move=moves[0]),
                    [],
                    [str(m) for m in moves],
                )
            )
    else:
        out.extend(_play_state_violations(game, rules, state, moves, say))
        if rules.match_ends(state.scores, state.round - 1):
            out.append(
                Violation(
                    "match.end",
                    say("goes_on", scores=list(state.scores)),
                    say("goes_on_expected"),
                    list(state.scores),
                )
            )
    if roundtrip:
        out.extend(roundtrip_violations(game, state, say))
    return out


def _play_state_violations(
    game: Engine, rules: SpecRules, state: State, moves: tuple[Move, ...], say: CheckWords
) -> list[Violation]:
    out: list[Violation] = []
    mover = state.to_move
    if not 0 <= mover < state.players or state.has_passed(mover):
        out.append(
            Violation(
                "moves.mover_only",
                say("not_in_trick", player=mover),
                say("in_trick_expected"),
                mover,
            )
        )
        return out
    if not moves:
        out.append(Violation("moves.nonempty", say("no_move"), ">= 1", 0))
    hand = state.hands[mover]
    for move in moves:
        if move.action == "pass":
            if state.leading:
                out.append(
                    Violation("leader.no_pass", say("leader_may_pass", player=mover), say("no_pass"), "pass")
                )
            continue
        if not game.codec.holds(hand, rules.packed(game.codec, move.cards)):
            out.append(
                Violation(
                    "moves.mover_only",
                    say("not_held", move=move, player=mover),
                    game.codec.cards(hand),
                    list(move.cards),
                )
            )
            continue
        _, why = rules.judge(state.pile, move)
        if why is not None:
            out.append(
                Violation(
                    "moves.allowed", say("legal_in_engine", move=move, why=why), say("not_legal"), str(move)
                )
            )
    return out


def roundtrip_violations(
    game: Engine, state: State, say: CheckWords, *, deep: bool = False
) -> list[Violation]:
    out: list[Violation] = []
    try:
        restored = game.from_json(json.loads(json.dumps(game.to_json(state))))
    except Exception as exc:
        return [
            Violation("state.roundtrip", say("roundtrip_raised", exception=type(exc).__name__, error=exc))
        ]
    if restored != state:
        out.append(Violation("state.roundtrip", say("roundtrip_differs")))
    # A deep copy costs more than the rest of a step's checks together; the machine makes one at
    # every round end (see MatchMachine._check_replay).
    if copy.copy(state) != state or (deep and copy.deepcopy(state) != state):
        out.append(Violation("state.roundtrip", say("copy_differs")))
    return out


def step_violations(
    game: Engine,
    rules: SpecRules,
    before: State,
    move: Move,
    after: State,
    events: tuple[Event, ...],
    say: CheckWords,
) -> list[Violation]:
    """Every invariant of one move: what the spec says it must do against what the engine did."""
    out: list[Violation] = []
    mover = before.to_move
    trick_ends = [e for e in events if isinstance(e, TrickEnd)]
    round_ends = [e for e in events if isinstance(e, RoundEnd)]
    match_ends = [e for e in events if isinstance(e, MatchEnd)]
    if move.action == "pass" and before.leading:
        out.append(Violation("leader.no_pass", say("leader_passed", player=mover), say("no_pass"), "pass"))
        return out
    new_pile, why = rules.judge(before.pile, move)
    if why is not None:
        out.append(
            Violation("moves.allowed", say("applied", move=move, why=why), say("not_legal"), str(move))
        )
        return out
    hand_after = game.codec.cards(after.hands[mover])
    expected: list[str] = []
    if move.action == "pass":
        passed = before.passed | (1 << mover) if rules.pass_takes_out() else before.passed
        in_a_row = 1
        for play in reversed(before.trick):
            if play.move.action != "pass":
                break
            in_a_row += 1
        assert before.pile is not None
        expected.extend(
            rules.pass_ends(
                before.pile,
                before.opening_has_eight,
                mover,
                before.players - passed.bit_count(),
                len(hand_after),
                in_a_row,
            )
        )
        placers = [p.player for p in before.trick if p.move.action != "pass"]
        last_placer = placers[-1] if placers else -1
    else:
        assert new_pile is not None
        opening = before.opening_has_eight if before.pile is not None else EIGHT in move.cards
        expected.extend(rules.trick_ends(move.action, move.cards, new_pile, opening))
        last_placer = mover
        if after.pile != new_pile and not (trick_ends and not round_ends):
            out.append(
                Violation(
                    "pile.result",
                    say("made", on=_on(move, before, say), pile=after.pile),
                    str(new_pile),
                    str(after.pile),
                )
            )
    winner = rules.winner(last_placer, mover)
    went_out = move.action != "pass" and rules.round_ends(len(hand_after), mover)
    # Plain names on both sides: the violation's values are shown with repr() in the text output.
    got = sorted(str(r) for e in trick_ends for r in e.reasons)
    want = sorted(str(r) for r in expected)
    if want != got:
        message = _ending_message(move, before, [str(r) for r in expected], got, say)
        out.append(Violation("trick.end", message, want, got))
    for e in trick_ends:
        if e.winner != winner:
            out.append(
                Violation(
                    "trick.winner",
                    say("winner", winner=e.winner, rules=winner, placer=last_placer),
                    winner,
                    e.winner,
                )
            )
    out.extend(_round_violations(game, rules, before, move, after, round_ends, match_ends, went_out, say))
    if not round_ends and after.phase == "play":
        if expected:
            if after.to_move != winner or after.pile is not None or after.passed:
                out.append(
                    Violation(
                        "turn.next",
                        say("leads", player=after.to_move),
                        winner,
                        after.to_move,
                    )
                )
        else:
            if move.action != "pass" or not rules.pass_takes_out():
                passed = before.passed
            else:
                passed = before.passed | (1 << mover)
            nxt = rules.next_seat(mover, passed)
            if after.to_move != nxt:
                out.append(
                    Violation(
                        "turn.next",
                        say("next_seat", player=mover, move=move, moved=after.to_move, next=nxt),
                        nxt,
                        after.to_move,
                    )
                )
    return out


def _on(move: Move, before: State, say: CheckWords) -> str:
    return say("move_on", move=move, pile=before.pile or say("no_pile"))


def _ending_message(move: Move, before: State, expected: list[str], got: list[str], say: CheckWords) -> str:
    which = "went_on" if not got else "ended" if not expected else "ended_for"
    return say(which, on=_on(move, before, say), expected=", ".join(expected), got=", ".join(got))


def _round_violations(
    game: Engine,
    rules: SpecRules,
    before: State,
    move: Move,
    after: State,
    round_ends: list[RoundEnd],
    match_ends: list[MatchEnd],
    went_out: bool,
    say: CheckWords,
) -> list[Violation]:
    out: list[Violation] = []
    if went_out != bool(round_ends):
        out.append(
            Violation(
                "round.end",
                say("none_left" if went_out else "some_left", player=before.to_move),
                went_out,
                bool(round_ends),
            )
        )
        return out
    if not round_ends:
        if after.phase != "play":
            out.append(Violation("round.end", say("phase", phase=after.phase), "play", after.phase))
        return out
    end = round_ends[0]
    penalties = [
        rules.penalty(game.codec.cards(h), seat == end.went_out) for seat, h in enumerate(after.hands)
    ]
    if list(end.penalties) != penalties:
        out.append(
            Violation(
                "round.penalties",
                say("penalties", penalties=list(end.penalties), expected=penalties),
                penalties,
                list(end.penalties),
            )
        )
    scores = [s + p for s, p in zip(before.scores, penalties, strict=True)]
    if list(end.scores) != scores or list(after.scores) != scores:
        out.append(
            Violation(
                "round.penalties",
                say("scores", scores=list(after.scores), expected=scores),
                scores,
                list(after.scores),
            )
        )
    over = rules.match_ends(scores, before.round)
    if over != bool(match_ends) or after.phase != ("match_over" if over else "round_over"):
        out.append(
            Violation(
                "match.end",
                say("should_end" if over else "should_go_on", scores=scores),
                over,
                after.phase,
            )
        )
    elif match_ends:
        winners = rules.match_winners(scores)
        if list(match_ends[0].winners) != winners:
            out.append(
                Violation(
                    "match.end",
                    say("winners", winners=list(match_ends[0].winners), expected=winners),
                    winners,
                    list(match_ends[0].winners),
                )
            )
    return out
