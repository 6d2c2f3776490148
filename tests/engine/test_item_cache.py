"""The app's item cache: reuse what did not change, re-check what did, never trust the workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine.validation.cache import ItemCache, cache_root
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

CTX = "fixtures/bug-diagnosis/ctx/task.yaml"


@pytest.fixture
def root(make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            CTX: task_yaml("ctx", extra="context:\n  - {file: notes.md}\n"),
            "fixtures/bug-diagnosis/ctx/notes.md": "notes\n",
        }
    )


def _load(root: Path) -> tuple[Suite, set[str]]:
    """A cached load, like the app's; returns the suite and the fixtures it had to check."""
    suite = Suite(Workspace.load(root), use_git=False)
    prepared = suite.prepare(fork=False, cache=True)
    checked = {rel for _, rel in prepared.tasks.work}
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    return suite, checked


def _codes(suite: Suite) -> list[tuple[str, str]]:
    return sorted((d.path, d.code) for d in suite.diagnostics())


def test_an_unchanged_workspace_is_taken_from_the_cache(root: Path) -> None:
    first, checked = _load(root)
    assert len(checked) == 4
    second, checked = _load(root)
    assert checked == set()
    assert _codes(second) == _codes(first)


def test_a_changed_fixture_is_checked_again(root: Path) -> None:
    _load(root)
    path = root / "fixtures/bug-diagnosis/t1/task.yaml"
    path.write_text(path.read_text().replace("visibility: public", "visibility: pub"))
    suite, checked = _load(root)
    assert checked == {"fixtures/bug-diagnosis/t1/task.yaml"}
    assert ("fixtures/bug-diagnosis/t1/task.yaml", "invalid-visibility") in _codes(suite)


def test_a_deleted_context_file_rechecks_the_fixture_that_names_it(root: Path) -> None:
    _load(root)
    (root / "fixtures/bug-diagnosis/ctx/notes.md").unlink()
    suite, checked = _load(root)
    assert checked == {CTX}
    assert (CTX, "context-file-missing") in _codes(suite)


def test_a_new_journey_drops_the_whole_cache(root: Path) -> None:
    _load(root)
    (root / "references").mkdir()
    (root / "references/journey.md").write_text("## Phases\n\n1. Only phase\n")
    _, checked = _load(root)
    assert len(checked) == 4


def test_the_cache_lives_outside_the_workspace_and_a_corrupt_one_is_ignored(root: Path) -> None:
    _load(root)
    ws = Workspace.load(root)
    suite = Suite(ws, use_git=False)
    cache = ItemCache(ws, suite.refs)
    assert cache.path.parent == cache_root()
    assert not str(cache.path).startswith(str(root))
    cache.path.write_bytes(b"not a pickle")
    _, checked = _load(root)
    assert len(checked) == 4


def test_a_cache_from_another_workspace_is_not_used(
    root: Path, make_workspace, tmp_path: Path
) -> None:
    _load(root)
    other = tmp_path / "other"
    os.rename(root, other)
    _, checked = _load(other)
    assert len(checked) == 4
