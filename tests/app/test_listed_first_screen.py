"""A cold start draws the tree from the listing before any file is checked: a person moves,
filters by id and opens a file on it at once, the header says how far the check is, and a key
that needs results says "checking" instead of acting on nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.app.scenarios import TASK, idle, loaded
from tests.app.support import header_text, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.triage import TriageScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

CHECKED_BEFORE_THE_GATE = 3


@pytest.fixture
def held_check(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The first load lists the files, reports CHECKED_BEFORE_THE_GATE of them checked, then
    waits until the test sets the event before it checks any."""
    gate = threading.Event()
    real = Suite.validate_all

    def validate_all(self: Suite, progress: Any = None, **kwargs: Any) -> None:
        if progress is not None and not gate.is_set():
            prepared = kwargs["prepared"]
            layout = prepared.layout
            total = len(layout.tasks) + len(layout.agent_runs) + len(layout.json_candidates)
            progress(CHECKED_BEFORE_THE_GATE, total)
            gate.wait(20)
        real(self, progress, **kwargs)

    monkeypatch.setattr(Suite, "validate_all", validate_all)
    yield gate
    gate.set()  # never leave a worker waiting


def cold_app(root: Path) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}, cache=False)
    )


async def test_the_tree_is_there_and_works_before_the_check(
    sample_copy: Path, held_check: threading.Event
) -> None:
    app = cold_app(sample_copy)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.live.listed is not None)
        browser = app.browser()
        assert browser is not None
        await wait_until(pilot, lambda: "checking 3 / " in header_text(app))
        header = header_text(app)
        assert "25 fixtures" in header and "checking 3 / 47" in header, header
        assert app.view is None  # nothing checked: no results are acted on
        tree = browser.suite_tree
        assert tree.has_focus and tree.display
        # j/k move; l opens a class and goes into it.
        await pilot.press("j", "l", "l")
        assert tree.current_path() is not None
        await pilot.press("k")
        assert tree.current_path() is None  # back on the group
        # A filter by id keeps the matching fixture, and enter opens its file.
        await pilot.press("slash", *"pagination", "enter")
        await wait_until(pilot, lambda: tree.needle == "pagination")
        assert tree.listing is not None and tree.listing.matched == 1
        for _ in range(4):  # Fixtures, bug-diagnosis, the fixture
            if tree.current_path() == TASK:
                break
            await pilot.press("j")
        assert tree.current_path() == TASK
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.rel == TASK
        await wait_until(pilot, lambda: editor.opened is not None)
        assert app.view is None  # still unchecked: the file opened from the listing
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is browser)
        held_check.set()
        await loaded(pilot)
        await idle(pilot)
        header = header_text(app)
        assert "25 fixtures" in header and "checking" not in header
        assert browser.query_one("#filter", Input).value == "pagination"
        assert tree.current_path() == TASK  # where the person left it


async def test_a_key_that_needs_results_says_checking(
    sample_copy: Path, held_check: threading.Event
) -> None:
    app = cold_app(sample_copy)
    notes: list[str] = []
    real_notify = app.notify

    def notify(message: str, *args: Any, **kwargs: Any) -> None:
        notes.append(message)
        real_notify(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "checking 3 / " in header_text(app))
        for key in ("t", "n", "v", "d"):
            before = len(notes)
            await pilot.press(key)
            await pilot.pause()
            assert len(notes) == before + 1, key
            assert notes[-1].startswith("Checking the suite (3 / 47 files)"), notes[-1]
        assert not isinstance(app.screen, TriageScreen)  # nothing opened on nothing
        held_check.set()
        await loaded(pilot)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen))
        assert not any("Checking" in n for n in notes[4:])
