"""The typed results every check produces, and that reports only render.

- A `Finding` is something a rule designer should read: an ambiguity (a variation point whose
  readings lead to different play), a contradiction, a gap, a dead clause, a German/Spanish
  mismatch, a defect in a source text. Findings are not failures: the rules are what they are.
- A `Failure` means five35 itself (or the engine under test) is wrong: the engine disagrees with
  the spec's model, or an invariant broke. Failures make `535-check check` exit 1.
- A `Witness` is the smallest concrete situation that shows a finding or failure, as JSON-able data
  a report can draw: the cards as ranks, whose turn it is, the pile, what each reading allows next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from five35.engine import Game
from five35.spec import Ruleset, Spec

FindingKind = Literal[
    "ambiguity",  # a variation point: the text admits readings that play differently
    "contradiction",  # the text (or a spec) says two things that cannot both hold
    "gap",  # the text never defines something play needs
    "dead_clause",  # a rule that can never apply under some reading
    "mismatch",  # the German and Spanish texts say different things
    "defect",  # a source text is damaged (lost characters, ...)
]
FINDING_KINDS: tuple[FindingKind, ...] = (
    "ambiguity",
    "contradiction",
    "gap",
    "dead_clause",
    "mismatch",
    "defect",
)
Severity = Literal["high", "medium", "low"]
Level = Literal["quick", "ci", "deep"]
LEVELS: tuple[Level, ...] = ("quick", "ci", "deep")


@dataclass(frozen=True)
class Witness:
    """A minimal concrete situation.

    `situation` holds JSON-able data with these keys where they apply: players, to_move, leading
    (bool), hand (the mover's cards), hands (all hands), pile ({kind, cards} or None),
    opening_has_eight, trick (list of {player, action, cards}). `outcomes` maps a reading (or
    "engine"/"model") to what happens next under it: legal moves, trick end, winner, ...
    `cards` is the witness size: the number of cards it involves.
    """

    summary: str
    situation: Mapping[str, Any]
    outcomes: Mapping[str, Any]
    cards: int

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "situation": dict(self.situation),
            "outcomes": dict(self.outcomes),
            "cards": self.cards,
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
class Finding:
    """One thing a rule designer should read, with everything needed to settle it."""

    id: str  # stable across runs, used by --baseline (e.g. "vp.run_wrap", "dead.overwrite.size-4")
    kind: FindingKind
    title: str
    clauses: tuple[str, ...]
    detail: str
    check: str  # the check that made it
    severity: Severity = "medium"
    variation_point: str | None = None
    readings: Mapping[str, str] = field(default_factory=dict)  # reading -> plain-words explanation
    witness: Witness | None = None
    impact: Impact | None = None
    evidence: tuple[str, ...] = ()  # evidence ids (E1...) and/or sentences with their source
    proposed_wording: str | None = None
    status: str = "open"  # "open", or "settled by profile <name>: <reading>"
    unsat_core: tuple[str, ...] = ()  # for contradictions: the clause ids / spec entries in conflict

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "clauses": list(self.clauses),
            "detail": self.detail,
            "check": self.check,
            "severity": self.severity,
            "variation_point": self.variation_point,
            "readings": dict(self.readings),
            "witness": self.witness.to_json() if self.witness else None,
            "impact": self.impact.to_json() if self.impact else None,
            "evidence": list(self.evidence),
            "proposed_wording": self.proposed_wording,
            "status": self.status,
            "unsat_core": list(self.unsat_core),
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


def point_status(spec: Spec, ruleset: Ruleset, point: str | None) -> str:
    """Settled when the chosen profile picks the point's reading on the strength of a text or
    outside evidence; a choice the profile made without a source leaves the question open."""
    if point is None or point not in spec.variation_points:
        return "open"
    reading = ruleset.reading(point)
    profile = spec.profiles.get(ruleset.profile)
    choice = profile.readings.get(point) if profile else None
    if point in ruleset.overridden or choice is None:
        return "open"
    if choice.basis in ("text", "evidence"):
        return f"settled by profile {ruleset.profile}: {reading}"
    return "open"


EngineFactory = Callable[[Ruleset, int], Game]


@dataclass(frozen=True)
class CheckContext:
    """Everything a check may use. `engine` builds the engine under check (the reference by
    default; a planted-bug subclass of Game in the tests)."""

    spec: Spec
    ruleset: Ruleset
    level: Level = "ci"
    seed: int = 0
    engine: EngineFactory = Game


@dataclass(frozen=True)
class CheckResult:
    """What one check did: counts of what it examined, its findings and its failures."""

    name: str
    title: str
    seconds: float
    exhaustive: int = 0  # situations checked exhaustively
    generated: int = 0  # situations generated (Hypothesis, random)
    proofs: int = 0  # Z3 proofs run
    findings: tuple[Finding, ...] = ()
    failures: tuple[Failure, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            # No timings here: the JSON of a run must be byte-identical for the same seed.
            "exhaustive": self.exhaustive,
            "generated": self.generated,
            "proofs": self.proofs,
            "findings": [f.to_json() for f in self.findings],
            "failures": [f.to_json() for f in self.failures],
            "notes": list(self.notes),
        }


Check = Callable[[CheckContext], CheckResult]
