"""What a difference between two engines looks like at the table, as a `Witness`.

The impact measurement (measure.py) plays a game under one engine and puts every step to another;
at the first step where they differ, one of these writes the witness down: the deal, the legal
moves (shrunk to the few cards of one move the engines disagree on, when they still disagree
there), the trick's ending or the round's result. Each carries the `Position` that sets its table
up again by legal play, from the round's first state and the moves made since (`RoundHistory`).
The scenes (scenes.py) describe their states with the same helpers. A witness's summary is worded
from the words file's `impact.witnesses` sentences (WORDS), handed in by whoever looks for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...engine import Move, Pile, Position, RoundEnd, State, TrickEnd
from ...engine.engines import Engine
from ...spec.words_model import CheckWords
from ..findings import OutcomeMoves, Witness, table_situation

WORDS = "impact.witnesses"  # the group of the words file's check sentences that word a witness


@dataclass
class RoundHistory:
    """The round being played: its first state and the moves made since, so that a witness found
    mid-round can say how to set its table up again (a `Position`)."""

    start: State
    plays: list[tuple[int, Move]] = field(default_factory=list)

    def position(self, game: Engine, shrunk: tuple[int, tuple[int, ...]] | None = None) -> Position:
        """The position of the table now. With `shrunk` = (seat, cards), that seat holds only those
        cards now (its hand at the start of the round is them plus what it has placed since, so
        every move so far is still its own)."""
        start = self.start
        hands = [tuple(game.codec.cards(h)) for h in start.hands]
        if shrunk is not None:
            seat, cards = shrunk
            placed = [c for player, move in self.plays if player == seat for c in move.cards]
            hands[seat] = tuple(sorted((*placed, *cards)))
        return Position(
            hands=tuple(hands),
            leader=start.round_leader,
            scores=start.scores,
            moves=tuple(move for _, move in self.plays),
            round=start.round,
            seed=start.seed,
        )


def sorted_moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    """Moves in the order a witness lists them: by action, then cards."""
    return tuple(sorted(moves, key=lambda m: (m.action, m.cards)))


def moves_text(moves: Sequence[Move]) -> list[str]:
    return [str(m) for m in sorted_moves(moves)]


def _pile_json(pile: Pile | None) -> dict[str, Any] | None:
    return pile.to_json() if pile else None


def situation_of(game: Engine, state: State) -> dict[str, Any]:
    """A state as witness data (see Witness.situation): the table, the round and the scores."""
    return {**table_situation(game, state), "round": state.round, "scores": list(state.scores)}


def state_cards(game: Engine, state: State) -> int:
    pile = state.pile.size if state.pile else 0
    return int(sum(game.codec.size(h) for h in state.hands)) + pile


def result_of(events: Sequence[object], state: State) -> dict[str, Any]:
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


def _deal_outcome(game: Engine, state: State) -> dict[str, Any]:
    # The engine keeps the cards set aside unseen in `aside`; a reader of "hands of 12" needs the
    # rest of the deck said too (it is the whole of a deal question), so it is counted, not left to
    # a default.
    return {
        "deck": game.codec.size(game.full_deck),
        "hand_size": game.codec.size(state.hands[0]),
        "set_aside": game.codec.size(state.aside),
        "leader": state.to_move,
        "copies": game.copies,
    }


def _dealt(game: Engine, state: State) -> Position:
    """The position of a round as dealt."""
    return Position(
        hands=tuple(tuple(game.codec.cards(h)) for h in state.hands),
        leader=state.round_leader,
        scores=state.scores,
        round=state.round,
        seed=state.seed,
    )


def deal_witness(
    a: Engine,
    b: Engine,
    sa: State,
    sb: State,
    names: tuple[str, str],
    first: bool,
    previous: State | None = None,
    *,
    say: CheckWords,
) -> Witness:
    """The two engines' deals of one round. A later round's deal is told with the round before it
    (`previous`, finished): who led it and who went out, which is what the next round's leader and
    hands follow from, so that no reader takes it for a first deal."""
    oa, ob = _deal_outcome(a, sa), _deal_outcome(b, sb)
    what = say("first_deal") if first else say("deal_of_round", round=sa.round)
    diffs = [k for k in ("deck", "hand_size", "leader") if oa[k] != ob[k]]
    detail = say("deal_joint").join(say("differs_in", what=say(k), a=oa[k], b=ob[k]) for k in diffs) or say(
        "cards_dealt"
    )
    situation = {
        "players": sa.players,
        "round": sa.round,
        "to_move": sa.to_move,
        "leading": True,
        "pile": None,
        "scores": list(sa.scores),
    }
    if previous is not None:
        out = [p for p in range(previous.players) if a.codec.size(previous.hands[p]) == 0]
        situation["round_leader"] = previous.round_leader
        if out:
            situation["went_out"] = out[0]
    return Witness(
        summary=say("deal", players=sa.players, what=what, a=names[0], b=names[1], detail=detail),
        situation=situation,
        outcomes={names[0]: oa, names[1]: ob},
        cards=min(oa["deck"], ob["deck"]),
        position=_dealt(a, sa),
    )


def undealable_witness(
    a: Engine, state: State, names: tuple[str, str], error: str, *, say: CheckWords
) -> Witness:
    oa = _deal_outcome(a, state)
    return Witness(
        summary=say("undealable", players=state.players, b=names[1], error=error),
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
        position=_dealt(a, state),
    )


def shrunk_witness(
    a: Engine,
    b: Engine,
    state: State,
    legal: tuple[set[Move], set[Move]],
    names: tuple[str, str],
    history: RoundHistory,
    say: CheckWords,
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
        situation = situation_of(a, small)
        situation.pop("hands")  # the other hands play no part in what the mover may do
        only_a, only_b = (
            moves_text([m for m in sa if m not in sb]),
            moves_text([m for m in sb if m not in sa]),
        )
        parts = [
            say("only_allows", name=n, moves="; ".join(o))
            for n, o in ((names[0], only_a), (names[1], only_b))
            if o
        ]
        return Witness(
            summary=say(
                "shrunk",
                players=state.players,
                seat=state.to_move,
                where=_where(state, say),
                cards=",".join(map(str, move.cards)),
                what=say("and").join(parts),
            ),
            situation=situation,
            outcomes={
                names[0]: {"legal_moves": moves_text(list(sa)), "only_here": only_a},
                names[1]: {"legal_moves": moves_text(list(sb)), "only_here": only_b},
            },
            cards=len(move.cards) + (state.pile.size if state.pile else 0),
            position=history.position(a, (state.to_move, move.cards)),
            moves={
                names[0]: OutcomeMoves(legal=sorted_moves(sa)),
                names[1]: OutcomeMoves(legal=sorted_moves(sb)),
            },
        )
    return None


def step_witness(
    a: Engine,
    b: Engine,
    state: State,
    move: Move,
    legal: tuple[set[Move], set[Move]],
    after: tuple[tuple[State, Sequence[object]], tuple[State, Sequence[object]] | None],
    names: tuple[str, str],
    change: str,
    history: RoundHistory,
    say: CheckWords,
) -> Witness:
    la, lb = legal
    (sa, ea), b_after = after
    out_a: dict[str, Any] = {
        "legal_moves": len(la),
        "only_here": moves_text([m for m in la if m not in lb]),
        "played": str(move),
        **result_of(ea, sa),
    }
    out_b: dict[str, Any] = {"legal_moves": len(lb), "only_here": moves_text([m for m in lb if m not in la])}
    if b_after is None:
        out_b["played"] = None
        out_b["note"] = say("not_legal", move=move, name=names[1])
    else:
        sb, eb = b_after
        out_b["played"] = str(move)
        out_b.update(result_of(eb, sb))
    if change == "legal_moves":
        extra_a, extra_b = out_a["only_here"], out_b["only_here"]
        parts = []
        if extra_a:
            parts.append(say("only_allows", name=names[0], moves="; ".join(extra_a[:3])))
        if extra_b:
            parts.append(say("only_allows", name=names[1], moves="; ".join(extra_b[:3])))
        what = say("and").join(parts)
    elif change == "trick_end":
        what = say(
            "trick_differs",
            move=move,
            a=names[0],
            b=names[1],
            trick_a=_trick_text(out_a, say),
            trick_b=_trick_text(out_b, say),
        )
    elif change == "round_result":
        what = say("round_differs", move=move)
    else:
        what = say(
            "next_differs",
            move=move,
            next_a=out_a["next_to_move"],
            a=names[0],
            next_b=out_b.get("next_to_move"),
            b=names[1],
        )
    return Witness(
        summary=say("step", players=state.players, seat=state.to_move, where=_where(state, say), what=what),
        situation=situation_of(a, state),
        outcomes={names[0]: out_a, names[1]: out_b},
        cards=state_cards(a, state),
        position=history.position(a),
        moves={
            names[0]: OutcomeMoves(played=move),
            names[1]: OutcomeMoves(played=None if b_after is None else move),
        },
    )


def _where(state: State, say: CheckWords) -> str:
    """Where the mover plays: on the pile, or leading."""
    return say("on_pile", pile=state.pile) if state.pile else say("leading")


def _trick_text(out: Mapping[str, Any], say: CheckWords) -> str:
    if not out.get("trick_ends"):
        return say("trick_goes_on")
    return say("trick_won", winner=out["trick_winner"], reasons=", ".join(out["trick_end_reasons"]))
