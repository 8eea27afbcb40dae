"""The plays of the Z3 model (z3model.py): the piles a play's cards form, whether a lead, an
overwrite or an add is legal and what it leaves, the trick endings it causes, and the rest of a
turn (a pass, the trick's winner, round and match ends, scoring)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..findings import ModelLimit
from .algebra import B, N
from .model_terms import ADD, LEAD, LISTED_EIGHT_RUNS, NONE, OVERWRITE, PASS, Outcome
from .model_values import CHAIN, EIGHT, CondPile, LitCards, OpeningPile, PileV, Placed
from .piles import PileModel


class PlayModel(PileModel):
    """The plays and the rest of a turn, over the ranks and piles of `PileModel`."""

    # ---- plays -------------------------------------------------------------------------------------

    def _same(self, k: int, p: Sequence[N], rank: N) -> B:
        return self.A.all_(p[t] == rank for t in range(k))

    def play_piles(self, k: N, p: Sequence[N], players: N) -> list[tuple[B, int, N]]:
        """The piles the placed cards form on their own: (condition, kind, low). At most one holds
        where the spec's kinds do not overlap (the interpreter refuses cards of two kinds).

        Concretely only the alternatives that hold are returned (and remembered per play)."""
        if not self.A.symbolic:
            key = (k, tuple(p), players)
            got = self._plays.get(key)
            if got is None:
                got = [a for a in self._play_piles(k, p, players) if a[0]]
                self._plays[key] = got
            return got
        return self._play_piles(k, p, players)

    def _play_piles(self, k: N, p: Sequence[N], players: N) -> list[tuple[B, int, N]]:
        A = self.A
        alts: list[tuple[B, int, N]] = []
        sizes = range(1, self.maxk + 1)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:

                def repeated(kk: int, code: int = code) -> B:
                    return A.and_(self._same(kk, p, p[0]), self.kind_cards(code, p[0], kk, players))

                alts.append((A.cases(k, sizes, repeated), code, p[0]))
                continue
            for j in range(self.maxk):

                def chain_from(kk: int, j: int = j, code: int = code) -> B:
                    if j >= kk:
                        return False
                    expected = [self.idx(p[j] + t) for t in range(kk)]
                    return A.and_(self.is_cards(kk, p, expected), self.kind_cards(code, p[j], kk, players))

                alts.append((A.cases(k, sizes, chain_from), code, p[j]))
        return alts

    def _select(self, alts: list[tuple[B, int, N, N]]) -> tuple[B, N, N, N]:
        """Legal if some alternative holds; the resulting pile is the first that holds."""
        A = self.A
        if not A.symbolic:
            for cond, kind, low, n in alts:
                if cond:
                    return True, kind, low, n
            return False, NONE, 0, 0
        kind_: Any = NONE
        low_: Any = 0
        n_: Any = 0
        for cond, kind, low, n in reversed(alts):
            kind_ = A.ite(cond, kind, kind_)
            low_ = A.ite(cond, low, low_)
            n_ = A.ite(cond, n, n_)
        return A.any_(c for c, _, _, _ in alts), kind_, low_, n_

    def _bounds(self, rule: str, k: N, players: N) -> B:
        """The rule's `cards: {min, max}`: how many cards the move places."""

        def bounds() -> tuple[N, N]:
            env = {"players": players}
            low = self.c.part(rule, "cards.min")(env) if self.c.states(rule, "cards.min") else 1
            high = self.c.part(rule, "cards.max")(env) if self.c.states(rule, "cards.max") else low
            return low, high

        if self.A.symbolic:
            low, high = bounds()
            return self.A.and_(k >= low, k <= high)
        found = self._bounds_memo.get((rule, players))
        if found is None:
            found = self._bounds_memo[(rule, players)] = bounds()
        return found[0] <= k <= found[1]

    def _may(self, rule: str, env: dict[str, Any]) -> B:
        return self.c.part(rule, "may")(env)

    def _placing(self, does: str, k: N, players: N) -> tuple[str, B] | None:
        """The rule that states `does` and whether `k` cards are within its bounds (None: no such
        rule, or `k` is out of them for certain)."""
        rule = self.rules.one(does)
        if rule is None:
            return None
        ok = self._bounds(rule, k, players)
        if ok is False:
            return None
        return rule, ok

    def lead(self, k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `lead` rule: the pile the cards make, where its `may` holds."""
        A = self.A
        placing = self._placing("lead", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        placed = Placed(tuple(p), k)
        alts = []
        for c, kind, low in self.play_piles(k, p, players):
            may = self._may(rule, {"players": players, "new": PileV(kind, low, k), "placed": placed})
            alts.append((A.and_(ok, c, may), kind, low, k))
        return self._select(alts)

    def overwrite(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `overwrite` rule: a pile the cards make, over the central pile, where `may` holds."""
        A = self.A
        placing = self._placing("overwrite", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        old = PileV(*pile)
        placed = Placed(tuple(p), k)
        alts = []
        for c, kind, low in self.play_piles(k, p, players):
            if c is False:
                continue
            may = self._may(
                rule, {"players": players, "new": PileV(kind, low, k), "old": old, "placed": placed}
            )
            alts.append((A.and_(ok, c, may), kind, low, k))
        return self._select(alts)

    def add(self, pile: tuple[N, N, N], k: N, p: Sequence[N], players: N) -> tuple[B, N, N, N]:
        """The `add` rule: the central pile and the cards make one pile, where `may` holds.

        The pile they make is one rank repeated (the central pile is that rank, the cards all of it)
        or a chain: the central pile's block with `below` ranks under its first card and the rest
        over its last (every chain holding the block is so)."""
        A = self.A
        placing = self._placing("add", k, players)
        if placing is None:
            return False, NONE, 0, 0
        rule, ok = placing
        pkind, plow, pn = pile
        size = pn + k
        old = PileV(*pile)
        placed = Placed(tuple(p), k)
        sizes = range(1, self.maxk + 1)
        single = pn == 1
        same_old = A.or_(self.same_kind(pkind), single)
        chain_old = A.or_(A.not_(self.same_kind(pkind)), single)
        alts: list[tuple[B, int, N, N]] = []

        def candidate(code: int, cond: B, low: N) -> None:
            if cond is False:
                return
            new = PileV(code, low, size)
            holds = A.and_(ok, cond, self.kind_cards(code, low, size, players))
            if holds is False:
                return
            may = self._may(rule, {"players": players, "new": new, "old": old, "placed": placed})
            alts.append((A.and_(holds, may), code, low, size))

        if not A.symbolic:
            # The same alternatives, found directly: which form the cards take, if any.
            cards = list(p[:k])
            for code, _kind, _rule, shape in self.kinds:
                if shape != CHAIN:
                    if same_old and all(c == plow for c in cards):
                        candidate(code, True, plow)
                    continue
                if not chain_old or len(set(cards)) != k:
                    continue
                for below in range(k + 1):
                    expected = [(plow - below + t) % self.R for t in range(below)]
                    expected += [(plow + pn + t) % self.R for t in range(k - below)]
                    if sorted(expected) == cards and len(set(expected)) == k:
                        candidate(code, True, (plow - below) % self.R)
            return self._select(alts)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:
                cond = A.and_(same_old, A.cases(k, sizes, lambda kk: self._same(kk, p, plow)))
                candidate(code, cond, plow)
                continue
            for below in range(self.maxk + 1):

                def extends(kk: int, below: int = below) -> B:
                    if below > kk:
                        return False
                    expected = [self.idx(plow - below + t) for t in range(below)]
                    expected += [self.idx(plow + pn + t) for t in range(kk - below)]
                    return self.is_cards(kk, p, expected)

                candidate(code, A.and_(chain_old, A.cases(k, sizes, extends)), self.idx(plow - below))
        return self._select(alts)

    def has_eight(self, k: N, p: Sequence[N]) -> B:
        """Whether the placed cards hold an 8."""
        return self.c.has(Placed(tuple(p), k), self.rank_of_value(EIGHT))

    def listed_eight(self, kind: N, low: N, n: N) -> B:
        """The pile is one the Rule of 8's list names: a single 8, a set of 8s, a listed run."""
        A = self.A
        runs = [
            A.and_(n == len(run), A.all_(self.value(self.idx(low + t)) == v for t, v in enumerate(run)))
            for run in LISTED_EIGHT_RUNS
        ]
        one_rank = A.any_(kind == self.codes[name] for name in ("single", "set") if name in self.codes)
        chain = kind == self.codes["run"] if "run" in self.codes else False
        return A.or_(A.and_(one_rank, self.value(low) == EIGHT), A.and_(chain, A.any_(runs)))

    def decide(
        self,
        action: N,
        pile: tuple[N, N, N],
        k: N,
        p: Sequence[N],
        players: N,
        opening8: B,
        **trick: Any,
    ) -> Outcome[Any]:
        """The model's decision for a placing action (lead, overwrite or add). `trick` may give the
        other names a trick ending asked after a play reads (mover, in_trick, cards_left)."""
        A = self.A
        if isinstance(action, int):
            if action == LEAD and not isinstance(pile[0], int):
                legal, kind, low, n = self.lead(k, p, players)
                legal = A.and_(pile[0] == NONE, legal)
            elif action == LEAD:
                legal, kind, low, n = self.lead(k, p, players) if pile[0] == NONE else (False, NONE, 0, 0)
            elif action == OVERWRITE:
                legal, kind, low, n = self.overwrite(pile, k, p, players)
            elif action == ADD:
                legal, kind, low, n = self.add(pile, k, p, players)
            else:
                legal, kind, low, n = False, NONE, 0, 0
        else:
            lead = self.lead(k, p, players)
            over = self.overwrite(pile, k, p, players)
            add = self.add(pile, k, p, players)
            opts = [
                (A.and_(action == LEAD, pile[0] == NONE), lead),
                (action == OVERWRITE, over),
                (action == ADD, add),
            ]
            legal = A.any_(A.and_(c, o[0]) for c, o in opts)
            kind = A.ite(opts[0][0], lead[1], A.ite(opts[1][0], over[1], add[1]))
            low = A.ite(opts[0][0], lead[2], A.ite(opts[1][0], over[2], add[2]))
            n = A.ite(opts[0][0], lead[3], A.ite(opts[1][0], over[3], add[3]))
        reasons = self._reasons
        if legal is False:
            return Outcome(False, NONE, 0, 0, tuple((reason, False) for reason in reasons))
        new = PileV(kind, low, n)
        # The trick's opening pile: the pile a lead places, else the one the situation knows of.
        if isinstance(action, int):
            opening: Any = new if action == LEAD else OpeningPile(opening8)
        else:
            opening = CondPile(action == LEAD, new, OpeningPile(opening8))
        env = {
            "players": players,
            "action": action,
            "pile": new,
            "placed": Placed(tuple(p), k),
            "opening": opening,
            "passes_in_a_row": 0,
            **trick,
        }
        ends = tuple(
            (
                reason,
                A.and_(
                    legal,
                    self.pile_end(r, kind, low, n, players) if r in self._pile_ends else self._ends(r, env),
                ),
            )
            for reason, r in zip(reasons, self._after_play, strict=True)
        )
        return Outcome(legal=legal, kind=kind, low=low, size=n, ends=ends)

    def ends_after_play(
        self,
        action: int,
        pile: tuple[int, int, int],
        placed: Sequence[int],
        players: int,
        opening8: bool,
        **trick: Any,
    ) -> list[str]:
        """The reasons of the trick endings asked after placing `placed` (rank indices) made the
        pile `pile`, concretely."""
        new = PileV(*pile)
        p = tuple(sorted(placed))
        env = {
            "players": players,
            "action": action,
            "pile": new,
            "placed": Placed(p, len(p)),
            "opening": new if action == LEAD else OpeningPile(opening8),
            "passes_in_a_row": 0,
            **trick,
        }
        return [self.rules.field(r, "reason") or r for r in self._after_play if self.c.part(r, "ends")(env)]

    def failing_parts(
        self, rule: str, *, new: PileV, old: PileV | None, placed: Sequence[int], players: int
    ) -> list[str]:
        """The rule's own parts (its helpers) that do not hold for this move, concretely: what a
        violation names when `may` refuses a move."""
        env: dict[str, Any] = {"players": players, "new": new, "placed": Placed(tuple(placed), len(placed))}
        if old is not None:
            env["old"] = old
        out = []
        for name in self.c.helpers(rule):
            try:
                holds = self.c.helper(rule, name, frozenset(env))(env)
            except ModelLimit:
                continue
            if holds is False:
                out.append(name)
        return out

    def _ends(self, rule: str, env: dict[str, Any]) -> B:
        return self.c.part(rule, "ends")(env)

    # ---- the rest of a turn (concrete players; what the conformance check compares) ---------------

    def may_pass(self, leading: B, players: N) -> B:
        rule = self.rules.one("pass")
        if rule is None:
            return False
        return self.c.part(rule, "may")({"players": players, "leading": leading})

    def pass_takes_out(self, players: N) -> B:
        """Whether a pass takes the player out of the trick (the `pass` rule's `out`)."""
        return self.ask("pass", "out", players)

    def ends_after_pass(self, players: N, **names: Any) -> list[str]:
        """The reasons of the trick endings asked after a pass that hold (concretely)."""
        env = {"players": players, "action": PASS, "placed": LitCards(()), "passes_in_a_row": 0, **names}
        return [self.rules.field(r, "reason") or r for r in self._after_pass if self.c.part(r, "ends")(env)]

    def winner(self, players: N, last_placer: N, mover: N) -> N:
        return self.ask("trick_winner", "winner", players, last_placer=last_placer, mover=mover)

    def round_ends(self, players: N, cards_left: N, mover: N) -> B:
        return self.ask("round_end", "ends", players, cards_left=cards_left, mover=mover)

    def penalty(self, hand: Sequence[int], went_out: B, players: N) -> N:
        cards = LitCards(tuple(self.rank_of_value(c) for c in sorted(hand)))
        return self.ask("scoring", "penalty", players, hand=cards, went_out=went_out)

    def match_ends(self, players: N, highest: N, lowest: N, round_no: N) -> B:
        return self.ask(
            "match_end", "ends", players, highest_score=highest, lowest_score=lowest, round=round_no
        )

    def match_winner(self, players: N, score: N, highest: N, lowest: N) -> B:
        return self.ask(
            "match_end", "winner", players, score=score, highest_score=highest, lowest_score=lowest
        )

    # ---- concrete helpers ------------------------------------------------------------------------

    def pile_cards(self, kind: int, low: int, n: int) -> tuple[int, ...]:
        """The ranks of a concrete pile, chains in succession order."""
        if not self.same_kind(kind):
            return tuple(self.values[(low + t) % self.R] for t in range(n))
        return (self.values[low],) * n

    def pile_of(self, cards: Sequence[int], players: int) -> tuple[int, int, int] | None:
        """The pile (kind, low, size) these cards make on their own, concretely, or None."""
        if any(c not in self._index for c in cards) or not cards:
            return None
        p = sorted(self._index[c] for c in cards)
        k = len(p)
        for code, _kind, _rule, shape in self.kinds:
            if shape != CHAIN:
                if len(set(p)) == 1 and self.kind_cards(code, p[0], k, players):
                    return code, p[0], k
                continue
            for j in range(k):
                if self.is_cards(k, p, [self.idx(p[j] + t) for t in range(k)]) and self.kind_cards(
                    code, p[j], k, players
                ):
                    return code, p[j], k
        return None

    def sum_of_values(self, kind: N, low: N, n: N) -> N:
        """Sum of the pile's rank values (for 'lowest ranks' in Optimize); linear in the variables."""
        A = self.A
        same = self.same_kind(kind)
        terms = [
            A.ite(t < n, A.ite(same, self.value(low), self.value(self.idx(low + t))), 0)
            for t in range(self.maxn)
        ]
        return sum(terms[1:], terms[0]) if terms else 0
