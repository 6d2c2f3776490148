"""Triage tests: git reads no configuration of this machine, and a seeded copy of the sample."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.git.conftest import copy_repo
from tests.triage.seed import seeded_sample


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # seed.py's git takes no setting from the environment and fixes every name and date, so
    # the one built here is the one each test would have built.
    return seeded_sample(tmp_path_factory.mktemp("seeded"))


@pytest.fixture
def seeded(seeded_template: Path, tmp_path: Path) -> Path:
    """A copy of the sample whose queue holds every kind (tests/triage/seed.py), built once and
    copied for each test."""
    return copy_repo(seeded_template, tmp_path / seeded_template.name)
