"""five35.protocol: drive any 535 engine through the engine protocol and compare it with the reference.

- messages: the protocol's messages (version 1) and their validation; schemas/*.json
- server:   the reference engine behind the protocol (`535-check serve`, in-process plug-in)
- client:   engine sessions: a subprocess (JSON Lines, timeouts, faults) or a Python object
- compare:  lock-step play of one round (a five35.engine.Position) on both engines; the readings
            and parameters an engine declares
- replay:   replay files of a divergence, and the side-by-side view
- perft:    leaf counts of the legal-move tree, and comparing them with an engine
            (not imported here: `python -m five35.protocol.perft` prints the standard table)

The rules (five35.spec, five35.engine) know nothing of this package. Fuzzing an engine through it is a
check: five35.checks.fuzz (`from five35.checks.fuzz.differential import fuzz`). See docs/protocol.md.
"""

from .client import EngineClient, EngineFault, InProcessEngine, SubprocessEngine, engine_session, open_engine
from .compare import Divergence, RoundResult, negotiate, play_round
from .messages import PROTOCOL_VERSION, ProtocolViolation
from .replay import load_replay, run_replay
from .server import ReferenceEngine, reference_engine, serve

__all__ = [
    "PROTOCOL_VERSION",
    "Divergence",
    "EngineClient",
    "EngineFault",
    "InProcessEngine",
    "ProtocolViolation",
    "ReferenceEngine",
    "RoundResult",
    "SubprocessEngine",
    "engine_session",
    "load_replay",
    "negotiate",
    "open_engine",
    "play_round",
    "reference_engine",
    "run_replay",
    "serve",
]
