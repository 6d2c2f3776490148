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
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.editing import FileConflict, OpenedFile, OpenError, open_file, save_file
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
        "file/below.md": "is not a folder",
        "": "is outside the workspace",
    }
    for rel, why in cases.items():
        with pytest.raises(WriteRefused, match=why):
            write_inside(ws, rel, b"new\n")
    assert (ws / "file").read_text() == "x"
    assert not (tmp_path / "escape.md").exists()
    assert sorted(p.name for p in ws.iterdir()) == ["dangling", "dir", "file", "pipe"]


def test_a_name_of_255_bytes_gets_a_temp_file_name_that_fits(tmp_path: Path) -> None:
    from voyage_tui.engine.atomic import write_inside

    name = "日" * 85  # 255 bytes in UTF-8
    write_inside(tmp_path, name, b"x\n")
    write_inside(tmp_path, name, b"y\n")
    assert (tmp_path / name).read_bytes() == b"y\n"


def test_a_folder_swapped_for_a_symlink_after_the_check_is_not_followed(
    tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import voyage_tui.engine.atomic as atomic

    ws = tmp_path / "ws"
    (ws / "a").mkdir(parents=True)
    real_parts_below = atomic._parts_below

    def check_then_swap(*args: object) -> list[str]:
        answer = real_parts_below(*args)  # type: ignore[arg-type]
        if (ws / "a").is_dir() and not (ws / "a").is_symlink():
            (ws / "a").rename(ws / "a-moved")
            (ws / "a").symlink_to(outside)
        return answer

    monkeypatch.setattr(atomic, "_parts_below", check_then_swap)
    with pytest.raises(atomic.WriteRefused, match="is a symlink"):
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


def test_write_inside_refuses_a_symlink_to_a_file_in_another_folder(
    tmp_path: Path, outside: Path
) -> None:
    from voyage_tui.engine.atomic import WriteRefused, write_inside

    (tmp_path / "cache").mkdir()
    (tmp_path / "cache/link.md").symlink_to(outside / "target.md")
    with pytest.raises(WriteRefused, match="is a symlink"):
        write_inside(tmp_path / "cache", "link.md", b"new\n")
    assert (outside / "target.md").read_text() == "keep me\n"


def test_appends_stay_inside_and_never_block_or_share_an_inode(
    tmp_path: Path, outside: Path
) -> None:
    from voyage_tui.engine.atomic import WriteRefused, append_line_durably

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "ratings.jsonl").write_text("one\n")
    (ws / "alias.jsonl").symlink_to("ratings.jsonl")
    with pytest.raises(WriteRefused, match="symlink"):  # even one that stays inside
        append_line_durably(ws / "alias.jsonl", "two", root=ws)
    append_line_durably(ws / "ratings.jsonl", "three", root=ws)
    assert (ws / "ratings.jsonl").read_text() == "one\nthree\n"
    (ws / "out.jsonl").symlink_to(outside / "target.md")
    os.mkfifo(ws / "pipe.jsonl")  # opening it for writing must not wait for a reader
    os.link(outside / "target.md", ws / "hard.jsonl")
    for name, why in [
        ("out.jsonl", "symlink"),
        ("pipe.jsonl", "not a regular file"),
        ("hard.jsonl", "hard links"),
    ]:
        with pytest.raises(WriteRefused, match=why):
            append_line_durably(ws / name, "x", root=ws)
    assert (outside / "target.md").read_text() == "keep me\n"


# --- the editor: a change landing between the early check and the rename --------------------------


def _writer_in_place(path: Path) -> None:
    with open(path, "w") as handle:
        handle.write("theirs\n")


def _writer_by_rename(path: Path) -> None:
    tmp = path.with_name("their-editor.tmp")
    tmp.write_text("theirs\n")
    os.replace(tmp, path)


WRITERS = [_writer_in_place, _writer_by_rename]


@pytest.mark.parametrize("writer", WRITERS, ids=["in-place", "by-rename"])
@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "check-then-rename"])
def test_a_change_landing_after_the_temp_file_is_written_is_a_conflict(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    writer: Callable[[Path], None],
    exchange: bool,
) -> None:
    """The other writer lands once the new content is on disk in the temp file (its fsync),
    after the early check: the save must stop, not overwrite it."""
    import voyage_tui.engine.atomic as atomic

    if not exchange:
        monkeypatch.setattr(atomic, "_renameat2", None, raising=False)
    path = root / NOTE
    path.write_text("mine before\n")
    ws = Workspace.load(root)
    opened = open_file(ws, NOTE)
    real_fsync = os.fsync
    landed: list[bool] = []

    def fsync_then_land(fd: int) -> None:
        real_fsync(fd)
        if not landed:
            landed.append(True)
            writer(path)

    monkeypatch.setattr(os, "fsync", fsync_then_land)
    with pytest.raises(FileConflict) as caught:
        save_file(ws, opened, "mine after\n")
    assert landed
    assert path.read_text() == "theirs\n"
    assert caught.value.disk_text == "theirs\n"
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("writer", WRITERS, ids=["in-place", "by-rename"])
def test_a_change_landing_at_the_instant_of_the_swap_is_a_conflict(
    root: Path, monkeypatch: pytest.MonkeyPatch, writer: Callable[[Path], None]
) -> None:
    """Where the platform swaps the two files in one step, even a change landing just before
    that step is seen: the swapped-out content is checked, and swapped back when it differs."""
    import voyage_tui.engine.atomic as atomic

    if atomic._renameat2 is None:
        pytest.skip("this platform has no atomic exchange; the check-then-rename test covers it")
    path = root / NOTE
    path.write_text("mine before\n")
    ws = Workspace.load(root)
    opened = open_file(ws, NOTE)
    real_swap = atomic._renameat2
    landed: list[bool] = []

    def land_then_swap(*args: object) -> None:
        if not landed:
            landed.append(True)
            writer(path)
        real_swap(*args)

    monkeypatch.setattr(atomic, "_renameat2", land_then_swap)
    with pytest.raises(FileConflict):
        save_file(ws, opened, "mine after\n")
    assert path.read_text() == "theirs\n"
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []


