"""Silences of the text: mutants that change play and that no clause kills.

For one mutant (mutants.py) under the played ruleset:

1. The text-derived oracle (oracle.py), asked first at every player count: the first question the
   mutant contradicts kills it, naming the clause (the engine itself passes every question, so a
   mutant it kills changes some hook answer).
2. Hook answers. Both engines answer a fixed probe (probe.py) of the hooks the mutant's hook can
   reach (each rank pair of the succession, every pile pair for `beats`, the placing moves with an 8
   for `rule_of_8`, small tricks for `trick_winner`, every seat, draw and finished round for the
   deal hooks...). No answer differs at any player count: the mutant is *equivalent* (unchanged
   hooks).
3. Differential play against the unmutated engine, at the player counts where a hook answer
   differs, stopping at the first divergence: the first deal, then the short tricks from an empty
   table (decisions.search_play: sequences of up to four plays, fewest cards first, as many tables
   as the level's budget), then seeded matches (checks/impact/measure.measure, with its shrunk
   witness). Nothing found: *equivalent* (no change in play found).
4. The play invariants (oracle.play_violation) over seeded matches of the mutant: one that cites a
   clause kills it; one that encodes an unwritten rule does not (the mutant stays a silence, and
   the finding says which rule).
5. *Already asked*: the mutant plays like the engine under another reading of a point the spec
   declares: every hook answer equal to that ruleset's, or, where both change the same hooks, no
   difference in the same deals, short tricks and seeded matches. It belongs to that point's
   question.
6. Otherwise a *silence*: a Finding of kind silence whose alternative is the engine against the
   mutant class and whose witness is the divergence of step 3.

Steps 1 to 4 never look at the spec's variation points, and are remembered per (ruleset, mutant,
budget, seed, labels): the hidden-point benchmark re-runs only step 5 for each spec copy.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...engine import Game, TrickEndReason
from ...engine.engines import Engine
from ...spec import Ruleset, Spec, SpecError
from ...spec.words import words_of
from ...spec.words_model import CheckWords, Words
from ..findings import (
    Alternative,
    CheckContext,
    CheckResult,
    EngineFactory,
    Finding,
    FindingKind,
    Level,
    SettledCandidate,
    Severity,
    Side,
    Witness,
    kind_severity,
)
from ..impact.estimate import player_counts
from ..impact.measure import measure
from ..impact.witnesses import WORDS as WITNESS_WORDS
from ..impact.witnesses import undealable_witness
from . import decisions
from .mutants import MUTANTS, Mutant
from .oracle import Kill, ask_questions, contradicted, question_of, quotation
from .play_invariants import play_violation
from .probe import GROUPS, REACHES, Probe, differing, probe
from .questions import ENDED_BY

NAME = "discovery.mutants"

Verdict = Literal["equivalent", "killed", "already_asked", "silence"]


# ---- one mutant, whatever the spec declares -----------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How hard step 3 and 4 look: short-trick tables per search, seeded matches per player count."""

    tables: int
    matches: int
    invariant_matches: int


BUDGETS: dict[str, Budget] = {
    "quick": Budget(tables=150, matches=2, invariant_matches=1),
    "ci": Budget(tables=300, matches=4, invariant_matches=1),
    "deep": Budget(tables=2000, matches=24, invariant_matches=3),
}


@dataclass(frozen=True)
class Trial:
    """What steps 1 to 4 found for one mutant: which player counts change hook answers, the kill,
    the first divergence in play (its player count and witness), the invariant it breaks."""

    name: str
    changed: tuple[int, ...]  # player counts where some hook answer differs
    kill: Kill | None = None
    players: int | None = None  # where play first diverged
    witness: Witness | None = None
    found_by: str = ""  # deal | tricks | matches
    invariant: Kill | None = None
    tables: int = 0  # short-trick tables searched for the divergence
    matches: int = 0  # seeded matches played for it


def _engines(ruleset: Ruleset, cls: type[Game], players: int) -> Game | str:
    """The engine at a player count, or why it cannot deal that table."""
    got = _engine_or_why(ruleset, cls, players)
    assert isinstance(got, (Game, str))
    return got


def _engine_or_why(ruleset: Ruleset, factory: EngineFactory, players: int) -> Engine | str:
    """Any engine (a Game subclass, the spec interpreter) at a player count, or why it cannot
    deal that table."""
    try:
        game = factory(ruleset, players)
        ruleset.hand_size(players)
        game.new_match(0)
    except SpecError as exc:
        return str(exc)
    return game


