"""What the report job hands the report (five35.checks.job.review): each finding reviewed, the
measured impacts and variants, the questions for a designer, and the ReportData that holds them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from ...engine.stats import Stats
from ...spec import Ruleset, Spec
from ...spec.words_model import QuestionWords
from ..findings import (
    CheckResult,
    Finding,
    FindingKind,
    Impact,
    Severity,
    Status,
)
from ..impact.measure import ImpactCounts
from ..impact.outcomes import OutcomeChange


@dataclass(frozen=True)
class PointImpact:
    """A measured impact and the counts behind it: of a variation point (`subject` is the point),
    or of one finding's alternative (`subject` is the finding's id)."""

    subject: str
    played: str
    compared: str
    impact: Impact
    per_players: Mapping[int, ImpactCounts]


@dataclass(frozen=True)
class Variant:
    """One column of the variant comparison: a ruleset and its stats per player count. A player
    count the ruleset cannot deal is listed in `unplayable` with the reason."""

    label: str
    title: str
    readings: Mapping[str, str]
    stats: Mapping[int, Stats]
    unplayable: Mapping[int, str] = field(default_factory=dict)


class WitnessSource(StrEnum):
    CHECK = "check"  # the check that made the finding drew it
    POINT = "point"  # borrowed from the section of the finding's variation point
    SCENE = "scene"  # the finding's scene, played under both sides of its alternative
    SIMULATION = "simulation"  # the smallest difference seen in the simulated games


class ImpactSource(StrEnum):
    CHECK = "check"
    POINT = "point"  # the finding's variation point's impact
    ALTERNATIVES = "alternatives"  # the finding's own alternative, measured over the same games


@dataclass(frozen=True)
class Reviewed:
    """A finding as the report shows it, with where its witness and impact come from."""

    finding: Finding  # its final severity, witness, impact and proposed sentence
    point_section: bool  # the section of its variation point itself
    question: str | None = None  # the question it belongs to; None: it stands alone
    witness_source: WitnessSource | None = None
    witness_section: str | None = None  # the section a borrowed witness is from
    check_found: str | None = None  # what the check itself found, when a scene replaced its witness
    impact_source: ImpactSource | None = None
    impact_section: str | None = None  # the section a borrowed impact is from
    measured: PointImpact | None = None  # the measurement behind the impact, when this run made it


@dataclass(frozen=True)
class QuestionImpact:
    """How often the answer to a question changes a game: the largest share of affected games at any
    player count, with its 95% interval, and what was measured (a point, or a finding's own
    alternative)."""

    share: float
    players: int
    ci_low: float
    ci_high: float
    subject: str
    # What the answer changes at the table (who wins, how long, how scores spread), measured for
    # the same subject over the same matches; None where it was not measured.
    outcome: OutcomeChange | None = None

    @property
    def effect(self) -> float:
        """The size of the answer's largest real change at the table (0 where none is real)."""
        return self.outcome.effect if self.outcome is not None and self.outcome.real else 0.0

    @property
    def wording_only(self) -> bool:
        """Both answers were played and no simulated game went otherwise: a question of wording."""
        return self.share == 0.0


@dataclass(frozen=True)
class Question:
    """One question a designer settles, with every finding about it (`members`, finding ids: the
    sections of its points first)."""

    words: QuestionWords
    kind: FindingKind
    severity: Severity
    status: Status
    members: tuple[str, ...]
    impact: QuestionImpact | None
    # Silences found by discovery on a topic of a question the words file declares with points:
    # the engine was also checked against them, but they neither rank the question nor settle it.
    also: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.words.id


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows, finished: the report only arranges and renders it."""

    spec: Spec
    ruleset: Ruleset
    results: tuple[CheckResult, ...]
    findings: tuple[Reviewed, ...]
    variants: tuple[Variant, ...]
    games: int
    seed: int
    level: str
    bots: tuple[str, ...]
    mode: str = "match"
    notes: tuple[str, ...] = ()
    questions: tuple[Question, ...] = ()  # ranked: the most consequential first
    standalone: tuple[str, ...] = ()  # the ids of the findings that belong to no question
