"""Read a YAML data file safely: bounded size, depth and alias expansion, core tags only.

PyYAML's composer and any tree walk over its nodes recurse once per nesting level, and aliases let a
1 KB file stand for a tree of billions of nodes (or for a tree that contains itself). So the file is
first parsed into events -- PyYAML's parser is a state machine with its own stacks, it does not
recurse -- and the event stream is checked in one linear pass:

- nesting depth, with aliases counted at the depth they expand to;
- the number of aliases, and the number of nodes they add when expanded (computed from the sizes of
  the anchored subtrees, never by expanding them);
- an alias inside the node it names (a cycle);
- explicit tags: only the YAML core schema's (`!!str`, `!!int`, ...); `!python/object` and any other
  tag is refused rather than silently read as text;
- keys: plain values only (no lists, mappings or aliases as keys, no `<<` merge keys).

Only then is the same event list composed into nodes and converted to plain data, remembering the
line of every key path. Every problem is a SpecError `file:line: key: message`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from .files import Key, SpecError, read_capped
from .limits import MAX_DEPTH, MAX_FILE_BYTES

#: Aliases a file may use, and the nodes their expansion may add. A spec that shares a profile's
#: readings block through an anchor adds ~50 nodes per use; a "billion laughs" adds billions.
MAX_ALIASES = 1000
MAX_ALIAS_NODES = 10_000

_CORE = "tag:yaml.org,2002:"
CORE_TAGS = frozenset({"!", *(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))})


def read_text(path: Path, *, what: str = "spec file", max_bytes: int = MAX_FILE_BYTES) -> str:
    """The file's text, read no further than the limit (so `/dev/zero` is refused, not read)."""
    raw = read_capped(path, what=what, max_bytes=max_bytes)
    if len(raw) > max_bytes:
        raise SpecError(str(path), f"{what} is over the size limit of {max_bytes} bytes")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SpecError(f"{path}:{line}", f"{what} is not UTF-8 text (byte {exc.start})") from None


def read_yaml(
    path: Path,
    *,
    what: str = "spec file",
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
) -> tuple[Any, dict[Key, int]]:
    """Parse a YAML file into plain data and the line of every key path; SpecError on any problem."""
    text = read_text(path, what=what, max_bytes=max_bytes)
    events = _checked_events(text, path, max_depth)
    try:
        node = _EventComposer(events).get_single_node()
    except yaml.MarkedYAMLError as exc:
        # Composing a checked event list can only fail on anchors (undefined, duplicate) or on a
        # second document.
        raise _yaml_error(exc, text, path) from None
    if node is None:
        raise SpecError(str(path), f"{what} is empty")
    lines: dict[Key, int] = {}
    return _Converter(str(path), text, lines).data(node, ()), lines


# ---- the event pass ---------------------------------------------------------------------------------


@dataclass
class _Open:
    """A mapping or sequence whose end event has not come yet."""

    anchor: str | None
    is_mapping: bool
    size: int = 1  # nodes in it once aliases are expanded, itself included
    below: int = 0  # levels of nesting below it once aliases are expanded
    children: int = 0


_KIND_TAGS: dict[type[yaml.Event], str] = {
    yaml.SequenceStartEvent: _CORE + "seq",
    yaml.MappingStartEvent: _CORE + "map",
}


# libyaml's parser, when PyYAML has it, gives the same events ten times faster. Its error messages
# differ, so a file it refuses is parsed again by the pure-Python parser, whose messages and marks
# the syntax errors below are written for.
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)


def _checked_events(text: str, path: Path, max_depth: int) -> list[yaml.Event]:
    if _FAST_LOADER is not None:
        try:
            return _scan(text, path, max_depth, _FAST_LOADER)
        except yaml.YAMLError:
            pass
    try:
        return _scan(text, path, max_depth, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text, path) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        character = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or " ")
        message = f"not valid YAML: character U+{character:04X} is not allowed"
        raise _located(path, text, line, message) from None
    except yaml.YAMLError as exc:
        raise SpecError(str(path), f"not valid YAML: {' '.join(str(exc).split())}") from None


