"""Load and validate a spec file, reporting every problem as `file:line: key: message`.

The file is read within the input limits (yaml_input: size, depth, aliases, tags). Validation then
runs in passes: the names of variation points and parameters against the engine's vocabulary (what
some code implements); the JSON Schema (spec.schema.json) for the shape (unknown keys, wrong types,
missing entries, numbers out of range); the semantic pass for what a schema cannot check (a cited
clause that does not exist, a reading a point does not have or no engine implements, bounds that
contradict each other, a clause that is not in its source text, a match that cannot be proved to
end).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .files import (
    Key,
    SpecError,
    StrictValidator,
    bundled_schema,
    embedded_spec_path,
    first_schema_error,
    nearest_line,
)
from .lang.compile import RuleDef
from .lang.rulebook import Rulebook, check_rulebook, read_rulebook
from .lang.schema import moments_of
from .lang.syntax import Name, walk
from .limits import MAX_DEPTH
from .model import Clause, Parameter, Profile, ReadingChoice, Rule, Source, Spec, VariationPoint
from .ruleset import MATCH_ROUND_LIMIT, match_round_bound
from .vocabulary import PARAMETERS, REQUIRED_PARAMETERS, Vocabulary
from .words import attach_words
from .yaml_input import read_text, read_yaml

#: Profiles one profile may extend, one through the other. Each profile's chain is walked to fold it in
#: and to look for a loop, so without a bound a chain of a few thousand profiles (a 300 KB file) took
#: minutes; real specs extend one or two.
MAX_EXTENDS = MAX_DEPTH


@cache
def embedded_game() -> str:
    """The embedded spec's `game:` (535's name)."""
    return embedded_spec().game


@cache
def embedded_spec() -> Spec:
    """The embedded spec, loaded once per process (`load_spec()` gives this one). Its spec and
    words files belong to the installed package and do not change while it runs; nearly every
    command, check and job loads it, some several times (the engine compares a ruleset's rules with
    it), and a forked worker process inherits it rather than reading it again."""
    return _load(embedded_spec_path(), None)


def other_game(spec: Spec) -> str | None:
    """Why `spec` states another game than 535 (None where it is 535, a house rule included): what
    five35 wrote for 535's texts (their examples, scenes, words, clause ids) says nothing of it."""
    if spec.game == embedded_game():
        return None
    return f"{spec.game} is another game than {embedded_game()}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def load_spec(path: str | Path | None = None, *, vocabulary: Vocabulary | None = None) -> Spec:
    """Load and validate a spec file (the embedded one when `path` is None). `vocabulary` names
    the parameters a ruleset must have (those of `Ruleset` when None): the rules and readings are
    the spec's own, played by the spec interpreter wherever the reference engine does not."""
    if path is None and vocabulary is None:
        return embedded_spec()
    return _load(Path(path) if path is not None else embedded_spec_path(), vocabulary)


def _load(spec_path: Path, vocabulary: Vocabulary | None) -> Spec:
    if vocabulary is None:
        vocabulary = Vocabulary(points={}, parameters=PARAMETERS)
    data, lines = read_yaml(spec_path)
    _raise_first(spec_path, lines, _unknown_names(data, vocabulary))
    error = first_schema_error(spec_path, lines, data, StrictValidator(bundled_schema("spec.schema.json")))
    if error:
        raise error
    spec = _build(spec_path, data, lines)
    _raise_first(spec_path, lines, _semantic_problems(spec, data, vocabulary))
    _raise_rule_problems(spec_path, lines, _rule_language_problems(spec))
    return attach_words(spec)


def _raise_first(path: Path, lines: dict[Key, int], problems: Iterable[tuple[Key, str]]) -> None:
    for key, message in problems:
        raise SpecError(f"{path}:{nearest_line(lines, key)}", f"{'.'.join(map(str, key))}: {message}")


