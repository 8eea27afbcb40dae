"""The typed results every check produces, and that reports only render.

- A `Finding` is something a rule designer should read: an ambiguity (a variation point whose
  readings lead to different play), a contradiction, a gap, a dead clause, a German/Spanish
  mismatch, a defect in a source text. Findings are not failures: the rules are what they are.
  Everything a later stage needs is a typed field the check that makes the finding fills in: the
  variation point, the readings, the player count, the `Alternative` its impact compares, the
  `Status`, the trick-end reasons. No code outside that check reads anything out of a finding's id.
- A `Failure` means five35 itself (or the engine under test) is wrong: the engine disagrees with
  the spec's model, or an invariant broke. Failures make `535-check check` exit 1.
- A `Witness` is the smallest concrete situation that shows a finding or failure: the table as
  JSON-able data a report can draw and, where legal play reaches it, the `Position` that sets it up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal, TypeVar

from ..engine import Game, Move, Position, State, TrickEndReason
from ..engine.engines import Engine
from ..spec import Ruleset, Spec
from ..spec.words import embedded_words, words_of
from ..spec.words_model import CheckWords, Words

T = TypeVar("T")


class FindingKind(StrEnum):
    """What kind of thing a finding is (a StrEnum: it compares equal to, and prints as, its name)."""

    AMBIGUITY = "ambiguity"  # a variation point: the text admits readings that play differently
    CONTRADICTION = "contradiction"  # the text (or a spec) says two things that cannot both hold
    GAP = "gap"  # the text never defines something play needs
    DEAD_CLAUSE = "dead_clause"  # a rule that can never apply under some reading
    MISMATCH = "mismatch"  # the German and Spanish texts say different things
    DEFECT = "defect"  # a source text is damaged (lost characters, ...)
    # Found by discovery rather than written into the spec (issue 13):
    SILENCE = "silence"  # the texts do not decide something play depends on (a mutant or a rule interaction)
    DECISION = "engine_decision"  # the engine decides where the texts are silent (declared in the words file)
    LIVENESS = "liveness"  # a trick, round or match may not end, or a player to move has no legal move


FINDING_KINDS: tuple[FindingKind, ...] = tuple(FindingKind)


class Severity(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


SEVERITIES: tuple[Severity, ...] = tuple(Severity)

Level = Literal["quick", "ci", "deep"]
LEVELS: tuple[Level, ...] = ("quick", "ci", "deep")


def kind_severity(spec: Spec, kind: FindingKind, fallback: Severity) -> Severity:
    """The severity the words file gives a kind of finding no measurement grades
    (`severities.by_kind`), or `fallback` where a words file gives none for that kind."""
    return Severity(words_of(spec).kind_severity.get(kind.value, fallback.value))


@dataclass(frozen=True, order=True)
class ReadingRef:
    """One reading of one variation point: the key of `Finding.readings`. It is written
    "point=reading" (`str`) where a reader or the JSON sees it, and never read back from that."""

    point: str
    reading: str

    def __str__(self) -> str:
        return f"{self.point}={self.reading}"


def point_readings(spec: Spec, point: str) -> dict[ReadingRef, str]:
    """Every reading of a variation point, as `Finding.readings` holds them."""
    return {ReadingRef(point, r): words for r, words in spec.variation_points[point].readings.items()}


def readings_of(spec: Spec, pairs: Iterable[tuple[str, str]]) -> dict[ReadingRef, str]:
    """Some (point, reading) pairs as `Finding.readings` holds them, each with its plain words."""
    return {
        ReadingRef(p, r): spec.variation_points[p].readings.get(r, "") if p in spec.variation_points else ""
        for p, r in pairs
    }


class Settlement(StrEnum):
    OPEN = "open"
    SETTLED = "settled"


STATUS_WORDS = "findings"  # the group of the words file's check sentences that word a Status


@dataclass(frozen=True)
class Status:
    """Whether the played profile settles a finding, and by which of its readings."""

    settlement: Settlement = Settlement.OPEN
    profile: str | None = None
    readings: tuple[tuple[str, str], ...] = ()  # (point, reading) the profile settles it with

    @staticmethod
    def settled(profile: str, readings: Iterable[tuple[str, str]]) -> Status:
        return Status(Settlement.SETTLED, profile, tuple(readings))

    @property
    def is_open(self) -> bool:
        return self.settlement is Settlement.OPEN

    def words(self, say: CheckWords) -> str:
        """The status in words (the check words STATUS_WORDS), as a finding's JSON and the CI
        outputs print it."""
        if self.is_open:
            return say("open")
        chosen = ", ".join(str(ReadingRef(p, r)) for p, r in self.readings)
        return say("settled", profile=self.profile, readings=chosen)

    def to_json(self) -> dict[str, Any]:
        return {
            "settlement": self.settlement.value,
            "profile": self.profile,
            "readings": {p: r for p, r in self.readings},
        }


OPEN = Status()


@dataclass(frozen=True)
class Witness:
    """A minimal concrete situation.

    `situation` is the table as drawn, with these keys where they apply: players, to_move, leading
    (bool), hand (the mover's cards), hands (all hands), pile ({kind, cards} or None),
    opening_has_eight, trick (list of {player, action, cards}); facts that are not a table (a deck
    size, a seed) are keys of their own. `position` sets the table up by legal play from the start of
    its round (`Game.play_from`), when legal play reaches it; a situation the Z3 model found that no
    play reaches, or one that is not a table at all, has none. `outcomes` maps a reading (or a side
    of an alternative, or "engine"/"model") to what happens next under it. `cards` is the witness
    size: the number of cards it involves.
    """

    summary: str
    situation: Mapping[str, Any]
    outcomes: Mapping[str, Any]
    cards: int
    position: Position | None = None
    #: The moves a scene asks about, in order: each side's outcome records what one leads to under
    #: `asked_key(move)`. Not in the JSON (the keys are); the report tells the moves from these.
    asked: tuple[Move, ...] = ()
    #: The moves each outcome names (by the outcome's key), typed: the JSON writes them as text
    #: ("add 4,5"), and the report words these rather than read a move back from its text.
    moves: Mapping[str, OutcomeMoves] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "situation": dict(self.situation),
            "outcomes": dict(self.outcomes),
            "cards": self.cards,
            "position": self.position.to_json() if self.position else None,
        }


@dataclass(frozen=True)
class OutcomeMoves:
    """The moves one outcome of a witness names: `move`, the move a side is asked about (with
    whether it is legal); `played`, the move played before what the outcome records; `legal`, the
    moves the side allows, in the order its `legal_moves` lists them."""

    move: Move | None = None
    played: Move | None = None
    legal: tuple[Move, ...] = ()


def asked_key(move: Move) -> str:
    """The key under which a scene's outcome records what a move it asks about leads to."""
    return f"after {move}"


def table_situation(game: Engine, state: State) -> dict[str, Any]:
    """The table keys of a Witness's `situation` for `state`, in the order every witness lists them
    (a witness adds its own keys after them). A mover outside the table, which only a broken engine's
    state has, holds no hand."""
    cards = game.codec.cards
    return {
        "players": state.players,
        "to_move": state.to_move,
        "leading": state.leading,
        "hand": cards(state.hands[state.to_move]) if 0 <= state.to_move < state.players else [],
        "hands": [cards(h) for h in state.hands],
        "pile": state.pile.to_json() if state.pile else None,
        "opening_has_eight": state.opening_has_eight,
        "trick": [{"player": p.player, **p.move.to_json()} for p in state.trick],
        "passed": [p for p in range(state.players) if state.has_passed(p)],
    }


@dataclass(frozen=True)
class Scene:
    """A small table set up by hand (the words file's `scenes`): the position, and the moves whose
    outcome the two sides of an alternative are asked about."""

    name: str
    position: Position
    then: tuple[Move, ...]
    describe: str
    #: The words its witness is written in (check words `impact.scenes`); not part of the scene.
    say: CheckWords = field(compare=False)
    show_deck: bool = False  # when the sides differ in the deck itself


def engine_label(engine: type[Game]) -> str:
    return f"{engine.__module__}.{engine.__qualname__}"


@dataclass(frozen=True)
class Side:
    """One side of an alternative: a ruleset, the engine class that plays it (module-level, so a
    worker process can import it), and what it is called and means."""

    label: str
    words: str
    ruleset: Ruleset
    engine: type[Game] = Game
    #: The readings the side is named by, where its label lists them (`point=reading, ...`): the
    #: report names them by their short names from these. Not in the JSON (the label is).
    readings: tuple[ReadingRef, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "words": self.words,
            "ruleset": self.ruleset.label(),
            "engine": engine_label(self.engine),
        }


@dataclass(frozen=True)
class Alternative:
    """The two alternatives a finding puts, as two engines over the same seeded games: what its
    impact measurement compares. The check that makes the finding fills it in.

    `players` limits the player counts (empty: every count both sides can deal); `scene` is the
    table situation the finding is about, when there is one; `shown_as_readings` says whether the
    sides are the finding's readings to choose between (two wordings, a clause kept or deleted) or
    only restate readings the finding already names."""

    played: Side
    compared: Side
    method: str
    players: tuple[int, ...] = ()
    scene: Scene | None = None
    shown_as_readings: bool = True

    @property
    def labels(self) -> tuple[str, str]:
        return (self.played.label, self.compared.label)

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played.to_json(),
            "compared": self.compared.to_json(),
            "method": self.method,
            "players": list(self.players),
            "scene": self.scene.name if self.scene else None,
        }


