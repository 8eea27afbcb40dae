"""The files a command writes appear whole, all together, at the end, or not at all.

A command reserves each output before its long work starts (`Outputs.file`, `Outputs.directory`):
the reservation checks the place and creates a temporary file or directory beside the target, so
a path that cannot be written fails at once, in one line naming the option, not after minutes of
work. The command writes into the temporary places and calls `commit()` at the end, which moves
everything into place. Any other way out (an error, a later output that fails, Ctrl-C, SIGTERM)
removes the temporary places and leaves the targets as they were.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from five35.engine.executor import stop_signals_held
from five35.spec import SpecError

TEMP_PREFIX = ".535-check-"  # temporary places start with this, next to their targets


@dataclass(frozen=True)
class OutputFile:
    """A reserved file: write `temp`; `commit()` moves it onto `target`."""

    target: Path
    temp: Path
    place: str  # the option (or path) an error names

    def write_text(self, text: str) -> None:
        try:
            with open(self.temp, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise SpecError(self.place, f"cannot write {self.target} ({exc.strerror or exc})") from None


@dataclass(frozen=True)
class OutputDir:
    """A reserved directory: fill `temp`; `commit()` puts its files into `target`."""

    target: Path
    temp: Path
    place: str
    merge: bool  # the target exists: its other files stay, ours replace theirs one by one


def _umask() -> int:
    # mkstemp and mkdtemp make owner-only places; an output is for reading, so give it the usual mode.
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Outputs:
    """The outputs of one command; use as a context manager and call `commit()` at the end."""

    def __init__(self) -> None:
        self._files: list[OutputFile] = []
        self._dirs: list[OutputDir] = []
        self._committed = False

    def __enter__(self) -> Outputs:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self._committed:
            self.discard()

    def _check_unique(self, target: Path, place: str) -> None:
        resolved = target.resolve()
        taken: list[OutputFile | OutputDir] = [*self._files, *self._dirs]
        for other in taken:
            if other.target.resolve() == resolved:
                raise SpecError(place, f"{target} is also the output of {other.place}")

    def file(self, path: Path, place: str) -> OutputFile:
        """Reserve the file `path` (named `place` in errors): its directory must exist. A symbolic
        link is followed, so the file it points to is replaced, not the link."""
        given = Path(path)
        if given.is_dir():
            raise SpecError(place, f"{given} is a directory")
        target = Path(os.path.realpath(given))
        # A device, a pipe, a socket or /dev/stdout (a link to whatever stdout is): renaming a file
        # onto it would replace the node itself (as root, even /dev/null), and writing into it
        # could not be undone.
        if given.exists() and not given.is_file():
            raise SpecError(place, f"{given} is not a regular file (leave the option out to write to stdout)")
        system = _special(given) or _special(target)
        if system:
            raise SpecError(place, f"{given} is in the system directory {system}, not a place for an output")
        parent = target.parent
        if not parent.is_dir():
            shown = parent if given.is_symlink() else given.parent
            raise SpecError(place, f"directory {str(shown)!r} does not exist")
        self._check_unique(target, place)
        try:
            fd, name = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{target.name}.", suffix=".tmp", dir=parent)
        except OSError as exc:
            raise SpecError(place, f"cannot write into {parent} ({exc.strerror or exc})") from None
        os.close(fd)
        reserved = OutputFile(target, Path(name), place)
        self._files.append(reserved)
        return reserved

    def directory(self, path: Path, place: str) -> OutputDir:
        """Reserve the directory `path`. When it exists, the command's files replace files of the
        same name in it and the rest stay; when it does not, it appears whole at the commit, with
        any missing parents."""
        target = Path(path)
        system = _special(target) or _special(Path(os.path.realpath(target)))
        if system:
            raise SpecError(place, f"{target} is in the system directory {system}, not a place for an output")
        if os.path.lexists(target) and not target.is_dir():
            # A broken symbolic link too: the directory could not be moved onto it at the end.
            raise SpecError(place, f"{target} exists and is not a directory")
        self._check_unique(target, place)
        merge = target.is_dir()
        # The temporary directory goes where the rename into place stays on one file system: inside
        # an existing target, else in its nearest existing ancestor.
        home = target if merge else _nearest_existing(target.parent)
        if not home.is_dir():
            raise SpecError(place, f"{home} is not a directory")
        try:
            temp = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{target.name}.", dir=home))
        except OSError as exc:
            raise SpecError(place, f"cannot write into {home} ({exc.strerror or exc})") from None
        reserved = OutputDir(target, temp, place, merge)
        self._dirs.append(reserved)
        return reserved

    def commit(self) -> None:
        """Move every output into place. Only an OS failure in the middle of the moves (a full
        disk, another program) can leave some moved and some not; it is reported naming the
        output."""
        mode = 0o666 & ~_umask()
        with stop_signals_held():
            for out in self._files:
                try:
                    os.chmod(out.temp, mode)
                    os.replace(out.temp, out.target)
                except OSError as exc:
                    raise SpecError(out.place, f"cannot write {out.target} ({exc.strerror or exc})") from None
            for out_dir in self._dirs:
                try:
                    _commit_dir(out_dir, mode)
                except OSError as exc:
                    raise SpecError(
                        out_dir.place, f"cannot write into {out_dir.target} ({exc.strerror or exc})"
                    ) from None
            self._committed = True

    def discard(self) -> None:
        """Remove every temporary place; the targets stay as they were."""
        with stop_signals_held():
            for out in self._files:
                with contextlib.suppress(FileNotFoundError):
                    out.temp.unlink()
            for out_dir in self._dirs:
                shutil.rmtree(out_dir.temp, ignore_errors=True)
            self._files.clear()
            self._dirs.clear()


# Directories of device nodes and kernel files: an output there is always a mistake, and as root
# a rename would replace a device such as /dev/null.
SYSTEM_DIRS = ("/dev", "/proc", "/sys")


def _special(path: Path) -> str:
    """The system directory `path` is in, or "" when it is in none."""
    text = str(path.absolute())
    return next((d for d in SYSTEM_DIRS if text == d or text.startswith(d + "/")), "")


def _nearest_existing(path: Path) -> Path:
    path = path if str(path) else Path(".")
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _commit_dir(out: OutputDir, mode: int) -> None:
    for entry in out.temp.iterdir():
        if entry.is_file():
            os.chmod(entry, mode)
    if out.merge:
        for entry in sorted(out.temp.iterdir()):
            os.replace(entry, out.target / entry.name)
        out.temp.rmdir()
    else:
        os.chmod(out.temp, 0o777 & ~_umask())
        out.target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(out.temp, out.target)


def check_appendable(path: Path, place: str) -> None:
    """A file another program owns and we only append to (GitHub's job summary): it must be a
    regular file we may write, or not exist yet in a directory we may write. Raises SpecError
    naming `place`, before any work."""
    if _special(path):
        raise SpecError(place, f"refusing to append to {path} (in {_special(path)})")
    if path.exists():
        if not path.is_file():
            raise SpecError(place, f"{path} is not a regular file")
        if not os.access(path, os.W_OK):
            raise SpecError(place, f"cannot append to {path} (permission denied)")
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise SpecError(place, f"cannot append to {path} (no directory {parent})")
    if not os.access(parent, os.W_OK):
        raise SpecError(place, f"cannot append to {path} (permission denied)")


def append_text(path: Path, text: str, place: str) -> None:
    """Append `text` in one write, with signals held, so that the file never ends in half of it."""
    with stop_signals_held():
        try:
            with open(path, "a", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        except OSError as exc:
            raise SpecError(place, f"cannot append to {path} ({exc.strerror or exc})") from None


__all__ = ["OutputDir", "OutputFile", "Outputs", "append_text", "check_appendable"]
