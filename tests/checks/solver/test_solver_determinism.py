"""The Z3 checks give the same bytes whatever ran before them in the process and however loaded the
machine is: each query runs under a resource limit (a count of Z3's steps, never a timeout) and
each check's Z3 work in a context of its own."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from five35.checks.oracles import z3model
from five35.checks.runner import CheckRun, run_checks
from five35.spec import dumps, load_spec
from full_report import SEED, full_report
from spec_copies import THREE_COPIES_TO_30, write_spec_copy

#: The checks that ask Z3 (every other check is seeded play or search, with no solver; the rule
#: interactions ask it whether rules that never met can meet at all).
Z3_CHECKS = (
    "proofs",
    "divergence",
    "text_examples",
    "dead_clauses",
    "discovery.liveness",
    "discovery.interactions",
)
# A CPU-bound process beside the loaded run: with the suite's own workers (one per core and one
# more) the run's worker processes get less than a core each, and another order of finishing.
BUSY = 1
# At the lowest priority: it takes whatever CPU the run and the suite leave idle, so the run is
# still never alone on a core, but it no longer takes a core's worth from the rest of the suite for
# the minute the run lasts.
SPIN = "import os; os.nice(19)\nwhile True: pass"


@contextlib.contextmanager
def busy_processes(n: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    procs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(n)]
    try:
        yield procs
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


def _check_command(spec: Path | None, out: Path) -> tuple[list[str], dict[str, str]]:
    code = "import sys; from five35.cli import main; sys.exit(main())"
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")}
    only = [arg for name in Z3_CHECKS for arg in ("--only", name)]
    spec_args = ["--spec", str(spec)] if spec is not None else []
    output = ["--seed", str(SEED), "--format", "json", "--output-file", str(out), "-q"]
    return [sys.executable, "-c", code, "check", "--level", "ci", *spec_args, *only, *output], env


def check_json(specs: list[Path | None], outs: list[Path]) -> list[bytes]:
    """`535-check check --level ci --format json` of the Z3 checks, one fresh process per spec (worker
    processes beside each, as `check` runs them), all at once; their output files' bytes."""
    procs = []
    for spec, out in zip(specs, outs, strict=True):
        command, env = _check_command(spec, out)
        # cwd away from this repository's [tool.five35]
        procs.append(subprocess.Popen(command, cwd=out.parent, env=env, stderr=subprocess.PIPE))
    for proc in procs:
        _, err = proc.communicate()
        assert proc.returncode in (0, 1), err
    return [out.read_bytes() for out in outs]


def test_the_z3_checks_at_level_ci_give_the_same_json_beside_busy_processes_as_in_the_report(
    tmp_path: Path,
) -> None:
    """The embedded spec's Z3 checks, `check --level ci` in a fresh process beside BUSY CPU-bound
    processes, against the same checks of the report's run in this worker (after whatever tests ran
    in it before): the same checks and findings, byte for byte. (A copy with other numbers is held to
    the same below, where its unsat cores once came out otherwise: run twice more here it cost the
    suite half a minute of CPU.)"""
    _, results = full_report()
    spec = load_spec()
    here = CheckRun(
        spec_path=str(spec.path),
        ruleset=spec.ruleset(),
        level="ci",
        seed=SEED,
        engine="the report's",
        results=tuple(r for r in results if r.name in Z3_CHECKS),
    )
    assert [r.name for r in here.results] == list(Z3_CHECKS)
    with busy_processes(BUSY) as procs:
        (loaded,) = check_json([None], [tmp_path / "loaded.json"])
        assert all(p.poll() is None for p in procs)  # busy all along
    fresh, ours = json.loads(loaded), json.loads(dumps(here.to_json()))
    assert [dumps(fresh[key]) for key in ("checks", "findings")] == [
        dumps(ours[key]) for key in ("checks", "findings")
    ]


def test_a_z3_check_answers_the_same_whatever_z3_did_before_in_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On this spec copy the text examples' unsat cores came out otherwise after the quick proofs had
    run in the same Z3 context (a worker process runs whichever checks come to it)."""
    spec = load_spec(write_spec_copy(tmp_path / "house.yaml", THREE_COPIES_TO_30))

    def text_examples() -> str:
        monkeypatch.setattr(z3model, "_MEMO", {})
        return dumps(run_checks(spec, spec.ruleset(), level="ci", only=["text_examples"]).to_json())

    first = text_examples()
    monkeypatch.setattr(z3model, "_MEMO", {})
    run_checks(spec, spec.ruleset(), level="quick", only=["proofs"])
    assert text_examples() == first
