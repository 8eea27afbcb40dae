"""Dead clauses: rules that can never apply under a reading, with the reason as an unsat core.

Each entry of the catalogue names a part of a rule ("the Rule of 8 by a run the list does not name",
"the card that closes a set with 5 players", "overwriting a central pile of 4 cards") and a formula
that holds in a situation where that part applies. For every combination of the readings it depends
on (the other points at the checked ruleset's readings) and every player-count class, Z3 searches
the bounded domain of situations for one where it applies. Where none exists the part is dead; the
unsat core over the tracked parameters, readings and rule says why, named by clause ids.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...engine import Game
from ...spec import Ruleset, Spec
from ...spec.words_model import CheckWords, Words
from ..findings import (
    Alternative,
    CheckContext,
    CheckResult,
    DeadPart,
    Finding,
    FindingKind,
    ReadingRef,
    Severity,
    Status,
    Witness,
    profile_status,
    readings_of,
)
from ..impact.alternatives import clause_deleted
from ..impact.variants import (
    NoEightByAdd,
    NoExemptionAfterOpening,
    NoOverwriteOfFour,
    OnlyListedEights,
    RunsUncapped,
    SetsNeverClose,
    SetsUncapped,
)
from ..oracles.z3model import (
    ADD,
    NONE,
    OVERWRITE,
    RUN,
    SET,
    Model,
    SymSituation,
    Z3Alg,
    as_bool,
    memo_check,
)
from .labels import Label, names, readings_in
from .text_examples import clauses_of
from .tracked import Tracked, combos

NAME = "dead_clauses"


@dataclass(frozen=True)
class Part:
    id: str
    # The part in words: the words file's sentence `says` (its title) and `says`_reason (why it is
    # dead, when it is), with `blanks`; named, not written, so that a memoised search holds no words.
    says: str
    clauses: tuple[str, ...]
    points: tuple[str, ...]
    applies: Callable[[Model, SymSituation, int], Any]  # holds where this part of the rule applies
    per_players: bool = False  # check each player-count class separately
    fixed: Mapping[str, str] = field(default_factory=dict)  # readings the part only exists under
    deleted: type[Game] | None = None  # the rules without this part (checks/impact/variants.py), if playable
    needs: Mapping[str, str] = field(default_factory=dict)  # readings its formula is stated with
    blanks: Mapping[str, int] = field(default_factory=dict)

    def typed(self) -> DeadPart:
        return DeadPart(self.says, self.blanks, tuple(ReadingRef(p, r) for p, r in self.fixed.items()))

    def title(self, say: CheckWords) -> str:
        only = " ".join(say("only_reading", reading=r) for r in self.fixed.values())
        return self.typed().words(say, only)

    def reason(self, say: CheckWords) -> str:
        return say(f"{self.says}_reason", **self.blanks)


def _play(m: Model, sit: SymSituation, players: int) -> Any:
    return m.decide(sit.action, sit.pile, sit.k, sit.p, players, sit.opening8)


def _overwrite_size(size: int) -> Callable[[Model, SymSituation, int], Any]:
    def applies(m: Model, sit: SymSituation, players: int) -> Any:
        out = _play(m, sit, players)
        return z3.And(sit.action == OVERWRITE, sit.n == size, as_bool(out.legal))

    return applies


def _set_closes(m: Model, sit: SymSituation, players: int) -> Any:
    return as_bool(_play(m, sit, players).set_closed)


def _run_closes(m: Model, sit: SymSituation, players: int) -> Any:
    return as_bool(_play(m, sit, players).run_closed)


def _eight_unlisted_run(m: Model, sit: SymSituation, players: int) -> Any:
    out = _play(m, sit, players)
    return z3.And(
        as_bool(out.rule_of_8), out.kind == RUN, z3.Not(as_bool(m.listed_eight(out.kind, out.low, out.size)))
    )


def _eight_by_add(m: Model, sit: SymSituation, players: int) -> Any:
    out = _play(m, sit, players)
    return z3.And(sit.action == ADD, as_bool(out.rule_of_8))


def _overflow(kind: int) -> Callable[[Model, SymSituation, int], Any]:
    def applies(m: Model, sit: SymSituation, players: int) -> Any:
        out = _play(m, sit, players)
        close = m.closes_at(kind, players)
        return z3.And(sit.action == ADD, as_bool(out.legal), out.kind == kind, out.size > close)

    return applies


def _exemption_after_opening(m: Model, sit: SymSituation, players: int) -> Any:
    # A play after the opening play that does not end the trick only because of the exemption: the
    # rules with the exemption covering the opening play alone (eight_exemption=opening_play) end it.
    out = _play(m, sit, players)
    unexempted = Model(Z3Alg(), m.p, m.rd.fixed(eight_exemption="opening_play"), m.maxk, m.maxn)
    would = unexempted.decide(sit.action, sit.pile, sit.k, sit.p, players, sit.opening8)
    return z3.And(
        sit.opening8,
        sit.action != 0,
        as_bool(out.legal),
        as_bool(would.rule_of_8),
        z3.Not(as_bool(out.rule_of_8)),
    )


def catalogue(ruleset: Ruleset) -> tuple[Part, ...]:
    maxk = ruleset.max_cards_per_turn
    largest = max(ruleset.set_closing_large, ruleset.set_closing_small, ruleset.run_closing_size) - 1
    parts = [
        Part(
            id=f"overwrite.size-{size}",
            says="overwrite_size",
            clauses=("action.overwrite", "turn.cards"),
            points=(),
            applies=_overwrite_size(size),
            deleted=NoOverwriteOfFour if size == NoOverwriteOfFour.SIZE else None,
            blanks={"size": size, "max_cards": maxk},
        )
        for size in range(maxk + 1, largest + 1)
    ]
    parts += [
        Part(
            "trick.end.set",
            "set_closes",
            ("trick.end.set", "deck.copies"),
            ("five_player_copies", "five_player_set_close", "add_to_single"),
            _set_closes,
            per_players=True,
            deleted=SetsNeverClose,
        ),
        Part(
            "trick.end.run",
            "run_closes",
            ("trick.end.run", "pile.run", "deck.ranks"),
            ("run_gaps", "run_wrap", "add_to_single"),
            _run_closes,
        ),
        Part(
            "eight.trigger.unlisted_run",
            "eight_unlisted_run",
            ("eight.trigger", "trick.end.eight"),
            ("eight_forms", "run_gaps"),
            _eight_unlisted_run,
            deleted=OnlyListedEights,
        ),
        Part(
            "eight.trigger.added",
            "eight_added",
            ("eight.trigger", "trick.end.eight", "action.add"),
            ("eight_on_add", "add_to_single"),
            _eight_by_add,
            deleted=NoEightByAdd,
        ),
        Part(
            "eight.exemption.later_plays",
            "exemption_later",
            ("eight.exemption",),
            ("eight_exemption",),
            _exemption_after_opening,
            deleted=NoExemptionAfterOpening,
            needs={"eight_exemption": "opening_play"},
        ),
        Part(
            "add_past_closing.set",
            "set_overflow",
            ("action.add", "trick.end.set", "deck.copies"),
            ("five_player_copies", "five_player_set_close"),
            _overflow(SET),
            per_players=True,
            fixed={"add_past_closing": "overflow"},
            deleted=SetsUncapped,
        ),
        Part(
            "add_past_closing.run",
            "run_overflow",
            ("action.add", "trick.end.run", "pile.run"),
            ("run_gaps", "run_wrap"),
            _overflow(RUN),
            fixed={"add_past_closing": "overflow"},
            deleted=RunsUncapped,
        ),
    ]
    return tuple(parts)


def player_classes(ruleset: Ruleset) -> list[int]:
    out = {ruleset.players_min}
    out.update(p for p in (5, 6) if ruleset.players_min < p <= ruleset.players_max)
    return sorted(out)


@dataclass(frozen=True)
class Dead:
    part: Part
    combo: tuple[tuple[str, str], ...]
    players: int | None
    core: tuple[Label, ...]


def find_dead(
    spec: Spec, ruleset: Ruleset, rlimit: int, every_reading: bool = True
) -> tuple[list[Dead], int]:
    found: list[Dead] = []
    queries = 0
    for part in catalogue(ruleset):
        if any(
            p not in spec.variation_points or r not in spec.variation_points[p].readings
            for p, r in part.needs.items()
        ):
            continue  # the spec states no such reading to state the part with
        classes: list[int | None] = list(player_classes(ruleset)) if part.per_players else [None]
        for players in classes:
            t = Tracked(spec, ruleset, rlimit)
            m = t.model
            sit = SymSituation.fresh(f"dead.{part.id}.", m.maxk)
            count = players if players is not None else ruleset.players_min
            domain = [as_bool(c) for c in sit.domain(m)]
            t.track(
                "situation", z3.And(*domain, sit.players == count, sit.kind != NONE, sit.k <= m.p.max_cards)
            )
            t.track(part.id, part.applies(m, sit, count))
            for combo in combos(spec, part.points) if every_reading else [{}]:
                combo = {**combo, **part.fixed}
                queries += 1
                dead, core = t.check(["situation", part.id], combo)
                if dead:
                    found.append(Dead(part, readings_in(core), players, core))
    # One entry per part, player class and set of readings its core needs.
    unique: dict[tuple[str, int | None, tuple[tuple[str, str], ...]], Dead] = {}
    for d in found:
        unique.setdefault((d.part.id, d.players, d.combo), d)
    return list(unique.values()), queries


def _alternative(spec: Spec, ruleset: Ruleset, d: Dead, words: Words, part: str) -> Alternative | None:
    """The rules with the dead part and without it, under the readings its core needs, on the
    table situation closest to where it would apply."""
    if d.part.deleted is None:
        return None
    scene = words.scene_for(NAME, f"{d.part.id}@{d.players}") if d.players is not None else None
    return clause_deleted(
        spec,
        ruleset,
        dict(d.combo),
        d.part.deleted,
        players=(d.players,) if d.players is not None else (),
        scene=scene or words.scene_for(NAME, d.part.id),
        part=part,
    )


def to_finding(spec: Spec, ruleset: Ruleset, d: Dead, words: Words) -> Finding:
    say = words.check(NAME)
    chosen = dict(ruleset.reading_items)
    readings = ", ".join(f"{p}={r}" for p, r in d.combo)
    under = say("under", readings=readings) if d.combo else say("under_every")
    players = say("with_players", players=d.players) if d.players is not None else ""
    part, reason = d.part.title(say), d.part.reason(say)
    applies_to_ruleset = all(chosen.get(p) == r for p, r in d.combo)
    fid = f"dead.{d.part.id}" + (f".players-{d.players}" if d.players is not None else "")
    fid += "".join(f".{p}={r}" for p, r in d.combo)
    severity = Severity.LOW if not d.combo else Severity.HIGH if applies_to_ruleset else Severity.MEDIUM
    return Finding(
        id=fid,
        kind=FindingKind.DEAD_CLAUSE,
        title=say("never_applies", players=players, under=under, part=part),
        clauses=tuple(sorted(set(d.part.clauses) | set(clauses_of(spec, d.core)))),
        detail=say(
            "never_detail",
            part=part,
            players=players,
            under=under,
            reason=reason,
            core=", ".join(names(d.core)),
        ),
        check=NAME,
        severity=severity,
        variation_point=d.combo[0][0] if len(d.combo) == 1 else None,
        readings=readings_of(spec, d.combo),
        players=d.players,
        alternative=_alternative(spec, ruleset, d, words, part),
        witness=Witness(
            summary=say("no_situation", players=players, under=under),
            situation={"players": d.players, "readings": dict(d.combo)},
            outcomes={"applies": False, "reason": reason},
            cards=0,
        ),
        # Dead under every reading: the texts' own numbers rule the part out, which no reading of
        # an open question changes (settled by the texts, for a designer to confirm).
        status=profile_status(ruleset, [p for p, _ in d.combo], applies_to_ruleset)
        if d.combo
        else Status.settled(ruleset.profile, ()),
        unsat_core=names(d.core),
        dead_part=d.part.typed(),
    )


def check_dead_clauses(ctx: CheckContext) -> CheckResult:
    start = time.perf_counter()
    words = ctx.words
    say = words.check(NAME)
    if ctx.level == "quick":
        return CheckResult.noted(NAME, say.title, start, say("quick"))
    dead, queries = memo_check(
        "dead_clauses", ctx, lambda: find_dead(ctx.spec, ctx.ruleset, ctx.solver_rlimit)
    )
    return CheckResult.noted(
        NAME,
        say.title,
        start,
        say("read", parts=len(catalogue(ctx.ruleset)), dead=len(dead)),
        proofs=queries,
        findings=(to_finding(ctx.spec, ctx.ruleset, d, words) for d in dead),
    )
