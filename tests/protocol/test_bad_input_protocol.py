"""Bad inputs to the protocol commands: replay files, hostile engines, options, serve requests.

Every row of the table runs `535-check` on one bad input and asserts what every error path
promises (tests/cli_tools.run_bad_input): the documented exit code (2 bad input, 3 an engine
fault), exactly one line on stderr naming the place (the file and the key, or the request number
and type), nothing on stdout, no traceback, no file left behind, and all within 5 CPU seconds (the
engines' included; on the clock, only a hang fails, so that a busy machine fails nothing).

`535-check serve` does not exit on a bad request: it answers it. Its rows assert the answer
(`bad_request`, the message naming the request's key), that nothing reaches stderr, and that the
server goes on answering the next request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from five35.cli import main
from five35.spec import load_spec

from tests.cli_tools import run_bad_input, within
from tests.hostile_engines import DEAL, plugin, replay_file, script

REFERENCE = "python:five35.protocol.server:reference_engine"
LIMIT_SECONDS = 5.0  # CPU seconds, engines included: the bound each case promises
WALL_SECONDS = 60.0  # on the clock: only a hang (a case's own waits, such as its --timeout, are shorter)
# Long enough for a plugin to import five35 (and an engine to build a large answer) at a load average
# of 8, short enough for a table whose hangs each wait it out.
ENGINE_TIMEOUT = 3.0
TIMEOUT = ["--timeout", f"{ENGINE_TIMEOUT:g}"]


@dataclass(frozen=True)
class Case:
    """`args(folder)` writes what the case needs into `folder` (outside the working directory)
    and returns the command line; the run must exit with `code`, its one stderr line holding
    every needle."""

    name: str
    args: Callable[[Path], list[str]]
    code: int
    needles: tuple[str, ...]


def bad_replay(text: str | bytes | None = None, **changes: object) -> Callable[[Path], list[str]]:
    def args(folder: Path) -> list[str]:
        return ["replay", str(replay_file(folder, text=text, **changes)), "--engine", REFERENCE]

    return args


def against(engine: Callable[[Path], str], *extra: str) -> Callable[[Path], list[str]]:
    """`replay` of the hand-written round against the engine `engine(folder)` returns."""

    def args(folder: Path) -> list[str]:
        return ["replay", str(replay_file(folder)), "--engine", engine(folder), *TIMEOUT, *extra]

    return args


def program(body: str) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        return script(folder, "hostile", body)

    return make


def on(kind: str, statement: str) -> Callable[[Path], str]:
    """A program that runs `statement` instead of answering requests of type `kind`."""
    return program(f'if req["type"] == {kind!r}:\n    {statement}\nreturn good(req)')


def patched(kind: str, statement: str) -> Callable[[Path], str]:
    """A program whose correct answer `out` to requests of type `kind` is changed by `statement`."""
    return program(f'out = good(req)\nif req["type"] == {kind!r}:\n    {statement}\nreturn out')


def module(text: str, head: bool = True) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        return plugin(folder, "hostile_plugin", text, head)

    return make


def engine_class(body: str) -> Callable[[Path], str]:
    """An in-process engine: class E(Base) with `body` (indented methods), and its factory."""
    return module(f"class E(Base):\n{body}\ndef make():\n    return E()\n")


def handled(kind: str, statement: str) -> Callable[[Path], str]:
    """An in-process reference whose answer `a` to requests of type `kind` is changed by `statement`."""
    return engine_class(
        "    def handle(self, r):\n        a = super().handle(r)\n"
        f"        if r['type'] == {kind!r}:\n            {statement}\n        return a\n"
    )


def command(*words: str) -> Callable[[Path], list[str]]:
    return lambda folder: list(words)


def fuzz_with(engine: Callable[[Path], str], *extra: str) -> Callable[[Path], list[str]]:
    return lambda folder: ["fuzz", "--engine", engine(folder), "--examples", "2", *extra]


FILE = "run.replay.json"
BASE_POINTS = load_spec().ruleset().to_json()["parameters"]["points"]
AT_HELLO = "at request 1 (hello)"
AT_STATE = "at request 3 (state)"
AT_LEGAL = "at request 4 (legal)"
AT_APPLY = "at request 5 (apply)"
DEEP_LISTS = "[" * 20000 + "]" * 20000
DEEP_MAPS = '{"a":' * 3000 + "1" + "}" * 3000
NAN_LEGAL = '{"id": 4, "type": "legal", "ok": true, "to_move": NaN, "moves": []}\n'
ODD_READING = 'out["readings"] = dict(out["readings"], run_gaps="gaps_jumped")'
EIGHT_COPIES = 'out["parameters"] = dict(out["parameters"], copies={"small_game": 8, "large_game": 8})'
REFUSE = (
    'return dict(id=req["id"], type=req["type"], ok=False,'
    ' error=dict(code="bad_request", message="no\\nthanks"))'
)
ODD_CODE = 'return dict(id=4, type="legal", ok=False, error=dict(code="oops", message=""))'
DEEP_ANSWER = (
    "d = []\n            for _ in range(20000):\n                d = [d]\n            a['moves'] = d"
)

# fmt: off
REPLAY_CASES = [
    Case("replay not JSON", bad_replay("{not json"), 2, (FILE, "line 1 column 2", "not valid JSON")),
    Case("replay 20000 nested lists", bad_replay(DEEP_LISTS), 2, (FILE, "nested 20000 levels deep")),
    Case("replay 3000 nested maps", bad_replay(DEEP_MAPS), 2, (FILE, "nested 3000 levels deep")),
    Case("replay over 4 MB", bad_replay(" " * (5 << 20) + "{}"), 2, (FILE, "over the limit of")),
    Case("replay not UTF-8", bad_replay(b'{"format": "\xff"}'), 2, (FILE, "not UTF-8 text (byte 12)")),
    Case("replay with NaN", bad_replay('{"seed": NaN}'), 2, (FILE, "NaN")),
    Case("replay wrong format", bad_replay(format="other/9"), 2, (FILE, "format")),
    Case("replay without its keys", bad_replay('{"format": "five35-replay/1"}'), 2,
         (FILE, "(top): 'engine' is a required property")),
    Case("deal null", bad_replay(deal=None), 2, (f"{FILE}: deal: expected an object, got null",)),
    Case("deal a list", bad_replay(deal=[1, 2]), 2, (f"{FILE}: deal: expected an object, got list",)),
    Case("deal: unknown rank", bad_replay(deal_hands=[[6], [2, 3]]), 2,
         (f"{FILE}: deal.hands[0]: 6 is not a rank of the deck",)),
    Case("deal: empty hand", bad_replay(deal_hands=[[], [2, 3]]), 2,
         (f"{FILE}: deal.hands[0]: the hand is empty",)),
    Case("deal: five 1s", bad_replay(deal_hands=[[1] * 5, [2, 3]]), 2,
         (f"{FILE}: deal.hands[0]: 5 cards of rank 1, the deck has 4",)),
    Case("deal: sixteen 1s", bad_replay(deal_hands=[[1] * 16, [2, 3]]), 2,
         (f"{FILE}: deal.hands[0]: 16 cards of rank 1, the deck has 4",)),
    Case("deal: copies over all hands", bad_replay(deal_hands=[[1, 1, 1], [1, 1]]), 2,
         (f"{FILE}: deal.hands: 5 cards of rank 1 in all, the deck has 4",)),
    Case("deal: leader outside the table", bad_replay(deal_leader=5), 2,
         (f"{FILE}: deal.leader: seat 5 is not at the table (seats 0-1)",)),
    Case("deal: leader true", bad_replay(deal_leader=True), 2,
         (f"{FILE}: deal.leader: expected an integer, got bool",)),
    Case("deal: players true", bad_replay(deal_players=True), 2,
         (f"{FILE}: deal.players: expected an integer, got bool",)),
    Case("deal: nine players", bad_replay(deal_players=9, deal_hands=[[1]] * 9, deal_scores=[0] * 9), 2,
         (f"{FILE}: deal.players: 9 players is outside 2 to 6",)),
    Case("deal: a million players", bad_replay(deal_players=10**6), 2,
         (f"{FILE}: deal.hands: 2 hands for 1000000 players",)),
    Case("deal: one score", bad_replay(deal_scores=[0]), 2,
         (f"{FILE}: deal.scores: 1 scores for 2 players",)),
    Case("deal: negative score", bad_replay(deal_scores=[0, -1]), 2,
         (f"{FILE}: deal.scores[1]: expected an integer >= 0",)),
    Case("deal: unsorted hand", bad_replay(deal_hands=[[1], [3, 2]]), 2,
         (f"{FILE}: deal.hands[1]: card lists must be sorted",)),
    Case("deal: a card that is a string", bad_replay(deal_hands=[["1"], [2, 3]]), 2,
         (f"{FILE}: deal.hands[0][0]: expected an integer, got str",)),
    Case("deal: a card that is true", bad_replay(deal_hands=[[True], [2, 3]]), 2,
         (f"{FILE}: deal.hands[0][0]: expected an integer, got bool",)),
    Case("parameters: zero copies", bad_replay(parameters_copies={"small_game": 0, "large_game": 0}), 2,
         (f"{FILE}: parameters.copies.small_game: expected minimum 1, got 0",)),
    Case("parameters: eight copies", bad_replay(parameters_copies={"small_game": 8, "large_game": 5}), 2,
         (f"{FILE}: parameters.copies.small_game: expected maximum 7, got 8",)),
    Case("parameters: copies true",
         bad_replay(parameters_copies={"small_game": True, "large_game": 5}), 2,
         (f"{FILE}: parameters.copies.small_game: expected integer, got True",)),
    Case("parameters: a point that is true",
         bad_replay(parameters_points={**BASE_POINTS, "1": True}), 2,
         (f"{FILE}: parameters.points.1: expected integer, got True",)),
    Case("parameters: unknown", bad_replay(parameters_jokers=2), 2,
         (f"{FILE}: unknown parameter(s) 'jokers'",)),
    Case("parameters: points for one rank", bad_replay(parameters_points={"1": 1}), 2,
         (f"{FILE}: parameters.points",)),
    Case("unknown profile", bad_replay(profile="house"), 2, (f"{FILE}: profile: unknown profile 'house'",)),
    Case("unknown variation point", bad_replay(readings={"dealer_sings": "yes"}), 2,
         (f"{FILE}: readings: unknown variation point 'dealer_sings'",)),
    Case("unknown reading", bad_replay(readings={"run_gaps": "sometimes"}), 2,
         (f"{FILE}: readings: run_gaps='sometimes'",)),
    Case("move with an unknown action", bad_replay(moves=[{"action": "fly", "cards": []}]), 2,
         (FILE, "moves/0/action")),
    Case("move with unsorted cards", bad_replay(moves=[{"action": "lead", "cards": [3, 2]}]), 2,
         (f"{FILE}: moves[0].cards: card lists must be sorted",)),
    Case("missing replay file", command("replay", "nope.json", "--engine", REFERENCE), 2,
         ("nope.json: cannot read",)),
]

ENGINE_CASES = [
    Case("garbage line", against(on("legal", 'return "not json\\n"')), 3,
         (f"engine fault (malformed) {AT_LEGAL}: the answer: line 1 column 1: not valid JSON",)),
    Case("hang", against(on("legal", "time.sleep(60)")), 3,
         (f"engine fault (timeout) {AT_LEGAL}: no answer within {ENGINE_TIMEOUT:g} s",)),
    Case("never answers hello", against(program("time.sleep(60)")), 3,
         (f"engine fault (timeout) {AT_HELLO}",)),
    Case("exits at start", against(program("sys.exit(1)")), 3,
         (f"engine fault (crash) {AT_HELLO}", "exit code 1")),
    Case("crashes mid-round", against(on("state", 'print("planted", file=sys.stderr); sys.exit(70)')), 3,
         (f"engine fault (crash) {AT_STATE}", "exit code 70", "planted")),
    Case("closes its stdout", against(program("os.close(1)\ntime.sleep(60)")), 3,
         (f"engine fault (crash) {AT_HELLO}",)),
    Case("oversized line", against(on("legal", 'return "x" * 10000'), "--max-line", "4096"), 3,
         (f"engine fault (oversized) {AT_LEGAL}",)),
    Case("answer of 20000 nested lists", against(on("legal", "return DEEP + '\\n'")), 3,
         (f"engine fault (malformed) {AT_LEGAL}: the answer: nested 20000 levels deep",)),
    Case("answer of 3000 nested maps", against(on("state", "return MAPS + '\\n'")), 3,
         (f"engine fault (malformed) {AT_STATE}: the answer: nested 3000 levels deep",)),
    Case('"id": true', against(patched("hello", 'out["id"] = True')), 3,
         (f"engine fault (protocol) {AT_HELLO}: response.id: expected 1, got True",)),
    Case("seat outside the table", against(patched("legal", 'out["to_move"] = 7')), 3,
         (f"engine fault (protocol) {AT_LEGAL}: legal.to_move: seat 7 is not at the table (seats 0-1)",)),
    Case("trick winner outside the table", against(patched("apply", 'out["events"] = [WINNER_5]')), 3,
         (f"engine fault (protocol) {AT_APPLY}: apply.events[0].winner: seat 5",)),
    Case("three hands at a table of two",
         against(patched("state", 'out["state"]["hands"] = [[1], [2], [3]]')), 3,
         (f"engine fault (protocol) {AT_STATE}: state.hands: 3 entries for 2 players",)),
    Case("a score that is true", against(patched("state", 'out["state"]["scores"] = [True, 0]')), 3,
         (f"engine fault (protocol) {AT_STATE}: state.scores[0]: expected an integer, got bool",)),
    Case("lone surrogate in hello.name", against(patched("hello", 'out["name"] = "bad \\ud800 name"')), 3,
         (f"engine fault (malformed) {AT_HELLO}: the answer: name: a lone surrogate",)),
    Case("not UTF-8",
         against(on("hello", 'sys.stdout.buffer.write(b"\\xff\\xfe\\n"); sys.stdout.flush(); return')),
         3, (f"engine fault (malformed) {AT_HELLO}: the answer: not UTF-8",)),
    Case("NaN in an answer", against(on("legal", f"return {NAN_LEGAL!r}")), 3,
         (f"engine fault (malformed) {AT_LEGAL}", "NaN")),
    Case("speaks protocol 2", against(patched("hello", 'out["protocol"] = 2')), 3,
         (f"engine fault (protocol) {AT_HELLO}: hello.protocol",)),
    Case("refuses hello with a two-line message", against(on("hello", REFUSE)), 3,
         (f"engine fault (protocol) {AT_HELLO}: hello was refused: bad_request: no thanks",)),
    Case("answers with the wrong type", against(patched("hello", 'out["type"] = "legal"')), 3,
         (f"engine fault (protocol) {AT_HELLO}: response.type: expected 'hello', got 'legal'",)),
    Case("an unknown error code", against(on("legal", ODD_CODE)), 3,
         (f"engine fault (protocol) {AT_LEGAL}: response.error.code", "'oops'")),
    Case("declares an unknown reading (replay)", against(patched("hello", ODD_READING)), 2,
         ("engine hello: readings: run_gaps='gaps_jumped'",)),
    Case("declares an unknown reading (fuzz)", fuzz_with(patched("hello", ODD_READING)), 2,
         ("engine hello: readings: run_gaps='gaps_jumped'",)),
    Case("declares eight copies (fuzz)", fuzz_with(patched("hello", EIGHT_COPIES)), 2,
         ("engine hello: parameters.copies.small_game: expected maximum 7, got 8",)),
    Case("fuzz: a hang", fuzz_with(on("state", "time.sleep(60)"), *TIMEOUT), 3,
         (f"engine fault (timeout) {AT_STATE}",)),
    Case("perft: a crash", lambda folder: ["perft", "--players", "2", "--seed", "1", "--depth", "2",
                                           "--engine", on("legal", "sys.exit(9)")(folder)], 3,
         ("engine fault (crash) at request 3 (legal)", "exit code 9")),
]

PLUGIN_CASES = [
    Case("syntax error", against(module("def make(:\n", head=False)), 3,
         ("engine fault (start)", "SyntaxError")),
    Case("raises at import", against(module("raise RuntimeError('not today')\n", head=False)), 3,
         ("engine fault (start)", "importing", "RuntimeError: not today")),
    Case("sys.exit(0) at import", against(module("import sys\nsys.exit(0)\n", head=False)), 3,
         ("engine fault (start)", "SystemExit (sys.exit(0))")),
    Case("a missing dependency", against(module("import no_such_dependency_535\n", head=False)), 3,
         ("engine fault (start)", "ModuleNotFoundError")),
    Case("hangs at import", against(module("import threading\nthreading.Event().wait()\n", head=False)), 3,
         ("engine fault (timeout)", f"importing and starting the engine took over {ENGINE_TIMEOUT:g} s")),
    Case("factory raises", against(module("def make():\n    raise ValueError('no engine')\n")), 3,
         ("engine fault (start)", "the factory raised ValueError: no engine")),
    Case("factory returns no engine", against(module("def make():\n    return 42\n")), 3,
         ("engine fault (start)", "no handle(request) method")),
    Case("no such factory", against(module("def other():\n    return Base()\n")), 2,
         ("--engine", "no callable 'make'")),
    Case("no such file",
         lambda folder: ["replay", str(replay_file(folder)), "--engine", "python:/nope/x.py:make"],
         2, ("--engine", "no Python file /nope/x.py")),
    Case("no such module",
         lambda folder: ["replay", str(replay_file(folder)), "--engine", "python:no_mod_535:make"],
         2, ("--engine", "cannot import no_mod_535")),
    Case("handle() raises", against(handled("legal", "raise KeyError('x')")), 3,
         (f"engine fault (crash) {AT_LEGAL}: handle() raised KeyError",)),
    Case("handle() calls sys.exit(0)", against(handled("hello", "sys.exit(0)")), 3,
         (f"engine fault (crash) {AT_HELLO}: handle() raised SystemExit (sys.exit(0))",)),
    Case("handle() raises KeyboardInterrupt", against(handled("hello", "raise KeyboardInterrupt")), 3,
         (f"engine fault (crash) {AT_HELLO}: handle() raised KeyboardInterrupt",)),
    Case("handle() never returns", against(handled("legal", "threading.Event().wait()")), 3,
         (f"engine fault (timeout) {AT_LEGAL}: handle() gave no answer within {ENGINE_TIMEOUT:g} s",)),
    Case("close() raises",
         against(engine_class("    def close(self):\n        raise OSError('disk full')\n")), 3,
         ("engine fault (crash): close() raised OSError: disk full",)),
    Case("close() never returns",
         against(engine_class("    def close(self):\n        threading.Event().wait()\n")),
         3, (f"engine fault (timeout): close() did not return within {ENGINE_TIMEOUT:g} s",)),
    Case("handle() returns a set", against(handled("hello", "a['moves'] = {1}")), 3,
         (f"engine fault (malformed) {AT_HELLO}: handle() returned what is not JSON",)),
    Case("handle() returns None", against(handled("hello", "a = None")), 3,
         (f"engine fault (protocol) {AT_HELLO}: response: expected a JSON object, got null",)),
    Case('handle() answers "id": True', against(handled("hello", "a['id'] = True")), 3,
         (f"engine fault (protocol) {AT_HELLO}: response.id: expected 1, got True",)),
    Case("handle() answers 20000 nested lists", against(handled("legal", DEEP_ANSWER)), 3,
         (f"engine fault (malformed) {AT_LEGAL}: handle() returned what is not JSON",)),
    Case("handle() names a lone surrogate", against(handled("hello", "a['name'] = '\\ud800'")), 3,
         (f"engine fault (malformed) {AT_HELLO}: the answer: name: a lone surrogate",)),
    Case("handle() names a passed seat outside the table",
         against(handled("state", "a['state']['passed'] = [9]")),
         3, (f"engine fault (protocol) {AT_STATE}: state.passed[0]: seat 9 is not at the table",)),
]

OPTION_CASES = [
    Case("--players 2-1000000", command("fuzz", "--engine", REFERENCE, "--players", "2-1000000"), 2,
         ("--players: 1000000 players is outside 2 to 6",)),
    Case("--players 2-10**30", command("fuzz", "--engine", REFERENCE, "--players", "2-" + "9" * 30), 2,
         ("--players: 999",)),
    Case("--players 6-2", command("fuzz", "--engine", REFERENCE, "--players", "6-2"), 2,
         ("--players: the range 6-2 is empty",)),
    Case("--players x", command("fuzz", "--engine", REFERENCE, "--players", "x"), 2,
         ("--players: expected counts like",)),
    Case("--players -3", command("fuzz", "--engine", REFERENCE, "--players=-3"), 2,
         ("--players: expected counts like",)),
    Case("--timeout nan", command("fuzz", "--engine", REFERENCE, "--timeout", "nan"), 2,
         ("--timeout", "finite")),
    Case("--timeout 0", command("fuzz", "--engine", REFERENCE, "--timeout", "0"), 2, ("--timeout",)),
    Case("--shrink-budget inf", command("fuzz", "--engine", REFERENCE, "--shrink-budget", "inf"), 2,
         ("--shrink-budget",)),
    Case("--examples 0", command("fuzz", "--engine", REFERENCE, "--examples", "0"), 2, ("--examples",)),
    Case("--max-line 10", command("fuzz", "--engine", REFERENCE, "--max-line", "10"), 2, ("--max-line",)),
    Case("perft --players 1", command("perft", "--players", "1", "--seed", "1", "--depth", "1"), 2,
         ("--players",)),
    Case("perft --players 99", command("perft", "--players", "99", "--seed", "1", "--depth", "1"), 2,
         ("--players",)),
    Case("perft --depth 99", command("perft", "--players", "2", "--seed", "1", "--depth", "99"), 2,
         ("--depth",)),
    Case("an empty --engine", command("fuzz", "--engine", ""), 2, ("--engine: the engine command is empty",)),
    Case("an --engine that cannot be split", command("fuzz", "--engine", 'engine "unclosed'), 2,
         ("--engine: cannot split",)),
    Case("an --engine that cannot start", command("fuzz", "--engine", "/nonexistent/engine-535"), 3,
         ("engine fault (start): cannot start '/nonexistent/engine-535'",)),
    Case("--replay-out in no directory",
         command("fuzz", "--engine", REFERENCE, "--replay-out", "/nonexistent/d/r.json"), 2,
         ("--replay-out: no directory",)),
]
# fmt: on

CASES = REPLAY_CASES + ENGINE_CASES + PLUGIN_CASES + OPTION_CASES


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 45 and len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    folder, work = tmp_path / "inputs", tmp_path / "work"
    folder.mkdir()
    work.mkdir()
    args = case.args(folder)
    with within(cpu=LIMIT_SECONDS, wall=WALL_SECONDS):
        run_bad_input(args, case.code, *case.needles, cwd=work)


# ---- serve: bad requests are answered, never fatal ---------------------------------------------


def new_round(**changes: object) -> str:
    return json.dumps({"id": 7, "type": "new_round", **DEAL, **changes})


SERVE_CASES = [
    (
        "sixteen 1s",
        new_round(hands=[[1] * 16, [2]]),
        "new_round.hands[0]: 16 cards of rank 1, the deck has 4",
    ),
    ("nine 1s", new_round(hands=[[1] * 9, [2]]), "new_round.hands[0]: 9 cards of rank 1, the deck has 4"),
    ("five 1s", new_round(hands=[[1] * 5, [2]]), "new_round.hands[0]: 5 cards of rank 1, the deck has 4"),
    (
        "copies over all hands",
        new_round(hands=[[1, 1, 1], [1, 1]]),
        "new_round.hands: 5 cards of rank 1 in all",
    ),
    ("unknown rank", new_round(hands=[[6], [2]]), "new_round.hands[0]: 6 is not a rank of the deck"),
    ("empty hand", new_round(hands=[[], [2]]), "new_round.hands[0]: the hand is empty"),
    ("leader outside the table", new_round(leader=2), "new_round.leader: seat 2 is not at the table"),
    ("leader true", new_round(leader=True), "new_round.leader: expected an integer, got bool"),
    ("players true", new_round(players=True), "new_round.players: expected an integer, got bool"),
    (
        "a million players",
        new_round(players=10**6, hands=[[1]] * 10**3),
        "new_round.hands: 1000 hands for 1000000",
    ),
    (
        "nine players",
        new_round(players=9, hands=[[1]] * 9, scores=[0] * 9),
        "new_round.players: 9 players is outside",
    ),
    (
        "a card that is true",
        new_round(hands=[[True], [2]]),
        "new_round.hands[0][0]: expected an integer, got bool",
    ),
    ("unsorted hand", new_round(hands=[[3, 1], [2]]), "new_round.hands[0]: card lists must be sorted"),
    ("negative score", new_round(scores=[0, -4]), "new_round.scores[1]: expected an integer >= 0"),
    ("an unknown field", new_round(dealer=1), "new_round: unknown field(s) 'dealer'"),
    (
        "a move with an unknown field",
        '{"id": 7, "type": "apply", "move": {"action": "pass", "cards": [], "x": 1}}',
        "apply.move: unknown field(s) 'x'",
    ),
    ("id true", '{"id": true, "type": "legal"}', "request.id: expected an integer, got bool"),
    ("unknown type", '{"id": 7, "type": "dance"}', "request.type: expected one of"),
    ("lone surrogate type", '{"id": 7, "type": "\\ud800"}', "request.type"),
    ("20000 nested lists", "[" * 20000 + "]" * 20000, "line 1: nested 20000 levels deep"),
    ("3000 nested maps", '{"a":' * 3000 + "1" + "}" * 3000, "line 1: nested 3000 levels deep"),
    ("NaN", '{"id": 7, "type": "hello", "protocol": NaN}', "NaN"),
    ("not JSON", "{nope", "line 1: line 1 column 2: not valid JSON"),
    (
        "over a MiB",
        '{"id": 7, "type": "legal", "pad": "' + "x" * (1 << 20) + '"}',
        "line 1: over the limit of",
    ),
]


@pytest.mark.parametrize(("name", "line", "words"), SERVE_CASES, ids=[c[0] for c in SERVE_CASES])
def test_serve_answers_a_bad_request(name: str, line: str, words: str) -> None:
    # The refused request, then `state` (no round was started: never a different hand), then hello.
    stdin = line + '\n{"id": 8, "type": "state"}\n{"id": 9, "type": "hello", "protocol": 1}\n'
    with within(cpu=LIMIT_SECONDS, wall=WALL_SECONDS):
        result = CliRunner().invoke(main, ["serve"], input=stdin, catch_exceptions=False)
    assert result.exit_code == 0 and result.stderr == "" and "Traceback" not in result.output
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(answers) == 3, result.stdout[:500]
    refused, state, hello = answers
    assert refused["ok"] is False and refused["error"]["code"] == "bad_request", refused
    assert words in refused["error"]["message"], refused["error"]["message"]
    assert refused["id"] in (7, None) and refused["type"] in ("new_round", "legal", "hello", "apply", None)
    assert state["id"] == 8 and state["error"]["code"] == "no_round"
    assert hello["id"] == 9 and hello["ok"] is True


def test_serve_plays_a_legal_deal_after_refusing_one() -> None:
    stdin = "\n".join(
        [
            new_round(hands=[[1] * 16, [2]]),
            new_round(id=8, hands=[[1, 1, 1, 1], [2]]),
            '{"id": 9, "type": "state"}',
        ]
    )
    result = CliRunner().invoke(main, ["serve"], input=stdin + "\n")
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, True, True]
    assert answers[2]["state"]["hands"] == [[1, 1, 1, 1], [2]]
