"""The engine protocol: the reference server's answers, the schemas, the client's fault handling."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.cli.common import EXIT_TERMINATED
from five35.engine import Game, Move
from five35.protocol.client import EngineFault, InProcessEngine, SubprocessEngine, open_engine
from five35.protocol.compare import negotiate, with_parameters
from five35.protocol.messages import ProtocolViolation, check_response, encode, request_line, schema, shallow
from five35.protocol.server import Answers, ReferenceEngine, legal_json, serve, state_json
from five35.spec import SpecError, load_spec
from five35.spec.limits import json_depth
from referencing import Registry, Resource

from tests.hostile_engines import script

ROOT = Path(__file__).resolve().parents[2]
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
    assert engine.hello()["readings"]["add_to_single"] == "not_allowed"
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
        negotiate(spec, base, hello, {"add_to_single": "allowed"})
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
        # Within the timeout, and room on a loaded machine to end the engine: unheeded, a hang is forever.
        assert time.monotonic() - started < 0.5 + 10
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
    # The engine hangs for good: the bounds only tell "gave up on it" from "waited for it", with
    # room for a loaded machine.
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "535-check: error: engine fault (timeout) at request 5 (apply): no answer within 0.5 s"
    ]
    assert time.monotonic() - started < 60
    # With --format json the fault and the transcript are the result on stdout.
    result = subprocess.run(
        [*command, "--format", "json"], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 3 and len(result.stderr.splitlines()) == 1
    fault = json.loads(result.stdout)["fault"]
    assert fault["kind"] == "timeout" and fault["request"] == {"id": 5, "type": "apply"}
    # The transcript pairs requests with their answers and ends with the one left unanswered.
    assert fault["transcript"][-2].startswith('< {"id":4,"type":"legal"')
    assert fault["transcript"][-1].startswith('> {"id":5,"type":"apply"')


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
            "3",  # room for the plugin's import of five35 on a busy machine
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 3, result.stderr
    assert "engine fault (timeout) at request 4 (legal): handle() gave no answer within 3 s" in result.stderr
    # The stuck thread waits forever: the bound tells an exit from a wait, with room for a busy machine.
    assert time.monotonic() - started < 60


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
    deadline = time.monotonic() + 60
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
        # Signalled once the engine waits (for a request, or in its planted hang).
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(_waiting(pid) for pid in _engine_pids(engine_copy)):
            time.sleep(0.05)
        assert _engine_pids(engine_copy), "the engine never started"
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_TERMINATED and "terminated" in err, err
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _engine_pids(engine_copy):
        time.sleep(0.05)
    assert not _engine_pids(engine_copy)


def _waiting(pid: int) -> bool:
    """Whether process `pid` has run and now sleeps (waits for input or in a hang)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] == "S" and int(fields[11]) + int(fields[12]) > 0


def _engine_pids(path: Path) -> list[int]:
    found = subprocess.run(
        ["pgrep", "-f", f"^{sys.executable} {path}"], capture_output=True, text=True, check=False
    )
    return [int(p) for p in found.stdout.split()]


# ---- the fast paths: the same answers, the same faults -----------------------------------------


