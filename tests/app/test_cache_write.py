"""The app's first load writes the item cache only once the loaded suite is on screen: encoding
every item holds the interpreter lock, and beside the first paint it delays it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.support import header_text, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.validation.live import LiveStart, Start
from voyage_tui.engine.validation.suite import Suite


async def test_the_cache_is_written_after_the_loaded_suite_is_painted(
    make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.app.app import VoyageApp
    from voyage_tui.engine.workspace.model import Workspace

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = make_workspace({"fixtures/bug-diagnosis/alpha/task.yaml": task_yaml("alpha")})
    ws = Workspace.load(root)
    prepared = Suite(ws, use_git=False).prepare(fork=False, cache=True)
    shown_at_save: list[str] = []
    real_save = Suite.save_cache

    def save(self: Suite, items: object = None, listing: object = None) -> None:
        shown_at_save.append(header_text(app))
        real_save(self, items, listing)  # type: ignore[arg-type]

    monkeypatch.setattr(Suite, "save_cache", save)
    app = VoyageApp(
        ws,
        AppSettings(use_git=False, watch=False, keymap={}),
        LiveStart(Start.PREPARED, prepared=prepared),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await wait_until(pilot, lambda: bool(shown_at_save), timeout=4)  # not the 5 s fallback
    assert "3 fixtures" in shown_at_save[0], shown_at_save  # the counts, not "loading"
