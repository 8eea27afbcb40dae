"""JUnit XML, for a CI test tab: a test case per check, per finding and per proved property."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from ...checks.findings import STATUS_WORDS, CheckResult, Failure
from ...spec import dumps
from .common import Rendering, _one_line, _scenario_line, plural, proved_properties, summary_line
from .places import spec_name

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("?", text)


def render_junit(rendering: Rendering) -> str:
    """JUnit XML, as a CI test tab should show the run: a test case per check -- <skipped/> when not
    run at this level, <error> when it raised (or all it found was the engine under check raising),
    <failure> when the engine broke the rules -- and a test case per finding, which fails only when
    it is new under --strict."""
    run, baseline, strict = rendering.run, rendering.baseline, rendering.strict
    say = rendering.words.junit
    status = rendering.all_words.check(STATUS_WORDS)
    new = rendering.new_ids()
    suite = ET.Element("testsuite", name=say("suite", ruleset=run.ruleset.label()))
    counts: Counter[str] = Counter()
    props = ET.SubElement(suite, "properties")
    for key, value in (
        ("level", run.level),
        ("seed", str(run.seed)),
        ("spec", spec_name(run.spec_path, rendering.root)),
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
        outcome = _junit_outcome(rendering, r)
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
    for finding in rendering.ordered_findings():
        counts["tests"] += 1
        place = rendering.finding_place(finding)
        case = ET.SubElement(
            suite, "testcase", classname=f"five35.findings.{finding.kind}", name=finding.id, time="0.000"
        )
        is_new = finding.id in new
        state = ("new" if is_new else "known") if baseline is not None else say("not_in_baseline")
        body = [
            f"{finding.kind}, severity {finding.severity}, {state}; {finding.status.words(status)}",
            f"at {place.words() if place.file is None else f'{place.file}:{place.line}'}",
            _one_line(finding.title),
            _one_line(finding.detail),
        ]
        if strict and is_new:
            counts["failure"] += 1
            failure = ET.SubElement(
                case,
                "failure",
                message=_xml_text(say("new_finding", title=_one_line(finding.title))[:500]),
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
    ET.SubElement(suite, "system-out").text = _xml_text(summary_line(run, baseline, rendering.words))
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


def _junit_outcome(rendering: Rendering, r: CheckResult) -> ET.Element | None:
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
    from ...checks.runner import is_engine_crash

    crashes = all(is_engine_crash(f) for f in r.failures)
    first = r.failures[0]
    more = f" (and {len(r.failures) - 1} more)" if len(r.failures) > 1 else ""
    element = ET.Element(
        "error" if crashes else "failure",
        message=_xml_text(_one_line(first.message)[:500] + more),
        type="five35.EngineCrash" if crashes else "five35.Failure",
    )
    element.text = _xml_text("\n\n".join(_failure_detail(rendering, x) for x in r.failures))
    return element


def _failure_detail(rendering: Rendering, f: Failure) -> str:
    place = rendering.failure_place(f)
    parts = [f.message, f"at {place.words() if place.file is None else f'{place.file}:{place.line}'}"]
    if f.witness is not None:
        parts.append(f"witness ({plural(f.witness.cards, 'card')}): {f.witness.summary}")
        scenario = f.witness.situation.get("scenario")
        if isinstance(scenario, dict):
            parts.append(f"replay: {_scenario_line(scenario, rendering.all_words)}")
        parts.append(dumps(f.witness.to_json()))
    return "\n".join(parts)
