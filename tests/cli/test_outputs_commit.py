"""cli/outputs.py: outputs are checked when reserved, and committed all or nothing.

A command's outputs move into place together at the end: when one move fails, the ones already
made are undone (the files that were there before are back, byte for byte) and no temporary place
is left; a target in the way is refused when reserved, before any work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from five35.cli.outputs import Outputs
from five35.spec import SpecError


def _listing(folder: Path) -> dict[str, str]:
    """Every path under `folder`, with a file's text ("/" for a directory)."""
    return {
        str(p.relative_to(folder)): "/" if p.is_dir() else p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
    }


def test_a_file_output_that_fails_to_move_puts_the_earlier_ones_back(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    with Outputs() as outputs:
        first = outputs.file(tmp_path / "a.txt", "--first")
        second = outputs.file(tmp_path / "b.txt", "--second")
        first.write_text("new a")
        second.write_text("new b")
        (tmp_path / "b.txt").mkdir()  # another program, between the reservation and the commit
        with pytest.raises(SpecError) as caught:
            outputs.commit()
    assert str(caught.value).startswith("--second: cannot write ")
    assert "b.txt" in str(caught.value)
    assert _listing(tmp_path) == {"a.txt": "old a", "b.txt": "/"}


def test_a_directory_that_fails_to_move_undoes_the_files_and_the_new_directory(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    (tmp_path / "R").mkdir()
    (tmp_path / "R" / "keep.md").write_text("theirs", encoding="utf-8")
    (tmp_path / "R" / "report.json").write_text("old json", encoding="utf-8")
    with Outputs() as outputs:
        file = outputs.file(tmp_path / "a.txt", "--file")
        new = outputs.directory(tmp_path / "deep" / "er" / "N", "--new", ["x.md"])
        merged = outputs.directory(tmp_path / "R", "--out", ["report.md", "report.json"])
        file.write_text("new a")
        (new.temp / "x.md").write_text("x", encoding="utf-8")
        (merged.temp / "report.json").write_text("new json", encoding="utf-8")
        (merged.temp / "report.md").write_text("new md", encoding="utf-8")
        (tmp_path / "R" / "report.md").mkdir()  # in the way, after the reservation
        with pytest.raises(SpecError) as caught:
            outputs.commit()
    assert str(caught.value).startswith("--out: cannot write ")
    assert "report.md" in str(caught.value)
    # The file and the new directory (with the parents made for it) are undone; R is as it was.
    assert _listing(tmp_path) == {
        "R": "/",
        "R/keep.md": "theirs",
        "R/report.json": "old json",
        "R/report.md": "/",
        "a.txt": "old a",
    }


def test_a_commit_replaces_and_leaves_no_backup(tmp_path: Path) -> None:
    (tmp_path / "R").mkdir()
    (tmp_path / "R" / "report.md").write_text("old", encoding="utf-8")
    (tmp_path / "R" / "keep.md").write_text("theirs", encoding="utf-8")
    os.symlink(tmp_path / "elsewhere.json", tmp_path / "R" / "report.json")  # a link is replaced
    with Outputs() as outputs:
        merged = outputs.directory(tmp_path / "R", "--out", ["report.md", "report.json"])
        new = outputs.directory(tmp_path / "a" / "b", "--new", ["n.md"])
        (merged.temp / "report.md").write_text("new", encoding="utf-8")
        (merged.temp / "report.json").write_text("{}", encoding="utf-8")
        (new.temp / "n.md").write_text("n", encoding="utf-8")
        outputs.commit()
    assert _listing(tmp_path) == {
        "R": "/",
        "R/keep.md": "theirs",
        "R/report.json": "{}",
        "R/report.md": "new",
        "a": "/",
        "a/b": "/",
        "a/b/n.md": "n",
    }
    assert not (tmp_path / "R" / "report.json").is_symlink()


@pytest.mark.parametrize("in_the_way", ["directory", "fifo"])
def test_a_name_in_the_way_is_refused_when_reserved(tmp_path: Path, in_the_way: str) -> None:
    (tmp_path / "R").mkdir()
    if in_the_way == "directory":
        (tmp_path / "R" / "report.html").mkdir()
    else:
        os.mkfifo(tmp_path / "R" / "report.html")
    before = _listing(tmp_path) if in_the_way == "directory" else None
    with Outputs() as outputs, pytest.raises(SpecError) as caught:
        outputs.directory(tmp_path / "R", "--out", ["report.md", "report.html"])
    assert str(caught.value).startswith("--out: ")
    assert "report.html" in str(caught.value)
    if before is not None:
        assert _listing(tmp_path) == before
    assert sorted(p.name for p in (tmp_path / "R").iterdir()) == ["report.html"]


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_a_name_too_long_is_one_error_naming_the_option(tmp_path: Path, kind: str) -> None:
    path = tmp_path / ("o" * 256)
    with Outputs() as outputs, pytest.raises(SpecError) as caught:
        if kind == "file":
            outputs.file(path, "--output-file")
        else:
            outputs.directory(path, "--out", ["report.md"])
    assert str(caught.value).startswith(("--output-file: ", "--out: "))
    assert "too long" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_long_name_that_linux_allows_still_gets_its_temporary_file(tmp_path: Path) -> None:
    # A temporary name is the target's with a prefix and a random part: for 250 bytes it must be cut.
    path = tmp_path / ("o" * 250)
    with Outputs() as outputs:
        outputs.file(path, "--output-file").write_text("whole")
        outputs.commit()
    assert _listing(tmp_path) == {"o" * 250: "whole"}
