"""What every format says the same way: what it renders a run against (Rendering), counts in words,
the verdict and summary line, each check's status word, what discovery did.

The underscore names are the package's own: the format modules share them, nothing outside imports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...checks.findings import CheckResult, Failure, Finding, FindingKind, MutantTally, ProvedProperty
from ...spec import Spec
from ...spec.words import embedded_words, words_of
from ...spec.words_model import FormatWords, Words
from .places import Place, failure_place, finding_place, ordered_findings

if TYPE_CHECKING:
    from ...checks.runner import CheckRun


@dataclass(frozen=True)
class Rendering:
    """A run and what a format renders it against: the spec (the line a result points at), the
    baseline (which findings are new), --strict (whether a new finding fails) and the root paths are
    relative to. The formats that place results take one of these, so that the five travel together."""

    run: CheckRun
    spec: Spec | None = None
    baseline: frozenset[str] | None = None
    strict: bool = False
    root: Path | None = None

    def new_ids(self) -> set[str]:
        """The ids of the findings the baseline does not hold (all of them without a baseline)."""
        return {f.id for f in self.run.new_findings(self.baseline)}

    def failure_place(self, f: Failure) -> Place:
        return failure_place(self.run, f, self.spec, self.root)

    def finding_place(self, f: Finding) -> Place:
        return finding_place(self.run, f, self.spec, self.root)

    def ordered_findings(self) -> list[Finding]:
        return ordered_findings(self.run, self.baseline)

    def verdict(self) -> str:
        return verdict(self.run, baseline=self.baseline, strict=self.strict, words=self.words)

    @cached_property
    def words(self) -> FormatWords:
        """The formats' words: the spec's words file's (the embedded one's without a spec), read
        once per rendering and handed to what writes them."""
        return format_words(self.spec)

    @cached_property
    def all_words(self) -> Words:
        """The whole words file `words` comes from: which engine played (`engines`) and each
        finding's status (the check words STATUS_WORDS) are worded from it too."""
        return words_of(self.spec) if self.spec is not None else embedded_words()


def format_words(spec: Spec | None) -> FormatWords:
    """The CI formats' words of `spec`'s words file (the embedded one's without a spec)."""
    return (words_of(spec) if spec is not None else embedded_words()).formats


#: Plurals that are not the word and an s.
PLURALS = {"ambiguity": "ambiguities", "mismatch": "mismatches", "match": "matches"}


def kind_count(n: int, kind: str, words: FormatWords) -> str:
    """A count of findings of one kind in words: 2 dead clauses, 1 engine decision."""
    noun = words.kind(kind)
    return f"{n:,} {noun.one if n == 1 else noun.many}"


def proved_properties(run: CheckRun) -> list[ProvedProperty]:
    """Every property a check of the run proved, in the order the checks ran (one of a name)."""
    seen: dict[str, ProvedProperty] = {}
    for r in run.results:
        for p in r.proved:
            seen.setdefault(p.name, p)
    return list(seen.values())


def discovery_lines(run: CheckRun, words: FormatWords) -> list[str]:
    """What discovery did, for people: the mutants run (in all and per check), the silences found
    (count and titles) and the properties proved (name and method). Empty when no check of the
    level ran a mutant, found a silence or proved a property."""
    mutants = [(r.name, r.mutants) for r in run.results if r.mutants]
    silences = [f for f in run.findings if f.kind is FindingKind.SILENCE]
    proved = proved_properties(run)
    tallies = [r.tally for r in run.results if r.tally is not None]
    if not mutants and not silences and not proved and not tallies:
        return []
    total = sum(n for _, n in mutants)
    per = ", ".join(f"{name} {n:,}" for name, n in mutants)
    say = words.common
    lines = [
        say("discovery", level=run.level, mutants=plural(total, "mutant")) + (f" ({per})" if per else "")
    ]
    found = kind_count(len(silences), FindingKind.SILENCE, words)
    lines[0] += say("found", found=found) + (":" if silences else ".")
    lines += [f"  {f.id}: {_one_line(f.title)}" for f in silences]
    for tally in tallies:
        lines += tally_lines(tally, words)
    if proved:
        lines.append(say("proved", count=len(proved)))
        # The scope is long (it names every bound); the JSON and SARIF carry it.
        lines += [f"  {p.name} ({p.method}): {_one_line(p.statement)}" for p in proved]
    return lines


def _counted(counts: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{verdict.replace('_', ' ')} {n:,}" for verdict, n in counts)


def tally_lines(tally: MutantTally, words: FormatWords) -> list[str]:
    """The mutants of the rules: how many were made and classified, the verdicts per operator and
    per rule, and the silences, already-asked and unplayable mutants by name."""
    say = words.common
    lines = [say("tally", generated=f"{tally.generated:,}", classified=f"{tally.classified:,}")]
    lines.append("  " + say("per_operator"))
    lines += [f"    {op}: {_counted(c)}" for op, c in tally.per_operator]
    lines.append("  " + say("per_rule"))
    lines += [f"    {rule}: {_counted(c)}" for rule, c in tally.per_rule]
    for verdict, name, why in tally.named:
        lines.append(f"  {verdict.replace('_', ' ')}: {_one_line(name)} ({_one_line(why)})")
    return lines


def plural(n: int, word: str, many: str | None = None) -> str:
    """A count and its noun: 1 failure, 2 failures, 1,204 situations, 2 mismatches."""
    return f"{n:,} {word if n == 1 else (many or PLURALS.get(word) or word + 's')}"


def verdict(run: CheckRun, *, baseline: frozenset[str] | None, strict: bool, words: FormatWords) -> str:
    say = words.common
    if run.errors and not [f for r in run.results if r.error is None for f in r.failures]:
        return say("failed_error")
    if run.failures:
        return say("failed")
    if strict and run.new_findings(baseline):
        return say("failed_strict")
    return say("passed")


def summary_line(run: CheckRun, baseline: frozenset[str] | None, words: FormatWords) -> str:
    say = words.common
    t = run.totals()
    new = len(run.new_findings(baseline))
    line = say(
        "checked",
        situations=plural(t["exhaustive"], "situation"),
        generated=f"{t['generated']:,}",
        proofs=plural(t["proofs"], "proof"),
        findings=plural(t["findings"], "finding"),
        known=say("new", count=f"{new:,}") if baseline is not None else "",
        failures=plural(t["failures"], "failure"),
    )
    if t["errors"]:
        line += say("errors", count=f"{t['errors']:,}")
    if t["skipped"]:
        other = len(_skipped_not_for_level(run))
        if t["skipped"] - other:
            line += say("not_run_level", checks=plural(t["skipped"] - other, "check"), level=run.level)
        if other:
            line += say("not_run_reason", checks=plural(other, "check"))
    if t["warnings"]:
        line += say("warned", checks=plural(t["warnings"], "check"))
    return line + "."


def _skipped_not_for_level(run: CheckRun) -> list[CheckResult]:
    """The skipped checks whose level runs them: each skipped for a reason of its own (the rules
    are not the ones the check states, another game), which a reader must be told."""
    from ...checks.runner import all_checks  # late: the runner imports every check, rendering needs one list

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


def _scenario_line(scenario: dict[str, Any], words: Words) -> str:
    from ...checks.play.matches import SCENARIO_WORDS, scenario_text

    changed = scenario.get("readings", {})
    text = scenario_text(scenario, words.check(SCENARIO_WORDS))
    return f"profile {scenario.get('profile')}, {text}" if changed else text


def _one_line(text: str) -> str:
    return " ".join(text.split())
