"""Triage tests: git reads no configuration of this machine, and a seeded copy of the sample."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A copy of the sample whose queue holds every kind (tests/triage/seed.py)."""
    return seeded_sample(tmp_path)
