"""Render a CheckRun: text summary, JSON, JUnit XML, SARIF 2.1.0, GitHub workflow annotations, GitLab
Code Quality, and the Markdown job summary.

Paths are relative to a root (the working directory unless told otherwise), so that CI attaches an
annotation to the file of the repository it names. A spec file outside the root -- the embedded spec
installed in site-packages, above all -- gets no file at all: SARIF gives it a logical location, the
GitHub annotations and GitLab issues name it in words. A path outside the root would attach to
nothing and only leak the machine's layout.

JSON, SARIF and GitLab carry no timings, so the same seed gives byte-identical files; the text
summary, JUnit (whose schema has a `time` attribute) and the Markdown summary show them.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..checks.findings import CheckResult, Failure, Finding, FindingKind, ProvedProperty, Severity
from ..engine.engines import engine_note
from ..spec import Spec, dumps, embedded_spec_path

if TYPE_CHECKING:
    from ..checks.runner import CheckRun

Format = Literal["text", "json", "junit", "sarif", "github", "gitlab"]
FORMATS: tuple[Format, ...] = ("text", "json", "junit", "sarif", "github", "gitlab")
FORMAT_HELP = {
    "text": "a summary table for people",
    "json": "everything, for tools (no timings: byte-identical for a seed)",
    "junit": "JUnit XML: a test case per check and per finding",
    "sarif": "SARIF 2.1.0, e.g. for GitHub code scanning",
    "github": "GitHub Actions annotations (10 per kind, most severe first)",
    "gitlab": "GitLab Code Quality report",
}

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_URI = "https://github.com/five35/five35"
#: What a finding on the embedded spec is said to be in, where there is no file to name.
EMBEDDED_NAME = "five35/spec/535.yaml"
#: GitHub shows at most this many annotations of each kind (error, warning, notice) per step.
GITHUB_LIMIT = 10

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


#: Plurals that are not the word and an s.
PLURALS = {"ambiguity": "ambiguities", "mismatch": "mismatches", "match": "matches"}

#: Each kind of finding as CI tools name it: the noun (singular, plural) and what it means (a SARIF
#: rule's description, a GitLab category).
KIND_NOUNS: dict[str, tuple[str, str, str]] = {
    FindingKind.AMBIGUITY: ("ambiguity", "ambiguities", "the text admits readings that play differently"),
    FindingKind.CONTRADICTION: ("contradiction", "contradictions", "the text says two things at once"),
    FindingKind.GAP: ("gap", "gaps", "the text never defines something play needs"),
    FindingKind.DEAD_CLAUSE: ("dead clause", "dead clauses", "a rule that can never apply"),
    FindingKind.MISMATCH: ("mismatch", "mismatches", "the German and Spanish texts say different things"),
    FindingKind.DEFECT: ("damaged text", "damaged texts", "a source text is damaged"),
    FindingKind.SILENCE: ("silence", "silences", "the texts do not decide something play depends on"),
    FindingKind.DECISION: (
        "engine decision",
        "engine decisions",
        "the engine decides where the texts are silent",
    ),
    FindingKind.LIVENESS: (
        "liveness finding",
        "liveness findings",
        "play may never end, or a player to move has no legal move",
    ),
}
#: A SARIF level for each severity of the words file's `severities.by_kind`.
_SARIF_LEVEL = {"high": "error", "medium": "warning", "low": "note"}


def kind_count(n: int, kind: str) -> str:
    """A count of findings of one kind in words: 2 dead clauses, 1 engine decision."""
    one, many, _ = KIND_NOUNS.get(kind, (str(kind), f"{kind}s", ""))
    return f"{n:,} {one if n == 1 else many}"


def proved_properties(run: CheckRun) -> list[ProvedProperty]:
    """Every property a check of the run proved, in the order the checks ran (one of a name)."""
    seen: dict[str, ProvedProperty] = {}
    for r in run.results:
        for p in r.proved:
            seen.setdefault(p.name, p)
    return list(seen.values())


def discovery_lines(run: CheckRun) -> list[str]:
    """What discovery did, for people: the mutants run (in all and per check), the silences found
    (count and titles) and the properties proved (name and method). Empty when no check of the
    level ran a mutant, found a silence or proved a property."""
    mutants = [(r.name, r.mutants) for r in run.results if r.mutants]
    silences = [f for f in run.findings if f.kind is FindingKind.SILENCE]
    proved = proved_properties(run)
    if not mutants and not silences and not proved:
        return []
    total = sum(n for _, n in mutants)
    per = ", ".join(f"{name} {n:,}" for name, n in mutants)
    lines = [f"Discovery at level {run.level}: {plural(total, 'mutant')} run" + (f" ({per})" if per else "")]
    lines[0] += f"; {kind_count(len(silences), FindingKind.SILENCE)} found" + (":" if silences else ".")
    lines += [f"  {f.id}: {_one_line(f.title)}" for f in silences]
    if proved:
        lines.append(f"Proved ({len(proved)}):")
        # The scope is long (it names every bound); the JSON and SARIF carry it.
        lines += [f"  {p.name} ({p.method}): {_one_line(p.statement)}" for p in proved]
    return lines


def plural(n: int, word: str, many: str | None = None) -> str:
    """A count and its noun: 1 failure, 2 failures, 1,204 situations, 2 mismatches."""
    return f"{n:,} {word if n == 1 else (many or PLURALS.get(word) or word + 's')}"


def render(
    run: CheckRun,
    fmt: Format,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
    full_list: str | None = None,
) -> str:
    """`root`: what paths are relative to (default: the working directory). `full_list`: where
    the GitHub annotations' overflow notice says the whole list is."""
    renderers: dict[str, Callable[[], str]] = {
        "text": lambda: render_text(run, baseline=baseline, strict=strict),
        "json": lambda: dumps(run.to_json(baseline, strict=strict)) + "\n",
        "junit": lambda: render_junit(run, spec=spec, baseline=baseline, strict=strict, root=root),
        "sarif": lambda: render_sarif(run, spec=spec, baseline=baseline, strict=strict, root=root),
        "github": lambda: render_github(
            run, spec=spec, baseline=baseline, strict=strict, root=root, full_list=full_list
        ),
        "gitlab": lambda: render_gitlab(run, spec=spec, baseline=baseline, strict=strict, root=root),
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    return renderers[fmt]()


def verdict(run: CheckRun, *, baseline: frozenset[str] | None, strict: bool) -> str:
    if run.errors and not [f for r in run.results if r.error is None for f in r.failures]:
        return "FAILED (a check stopped with an error)"
    if run.failures:
        return "FAILED"
    if strict and run.new_findings(baseline):
        return "FAILED (new findings under --strict)"
    return "PASSED"


def summary_line(run: CheckRun, baseline: frozenset[str] | None) -> str:
    t = run.totals()
    new = len(run.new_findings(baseline))
    known = f", {new:,} new" if baseline is not None else ""
    line = (
        f"Checked {plural(t['exhaustive'], 'situation')} exhaustively, generated {t['generated']:,}, ran "
        f"{plural(t['proofs'], 'proof')}, made {plural(t['findings'], 'finding')}{known}; "
        f"{plural(t['failures'], 'failure')}"
    )
    if t["errors"]:
        line += f" ({t['errors']:,} of them from a check that stopped with an error)"
    if t["skipped"]:
        other = len(_skipped_not_for_level(run))
        if t["skipped"] - other:
            line += f"; {plural(t['skipped'] - other, 'check')} not run at level {run.level}"
        if other:
            line += f"; {plural(other, 'check')} not run for the reason given below"
    if t["warnings"]:
        line += f"; {plural(t['warnings'], 'check')} with a warning"
    return line + "."


def _skipped_not_for_level(run: CheckRun) -> list[CheckResult]:
    """The skipped checks whose level runs them: each skipped for a reason of its own (the rules
    are not the ones the check states, another game), which a reader must be told."""
    from ..checks.runner import all_checks  # late: the runner imports every check, rendering needs one list

    levels = {c.name: c.levels for c in all_checks()}
    return [r for r in run.skipped if run.level in levels.get(r.name, (run.level,))]


def status_word(result: CheckResult) -> str:
    """skipped, ERROR, FAIL, warning (it passed, but examined nothing or less than it says), ok."""
    if result.skipped is not None:
        return "skipped"
    if result.error is not None:
        return "ERROR"
    if not result.ok:
        return "FAIL"
    return "warning" if result.warnings else "ok"


# ---- where a result points --------------------------------------------------------------------


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


# ---- text ---------------------------------------------------------------------------------------


def render_text(run: CheckRun, *, baseline: frozenset[str] | None = None, strict: bool = False) -> str:
    lines = [
        f"535-check check: level {run.level}, seed {run.seed}, ruleset {run.ruleset.label()}",
        f"  spec {run.spec_path}",
        f"  engine {run.engine}",
        f"  rules {engine_note(run.ruleset)}",
        "",
    ]
    header = ("check", "exhaustive", "generated", "proofs", "findings", "failures", "time", "")
    rows = [
        (
            r.name,
            f"{r.exhaustive:,}",
            f"{r.generated:,}",
            f"{r.proofs:,}",
            str(len(r.findings)),
            str(len(r.failures)),
            f"{r.seconds:.1f}s",
            status_word(r),
        )
        for r in run.results
    ]
    t = run.totals()
    rows.append(
        (
            "total",
            f"{t['exhaustive']:,}",
            f"{t['generated']:,}",
            f"{t['proofs']:,}",
            str(t["findings"]),
            str(t["failures"]),
            f"{run.seconds:.1f}s",
            "",
        )
    )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for n, row in enumerate([header, *rows]):
        if n == len(rows):
            lines.append("  ".join("-" * w for w in widths).rstrip())
        cells = [
            row[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1], strict=True)),
            row[-1],
        ]
        lines.append("  ".join(cells).rstrip())
    lines += ["", summary_line(run, baseline)]
    skipped = run.skipped
    if skipped:
        lines += ["", "Skipped:"]
        lines += [f"  [{r.name}] {r.skipped}" for r in skipped]
    if run.warned:
        lines += ["", "Warnings:"]
        lines += [f"  [{r.name}] {_one_line(w)}" for r in run.warned for w in r.warnings]
    if run.failures:
        lines += ["", "Failures:"]
        for r in run.results:
            if r.error is not None:
                where = "in the engine under check" if r.error.in_engine else "in the check"
                lines.append(f"  [{r.name}] ERROR {where}: {_one_line(r.error.message)}")
                continue
            for f in r.failures:
                lines.append(f"  [{f.check}] {_one_line(f.message)}")
                if f.witness is not None:
                    scenario = f.witness.situation.get("scenario")
                    if isinstance(scenario, dict):
                        lines.append(f"      replay: {_scenario_line(scenario)}")
                    lines.append(
                        f"      witness: {plural(f.witness.cards, 'card')}; engine "
                        f"{f.witness.outcomes.get('engine')!r}, spec {f.witness.outcomes.get('spec')!r}"
                    )
    findings = run.findings
    if findings:
        new = {n.id for n in run.new_findings(baseline)}
        kinds = Counter(finding.kind for finding in findings)
        by_kind = ", ".join(kind_count(n, kind) for kind, n in sorted(kinds.items()))
        lines += ["", f"Findings ({by_kind}{f'; {len(new)} new' if baseline is not None else ''}):"]
        for finding in findings:
            mark = " [new]" if baseline is not None and finding.id in new else ""
            lines.append(f"  {finding.id} ({finding.kind}){mark}: {_one_line(finding.title)}")
    discovered = discovery_lines(run)
    if discovered:
        lines += ["", *discovered]
    lines += ["", verdict(run, baseline=baseline, strict=strict)]
    return "\n".join(lines) + "\n"


