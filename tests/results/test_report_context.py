"""A report worth pasting (issue 35 item 4): a title and the campaign's context in every
format: the latest rating's date, the suite's commit (read from the repository's files, no git
process), agents, raters, items rated and left, agreement per dimension with its alpha."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.results.common import build
from voyage_tui.cli import main
from voyage_tui.engine.reports.context import head_commit

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = build(tmp_path / "ws", baseline="old")
    (root / ".git" / "refs" / "heads").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / ".git" / "refs" / "heads" / "main").write_text(SHA + "\n")
    return root


def test_json_has_the_campaign(ws, capsys) -> None:
    assert main(["results", str(ws), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)["campaign"]
    assert data["commit"] == SHA and data["latest_rating"] == "2026-11-20"
    assert data["raters"] == ["alice", "bob"]
    assert data["items"] == {"total": 18, "rated": 17, "complete": 16, "left": 2}
    assert data["agreement"]["correctness"]["alpha"] == pytest.approx(1.0)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_every_format_has_the_context(ws, capsys, fmt) -> None:
    assert main(["results", str(ws), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "md":
        out = out.replace("\\", "")  # Markdown's escapes: `2026\-11\-20` reads 2026-11-20
    for words in ("2026-11-20", SHA[:12], "alice, bob", "17 of 18 agent runs rated", "2 left"):
        assert words in out, words
    assert "Krippendorff" in out and "SPEC" not in out and "match dual;" not in out


def test_the_commit_from_packed_refs_and_a_detached_head(tmp_path) -> None:
    git = tmp_path / ".git"
    git.mkdir()
    (git / "HEAD").write_text("ref: refs/heads/dev\n")
    (git / "packed-refs").write_text(f"# pack-refs with: peeled\n{SHA} refs/heads/dev\n")
    assert head_commit(str(tmp_path)) == SHA
    (git / "HEAD").write_text(SHA[::-1] + "\n")
    assert head_commit(str(tmp_path)) == SHA[::-1]
    (git / "HEAD").write_text("ref: refs/../../etc/passwd\n")
    assert head_commit(str(tmp_path)) is None
    (git / "HEAD").write_text("x" * 10_000)
    assert head_commit(str(tmp_path)) is None


def test_a_fifo_or_a_symlink_out_in_git_is_never_read(tmp_path) -> None:
    """A report reads the commit from `.git`'s files: a FIFO planted as a ref would block the
    report for ever if it were opened, and a symlink out of `.git` names any file at all."""
    import os

    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    os.mkfifo(git / "refs" / "heads" / "main")
    assert head_commit(str(tmp_path)) is None
    (git / "refs" / "heads" / "main").unlink()
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.write_text(SHA + "\n")
    (git / "refs" / "heads" / "main").symlink_to(outside)
    assert head_commit(str(tmp_path)) is None
