"""The ready-made integrations, tried as a CI maintainer would: the GitHub Action's steps run as
GitHub would run them, the pre-commit hook through pre-commit itself in a scratch repository, and
`--format github` with GITHUB_STEP_SUMMARY set on the embedded spec."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from five35.reports.check_formats import GITHUB_LIMIT
from five35.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_spec()
ANNOTATION = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::")
#: The console script of the interpreter running these tests, not whatever `535-check` is first on
#: PATH (an older install would be tested instead of this tree); the steps find it first on PATH.
BIN = Path(sysconfig.get_path("scripts"))
CLI = str(BIN / "535-check")
COMPONENTS = ("executor", "spec", "engine", "checks", "reports", "protocol", "cli")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI"))}
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    return {**env, **extra}


def stale_files() -> list[str]:
    """The source files of this tree that the five35 the console script imports does not hold as
    they are here (empty: it runs this tree; an editable install imports the tree itself)."""
    lines = Path(CLI).read_text(encoding="utf-8").splitlines()
    # pip's console script names its interpreter on the #! line, or (a long path) on an exec line.
    named = lines[1].split("'''exec' ", 1)[1] if lines[0] == "#!/bin/sh" else lines[0].removeprefix("#!")
    interpreter = Path(named.split()[0])
    assert interpreter.parent == Path(sys.executable).parent, f"{CLI} runs {interpreter}"
    import five35.cli

    installed = Path(five35.cli.__file__).resolve().parent.parent
    stale = []
    for folder in COMPONENTS:
        for source in sorted((ROOT / folder).rglob("*.py")):
            copy = installed / folder / source.relative_to(ROOT / folder)
            if not copy.is_file() or copy.read_bytes() != source.read_bytes():
                stale.append(str(source.relative_to(ROOT)))
    return stale


@pytest.fixture(scope="module", autouse=True)
def code_under_test() -> None:
    """Every 535-check these tests run is this tree's code."""
    stale = stale_files()
    assert not stale, (
        f"{CLI} runs a five35 installed from another tree: {len(stale)} source file(s) differ from "
        f"this one's, e.g. {', '.join(stale[:3])}; reinstall it (pip install '.[test]')"
    )


#: What the projects of these tests check: the integrations are under test here, not the checks
#: (tests/checks hold those), so the runs take the text audit (findings of every severity, in a tenth
#: of a second) and a check that is skipped at level quick rather than the whole quick level.
ONLY = '[tool.five35]\nonly = ["text_audit", "divergence"]\n'


