"""A start from the recorded first screen: drawn before any file is checked, said to be under
check, replaced by the checked suite; what was opened meanwhile stays open; the record of the
next start is written when the app closes, and only when the cache is in use."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.app.scenarios import copy_sample, idle
from tests.app.support import header_text, wait_loaded, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.suite_tree import SuiteTree
from voyage_tui.cli.common import start_first_load
from voyage_tui.engine.validation.first_screen import (
    FIXTURES,
    TOP,
    FirstScreen,
    GroupLine,
    WorkspaceLine,
    first_screen_of,
    load_first_screen,
    save_first_screen,
)
from voyage_tui.engine.validation.live import LiveStart, Start
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.workspace.model import Workspace

STALE = FirstScreen(
    fixtures=99,
    errors=7,
    warnings=0,
    holdouts=1,
    exposed=0,
    groups=(
        GroupLine(FIXTURES, "class:bug-diagnosis", "bug-diagnosis", 3, 2, 0),
        GroupLine(FIXTURES, "class:refactor", "refactor", 2, 0, 0),
        GroupLine(TOP, "gold", "Gold corpora", 1, 0, 0),
    ),
    workspace=(WorkspaceLine("voyage.toml", 5, 0),),
    use_git=False,
)
"""A record that no longer matches the sample (as after edits made while the app was closed)."""


def stale_app(root: Path) -> VoyageApp:
    """The app on `root`, started from the STALE record, without a watcher."""
    return VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, cache=True),
        LiveStart(Start.FROM_CACHE, first_screen=STALE),
    )


def tree_lines(tree: SuiteTree) -> list[str]:
    return [str(line.node.label) for line in tree._tree_lines]


@pytest.fixture
def held_load(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The first load waits until the test sets the event: what shows before it is the record."""
    gate = threading.Event()
    real = Suite.prepare

    def prepare(self: Suite, *args: Any, **kwargs: Any) -> Any:
        gate.wait(10)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Suite, "prepare", prepare)
    return gate


async def test_the_record_is_drawn_then_replaced_by_the_checked_suite(
    sample_copy: Path, held_load: threading.Event
) -> None:
    app = stale_app(sample_copy)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        header = header_text(app)
        assert "99 fixtures" in header and "7 errors" in header and "checking…" in header
        browser = app.browser()
        assert browser is not None
        tree = browser.suite_tree
        lines = tree_lines(tree)
        assert lines[:3] == ["Fixtures", "bug-diagnosis  3  ✗2", "refactor  2"], lines
        assert "voyage.toml" in " ".join(lines)
        assert app.view is None  # nothing is acted on before the files are checked
        await pilot.press("down", "enter")  # open bug-diagnosis before its items are known
        held_load.set()
        await wait_loaded(pilot)
        await pilot.pause()
        header = header_text(app)
        assert "25 fixtures" in header and "0 errors" in header and "checking" not in header
        group = tree._groups["class:bug-diagnosis"]
        assert group.is_expanded and len(group.children) == 3
        lines = tree_lines(tree)
        assert not any(line.endswith("voyage.toml") for line in lines)  # no such problem now
        assert tree.cursor_node is not None and tree.cursor_node is group