def _scan(text: str, path: Path, max_depth: int, loader: Any) -> list[yaml.Event]:
    """The events of `text`, checked as the module docstring says; YAML errors propagate."""
    events: list[yaml.Event] = []
    stack: list[_Open] = []
    # anchor -> (nodes, levels) of what it names once expanded; a scalar is 1 node, 0 levels.
    anchored: dict[str, tuple[int, int]] = {}
    aliases = alias_nodes = 0

    def fail(line: int, message: str) -> SpecError:
        return _located(path, text, line, message)

    def finished(size: int, levels: int) -> None:
        if stack:
            parent = stack[-1]
            parent.size += size
            parent.below = max(parent.below, levels)
            parent.children += 1

    for event in yaml.parse(text, Loader=loader):
        events.append(event)
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, yaml.NodeEvent):
            _check_node_event(event, stack, fail, line)
        if isinstance(event, yaml.AliasEvent):
            anchor = event.anchor
            if any(o.anchor == anchor for o in stack):
                raise fail(line, f"alias *{anchor} is inside the node it names (a cycle)")
            if anchor not in anchored:
                raise fail(line, f"alias *{anchor} names no anchor before it")
            size, levels = anchored[anchor]
            aliases += 1
            alias_nodes += size
            if aliases > MAX_ALIASES:
                raise fail(line, f"more than {MAX_ALIASES} aliases")
            if alias_nodes > MAX_ALIAS_NODES:
                raise fail(line, f"aliases expand to more than {MAX_ALIAS_NODES} nodes")
            if len(stack) + levels > max_depth:
                raise fail(line, f"alias *{anchor} expands to more than {max_depth} levels of nesting")
            finished(size, levels)
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                anchored[event.anchor] = (1, 0)
            finished(1, 0)
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= max_depth:
                raise fail(line, f"nested more than {max_depth} levels deep")
            stack.append(_Open(event.anchor, isinstance(event, yaml.MappingStartEvent)))
        elif isinstance(event, yaml.CollectionEndEvent):
            closed = stack.pop()
            levels = closed.below + 1
            if closed.anchor is not None:
                anchored[closed.anchor] = (closed.size, levels)
            finished(closed.size, levels)
    return events


def _check_node_event(
    event: yaml.NodeEvent, stack: list[_Open], fail: Callable[[int, str], SpecError], line: int
) -> None:
    """Tags and keys: what a node may be, whatever it contains."""
    tag = getattr(event, "tag", None)
    shown = f"!!{tag.removeprefix(_CORE)}" if tag and tag.startswith(_CORE) else tag
    if tag is not None and tag not in CORE_TAGS:
        raise fail(line, f"tag {shown!r} is not allowed (only the YAML core tags: !!str, !!int, ...)")
    kind_tag = _KIND_TAGS.get(type(event))
    if kind_tag is not None and tag not in (None, "!", kind_tag):
        raise fail(line, f"tag {shown!r} does not fit a {'mapping' if kind_tag.endswith('map') else 'list'}")
    if isinstance(event, yaml.ScalarEvent) and tag in _KIND_TAGS.values():
        raise fail(line, f"tag {shown!r} does not fit a plain value")
    in_key = bool(stack) and stack[-1].is_mapping and stack[-1].children % 2 == 0
    if in_key and not isinstance(event, yaml.ScalarEvent):
        raise fail(line, "a key must be a plain value, not a list, mapping or alias")
    if in_key and isinstance(event, yaml.ScalarEvent) and event.value == "<<" and not event.style:
        raise fail(line, "YAML merge keys (<<) are not supported: write the entries out")


class _EventComposer(Composer, Resolver):
    """PyYAML's composer fed from an event list that has already been checked."""

    def __init__(self, events: list[yaml.Event]) -> None:
        Composer.__init__(self)
        Resolver.__init__(self)
        self._events = events
        self._next = 0

    def check_event(self, *choices: type) -> bool:
        if self._next >= len(self._events):
            return False
        return not choices or isinstance(self._events[self._next], choices)

    def peek_event(self) -> yaml.Event:
        return self._events[self._next]

    def get_event(self) -> yaml.Event:
        event = self._events[self._next]
        self._next += 1
        return event


# ---- nodes to data ----------------------------------------------------------------------------------


