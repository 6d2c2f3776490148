"""Writes stay inside the workspace and never lose a concurrent change; exports always encode.

Each test here was written against a defect: a write through a symlink out of the workspace,
an editor save that overwrote a change landing just before its rename, an export that could not
be encoded because a run held a lone surrogate.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.engine.editing import FileConflict, OpenError, open_file, save_file
from voyage_tui.engine.review.export import markdown_table
from voyage_tui.engine.review.inputs import score_pair
from voyage_tui.engine.review.rows import diff_rows
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUNS = "fixtures/gold/jwt-auth/runs"
NOTE = "fixtures/notes.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "target.md").write_text("keep me\n")
    return folder


# --- the writer itself ----------------------------------------------------------------------------


def test_write_inside_refuses_what_is_not_a_regular_file_inside(tmp_path: Path) -> None:
    from voyage_tui.engine.atomic import WriteRefused, write_inside

    ws = tmp_path / "ws"
    (ws / "dir").mkdir(parents=True)
    os.mkfifo(ws / "pipe")
    (ws / "dangling").symlink_to(ws / "nowhere")
    (ws / "file").write_text("x")
    cases = {
        "../escape.md": "is outside the workspace",
        "dir": "not a regular file",
        "pipe": "not a regular file",
        "dangling": "symlink to nothing",
        "file/below.md": "not a folder inside the workspace",
        "": "leads outside",
    }
    for rel, why in cases.items():
        with pytest.raises(WriteRefused, match=why):
            write_inside(ws, rel, b"new\n")
    assert (ws / "file").read_text() == "x"
    assert not (tmp_path / "escape.md").exists()
    assert sorted(p.name for p in ws.iterdir()) == ["dangling", "dir", "file", "pipe"]


def test_a_folder_swapped_for_a_symlink_after_the_check_is_not_followed(
    tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import voyage_tui.engine.atomic as atomic

    ws = tmp_path / "ws"
    (ws / "a").mkdir(parents=True)
    real_is_within = atomic.is_within

    def check_then_swap(root: str, path: str) -> bool:
        answer = real_is_within(root, path)
        if (ws / "a").is_dir() and not (ws / "a").is_symlink():
            (ws / "a").rename(ws / "a-moved")
            (ws / "a").symlink_to(outside)
        return answer

    monkeypatch.setattr(atomic, "is_within", check_then_swap)
    with pytest.raises(atomic.WriteRefused, match="became a symlink"):
        atomic.write_inside(ws, "a/target.md", b"new\n")
    assert (outside / "target.md").read_text() == "keep me\n"


def test_a_failed_write_leaves_the_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import voyage_tui.engine.atomic as atomic

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "f.md").write_text("old\n")

    def full_disk(fd: int, data: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError, match="No space"):
        atomic.write_inside(ws, "f.md", b"new\n")
    monkeypatch.undo()
    assert (ws / "f.md").read_text() == "old\n"
    assert sorted(p.name for p in ws.iterdir()) == ["f.md"]


def test_the_legacy_writer_stays_in_the_file_s_own_folder(tmp_path: Path, outside: Path) -> None:
    from voyage_tui.engine.atomic import WriteRefused, atomic_write_bytes

    (tmp_path / "cache").mkdir()
    (tmp_path / "cache/link.md").symlink_to(outside / "target.md")
    with pytest.raises(WriteRefused, match="leads outside its folder"):
        atomic_write_bytes(tmp_path / "cache/link.md", b"new\n")
    assert (outside / "target.md").read_text() == "keep me\n"


def test_appends_stay_inside_and_never_block_or_share_an_inode(
    tmp_path: Path, outside: Path
) -> None:
    from voyage_tui.engine.atomic import WriteRefused, append_line_durably

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "ratings.jsonl").write_text("one\n")
    (ws / "alias.jsonl").symlink_to("ratings.jsonl")
    append_line_durably(ws / "alias.jsonl", "two", root=ws)
    append_line_durably(ws / "ratings.jsonl", "three", root=ws)
    assert (ws / "ratings.jsonl").read_text() == "one\ntwo\nthree\n"
    (ws / "out.jsonl").symlink_to(outside / "target.md")
    os.mkfifo(ws / "pipe.jsonl")  # opening it for writing must not wait for a reader
    os.link(outside / "target.md", ws / "hard.jsonl")
    for name, why in [
        ("out.jsonl", "outside"),
        ("pipe.jsonl", "not a regular file"),
        ("hard.jsonl", "hard links"),
    ]:
        with pytest.raises(WriteRefused, match=why):
            append_line_durably(ws / name, "x", root=ws)
    assert (outside / "target.md").read_text() == "keep me\n"
