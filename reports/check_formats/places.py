"""Where a result points: a line of a spec file under the root, or only a spec entry named in words.

`_place` is the package's own: gitlab.py places a check's warning with it (no anchor), nothing outside
imports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...checks.findings import Failure, Finding, Severity
from ...spec import Spec, embedded_spec_path

if TYPE_CHECKING:
    from ...checks.runner import CheckRun


#: What a finding on the embedded spec is said to be in, where there is no file to name.
EMBEDDED_NAME = "five35/spec/535.yaml"

# Where in the spec an invariant's rule is stated, so annotations land on the right line.
INVARIANT_CLAUSES = {
    "leader.no_pass": "lead.no_pass",
    "trick.end": "trick.end",
    "trick.winner": "trick.winner",
    "turn.next": "action.pass.out",
    "round.end": "round.end",
    "round.penalties": "round.scoring",
    "match.end": "match.end",
    "pile.caps": "trick.end.set",
    "pile.valid": "pile.types",
    "pile.result": "action.add",
    "moves.allowed": "action.choice",
    "cards.accounted": "deck.copies",
}
CHECK_CLAUSES = {"graphs.succession": "pile.run", "graphs.beats": "action.overwrite"}
_SEVERITY_RANK = {Severity.HIGH: 0, Severity.MEDIUM: 1, Severity.LOW: 2}


@dataclass(frozen=True)
class Place:
    """Where a result points: a file under the root and a line, or (file None) only the spec entry,
    `section`/`ident` (e.g. clauses/pile.run), of the spec called `spec_name`."""

    file: str | None
    line: int
    section: str
    ident: str
    spec_name: str

    @property
    def logical(self) -> str:
        return f"{self.spec_name}/{self.section}/{self.ident}" if self.ident else self.spec_name

    def words(self) -> str:
        """The place in words, for a message that cannot carry a file."""
        where = f"{self.section[:-1].replace('_', ' ')} {self.ident}, " if self.ident else ""
        return f"{self.spec_name}: {where}line {self.line}"


def spec_file(spec_path: str, root: Path | None = None) -> str | None:
    """The spec's path relative to the root, or None when it lies outside it."""
    try:
        rel = Path(spec_path).resolve().relative_to((root or Path.cwd()).resolve())
    except (ValueError, OSError):
        return None
    return rel.as_posix()


def spec_name(spec_path: str, root: Path | None = None) -> str:
    """The spec as a reader should see it named: its path under the root, else the embedded spec's
    package name, else the file's name (never a path outside the root)."""
    rel = spec_file(spec_path, root)
    if rel is not None:
        return rel
    try:
        if Path(spec_path).resolve() == embedded_spec_path().resolve():
            return EMBEDDED_NAME
    except OSError:
        pass
    return Path(spec_path).name


def _failure_anchor(f: Failure) -> tuple[str, str]:
    invariant = f.message.split(":", 1)[0].strip()
    clause = INVARIANT_CLAUSES.get(invariant) or CHECK_CLAUSES.get(f.check)
    return ("clauses", clause) if clause else ("", "")


def _finding_anchor(spec: Spec | None, f: Finding) -> tuple[str, str]:
    point = f.variation_point
    if point is not None and (spec is None or point in spec.variation_points):
        return ("variation_points", point)
    return ("clauses", f.clauses[0]) if f.clauses else ("", "")


def _place(run: CheckRun, spec: Spec | None, root: Path | None, anchor: tuple[str, str]) -> Place:
    section, ident = anchor
    line = 1
    if spec is not None and section == "clauses" and ident in spec.clauses:
        line = spec.clauses[ident].line
    elif spec is not None and section == "variation_points" and ident in spec.variation_points:
        line = spec.variation_points[ident].line
    return Place(spec_file(run.spec_path, root), line, section, ident, spec_name(run.spec_path, root))


def failure_place(run: CheckRun, f: Failure, spec: Spec | None, root: Path | None = None) -> Place:
    return _place(run, spec, root, _failure_anchor(f))


def finding_place(run: CheckRun, f: Finding, spec: Spec | None, root: Path | None = None) -> Place:
    return _place(run, spec, root, _finding_anchor(spec, f))


def ordered_findings(run: CheckRun, baseline: frozenset[str] | None) -> list[Finding]:
    """Most severe first, new before known, then by id."""
    new = {f.id for f in run.new_findings(baseline)}
    return sorted(run.findings, key=lambda f: (f.id not in new, _SEVERITY_RANK.get(f.severity, 3), f.id))
