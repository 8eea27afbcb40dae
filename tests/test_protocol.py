"""The engine protocol: the reference server's answers, the schemas, the client's fault handling."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.cli.main import EXIT_TERMINATED
from five35.engine import Move
from five35.protocol.client import EngineFault, InProcessEngine, SubprocessEngine, open_engine
from five35.protocol.compare import negotiate, with_parameters
from five35.protocol.messages import ProtocolViolation, check_response, schema
from five35.protocol.server import ReferenceEngine
from five35.spec import SpecError, load_spec
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "engine535.py"
SERVE = f"{Path(sys.executable).parent / '535-check'} serve"


def validator(name: str) -> jsonschema.Draft202012Validator:
    resources = [(s["$id"], Resource.from_contents(s)) for s in (schema("requests"), schema("responses"))]
    registry: Registry[Any] = Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(schema(name), registry=registry)


def session() -> list[dict[str, Any]]:
    """Requests covering every type, a legal and an illegal apply, a round to its end and errors."""
    return [
        {"id": 1, "type": "hello", "protocol": 1},
        {"id": 2, "type": "legal"},
        {
            "id": 3,
            "type": "new_round",
            "players": 3,
            "hands": [[8], [1, 9], [3, 7]],
            "leader": 2,
            "scores": [0, 18, 0],
        },
        {"id": 4, "type": "legal"},
        {"id": 5, "type": "apply", "move": {"action": "pass", "cards": []}},
        {"id": 6, "type": "apply", "move": {"action": "lead", "cards": [7]}},
        {"id": 7, "type": "state"},
        {"id": 8, "type": "apply", "move": {"action": "add", "cards": [8]}},
        {"id": 9, "type": "state"},
        {"id": 10, "type": "legal"},
        {"id": 11, "type": "apply", "move": {"action": "lead", "cards": [1]}},
        {"id": 12, "type": "quit"},
    ]


def test_reference_session_answers_and_matches_the_schemas() -> None:
    engine = ReferenceEngine(load_spec().ruleset())
    requests = session()
    responses = [engine.handle(r) for r in requests]
    req_schema, resp_schema = validator("requests"), validator("responses")
    for request, response in zip(requests, responses, strict=True):
        req_schema.validate(request)
        resp_schema.validate(response)
        check_response(request, response)
    by_id = {r["id"]: r for r in responses}
    assert by_id[2]["error"]["code"] == "no_round"
    assert by_id[4]["to_move"] == 2 and {"action": "pass", "cards": []} not in by_id[4]["moves"]
    assert by_id[5]["error"]["code"] == "illegal_move"  # the leader may not pass
    # Player 0 adds an 8 to the 7 and goes out: the Rule of 8 ends the trick, then the round, and
    # player 1 reaches 18 + 3 = 21 points, which ends the match.
    assert by_id[8]["events"] == [
        {"event": "trick_end", "winner": 0, "reasons": ["rule_of_8"]},
        {"event": "round_end", "went_out": 0, "penalties": [0, 3, 1], "scores": [0, 21, 1]},
        {"event": "match_end", "scores": [0, 21, 1], "winners": [0]},
    ]
    state = by_id[9]["state"]
    assert state["phase"] == "match_over" and state["to_move"] is None
    assert state["hands"] == [[], [1, 9], [3]] and state["trick"][-1] == {
        "player": 0,
        "action": "add",
        "cards": [8],
    }
    assert by_id[10] == {"id": 10, "type": "legal", "ok": True, "to_move": None, "moves": []}
    assert by_id[11]["error"]["code"] == "illegal_move"


def test_events_after_going_out_with_an_eight() -> None:
    engine = ReferenceEngine(load_spec().ruleset())
    engine.handle(
        {
            "id": 1,
            "type": "new_round",
            "players": 2,
            "hands": [[8], [7, 9, 9]],
            "leader": 1,
            "scores": [0, 15],
        }
    )
    engine.handle({"id": 2, "type": "apply", "move": {"action": "lead", "cards": [7]}})
    answer = engine.handle({"id": 3, "type": "apply", "move": {"action": "add", "cards": [8]}})
    assert answer["events"] == [
        {"event": "trick_end", "winner": 0, "reasons": ["rule_of_8"]},
        {"event": "round_end", "went_out": 0, "penalties": [0, 4], "scores": [0, 19]},
    ]
    state = engine.handle({"id": 4, "type": "state"})["state"]
    assert state["pile"] == {"kind": "run", "cards": [7, 8]}  # the round ended at once: nothing cleared
    assert state["cleared"] == [] and state["phase"] == "round_over"


def test_bad_requests_are_answered_not_raised() -> None:
    engine = ReferenceEngine(load_spec().ruleset())
    bad = [
        {"id": 1, "type": "dance"},
        {"id": "x", "type": "legal"},
        {"id": 2, "type": "new_round", "players": 2, "hands": [[3, 1], [2]], "leader": 0, "scores": [0, 0]},
        {"id": 3, "type": "new_round", "players": 2, "hands": [[6], [2]], "leader": 0, "scores": [0, 0]},
        {"id": 4, "type": "new_round", "players": 9, "hands": [[1]] * 9, "leader": 0, "scores": [0] * 9},
        {"id": 5, "type": "apply", "move": {"action": "jump", "cards": [1]}},
    ]
    for request in bad:
        answer = engine.handle(request)
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", (request, answer)
        validator("responses").validate(answer)


def test_serve_over_a_pipe_matches_in_process() -> None:
    requests = session()
    lines = "".join(json.dumps(r) + "\n" for r in requests) + "not json\n"
    result = CliRunner().invoke(main, ["serve"], input=lines)
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines()]
    engine = ReferenceEngine(load_spec().ruleset())
    expected = [engine.handle(r) for r in requests]
    assert answers == expected  # quit stops the server: the trailing garbage is never read


def test_serve_answers_unreadable_lines() -> None:
    result = CliRunner().invoke(main, ["serve"], input='[1, 2]\n{"id": 1\n')
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert [a["error"]["code"] for a in answers] == ["bad_request", "bad_request"]
    assert all(a["id"] is None for a in answers)


def test_serve_declares_its_profile() -> None:
    engine = open_engine(SERVE + " --profile german-literal --reading run_wrap=wrap")
    try:
        hello = engine.hello()
    finally:
        engine.close()
    assert hello["readings"]["add_to_single"] == "not_allowed"
    assert hello["readings"]["run_wrap"] == "wrap"
    assert hello["protocol"] == 1


class Corrupt:
    """An in-process engine: the reference with one answer damaged."""

    def __init__(self, damage: str) -> None:
        self.inner = ReferenceEngine(load_spec().ruleset())
        self.damage = damage

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.inner.handle(request)
        if request["type"] == "legal" and answer["ok"]:
            if self.damage == "id":
                answer["id"] += 1
            elif self.damage == "duplicate":
                answer["moves"].append(answer["moves"][0])
            elif self.damage == "unsorted":
                answer["moves"].append({"action": "lead", "cards": [3, 2]})
            elif self.damage == "missing":
                del answer["to_move"]
            elif self.damage == "raise":
                raise RuntimeError("boom")
        return answer


@pytest.mark.parametrize(
    ("damage", "kind", "words"),
    [
        ("id", "protocol", "response.id"),
        ("duplicate", "protocol", "listed twice"),
        ("unsorted", "protocol", "sorted"),
        ("missing", "protocol", "to_move"),
        ("raise", "crash", "RuntimeError"),
    ],
)
def test_protocol_violations_are_faults(damage: str, kind: str, words: str) -> None:
    engine = InProcessEngine(Corrupt(damage), "corrupt")
    engine.hello()
    engine.new_round(2, [[1, 2], [3]], 0, [0, 0])
    with pytest.raises(EngineFault) as info:
        engine.legal()
    assert info.value.kind == kind and words in info.value.message
    assert info.value.transcript and info.value.transcript[-1].startswith(("<", ">"))


def test_schemas_reject_what_the_client_rejects() -> None:
    request = {"id": 4, "type": "legal"}
    good = {
        "id": 4,
        "type": "legal",
        "ok": True,
        "to_move": 0,
        "moves": [{"action": "lead", "cards": [1, 1]}],
    }
    bad = [
        {**good, "moves": [{"action": "fly", "cards": [1]}]},
        {**good, "to_move": "0"},
        {key: value for key, value in good.items() if key != "moves"},
        {**good, "ok": "yes"},
        {**good, "ok": False},
    ]
    check_response(request, good)
    validator("responses").validate(good)
    for answer in bad:
        with pytest.raises(ProtocolViolation):
            check_response(request, answer)
        assert not validator("responses").is_valid(answer), answer
    # JSON Schema cannot say "sorted"; the schemas describe it and the client enforces it.
    unsorted = {**good, "moves": [{"action": "lead", "cards": [2, 1]}]}
    with pytest.raises(ProtocolViolation, match="sorted"):
        check_response(request, unsorted)


def test_python_plugin_by_module_and_by_file(tmp_path: Path) -> None:
    engine = open_engine("python:five35.protocol.server:reference_engine")
    assert engine.hello()["name"] == "five35 reference engine"
    plugin = tmp_path / "plug.py"
    plugin.write_text(
        "from five35.protocol.server import ReferenceEngine\n"
        "from five35.spec import load_spec\n"
        "def make():\n    return ReferenceEngine(load_spec().ruleset('german-literal'), name='plug')\n"
    )
    engine = open_engine(f"python:{plugin}:make")
    assert engine.hello()["readings"]["eight_rank"] == "strongest"
    with pytest.raises(SpecError, match="no callable"):
        open_engine(f"python:{plugin}:nothing")
    with pytest.raises(SpecError, match="cannot import"):
        open_engine("python:no_such_module_535:make")


def test_negotiate_takes_the_engines_readings_and_rejects_unknown_ones() -> None:
    spec = load_spec()
    base = spec.ruleset()
    hello = ReferenceEngine(spec.ruleset("german-literal")).handle({"id": 1, "type": "hello", "protocol": 1})
    ruleset, notes = negotiate(spec, base, hello, {})
    assert ruleset.readings == spec.ruleset("german-literal").readings
    assert ruleset.profile == "german-literal" and notes == ()
    with pytest.raises(SpecError, match="no such reading"):
        negotiate(spec, base, {**hello, "readings": {"run_gaps": "sometimes"}}, {})
    with pytest.raises(SpecError, match="unknown variation point"):
        negotiate(spec, base, {**hello, "readings": {"dealer_sings": "yes"}}, {})
    with pytest.raises(SpecError, match="the engine declares"):
        negotiate(spec, base, hello, {"eight_rank": "by_number"})
    partial = {**hello, "readings": {"run_wrap": "wrap"}}
    ruleset, notes = negotiate(spec, base, partial, {})
    assert ruleset.reading("run_wrap") == "wrap" and "does not declare" in notes[0]


def test_declared_parameters_reach_the_reference() -> None:
    spec = load_spec()
    base = spec.ruleset()
    params = base.to_json()["parameters"]
    changed, names = with_parameters(
        base, {**params, "match_end_score": 30, "points": {**params["points"], "8": 9}}
    )
    assert changed.match_end_score == 30 and changed.points[8] == 9
    assert names == ["match_end_score", "points"]
    with pytest.raises(SpecError, match="unknown parameter"):
        with_parameters(base, {**params, "jokers": 2})


def test_cli_reports_an_unknown_declared_reading(tmp_path: Path) -> None:
    plugin = tmp_path / "odd.py"
    plugin.write_text(
        "from five35.protocol.server import ReferenceEngine\n"
        "from five35.spec import load_spec\n"
        "class Odd(ReferenceEngine):\n"
        "    def handle(self, request):\n"
        "        answer = super().handle(request)\n"
        "        if request['type'] == 'hello':\n"
        "            answer['readings'] = {**answer['readings'], 'run_gaps': 'gaps_jumped'}\n"
        "        return answer\n"
        "def make():\n    return Odd(load_spec().ruleset())\n"
    )
    result = CliRunner().invoke(main, ["fuzz", "--engine", f"python:{plugin}:make", "--examples", "3"])
    assert result.exit_code == 2
    assert "gaps_jumped" in result.output and "Traceback" not in result.output


FAULTS = [("garbage", "malformed"), ("hang", "timeout"), ("crash", "crash"), ("oversized", "oversized")]


@pytest.mark.parametrize(("fault", "kind"), FAULTS)
def test_faulty_engines_are_reported_within_the_timeout(fault: str, kind: str) -> None:
    engine = SubprocessEngine(f"{sys.executable} {EXAMPLE} --fault {fault} --fault-after 2", timeout=0.5)
    try:
        engine.hello()
        engine.new_round(2, [[1], [2]], 0, [0, 0])
        started = time.monotonic()
        with pytest.raises(EngineFault) as info:
            engine.legal()
        assert time.monotonic() - started < 0.5 + 1.5
    finally:
        engine.close()
    assert info.value.kind == kind
    assert any(line.startswith('> {"id":3,"type":"legal"') for line in info.value.transcript)
    assert engine.proc.poll() is not None  # the process is gone
    if kind == "crash":
        assert "exit code 70" in info.value.message and "planted crash" in info.value.message


def test_an_engine_that_cannot_start_is_a_fault() -> None:
    with pytest.raises(EngineFault) as info:
        open_engine("/nonexistent/engine-535 --fast")
    assert info.value.kind == "start"


def test_cli_exit_code_3_for_a_hanging_engine() -> None:
    command = [
        str(Path(sys.executable).parent / "535-check"),
        "fuzz",
        "--engine",
        f"{sys.executable} {EXAMPLE} --fault hang --fault-after 4",
        "--timeout",
        "0.5",
        "--examples",
        "5",
    ]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=30)
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "535-check: error: engine fault (timeout) at request 5 (apply): no answer within 0.5 s"
    ]
    assert time.monotonic() - started < 15
    # With --format json the fault and the transcript are the result on stdout.
    result = subprocess.run(
        [*command, "--format", "json"], capture_output=True, text=True, check=False, timeout=30
    )
    assert result.returncode == 3 and len(result.stderr.splitlines()) == 1
    fault = json.loads(result.stdout)["fault"]
    assert fault["kind"] == "timeout" and fault["request"] == {"id": 5, "type": "apply"}
    assert fault["transcript"][-1].startswith('> {"id":7,"type":"legal"')


def test_a_hanging_in_process_engine_does_not_keep_the_cli_alive(tmp_path: Path) -> None:
    plugin = tmp_path / "stuck.py"
    plugin.write_text(
        "import threading\n"
        "from five35.protocol.server import reference_engine\n"
        "class Stuck:\n"
        "    def __init__(self):\n        self.inner = reference_engine()\n"
        "    def handle(self, request):\n"
        "        if request['type'] == 'legal':\n            threading.Event().wait()\n"
        "        return self.inner.handle(request)\n"
        "def make():\n    return Stuck()\n"
    )
    started = time.monotonic()
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "535-check"),
            "fuzz",
            "--engine",
            f"python:{plugin}:make",
            "--timeout",
            "0.5",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    assert result.returncode == 3, result.stderr
    assert (
        "engine fault (timeout) at request 4 (legal): handle() gave no answer within 0.5 s" in result.stderr
    )
    assert time.monotonic() - started < 10


def test_the_process_group_is_killed_after_a_fault(tmp_path: Path) -> None:
    # The engine starts a child that would outlive it, then hangs: both must be gone after the fault.
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "parent.py"
    script.write_text(
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "sys.stdin.readline()\n"
        "time.sleep(600)\n"
    )
    engine = SubprocessEngine(f"{sys.executable} {script}", timeout=0.5)
    try:
        with pytest.raises(EngineFault) as info:
            engine.hello()
    finally:
        engine.close()
    assert info.value.kind == "timeout" and info.value.request == (1, "hello")
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (killed, not yet reaped by its parent, which is gone too) counts as dead.
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
            return False
    return True


def test_move_round_trip_through_the_client() -> None:
    engine = open_engine("python:five35.protocol.server:reference_engine")
    engine.new_round(2, [[1, 1, 2], [3]], 0, [0, 0])
    assert engine.apply(Move("lead", (1, 1)))["ok"] is True
    assert engine.state()["state"]["pile"] == {"kind": "set", "cards": [1, 1]}


def test_sigterm_kills_the_engine_too(tmp_path: Path) -> None:
    engine_copy = tmp_path / "unique_engine_535.py"
    engine_copy.write_text(EXAMPLE.read_text())
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "535-check"),
            "fuzz",
            "--timeout",
            "30",
            "--engine",
            f"{sys.executable} {engine_copy} --fault hang --fault-after 3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not _engine_pids(engine_copy):
            time.sleep(0.1)
        assert _engine_pids(engine_copy), "the engine never started"
        time.sleep(0.5)
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_TERMINATED and "terminated" in err
    time.sleep(0.2)
    assert not _engine_pids(engine_copy)


def _engine_pids(path: Path) -> list[int]:
    found = subprocess.run(
        ["pgrep", "-f", f"^{sys.executable} {path}"], capture_output=True, text=True, check=False
    )
    return [int(p) for p in found.stdout.split()]