def _nested(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.2:
        return rng.choice([1, -2, None, True, "a[b", 'x\\"]', "{", "é[", "\\u00e9"])
    width = 1 if rng.random() < 0.7 else rng.randint(0, 3)
    if rng.random() < 0.5:
        return [_nested(rng, depth - 1) for _ in range(width)]
    return {f"k{i}[": _nested(rng, depth - 1) for i in range(width)}


def test_the_quick_depth_check_never_passes_what_the_exact_one_refuses() -> None:
    """`shallow` may send a shallow text to the exact check, never a deep one past it: whatever
    the text (nested, brackets in strings, escapes, cut short, a quote removed), True from it
    means json_depth is within the limit, so load_json would have read it too."""
    rng = random.Random(0)
    trusted = 0
    for _ in range(4000):
        text = json.dumps(_nested(rng, rng.randint(0, 90)), ensure_ascii=rng.random() < 0.5)
        for variant in (text, text[: rng.randint(0, len(text))], text.replace('"', "", 1)):
            limit = rng.randint(1, 70)
            if shallow(variant.encode(), limit):
                trusted += 1
                assert json_depth(variant) <= limit, variant[:200]
    assert trusted > 5000  # it does vouch for most texts
    assert not shallow(b"[" * 65 + b"]" * 65, 64) and shallow(b"[" * 64 + b"]" * 64, 64)
    assert not shallow(b'"' + b"[" * 70, 64)  # an unterminated string: the exact check decides


def test_request_lines_are_exactly_encode() -> None:
    messages: list[dict[str, Any]] = [
        {"id": 3, "type": "legal"},
        {"id": 10**15, "type": "state"},
        {"id": 9, "type": "quit"},
        {"id": 5, "type": "apply", "move": {"action": "lead", "cards": [1, 2, 3]}},
        {"id": 5, "type": "apply", "move": {"action": "pass", "cards": []}},
        {"id": 5, "type": "apply", "move": {"cards": [1], "action": "add"}},
        {"id": 5, "move": {"action": "add", "cards": [1]}, "type": "apply"},
        {"id": 5, "type": "apply", "move": {"action": "add", "cards": [True]}},
        {"id": True, "type": "legal"},
        {"type": "legal", "id": 4},
        {"id": 2, "type": "hello", "protocol": 1},
        {"id": 2, "type": "new_round", "players": 2, "hands": [[1], [2]], "leader": 0, "scores": [0, 0]},
    ]
    for message in messages:
        assert request_line(message) == encode(message), message


class Scripted:
    """The reference, except that the answer to the first `legal` after new_round is `legal`."""

    def __init__(self, legal: dict[str, Any]) -> None:
        self.inner = ReferenceEngine(load_spec().ruleset())
        self.legal = legal

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.inner.handle(request)
        if request["type"] == "legal":
            return {"id": request["id"], "type": "legal", **self.legal}
        return answer


def _legal_exchange(legal: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Ask `legal` of an engine answering `legal`, telling the client the reference's answer."""
    reference = ReferenceEngine(load_spec().ruleset())
    deal = {"players": 2, "hands": [[1, 2], [3]], "leader": 0, "scores": [0, 0]}
    reference.handle({"id": 1, "type": "new_round", **deal})
    expected = {
        k: v for k, v in reference.handle({"id": 2, "type": "legal"}).items() if k not in ("id", "type")
    }
    engine = InProcessEngine(Scripted(legal), "scripted")
    engine.hello()
    engine.request("new_round", **deal)
    return engine.exchange([("legal", {})], [expected])[0], expected


def test_an_answer_equal_to_the_reference_is_not_checked_again_but_a_lookalike_is() -> None:
    """An answer that is the reference's own JSON comes back as None (agreed, valid by
    construction); one that Python's == confuses with it (true for 1, 1.0 for 1) is validated
    and is a fault; one with the moves in another order is validated and returned."""
    _, expected = _legal_exchange({"ok": True, "to_move": 0, "moves": []})
    same, _ = _legal_exchange(expected)
    assert same is None
    as_bool = {
        **expected,
        "moves": [{**m, "cards": [True if c == 1 else c for c in m["cards"]]} for m in expected["moves"]],
    }
    assert as_bool == expected  # the trap: Python sees true as 1
    with pytest.raises(EngineFault, match="expected an integer, got bool"):
        _legal_exchange(as_bool)
    with pytest.raises(EngineFault, match="expected an integer, got float"):
        _legal_exchange({**expected, "to_move": 0.0})
    with pytest.raises(EngineFault, match="ok: expected true or false"):
        _legal_exchange({**expected, "ok": 1})
    reordered = {**expected, "moves": list(reversed(expected["moves"]))}
    answer, _ = _legal_exchange(reordered)
    assert answer is not None and answer["moves"] == reordered["moves"]


def _states(players: int, seed: int) -> list[Any]:
    game = Game(load_spec().ruleset(), players)
    rng = random.Random(seed)
    state = game.new_match(seed)
    out = [state]
    while state.phase == "play":
        state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
        out.append(state)
    return out


def test_cached_answers_are_the_reference_answers() -> None:
    for players in (2, 4, 6):
        game = Game(load_spec().ruleset(), players)
        answers = Answers(game)
        for round_seed in range(3):
            for state in _states(players, round_seed):
                for _ in range(2):  # the second time from the caches
                    assert answers.moves(state) == game.legal_moves(state)
                    assert answers.legal(state) == legal_json(game, state)
                    assert answers.state(state) == state_json(game, state)
                    line = answers.legal_line(state, 77)
                    assert line == encode({"id": 77, "type": "legal", "ok": True, **legal_json(game, state)})


class Trickle(io.BytesIO):
    """Input that arrives a few bytes at a time, as from a pipe."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        super().__init__(data)
        self.sizes = sizes
        self.turn = 0

    def read1(self, size: int = -1) -> bytes:
        self.turn += 1
        return super().read1(self.sizes[self.turn % len(self.sizes)])


def test_serve_answers_the_same_however_the_input_arrives() -> None:
    """Blank lines, a line over the limit, bad JSON, a round, a last line without its newline:
    the same answers whether the input comes at once or a few bytes at a time, and each the
    answer to its line alone."""
    limit = 200
    lines = [
        b'{"id": 1, "type": "hello", "protocol": 1}\n',
        b"\n",
        b'{"id": 2, "type": "new_round", "players": 2, "hands": [[1, 2], [3]], "leader": 0, "scores": [0, 0]}'
        b"\n",
        b'{"id": 3, "type": "legal", "pad": "' + b"x" * 300 + b'"}\n',
        b"   \n",
        b'{"id": 4, "type": "legal"}\n',
        b'{"id": 5, "type": "legal", "x": "' + b"y" * (limit - 35) + b'"}\n',
        b"{nope\n",
        b'{"id": 6, "type": "apply", "move": {"action": "lead", "cards": [1]}}\n',
        b'{"id": 7, "type": "state"}',
    ]
    data = b"".join(lines)
    whole = io.BytesIO()
    assert serve(ReferenceEngine(load_spec().ruleset()), io.BytesIO(data), whole, max_bytes=limit) == 8
    for sizes in ([1], [3, 7], [64], [5, 200, 1]):
        out = io.BytesIO()
        serve(ReferenceEngine(load_spec().ruleset()), Trickle(data, sizes), out, max_bytes=limit)
        assert out.getvalue() == whole.getvalue(), sizes
    answers = [json.loads(line) for line in whole.getvalue().splitlines()]
    assert answers[2]["error"]["message"] == f"line 4: over the limit of {limit} bytes"
    assert answers[4]["error"]["message"].startswith("line 7: ")  # content of exactly the limit
    assert answers[5]["error"]["message"].startswith("line 8: line 1 column 2: not valid JSON")
    assert [a["id"] for a in answers] == [1, 2, None, 4, None, None, 6, 7]
    one_by_one = ReferenceEngine(load_spec().ruleset())
    for index, line in ((0, 0), (1, 2), (3, 5), (6, 8), (7, 9)):
        assert answers[index] == one_by_one.handle(json.loads(lines[line]))


@pytest.mark.parametrize(
    ("body", "kind", "words"),
    [
        # A malformed answer, then an oversized one, arrive together: the first is the fault.
        (
            'if req["type"] == "state":\n    return "not json\\n"\n'
            'if req["type"] == "legal":\n    return "x" * 9000\nreturn good(req)',
            "malformed",
            "request 3 (state)",
        ),
        # An answer over the limit after good ones: blamed on its own request, not the last line.
        (
            'if req["type"] == "legal":\n    return "x" * 9000 + "\\n"\nreturn good(req)',
            "oversized",
            "request 4 (legal)",
        ),
        # The engine dies after two answers: those are read first, the fault names the third.
        ('if req["type"] == "legal":\n    sys.exit(4)\nreturn good(req)', "crash", "request 4 (legal)"),
    ],
)
def test_a_pipelined_batch_is_judged_answer_by_answer(
    tmp_path: Path, body: str, kind: str, words: str
) -> None:
    """However the answers of a batch arrive (together, cut off, before the engine dies), the
    fault is the first bad answer's, as if each had been read alone."""
    engine = SubprocessEngine(script(tmp_path, "batch", body), max_line=4096)
    try:
        engine.hello()
        deal = {"players": 2, "hands": [[1], [2, 3]], "leader": 1, "scores": [0, 0]}
        requests = [("new_round", deal), ("state", {}), ("legal", {}), ("state", {}), ("legal", {})]
        with pytest.raises(EngineFault) as info:
            engine.batch(requests)
    finally:
        engine.close()
    assert info.value.kind == kind and words in str(info.value), str(info.value)
    assert info.value.request is not None
    named = f'> {{"id":{info.value.request[0]},'
    assert any(line.startswith(named) for line in info.value.transcript[-2:]), info.value.transcript