@dataclass(frozen=True)
class Impact:
    """How often a finding matters in simulated play, per player count."""

    games: int
    seed: int
    per_players: Mapping[
        int, tuple[int, float, float, float]
    ]  # players -> (affected, share, ci_low, ci_high)
    method: str

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "method": self.method,
            "per_players": {
                str(p): {"affected": a, "share": s, "ci_low": lo, "ci_high": hi}
                for p, (a, s, lo, hi) in sorted(self.per_players.items())
            },
        }


@dataclass(frozen=True)
class DeadPart:
    """What a dead-clause finding says never happens, for the report to word in its own terms: the
    dead_clauses check's sentence `says` with its `blanks`, whose blank {only} names `only_under`,
    the readings the part exists under only."""

    says: str
    blanks: Mapping[str, int]
    only_under: tuple[ReadingRef, ...] = ()

    def words(self, say: CheckWords, only: str) -> str:
        """The part in `say`'s words, with `only` for the readings it exists under only."""
        return say(self.says, **self.blanks, only=only)


@dataclass(frozen=True)
class Finding:
    """One thing a rule designer should read, with everything needed to settle it."""

    id: str  # stable across runs, used by --baseline (e.g. "vp.run_wrap", "dead.overwrite.size-4")
    kind: FindingKind
    title: str
    clauses: tuple[str, ...]
    detail: str
    check: str  # the check that made it
    severity: Severity = Severity.MEDIUM
    variation_point: str | None = None  # the one point the finding turns on
    readings: Mapping[ReadingRef, str] = field(default_factory=dict)  # a reading -> its plain words
    players: int | None = None  # the one player count the finding is about
    alternative: Alternative | None = None  # what its impact compares, when not its point's readings
    trick_end_reasons: tuple[TrickEndReason, ...] = ()  # the trick endings it is about
    witness: Witness | None = None
    impact: Impact | None = None
    evidence: tuple[str, ...] = ()  # evidence ids (E1...) and/or sentences with their source
    proposed_wording: str | None = None
    status: Status = OPEN
    unsat_core: tuple[str, ...] = ()  # for contradictions: the clause ids / spec entries in conflict
    #: The languages (de, es) of the texts whose own words its unsat core holds (an example only one
    #: text gives), in the core's order: the texts a contradiction quotes. The JSON has them in the
    #: core's names (`clause@de`); the report reads them here.
    texts: tuple[str, ...] = ()
    # What a discovered finding is about (an engine hook, a rule pair, an engine decision's id): the
    # pipeline gathers the findings of one topic into one question.
    topic: str | None = None
    # The other checks that made a finding of the same id: a run keeps one finding per id, and a
    # check's count of findings names it too, so the appendix must say that both found it.
    also_by: tuple[str, ...] = ()
    #: A dead clause's part, typed (the title names it in the check's words). Not in the JSON.
    dead_part: DeadPart | None = None

    def to_json(self, status_words: CheckWords | None = None) -> dict[str, Any]:
        """The finding as JSON; `status_words` word its status (the check words STATUS_WORDS; the
        embedded words file's by default)."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "title": self.title,
            "clauses": list(self.clauses),
            "detail": self.detail,
            "check": self.check,
            "severity": self.severity.value,
            "variation_point": self.variation_point,
            "readings": {str(key): words for key, words in self.readings.items()},
            "players": self.players,
            "alternative": self.alternative.to_json() if self.alternative else None,
            "trick_end_reasons": [r.value for r in self.trick_end_reasons],
            "witness": self.witness.to_json() if self.witness else None,
            "impact": self.impact.to_json() if self.impact else None,
            "evidence": list(self.evidence),
            "proposed_wording": self.proposed_wording,
            "status": self.status.words(status_words or embedded_words().check(STATUS_WORDS)),
            "settled_by": None if self.status.is_open else self.status.to_json(),
            "unsat_core": list(self.unsat_core),
            "topic": self.topic,
            "also_by": list(self.also_by),
        }


@dataclass(frozen=True)
class ProvedProperty:
    """A property of the rules a check proved: `method` says how ("z3": symbolic over its domain;
    "exhaustive": every case of a small domain), `scope` over what (reading combinations, parameter
    tables, deals)."""

    name: str
    statement: str
    method: Literal["z3", "exhaustive"]
    scope: str
    clauses: tuple[str, ...] = ()
    plain_scope: str = ""  # the scope in a designer's words ("" where only the appendix says it)
    # Where a check states many properties of one form (rule interactions), the form (`group`), what
    # this one is about (`subject`) and where it holds (`where`): the appendix lists them as one
    # table per form rather than as many sentences. "" where the statement stands alone.
    group: str = ""
    subject: str = ""
    where: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "statement": self.statement,
            "method": self.method,
            "scope": self.scope,
            "plain_scope": self.plain_scope,
            "clauses": list(self.clauses),
            "group": self.group,
            "subject": self.subject,
            "where": self.where,
        }


@dataclass(frozen=True)
class MutantTally:
    """Mutants of the rules counted by what each turned out to be (equivalent, killed by a
    clause, already asked, a silence, ...), per rule and per operator, and the ones worth naming
    (silences, already asked, unplayable) with the reason."""

    generated: int
    classified: int
    per_rule: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    per_operator: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    named: tuple[tuple[str, str, str], ...] = ()  # (verdict, mutant, why)

    def merge(self, other: MutantTally) -> MutantTally:
        """The tally of this block of mutants and the next one (`CheckContext.share`)."""

        def joined(
            a: tuple[tuple[str, tuple[tuple[str, int], ...]], ...],
            b: tuple[tuple[str, tuple[tuple[str, int], ...]], ...],
        ) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
            rows: dict[str, dict[str, int]] = {}
            for key, counted in (*a, *b):
                row = rows.setdefault(key, {})
                for verdict, n in counted:
                    row[verdict] = row.get(verdict, 0) + n
            return tuple((key, tuple(row.items())) for key, row in rows.items())

        return MutantTally(
            generated=self.generated,
            classified=self.classified + other.classified,
            per_rule=joined(self.per_rule, other.per_rule),
            per_operator=joined(self.per_operator, other.per_operator),
            named=self.named + other.named,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "generated": self.generated,
            "classified": self.classified,
            "per_rule": {rule: dict(c) for rule, c in self.per_rule},
            "per_operator": {op: dict(c) for op, c in self.per_operator},
            "named": [{"verdict": v, "mutant": m, "why": w} for v, m, w in self.named],
        }


@dataclass(frozen=True)
class SettledCandidate:
    """A candidate question discovery considered and the texts settle: a change to the rules
    (`change`, in a designer's words) that contradicts what the clauses `clauses` state. `says`
    quotes the words of the clauses that rule it out (as the source writes them; empty where the
    clauses do as a whole) and `found` is what the change did against them; `candidate` and `by` are
    the technical ids (the mutant or the rule interaction, and what caught it)."""

    candidate: str
    change: str
    clauses: tuple[str, ...]
    by: str
    says: str
    found: str
    # Which text `says` quotes ("de", "es", or "both" where it joins the two), the other text's words
    # for it ("" where that text lacks them) and what the kill takes for granted beyond the words.
    says_in: str = "both"
    other: str = ""
    rests_on: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "candidate": self.candidate,
            "change": self.change,
            "clauses": list(self.clauses),
            "by": self.by,
            "says": self.says,
            "says_in": self.says_in,
            "other": self.other,
            "rests_on": self.rests_on,
            "found": self.found,
        }


@dataclass(frozen=True)
class Failure:
    """The engine (reference or under test) broke the spec or an invariant."""

    check: str
    message: str
    readings: Mapping[str, str] = field(default_factory=dict)
    witness: Witness | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "message": self.message,
            "readings": dict(self.readings),
            "witness": self.witness.to_json() if self.witness else None,
        }


def point_status(spec: Spec, ruleset: Ruleset, point: str | None) -> Status:
    """Settled when the chosen profile picks the point's reading on the strength of a text or
    outside evidence, or as its own house rule; a choice the profile made without a source leaves
    the question open."""
    if point is None or point not in spec.variation_points:
        return OPEN
    profile = spec.profiles.get(ruleset.profile)
    choice = profile.readings.get(point) if profile else None
    if point in ruleset.overridden or choice is None:
        return OPEN
    if choice.settles:
        return Status.settled(ruleset.profile, [(point, ruleset.reading(point))])
    return OPEN


def profile_status(ruleset: Ruleset, points: Iterable[str], applies: bool) -> Status:
    """Open when the finding applies under the ruleset's own readings; else settled by the profile's
    readings of `points` (the readings under which it would apply are not the profile's)."""
    if applies:
        return OPEN
    chosen = ruleset.readings
    return Status.settled(ruleset.profile, [(p, chosen.get(p, "")) for p in points])


EngineFactory = Callable[[Ruleset, int], Engine]

#: Z3's resource limit ("rlimit") on each query of the checks, at every level. It counts Z3's own
#: steps, not seconds, so a query answers or gives up alike on any machine under any load, and the
#: same spec, seed and level give the same verdict. Measured ('rlimit count' per query, Z3 5.4, at
#: levels quick, ci and deep; the same in any process, each check's Z3 work in a fresh context): at
#: most 1.9 million on the embedded spec (a dead-clause query) and 12.8 million on spec copies with
#: other numbers (a dead-clause query with 6 cards a turn, 6 and 7 copies, closing sizes 6, 7 and 9);
#: the limit is 15 times that. A query can take a few minutes to reach it. `check --solver-rlimit
#: N`, `report --solver-rlimit N` and `solver-rlimit` in [tool.five35] raise it.
DEFAULT_SOLVER_RLIMIT = 200_000_000
#: The largest limit Z3 takes: it reads it as a 32-bit unsigned number, so 2**32 + 10 would be 10.
MAX_SOLVER_RLIMIT = 2**32 - 1


@dataclass(frozen=True)
class CheckContext:
    """Everything a check may use. `engine` builds the engine under check (the reference by
    default; a planted-bug subclass of Game in the tests); `solver_rlimit` is Z3's resource limit
    on each query."""

    spec: Spec
    ruleset: Ruleset
    level: Level = "ci"
    seed: int = 0
    engine: EngineFactory = Game
    solver_rlimit: int = DEFAULT_SOLVER_RLIMIT
    #: This unit's share of a check split into units (`Check.shards`): (index, count). A check
    #: takes the index-th of `count` contiguous blocks of its work; (0, 1) is all of it.
    shard: tuple[int, int] = (0, 1)

    def share(self, work: Sequence[T]) -> list[T]:
        """This unit's contiguous block of `work` (all of it unless the check is split)."""
        index, count = self.shard
        n = len(work)
        return list(work[index * n // count : (index + 1) * n // count])

    @cached_property
    def words(self) -> Words:
        """The spec's words, looked up once for the whole run of a check and handed down from here."""
        return words_of(self.spec)


class ModelLimit(ValueError):
    """A rule the Z3 model cannot state in its representation of piles, ranks and situations (a
    house rule, another game): a check that needs the model skips with the reason."""


class SolverUnknown(Exception):
    """A solver query came back "unknown" (its resource limit reached, an interrupt). Raised, never
    returned: an unanswered question must count neither as a proof nor as "no finding", so the
    runner makes it a Failure of the check that asked, naming `rlimit`, the limit it ran under."""

    def __init__(self, reason: str, rlimit: int | None = None) -> None:
        super().__init__(f"the solver gave no answer ({reason})")
        self.reason = reason
        self.rlimit = rlimit


@dataclass(frozen=True)
class CheckError:
    """A check that raised instead of finishing: `message` is the traceback's last line,
    `in_engine` whether the traceback passes through the engine under check (the engine crashed)."""

    message: str
    traceback: str
    in_engine: bool

    def to_json(self) -> dict[str, Any]:
        # The traceback names files of this machine: not in the JSON, which must not depend on it.
        return {"message": self.message, "in_engine": self.in_engine}


@dataclass(frozen=True)
class CheckResult:
    """What one check did: counts of what it examined, its findings and its failures. A check not
    run at this level has `skipped` (why); one that raised has `error`, and one Failure saying so
    for the readers that only count failures.

    `examined` is how many things the check examined, as it counts them (mutants compared with the
    engine, variation points searched); a check that leaves it None examined its situations, states
    and proofs (`exhaustive + generated + proofs`). `warnings` say what its result does not cover:
    a check that examined nothing gets one from the runner, and a check with a warning is never
    reported "ok". A warning is not a failure: it does not fail the run."""

    name: str
    title: str
    seconds: float
    exhaustive: int = 0  # situations checked exhaustively
    generated: int = 0  # situations generated (Hypothesis, random)
    proofs: int = 0  # Z3 proofs run
    mutants: int = 0  # engine mutants run (discovery)
    proved: tuple[ProvedProperty, ...] = ()  # properties proved, listed by `check`
    findings: tuple[Finding, ...] = ()
    failures: tuple[Failure, ...] = ()
    notes: tuple[str, ...] = ()
    skipped: str | None = None
    error: CheckError | None = None
    examined: int | None = None
    warnings: tuple[str, ...] = ()
    # Candidate questions considered and settled by a clause (discovery), listed in the report's
    # technical part so that a designer can read the clause and disagree.
    settled: tuple[SettledCandidate, ...] = ()
    # Mutants of the rules and what each is (discovery.rules).
    tally: MutantTally | None = None

    @property
    def ok(self) -> bool:
        return not self.failures and self.error is None

    @classmethod
    def noted(
        cls,
        name: str,
        title: str,
        start: float,
        note: str,
        *,
        proofs: int = 0,
        findings: Iterable[Finding] = (),
    ) -> CheckResult:
        """The result of a check that says one note, timed from `start` (`time.perf_counter()` when
        it started): the shape of the solver checks' results, and of their refusal at a level too
        quick for them."""
        found = tuple(findings)  # before the clock stops: building the findings is the check's time too
        return cls(name, title, time.perf_counter() - start, proofs=proofs, findings=found, notes=(note,))

    @classmethod
    def merged(cls, parts: Sequence[CheckResult]) -> CheckResult:
        """One check's result from the results of its units (`Check.shards`), in their order."""
        first = parts[0]
        if len(parts) == 1:
            return first
        tally = first.tally
        for part in parts[1:]:
            if part.tally is not None:
                tally = part.tally if tally is None else tally.merge(part.tally)
        examined = [p.examined for p in parts if p.examined is not None]
        return replace(
            first,
            seconds=sum(p.seconds for p in parts),
            exhaustive=sum(p.exhaustive for p in parts),
            generated=sum(p.generated for p in parts),
            proofs=sum(p.proofs for p in parts),
            mutants=sum(p.mutants for p in parts),
            proved=tuple(x for p in parts for x in p.proved),
            findings=tuple(x for p in parts for x in p.findings),
            failures=tuple(x for p in parts for x in p.failures),
            notes=tuple(dict.fromkeys(x for p in parts for x in p.notes)),
            warnings=tuple(dict.fromkeys(x for p in parts for x in p.warnings)),
            settled=tuple(x for p in parts for x in p.settled),
            skipped=first.skipped,
            error=next((p.error for p in parts if p.error is not None), None),
            examined=sum(examined) if examined else None,
            tally=tally,
        )

    @property
    def examined_count(self) -> int:
        """How many things the check examined (see `examined`)."""
        return self.examined if self.examined is not None else self.exhaustive + self.generated + self.proofs

    def to_json(self, status_words: CheckWords | None = None) -> dict[str, Any]:
        """The result as JSON; `status_words` word its findings' status (see Finding.to_json)."""
        return {
            "name": self.name,
            "title": self.title,
            "skipped": self.skipped,
            "error": self.error.to_json() if self.error else None,
            # No timings here: the JSON of a run must be byte-identical for the same seed.
            "exhaustive": self.exhaustive,
            "generated": self.generated,
            "proofs": self.proofs,
            "mutants": self.mutants,
            "examined": self.examined_count,
            "proved": [p.to_json() for p in self.proved],
            "settled": [c.to_json() for c in self.settled],
            "tally": self.tally.to_json() if self.tally else None,
            "findings": [f.to_json(status_words) for f in self.findings],
            "failures": [f.to_json() for f in self.failures],
            "notes": list(self.notes),
            "warnings": list(self.warnings),
        }


CheckFn = Callable[[CheckContext], CheckResult]


@dataclass(frozen=True)
class Check:
    """A check as the runner registers it: `name` is the one name used in progress, JSON, JUnit,
    baselines and crash reports; `uses_engine` says whether it plays the engine under check (a check
    that only reads the spec answers the same for every engine, so the runner gives it the reference
    engine); `levels` are the levels it runs at (elsewhere it is reported skipped)."""

    name: str
    run: CheckFn
    uses_engine: bool = True
    #: Whether the check can speak only of rules the reference engine plays (it plays mutants or
    #: alternatives made of the reference engine's own hooks); False: it holds any rules the spec
    #: states, played by the engine that plays them. Where the reference does not play the rules,
    #: such a check is skipped, with the reason the words file gives (`checks.sentences.runner`,
    #: `reference_only.<name>`).
    reference_only: bool = False
    #: Whether the check can speak of another game than 535 (it reads only the spec's own data):
    #: every other check is skipped for one, with that reason.
    other_games: bool = False
    # What ties the check to 535, said where it is skipped for another game, is the words file's
    # (`checks.sentences.runner`, `bound_to_535.<name>`).
    levels: tuple[Level, ...] = LEVELS
    #: Units the check's work splits into at level deep (CheckContext.shard), each a contiguous
    #: block of it, merged in order (CheckResult.merged): the result is the same whatever runs them.
    shards: int = 1
    #: The levels at which the report's job runs it (`535-check check` runs every check at every
    #: level of `levels`): a check whose findings only mean something in full runs at deep alone.
    report_levels: tuple[Level, ...] = LEVELS
    #: The check's one-line title where the words file gives none (`checks.titles`, by `name`): a
    #: check a test makes up. A registered check's title is the words file's.
    title: str | None = None