_PROBES: dict[tuple[Ruleset, str, int, str], Probe | None] = {}


def probe_of(
    ruleset: Ruleset, cls: type[Game], players: int, groups: tuple[str, ...] = GROUPS
) -> Probe | None:
    """The probe of `cls` under `ruleset` in `groups` (each group remembered: hooks are pure), or
    None when it cannot deal the table."""
    out: Probe = {}
    label = f"{cls.__module__}.{cls.__qualname__}"
    game: Game | str | None = None
    for group in groups:
        key = (ruleset, label, players, group)
        if key not in _PROBES:
            if game is None:
                game = _engines(ruleset, cls, players)
            _PROBES[key] = None if isinstance(game, str) else probe(game, (group,))
        found = _PROBES[key]
        if found is None:
            return None
        out.update(found)
    return out


def hook_changes(ruleset: Ruleset, cls: type[Mutant], players: int) -> bool:
    """Whether some hook answer of the mutant differs from the engine's at one player count (the
    groups its hook reaches, cheapest first, stopping at the first difference)."""
    for group in sorted(REACHES[cls.INFO.hook], key=lambda g: g == "eight"):
        mine = probe_of(ruleset, cls, players, (group,))
        base = probe_of(ruleset, Game, players, (group,))
        if (mine is None) != (base is None) or (mine is not None and base is not None and mine != base):
            return True
    return False


@dataclass
class Effort:
    """What a search for a divergence did: short-trick tables expanded, seeded matches played."""

    tables: int = 0
    matches: int = 0


def diverge(
    played: tuple[Ruleset, EngineFactory],
    compared: tuple[Ruleset, EngineFactory],
    players: int,
    budget: Budget,
    seed: int,
    names: tuple[str, str],
    effort: Effort | None = None,
    noticed: bool = False,
    *,
    say: CheckWords,
) -> tuple[Witness | None, str]:
    """The first difference in play between two (ruleset, engine) sides at one player count: the
    first deal, the short tricks, then seeded matches. (None, "") when none is found. `effort`
    counts the tables searched and the matches played; `noticed`: the short tricks count only a
    difference the tables after a move show (decisions._change)."""
    effort = effort if effort is not None else Effort()
    a = _engine_or_why(played[0], played[1], players)
    b = _engine_or_why(compared[0], compared[1], players)
    if isinstance(a, str) and isinstance(b, str):
        return None, ""
    # One side cannot deal this table at all: the difference is the deal itself.
    if isinstance(a, str):
        assert not isinstance(b, str)
        return undealable_witness(b, b.new_match(seed), (names[1], names[0]), a, say=say), "deal"
    if isinstance(b, str):
        return undealable_witness(a, a.new_match(seed), names, b, say=say), "deal"
    try:
        witness = decisions.search_deal(a, b, seed, names, say=say)
        if witness is not None:
            return witness, "deal"
        witness, tables, _ = decisions.search_play(
            a, b, names, max_nodes=budget.tables, noticed=noticed, say=say
        )
        effort.tables += tables
        if witness is not None:
            return witness, "tricks"
    except (ValueError, SpecError):
        pass  # the two set up a table differently: the seeded matches show how
    for index in range(budget.matches):
        effort.matches += 1
        counts = measure(
            played[0],
            {"compared": (compared[0], names)},
            players,
            range(index, index + 1),
            base_seed=seed,
            engine=played[1],
            engines={"compared": compared[1]},
            say=say,
        )["compared"]
        if counts.affected:
            return counts.witness, "matches"
    return None, ""


_TRIALS: dict[tuple[Ruleset, str, Budget, int, tuple[str, str]], Trial] = {}


def trial(
    ruleset: Ruleset,
    name: str,
    budget: Budget,
    seed: int,
    labels: tuple[str, str] = ("engine", "mutant"),
    *,
    say: CheckWords,
) -> Trial:
    """Steps 1 to 4 for one mutant (remembered per ruleset, mutant, budget and seed). The oracle
    is asked first: a mutant it kills changes some hook answer (the engine itself passes every
    question). Otherwise the player counts are taken in order, and play is compared only where a
    hook answer differs, until the first divergence."""
    key = (ruleset, name, budget, seed, labels)
    if key in _TRIALS:
        return _TRIALS[key]
    cls = MUTANTS[name]
    players = player_counts(ruleset)
    result = None
    for p in players:
        try:
            # Asked of the engine even where it cannot deal: the questions ask its hooks only.
            kill = ask_questions(cls(ruleset, p))
        except SpecError:
            kill = None
        if kill is not None:
            result = Trial(name, (p,), kill=kill)
            break
    if result is None:
        changed: list[int] = []
        effort = Effort()
        result = None
        for p in players:
            if not hook_changes(ruleset, cls, p):
                continue
            changed.append(p)
            witness, how = diverge((ruleset, Game), (ruleset, cls), p, budget, seed, labels, effort, say=say)
            if witness is not None:
                game = _engines(ruleset, cls, p)
                broken = (
                    None if isinstance(game, str) else play_violation(game, seed, budget.invariant_matches)
                )
                result = Trial(
                    name, tuple(changed), None, p, witness, how, broken, effort.tables, effort.matches
                )
                break
        if result is None:
            result = Trial(name, tuple(changed), tables=effort.tables, matches=effort.matches)
    _TRIALS[key] = result
    return result


