"""A recorded-reply engine: the fastest engine there can be, to measure the harness alone.

    python benchmarks/recorded_engine.py RECORDING      # an engine program (JSON Lines on stdin/stdout)

RECORDING is a file of line pairs written by `record()`: a request exactly as the harness wrote it,
then the reference's answer to it. The program answers request i with recorded answer i, after
checking that the request is byte for byte the one recorded (a harness that sends something else
is told so on stderr and the program exits 3: a benchmark must never time answers to the wrong
questions). After the recording, a `quit` is answered and anything else ends the program.

The program imports only the standard library and does no JSON work on the recorded lines, so
its own cost is a line read, a comparison and a write per request: `measure_alone()` times it
without any harness.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def record(path: Path, examples: int, seed: int, player_counts: tuple[int, ...] = (2, 3, 4, 5, 6)) -> int:
    """Fuzz the in-process reference for (`examples`, `seed`) and write every request line the
    harness sent (its hello included) with the answer to it; returns the number of requests.

    The fuzzer is deterministic, so a later `fuzz` with the same examples and seed against this
    recording sends the same lines again, whatever engine answered them."""
    try:
        from five35.checks.fuzz.differential import fuzz
    except ModuleNotFoundError:  # a baseline tree from before the fuzzer moved out of protocol/
        from five35.protocol.fuzz import fuzz  # type: ignore[no-redef]
    from five35.protocol.client import InProcessEngine
    from five35.protocol.compare import negotiate
    from five35.protocol.messages import encode
    from five35.protocol.server import ReferenceEngine
    from five35.spec import load_spec

    spec = load_spec()
    inner = ReferenceEngine(spec.ruleset())
    pairs: list[bytes] = []

    class Recorder:
        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            answer = inner.handle(request)
            pairs.append(encode(request))
            pairs.append(encode(answer))
            return answer

    engine = InProcessEngine(Recorder(), "recorder")
    try:
        ruleset, _ = negotiate(spec, spec.ruleset(), engine.hello(), {})
        result = fuzz(ruleset, engine, examples=examples, seed=seed, player_counts=player_counts)
    finally:
        engine.close()
    if result.witness is not None or result.fault is not None:
        raise RuntimeError("the reference disagrees with itself while recording")
    path.write_bytes(b"".join(pairs))
    return len(pairs) // 2


def _load(path: str) -> tuple[list[bytes], list[bytes]]:
    lines = Path(path).read_bytes().splitlines(keepends=True)
    return lines[0::2], lines[1::2]


def measure_alone(path: Path) -> float:
    """Requests per second the program answers with no harness: the recording's requests piped in
    at once, the answers read back. The engine's own ceiling."""
    import subprocess

    requests, _ = _load(str(path))
    data = b"".join(requests)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, str(path)], input=data, capture_output=True, check=True)
    seconds = time.perf_counter() - started
    if done.stdout.count(b"\n") != len(requests):
        raise RuntimeError("the recorded engine did not answer every request")
    return len(requests) / seconds


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: recorded_engine.py RECORDING\n")
        return 2
    requests, answers = _load(argv[0])
    count = len(requests)
    i = 0
    pending = b""
    while True:
        # Read what has arrived, answer every whole line of it, write the answers at once: the
        # harness pipelines, and one write per answer would be a system call per request.
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return 0
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        out = []
        for line in lines:
            if i < count:
                if line + b"\n" != requests[i]:
                    sys.stderr.write(f"recorded_engine: request {i + 1} differs from the recording\n")
                    return 3
                out.append(answers[i])
                i += 1
                continue
            request = json.loads(line)
            if request.get("type") != "quit":
                sys.stderr.write(f"recorded_engine: request {i + 1} is past the end of the recording\n")
                return 3
            out.append(json.dumps({"id": request["id"], "type": "quit", "ok": True}).encode() + b"\n")
            _write(b"".join(out))
            return 0
        _write(b"".join(out))


def _write(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
