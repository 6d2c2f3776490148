"""Throwaway workspaces for the authoring tests: a private copy of the sample, optionally a git
repository (with this machine's git configuration switched off, as in tests/git)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.git.conftest import Repo, isolated_git  # noqa: F401  (the fixture applies here too)
from voyage_tui.engine.authoring import Authoring


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under `root` (folders as None, files as their bytes), to compare before/after."""
    found: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(root):
        if ".git" in dirs:
            dirs.remove(".git")
        for name in dirs:
            found[os.path.relpath(os.path.join(folder, name), root)] = None
        for name in files:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = Path(path).read_bytes()
    return found


@pytest.fixture
def authoring(sample_copy: Path) -> Authoring:
    return Authoring.open(sample_copy, use_git=False)


@pytest.fixture
def git_sample(sample_copy: Path) -> Repo:
    """The sample copy as a git repository with one commit of everything."""
    repo = Repo(sample_copy).init()
    repo.commit(message="the sample")
    return repo
