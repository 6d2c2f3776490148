"""The test helper Repo.commit answers what `git rev-parse HEAD` would, however HEAD and the
branch are stored: it reads the files a commit writes and asks git whenever that is not certain."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.conftest import Repo


def rev_parse_head(repo: Repo) -> str:
    return repo.git("rev-parse", "HEAD")


def test_on_a_branch_and_after_the_refs_are_packed(repo: Repo) -> None:
    first = repo.commit({"a.txt": "a\n"})
    assert first == rev_parse_head(repo)
    assert repo.head_as_written() == first  # read from the loose ref, no process
    repo.git("pack-refs", "--all")
    assert not (repo.root / ".git/refs/heads/main").exists()
    assert repo.head_as_written() is None  # packed: left to git
    second = repo.commit({"a.txt": "b\n"})
    assert second == rev_parse_head(repo) != first


def test_on_a_detached_head(repo: Repo) -> None:
    repo.commit({"a.txt": "a\n"})
    repo.git("checkout", "-q", "--detach")
    sha = repo.commit({"a.txt": "b\n"})
    assert sha == rev_parse_head(repo) == repo.head_as_written()
    assert repo.git("rev-parse", "main") != sha  # the commit moved HEAD alone


def test_through_a_symbolic_branch(repo: Repo) -> None:
    repo.commit({"a.txt": "a\n"})
    repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
    repo.git("symbolic-ref", "HEAD", "refs/heads/alias")
    assert repo.head_as_written() is None
    sha = repo.commit({"a.txt": "b\n"})
    assert sha == rev_parse_head(repo) == repo.git("rev-parse", "main")


def test_in_a_linked_worktree(repo: Repo, tmp_path: Path) -> None:
    repo.commit({"a.txt": "a\n"})
    linked = Repo(tmp_path / "linked")
    repo.git("worktree", "add", "-q", "-b", "side", str(linked.root))
    assert linked.head_as_written() is None  # `.git` is a file there
    sha = linked.commit({"a.txt": "b\n"})
    assert sha == rev_parse_head(linked) == repo.git("rev-parse", "side")


def test_with_git_dir_set(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.commit({"a.txt": "a\n"})
    monkeypatch.setenv("GIT_DIR", str(repo.root / ".git"))
    assert repo.head_as_written() is None
    assert repo.commit({"a.txt": "b\n"}) == rev_parse_head(repo)
