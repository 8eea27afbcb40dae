"""The spec interpreter: plays whatever game a ruleset's rules state.

`SpecEngine(ruleset, players)` has the reference engine's public state API (`new_match`,
`next_round`, `start_round`, `play_from`, `legal_moves`, `apply`, `to_json`, `from_json`, ...) and
the same values (`State`, `Move`, `Pile`, events), so bots, simulate, the protocol server, vectors,
fuzz and the impact estimates run it unchanged. It knows nothing of 535: every decision of play is
a part of a rule (five35.spec.lang), compiled to closures once per ruleset and player count
(`Ruleset.program`). Its skeleton is the one every climbing game of the rule language shares:

- a round is dealt (the `deck` and `deal` rules; the first leader from `leaders.first`);
- a turn is a lead (empty table), an overwrite or an add (cards placed, the `pile` kinds deciding
  what the cards make), or a pass; each is legal where its rule's `may` holds;
- after a move, every `trick_end` rule asked after it (`after: play` or `pass`) is tried: those that
  hold end the trick, with their reasons, and `trick_winner` names who leads next;
- `round_end` after a placing move ends the round; `scoring` gives each hand's points, which add
  up, and `match_end` says whether the match is over and who won.

What depends only on the central pile (which cards make which pile, every move onto a pile) is
worked out the first time a pile is met and kept; the rest is asked of the closures at each step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from typing import Any, TypeVar

from ..spec import Ruleset, SpecError
from ..spec.lang.compile import Program, RuleDef, RuleError
from .cards import MAX_COPIES, CardCodec, DealError, ranks_text
from .deal import dealt_state, seated_leader, shuffled_hands
from .serial import state_from_json, state_to_json
from .state import (
    PASS,
    Event,
    IllegalMove,
    MatchEnd,
    Move,
    Pile,
    Play,
    Position,
    RoundEnd,
    State,
    TrickEnd,
    TrickEndReason,
    evolve,
)

#: Which engine plays: the words every output uses for it.
NAME = "the spec interpreter"

_REASONS = {r.value: r for r in TrickEndReason}


def _reason(rule: RuleDef) -> TrickEndReason:
    """The reason a trick-end rule gives: one of the texts' four by name, else the rule's own name
    (a house rule's), which the tallies count by that name."""
    name = rule.field("reason") or rule.id
    found = _REASONS.get(name)
    if found is None:
        return name  # type: ignore[return-value]  # a house rule's own reason, counted by name
    return found


class _Option:
    __slots__ = ("move", "need", "pile")

    def __init__(self, move: Move, need: int, pile: Pile) -> None:
        self.move = move
        self.need = need
        self.pile = pile


#: The rules that decide which cards make which pile and every move onto a pile; nothing else
#: (the deal, the turn, the ends of a trick, a round or a match, scoring, passing) is read there.
OPTION_SLOTS = frozenset({"deck", "ranks", "pile", "lead", "overwrite", "add"})


class _Tables:
    """What an engine works out once per pile, shared by every engine whose option rules,
    parameters and player count are the same (the readings of a point that changes scoring
    or the turn, compared side by side, list the same moves)."""

    __slots__ = ("formed", "multisets", "nodes")

    def __init__(self) -> None:
        self.nodes: dict[Pile | None, tuple[tuple[_Option, ...], dict[Move, _Option]]] = {}
        self.multisets: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        self.formed: dict[tuple[int, int], list[tuple[tuple[int, ...], Pile]]] = {}


_TABLES: dict[tuple[Any, ...], _Tables] = {}
#: Tables kept per process; a search over many rulesets starts afresh past this many.
MAX_TABLES = 64

#: Which pile each multiset of cards makes, shared by every engine whose pile kinds, ranks and
#: parameters are the same, and across player counts where nothing they ask reads the count: a
#: search over the readings of every point asks the same cards again under each.
_PILES: dict[tuple[Any, ...], dict[tuple[int, ...], Pile | None]] = {}

T = TypeVar("T")


def _kept(store: dict[tuple[Any, ...], T], key: tuple[Any, ...], make: Callable[[], T]) -> T:
    """`store[key]`, made the first time; the store starts afresh past MAX_TABLES keys."""
    found = store.get(key)
    if found is None:
        if len(store) >= MAX_TABLES:
            store.clear()
        found = store[key] = make()
    return found


def _piles(program: Program, players: int, values: str) -> dict[tuple[int, ...], Pile | None]:
    kinds = tuple(program.slot("pile"))
    ranks = tuple(program.slot("ranks"))
    # pile_of puts every pile's cards in run order through `follows`, whatever the kinds' cards ask.
    asked = [(rule, "cards") for rule in kinds] + [(rule, "follows") for rule in ranks]
    counted = any(program.reads_players(rule, part) for rule, part in asked)
    return _kept(_PILES, (players if counted else None, kinds, ranks, values), dict)


def _tables(program: Program, players: int, values: str) -> _Tables:
    rules = tuple(r for r in program.rules if r.does in OPTION_SLOTS)
    return _kept(_TABLES, (players, rules, values), _Tables)


class SpecEngine:
    """The game a ruleset's rules state, for `players` players."""

    engine_name = NAME

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        ruleset.check_players(players)
        self.ruleset = ruleset
        self.players = players
        try:
            self.program: Program = ruleset.program(players)
        except ValueError as exc:  # a RuleProblem the loader's choices did not meet
            raise SpecError("rules", str(exc)) from None
        p = self.program
        self.codec = CardCodec(ruleset.ranks)
        self.copies = int(p.ask("deck", "copies"))
        if not 1 <= self.copies <= MAX_COPIES:
            raise SpecError(
                "rules.deck.copies", f"{self.copies} copies of a rank (1 to {MAX_COPIES} can be played)"
            )
        self.full_deck = self.codec.pack([r for r in ruleset.ranks for _ in range(self.copies)])
        deck_size = self.copies * len(ruleset.ranks)
        self.deck_size = deck_size
        # As the reference engine does, a deal the deck cannot supply (or the rules do not give
        # for this table) fails when it is dealt: a table can still be set up from given hands
        # (scenes, the protocol, a search over every table size).
        self._deal_error: SpecError | None = None
        try:
            self.size_dealt = int(p.ask("deal", "hand_size", deck_size=deck_size))
        except RuleError as exc:
            self.size_dealt = 0
            self._deal_error = SpecError("rules.deal.hand_size", str(exc))
        if self._deal_error is None and not 0 < self.size_dealt * players <= deck_size:
            self._deal_error = SpecError(
                "rules.deal.hand_size", f"{players} hands of {self.size_dealt} from a deck of {deck_size}"
            )
        self._kinds = [(r, r.field("kind") or "") for r in p.slot("pile")]
        self._kind_index = {kind: i for i, (_r, kind) in enumerate(self._kinds)}
        self._lead = p.one("lead")
        self._overwrite = p.one("overwrite")
        self._add = p.one("add")
        self._pass = p.one("pass")
        self._after_play = [r for r in p.slot("trick_end") if r.field("after") == "play"]
        self._after_pass = [r for r in p.slot("trick_end") if r.field("after") == "pass"]
        bounds = [p.card_bounds(r) for r in (self._lead, self._overwrite, self._add) if r is not None]
        self.max_cards = max((hi for _lo, hi in bounds), default=0)
        values = repr(sorted(p.values.items()))
        tables = _tables(p, players, values)
        self._piles = _piles(p, players, values)
        self._nodes: dict[Pile | None, tuple[tuple[_Option, ...], dict[Move, _Option]]] = tables.nodes
        self._multisets_of: dict[tuple[int, int], list[tuple[int, ...]]] = tables.multisets
        self._formed_of: dict[tuple[int, int], list[tuple[tuple[int, ...], Pile]]] = tables.formed
        self._deck = tuple(self.codec.cards(self.full_deck))
        self._env = {"players": players}
        round_end = p.one("round_end")
        assert round_end is not None  # the loader requires exactly one
        self._round_end = p.cached(round_end, "ends")
        # Answers that depend on the table alone (the pass rule reads only `players` and whether
        # the player leads; the turn and trick-winner rules only seats), remembered as they are
        # first asked, so that a rule error still surfaces where play first needs the rule.
        self._may_pass_memo: dict[bool, bool] = {}
        self._pass_out: bool | None = None
        self._next_memo: dict[int, int] = {}
        self._winner_memo: dict[tuple[int, int], int] = {}
        self._ends_after_play = [(p.cached(r, "ends"), _reason(r)) for r in self._after_play]
        self._ends_after_pass = [(p.cached(r, "ends"), _reason(r)) for r in self._after_pass]

    # ---- what cards make -----------------------------------------------------------------------

    def pile_of(self, cards: Sequence[int]) -> Pile | None:
        """The pile these cards make (its kind, its cards in run order where they form a chain),
        or None where no kind's `cards` part holds. Two kinds holding at once is a spec error."""
        key = tuple(sorted(cards))
        if key in self._piles:
            return self._piles[key]
        found: Pile | None = None
        first: RuleDef | None = None
        for rule, kind in self._kinds:
            if self.program.fn(rule, "cards")({**self._env, "cards": key, "size": len(key)}):
                if first is not None:
                    raise SpecError(
                        f"rules.{rule.id}.cards",
                        f"the cards {','.join(map(str, key))} are both a {first.field('kind')} "
                        f"(rule {first.id}) and a {kind}: a pile has one kind",
                    )
                first = rule
                order = self.program.chain_order(key) or key
                found = Pile(kind, order)  # type: ignore[arg-type]
        self._piles[key] = found
        return found

    def _multisets(self, low: int, high: int) -> list[tuple[int, ...]]:
        # Every node of a lead, an overwrite or an add walks the same multisets: listed once.
        known = self._multisets_of.get((low, high))
        if known is not None:
            return known
        out: list[tuple[int, ...]] = []
        for k in range(max(low, 1), min(high, self.copies * len(self.ruleset.ranks)) + 1):
            for cards in combinations_with_replacement(self.ruleset.ranks, k):
                if all(cards.count(c) <= self.copies for c in set(cards)):
                    out.append(cards)
        self._multisets_of[(low, high)] = out
        return out

    def _formed(self, low: int, high: int) -> list[tuple[tuple[int, ...], Pile]]:
        """The multisets within these bounds that make a pile, with it: what a lead or an
        overwrite may place is one of them whatever the pile faced, so each node asks only these."""
        known = self._formed_of.get((low, high))
        if known is not None:
            return known
        out = [
            (cards, pile) for cards in self._multisets(low, high) if (pile := self.pile_of(cards)) is not None
        ]
        self._formed_of[(low, high)] = out
        return out

    def _sort_key(self, pile: Pile) -> tuple[int, int, tuple[int, ...]]:
        order = self.program._p_order
        return (self._kind_index.get(pile.kind, 0), pile.size, tuple(order(c) for c in pile.cards))

    def placeable_piles(self) -> list[Pile]:
        """Every pile a lead can place, in the engine's move order."""
        return [o.pile for o in self._node(None)[0]]

    def _node(self, pile: Pile | None) -> tuple[tuple[_Option, ...], dict[Move, _Option]]:
        node = self._nodes.get(pile)
        if node is not None:
            return node
        options: list[tuple[tuple[Any, ...], _Option]] = []
        pack = self.codec.pack
        if pile is None:
            rule = self._lead
            if rule is not None:
                may = self.program.fn(rule, "may")
                for cards, new in self._formed(*self.program.card_bounds(rule)):
                    if may({**self._env, "new": new, "placed": cards}):
                        options.append((self._sort_key(new), _Option(Move("lead", cards), pack(cards), new)))
        else:
            if self._overwrite is not None:
                may = self.program.fn(self._overwrite, "may")
                for cards, new in self._formed(*self.program.card_bounds(self._overwrite)):
                    if may({**self._env, "new": new, "old": pile, "placed": cards}):
                        move = Move("overwrite", cards)
                        options.append(((0, *self._sort_key(new)), _Option(move, pack(cards), new)))
            if self._add is not None:
                may = self.program.fn(self._add, "may")
                for cards in self._multisets(*self.program.card_bounds(self._add)):
                    grown = self.pile_of(pile.cards + cards)
                    if grown is not None and may({**self._env, "new": grown, "old": pile, "placed": cards}):
                        below = grown.cards.index(pile.cards[0]) if pile.cards[0] in grown.cards else 0
                        key = (1, self._kind_index.get(grown.kind, 0), len(cards), below, cards)
                        options.append((key, _Option(Move("add", cards), pack(cards), grown)))
        ordered = tuple(o for _k, o in sorted(options, key=lambda item: item[0]))
        node = self._nodes[pile] = (ordered, {o.move: o for o in ordered})
        return node

    # ---- the state API -------------------------------------------------------------------------

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """The legal moves of the player to move, placing moves first; empty when the round is over."""
        if state.phase != "play":
            return ()
        options, _index = self._node(state.pile)
        guard = self.codec.guard
        hand = state.hands[state.to_move] | guard
        moves = [o.move for o in options if (hand - o.need) & guard == guard]
        if self._may_pass(state):
            moves.append(PASS)
        if not moves:
            # The round is not over and nobody can move: the rules stall here, which is theirs to
            # answer for (a lead that needs more cards than the hand holds, a pass nobody may make).
            where = f"round {state.round}, player {state.to_move} to move, pile {state.pile or 'empty'}"
            raise SpecError("rules", f"the rules leave the player to move without a legal move ({where})")
        return tuple(moves)

    def _may_pass(self, state: State) -> bool:
        if self._pass is None:
            return False
        leading = state.pile is None
        found = self._may_pass_memo.get(leading)
        if found is None:
            found = self._may_pass_memo[leading] = bool(
                self.program.fn(self._pass, "may")({**self._env, "leading": leading})
            )
        return found

    def placing_moves(self, pile: Pile | None) -> tuple[Move, ...]:
        """Every lead (pile None) or every overwrite and add onto `pile`, whatever the hands hold."""
        return tuple(o.move for o in self._node(pile)[0])

    def option(self, state: State, move: Move) -> _Option | None:
        return self._node(state.pile)[1].get(move)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        """Play `move`; returns the new state and the events it caused. Raises IllegalMove."""
        if state.phase != "play":
            raise IllegalMove(
                move, state, f"the {'match' if state.phase == 'match_over' else 'round'} is over"
            )
        if move.action == "pass":
            if not self._may_pass(state):
                raise IllegalMove(move, state, "the rules do not let this player pass")
            return self._apply_pass(state)
        option = self._node(state.pile)[1].get(move)
        if option is None:
            raise IllegalMove(move, state, "not a lead, overwrite or add that fits the pile")
        hand = state.hands[state.to_move]
        if not self.codec.holds(hand, option.need):
            raise IllegalMove(move, state, f"player {state.to_move} does not hold those cards")
        return self._apply_play(state, option, hand - option.need)

    def ends_trick(self, state: State, move: Move) -> bool:
        """Whether placing `move` in `state` ends the trick (by a `trick_end` rule asked after a
        play), without playing it out."""
        return bool(self.play_reasons(state, move))

    def play_reasons(self, state: State, move: Move) -> tuple[TrickEndReason, ...]:
        """Why placing `move` in `state` ends the trick: the reasons of the `trick_end` rules asked
        after a play that hold (none: it goes on, or the move does not fit the pile), without
        playing it out or asking whether the mover holds the cards."""
        option = self._node(state.pile)[1].get(move)
        if option is None:
            return ()
        hand = state.hands[state.to_move] - option.need
        opening = option.pile if state.pile is None else (self._opening(state) or option.pile)
        env = self._trick_env(
            state,
            action=move.action,
            pile=option.pile,
            placed=move.cards,
            opening=opening,
            mover=state.to_move,
            cards_left=self.codec.size(hand),
            passes_in_a_row=0,
            others_in=self._others_in(state.passed, state.to_move),
        )
        return self._ended(self._ends_after_play, env)

    def reasons_after_play(self, names: dict[str, Any]) -> tuple[TrickEndReason, ...]:
        """The reasons of the `trick_end` rules asked after a play that hold for these names of
        the moment (the player count is the engine's own)."""
        return self._ended(self._ends_after_play, {**self._env, **names})

    def follows(self, a: int, b: int) -> bool:
        """Whether rank b comes straight after rank a in a run (the `ranks` rule's `follows`)."""
        return self.program.follows(a, b)

    def beats(self, new: Pile, old: Pile) -> bool:
        """Whether `new` may be played over `old` (the overwrite rule's `may`, with `new`'s cards
        as the cards placed); never where no rule lets a player overwrite."""
        if self._overwrite is None:
            return False
        may = self.program.fn(self._overwrite, "may")
        return bool(may({**self._env, "new": new, "old": old, "placed": new.cards}))

    def next_seat(self, seat: int) -> int:
        """Whose turn follows `seat`'s (the `turn` rule)."""
        return self.program.next_seat(seat)

    def closing_size(self, kind: str) -> int | None:
        """The size at which a pile of `kind` ends the trick (its rule's `closes_at`; None: never)."""
        rule = self.program.kinds.get(kind)
        if rule is None or rule.part("closes_at") is None:
            return None
        return self.program.closes_at(kind)

    @property
    def points(self) -> dict[int, int]:
        return self.ruleset.points

    def _opening(self, state: State) -> Pile | None:
        if not state.trick:
            return None
        first = state.trick[0].move
        return self.pile_of(first.cards) if first.cards else None

    def _trick_env(self, state: State, **names: Any) -> dict[str, Any]:
        return {**self._env, "in_trick": self.players - state.passed.bit_count(), **names}

    def _others_in(self, passed: int, placer: int) -> int:
        """How many players besides `placer` (the last to place cards) are still in the trick."""
        mask = passed | (1 << placer) if placer >= 0 else passed
        return self.players - mask.bit_count()

    def _holding(self, hands: tuple[int, ...]) -> int:
        return sum(1 for h in hands if h)

    def _gone(self, hands: tuple[int, ...]) -> int:
        """The players without cards: out of every trick while the round plays on."""
        return sum(1 << seat for seat, h in enumerate(hands) if not h)

    def _ended(
        self, rules: list[tuple[Callable[[dict[str, Any]], Any], TrickEndReason]], env: dict[str, Any]
    ) -> tuple[TrickEndReason, ...]:
        return tuple([reason for ends, reason in rules if ends(env)])

    def _apply_pass(self, state: State) -> tuple[State, tuple[Event, ...]]:
        player = state.to_move
        assert self._pass is not None
        out = self._pass_out
        if out is None:
            out = self._pass_out = bool(self.program.fn(self._pass, "out")(self._env))
        passed = state.passed | (1 << player) if out else state.passed
        trick = (*state.trick, Play(player, PASS))
        in_a_row = 0
        for play in reversed(trick):
            if play.move.action != "pass":
                break
            in_a_row += 1
        moved = evolve(state, passed=passed, trick=trick)
        env = self._trick_env(
            moved,
            action="pass",
            pile=state.pile,
            placed=(),
            opening=self._opening(state) or state.pile,
            mover=player,
            cards_left=self.codec.size(state.hands[player]),
            passes_in_a_row=in_a_row,
            others_in=self._others_in(passed, state.last_player),
        )
        reasons = self._ended(self._ends_after_pass, env)
        if reasons:
            return self._end_trick(moved, trick, player, reasons)
        return evolve(moved, to_move=self._next_active(player, passed)), ()

    def _apply_play(self, state: State, option: _Option, hand: int) -> tuple[State, tuple[Event, ...]]:
        player = state.to_move
        hands = (*state.hands[:player], hand, *state.hands[player + 1 :])
        trick = (*state.trick, Play(player, option.move))
        leading = state.pile is None
        opening = option.pile if leading else (self._opening(state) or option.pile)
        opening_has_eight = (8 in option.move.cards) if leading else state.opening_has_eight
        cards_left = self.codec.size(hand)
        env = {
            "players": self.players,
            "in_trick": self.players - state.passed.bit_count(),
            "action": option.move.action,
            "pile": option.pile,
            "placed": option.move.cards,
            "opening": opening,
            "mover": player,
            "cards_left": cards_left,
            "passes_in_a_row": 0,
            "others_in": self._others_in(state.passed, player),
            "holding": self._holding(hands),
        }
        reasons = self._ended(self._ends_after_play, env)
        ends_round = self._round_end(env)
        # A player whose last card this was, in a round that plays on, is out of it: they take no
        # further turn (marked passed in every trick) and are listed in the order players went out.
        plays_on = cards_left == 0 and not ends_round
        out = (*state.out, player) if plays_on else state.out
        passed = state.passed | (1 << player) if plays_on else state.passed
        # What the play changes, whether the trick goes on or not.
        played = {
            "hands": hands,
            "trick": trick,
            "pile": option.pile,
            "last_player": player,
            "opening_has_eight": opening_has_eight,
            "passed": passed,
            "out": out,
        }
        if reasons or ends_round:
            moved = evolve(state, **played)
            if ends_round:
                events: tuple[Event, ...] = ()
                if reasons:
                    events = (TrickEnd(self._winner(moved, player), reasons),)
                return self._end_round(moved, player, events)
            return self._end_trick(moved, trick, player, reasons)
        return evolve(state, to_move=self._next_active(player, passed), **played), ()

    def _winner(self, state: State, mover: int) -> int:
        key = (state.last_player, mover)
        found = self._winner_memo.get(key)
        if found is not None:
            return found
        winner = int(self.program.ask("trick_winner", "winner", last_placer=state.last_player, mover=mover))
        if not 0 <= winner < self.players:
            raise RuleError(f"rule trick_winner names seat {winner}, who is not at the table")
        self._winner_memo[key] = winner
        return winner

    def _next(self, seat: int) -> int:
        found = self._next_memo.get(seat)
        if found is None:
            found = self._next_memo[seat] = int(self.program.next_seat(seat)) % self.players
        return found

    def _next_active(self, seat: int, passed: int) -> int:
        mover = seat
        for _ in range(self.players):
            seat = self._next(seat)
            if not passed >> seat & 1:
                return seat
        # The rules stall here (nobody left to answer a play, and no trick ending for it): theirs to
        # answer for, one line naming the place, as for a player left without a legal move.
        raise SpecError("rules", f"the turn order after player {mover} reaches no player still in the trick")

    def _end_trick(
        self, state: State, trick: tuple[Play, ...], mover: int, reasons: tuple[TrickEndReason, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        winner = self._winner(state, mover)
        cleared = state.cleared + sum(self.codec.pack(p.move.cards) for p in trick)
        gone = self._gone(state.hands)
        # A winner who has gone out cannot lead: the next player in turn who holds cards does.
        leader = self._next_active(winner, gone) if gone >> winner & 1 else winner
        new = evolve(
            state,
            pile=None,
            trick=(),
            passed=gone,
            last_player=-1,
            opening_has_eight=False,
            to_move=leader,
            cleared=cleared,
        )
        return new, (TrickEnd(winner, reasons),)

    def penalty(self, hand: int, went_out: bool = False, place: int | None = None) -> int:
        """The points a hand left at the end of a round scores (the `scoring` rule). `place`: how
        many players went out before this one (by default 0 for the one who went out, else 1)."""
        cards = tuple(self.codec.cards(hand))
        at = (0 if went_out else 1) if place is None else place
        return int(self.program.ask("scoring", "penalty", hand=cards, went_out=went_out, place=at))

    def _end_round(
        self, state: State, mover: int, events: tuple[Event, ...]
    ) -> tuple[State, tuple[Event, ...]]:
        # The order players went out in (535: the mover alone); those still holding cards share
        # the place after the last one out. "Went out" is the first of them.
        last = (mover,) if not state.hands[mover] and mover not in state.out else ()
        order = (*state.out, *last) or (mover,)
        went_out = order[0]
        places = {seat: i for i, seat in enumerate(order)}
        penalties = tuple(
            self.penalty(h, seat == went_out, places.get(seat, len(order)))
            for seat, h in enumerate(state.hands)
        )
        scores = tuple(s + p for s, p in zip(state.scores, penalties, strict=True))
        events = (*events, RoundEnd(went_out, penalties, scores))
        high, low = max(scores), min(scores)
        over = bool(
            self.program.ask("match_end", "ends", highest_score=high, lowest_score=low, round=state.round)
        )
        if over:
            winners = tuple(
                i
                for i, s in enumerate(scores)
                if self.program.ask("match_end", "winner", score=s, highest_score=high, lowest_score=low)
            )
            events = (*events, MatchEnd(scores, winners))
        new = evolve(state, scores=scores, to_move=went_out, phase="match_over" if over else "round_over")
        return new, events

    # ---- dealing -------------------------------------------------------------------------------

    def hand_size(self) -> int:
        if self._deal_error is not None:
            raise self._deal_error
        return self.size_dealt

    def new_match(self, seed: int) -> State:
        return self._deal(seed, 1, (0,) * self.players, None)

    def next_round(self, state: State) -> State:
        if state.phase != "round_over":
            raise ValueError(f"next_round needs a finished round, not phase {state.phase!r}")
        leader = int(
            self.program.ask("leaders", "later", went_out=state.to_move, previous_leader=state.round_leader)
        )
        return self._deal(state.seed, state.round + 1, state.scores, leader % self.players)

    def _deal(self, seed: int, round_no: int, scores: tuple[int, ...], leader: int | None) -> State:
        # The reference engine's deal, so that a seed deals the same hands under both engines.
        hands, rng = shuffled_hands(self._deck, seed, round_no, self.hand_size(), self.players)
        if leader is None:
            draw = rng.randrange(self.players)
            leader = int(self.program.ask("leaders", "first", draw=draw)) % self.players
        return self.start_round(hands, leader, scores, round_no=round_no, seed=seed)

    def start_round(
        self,
        hands: Sequence[Sequence[object]],
        leader: object,
        scores: Sequence[object] | None = None,
        *,
        round_no: int = 1,
        seed: int = 0,
    ) -> State:
        """A round from given hands; DealError naming the part at fault for a deal this game's deck
        cannot supply."""
        players = self.players
        to_lead = seated_leader(players, hands, leader)
        if scores is not None:
            if len(scores) != players:
                raise DealError("scores", f"{len(scores)} scores for {players} players")
            for seat, score in enumerate(scores):
                if type(score) is not int:
                    raise DealError(f"scores[{seat}]", f"expected a whole number, got {score!r}")
        packed = []
        left = {r: self.copies for r in self.ruleset.ranks}
        for seat, hand in enumerate(hands):
            if not hand:
                raise DealError(f"hands[{seat}]", "the hand is empty (every player holds a card)")
            for card in hand:
                if type(card) is not int or card not in left:
                    raise DealError(
                        f"hands[{seat}]",
                        f"{card!r} is not a rank of the deck ({ranks_text(self.ruleset.ranks)})",
                    )
                left[card] -= 1
                if left[card] < 0:
                    raise DealError("hands", f"more cards of rank {card} than the deck's {self.copies}")
            packed.append(self.codec.pack(hand))
        return dealt_state(
            packed,
            to_lead,
            self.full_deck,
            tuple(scores) if scores is not None else (0,) * players,  # type: ignore[arg-type]
            round_no,
            seed,
        )

    def play_from(self, position: Position) -> State:
        if position.players != self.players:
            raise DealError("hands", f"{position.players} hands for {self.players} players")
        state = self.start_round(
            position.hands, position.leader, position.scores, round_no=position.round, seed=position.seed
        )
        for move in position.moves:
            state, _ = self.apply(state, move)
        return state

    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(self.codec, state)

    def from_json(self, data: dict[str, Any]) -> State:
        return state_from_json(self.codec, self.players, data)

    def hand(self, state: State, player: int) -> list[int]:
        return self.codec.cards(state.hands[player])

    def returns(self, state: State) -> tuple[int, ...]:
        return state.scores