def _scenario_line(scenario: dict[str, Any]) -> str:
    from ..checks.play.matches import scenario_text

    changed = scenario.get("readings", {})
    return (
        f"profile {scenario.get('profile')}, {scenario_text(scenario)}"
        if changed
        else scenario_text(scenario)
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ---- JUnit --------------------------------------------------------------------------------------

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("?", text)


def render_junit(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> str:
    """JUnit XML, as a CI test tab should show the run: a test case per check -- <skipped/> when not
    run at this level, <error> when it raised (or all it found was the engine under check raising),
    <failure> when the engine broke the rules -- and a test case per finding, which fails only when
    it is new under --strict."""
    new = {f.id for f in run.new_findings(baseline)}
    suite = ET.Element("testsuite", name=f"535-check check ({run.ruleset.label()})")
    counts: Counter[str] = Counter()
    props = ET.SubElement(suite, "properties")
    for key, value in (
        ("level", run.level),
        ("seed", str(run.seed)),
        ("spec", spec_name(run.spec_path, root)),
        ("engine", run.engine),
        ("ruleset", run.ruleset.label()),
        ("strict", "true" if strict else "false"),
        ("baseline", "given" if baseline is not None else "none"),
        ("mutants", str(sum(r.mutants for r in run.results))),
        ("proved", str(len(proved_properties(run)))),
    ):
        ET.SubElement(props, "property", name=key, value=_xml_text(value))
    for r in run.results:
        counts["tests"] += 1
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"five35.checks.{r.name.split('.')[0]}",
            name=r.name,
            time=f"{r.seconds:.3f}",
        )
        outcome = _junit_outcome(run, r, spec, root)
        if outcome is not None:
            counts[outcome.tag] += 1
            case.append(outcome)
        out = [
            r.title,
            f"exhaustive {r.exhaustive}, generated {r.generated}, proofs {r.proofs}, "
            f"findings {len(r.findings)}",
            *r.notes,
            *(f"finding {f.id}: {f.title}" for f in r.findings),
        ]
        ET.SubElement(case, "system-out").text = _xml_text("\n".join(out))
    for finding in ordered_findings(run, baseline):
        counts["tests"] += 1
        place = finding_place(run, finding, spec, root)
        case = ET.SubElement(
            suite, "testcase", classname=f"five35.findings.{finding.kind}", name=finding.id, time="0.000"
        )
        is_new = finding.id in new
        state = ("new" if is_new else "known") if baseline is not None else "not in a baseline"
        body = [
            f"{finding.kind}, severity {finding.severity}, {state}; {finding.status}",
            f"at {place.words() if place.file is None else f'{place.file}:{place.line}'}",
            _one_line(finding.title),
            _one_line(finding.detail),
        ]
        if strict and is_new:
            counts["failure"] += 1
            failure = ET.SubElement(
                case,
                "failure",
                message=_xml_text(f"new finding under --strict: {_one_line(finding.title)}"[:500]),
                type="five35.NewFinding",
            )
            failure.text = _xml_text("\n".join(body))
        ET.SubElement(case, "system-out").text = _xml_text("\n".join(body))
    for p in proved_properties(run):
        counts["tests"] += 1
        case = ET.SubElement(suite, "testcase", classname="five35.proved", name=p.name, time="0.000")
        ET.SubElement(case, "system-out").text = _xml_text(
            f"proved ({p.method}) over {_one_line(p.scope)}: {_one_line(p.statement)}"
        )
    for key, tag in (
        ("tests", "tests"),
        ("failures", "failure"),
        ("errors", "error"),
        ("skipped", "skipped"),
    ):
        suite.set(key, str(counts[tag]))
    suite.set("time", f"{run.seconds:.3f}")
    ET.SubElement(suite, "system-out").text = _xml_text(summary_line(run, baseline))
    suites = ET.Element(
        "testsuites",
        name="535-check",
        tests=suite.get("tests", "0"),
        failures=suite.get("failures", "0"),
        errors=suite.get("errors", "0"),
        time=f"{run.seconds:.3f}",
    )
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _junit_outcome(run: CheckRun, r: CheckResult, spec: Spec | None, root: Path | None) -> ET.Element | None:
    if r.skipped is not None:
        return ET.Element("skipped", message=_xml_text(r.skipped))
    if r.error is not None:
        element = ET.Element(
            "error",
            message=_xml_text(_one_line(r.error.message)[:500]),
            type="five35.EngineCrash" if r.error.in_engine else "five35.CheckCrash",
        )
        element.text = _xml_text(r.error.traceback)
        return element
    if not r.failures:
        # JUnit has no warning: a check that examined nothing (or less than it says) tested nothing
        # (or not all) a CI test tab would count as passed.
        if r.warnings:
            return ET.Element(
                "skipped", message=_xml_text(_one_line("warning: " + "; ".join(r.warnings))[:500])
            )
        return None
    from ..checks.runner import is_engine_crash

    crashes = all(is_engine_crash(f) for f in r.failures)
    first = r.failures[0]
    more = f" (and {len(r.failures) - 1} more)" if len(r.failures) > 1 else ""
    element = ET.Element(
        "error" if crashes else "failure",
        message=_xml_text(_one_line(first.message)[:500] + more),
        type="five35.EngineCrash" if crashes else "five35.Failure",
    )
    element.text = _xml_text("\n\n".join(_failure_detail(run, x, spec, root) for x in r.failures))
    return element


def _failure_detail(run: CheckRun, f: Failure, spec: Spec | None, root: Path | None) -> str:
    place = failure_place(run, f, spec, root)
    parts = [f.message, f"at {place.words() if place.file is None else f'{place.file}:{place.line}'}"]
    if f.witness is not None:
        parts.append(f"witness ({plural(f.witness.cards, 'card')}): {f.witness.summary}")
        scenario = f.witness.situation.get("scenario")
        if isinstance(scenario, dict):
            parts.append(f"replay: {_scenario_line(scenario)}")
        parts.append(dumps(f.witness.to_json()))
    return "\n".join(parts)


# ---- SARIF ----------------------------------------------------------------------------------------


def _sarif_location(place: Place) -> dict[str, Any]:
    logical = {"name": place.ident or place.spec_name, "fullyQualifiedName": place.logical, "kind": "element"}
    if place.file is None:
        return {"logicalLocations": [logical]}
    return {
        "physicalLocation": {"artifactLocation": {"uri": place.file}, "region": {"startLine": place.line}},
        "logicalLocations": [logical],
    }


def render_sarif(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> str:
    new = {f.id for f in run.new_findings(baseline)}
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    for f in run.failures:
        rule_id = f"failure/{f.check}"
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": f.check,
                "shortDescription": {"text": f"The engine breaks {f.check}"},
                "defaultConfiguration": {"level": "error"},
            },
        )
        results.append(
            {
                "ruleId": rule_id,
                "level": "error",
                "message": {"text": _one_line(f.message)},
                "locations": [_sarif_location(failure_place(run, f, spec, root))],
                "properties": {
                    "readings": dict(f.readings),
                    "witness": f.witness.to_json() if f.witness else None,
                },
            }
        )
    by_kind = _kind_severity(spec)
    for finding in ordered_findings(run, baseline):
        rule_id = f"finding/{finding.kind}"
        one, _, means = KIND_NOUNS.get(finding.kind, (str(finding.kind), "", str(finding.kind)))
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "name": finding.kind,
                "shortDescription": {"text": f"Rules {one}: {means}"},
                "defaultConfiguration": {"level": _SARIF_LEVEL.get(by_kind.get(finding.kind, ""), "warning")},
            },
        )
        is_new = finding.id in new
        result: dict[str, Any] = {
            "ruleId": rule_id,
            "level": "error" if strict and is_new else ("warning" if is_new else "note"),
            "message": {"text": _one_line(f"{finding.title}. {finding.detail}")},
            "locations": [_sarif_location(finding_place(run, finding, spec, root))],
            "partialFingerprints": {"findingId": finding.id},
            "properties": {
                "id": finding.id,
                "severity": finding.severity.value,
                "kind": finding.kind.value,
                "topic": finding.topic,
                "clauses": list(finding.clauses),
                "witness": finding.witness.to_json() if finding.witness else None,
            },
        }
        if baseline is not None:
            result["baselineState"] = "new" if is_new else "unchanged"
        results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": _one_line(r.error.message)},
            "descriptor": {"id": r.name},
            "properties": {"inEngine": r.error.in_engine},
        }
        for r in run.errors
        if r.error is not None
    ] + [
        {
            "level": "note",
            "message": {"text": _one_line(f"{r.name} skipped: {r.skipped}")},
            "descriptor": {"id": r.name},
        }
        for r in _skipped_not_for_level(run)
    ]
    notifications += [
        {
            "level": "warning",
            "message": {"text": _one_line(w)},
            "descriptor": {"id": r.name},
        }
        for r in run.warned
        for w in r.warnings
    ]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "535-check",
                        "informationUri": TOOL_URI,
                        "rules": [rules[k] for k in sorted(rules)],
                    }
                },
                "invocations": [
                    {"executionSuccessful": not run.errors, "toolExecutionNotifications": notifications}
                ],
                "automationDetails": {"id": f"535-check/{run.level}/{run.seed}"},
                "results": results,
                "properties": {
                    "seed": run.seed,
                    "level": run.level,
                    "ruleset": run.ruleset.label(),
                    "spec": spec_name(run.spec_path, root),
                    "totals": run.totals(),
                    "skipped": [r.name for r in run.skipped],
                    "mutants": {r.name: r.mutants for r in run.results if r.mutants},
                    "proved": [p.to_json() for p in proved_properties(run)],
                },
            }
        ],
    }
    return dumps(doc) + "\n"