# ---- against the spec's declared points ---------------------------------------------------------


_LIKE: dict[tuple[Ruleset, str, Ruleset, Budget, int], bool] = {}


def plays_like(
    ruleset: Ruleset, name: str, other: Ruleset, budget: Budget, seed: int, *, say: CheckWords
) -> bool:
    """Whether the mutant under `ruleset` plays like the engine under `other`: every hook answer
    equal at every player count, or, where both change the same hook answers, no difference in the
    same deals, short tricks and seeded matches. A reading that changes a hook answer the mutant
    cannot reach (a probe group outside REACHES of its hook) does not play like it; the groups are
    compared cheapest first."""
    key = (ruleset, name, other, budget, seed)
    if key in _LIKE:
        return _LIKE[key]
    cls = MUTANTS[name]
    reach = REACHES[cls.INFO.hook]
    like = True
    for p in player_counts(ruleset):
        mine_deals = not isinstance(_engines(ruleset, cls, p), str)
        if mine_deals != (not isinstance(_engines(other, Game, p), str)):
            like = False
            break
        if not mine_deals:
            continue  # neither can deal this table: alike there
        overlap = False
        for group in sorted(GROUPS, key=lambda g: g == "eight"):
            theirs = probe_of(other, Game, p, (group,))
            base = probe_of(ruleset, Game, p, (group,))
            if group not in reach:
                if theirs != base:
                    like = False
                    break
                continue
            mine = probe_of(ruleset, cls, p, (group,))
            if mine is None or theirs is None or base is None:
                if (mine is None) != (theirs is None):
                    like = False
                    break
                continue
            if mine != theirs:
                if not differing(mine, base) & differing(theirs, base):
                    like = False
                    break
                overlap = True
        if not like:
            break
        if overlap:
            witness, _ = diverge(
                (ruleset, cls), (other, Game), p, budget, seed, ("mutant", "reading"), say=say
            )
            if witness is not None:
                like = False
                break
    _LIKE[key] = like
    return like


@dataclass(frozen=True)
class Outcome:
    """One mutant's classification under one spec."""

    trial: Trial
    verdict: Verdict
    asked: tuple[str, ...] = ()  # "point=reading" it plays like (already asked)

    @property
    def name(self) -> str:
        return self.trial.name


def labels_of(words: Words) -> tuple[str, str]:
    """The two sides' labels a silence's witness and alternative carry (the words file's)."""
    texts = words.mutation_texts
    return (texts.engine, texts.mutant) if texts is not None else ("engine", "mutant")


def classify(spec: Spec, ruleset: Ruleset, name: str, budget: Budget, seed: int) -> Outcome:
    words = words_of(spec)
    say = words.check(WITNESS_WORDS)
    t = trial(ruleset, name, budget, seed, labels_of(words), say=say)
    if not t.changed or (t.kill is None and t.witness is None):
        return Outcome(t, "equivalent")
    if t.kill is not None:
        return Outcome(t, "killed")
    if t.invariant is not None and not t.invariant.unwritten:
        return Outcome(t, "killed")
    asked = tuple(
        f"{point}={reading}"
        for point, reading, other in spec.one_reading_changed(ruleset)
        if plays_like(ruleset, name, other, budget, seed, say=say)
    )
    return Outcome(t, "already_asked" if asked else "silence", asked)


# ---- levels -------------------------------------------------------------------------------------

