"""No sentence a reader sees is written in the Python that builds the documents: the report and its
appendix, the JSON, the rulebooks, the CI outputs and the conformance vectors take every word from the
words file (spec/535.words.yaml), so that a designer edits them there, once.

Read from the source as text (ast). A sentence is a string constant (an f-string's literal parts
included) with two words or more once HTML tags are taken out. Not counted: docstrings, and anything
in a `raise` or an `assert` (an error names a place in an input for the person who wrote it: the
interface, as the command line's help and errors in cli/ are). The command line, the engine protocol's
messages and the spec loader's errors are that interface and are not read here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The folders and files whose code writes the documents.
DOCUMENTS = (
    "checks",
    "reports",
    "engine/engines.py",
    "protocol/scenes.py",
    "protocol/vectors.py",
    "protocol/witness_search.py",
    "protocol/vector_runner.py",
)

#: Why each kind of constant below is not a reader's sentence (or not yet in the words file).
_ERROR = "an error's message (SolverUnknown), which the runner words for the reader"
_INTERNAL = "the reason of an internal stop of the fuzzer, never printed"
_UNIT = "names a unit of work in the executor's one-line error when a worker dies (the interface)"
_HYPOTHESIS = "an error about Hypothesis's internals, for whoever upgrades Hypothesis (the interface)"
_VOCABULARY = "part of VocabularyMismatch's message, for an engine implementer (the interface)"
_COMPONENT = "a component's name in UnimplementedReading's message (the interface)"
_Z3 = "Z3's own words: the reason it gives and a statistics key, compared, never printed"
_NEVER = "why a point is not swept: documentation in a table, never printed"
_HELP = "the command line's help for --format (the interface)"
_GITLAB = "a category name GitLab's Code Quality format defines"
_MARKUP = "CSS or a CSS class"
_DEALS = (
    "still to move: an endgame's name, printed only when the reference engine fails an endgame (the"
    " graph check sorts its deals by these names, so moving them needs a key of their own)"
)
_ENGINE = "still to move: the reference engine's name fills the engines words' blanks"
#: Constants that look like words but are not a reader's sentence, each with why: (file, the
#: start of the constant) -> why.
NOT_WORDS: dict[tuple[str, str], str] = {
    ("checks/findings.py", "the solver gave no answer ("): _ERROR,
    ("checks/fuzz/differential.py", "time budget exhausted"): _INTERNAL,
    ("checks/fuzz/differential.py", "fuzzing with seed "): _UNIT,
    ("checks/fuzz/differential.py", "Hypothesis's share of the shrinking is used up"): _INTERNAL,
    ("checks/hypothesis_env.py", "has no _get_local_constants"): _HYPOTHESIS,
    ("checks/hypothesis_env.py", "_get_local_constants takes arguments "): _HYPOTHESIS,
    ("checks/hypothesis_env.py", "has no Constants class"): _HYPOTHESIS,
    ("checks/hypothesis_env.py", "has no CONSTANTS_CACHE.cache dict"): _HYPOTHESIS,
    ("checks/hypothesis_env.py", "storage_directory() has no home_directory"): _HYPOTHESIS,
    ("checks/impact/outcomes.py", "the outcomes of "): _UNIT,
    ("checks/job/run.py", "impacts over "): _UNIT,
    ("checks/job/run.py", "the variant "): _UNIT,
    ("checks/job/run.py", "the check "): _UNIT,
    ("checks/oracles/rules_model.py", "the invariants' rules model"): _COMPONENT,
    ("checks/oracles/vocab.py", " is both implemented and ignored"): _VOCABULARY,
    ("checks/oracles/vocab.py", " is not in the engine's vocabulary"): _VOCABULARY,
    ("checks/oracles/vocab.py", " is missing"): _VOCABULARY,
    ("checks/oracles/vocab.py", " is ignored without a reason"): _VOCABULARY,
    ("checks/oracles/z3model.py", "max. resource limit exceeded"): _Z3,
    ("checks/oracles/z3model.py", "rlimit count"): _Z3,
    ("checks/play/conformance.py", "decides "): _NEVER,
    ("checks/play/conformance.py", "the conformance sweeps"): _COMPONENT,
    ("checks/play/graphs.py", "decides "): _NEVER,
    ("checks/play/graphs.py", "the graph checks"): _COMPONENT,
    ("checks/play/graphs.py", "singles and passes"): _DEALS,
    ("checks/play/graphs.py", "a set closes"): _DEALS,
    ("checks/play/graphs.py", "a run closes"): _DEALS,
    ("checks/play/graphs.py", "a long run (past the cap"): _DEALS,
    ("checks/play/graphs.py", "an 8 in the opening pile"): _DEALS,
    ("checks/play/graphs.py", "runs at the gaps"): _DEALS,
    ("checks/play/graphs.py", "runs at the wrap"): _DEALS,
    ("checks/play/graphs.py", "three players"): _DEALS,
    ("checks/play/graphs.py", "five players, a set of five"): _DEALS,
    ("checks/runner.py", "the check "): _UNIT,
    ("reports/check_formats/__init__.py", "a summary table for people"): _HELP,
    ("reports/check_formats/__init__.py", "everything, for tools"): _HELP,
    ("reports/check_formats/__init__.py", "JUnit XML"): _HELP,
    ("reports/check_formats/__init__.py", "SARIF 2.1.0"): _HELP,
    ("reports/check_formats/__init__.py", "GitHub Actions annotations"): _HELP,
    ("reports/check_formats/__init__.py", "GitLab Code Quality report"): _HELP,
    ("reports/check_formats/gitlab.py", "Bug Risk"): _GITLAB,
    ("reports/rulebook.py", "\nbody { font-family"): _MARKUP,
    ("reports/tables.py", "seat mover"): _MARKUP,
    ("engine/engines.py", "the reference engine"): _ENGINE,
}
#: A word as a reader sees one: two letters or more, perhaps with an apostrophe or a hyphen inside
#: and punctuation around it (an identifier such as `live.trick.hands` or `in_trick` is not one).
_WORD = re.compile(r"[(\"'‘“«„]*[A-Za-zÀ-ÿ]{2,}(?:['’-][A-Za-zÀ-ÿ]+)*[)\"'’”»,.;:!?]*")
_TAG = re.compile(r"<[^>]*>")


def _is_sentence(text: str) -> bool:
    """Two words in a row, once markup is taken out."""
    tokens = _TAG.sub(" ", text).split()
    return any(_WORD.fullmatch(a) and _WORD.fullmatch(b) for a, b in pairwise(tokens))


def sentences(source: str) -> Iterator[tuple[int, str]]:
    """The sentence constants of a module's source, with their lines."""
    tree = ast.parse(source)
    quiet: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                quiet.add(id(first.value))
        if isinstance(node, (ast.Raise, ast.Assert)):
            quiet.update(id(inner) for inner in ast.walk(node))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            quiet.add(id(node.value))  # a string standing alone documents what comes before it
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) and id(node) not in quiet else None
        if isinstance(text, str) and _is_sentence(text):
            yield node.lineno, text


