"""What each of the oracle's questions (oracle.py) asks of an engine: one function per question,
answering None where the engine agrees (or the question does not apply to this deck or table) and
otherwise why it contradicts the clause, as a sentence of the words file (`discovery.oracle`) with
its blanks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import pairwise

from ...engine import PASS, Game, Move, Pile, Play, State, TrickEndReason
from ...engine.state import MatchEnd
from .said import Said, oracle

EIGHT = 8
#: How a trick ended, in the words a kill's message uses (it is read in the report's technical part).
ENDED_BY: dict[TrickEndReason, Said] = {
    TrickEndReason.ALL_PASSED: oracle("ended_all_passed"),
    TrickEndReason.SET_CLOSED: oracle("ended_set_closed"),
    TrickEndReason.RUN_CLOSED: oracle("ended_run_closed"),
    TrickEndReason.RULE_OF_8: oracle("ended_rule_of_8"),
}


def _state(game: Game, pile: Pile | None = None, opening_has_eight: bool = False) -> State:
    ranks = game.ruleset.ranks
    start = game.start_round([[ranks[seat % len(ranks)]] for seat in range(game.players)], 0)
    return replace(start, pile=pile, opening_has_eight=opening_has_eight)


def _has(game: Game, *ranks: int) -> bool:
    return all(r in game.ruleset.ranks for r in ranks)


def single_example(game: Game) -> Said | None:
    if not _has(game, 1, 7, 14):
        return None
    singles = tuple(Pile("single", (r,)) for r in (1, 7, 14))
    return _example(game, singles, ("single_7_not_1", "single_14_not_7"), "single_1_beats_7")


def set_example(game: Game) -> Said | None:
    if not _has(game, 1, 14) or game.copies < 3 or game.ruleset.max_cards_per_turn < 3:
        return None
    sets = (Pile("set", (1, 1, 1)), Pile("set", (14, 14, 14)))
    return _example(game, sets, ("set_high_not_low",), "set_low_beats_high")


def _example(game: Game, rising: tuple[Pile, ...], not_beaten: tuple[str, ...], beaten: str) -> Said | None:
    """The one comparison of an example's `rising` piles that fails, named alone: a pile that does
    not beat the one before it (`not_beaten`, a sentence a step), else the first pile beating the
    second (`beaten`). A 1 made strongest still loses 7 < 14; a 7 made strongest still beats the 1."""
    for (low, high), which in zip(pairwise(rising), not_beaten, strict=True):
        if not game.beats(high, low):
            return oracle(which)
    if game.beats(rising[0], rising[1]):
        return oracle(beaten)
    return None


def never_its_equal(game: Game) -> Said | None:
    for pile in game.placeable_piles():
        if game.beats(pile, pile):
            return oracle("overwrites_itself", pile=pile)
    return None


def same_type_and_size(game: Game) -> Said | None:
    piles = game.placeable_piles()
    for new in piles:
        for old in piles:
            if (new.kind != old.kind or new.size != old.size) and game.beats(new, old):
                return oracle("overwrites_other_shape", new=new, old=old)
    return None


def runs_consecutive(game: Game) -> Said | None:
    ranks = game.ruleset.ranks
    for a, b in pairwise(ranks):
        if b == a + 1 and not game.follows(a, b):
            return oracle("not_following", a=a, b=b)
        if b < a and game.follows(a, b):
            return oracle("following_down", a=a, b=b)
    return None


def listed_eight(cards: tuple[int, ...]) -> Callable[[Game], Said | None]:
    def ask(game: Game) -> Said | None:
        if not _has(game, *cards) or len(cards) > game.ruleset.max_cards_per_turn:
            return None
        kind = "single" if len(cards) == 1 else ("set" if len(set(cards)) == 1 else "run")
        if kind == "set" and game.copies < len(cards):
            return None
        move = Move("overwrite", tuple(sorted(cards)))
        legal_somewhere = False
        for old in game.placeable_piles():
            if old.kind != kind or old.size != len(cards) or EIGHT in old.cards:
                continue
            state = _state(game, old)
            option = game.option(state, move)
            if option is None:
                continue
            legal_somewhere = True
            if game.rule_of_8(option, state):
                return None
        if not legal_somewhere:
            return None
        return oracle("eight_never", cards=",".join(map(str, cards)))

    return ask


def opening_never(game: Game) -> Said | None:
    state = _state(game)
    for pile in game.placeable_piles():
        option = game.option(state, Move("lead", tuple(sorted(pile.cards))))
        if option is not None and game.rule_of_8(option, state):
            return oracle("opening_eight", pile=pile)
    return None


def _probe_tricks(game: Game) -> list[tuple[tuple[Play, ...], int]]:
    """Small tricks and their last placer."""
    p = game.players
    out: list[tuple[tuple[Play, ...], int]] = []
    for s in range(p):
        a, b = s, (s + 1) % p
        lead, over, add = Move("lead", (1,)), Move("overwrite", (2,)), Move("add", (1,))
        out.append(((Play(a, lead), Play(b, over)), b))
        out.append(((Play(a, lead), Play(b, PASS)), a))
        out.append(((Play(a, lead), Play(b, add), Play(a, PASS)), b))
    return out


def last_placer_wins(game: Game) -> Said | None:
    for trick, last in _probe_tricks(game):
        for reason in TrickEndReason:
            winner = game.trick_winner(trick, (reason,))
            if winner != last:
                # Seats named as the report numbers players (from 1): "the player who opened it"
                # may also be the player after the last placer, so say which seat it is.
                led = trick[0].player + 1
                to = oracle("player", seat=winner + 1) if winner is not None else oracle("no_player")
                return oracle("trick_goes_to", ended=ENDED_BY[reason], led=led, last=last + 1, winner=to)
    return None


#: The closing card of a set at each player count, as each text gives it: German "die vierte ...
#: (oder die fünfte in einem Spiel mit 5+ Spielern)", Spanish "la cuarta ... (o la quinta en una
#: partida de más de 5 jugadores)"; the copies of deck.copies follow the same split.
def _by_the_texts(players: int) -> set[int]:
    german = 5 if players >= 5 else 4
    spanish = 5 if players > 5 else 4
    return {german, spanish}


def _either(allowed: set[int]) -> int | Said:
    """The closing sizes (or copies) the texts allow: one, or either of two."""
    low, *high = sorted(allowed)
    return oracle("either", first=low, second=high[0]) if high else low


def set_closes(game: Game) -> Said | None:
    allowed = _by_the_texts(game.players)
    rank = game.ruleset.ranks[0]
    closing = None
    for size in range(1, 9):
        reason = game.closes(Pile("set", (rank,) * size), "add")
        if reason is not None:
            if reason != TrickEndReason.SET_CLOSED:
                return oracle("set_closes_by", size=size, ended=ENDED_BY[reason])
            closing = size
            break
    if closing not in allowed:
        want = _either(allowed)
        if closing is None:
            return oracle("set_never_closes", players=game.players, want=want)
        return oracle("set_closes_at", players=game.players, closing=closing, want=want)
    return None


def closing_card_placeable(kind: str) -> Callable[[Game], Said | None]:
    """The card that closes a set (or a run) can be placed: some add, onto a pile a turn placed or
    earlier adds lengthened, makes a set (a run) of the size at which it closes, where the deck
    holds that many copies."""
    return lambda game: _closing_placed(game, kind)


def _closing_placed(game: Game, kind: str) -> Said | None:
    start = game.ruleset.ranks[0]
    closing = None
    for size in range(2, 9):
        cards = (start,) * size if kind == "set" else game.runs_from(start, size)
        if cards is not None and game.closes(Pile(kind, cards), "add") is not None:  # type: ignore[arg-type]
            closing = size
            break
    if closing is None or (kind == "set" and closing > game.copies):
        return None
    # From every pile a turn places, then from every pile earlier adds made of it ('Eine oder
    # mehrere Karten' in one add or over several), stopping at the first add that closes.
    frontier = [pile for pile in game.placeable_piles() if pile.kind == kind]
    seen = set(frontier)
    while frontier:
        grown = []
        for pile in frontier:
            for _, new in game.add_options(pile):
                if new.kind != kind:
                    continue
                if new.size == closing:
                    return None
                if new.size < closing and new not in seen:
                    seen.add(new)
                    grown.append(new)
        frontier = grown
    return oracle("closing_unplaced", kind=kind, closing=closing)


def run_closes(game: Game) -> Said | None:
    start = game.ruleset.ranks[0]
    five, four = game.runs_from(start, 5), game.runs_from(start, 4)
    if five is None or four is None:
        return None
    if game.closes(Pile("run", four), "add") is not None:
        return oracle("run_closes_at_four")
    if game.closes(Pile("run", five), "add") != TrickEndReason.RUN_CLOSED:
        return oracle("run_open_at_five")
    return None


def deck_copies(game: Game) -> Said | None:
    allowed = _by_the_texts(game.players)
    if game.copies not in allowed:
        return oracle("copies", copies=game.copies, players=game.players, want=_either(allowed))
    return None


def penalty_adds_up(game: Game) -> Said | None:
    codec = game.codec
    if game.penalty(0) != 0:
        return oracle("empty_hand_scores")
    units = {r: codec.unit(r) for r in game.ruleset.ranks}
    for a in game.ruleset.ranks:
        for b in game.ruleset.ranks:
            if a <= b and game.penalty(units[a] + units[b]) != game.penalty(units[a]) + game.penalty(
                units[b]
            ):
                return oracle("hand_not_its_cards", a=a, b=b)
    return None


def eight_most_points(game: Game) -> Said | None:
    if EIGHT not in game.ruleset.ranks:
        return None
    eight = game.penalty(game.codec.unit(EIGHT))
    for r in game.ruleset.ranks:
        if r != EIGHT and game.penalty(game.codec.unit(r)) >= eight:
            return oracle("eight_not_most", rank=r)
    return None


def leads_as_typed(game: Game) -> Said | None:
    """Every pile the texts define can be led as what it is: any single card; two or more cards of
    one rank (a set); two or more cards of ranks whose numbers follow one another with no gap
    between them (a run: the gaps at 6 and 10 are run_gaps' question, so no run across one is
    asked about), up to the cards a turn places and the copies the deck holds."""
    state = _state(game)
    ranks = game.ruleset.ranks
    wanted: list[tuple[str, tuple[int, ...]]] = [("single", (r,)) for r in ranks]
    for size in range(2, game.ruleset.max_cards_per_turn + 1):
        if size <= game.copies:
            wanted += [("set", (r,) * size) for r in ranks]
        wanted += [
            ("run", tuple(range(r, r + size))) for r in ranks if all(r + i in ranks for i in range(size))
        ]
    for kind, cards in wanted:
        option = game.option(state, Move("lead", cards))
        if option is None or option.pile.kind != kind:
            return oracle("not_led_as", cards=",".join(map(str, cards)), kind=kind)
    # "Ein führender Spieler muss immer eine, zwei oder drei Karten spielen": never one more.
    more = game.ruleset.max_cards_per_turn + 1  # the spec's number, not what the rules let a turn place
    if more <= game.copies and game.option(state, Move("lead", (ranks[0],) * more)) is not None:
        return oracle("led_too_many", more=more)
    return None


def holding(game: Game, state: State, cards: Sequence[int]) -> State:
    """`state` with the player to move holding `cards` and one card more, in a trick that the
    central pile opened (led by the player before): what an engine asked about one play needs
    (the interpreter reads the opening pile from the trick, the reference engine from
    opening_has_eight, which the questions set)."""
    hands = list(state.hands)
    hands[state.to_move] = game.codec.pack((*cards, game.ruleset.ranks[0]))
    trick, last = state.trick, state.last_player
    if state.pile is not None and not trick:
        last = (state.to_move - 1) % game.players
        trick = (Play(last, Move("lead", tuple(state.pile.cards))),)
    return replace(state, hands=tuple(hands), trick=trick, last_player=last)


def _one_card_round(game: Game) -> tuple[list[list[int]], list[int]]:
    """A round of one card each, and the points each card scores: seat i holds the i-th rank
    (round the ranks, so that no rank is dealt more often than it exists)."""
    ranks = game.ruleset.ranks
    hands = [[ranks[i % len(ranks)]] for i in range(game.players)]
    return hands, [game.penalty(game.codec.unit(hand[0])) for hand in hands]


def _played_out(game: Game, hands: list[list[int]], scores: list[int]) -> tuple[State, tuple[object, ...]]:
    """The round of `hands` from `scores`, played out: the leader goes out with its single card."""
    state = game.start_round(hands, 0, scores)
    return game.apply(state, Move("lead", (hands[0][0],)))


def lowest_wins(game: Game) -> Said | None:
    """The player or players with the fewest points win the match ("Der/die Spieler mit den
    wenigsten Punkten gewinnt/gewinnen"): a round that ends the match is played out (see
    `match_ends_at_score`), and the winners are every player on the lowest score."""
    target = game.ruleset.match_end_score
    hands, points = _one_card_round(game)
    if not target or points[1] >= target or points[1] < 0:
        return None
    # The others start the round on every score below the match-end score, so that the lowest
    # score at the end is every such number once.
    for low in range(target - max(points)):
        _, events = _played_out(game, hands, [low, target - points[1], *([low] * (game.players - 2))])
        ends = [e for e in events if isinstance(e, MatchEnd)]
        if not ends:
            return None  # the match-end score's own question says so
        final = ends[0].scores
        lowest = tuple(seat for seat, score in enumerate(final) if score == min(final))
        if tuple(ends[0].winners) != lowest:
            return oracle("won_by", won=str(list(ends[0].winners)), lowest=str(list(lowest)))
    return None


def match_ends_at_score(game: Game) -> Said | None:
    """The match ends after the round in which a player reaches the match-end score ("20 oder mehr
    Punkte"), and goes on after one that leaves every player below it: a round is played out (the
    leader goes out with a single card) leaving player 1 on every score up to the match-end score
    with the others on none, then player 1 one short of it and on it with the others on every
    lower score."""
    target = game.ruleset.match_end_score
    hands, points = _one_card_round(game)
    if not target or any(p < 0 or p >= target for p in points[1:]):
        return None
    others = max(points[2:], default=0)
    cases = [(after, 0) for after in range(points[1], target + 1)]
    cases += [(after, low) for after in (target - 1, target) for low in range(1, target - others)]
    for after, low in cases:
        start = [low, after - points[1], *([low] * (game.players - 2))]
        ended, _ = _played_out(game, hands, start)
        final = [start[0], after, *(low + p for p in points[2:])]
        reached = max(final) >= target
        if (ended.phase == "match_over") != reached:
            rest = oracle("others_on", low=low) if low else ""
            return oracle("match_goes_on" if reached else "match_ends", after=after, rest=rest)
    return None
