"""`escape` returns to the screen that opened the current one (issue 22 item 7): the rater
session opened from the triage queue, the results, the agreement, the rating status or the
adjudication goes back there, not to the browser; each asserts the very screen after escape."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from tests.app.support import make_app, wait_loaded, wait_until
from tests.app.triage_steps import open_triage
from tests.results.common import build
from tests.triage.seed import seeded_sample
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.adjudicate import AdjudicateScreen
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.screens.rating_status import RatingStatusScreen
from voyage_tui.app.screens.results import ResultsScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


async def _session_then_escape(pilot: Pilot, opener: Screen[object]) -> None:
    """The rater session is on screen; escape, and the opener must be back, the session gone."""
    app = pilot.app
    assert isinstance(app, VoyageApp)
    await wait_until(pilot, lambda: isinstance(app.screen, RateScreen))
    session = app.screen
    assert isinstance(session, RateScreen)
    await wait_until(pilot, lambda: session.state is not None or session.problem is not None)
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, RateScreen))
    await pilot.pause()
    assert app.screen is opener, f"escape went to {type(app.screen).__name__}"
    assert session.session is None, "the session ended as it closed"
    assert not any(isinstance(s, RateScreen) for s in app.navigation.every_screen())


async def test_the_rater_opened_from_the_triage_queue_returns_to_it(tmp_path: Path) -> None:
    root = seeded_sample(tmp_path)
    app = VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, initial_rate=("me", True)),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("escape")  # the session `initial_rate` opened: back to the browser
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        queue = await open_triage(pilot, git=False)
        unrated = next(i for i in queue.shown if i.kind == "unrated")
        queue.listing.highlighted = [i.key for i in queue.shown].index(unrated.key)
        await pilot.pause()
        await pilot.press("enter")
        await _session_then_escape(pilot, queue)
        await pilot.press("escape")  # and the queue's own escape: the browser
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))


async def _results(pilot: Pilot) -> Screen[object]:
    await pilot.press("v")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
    return pilot.app.screen


async def _agreement(pilot: Pilot) -> Screen[object]:
    app = pilot.app
    assert isinstance(app, VoyageApp)
    app.action_agreement()
    await wait_until(pilot, lambda: isinstance(app.screen, AgreementScreen))
    return app.screen


async def _status(pilot: Pilot) -> Screen[object]:
    await _agreement(pilot)
    await pilot.press("p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RatingStatusScreen))
    return pilot.app.screen


async def _adjudicate(pilot: Pilot) -> Screen[object]:
    await _agreement(pilot)
    await pilot.press("a")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, AdjudicateScreen))
    return pilot.app.screen


OPENERS: dict[str, Callable[[Pilot], Awaitable[Screen[object]]]] = {
    "results": _results,
    "agreement": _agreement,
    "status": _status,
    "adjudicate": _adjudicate,
}


@pytest.mark.parametrize("opener", sorted(OPENERS))
async def test_the_rater_opened_from_a_view_returns_to_it(tmp_path: Path, opener: str) -> None:
    root = build(tmp_path / "ws", baseline="old")
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        screen = await OPENERS[opener](pilot)
        await pilot.pause()
        app.action_rate_session()  # the palette's "Rate agent runs"
        await _session_then_escape(pilot, screen)
