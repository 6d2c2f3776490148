"""The collector pause around bulk loads, and the freeze of a big loaded suite."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.validation import suite as suite_module
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """Each test starts with nothing frozen; after it, the session's freeze is made again
    (tests/conftest.py freezes what the collection imported: left unfrozen, the rest of the
    worker's tests paid for it)."""
    session_froze = gc.get_freeze_count() > 0
    gc.unfreeze()
    yield
    gc.unfreeze()  # what a test froze goes back to the collector
    if session_froze:
        gc.collect()
        gc.freeze()


def test_the_pause_restores_the_collector_and_freezes_only_when_asked() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with gc_paused(keep=lambda: False):
        pass
    assert gc.get_freeze_count() == 0
    with gc_paused(keep=True):
        kept = [[i] for i in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)


def _workspace(root: Path, fixtures: int) -> Path:
    for n in range(fixtures):
        task = root / f"fixtures/bug-diagnosis/t{n}/task.yaml"
        task.parent.mkdir(parents=True)
        task.write_text(task_yaml(f"t{n}"))
    (root / "voyage.toml").write_text("")
    return root


def test_only_a_big_load_is_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small suite would gain nothing, and whatever else is alive then (an app's widgets)
    would never be collected if it later formed garbage cycles."""
    ws = Workspace.load(str(_workspace(tmp_path, 3)))
    Suite(ws, use_git=False).validate_all(git=False)
    assert gc.get_freeze_count() == 0
    monkeypatch.setattr(suite_module, "FREEZE_MIN_ITEMS", 3)
    Suite(ws, use_git=False).validate_all(git=False)
    assert gc.get_freeze_count() > 0