def _exempt(rel: str, text: str) -> bool:
    return any(rel == file and text.startswith(start) for file, start in NOT_WORDS)


def _modules() -> Iterator[Path]:
    for name in DOCUMENTS:
        path = ROOT / name
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(path.rglob("*.py"))


def test_the_documents_code_is_read_at_all() -> None:
    assert len(list(_modules())) > 50


def test_no_sentence_a_reader_sees_is_written_in_python() -> None:
    found = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        for line, text in sentences(path.read_text(encoding="utf-8")):
            if not _exempt(rel, text):
                found.append(f"{rel}:{line}: {text[:70]!r}")
    assert not found, "words for the words file (spec/535.words.yaml):\n" + "\n".join(found)


def test_every_exception_still_names_a_constant() -> None:
    texts = [
        (path.relative_to(ROOT).as_posix(), text)
        for path in _modules()
        for _, text in sentences(path.read_text(encoding="utf-8"))
    ]
    stale = [key for key in NOT_WORDS if not any(rel == key[0] and t.startswith(key[1]) for rel, t in texts)]
    assert not stale, stale


def test_a_planted_sentence_is_found_and_an_error_message_is_not() -> None:
    source = '''
"""Module doc with many words."""
def f(x):
    """Doc with words."""
    if x:
        raise ValueError(f"the value {x} is wrong here")
    title = f"<b>{x}</b> ends the trick"
    return title, "lead", "<div class='pile'>"
'''
    assert [text for _, text in sentences(source)] == ["</b> ends the trick"]