# ---- GitHub annotations -------------------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


@dataclass(frozen=True)
class Annotation:
    kind: Literal["error", "warning", "notice"]
    place: Place | None
    title: str
    message: str

    def command(self) -> str:
        props = []
        if self.place is not None and self.place.file is not None:
            props += [f"file={_escape_property(self.place.file)}", f"line={self.place.line}"]
        props.append(f"title={_escape_property(self.title)}")
        message = self.message
        if self.place is not None and self.place.file is None:
            message += f" ({self.place.words()})"
        return f"::{self.kind} {','.join(props)}::{_escape_data(message)}"


def github_annotations(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> list[Annotation]:
    """Every annotation, most severe first: failures (errors); new findings (warnings, errors under
    --strict) by severity; known findings (notices)."""
    new = {f.id for f in run.new_findings(baseline)}
    out = [
        Annotation("error", failure_place(run, f, spec, root), f"535-check {f.check}", f.message)
        for f in run.failures
    ]
    # A check that examined nothing is a warning before any finding's; it is about no line of the spec.
    out += [Annotation("warning", None, f"535-check {r.name}", w) for r in run.warned for w in r.warnings]
    for finding in ordered_findings(run, baseline):
        is_new = finding.id in new
        kind: Literal["error", "warning", "notice"] = (
            ("error" if strict else "warning") if is_new else "notice"
        )
        out.append(
            Annotation(
                kind,
                finding_place(run, finding, spec, root),
                f"{KIND_NOUNS.get(finding.kind, (str(finding.kind),))[0]}: {finding.id}",
                f"{finding.title}. {finding.detail}",
            )
        )
    rank = {"error": 0, "warning": 1, "notice": 2}
    return sorted(out, key=lambda a: rank[a.kind])  # stable: the order within a kind is kept


def render_github(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
    full_list: str | None = None,
) -> str:
    """GitHub Actions workflow commands: at most GITHUB_LIMIT annotations of each kind (GitHub drops
    the rest without a word), most severe first; then one notice saying how many more there are and
    where the full list is; then the summary line."""
    every = github_annotations(run, spec=spec, baseline=baseline, strict=strict, root=root)
    by_kind = Counter(a.kind for a in every)
    overflow = any(n > GITHUB_LIMIT for n in by_kind.values())
    # The overflow notice is a notice too: it takes one of the notices' places.
    limits = {"error": GITHUB_LIMIT, "warning": GITHUB_LIMIT, "notice": GITHUB_LIMIT - (1 if overflow else 0)}
    shown: list[Annotation] = []
    hidden: Counter[str] = Counter()
    for a in every:
        if sum(1 for s in shown if s.kind == a.kind) < limits[a.kind]:
            shown.append(a)
        else:
            hidden[a.kind] += 1
    lines = [a.command() for a in shown]
    if hidden:
        total = sum(hidden.values())
        parts = ", ".join(plural(hidden[k], k) for k in ("error", "warning", "notice") if hidden[k])
        where = full_list or "run `535-check check` with --format text or --format sarif"
        lines.append(
            Annotation(
                "notice",
                None,
                f"535-check: {plural(total, 'more annotation')}",
                f"GitHub shows {GITHUB_LIMIT} annotations of each kind; {plural(total, 'more annotation')} "
                f"({parts}) are not shown. The full list: {where}.",
            ).command()
        )
    lines.append(
        f"535-check check (level {run.level}, seed {run.seed}): {summary_line(run, baseline)} "
        f"{verdict(run, baseline=baseline, strict=strict)}"
    )
    return "\n".join(lines) + "\n"


# ---- GitLab Code Quality ------------------------------------------------------------------------

_GITLAB_SEVERITY = {Severity.HIGH: "major", Severity.MEDIUM: "minor", Severity.LOW: "info"}


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def render_gitlab(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> str:
    """A GitLab Code Quality report (the Code Climate issue subset GitLab reads). GitLab needs a
    path for every issue: a spec outside the root is named by its package path (EMBEDDED_NAME) or
    file name, which GitLab shows without a link."""
    new = {f.id for f in run.new_findings(baseline)}
    issues: list[dict[str, Any]] = []

    def issue(check_name: str, description: str, severity: str, place: Place, key: str) -> dict[str, Any]:
        return {
            "type": "issue",
            "check_name": check_name,
            "description": _one_line(description),
            "categories": ["Bug Risk"],
            "severity": severity,
            "fingerprint": _fingerprint(place.spec_name, key),
            "location": {"path": place.file or place.spec_name, "lines": {"begin": place.line}},
        }

    for n, f in enumerate(run.failures):
        place = failure_place(run, f, spec, root)
        issues.append(issue(f"535-check/{f.check}", f.message, "critical", place, f"failure/{f.check}/{n}"))
    for r in run.warned:
        place = _place(run, spec, root, ("", ""))
        for n, w in enumerate(r.warnings):
            issues.append(issue(f"535-check/{r.name}", w, "minor", place, f"warning/{r.name}/{n}"))
    for finding in ordered_findings(run, baseline):
        place = finding_place(run, finding, spec, root)
        severity = "critical" if strict and finding.id in new else _GITLAB_SEVERITY[finding.severity]
        issues.append(
            issue(
                f"535-check/{finding.kind}",
                f"{finding.id}: {finding.title}. {finding.detail}",
                severity,
                place,
                f"finding/{finding.id}",
            )
        )
    return dumps(issues) + "\n"


# ---- Markdown job summary (GITHUB_STEP_SUMMARY) ------------------------------------------------


def _md(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def render_markdown_summary(
    run: CheckRun,
    *,
    spec: Spec | None = None,
    baseline: frozenset[str] | None = None,
    strict: bool = False,
    root: Path | None = None,
) -> str:
    """The job summary: the verdict, the checks table, the failures and the findings table."""
    new = {f.id for f in run.new_findings(baseline)}
    lines = [
        f"## 535-check check: {verdict(run, baseline=baseline, strict=strict)}",
        "",
        f"Level {run.level}, seed {run.seed}, ruleset `{run.ruleset.label()}`, spec "
        f"`{spec_name(run.spec_path, root)}`. {summary_line(run, baseline)}",
        "",
        "| check | status | exhaustive | generated | proofs | findings | failures | time |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in run.results:
        status = status_word(r)
        if r.skipped is not None:
            status = f"skipped: {_md(r.skipped)}"
        elif r.error is not None:
            status = f"ERROR: {_md(r.error.message)}"
        elif r.ok and r.warnings:
            status = f"warning: {_md('; '.join(r.warnings))}"
        lines.append(
            f"| {r.name} | {status} | {r.exhaustive:,} | {r.generated:,} | {r.proofs:,} | "
            f"{len(r.findings)} | {len(r.failures)} | {r.seconds:.1f}s |"
        )
    if run.failures:
        lines += [
            "",
            f"### Failures ({len(run.failures)})",
            "",
            "| check | where | failure |",
            "|---|---|---|",
        ]
        for f in run.failures:
            lines.append(
                f"| {f.check} | {_where(failure_place(run, f, spec, root))} | {_md(f.message)[:300]} |"
            )
    discovered = discovery_lines(run)
    if discovered:
        lines += ["", "### Discovery", ""]
        lines += [
            f"- {_md(line)}" if not line.startswith("  ") else f"  - {_md(line)}" for line in discovered
        ]
    findings = ordered_findings(run, baseline)
    if findings:
        counted = f"{len(findings)}; {len(new)} new" if baseline is not None else f"{len(findings)}"
        lines += [
            "",
            f"### Findings ({counted})",
            "",
            "| finding | kind | severity | status | where | title |",
            "|---|---|---|---|---|---|",
        ]
        for finding in findings:
            state = ("**new**" if finding.id in new else "known") if baseline is not None else "-"
            lines.append(
                f"| `{finding.id}` | {finding.kind} | {finding.severity} | {state} | "
                f"{_where(finding_place(run, finding, spec, root))} | {_md(finding.title)} |"
            )
    return "\n".join(lines) + "\n"


def _kind_severity(spec: Spec | None) -> dict[str, str]:
    """The words file's severity per discovered kind (severities.by_kind); none without a spec."""
    if spec is None:
        return {}
    from ..spec.words import words_of

    return dict(words_of(spec).kind_severity)


def _where(place: Place) -> str:
    if place.file is not None:
        return f"`{place.file}:{place.line}`"
    return _md(place.words())
