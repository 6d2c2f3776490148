"""`escape` closes the help panel wherever it is open, and does only that: the screen under it
stays (issue 36 row 6: in the rater session `escape` asked to end the session instead)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import HelpPanel

from tests.app.scenarios import copy_sample
from tests.app.support import wait_loaded, wait_until
from tests.app.test_rate_flows import session_screen
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


@pytest.mark.parametrize("rater_only", [False, True], ids=["session", "rater-only"])
async def test_escape_closes_help_in_the_rater_session_and_the_session_stays(
    root: Path, rater_only: bool
) -> None:
    settings = AppSettings(
        use_git=False, watch=False, keymap={}, initial_rate=("me", True), rater_only=rater_only
    )
    app = VoyageApp(Workspace.load(root), settings)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(screen.query(HelpPanel)))
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query(HelpPanel)
        assert app.screen is screen and isinstance(app.screen, RateScreen)
        await pilot.press("escape")  # with the help closed, escape is the screen's again
        await pilot.pause()
        assert app.screen is not screen  # the question whether to end the session


async def test_escape_closes_help_in_the_browser(root: Path) -> None:
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: bool(browser.query(HelpPanel)))
        await pilot.press("escape")
        await pilot.pause()
        assert not browser.query(HelpPanel)
        assert app.screen is browser