#: The mutants run at level ci (and quick): a fixed subset over every hook, chosen to finish within
#: the level's budget. Level deep runs every mutant.
CI_MUTANTS: tuple[str, ...] = (
    "add_options.above.drop",
    "hand_size.p4.plus1",
    "round_leader.after_went_out",
    "penalty.r15.plus1",
    "follows.wrap",
    "beats.single.flip",
    "closing_size.set.p5.minus1",
    "deck_copies.p5.minus1",
    "rule_of_8.opening8.drop",
    "rule_of_8.add.drop",
    "strength.r8.strongest",
    "add_options.below.drop",
    "trick_winner.rule_of_8.first_placer",
    "closing_size.run.p3.plus1",
    "next_seat.p5.skip",
    "first_leader.next_seat",
    "penalty.cards",
    "closes.lead.drop",
)
QUICK_MUTANTS: tuple[str, ...] = CI_MUTANTS[:4]


def mutants_for(level: Level) -> tuple[str, ...]:
    if level == "deep":
        return tuple(MUTANTS)
    return QUICK_MUTANTS if level == "quick" else CI_MUTANTS


@dataclass
class Discovery:
    """Every mutant's outcome under one spec."""

    outcomes: list[Outcome] = field(default_factory=list)

    def of(self, verdict: Verdict) -> list[Outcome]:
        return [o for o in self.outcomes if o.verdict == verdict]


def discover(spec: Spec, ruleset: Ruleset, names: Sequence[str], budget: Budget, seed: int) -> Discovery:
    return Discovery([classify(spec, ruleset, name, budget, seed) for name in names])


# ---- findings -----------------------------------------------------------------------------------


def describe(words: Words, name: str) -> str:
    """The mutant's description for a designer, from the words file's `mutations` section; a hook
    or operator the words file does not describe is named plainly (a house-rules words file may
    lack the section)."""
    info = MUTANTS[name].INFO
    family = words.mutations.get(info.hook)
    if family is None or info.operator not in family.operators:
        return name
    # A trick ending is named in words, not by its id (the Rule of 8, not rule_of_8).
    values = {
        k: ENDED_BY[TrickEndReason(v)].text(words) if k == "reason" else v for k, v in info.values.items()
    }
    return family.describe(info.operator, values)


def silence_finding(spec: Spec, ruleset: Ruleset, outcome: Outcome) -> Finding:
    """The finding of a silence: the engine against the mutant, with the trial's witness. Its words
    come from the words file (`mutations`); one without the section gets the mutant's name."""
    info = MUTANTS[outcome.name].INFO
    t = outcome.trial
    words = words_of(spec)
    family = words.mutations.get(info.hook)
    texts = words.mutation_texts
    description = describe(words, outcome.name)
    engine_label, mutant_label = labels_of(words)
    detail, method = description, outcome.name
    if texts is not None:
        found = texts.found.get(t.found_by, t.found_by)
        detail = texts.fill("detail", description=description, players=str(t.players), found=found)
        if t.invariant is not None:
            rule = texts.invariants.get(t.invariant.by, t.invariant.by)
            detail += " " + texts.fill("invariant", invariant=rule)
        method = texts.fill("method", description=description)
    alternative = Alternative(
        played=Side(engine_label, family.wording.get("en", "") if family else "", ruleset, Game),
        compared=Side(mutant_label, description, ruleset, MUTANTS[outcome.name]),
        method=method,
        shown_as_readings=False,
    )
    return Finding(
        id=f"silence.{outcome.name}",
        kind=FindingKind.SILENCE,
        title=family.title if family is not None else info.hook,
        clauses=tuple(c for c in (family.clauses if family else ()) if c in spec.clauses),
        detail=detail,
        check=NAME,
        severity=kind_severity(spec, FindingKind.SILENCE, Severity.MEDIUM),
        # The one player count it is about, when the mutant changes only that table.
        players=int(info.values["players"]) if "players" in info.values else None,
        alternative=alternative,
        witness=t.witness,
        proposed_wording=family.wording.get("en") if family is not None else None,
        topic=info.hook,
    )


def killed_by(outcome: Outcome) -> str:
    """The clause (and the question or invariant citing it) that killed a mutant."""
    kill = outcome.trial.kill or outcome.trial.invariant
    return f"{kill.clause} ({kill.by})" if kill is not None else ""