def annotations(stdout: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for line in stdout.splitlines():
        found = ANNOTATION.match(line)
        if found:
            props = dict(p.split("=", 1) for p in found["props"].split(",") if "=" in p)
            out.append((found.group(1), props))
    return out


# ---- --format github and the job summary ----------------------------------------------------


def test_github_annotations_on_the_embedded_spec_land_and_the_summary_holds_the_tables(
    tmp_path: Path,
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# an earlier step's summary\n", encoding="utf-8")
    sarif = tmp_path / "out.sarif"
    (tmp_path / "pyproject.toml").write_text(ONLY, encoding="utf-8")
    result = subprocess.run(
        [CLI, "check", "--level", "quick", "--format", "github", "--sarif-file", str(sarif)],
        cwd=tmp_path,
        env=environment(GITHUB_STEP_SUMMARY=str(summary)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found = annotations(result.stdout)
    kinds = Counter(kind for kind, _ in found)
    assert kinds["warning"] == GITHUB_LIMIT and all(n <= GITHUB_LIMIT for n in kinds.values())
    # No path outside the working directory: the embedded spec is no file of the repository.
    assert all("file" not in props for _, props in found)
    assert "site-packages" not in result.stdout and str(SPEC.path.parent) not in result.stdout
    overflow = [line for line in result.stdout.splitlines() if line.startswith("::notice title=535-check%3A")]
    assert len(overflow) == 1 and "GITHUB_STEP_SUMMARY" in overflow[0]
    hidden = int(re.search(r"; (\d+) more annotations", overflow[0]).group(1))  # type: ignore[union-attr]
    # The same run's findings, from the SARIF file it wrote beside the annotations.
    findings = [r["properties"] for r in json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]]
    assert hidden + sum(kinds.values()) - 1 == len(findings)
    # Most severe first: every high-severity finding is among those shown.
    shown = {props["title"].split("%3A ", 1)[1] for kind, props in found if kind == "warning"}
    high = {f["id"] for f in findings if f["severity"] == "high"}
    assert high and high <= shown
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# an earlier step's summary\n")  # appended, not replaced
    assert "| check | status |" in text and "| finding | kind | severity |" in text
    assert "| divergence | skipped: not run at level quick" in text
    assert text.count("\n| `") == len(findings)
    assert sorted(tmp_path.iterdir()) == sorted([summary, sarif, tmp_path / "pyproject.toml"])


def test_annotations_of_a_spec_in_the_repository_carry_its_relative_path(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.535.yaml").write_text(
        SPEC.path.read_text(encoding="utf-8"), encoding="utf-8"
    )
    spec = str(tmp_path / "rules" / "house.535.yaml")  # given absolute: still named relative to the root
    result = subprocess.run(
        [
            CLI,
            "check",
            "--level",
            "quick",
            "--only",
            "text_audit",
            "--format",
            "github",
            "--spec",
            spec,
        ],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    found = annotations(result.stdout)
    files = {
        props.get("file") for kind, props in found if not props.get("title", "").startswith("535-check%3A")
    }
    assert files == {"rules/house.535.yaml"}
    assert all(int(props["line"]) > 1 for kind, props in found if "file" in props)


def test_a_summary_file_that_cannot_be_written_fails_before_the_work(tmp_path: Path) -> None:
    result = subprocess.run(
        [CLI, "check", "--level", "quick"],
        cwd=tmp_path,
        env=environment(GITHUB_STEP_SUMMARY=str(tmp_path / "no" / "summary.md")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"535-check: error: GITHUB_STEP_SUMMARY: cannot append to {tmp_path / 'no' / 'summary.md'} "
        f"(no directory {tmp_path / 'no'})"
    ]


# ---- action.yml -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return data


def test_action_yml_is_a_valid_composite_action(action: dict[str, Any]) -> None:
    """Against SchemaStore's schema of action.yml, as check-jsonschema ships it."""
    vendor = resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads(vendor.joinpath("github-actions.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(action)
    assert action["runs"]["using"] == "composite"
    assert {"level", "spec", "profile", "baseline", "strict"} <= set(action["inputs"])
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert uses[0].startswith("actions/setup-python@")
    assert uses[-1].startswith("github/codeql-action/upload-sarif@")
    upload = action["runs"]["steps"][-1]
    # Uploaded after a failing check too: that is when the results matter most.
    assert "always()" in upload["if"] and "inputs.upload-sarif" in upload["if"]
    assert upload["with"]["sarif_file"] == "${{ steps.check.outputs.sarif-file }}"


def _expression(value: str, inputs: dict[str, str], action: dict[str, Any]) -> str:
    """The few GitHub expressions the steps' env uses: inputs.X (or its default) and github.action_path."""

    def one(found: re.Match[str]) -> str:
        name = found.group(1).strip()
        if name == "github.action_path":
            return str(ROOT)
        if name.startswith("inputs."):
            key = name.removeprefix("inputs.")
            return inputs.get(key, str(action["inputs"][key].get("default", "")))
        raise AssertionError(f"an expression the test does not evaluate: {name}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_step(
    action: dict[str, Any], step_id: str, inputs: dict[str, str], cwd: Path, path: str | None = None
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """Run one `run:` step as GitHub runs a composite step: bash, its env evaluated, GITHUB_OUTPUT
    and GITHUB_STEP_SUMMARY files; returns the process, the outputs it set, the summary."""
    step = next(s for s in action["runs"]["steps"] if s.get("id") == step_id or s.get("name") == step_id)
    assert step["shell"] == "bash" and "${{" not in step["run"], "inputs reach the script through env only"
    outputs, summary = cwd / ".github_output", cwd / ".github_summary"
    outputs.write_text("", encoding="utf-8")
    summary.write_text("", encoding="utf-8")
    env = environment(GITHUB_OUTPUT=str(outputs), GITHUB_STEP_SUMMARY=str(summary))
    env.update({key: _expression(str(value), inputs, action) for key, value in step.get("env", {}).items()})
    if path is not None:
        env["PATH"] = path
    # GitHub runs a bash step as `bash --noprofile --norc -eo pipefail {0}`.
    script = cwd / ".step.sh"
    script.write_text(step["run"], encoding="utf-8")
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    script.unlink()
    set_outputs = dict(
        line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines() if "=" in line
    )
    text = summary.read_text(encoding="utf-8")
    outputs.unlink()
    summary.unlink()
    return result, set_outputs, text


def test_the_actions_install_step_installs_the_actions_own_checkout(
    action: dict[str, Any], tmp_path: Path
) -> None:
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "python").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$RECORD"\n', encoding="utf-8")
    (shim / "python").chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    os.environ["RECORD"] = str(tmp_path / "argv")
    try:
        result, _, _ = run_step(action, "Install five35", {}, work, path=f"{shim}:{os.environ['PATH']}")
    finally:
        del os.environ["RECORD"]
    assert result.returncode == 0, result.stderr
    argv = (tmp_path / "argv").read_text(encoding="utf-8").split()
    assert argv[:3] == ["-m", "pip", "install"] and argv[-1] == str(ROOT)


@pytest.mark.slow
def test_pip_can_install_the_actions_checkout() -> None:
    """Resolved, not installed (the test's own five35 stays). A run of the suite has installed this
    tree with pip already (README), and the pre-commit test installs a copy of it: the minute pip
    takes to set up the build environment is spent only under -m slow."""
    dry = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--no-deps",
            "--quiet",
            "--report",
            "-",
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert dry.returncode == 0, dry.stderr
    assert [item["metadata"]["name"] for item in json.loads(dry.stdout)["install"]] == ["five35"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository of a project that keeps a house-rules spec (and checks only what ONLY names)."""
    (tmp_path / "pyproject.toml").write_text(ONLY, encoding="utf-8")
    (tmp_path / "house.535.yaml").write_text(SPEC.path.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def test_the_actions_check_step_annotates_writes_sarif_and_the_summary(
    action: dict[str, Any], repo: Path
) -> None:
    # The step runs `535-check` by name: the one of this interpreter, first on the step's PATH.
    assert shutil.which("535-check", path=environment()["PATH"]) == CLI
    result, outputs, summary = run_step(action, "check", {"level": "quick", "spec": "house.535.yaml"}, repo)
    assert result.returncode == 0, result.stderr
    assert outputs == {"exit-code": "0", "sarif-file": "535-check.sarif"}
    sarif = json.loads((repo / "535-check.sarif").read_text(encoding="utf-8"))
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]
    }
    assert uris == {"house.535.yaml"}
    found = annotations(result.stdout)
    assert found and all(n <= GITHUB_LIMIT for n in Counter(k for k, _ in found).values())
    assert {p.get("file") for _, p in found if "file" in p} == {"house.535.yaml"}
    assert "| check | status |" in summary and "| finding | kind |" in summary


def test_the_actions_check_step_fails_on_new_findings_under_strict_and_still_writes_sarif(
    action: dict[str, Any], repo: Path
) -> None:
    (repo / "known.json").write_text(
        '{"format": "five35-baseline/1", "findings": [{"id": "gap.point.deal"}]}'
    )
    inputs = {"level": "quick", "baseline": "known.json", "strict": "true", "sarif-file": "out.sarif"}
    result, outputs, _ = run_step(action, "check", inputs, repo)
    assert result.returncode == 1
    assert outputs == {"exit-code": "1", "sarif-file": "out.sarif"}
    levels = {
        r["partialFingerprints"]["findingId"]: r["level"]
        for r in json.loads((repo / "out.sarif").read_text())["runs"][0]["results"]
    }
    assert levels["gap.point.deal"] == "note" and "error" in levels.values()
    assert any(kind == "error" for kind, _ in annotations(result.stdout))


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"strict": "yes"}, "strict: expected true or false, got 'yes'"),
        ({"level": "fast"}, "--level: 'fast' is not one of"),
        ({"baseline": "missing.json"}, "missing.json: cannot read baseline"),
    ],
)
def test_the_actions_check_step_refuses_bad_inputs_with_exit_2(
    action: dict[str, Any], repo: Path, inputs: dict[str, str], message: str
) -> None:
    result, outputs, _ = run_step(action, "check", inputs, repo)
    assert result.returncode == 2
    assert message in result.stdout + result.stderr
    assert outputs["exit-code"] == "2" and "sarif-file" not in outputs
    assert not (repo / "535-check.sarif").exists()


# ---- .pre-commit-hooks.yaml -------------------------------------------------------------------


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=environment(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never"),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_pre_commit_manifest_is_valid(tmp_path: Path) -> None:
    result = pre_commit(
        "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml"), cwd=tmp_path, home=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"].startswith("535-check check --level quick")
    files = re.compile(hook["files"])
    for name in ("535.yaml", "rules/535.yml", "house.535.yaml", "my-535.yaml", "x/house_535.yaml"):
        assert files.search(name), name
    for name in ("spec/535.words.yaml", "a535.yaml", "535.json", "notes.yaml"):
        assert not files.search(name), name


def test_the_hook_checks_the_files_it_selects_as_pre_commit_runs_it(repo: Path) -> None:
    """The manifest's entry, run as pre-commit runs it (its `files` pattern chooses the files, named
    after the entry's arguments), with the 535-check of this tree; the test below lets pre-commit
    itself install and run it, under -m slow (most of its half minute is pip's install)."""
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    files = re.compile(hook["files"])
    (repo / "notes.yaml").write_text("not: a spec\n", encoding="utf-8")

    def run(*names: str) -> subprocess.CompletedProcess[str]:
        chosen = [name for name in names if files.search(name)]
        assert chosen == [name for name in names if name.endswith(".535.yaml")]
        command = [CLI, *shlex.split(hook["entry"])[1:], *chosen]
        return subprocess.run(command, cwd=repo, env=environment(), capture_output=True, text=True)

    passed = run("house.535.yaml", "notes.yaml")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    text = SPEC.path.read_text(encoding="utf-8").replace(
        "run_closing_size:\n    value: 5", "run_closing_size:\n    value: -5"
    )
    (repo / "house.535.yaml").write_text(text, encoding="utf-8")
    failed = run("house.535.yaml", "notes.yaml")
    assert failed.returncode == 2, failed.stdout + failed.stderr
    assert "535-check: error: house.535.yaml:" in failed.stderr and "run_closing_size" in failed.stderr
    assert "Traceback" not in failed.stderr


@pytest.mark.slow
def test_the_pre_commit_hook_checks_changed_spec_files(tmp_path: Path) -> None:
    """pre-commit installs this project from a repository (a committed copy of the working tree,
    so that uncommitted edits are tried too) into its own environment and runs the hook."""
    source = tmp_path / "five35"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, source / name)
    for folder in COMPONENTS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    git("init", "-q", cwd=source)
    git("add", ".", cwd=source)
    git("commit", "-q", "-m", "five35", cwd=source)
    rev = git("rev-parse", "HEAD", cwd=source)

    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    config = {"repos": [{"repo": str(source), "rev": rev, "hooks": [{"id": "535-check"}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (project / "house.535.yaml").write_text(SPEC.path.read_text(encoding="utf-8"), encoding="utf-8")
    (project / "notes.yaml").write_text("not: a spec\n", encoding="utf-8")
    git("add", ".", cwd=project)
    home = tmp_path / "pre-commit-home"

    passed = pre_commit("run", "--files", "house.535.yaml", "notes.yaml", cwd=project, home=home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"535-check \(quick check of 535 spec files\)\.+Passed", passed.stdout)

    skipped = pre_commit("run", "--files", "notes.yaml", cwd=project, home=home)
    assert skipped.returncode == 0 and "(no files to check)Skipped" in skipped.stdout

    text = SPEC.path.read_text(encoding="utf-8").replace(
        "run_closing_size:\n    value: 5", "run_closing_size:\n    value: -5"
    )
    (project / "house.535.yaml").write_text(text, encoding="utf-8")
    failed = pre_commit("run", "--files", "house.535.yaml", cwd=project, home=home)
    assert failed.returncode == 1
    assert "Failed" in failed.stdout and "535-check: error: house.535.yaml:" in failed.stdout
    assert "run_closing_size" in failed.stdout and "Traceback" not in failed.stdout
