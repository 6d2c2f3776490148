"""One live session per rater in the app (and so in `voyage-tui rate` and `serve --rate`, which
run it): the rater screen holds the rater's lock while it is open and lets it go when it closes
or the app ends; a second session says who holds it and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from tests.conftest import REPO
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.ratings.lock import RaterBusy, RaterLock
from voyage_tui.engine.workspace.model import Workspace

MINE = "fixtures/ratings/me.jsonl"
HOLD = """\
import sys, time
from voyage_tui.engine.ratings.lock import RaterLock
from voyage_tui.engine.workspace.model import Workspace
held = RaterLock.take(Workspace.load(sys.argv[1]), "me")
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


@pytest.fixture
def other_session(root: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of rater `me`, as `voyage-tui rate` in another
    terminal would."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    yield proc
    proc.kill()
    proc.wait()


def rate_app(root: Path) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, initial_rate=("me", True)),
    )


def free(root: Path) -> bool:
    try:
        RaterLock.take(Workspace.load(root), "me").release()
    except RaterBusy:
        return False
    return True


async def opened(pilot) -> RateScreen:
    app = pilot.app
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, RateScreen)
            and (app.screen.state is not None or app.screen.problem is not None)
        ),
    )
    return app.screen  # type: ignore[return-value]


async def test_the_screen_holds_the_lock_until_escape_and_s_takes_it_again(root: Path) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert screen.session is not None
        assert not free(root)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        await wait_until(pilot, lambda: free(root))
        await pilot.press("s")
        again = await opened(pilot)
        assert again.session is not None and again.problem is None
        assert not free(root)
    assert free(root), "the app's end lets the lock go"


async def test_a_second_session_of_the_rater_says_who_holds_it_and_writes_nothing(
    root: Path, other_session: subprocess.Popen[str]
) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert screen.session is None and screen.problem is not None
        assert "me is already rating in another session" in screen.problem
        assert f"pid {other_session.pid}" in screen.problem
        message = str(screen.query_one("#rate-message").content)
        assert "No rater session" in message and f"pid {other_session.pid}" in message
        await pilot.press(*"55555")
        await pilot.pause()
    assert not (root / MINE).exists()


async def test_escape_then_s_at_once_opens_the_session_again(root: Path) -> None:
    """The lock goes with the key, not when the old screen is finally taken down."""
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot)
        await pilot.press("escape", "s")
        again = await opened(pilot)
        assert again.problem is None and again.session is not None


async def test_opening_the_rater_on_a_run_from_triage_replaces_the_open_session(
    root: Path,
) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await opened(pilot)
        assert first.state is not None and first.state.current is not None
        fixture_id, run_id = first.state.current.run_key
        app.open_rater_on(fixture_id, run_id)
        await wait_until(pilot, lambda: app.screen is not first)
        again = await opened(pilot)
        assert again.problem is None and again.session is not None
