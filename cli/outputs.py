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
import errno
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from ..executor import stop_signals_held
from ..spec import SpecError

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
        try:
            return self._file(Path(path), place)
        except OSError as exc:
            # Path.is_dir() and exists() raise on some errors, e.g. a name over 255 bytes.
            raise SpecError(place, f"cannot write {path} ({exc.strerror or exc})") from None

    def _file(self, given: Path, place: str) -> OutputFile:
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
            if os.path.lexists(shown):
                raise SpecError(place, f"{str(shown)!r} is not a directory, so {given} cannot be in it")
            raise SpecError(place, f"directory {str(shown)!r} does not exist")
        self._check_unique(target, place)
        try:
            fd, name = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".tmp", dir=parent)
        except OSError as exc:
            raise SpecError(place, f"cannot write into {parent} ({exc.strerror or exc})") from None
        os.close(fd)
        reserved = OutputFile(target, Path(name), place)
        self._files.append(reserved)
        return reserved

    def directory(self, path: Path, place: str, names: Iterable[str] = ()) -> OutputDir:
        """Reserve the directory `path`. When it exists, the command's files replace files of the
        same name in it and the rest stay; when it does not, it appears whole at the commit, with
        any missing parents. `names` are the files the command will put there: in an existing
        directory each must be free or a file it may replace, checked now rather than after the
        work."""
        try:
            return self._directory(Path(path), place, tuple(names))
        except OSError as exc:
            raise SpecError(place, f"cannot write into {path} ({exc.strerror or exc})") from None

    def _directory(self, target: Path, place: str, names: tuple[str, ...]) -> OutputDir:
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
        if merge:
            for name in names:
                _check_replaceable(target / name, place)
        try:
            temp = Path(tempfile.mkdtemp(prefix=_temp_prefix(target.name), dir=home))
        except OSError as exc:
            raise SpecError(place, f"cannot write into {home} ({exc.strerror or exc})") from None
        reserved = OutputDir(target, temp, place, merge)
        self._dirs.append(reserved)
        return reserved

    def commit(self) -> None:
        """Move every output into place, all or nothing: a file already there is first moved
        aside, and when a move fails (a full disk, another program in the way) the moves already
        made are undone and the old files put back; the failure is reported naming the output."""
        mode = 0o666 & ~_umask()
        with stop_signals_held():
            moves = _Moves()
            place, where = "", Path()
            try:
                for out in self._files:
                    place, where = out.place, out.target
                    os.chmod(out.temp, mode)
                    moves.replace(out.temp, out.target)
                for out_dir in self._dirs:
                    place, where = out_dir.place, out_dir.target
                    _commit_dir(out_dir, mode, moves)
            except OSError as exc:
                moves.undo()
                shown = exc.filename if exc.filename is not None else where
                raise SpecError(place, f"cannot write {shown} ({exc.strerror or exc})") from None
            moves.finish()
            for out_dir in self._dirs:
                if out_dir.merge:
                    with contextlib.suppress(OSError):
                        out_dir.temp.rmdir()
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


def _temp_prefix(name: str) -> str:
    # Cut, so that a target name near the 255-byte limit still leaves room for the random part.
    return f"{TEMP_PREFIX}{name[:64]}."


class _Moves:
    """The renames of one commit, so that they can be undone: each move that replaced an existing
    file first moved that file aside (a backup beside it), put back on undo."""

    def __init__(self) -> None:
        self._done: list[tuple[Path, Path, Path | None]] = []  # (source, target, backup)
        self._made: list[Path] = []  # directories created for a new output directory

    def replace(self, source: Path, target: Path) -> None:
        backup = None
        if os.path.lexists(target):
            if target.is_dir() and not target.is_symlink():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
            fd, name = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".old", dir=target.parent)
            os.close(fd)
            backup = Path(name)
            try:
                os.replace(target, backup)
            except OSError:
                backup.unlink()
                raise
        try:
            os.replace(source, target)
        except OSError:
            if backup is not None:
                os.replace(backup, target)
            raise
        self._done.append((source, target, backup))

    def rename_new(self, source: Path, target: Path) -> None:
        """Move a new directory into place, making its missing parents."""
        missing = []
        parent = target.parent
        while not os.path.lexists(parent) and parent != parent.parent:
            missing.append(parent)
            parent = parent.parent
        for directory in reversed(missing):
            directory.mkdir()
            self._made.append(directory)
        if os.path.lexists(target):
            # os.rename would quietly replace an empty directory that appeared since the reservation.
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
        os.rename(source, target)
        self._done.append((source, target, None))

    def undo(self) -> None:
        """Every move back where it came from (the temporary places, which discard() removes) and
        every old file back in place; best effort, since undo runs because the file system failed."""
        for source, target, backup in reversed(self._done):
            with contextlib.suppress(OSError):
                os.replace(target, source)
            if backup is not None:
                with contextlib.suppress(OSError):
                    os.replace(backup, target)
        for directory in reversed(self._made):
            with contextlib.suppress(OSError):
                directory.rmdir()
        self._done.clear()
        self._made.clear()

    def finish(self) -> None:
        for _, _, backup in self._done:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()
        self._done.clear()


def _check_replaceable(path: Path, place: str) -> None:
    """`path` is free, or a file (or a symbolic link) that a rename may replace."""
    if not os.path.lexists(path) or path.is_symlink():
        return
    if path.is_dir():
        raise SpecError(place, f"{path} is a directory, where the command writes a file")
    if not path.is_file():
        raise SpecError(place, f"{path} is not a regular file, where the command writes one")


def _commit_dir(out: OutputDir, mode: int, moves: _Moves) -> None:
    for entry in out.temp.iterdir():
        if entry.is_file():
            os.chmod(entry, mode)
    if out.merge:
        entries = sorted(out.temp.iterdir())
        for entry in entries:  # all checked before the first move, so a refusal moves nothing
            target = out.target / entry.name
            if (
                os.path.lexists(target)
                and not target.is_symlink()
                and (entry.is_dir() or not target.is_file())
            ):
                raise IsADirectoryError(
                    errno.EISDIR, "a directory or special file is in the way", str(target)
                )
        for entry in entries:
            moves.replace(entry, out.target / entry.name)
    else:
        os.chmod(out.temp, 0o777 & ~_umask())
        moves.rename_new(out.temp, out.target)


def check_appendable(path: Path, place: str) -> None:
    """A file another program owns and we only append to (GitHub's job summary): it must be a
    regular file we may write, or not exist yet in a directory we may write. Raises SpecError
    naming `place`, before any work."""
    target = Path(os.path.realpath(path))
    system = _special(path) or _special(target)
    if system:
        raise SpecError(place, f"refusing to append to {path} (in {system})")
    if path.is_symlink() and not path.exists():
        # A link to nowhere: appending creates its target, so that is the place to look at.
        if not target.parent.is_dir():
            raise SpecError(place, f"cannot append to {path} (a link to {target}, in no directory)")
        path = target
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
