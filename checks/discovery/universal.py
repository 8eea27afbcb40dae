"""The oracle's questions of clauses that speak of every case: asked of every case, at every table.

A clause such as "Hinzufügen: Eine oder mehrere Karten an den zentralen Stapel anlegen, um
Sätze/Läufe zu verlängern" speaks of every set and every run, whatever their ranks, whoever adds
and however many cards the adder keeps. Asked of one set and one run only, it kills no mutant that
adds an exception on a rank ("... unless the run holds an 11") or on the moment ("... unless the
adder keeps two cards"), and discovery reported such mutants as silences the texts answer. So each
question here is asked of every pile its clause speaks of, and of one such play in every moment a
rule may read (each seat to move, one to three cards kept, players who passed, the trick opened by
another pile):

- `adds_lengthen_every`: every set and run below the size at which it ends the trick can be
  lengthened by one, two or three cards (as many as a turn places), where the deck holds them;
  a run only where it can grow at both ends, so that which end may be added to (add_run_ends)
  never decides;
- `overwrite_every`: a pile may be overwritten by every pile of its type and size that ranks
  higher, and by nothing else ("Einen höherrangigen Stapel, der dem Typ und der Größe ...
  entspricht");
- `ranked_every`: of two different piles of one type and size, one ranks higher (the clauses rank
  piles; which run ranks higher is run_order's question, that one does is not);
- `closes_every`: adding the card that ends a set or a run (the fourth or fifth of a set, the
  fifth of a run) ends the trick that way, for every rank;
- `eight_every`: every listed play of an 8 that overwrites a pile without an 8, in a trick opened
  without an 8, is the Rule of 8;
- `goes_on_every`: a play that is none of the four endings does not end the trick, nor does a
  pass that leaves two players or more in it, in every moment.

Like the rest of the oracle they read no variation point: where the texts pull apart (which end of
a run, which run ranks higher, adding past the closing card, leading or overwriting to the closing
size, an added 8) they ask nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ...engine import PASS, Game, Move, Pile, Play, State, TrickEndReason
from ...engine.state import TrickEnd, new_state
from ...spec import SpecError
from .said import Said, universal

EIGHT = 8
#: The listed plays of an 8 ("eine einzelne 8, ein Satz 8, ein Lauf mit 7,8 oder 7,8,9").
LISTED_EIGHTS: tuple[tuple[int, ...], ...] = (
    (EIGHT,),
    (EIGHT, EIGHT),
    (EIGHT, EIGHT, EIGHT),
    (7, EIGHT),
    (7, EIGHT, 9),
)
#: How many cards the mover keeps after the play, in the moments asked (none would end the round).
KEPT = (1, 2, 3)


@dataclass(frozen=True)
class Moment:
    """What a rule may read of the moment of a play besides the piles: who moves, how many cards
    they keep, who passed (a bit mask of seats), whether the trick was opened by a shorter pile."""

    seat: int = 0
    kept: int = 1
    passed: int = 0
    reopened: bool = False

    def said(self) -> Said | str:
        """What sets this moment apart from the first, for an answer's `{moment}` blank ("" for
        the first moment itself)."""
        said = []
        if self.seat:
            said.append(universal("seat_to_move", seat=self.seat))
        if self.kept != 1:
            said.append(universal("keeping", kept=self.kept))
        if self.passed:
            said.append(universal("passed"))
        if self.reopened:
            said.append(universal("reopened"))
        return universal("moment", parts=tuple(said)) if said else ""


FIRST = Moment()


def table(
    game: Game,
    pile: Pile | None,
    cards: Sequence[int],
    moment: Moment = FIRST,
    opening: Pile | None = None,
) -> State:
    """A moment of a trick: `moment.seat` to move holding `cards` and `moment.kept` cards more, onto `pile`
    (None: leading), in a trick the seat before opened with `opening` (default: the pile itself;
    another opening is then played onto by the seat before that), with the seats of the bit mask
    `passed` out of the trick. What an engine asked about one play needs: the interpreter reads the
    opening pile from the trick, the reference engine from opening_has_eight."""
    players, seat = game.players, moment.seat
    ranks = game.ruleset.ranks
    start = game.start_round([[ranks[s % len(ranks)]] for s in range(players)], seat)
    trick: tuple[Play, ...] = ()
    last = -1
    has_eight = False
    if pile is not None:
        last = (seat - 1) % players
        first = opening if opening is not None else pile
        has_eight = EIGHT in first.cards
        if first == pile:
            trick = (Play(last, Move("lead", tuple(sorted(pile.cards)))),)
        else:
            before = (seat - 2) % players
            # The pile lengthened the opening (an add of the cards it has more) or overwrote it.
            added = list(pile.cards)
            for card in first.cards if pile.size > first.size else ():
                added.remove(card)
            second = Move("add" if pile.size > first.size else "overwrite", tuple(sorted(added)))
            trick = (Play(before, Move("lead", tuple(sorted(first.cards)))), Play(last, second))
    out = moment.passed & ~(1 << seat) & ~(1 << last if last >= 0 else 0)
    if trick:
        # They passed after the last placer placed (a pass in a row before the mover's move).
        trick = (*trick, *(Play(s, PASS) for s in range(players) if out >> s & 1))
    hands = _held(game, start.hands, seat, cards, moment.kept)
    # The universal questions build hundreds of thousands of these tables per discovery run:
    # `new_state` is several times faster than dataclasses.replace (a third of the run's time).
    s = start
    return new_state(
        players, hands, seat, pile, last, out, has_eight, trick,
        s.cleared, s.aside, s.scores, s.round, s.round_leader, s.phase, s.seed, s.out,
    )  # fmt: skip


def holding(game: Game, state: State, cards: Sequence[int], kept: int = 1) -> State:
    """`state` with the player to move holding `cards` and `kept` cards more (of other ranks than
    the cards and the 8)."""
    s = state
    hands = _held(game, s.hands, s.to_move, cards, kept)
    return new_state(
        s.players, hands, s.to_move, s.pile, s.last_player, s.passed, s.opening_has_eight, s.trick,
        s.cleared, s.aside, s.scores, s.round, s.round_leader, s.phase, s.seed, s.out,
    )  # fmt: skip


def _held(game: Game, hands: tuple[int, ...], seat: int, cards: Sequence[int], kept: int) -> tuple[int, ...]:
    """`hands` with `seat` holding `cards` and `kept` cards more (of other ranks than the cards and
    the 8), packed."""
    ranks = game.ruleset.ranks
    spare = [r for r in ranks if r not in cards and r != EIGHT] or list(ranks)
    hand = (*cards, *(spare[i % len(spare)] for i in range(kept)))
    return (*hands[:seat], game.codec.pack(hand), *hands[seat + 1 :])


def reasons_of(game: Game, state: State, move: Move) -> tuple[TrickEndReason, ...] | None:
    """Why playing `move` in `state` ends the trick (empty: it goes on), or None where the move
    is not legal there."""
    if move != PASS and game.option(state, move) is None:
        return None
    _, events = game.apply(state, move)
    return next((e.reasons for e in events if isinstance(e, TrickEnd)), ())


def moments(game: Game) -> tuple[Moment, ...]:
    """The moments one play is asked in: the first, then each other seat to move, each number of
    cards kept, and every other player but the one who placed last passed (one player or more
    out of the trick at 3 players or more)."""
    out = [FIRST, *(Moment(seat=seat) for seat in range(1, game.players))]
    out += [Moment(kept=kept) for kept in KEPT[1:]]
    if game.players >= 3:
        # Seat 0 moves and the last seat placed last: everyone between has passed.
        out.append(Moment(passed=sum(1 << s for s in range(1, game.players - 1))))
    return tuple(out)


def _growths(game: Game, pile: Pile) -> Iterator[int]:
    """How many cards an add onto `pile` can place without passing the closing size (adding past
    it is add_past_closing's question) or the copies of a rank."""
    closing = game.closing_size(pile.kind)
    for count in range(1, game.ruleset.max_cards_per_turn + 1):
        if closing is not None and pile.size + count > closing:
            return
        if pile.kind == "set" and pile.size + count > game.copies:
            return
        yield count


def _chain(game: Game, start: int, count: int, forward: bool) -> bool:
    """Whether `count` ranks follow `start` (forward) or precede it, one after another."""
    ranks = game.ruleset.ranks
    at = start
    for _ in range(count):
        nxt = next((r for r in ranks if (game.follows(at, r) if forward else game.follows(r, at))), None)
        if nxt is None:
            return False
        at = nxt
    return True


def growing(game: Game) -> Iterator[Pile]:
    """Every set and run of two cards or more that stays on the table (below the size at which it
    ends the trick; a set below the copies of its rank), of any size, not only those one turn
    places."""
    ranks = game.ruleset.ranks
    for kind in ("set", "run"):
        closing = game.closing_size(kind)
        top = closing - 1 if closing is not None else game.ruleset.max_cards_per_turn
        if kind == "set":
            top = min(top, game.copies - 1)
        for size in range(2, top + 1):
            for start in ranks:
                cards = (start,) * size if kind == "set" else game.runs_from(start, size)
                if cards is not None:
                    yield Pile("set" if kind == "set" else "run", cards)


def adds_lengthen_every(game: Game) -> Said | None:
    """Every set and run below its closing size can be lengthened by every count of cards a turn
    places, up to the closing size (runs that can grow at both ends)."""
    for pile in growing(game):
        adds = [m for m in game.placing_moves(pile) if m.action == "add"]
        state = table(game, pile, ())
        for count in _growths(game, pile):
            if pile.kind == "run" and not (
                _chain(game, pile.cards[-1], count, True) and _chain(game, pile.cards[0], count, False)
            ):
                continue
            grown = False
            for move in adds:
                if len(move.cards) != count:
                    continue
                option = game.option(state, move)
                if (
                    option is not None
                    and option.pile.kind == pile.kind
                    and option.pile.size == pile.size + count
                ):
                    grown = True
                    break
            if not grown:
                which = "no_add_lengthens" if count > 1 else "no_add_lengthens_one"
                return universal(which, players=game.players, count=count, pile=pile)
    return None


def _same_shape(game: Game) -> dict[tuple[str, int], list[Pile]]:
    """The piles a turn can place, by type and size."""
    out: dict[tuple[str, int], list[Pile]] = {}
    for pile in game.placeable_piles():
        if pile.size <= game.ruleset.max_cards_per_turn:
            out.setdefault((pile.kind, pile.size), []).append(pile)
    return out


def overwrite_every(game: Game) -> Said | None:
    """Every pile that stays on the table (below its closing size) may be overwritten by every
    pile of its type and size that ranks higher, and by no other of them."""
    for (kind, size), piles in _same_shape(game).items():
        closing = game.closing_size(kind)
        if closing is not None and size >= closing:
            continue
        for old in piles:
            state = table(game, old, ())
            for new in piles:
                if new == old:
                    continue
                legal = game.option(state, Move("overwrite", tuple(sorted(new.cards)))) is not None
                if legal != game.beats(new, old):
                    which = "may_not_overwrite" if not legal else "may_overwrite"
                    return universal(which, new=new, old=old)
    # A pile larger than a turn places (a set of four at five players) has no pile of its size to
    # be overwritten by: not by a pile a turn places, nor by one of its own size ("eine, zwei oder
    # drei Karten" in every turn).
    placeable = game.placeable_piles()
    turn = game.ruleset.max_cards_per_turn
    piles = list(growing(game))
    for old in piles:
        if old.size <= turn:
            continue
        state = table(game, old, ())
        own = [p for p in piles if p.kind == old.kind and p.size == old.size and p != old]
        for new in (*placeable, *own):
            if game.option(state, Move("overwrite", tuple(sorted(new.cards)))) is not None:
                if new.size != old.size:
                    return universal("overwrites_other_size", new=new, old=old)
                return universal("overwrites_past_turn", new=new, old=old, turn=turn)
    return None


def ranked_every(game: Game) -> Said | None:
    """Of two different piles of one type and size, exactly one ranks higher."""
    for piles in _same_shape(game).values():
        for i, a in enumerate(piles):
            for b in piles[i + 1 :]:
                ab, ba = game.beats(a, b), game.beats(b, a)
                if ab == ba:
                    return universal("each_ranks_higher" if ab else "neither_ranks_higher", a=a, b=b)
    return None


def _closing_adds(game: Game, kind: str) -> Iterator[tuple[Pile, Move]]:
    """Every add onto a set or run of `kind` below its closing size that makes it exactly the
    closing size (every rank of a set, every run, one card or more)."""
    closing = game.closing_size(kind)
    if closing is None or closing < 2 or (kind == "set" and closing > game.copies):
        return
    for pile in growing(game):
        if pile.kind != kind:
            continue
        state = table(game, pile, ())
        for move in game.placing_moves(pile):
            if move.action != "add":
                continue
            option = game.option(state, move)
            if option is not None and option.pile.kind == kind and option.pile.size == closing:
                yield pile, move


def _closes_every(kind: str, reason: TrickEndReason) -> Callable[[Game], Said | None]:
    def ask(game: Game) -> Said | None:
        first, opened = True, False
        for pile, move in _closing_adds(game, kind):
            asked = list(moments(game)) if first else [FIRST]
            if not opened and pile.size >= 3:
                # The trick opened by the pile one card shorter, which an add lengthened.
                asked.append(Moment(reopened=True))
                opened = True
            first = False
            for moment in asked:
                shorter = Pile(pile.kind, pile.cards[:-1]) if moment.reopened else None
                reasons = reasons_of(game, table(game, pile, move.cards, moment, shorter), move)
                if reasons is not None and reason not in reasons:
                    cards = ",".join(map(str, move.cards))
                    return universal("add_not_closing", cards=cards, pile=pile, moment=moment.said())
        return None

    return ask


closes_set_every = _closes_every("set", TrickEndReason.SET_CLOSED)
closes_run_every = _closes_every("run", TrickEndReason.RUN_CLOSED)


def eight_every(game: Game) -> Said | None:
    """Every listed play of an 8, overwriting a pile without an 8 in a trick opened by it, is the
    Rule of 8, the first such play in every moment too; and whether any play of an 8 is the Rule
    of 8 does not depend on which pile without an 8 opened the trick ("funktioniert nur dann
    nicht, wenn eine 8 im Eröffnungsstapel ... enthalten ist": no other opening matters)."""
    first = True
    for cards in LISTED_EIGHTS:
        if len(cards) > game.ruleset.max_cards_per_turn or not all(r in game.ruleset.ranks for r in cards):
            continue
        if cards.count(EIGHT) > game.copies:
            continue
        move = Move("overwrite", tuple(sorted(cards)))
        for old in game.placeable_piles():
            if EIGHT in old.cards or old.size != len(cards):
                continue
            for moment in moments(game) if first else (FIRST,):
                state = table(game, old, cards, moment)
                reasons = reasons_of(game, state, move)
                if reasons is None:
                    break  # it does not overwrite this pile
                first = False
                if TrickEndReason.RULE_OF_8 not in reasons:
                    listed = ",".join(map(str, cards))
                    return universal("eight_not_rule", old=old, cards=listed, moment=moment.said())
    return _eight_whatever_opened(game)


def _eight_whatever_opened(game: Game) -> Said | None:
    """Every play of an 8 onto a pile without an 8 is the Rule of 8 in a trick the pile opened
    exactly when it is in a trick another pile without an 8 opened (a pile the first overwrote)."""
    piles = [p for p in game.placeable_piles() if EIGHT not in p.cards]
    for pile in piles:
        before = next(
            (
                o
                for o in piles
                if o != pile and o.size == pile.size and o.kind == pile.kind and game.beats(pile, o)
            ),
            None,
        )
        if before is None:
            continue
        for move in game.placing_moves(pile):
            if EIGHT not in move.cards:
                continue
            own = reasons_of(game, table(game, pile, move.cards), move)
            other = reasons_of(game, table(game, pile, move.cards, FIRST, before), move)
            if own is None or other is None:
                continue
            if (TrickEndReason.RULE_OF_8 in own) != (TrickEndReason.RULE_OF_8 in other):
                which = "eight_by_opening" if TrickEndReason.RULE_OF_8 in own else "eight_not_by_opening"
                return universal(which, move=move, pile=pile, before=before)
    return None


CLOSED = {TrickEndReason.SET_CLOSED: "set", TrickEndReason.RUN_CLOSED: "run"}


def goes_on_every(game: Game) -> Said | None:
    """A play that is none of the four endings (no 8 placed, the new pile below its closing size)
    does not end the trick: every lead, overwrite and add, also onto a pile that holds an 8 (an
    overwrite, which leaves none), and the first such play in every moment; a play of an 8 below
    the closing size does not end it as a closed set or run; nor does a pass that leaves two
    players or more in the trick, while one that leaves one player ends it."""
    first = True
    for pile in [None, *game.placeable_piles()]:
        base = table(game, pile, ())
        for move in game.placing_moves(pile):
            option = game.option(base, move)
            if option is None:
                continue
            closing = game.closing_size(option.pile.kind)
            if closing is not None and option.pile.size >= closing:
                continue
            if EIGHT in move.cards or (
                pile is not None and EIGHT in pile.cards and move.action != "overwrite"
            ):
                # The Rule of 8 may end it (which plays are the Rule of 8 is the texts' question),
                # but not as a set or run closed below its size.
                ended = reasons_of(game, holding(game, base, move.cards), move) or ()
                closed = [CLOSED[r] for r in ended if r in CLOSED]
                if closed:
                    return universal("closed_below_size", move=move, onto=_onto(pile), kind=closed[0])
                continue
            asked = moments(game) if first and pile is not None else (FIRST,)
            first = first and pile is None
            for moment in asked:
                state = (
                    holding(game, base, move.cards)
                    if moment == FIRST
                    else table(game, pile, move.cards, moment)
                )
                # Whether it ends is all that is asked here: ends_trick answers without playing it.
                if game.ends_trick(state, move):
                    return universal("ends_unlisted", move=move, onto=_onto(pile), moment=moment.said())
    return _pass_goes_on(game)


def _onto(pile: Pile | None) -> Said:
    return universal("empty_table") if pile is None else universal("the_pile", pile=pile)


def _pass_goes_on(game: Game) -> Said | None:
    """A pass that leaves two players or more in the trick does not end it: onto every pile, and
    onto the first in every moment (after another pass too, at four players or more); a pass that
    leaves one player in ends it ("Alle bis auf einen Spieler passen")."""
    piles = game.placeable_piles()
    last_in = sum(1 << s for s in range(1, game.players - 1))  # seat 0 passes, the last seat placed
    state = table(game, piles[0], (), Moment(passed=last_in))
    if _may_pass(game, state) and TrickEndReason.ALL_PASSED not in (reasons_of(game, state, PASS) or ()):
        return universal("last_pass_goes_on", pile=piles[0])
    if game.players < 3:
        return None
    every = [m for m in moments(game) if not m.passed]
    if game.players >= 4:
        every.append(Moment(passed=1 << 1))  # one passed before: a second pass in a row
    for index, pile in enumerate(piles):
        for moment in every if index == 0 else [FIRST]:
            state = table(game, pile, (), moment)
            if not _may_pass(game, state):
                break  # whether a player may pass is another clause's question
            if reasons_of(game, state, PASS):
                return universal("pass_ends", pile=pile, still_in=game.players - 1)
    return None


def _may_pass(game: Game, state: State) -> bool:
    """Whether the player to move may pass; False where the rules leave them no move at all
    (the play invariants say so, not these questions)."""
    try:
        return PASS in game.legal_moves(state)
    except SpecError:
        return False
