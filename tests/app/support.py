"""Driving the app in tests: wait for the suite, read what the screen shows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.worker import WorkerState

from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.suite_header import SuiteHeader
from voyage_tui.engine.workspace.model import Workspace


def make_app(root: Path, *, watch: bool = False) -> VoyageApp:
    return VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=watch, keymap={}))


async def wait_until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.05)


def watching(app: App[object]) -> bool:
    """The app's watching thread runs (a worker of the group `watch`): it starts once the
    watcher is armed, so from now on a change on disk is reported."""
    return any(w.group == "watch" and w.state == WorkerState.RUNNING for w in app.workers)


async def wait_loaded(pilot: Pilot) -> BrowserScreen:
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app, "view", None) is not None)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, BrowserScreen)
    return screen


def header_text(app: VoyageApp) -> str:
    browser = app.browser()
    assert browser is not None
    return str(browser.query_one(SuiteHeader).content)


async def settle(pilot: Pilot, seconds: float = 0.1) -> None:
    await pilot.pause(seconds)
    await asyncio.sleep(0)
