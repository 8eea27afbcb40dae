"""No field of a rule is decorative: each part, field and card bound of every rule of the embedded
spec (and of every reading's fragment) is changed in turn, and the copy either plays differently
under the spec interpreter or is refused when it loads (issue 17)."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from five35.engine.interpreter import SpecEngine
from five35.spec import Ruleset, SpecError, embedded_spec_path, load_spec
from five35.spec.lang import schema as S

DATA = yaml.safe_load(embedded_spec_path().read_text(encoding="utf-8"))
PROSE = ("id", "cites", "statement")
SEATS = {name for slot in S.SLOTS.values() for name, part in slot.parts.items() if part.type == S.SEAT}


def _mutations(value: Any, name: str) -> list[Any]:
    """Changes of one value that keep it well formed where they can: a part negated (a seat moved
    on by one), a plain field swapped or renamed, a card bound moved by one."""
    if isinstance(value, dict):  # cards: {min, max}
        return [{**value, bound: f"({expr}) + 1"} for bound, expr in value.items()]
    if name == "after":
        return ["pass" if value == "play" else "play"]
    if name in ("kind", "reason", "does"):
        return [f"{value}_x"]
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if name in SEATS:
        return [f"(({text}) + 1) % players"]
    return [f"not ({text})", f"-({text})"]


def _places() -> Iterator[tuple[str, tuple[Any, ...], str]]:
    """(id, path to the mapping, key) for every field of every rule and fragment."""
    for i, rule in enumerate(DATA["rules"]):
        for key in rule:
            if key not in PROSE:
                yield f"rules.{rule['id']}.{key}", ("rules", i), key
    for point, vp in DATA["variation_points"].items():
        for reading, entry in vp["readings"].items():
            for rule_id, parts in entry.get("rules", {}).items():
                for key in parts:
                    path = ("variation_points", point, "readings", reading, "rules", rule_id)
                    yield f"{point}={reading}.{rule_id}.{key}", path, key


PLACES = list(_places())


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def _trace(ruleset: Ruleset, players: int, seed: int, limit: int = 2000) -> list[Any]:
    engine = SpecEngine(ruleset, players)
    state = engine.new_match(seed)
    rng = random.Random(seed)
    out: list[Any] = [engine.to_json(state)]
    for _ in range(limit):
        if state.phase == "match_over":
            break
        if state.phase == "round_over":
            state = engine.next_round(state)
            out.append(engine.to_json(state))
            continue
        moves = engine.legal_moves(state)
        move = rng.choice(moves)
        state, events = engine.apply(state, move)
        out.append(([str(m) for m in moves], [e.to_json() for e in events]))
    return out


def _ruleset(path: Path, place: tuple[Any, ...]) -> Ruleset:
    spec = load_spec(path)
    if place[0] == "variation_points":
        return spec.with_readings(spec.ruleset(), {place[1]: place[3]})
    return spec.ruleset()


TABLES = ((2, 0), (5, 2), (6, 3))
# libyaml's dumper where PyYAML has it: a copy of the whole spec is written for every change.
DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=DUMPER, sort_keys=False, allow_unicode=True)


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded spec as this test writes its copies: every change is held against it."""
    path = tmp_path_factory.mktemp("rule_fields") / "original.yaml"
    path.write_text(_dump(DATA), encoding="utf-8")
    return path


@functools.cache
def _before(path: Path, place: tuple[Any, ...], players: int, seed: int) -> list[Any] | None:
    """The unchanged rules' play, the same for every field of a rule (or of a reading's fragments);
    None at a table they cannot deal (five_player_copies=five_is_small deals 60 cards from 52 to
    five players by the table), where no change can show."""
    ruleset = _ruleset(path, place)
    try:
        ruleset.hand_size(players)
    except SpecError:
        return None
    return _trace(ruleset, players, seed)


# Every field of every rule by default; the readings' fragments too under -m slow (a fragment's
# field is the same kind of field as a rule's, read by the same loader and interpreter).
@pytest.mark.parametrize(
    ("place", "path", "key"),
    [
        pytest.param(place, path, key, id=place, marks=[pytest.mark.slow] if path[0] != "rules" else [])
        for place, path, key in PLACES
    ],
)
def test_changing_a_rule_field_changes_play_or_is_refused(
    place: str, path: tuple[Any, ...], key: str, tmp_path: Path, original: Path
) -> None:
    # The unchanged rules are those of the reading the change is made in (the spec's own elsewhere).
    unchanged = path[:4] if path[0] == "variation_points" else ("rules",)
    before = [_before(original, unchanged, players, seed) for players, seed in TABLES]
    for n, changed in enumerate(_mutations(_at(DATA, path)[key], key)):
        data = copy.deepcopy(DATA)
        _at(data, path)[key] = changed
        changed_copy = tmp_path / f"copy{n}.yaml"
        changed_copy.write_text(_dump(data), encoding="utf-8")
        try:
            after = _ruleset(changed_copy, path)
            for (players, seed), played in zip(TABLES, before, strict=True):
                if played is not None and _trace(after, players, seed) != played:
                    return
        except (SpecError, ValueError):
            return  # refused: at load, or when the engine is built or a deal is made
    pytest.fail(f"{place}: no change of it changed play or was refused")


def test_one_rule_type_checks_in_place_and_leaves_the_program_as_it_was() -> None:
    from dataclasses import replace

    from five35.spec.lang.syntax import parse

    ruleset = load_spec().ruleset()
    program = ruleset.program(4)
    rule = next(r for r in ruleset.rules if r.id == "pile.single")
    before = (dict(program._fns), dict(program._free), dict(program._calls), set(program.used_parts))
    good = replace(
        rule, parts=tuple((n, parse("new.first == 8") if n == "beats" else t) for n, t in rule.parts)
    )
    bad = replace(
        rule, parts=tuple((n, parse("new.first + 1") if n == "beats" else t) for n, t in rule.parts)
    )
    assert program.type_checks(rule) and program.type_checks(good)
    assert not program.type_checks(bad)  # a number where beats must be true or false
    assert before == (dict(program._fns), dict(program._free), dict(program._calls), set(program.used_parts))