def test_a_file_created_while_a_new_one_is_saved_is_a_conflict(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = Workspace.load(root)
    opened = open_file(ws, NOTE)  # does not exist yet
    path = root / NOTE
    real_fsync = os.fsync

    def fsync_then_create(fd: int) -> None:
        real_fsync(fd)
        if not path.exists():
            path.write_text("theirs\n")

    monkeypatch.setattr(os, "fsync", fsync_then_create)
    with pytest.raises(FileConflict):
        save_file(ws, opened, "mine\n")
    assert path.read_text() == "theirs\n"


def test_a_save_without_a_concurrent_change_keeps_the_mode(root: Path) -> None:
    path = root / NOTE
    path.write_text("before\n")
    os.chmod(path, 0o640)
    ws = Workspace.load(root)
    saved = save_file(ws, open_file(ws, NOTE), "after\n")
    assert path.read_text() == "after\n"
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert saved.digest == open_file(ws, NOTE).digest


# --- the editor: files behind a folder symlinked out ------------------------------------------------


def test_the_editor_neither_reads_nor_writes_through_a_folder_symlinked_out(
    root: Path, outside: Path
) -> None:
    (root / "fixtures/out").symlink_to(outside)
    ws = Workspace.load(root)
    with pytest.raises(OpenError) as caught:
        open_file(ws, "fixtures/out/target.md")
    assert "outside the workspace" in str(caught.value)
    never_opened = OpenedFile("fixtures/out/target.md", "", None)
    with pytest.raises(OSError, match="is a symlink"):
        save_file(ws, never_opened, "overwritten\n", force=True)
    assert (outside / "target.md").read_text() == "keep me\n"


# --- the diff screen's Markdown export (`w`) -------------------------------------------------------


async def _export(root: Path, rel: str) -> None:
    app = VoyageApp(
        Workspace.load(root),
        AppSettings(
            use_git=False, watch=False, keymap={}, initial_diff=(GOLD, f"{RUNS}/run-misses.json")
        ),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen.scored is not None
        )
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        screen.write_markdown(rel)
        await pilot.app.workers.wait_for_complete()


async def test_export_through_a_symlinked_file_out_is_refused(root: Path, outside: Path) -> None:
    link = root / RUNS / "link.md"
    link.symlink_to(outside / "target.md")
    await _export(root, f"{RUNS}/link.md")
    assert (outside / "target.md").read_text() == "keep me\n"
    assert sorted(p.name for p in outside.iterdir()) == ["target.md"]
    assert link.is_symlink()


async def test_export_through_a_symlinked_folder_out_is_refused(root: Path, outside: Path) -> None:
    (root / "fixtures/out").symlink_to(outside)
    await _export(root, "fixtures/out/diff.md")
    await _export(root, "fixtures/out/new/diff.md")
    assert sorted(p.name for p in outside.iterdir()) == ["target.md"]


async def test_export_through_a_symlink_inside_is_refused(root: Path) -> None:
    # Issue 18: no write follows a symlink, even one that stays inside the workspace.
    real = root / RUNS / "real.md"
    real.write_text("old\n")
    (root / RUNS / "link.md").symlink_to("real.md")
    await _export(root, f"{RUNS}/link.md")
    assert real.read_text() == "old\n"
    assert (root / RUNS / "link.md").is_symlink()


# --- the Markdown export of a run holding a lone surrogate ----------------------------------------


def test_an_export_with_a_lone_surrogate_can_be_encoded_and_shows_it(root: Path) -> None:
    run = root / RUNS / "run-surrogate.json"
    payload = json.loads((root / RUNS / "run-misses.json").read_text())
    payload[0]["findings"][0]["rule_key"] = "weak-\udc00-secret"
    payload[0]["findings"][1]["file"] = "src/\ud800.ts"
    run.write_text(json.dumps(payload))  # ensure_ascii: the file holds the \\udc00 escape
    ws = Workspace.load(root)
    scored = score_pair(ws, GOLD, f"{RUNS}/run-surrogate.json")
    text = markdown_table(scored.gold_name, scored.run_name, scored.score, diff_rows(scored.score))
    text.encode("utf-8")  # must not raise
    assert "weak-\\udc00-secret" in text and "src/\\ud800.ts" in text