def settled_of(
    spec: Spec, discovery: Discovery, void: Sequence[tuple[Outcome, Kill]]
) -> tuple[SettledCandidate, ...]:
    """The candidates a clause settles: every mutant killed by a question of the texts or an
    invariant that cites a clause, less those killed by a question the unmutated engine fails too
    (`void`: never compared with the engine, so nothing was settled)."""
    unexamined_names = {o.name for o, _ in void}
    words = words_of(spec)
    out = []
    for o in discovery.of("killed"):
        kill = o.trial.kill or o.trial.invariant
        if kill is None or kill.clause is None or o.name in unexamined_names:
            continue
        q = question_of(kill)
        quoted = quotation(q, spec) if q is not None else None
        out.append(
            SettledCandidate(
                o.name,
                describe(words, o.name),
                (kill.clause,),
                kill.by,
                quoted.states if quoted is not None else "",
                kill.said.text(words),
                says_in=q.lang if q is not None else "both",
                other=quoted.other if quoted is not None else "",
                rests_on=quoted.rests_on if quoted is not None else "",
            )
        )
    return tuple(out)


def notes_of(discovery: Discovery, say: CheckWords) -> tuple[str, ...]:
    """The check's notes: how many mutants ran, and each verdict's mutants by name."""
    killed = discovery.of("killed")
    asked = discovery.of("already_asked")
    silent = discovery.of("silence")
    equal = discovery.of("equivalent")

    def listed(names: Sequence[str]) -> str:
        return ", ".join(names) or say("none")

    kills = [say("killed_one", mutant=o.name, by=killed_by(o)) for o in killed]
    asks = [say("asked_one", mutant=o.name, points="/".join(o.asked)) for o in asked]
    silences = [
        say("invariant_one", mutant=o.name, invariant=o.trial.invariant.by) if o.trial.invariant else o.name
        for o in silent
    ]
    return (
        say("run", count=len(discovery.outcomes)),
        say("killed", count=len(killed), mutants=listed(kills)),
        say("asked", count=len(asked), mutants=listed(asks)),
        say("silences", count=len(silent), mutants=listed(silences)),
        say("equivalent", count=len(equal), mutants=listed([o.name for o in equal])),
    )


def engine_contradicts(ruleset: Ruleset, players: int) -> dict[str, Kill]:
    """The oracle's questions the unmutated engine itself contradicts at a player count, by id."""
    try:
        return {kill.by: kill for kill in contradicted(Game(ruleset, players))}
    except SpecError:
        return {}


def unexamined(ruleset: Ruleset, discovery: Discovery) -> list[tuple[Outcome, Kill]]:
    """The mutants "killed" by a question the unmutated engine fails too, with the engine's answer
    to it: such a kill tells nothing of the mutant, which was never compared with the engine."""
    out = []
    for o in discovery.of("killed"):
        kill = o.trial.kill
        if kill is not None and o.trial.changed:
            engine = engine_contradicts(ruleset, o.trial.changed[0]).get(kill.by)
            if engine is not None:
                out.append((o, engine))
    return out


def warnings_of(discovery: Discovery, void: list[tuple[Outcome, Kill]], words: Words) -> tuple[str, ...]:
    if not void:
        return ()
    say = words.check(NAME)
    questions: dict[str, Kill] = {}
    for _, engine in void:
        questions.setdefault(engine.by, engine)
    which = "; ".join(f"{k.clause} ({k.by}): {k.said.text(words)}" for k in questions.values())
    every_one = len(void) == len(discovery.outcomes)
    counted = (
        say("every_mutant", count=len(void))
        if every_one
        else say("some", void=len(void), count=len(discovery.outcomes))
    )
    said = say("unexamined", counted=counted, questions=which)
    return (say("nothing", said=said) if every_one else said,)


def check_mutants(ctx: CheckContext) -> CheckResult:
    """Run the level's mutants against the texts and the engine; every silence is a finding. A
    mutant killed by a question the engine fails too was not examined: the result says so."""
    started = time.perf_counter()
    names = mutants_for(ctx.level)
    found = discover(ctx.spec, ctx.ruleset, names, BUDGETS[ctx.level], ctx.seed)
    void = unexamined(ctx.ruleset, found)
    words = ctx.words
    say = words.check(NAME)
    return CheckResult(
        name=NAME,
        title=say.title,
        seconds=time.perf_counter() - started,
        mutants=len(found.outcomes),
        exhaustive=sum(o.trial.tables for o in found.outcomes),
        generated=sum(o.trial.matches for o in found.outcomes),
        findings=tuple(silence_finding(ctx.spec, ctx.ruleset, o) for o in found.of("silence")),
        notes=notes_of(found, say),
        examined=len(found.outcomes) - len(void),
        warnings=warnings_of(found, void, words),
        settled=settled_of(ctx.spec, found, void),
    )


def clear_memory() -> None:
    """Forget every remembered probe, trial and comparison (for timing a cold run)."""
    _PROBES.clear()
    _TRIALS.clear()
    _LIKE.clear()