class _Converter:
    """Composed nodes to plain data. Recursion is bounded: the event pass limited the depth."""

    def __init__(self, where: str, text: str, lines: dict[Key, int]) -> None:
        self.where = where
        self.text = text
        self.lines = lines
        self.constructor = SafeConstructor()

    def data(self, node: yaml.Node, key: Key) -> Any:
        self.lines[key] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for knode, vnode in node.value:
                name = str(self.scalar(knode, key))
                child = (*key, name)
                if name in out:
                    dotted = ".".join(str(k) for k in child)
                    raise SpecError(
                        f"{self.where}:{knode.start_mark.line + 1}",
                        f"{dotted}: duplicate key {name!r} (first given on line {self.lines.get(child)})",
                    )
                out[name] = self.data(vnode, child)
                # A key's own line is more useful than its value's when the value spans lines.
                self.lines[child] = knode.start_mark.line + 1
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.data(item, (*key, i)) for i, item in enumerate(node.value)]
        return self.scalar(node, key)

    def scalar(self, node: yaml.Node, key: Key) -> Any:
        """A scalar's value as safe_load gives it (constructed from the node: re-serialising a node
        and loading the text fails on an empty value, which is valid YAML)."""
        if node.tag in (_CORE + "merge", _CORE + "value"):
            return node.value  # `<<` and `=` as ordinary values: plain text
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark else node.start_mark.line + 1
            problem = " ".join(str(exc.problem or exc.context or "").split())
            raise self.error(key, line, f"not valid YAML: {problem}") from None
        except (ValueError, OverflowError, KeyError, TypeError) as exc:
            # A date like 2020-13-45, an integer of thousands of digits, `!!bool maybe`.
            shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            kind = f"!!{node.tag.removeprefix(_CORE)}" if node.tag.startswith(_CORE) else node.tag
            why = f" ({str(exc).split(';')[0]})" if isinstance(exc, ValueError | OverflowError) else ""
            message = f"cannot read value {shown!r} as {kind}{why}"
            raise self.error(key, node.start_mark.line + 1, message) from None

    def error(self, key: Key, line: int, message: str) -> SpecError:
        dotted = ".".join(str(k) for k in key) or key_near_line(self.text, line)
        return SpecError(f"{self.where}:{line}", f"{dotted + ': ' if dotted else ''}{message}")


# ---- syntax errors ----------------------------------------------------------------------------------


def _yaml_error(exc: yaml.MarkedYAMLError, text: str, path: Path) -> SpecError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 0
    problem = " ".join(str(exc.problem or "").split())
    context = " ".join(str(exc.context or "").split())
    context_line = exc.context_mark.line + 1 if exc.context_mark is not None else None
    if context_line is not None and ("flow" in context or "quoted" in context):
        # An unclosed bracket, or a quote still open at the end of the file, is only noticed lines
        # later; the line that opened it is the one to fix.
        problem = f"{problem} ({context} that starts on this line)"
        line = context_line
    else:
        at = f" on line {context_line}" if context_line else ""
        if context.startswith("while"):
            problem = f"{problem} ({context}{at})"
        elif context:
            # PyYAML splits one sentence here: "found duplicate anchor; first occurrence" ...
            # "second occurrence".
            problem = f"{context}{at}, {problem}"
        opened = _runaway_quote(text, exc.problem_mark)
        if opened is not None:
            problem = (
                f"the quote opened on this line is not closed on it, so the value runs on to line "
                f"{line} ({problem})"
            )
            line = opened
    if "'\\t'" in problem:
        problem = "found a tab, which cannot start any token (YAML indents with spaces, not tabs)"
    return _located(path, text, line, f"not valid YAML: {problem}")


def _located(path: Path, text: str, line: int, message: str) -> SpecError:
    """`file:line: key: message`, the key read off the indentation (shortened when very deep)."""
    parts = key_near_line(text, line).split(".") if line else []
    if len(parts) > 8:
        parts = [*parts[:3], f"...({len(parts) - 6} more)", *parts[-3:]]
    near = ".".join(p for p in parts if p)
    return SpecError(f"{path}:{line}", f"{near + ': ' if near else ''}{message}")


def _runaway_quote(text: str, problem: yaml.Mark | None) -> int | None:
    """The line of a quote left open, when it is what the error is about.

    A value whose closing quote is missing runs on to the next quote character in the file, which
    usually opens the next value: the text between them is read as one multi-line scalar, and the
    error comes at the word after it, lines below the mistake. When the token just before the
    error is a quoted scalar that spans lines and swallowed something that looks like a `key:` line,
    the line where it opened is the one to fix.
    """
    if problem is None:
        return None
    last: yaml.Token | None = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= problem.index:
                break
            last = token
    except yaml.YAMLError:
        pass
    if not isinstance(last, yaml.ScalarToken) or last.style not in ('"', "'"):
        return None
    start, end = int(last.start_mark.line), int(last.end_mark.line)
    if end <= start:
        return None
    swallowed = text.splitlines()[start + 1 : end + 1]
    if any(_KEY_LINE.match(raw) for raw in swallowed):
        return start + 1
    return None


_KEY_LINE = re.compile(r"^(\s*)(- )?([^\s#:\[\]{}\"'-][^:#]*?):(\s|$)")


def key_near_line(text: str, line: int) -> str:
    """The dotted key path in force at `line` (1-based), from indentation alone: a file that does
    not parse has no tree to ask, and the key still tells the user where to look."""
    stack: list[tuple[int, str]] = []
    for raw in text.splitlines()[:line]:
        match = _KEY_LINE.match(raw)
        if not match:
            continue
        indent = len(match.group(1)) + (2 if match.group(2) else 0)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, match.group(3).strip()))
    return ".".join(name for _, name in stack)
