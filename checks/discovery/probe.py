"""The probe of every hook: a fixed set of questions to an engine's hooks (each rank pair of the
succession, every pile pair for `beats`, the placing moves with an 8 for `rule_of_8`, small tricks
for `trick_winner`, every seat, draw and finished round for the deal hooks...), in groups, and which
groups a hook's answers can reach. Two engines whose probes agree answer every hook alike there
(silences.py, step 2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ...engine import PASS, TRICK_END_REASONS, Game, Move, Pile, Play, State
from ...engine.options import EIGHT, LISTED_EIGHT_RUNS, Option
from ...spec import SpecError

Probe = dict[tuple[Any, ...], Any]

#: Which probe groups a hook's answers can reach (a hook's own group, and the groups of the hooks
#: that call it); a mutant's other groups are the engine's own.
REACHES: dict[str, tuple[str, ...]] = {
    "follows": ("succession", "beats", "closing", "adds", "eight"),
    "strength": ("strength", "beats", "eight"),
    "beats": ("beats", "eight"),
    "closing_size": ("closing", "adds", "eight"),
    "closes": ("closing",),
    "add_limit": ("adds", "eight"),
    "add_options": ("adds", "eight"),
    "rule_of_8": ("eight",),
    "trick_winner": ("winner",),
    "next_seat": ("seats", "deal"),
    "penalty": ("penalty",),
    "deck_copies": ("deal", "succession", "beats", "closing", "adds", "eight", "penalty"),
    "hand_size": ("deal",),
    "first_leader": ("deal",),
    "round_leader": ("deal",),
}
GROUPS: tuple[str, ...] = (
    "deal",
    "seats",
    "succession",
    "strength",
    "beats",
    "closing",
    "adds",
    "eight",
    "winner",
    "penalty",
)


def _safe(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except (ValueError, SpecError, KeyError, IndexError) as exc:
        return ("raised", type(exc).__name__)


def _table(game: Game) -> State:
    ranks = game.ruleset.ranks
    return game.start_round([[ranks[seat % len(ranks)]] for seat in range(game.players)], 0)


def _central(game: Game) -> list[Pile]:
    """The placeable piles and every pile one add onto them makes: the central piles probed."""
    piles = list(game.placeable_piles())
    seen = set(piles)
    for pile in list(piles):
        adds = _safe(game.add_options, pile)
        for _, new in adds if isinstance(adds, list) else []:
            if new not in seen:
                seen.add(new)
                piles.append(new)
    return piles


def probe(game: Game, groups: Iterable[str]) -> Probe:
    """The hook answers of `game` in the given probe groups."""
    out: Probe = {}
    p = game.players
    ranks = game.ruleset.ranks
    table = _table(game)
    for group in groups:
        if group == "deal":
            out["deck_copies",] = game.copies
            out["hand_size",] = _safe(game.hand_size)
            for draw in range(p):
                out["first_leader", draw] = game.first_leader(draw)
            for scores in ((0,) * p, tuple(range(p))):
                for leader in range(p):
                    for went_out in range(p):
                        done = replace(
                            table, phase="round_over", to_move=went_out, round_leader=leader, scores=scores
                        )
                        out["round_leader", scores, leader, went_out] = game.round_leader(done)
        elif group == "seats":
            for seat in range(p):
                out["next_seat", seat] = game.next_seat(seat)
        elif group == "succession":
            for i, a in enumerate(ranks):
                out["follows", a] = game.follows(a, ranks[(i + 1) % len(ranks)])
            out["placeable",] = tuple(game.placeable_piles())
        elif group == "strength":
            for r in ranks:
                out["strength", r] = game.strength(r)
        elif group == "beats":
            piles = game.placeable_piles()
            for old in piles:
                out["beats", old] = tuple(new for new in piles if game.beats(new, old))
        elif group == "closing":
            for kind in ("single", "set", "run"):
                out["closing_size", kind] = game.closing_size(kind)
            for pile in _central(game):
                for action in ("lead", "overwrite", "add"):
                    out["closes", pile, action] = game.closes(pile, action)
        elif group == "adds":
            for pile in _central(game):
                out["add_options", pile] = tuple(sorted(_safe(game.add_options, pile), key=repr))
                for kind in ("set", "run"):
                    out["add_limit", pile, kind] = game.add_limit(pile, kind)
        elif group == "eight":
            _probe_eights(game, table, out)
        elif group == "winner":
            for s in range(p):
                b = (s + 1) % p
                lead, over, add = (
                    Move("lead", (ranks[0],)),
                    Move("overwrite", (ranks[1],)),
                    Move("add", (ranks[0],)),
                )
                for trick in (
                    (Play(s, lead), Play(b, over)),
                    (Play(s, lead), Play(b, PASS)),
                    (Play(s, lead), Play(b, add), Play(s, PASS)),
                ):
                    for reason in TRICK_END_REASONS:
                        out["trick_winner", trick, reason] = _safe(game.trick_winner, trick, (reason,))
        elif group == "penalty":
            units = [game.codec.unit(r) for r in ranks]
            for i, a in enumerate(units):
                out["penalty", ranks[i]] = game.penalty(a)
                out["penalty", ranks[i], "pair"] = game.penalty(a + units[(i + 1) % len(units)])
    return out


def _option(game: Game, action: str, added: tuple[int, ...], pile: Pile) -> Option:
    """The Option of a placing move as the engine makes it (rule_of_8 reads only the move, the pile
    and its 8s), built without the engine's table of every answer to a pile."""
    listed = (pile.kind in ("single", "set") and pile.cards[0] == EIGHT) or (
        pile.kind == "run" and pile.cards in LISTED_EIGHT_RUNS
    )
    return Option(
        Move(action, tuple(sorted(added))),  # type: ignore[arg-type]
        game.codec.pack(added),
        pile,
        EIGHT in added,
        listed and EIGHT in added,
    )


def _probe_eights(game: Game, table: State, out: Probe) -> None:
    """rule_of_8 for every lead and overwrite that places an 8 and every add of an 8, onto every
    placeable pile, with and without an 8 in the opening pile; and for a few plays without an 8
    (which the engine never counts)."""
    piles = game.placeable_piles()
    eights = [p for p in piles if EIGHT in p.cards]
    plain = [p for p in piles if EIGHT not in p.cards][:3]
    for pile in eights + plain:
        out["rule_of_8", None, pile] = game.rule_of_8(_option(game, "lead", pile.cards, pile), table)
    for i, old in enumerate(piles):
        adds = _safe(game.add_options, old)
        for opening in (False, True):
            state = replace(table, pile=old, opening_has_eight=opening)
            for new in eights + plain:
                if new.kind == old.kind and new.size == old.size:
                    option = _option(game, "overwrite", new.cards, new)
                    out["rule_of_8", old, opening, "overwrite", new] = game.rule_of_8(option, state)
            for added, new in adds if isinstance(adds, list) else []:
                if EIGHT in added or i < 3:
                    option = _option(game, "add", added, new)
                    out["rule_of_8", old, opening, "add", new] = game.rule_of_8(option, state)


def differing(a: Probe, b: Probe) -> set[tuple[Any, ...]]:
    return {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