async def test_closing_records_the_first_screen_for_the_next_start(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    assert load_first_screen(ws, use_git=False) is None
    app = VoyageApp(ws, AppSettings(use_git=False, watch=False, keymap={}, cache=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
    recorded = load_first_screen(ws, use_git=False)
    expected = first_screen_of(view_of(Suite.open(sample_copy, use_git=False)), use_git=False)
    assert recorded == expected
    assert recorded is not None and recorded.fixtures == 25


async def test_without_the_cache_nothing_is_recorded(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    app = VoyageApp(ws, AppSettings(use_git=False, watch=False, keymap={}, cache=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
    assert load_first_screen(ws, use_git=False) is None


async def test_a_record_from_the_last_run_starts_the_app_on_it(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, STALE)
    load = start_first_load(ws, use_git=False, watch=True, cache=True)
    try:
        # Nothing listed or checked before the first screen; the watcher is armed by the app.
        assert load.first_screen == STALE and load.prepared is None
        assert load.watcher is not None and not load.watcher.armed.is_set()
        settings = AppSettings(use_git=False, watch=True, cache=True, keymap={})
        app = VoyageApp(ws, settings, load)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_loaded(pilot)
            await wait_until(pilot, load.watcher.armed.is_set)
            assert "25 fixtures" in header_text(app)
            # A change after the load is seen: the watcher was armed once it was on screen.
            task = next((sample_copy / "fixtures/refactor").glob("*/task.yaml"))
            text = re.sub(
                r"(?m)^expected_boundary: .*$", "expected_boundary: nowhere", task.read_text()
            )
            task.write_text(text)
            await wait_until(pilot, lambda: "0 errors" not in header_text(app), timeout=10)
    finally:
        load.close()


def test_without_a_record_or_the_cache_the_first_load_starts_before_the_app(
    sample_copy: Path,
) -> None:
    ws = Workspace.load(sample_copy)
    for cache in (True, False):
        load = start_first_load(ws, use_git=False, watch=False, cache=cache)
        try:
            assert load.first_screen is None and load.prepared is not None
        finally:
            load.close()
    save_first_screen(ws, STALE)
    load = start_first_load(ws, use_git=False, watch=False, cache=False)  # --no-cache
    try:
        assert load.first_screen is None and load.prepared is not None
    finally:
        load.close()


def test_the_recorded_first_screen_as_drawn(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sample's record on screen, before any file is checked (the load never starts here)."""
    root = copy_sample(tmp_path)
    first = first_screen_of(view_of(Suite.open(root, use_git=False)), use_git=False)
    monkeypatch.setattr(VoyageApp, "_after_first_screen", VoyageApp._mark_painted)
    app = VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, cache=True),
        LiveStart(Start.FROM_CACHE, first_screen=first),
    )
    assert snap_compare(app, terminal_size=(120, 40), run_before=idle)


async def test_a_failed_load_does_not_leave_the_record_saying_checking(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def prepare(self: Suite, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(Suite, "prepare", prepare)
    app = stale_app(sample_copy)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "loading failed" in header_text(app))
        header = header_text(app)
        assert "99 fixtures" in header and "checking" not in header


async def test_a_change_before_the_watcher_is_armed_is_still_seen(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a record, the first load checks the files before the watcher is armed (arming
    walks every folder): what changed in between, an edit and a new fixture, is found by the
    check that follows the arming."""
    from tests.conftest import task_yaml
    from voyage_tui.engine.watcher import WorkspaceWatcher

    ws = Workspace.load(sample_copy)
    load = start_first_load(ws, use_git=False, watch=True, cache=True)
    assert load.prepared is not None and load.watcher is not None
    assert not load.watcher.armed.is_set()
    real_arm = WorkspaceWatcher.arm

    def arm(self: WorkspaceWatcher) -> None:
        if not self.armed.is_set():  # edits no watcher can see: made before it is armed
            task = next((sample_copy / "fixtures/refactor").glob("*/task.yaml"))
            text = task.read_text()
            task.write_text(
                re.sub(r"(?m)^expected_boundary: .*$", "expected_boundary: nowhere", text)
            )
            new = sample_copy / "fixtures/refactor/brand-new/task.yaml"
            new.parent.mkdir()
            new.write_text(task_yaml("brand-new", "refactor"))
        real_arm(self)

    monkeypatch.setattr(WorkspaceWatcher, "arm", arm)
    try:
        app = VoyageApp(ws, AppSettings(use_git=False, watch=True, cache=True, keymap={}), load)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_loaded(pilot)
            await wait_until(pilot, lambda: "26 fixtures" in header_text(app), timeout=10)
            await wait_until(pilot, lambda: "1 error" in header_text(app), timeout=10)
            assert load.watcher.armed.is_set()
    finally:
        load.close()
