"""A screen closed, or the app quit, while the screen's background work still runs: the late
result is dropped, never drawn into widgets already removed (CI once failed on the triage
screen's queue arriving as the app stopped). Each screen is opened and at once closed or the app
quit, several times, and the app must report no error (tests/app/conftest.py fails the test on
any)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.app.support import make_app, wait_loaded
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.screens.runs import RunsScreen
from voyage_tui.app.screens.triage import TriageScreen
from voyage_tui.app.screens.wizard import WizardScreen

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUN = "fixtures/gold/jwt-auth/runs/run-perfect.json"
TASK = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"

SCREENS: dict[str, Callable[[VoyageApp], Screen[object]]] = {
    "rate": lambda app: RateScreen(app.rater, blind=True),
    "agreement": lambda app: AgreementScreen(),
    "triage": lambda app: TriageScreen(),
    "wizard": lambda app: WizardScreen(),
    "runs": lambda app: RunsScreen(GOLD),
    "diff": lambda app: DiffScreen(GOLD, RUN),
    "editor": lambda app: EditorScreen(TASK),
}


@pytest.mark.parametrize("how", ["pop", "quit"])
@pytest.mark.parametrize("name", sorted(SCREENS))
async def test_a_screen_closed_at_once_reports_no_error(
    sample_copy: Path, name: str, how: str
) -> None:
    if how == "pop":
        # One app, the screen opened and closed at once three times: the late results of the
        # first two arrive while the app runs on, the last one's as it stops.
        app = make_app(sample_copy)
        async with app.run_test(size=(120, 40)) as pilot:
            browser = await wait_loaded(pilot)
            for _ in range(3):
                await app.push_screen(SCREENS[name](app))
                app.pop_screen()
                await pilot.pause()
                assert app.screen is browser
        return
    for _ in range(3):
        app = make_app(sample_copy)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_loaded(pilot)
            await app.push_screen(SCREENS[name](app))
            app.exit()
