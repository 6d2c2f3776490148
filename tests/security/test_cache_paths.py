"""The validation cache against a path that changes under a file without the file changing.

Written against a defect (issue 18): a fixture's `repo/` moved elsewhere in the workspace and
symlinked back, then moved out of the workspace, kept every file's own stamp (a rename changes
neither inode nor times), so `validate` answered 0 from the cache where `--no-cache` reported the
three context files that now lead out; and `--no-cache` left that cache as it was. A stamp now
covers every folder on the way from the workspace root, and `--no-cache` rewrites the cache.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.sample import copy_sample_into
from voyage_tui.cli import main

FIXTURE = "fixtures/bug-diagnosis/pagination-last-page-dropped"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    copy_sample_into(root)
    return root


def validate(
    root: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["validate", str(root), "--format", "json", *extra])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def link_repo_back(root: Path) -> None:
    """Move the fixture's repo/ elsewhere in the workspace and symlink it back: its three
    context files now lead out of the fixture folder (`context-path-escapes`)."""
    (root / "elsewhere").mkdir()
    (root / FIXTURE / "repo").rename(root / "elsewhere/repo")
    (root / FIXTURE / "repo").symlink_to("../../../elsewhere/repo")


def target_out(root: Path) -> None:
    """The target leaves the workspace: the link dangles."""
    (root.parent / "out").mkdir()
    (root / "elsewhere/repo").rename(root.parent / "out/repo")


def target_out_relinked(root: Path) -> None:
    """The target leaves the workspace; the link is pointed at it there."""
    target_out(root)
    link = root / FIXTURE / "repo"
    link.unlink()
    link.symlink_to(root.parent / "out/repo")


def folder_out_linked(root: Path) -> None:
    """The folder holding the target leaves the workspace, a symlink to it in its place."""
    (root.parent / "out").mkdir()
    (root / "elsewhere").rename(root.parent / "out/elsewhere")
    (root / "elsewhere").symlink_to(root.parent / "out/elsewhere")


def fixture_folder_linked(root: Path) -> None:
    """A folder on the way (the fixture's own) becomes a symlink to itself moved out."""
    (root / FIXTURE).rename(root.parent / "fixture-out")
    (root / FIXTURE).symlink_to(root.parent / "fixture-out")


MOVES: dict[str, Callable[[Path], None]] = {
    "target-out": target_out,
    "target-out-relinked": target_out_relinked,
    "folder-out-linked": folder_out_linked,
}
GIT = pytest.mark.parametrize("git", [["--no-git"], []], ids=["no-git", "git"])


@GIT
@pytest.mark.parametrize("move", list(MOVES))
def test_a_repo_linked_back_then_moved_out_is_never_answered_from_the_cache(
    root: Path, capsys: pytest.CaptureFixture[str], move: str, git: list[str]
) -> None:
    """The issue's steps, each followed by a cached run that must say what --no-cache says."""
    _, first = validate(root, capsys, *git)  # the cache is written
    link_repo_back(root)
    cold = validate(root, capsys, *git, "--no-cache")
    assert cold[1]["summary"]["errors"] == first["summary"]["errors"] + 3
    assert {d["code"] for d in cold[1]["diagnostics"] if d["path"] == f"{FIXTURE}/task.yaml"} == {
        "context-path-escapes"
    }
    assert validate(root, capsys, *git) == cold
    MOVES[move](root)
    cold = validate(root, capsys, *git, "--no-cache")
    assert cold[1]["summary"]["errors"] == first["summary"]["errors"] + 3
    assert validate(root, capsys, *git) == cold
    assert validate(root, capsys, *git) == cold  # and again, from what that run wrote


@GIT
def test_a_folder_on_the_way_swapped_for_a_link_is_seen(
    root: Path, capsys: pytest.CaptureFixture[str], git: list[str]
) -> None:
    validate(root, capsys, *git)
    fixture_folder_linked(root)
    cold = validate(root, capsys, *git, "--no-cache")
    assert validate(root, capsys, *git) == cold


def test_an_unchanged_workspace_is_still_replayed(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folder identities do not move on their own: adding a file elsewhere, or a second run,
    keeps the cache usable."""
    from voyage_tui.engine.validation import result_cache

    link_repo_back(root)
    cold = validate(root, capsys, "--no-git")
    seen: list[bool] = []
    replay = result_cache.replay
    monkeypatch.setattr(
        result_cache, "replay", lambda r, *rest: seen.append(bool(replay(r))) or replay(r, *rest)
    )
    assert validate(root, capsys, "--no-git") == cold
    assert seen == [True]


def test_no_cache_rewrites_the_cache(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A cache that answers wrong for a reason no stamp sees (its entry says the fixture has no
    problem) is put right by a `--no-cache` run: the next cached run answers as it did."""
    from voyage_tui.engine.validation import result_cache
    from voyage_tui.engine.validation.cache import cache_file_name, pack, read_cache_file
    from voyage_tui.engine.validation.cache_store import cache_root, write_private

    task = root / FIXTURE / "task.yaml"
    task.write_text(task.read_text().replace("visibility: public", "visibility: pub"))
    cold = validate(root, capsys, "--no-git", "--no-cache")
    assert cold[0] == 1
    name = cache_file_name(os.path.realpath(root))
    written = (cache_root() / name).read_bytes()  # --no-cache wrote it
    read = read_cache_file(written)
    assert read is not None
    entries = read.entries()
    assert entries is not None
    entries[f"{FIXTURE}/task.yaml"][9] = []  # the entry forgets the fixture's error
    listing = read.listing
    assert isinstance(listing, dict)
    write_private(
        cache_root(), name, pack(read.key, entries, read.references, read.max_bytes, listing)
    )
    assert validate(root, capsys, "--no-git")[0] == 0  # wrong: the altered answer is replayed
    assert validate(root, capsys, "--no-git", "--no-cache") == cold
    assert validate(root, capsys, "--no-git") == cold  # put right by the --no-cache run
    assert result_cache.replay(root) is not None
