"""States to and from the protocol's JSON, for any engine over a card codec and a table size."""

from __future__ import annotations

from typing import Any

from .cards import CardCodec
from .state import Move, Pile, Play, State


def state_to_json(codec: CardCodec, state: State) -> dict[str, Any]:
    """A state as the protocol writes it."""
    cards = codec.cards
    return {
        "players": state.players,
        "hands": [cards(h) for h in state.hands],
        "to_move": state.to_move,
        "pile": state.pile.to_json() if state.pile else None,
        "last_player": state.last_player,
        "passed": [p for p in range(state.players) if state.has_passed(p)],
        "opening_has_eight": state.opening_has_eight,
        "trick": [{"player": p.player, **p.move.to_json()} for p in state.trick],
        "cleared": cards(state.cleared),
        "aside": cards(state.aside),
        "scores": list(state.scores),
        "round": state.round,
        "round_leader": state.round_leader,
        "phase": state.phase,
        "seed": state.seed,
        # Only where a round plays on after a player goes out: 535's states stay as they were.
        **({"out": list(state.out)} if state.out else {}),
    }


def state_from_json(codec: CardCodec, players_at_table: int, data: dict[str, Any]) -> State:
    """The State that `to_json` wrote. ValueError naming the key for anything this engine
    cannot hold: a missing key, a card outside the deck or over a field's capacity, a seat
    outside the table."""
    keys = (
        "players",
        "hands",
        "to_move",
        "pile",
        "last_player",
        "passed",
        "opening_has_eight",
        "trick",
        "cleared",
        "aside",
        "scores",
        "round",
        "round_leader",
        "phase",
        "seed",
    )
    missing = [key for key in keys if key not in data]
    if missing:
        raise ValueError(f"state: missing key(s) {', '.join(missing)}")
    players = data["players"]
    if players != players_at_table or type(players) is not int:
        raise ValueError(f"players: {players!r}, but this game has {players_at_table} players")

    def pack(key: str, cards: Any) -> int:
        try:
            return codec.pack(cards)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{key}: {exc}") from None

    def seat(key: str, value: Any, low: int = 0) -> int:
        if type(value) is not int or not low <= value < players:
            raise ValueError(f"{key}: {value!r} is not a seat of {players} players")
        return value

    if len(data["hands"]) != players or len(data["scores"]) != players:
        raise ValueError(f"hands, scores: expected one entry per player ({players})")
    passed = 0
    for i, p in enumerate(data["passed"]):
        passed |= 1 << seat(f"passed[{i}]", p)
    out = data.get("out", [])
    if not isinstance(out, list) or len(set(map(repr, out))) != len(out):
        raise ValueError("out: expected a list of distinct seats")
    out_seats = tuple(seat(f"out[{i}]", p) for i, p in enumerate(out))
    if data["phase"] not in ("play", "round_over", "match_over"):
        raise ValueError(f"phase: unknown phase {data['phase']!r}")
    try:
        pile = Pile.from_json(data["pile"]) if data["pile"] else None
        trick = tuple(
            Play(seat(f"trick[{i}].player", t["player"]), Move.from_json(t))
            for i, t in enumerate(data["trick"])
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"pile, trick: malformed ({exc!r})") from None
    return State(
        players=players,
        hands=tuple(pack(f"hands[{i}]", h) for i, h in enumerate(data["hands"])),
        to_move=seat("to_move", data["to_move"]),
        pile=pile,
        last_player=seat("last_player", data["last_player"], low=-1),
        passed=passed,
        opening_has_eight=bool(data["opening_has_eight"]),
        trick=trick,
        cleared=pack("cleared", data["cleared"]),
        aside=pack("aside", data["aside"]),
        scores=tuple(data["scores"]),
        round=data["round"],
        round_leader=seat("round_leader", data["round_leader"]),
        phase=data["phase"],
        seed=data["seed"],
        out=out_seats,
    )