def _unknown_names(data: Any, vocabulary: Vocabulary) -> Iterator[tuple[Key, str]]:
    """A parameter of its own beside a missing one every ruleset has: most likely a misspelling.
    Checked before the schema, which would otherwise report only the right one missing. (A
    parameter of its own is otherwise welcome, if some rule names it.)"""
    params = data.get("parameters") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        return
    # A parameter every ruleset can have is missed only where some rule names it (another game
    # leaves 535's out): a name of its own close to one of those is then most likely a misspelling.
    points = data.get("variation_points")
    fragments = [
        r.get("rules")
        for v in (points.values() if isinstance(points, dict) else ())
        if isinstance(v, dict) and isinstance(v.get("readings"), dict)
        for r in v["readings"].values()
        if isinstance(r, dict)
    ]
    named = _words_in(data.get("rules"), fragments)
    missing = [
        name
        for name in vocabulary.parameters
        if name not in params and (name in REQUIRED_PARAMETERS or name in named)
    ]
    for name in params:
        if name not in vocabulary.parameters and missing:
            close = difflib.get_close_matches(name, missing, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"{', '.join(missing)} missing"
            yield ("parameters", name), f"parameter {name!r} is not one every ruleset has ({hint})"


def _words_in(*values: Any) -> set[str]:
    """Every word of every expression in `values` (rules and fragments), before parsing."""
    found: set[str] = set()
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.update(re.findall(r"[a-z_][a-z0-9_]*", value))
        elif isinstance(value, dict):
            # The prose of a rule is no expression: only its parts can name a parameter.
            stack.extend(v for k, v in value.items() if k not in ("statement", "cites", "id"))
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _build(path: Path, data: dict[str, Any], lines: dict[Key, int]) -> Spec:
    sources = {
        code: Source(
            language_code=code,
            file=_source_file(path, s["file"]),
            language=s["language"],
            title=s.get("title"),
            defects=tuple(s.get("defects", ())),
        )
        for code, s in data["sources"].items()
    }
    clauses = {
        cid: Clause(
            cid,
            c.get("de"),
            c.get("es"),
            c.get("defect"),
            lines[("clauses", cid)],
            tuple((code, text) for code, text in c.items() if code != "defect"),
        )
        for cid, c in data["clauses"].items()
    }
    parameters = {
        name: Parameter(**_cited(name, p), value=p["value"], explain=p["explain"])
        for name, p in data["parameters"].items()
    }
    points = {
        name: VariationPoint(
            **_cited(name, v),
            question=v["question"],
            listed={r: e["explain"] if isinstance(e, dict) else e for r, e in v["readings"].items()},
            default=v["default"],
            rationale=v["rationale"],
            line=lines[("variation_points", name)],
            unimplemented=frozenset(
                r for r, e in v["readings"].items() if isinstance(e, dict) and e.get("unimplemented", False)
            ),
        )
        for name, v in data["variation_points"].items()
    }
    book, problems = read_rulebook(data)
    _raise_rule_problems(path, lines, problems)
    rules = tuple(
        _rule_of(raw, definition, book, data.get("parameters") or {})
        for raw, definition in zip(data["rules"], book.rules, strict=True)
    )
    profiles = {name: _profile(name, data["profiles"], points) for name in data["profiles"]}
    return Spec(
        path=path,
        game=data["game"],
        sources=sources,
        clauses=clauses,
        parameters=parameters,
        variation_points=points,
        rules=rules,
        profiles=profiles,
        default_profile=data["default_profile"],
        lines=lines,
        embedded=_is_embedded(path),
        rulebook=book,
    )


def _cited(name: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The fields of a parameter or variation point that `Cited` holds, from the spec file's entry."""
    return {
        "name": name,
        "cites": tuple(raw["cites"]),
        "in_text": raw.get("in_text", True),
        "evidence": tuple(raw.get("evidence", ())),
    }


def _rule_of(raw: dict[str, Any], definition: RuleDef, book: Rulebook, raw_parameters: Any) -> Rule:
    """A rule with what follows from its definition: the names it uses and when it applies."""
    names = {n.id for _part, node in definition.parts for n in walk(node) if isinstance(n, Name)}
    names |= {n.id for _b, node in definition.cards for n in walk(node) if isinstance(n, Name)}
    names &= set(raw_parameters)
    points = sorted({f.point for f in book.fragments for rid, _c in f.changes if rid == definition.id})
    when, decides = moments_of(definition.does, definition.field("after"))
    return Rule(
        id=definition.id,
        cites=tuple(raw["cites"]),
        statement=raw["statement"],
        definition=definition,
        uses=tuple(sorted(names)) + tuple(points),
        when=when,
        decides=decides,
    )


def _raise_rule_problems(path: Path, lines: dict[Key, int], problems: Iterable[tuple[Key, int, str]]) -> None:
    """The first problem of the rules, at `file:line:col` of the expression (line of its key)."""
    for key, column, message in problems:
        raise rule_error(path, lines, key, column, message)


def rule_error(path: Path, lines: dict[Key, int], key: Key, column: int, message: str) -> SpecError:
    line = nearest_line(lines, key)
    where = f"{path}:{line}"
    if column and key in lines:
        start = _value_column(path, line, key[-1])
        if start:
            where += f":{start + column - 1}"
    return SpecError(where, f"{'.'.join(map(str, key))}: {message}")


def _value_column(path: Path, line: int, name: str | int) -> int:
    """The 1-based column where the expression of key `name` starts on `line` (after a quote),
    or 0 when it cannot be told (the value is on another line)."""
    try:
        text = path.read_text(encoding="utf-8").split("\n")[line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return 0
    match = re.search(rf"(?:^|[\s{{,]){re.escape(str(name))}:\s*", text)
    if not match:
        return 0
    at = match.end()
    if at < len(text) and text[at] in "\"'":
        at += 1
    return at + 1


def _is_embedded(path: Path) -> bool:
    try:
        return path.resolve() == embedded_spec_path().resolve()
    except OSError:
        return False


def _source_file(spec_path: Path, name: str) -> Path:
    """A source beside the spec file, or else the embedded copy, so a house-rules copy of the spec
    saved anywhere still finds the original texts."""
    local = spec_path.parent / name
    if local.is_file():
        return local
    embedded = embedded_spec_path().parent / name
    return embedded if embedded.is_file() else local


def _profile(name: str, raw: dict[str, Any], points: dict[str, VariationPoint]) -> Profile:
    """A profile with `extends` folded in; points it does not choose stay unresolved (checked later)."""
    chain: list[str] = []
    current: str | None = name
    # A longer chain is refused by the semantic pass, which reports it on the first profile too deep.
    while current is not None and current in raw and current not in chain and len(chain) <= MAX_EXTENDS:
        chain.append(current)
        current = raw[current].get("extends")
    readings: dict[str, ReadingChoice] = {}
    parameters: dict[str, Any] = {}
    for link in reversed(chain):
        entry = raw[link]
        for point, choice in entry.get("readings", {}).items():
            readings[point] = ReadingChoice(choice["reading"], choice["basis"], choice.get("note"), link)
        parameters.update(entry.get("parameters", {}))
    p = raw[name]
    return Profile(
        name=name,
        title=p["title"],
        source=p["source"],
        status=p["status"],
        defects=tuple(p.get("defects", ())),
        readings={k: readings[k] for k in points if k in readings},
        parameters=parameters,
    )


def _semantic_problems(spec: Spec, data: dict[str, Any], vocabulary: Vocabulary) -> Iterator[tuple[Key, str]]:
    clause_ids = set(spec.clauses)

    def cited(key: Key, ids: tuple[str, ...] | list[str]) -> Iterator[tuple[Key, str]]:
        for i, cid in enumerate(ids):
            if cid not in clause_ids:
                yield (*key, i), f"cites clause {cid!r}, which does not exist"

    # Source texts: every clause must quote its source word for word (whitespace aside).
    for code, source in spec.sources.items():
        if not source.file.is_file():
            # A directory or a device (/dev/zero) exists: saying it does not would send the user looking.
            problem = "is not a regular file" if source.file.exists() else "does not exist"
            yield ("sources", code, "file"), f"source file {source.file} {problem}"
            continue
        try:
            body = _norm(read_text(source.file, what=f"source file {source.file}"))
        except SpecError as exc:
            # Named at the spec key that points at it: that is the line a user can change.
            yield ("sources", code, "file"), exc.message
            continue
        for clause in spec.clauses.values():
            quote = clause.text(code)
            if quote is not None and _norm(quote) not in body:
                yield ("clauses", clause.id, code), f"is not a quotation of {source.file.name}"
    for clause in spec.clauses.values():
        for code in clause.languages:
            if code not in spec.sources:
                yield ("clauses", clause.id, code), f"quotes language {code!r}, which has no source"

    for name, param in spec.parameters.items():
        yield from cited(("parameters", name, "cites"), param.cites)

    for name, vp in spec.variation_points.items():
        yield from cited(("variation_points", name, "cites"), vp.cites)
        if not vp.cites:
            yield ("variation_points", name, "cites"), "cites no clause"
        if vp.default not in vp.listed:
            yield (
                ("variation_points", name, "default"),
                (f"default {vp.default!r} is not one of its readings ({', '.join(vp.listed)})"),
            )
        elif vp.default in vp.unimplemented:
            yield (
                ("variation_points", name, "default"),
                f"default {vp.default!r} is marked unimplemented: a default must be a reading engines play",
            )
    yield from _vocabulary_problems(spec, vocabulary)
    for name, vp in spec.variation_points.items():
        if vp.default not in vp.listed:
            yield ("variation_points", name, "default"), f"default {vp.default!r} is not one of its readings"

    for i, rule in enumerate(spec.rules):
        yield from cited(("rules", i, "cites"), rule.cites)

    yield from _bounds_problems(
        ("parameters",), {n: p.value for n, p in spec.parameters.items()}, spec.variation_points
    )

    if spec.default_profile not in spec.profiles:
        yield ("default_profile",), f"names profile {spec.default_profile!r}, which does not exist"
    for name, raw in data["profiles"].items():
        parent = raw.get("extends")
        if parent is not None and parent not in spec.profiles:
            yield ("profiles", name, "extends"), f"extends profile {parent!r}, which does not exist"
        chain = [name]
        while parent is not None and parent in data["profiles"]:
            chain.append(parent)
            if parent == name:
                yield ("profiles", name, "extends"), f"extends itself: {' -> '.join(chain)}"
                break
            if parent in chain[:-1]:
                break  # a loop further up; reported on the profiles that are in it
            if len(chain) > MAX_EXTENDS + 1:
                yield (
                    ("profiles", name, "extends"),
                    f"extends a chain of more than {MAX_EXTENDS} profiles"
                    f" ({name} -> {chain[1]} -> ... -> {parent})",
                )
                break
            parent = data["profiles"][parent].get("extends")
        for point, choice in raw.get("readings", {}).items():
            key: Key = ("profiles", name, "readings", point)
            if point not in spec.variation_points:
                yield key, f"unknown variation point {point!r}"
            elif choice["reading"] not in spec.variation_points[point].listed:
                readings = ", ".join(spec.variation_points[point].listed)
                yield (*key, "reading"), f"unknown reading {choice['reading']!r} (readings: {readings})"
        profile = spec.profiles[name]
        missing = [p for p in spec.variation_points if p not in profile.readings]
        if missing:
            yield ("profiles", name), f"chooses no reading for {', '.join(missing)}"
        merged = {n: p.value for n, p in spec.parameters.items()} | dict(profile.parameters)
        yield from _bounds_problems(("profiles", name, "parameters"), merged, spec.variation_points)
        yield from _profile_deal_problems(("profiles", name), profile, merged)


def _rule_language_problems(spec: Spec) -> Iterator[tuple[Key, int, str]]:
    """Names and types of every rule part, compiled under the base readings with each reading
    alone and under every profile, at the fewest and most players."""
    assert spec.rulebook is not None
    base = {name: vp.default for name, vp in spec.variation_points.items()}
    choices: list[dict[str, str]] = [base]
    for name, vp in spec.variation_points.items():
        for reading in vp.playable:
            choices.append({**base, name: reading})
    for profile in spec.playable_profiles:
        choices.append(dict(spec.ruleset(profile).readings))
    ruleset = spec.ruleset()
    yield from check_rulebook(spec.rulebook, ruleset.values, (ruleset.players_min,), choices)
    named = {
        n.id
        for rule in (*spec.rulebook.rules, *(c for f in spec.rulebook.fragments for _r, c in f.changes))
        for node in (*(node for _p, node in rule.parts), *(node for _b, node in rule.cards))
        for n in walk(node)
        if isinstance(n, Name)
    }
    for name in spec.parameters:
        if name not in PARAMETERS and name not in named:
            yield ("parameters", name), 0, f"parameter {name!r} is named by no rule, so it changes nothing"


def _vocabulary_problems(spec: Spec, vocabulary: Vocabulary) -> Iterator[tuple[Key, str]]:
    """Readings no engine implements (unless marked so), and points or parameters the engine
    implements that the spec leaves out. Unknown point and parameter names were checked earlier."""
    # 535's parameters are needed where a rule names them (the rules' compile says so at the rule);
    # every spec gives the required ones, and an engine's vocabulary may need parameters of its own.
    needed = [*REQUIRED_PARAMETERS, *(p for p in vocabulary.parameters if p not in PARAMETERS)]
    for name in needed:
        if name not in spec.parameters:
            yield ("parameters",), f"parameter {name!r} is missing: the engine needs its value"


def _bounds_problems(
    key: Key, params: dict[str, Any], points: Mapping[str, VariationPoint]
) -> Iterator[tuple[Key, str]]:
    ranks = params["ranks"]
    players = params["players"]
    if players["min"] > players["max"]:
        yield (*key, "players"), f"min {players['min']} is above max {players['max']}"
    # Each of 535's parameters is checked where the spec gives it (another game leaves them out).
    if "points" in params:
        missing = sorted(set(ranks) - {int(r) for r in params["points"]})
        if missing:
            yield (*key, "points"), f"gives no points for ranks {missing}"
        extra = sorted({int(r) for r in params["points"]} - set(ranks))
        if extra:
            yield (*key, "points"), f"gives points for ranks {extra}, which are not in the deck"
    if "set_closing_size" in params and "min_set_size" in params:
        for game in ("small_game", "large_game"):
            close = params["set_closing_size"][game]
            if close < params["min_set_size"]:
                yield (
                    (*key, "set_closing_size"),
                    f"{game} closes at {close}, below min_set_size {params['min_set_size']}",
                )
    if (
        "run_closing_size" in params
        and "min_run_size" in params
        and params["run_closing_size"] < params["min_run_size"]
    ):
        yield (
            (*key, "run_closing_size"),
            (f"{params['run_closing_size']} is below min_run_size {params['min_run_size']}"),
        )
    uncovered: list[int] = []
    if "hand_size" in params:
        uncovered = [
            n for n in range(players["min"], players["max"] + 1) if str(n) not in params["hand_size"]
        ]
        if uncovered:
            yield (*key, "hand_size"), f"gives no hand size for {uncovered} players"
    yield from _termination_problems(key, params)
    if not uncovered and "hand_size" in params and "copies" in params:
        yield from _deal_problems(key, params, points)


def _deck(params: dict[str, Any], players: int, five_is_large: bool) -> int:
    copies = params["copies"]
    large = players >= 6 or (players == 5 and five_is_large)
    return int(copies["large_game" if large else "small_game"]) * len(params["ranks"])


def _deal_problems(
    key: Key, params: dict[str, Any], points: Mapping[str, VariationPoint]
) -> Iterator[tuple[Key, str]]:
    """The hand-size table against the deck: at every player count, the table must fit a deck some
    reading gives that count (else no job can deal it: the report compares every reading, and the
    checks play them). At 5 players the decks differ by five_player_copies; a table that fits only
    one of them is a question of the rules (the liveness check names it), not a mistake in the file,
    unless a profile plays both (`_profile_deal_problems`)."""
    deal = points.get("deal")
    if deal is not None and "table" not in deal.playable:
        return  # no reading deals by the table
    five = points.get("five_player_copies")
    larges = {r == "five_is_large" for r in five.playable} if five is not None else {True}
    # Under the value itself (`value: {2: 12, ...}`) when it is the spec's parameter, not a profile's.
    at = (*key, "hand_size", "value") if key == ("parameters",) else (*key, "hand_size")
    for n in range(params["players"]["min"], params["players"]["max"] + 1):
        size = params["hand_size"][str(n)]
        deck = max(_deck(params, n, large) for large in larges)
        if size * n > deck:
            yield (
                (*at, str(n)),
                f"{n} hands of {size} need {size * n} cards, but the deck has {deck} at {n} players "
                "(the reading deal=table deals this table)",
            )


def _profile_deal_problems(key: Key, profile: Profile, params: dict[str, Any]) -> Iterator[tuple[Key, str]]:
    """A profile that deals by the table must be able to deal it at every player count, with the
    deck its own five_player_copies reading gives."""
    readings = {point: choice.reading for point, choice in profile.readings.items()}
    if "hand_size" not in params or "copies" not in params:
        return
    if readings.get("deal", "table") != "table" or any(
        str(n) not in params["hand_size"]
        for n in range(params["players"]["min"], params["players"]["max"] + 1)
    ):
        return
    large = readings.get("five_player_copies", "five_is_large") == "five_is_large"
    for n in range(params["players"]["min"], params["players"]["max"] + 1):
        size = params["hand_size"][str(n)]
        deck = _deck(params, n, large)
        if size * n > deck:
            under = (
                f" under five_player_copies={readings['five_player_copies']}"
                if n == 5 and "five_player_copies" in readings
                else ""
            )
            # At 5 players the profile's deck is its five_player_copies reading's; else the deal's.
            point = "five_player_copies" if n == 5 and "five_player_copies" in readings else "deal"
            yield (
                (*key, "readings", point),
                f"deals by the hand-size table, and {n} hands of {size} need {size * n} cards, but "
                f"the deck has {deck}{under}",
            )
            return


def _termination_problems(key: Key, params: dict[str, Any]) -> Iterator[tuple[Key, str]]:
    """The premises of match_round_bound (model.py), and its bound within MATCH_ROUND_LIMIT: every
    round and every match of the spec must end."""
    if params.get("max_cards_per_turn", 1) < 1:
        yield (*key, "max_cards_per_turn"), "must be at least 1: a leader who places no card ends no trick"
    if "copies" not in params or "points" not in params or "match_end_score" not in params:
        # Another game's deck, scoring and end are its rules' (the deck and deal rules are
        # checked when the interpreter deals; liveness measures the rest), not 535's parameters.
        return
    players = range(params["players"]["min"], params["players"]["max"] + 1)
    copies = params["copies"]
    for n in players:
        # Five players may be a small or a large game (five_player_copies): either must deal.
        fewest = copies["large_game"] if n >= 6 else copies["small_game"]
        if n == 5:
            fewest = min(copies["small_game"], copies["large_game"])
        deck = fewest * len(params["ranks"])
        if deck < n:
            yield (*key, "copies"), f"a deck of {deck} cards cannot deal a card to each of {n} players"
            break
    points = list(params["points"].values())
    if points and max(points) == 0:
        yield (*key, "points"), "no card scores a point, so no match can end"
        return
    bounds = {n: match_round_bound(points, params["match_end_score"], n) for n in players}
    worst = max(bounds, key=lambda n: bounds[n] or 0, default=None)
    bound = bounds.get(worst) if worst is not None else None
    if bound is not None and bound > MATCH_ROUND_LIMIT:
        yield (
            (*key, "match_end_score"),
            (
                f"{params['match_end_score']} points can take up to {bound} rounds to reach ({worst} "
                f"players, the cheapest card worth {min(points)}), over the limit of {MATCH_ROUND_LIMIT} "
                "rounds a match may be proved to last"
            ),
        )
