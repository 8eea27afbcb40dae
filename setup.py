"""Build script: pyproject.toml declares the package; this file adds the optional compiled engine.

`pip install .` compiles the engine's hot path (engine/cards.py, engine/state.py, engine/options.py,
engine/hooks.py, engine/deal.py, engine/game.py, engine/bots.py) with mypyc, which ships with mypy
(a build requirement), into C extensions beside the same modules' source (issue 12: random playouts
about twice as fast). Where it cannot, it installs the pure-Python engine, which plays byte for byte
the same games (tests/engine/test_engine_builds.py):

- FIVE35_PURE_PYTHON=1 in the environment asks for the pure-Python engine;
- an editable install (`pip install -e .`) runs the engine from its source, so that edits count;
- mypyc compiles for CPython only, and needs mypy importable at build time;
- no C compiler, or a failed compile, leaves no extension behind, never half of one.

FIVE35_REQUIRE_COMPILED=1 turns the last two fallbacks into errors, for a build that must be compiled.
mypyc's input and output go to build/ (FIVE35_BUILD_DIR, if set, instead).
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import platform
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: The modules compiled, as paths in the staging tree (below).
COMPILED = (
    "five35/engine/cards.py",
    "five35/engine/state.py",
    "five35/engine/options.py",
    "five35/engine/hooks.py",
    "five35/engine/deal.py",
    "five35/engine/game.py",
    # The bots choose every move of a simulation: compiled, the main job spends about 30 % less CPU.
    "five35/engine/bots.py",
)
#: The component folders mypy must see under their installed names (five35.engine imports five35.spec).
STAGED = ("engine", "spec")
#: The commands that build the package; metadata queries and editable installs compile nothing.
BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def _say(message: str) -> None:
    print(f"five35 setup: {message}", file=sys.stderr)


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _why_pure() -> str | None:
    """Why this build installs the pure-Python engine, or None to compile it."""
    if _flag("FIVE35_PURE_PYTHON"):
        return "FIVE35_PURE_PYTHON is set"
    if not BUILDING & set(sys.argv[1:]):
        return "not a build (metadata or an editable install)"
    if platform.python_implementation() != "CPython":
        return f"mypyc compiles for CPython, this is {platform.python_implementation()}"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    if not _flag("FIVE35_REQUIRE_COMPILED"):
        return _compiler_fails()
    return None


def _compiler_fails() -> str | None:
    """Why the C compiler build_ext would use cannot compile a one-line file, or None: asked before
    mypyc spends about 10 s translating the engine into C that nothing here could compile."""
    import tempfile
    from distutils.ccompiler import new_compiler  # setuptools' own distutils, imported above
    from distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "five35_probe.c"
        probe.write_text("int five35_probe(void) { return 0; }\n", encoding="utf-8")
        compiler = new_compiler()
        customize_compiler(compiler)  # CC, CFLAGS and Python's own flags, as build_ext takes them
        try:
            compiler.compile([str(probe)], output_dir=tmp)
        except Exception as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return f"compiling it failed ({reason[:200]})"
    return None


def _extensions() -> list[Any]:
    """The mypyc extensions, or none (the pure-Python engine)."""
    why = _why_pure()
    if why is not None:
        if BUILDING & set(sys.argv[1:]):
            _say(f"installing the pure-Python engine: {why}")
        return []
    from mypyc.build import mypycify

    work = Path(os.environ.get("FIVE35_BUILD_DIR") or ROOT / "build").resolve()
    # mypy names a module after its path: a staging tree gives the folders their installed names.
    stage = work / "mypyc-src"
    shutil.rmtree(stage, ignore_errors=True)
    for folder in STAGED:
        ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
        shutil.copytree(ROOT / folder, stage / "five35" / folder, ignore=ignore)
    args = ["--explicit-package-bases", "--follow-imports=silent", "--ignore-missing-imports", *COMPILED]
    key = _translation_key(stage, args)
    extensions = _translated(work, key)
    if extensions is None:
        here = os.getcwd()
        os.chdir(stage)
        try:
            extensions = mypycify(
                args,
                group_name="five35",
                # One C file per module (and mypyc's runtime files), which build_extensions compiles
                # side by side.
                multi_file=True,
                target_dir=str(work / "mypyc-c"),
            )
        except (Exception, SystemExit) as exc:  # mypy reports a type error by exiting
            if _flag("FIVE35_REQUIRE_COMPILED"):
                raise
            _say(f"installing the pure-Python engine: mypyc could not translate it ({exc!r})")
            return []
        finally:
            os.chdir(here)
        (work / TRANSLATED).write_bytes(pickle.dumps((key, extensions)))
        # mypyc leaves mypy's whole build in memory; without this the collector's scans of it cost
        # about 7 s of the 25 s wheel build (the rest of the build and the process's exit), and
        # nothing of it is freed before the process ends anyway.
        gc.freeze()
    for ext in extensions:
        # setuptools wants paths relative to this file, where they can be (FIVE35_BUILD_DIR may be
        # elsewhere).
        ext.sources = [_relative(source) for source in ext.sources]
        ext.include_dirs = [_relative(folder) for folder in ext.include_dirs]
    return extensions


#: The last translation's key and extensions, beside its C files: the README's test command builds
#: the tree the first command built, and translating it again took 10-11 s of its install.
TRANSLATED = "mypyc-c/five35-translated.pickle"


def _translation_key(stage: Path, args: list[str]) -> str:
    """What mypyc's C depends on: the staged sources, the arguments, mypy's and Python's versions."""
    import mypy.version

    digest = hashlib.sha256(repr((args, sys.version, mypy.version.__version__)).encode())
    for path in sorted(p for p in stage.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(stage)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _translated(work: Path, key: str) -> list[Any] | None:
    """The extensions of the last translation when its key is `key` and its C files are all there."""
    try:
        found, extensions = pickle.loads((work / TRANSLATED).read_bytes())
    except Exception:  # none yet, or unreadable: translate
        return None
    if found != key or not all(Path(source).is_file() for ext in extensions for source in ext.sources):
        return None
    _say("the engine's C from mypyc is up to date: translated again only when the sources change")
    return list(extensions)


def _relative(path: str) -> str:
    full = Path(path).resolve()
    return str(full.relative_to(ROOT)) if full.is_relative_to(ROOT) else str(full)


class OptionalBuildExt(build_ext):
    """Builds every extension or none: a shim without its shared library would not import."""

    def build_extensions(self) -> None:
        # distutils compiles an extension's C files one after the other; the group's 21 files
        # compiled side by side took 5 s rather than about 11 on the 2-core machine, and the
        # install counts in the README's test command.
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if len(sources) <= 1:
                return list(compile_one(sources, *args, **kwargs))
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = list(pool.map(lambda source: compile_one([source], *args, **kwargs), sources))
            return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all
        super().build_extensions()

    def run(self) -> None:
        if not self.extensions:
            return
        if getattr(self, "editable_mode", False):
            _say("editable install: the engine runs from its source (pure Python)")
            self.extensions = []
            return
        try:
            super().run()
        except Exception as exc:
            if _flag("FIVE35_REQUIRE_COMPILED"):
                raise
            for ext in self.extensions:
                built = Path(self.get_ext_fullpath(ext.name))
                built.unlink(missing_ok=True)
            self.extensions = []
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            _say(f"installing the pure-Python engine: compiling it failed ({reason[:200]})")


class BuildPy(build_py):
    """The package five35 is the repository's root (pyproject.toml): of the modules there, only its
    __init__.py belongs to it, not this build script."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules: list[tuple[str, str, str]] = super().find_package_modules(package, package_dir)
        return [m for m in modules if package != "five35" or m[1] == "__init__"]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy})
