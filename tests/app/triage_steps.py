"""Steps that bring the triage screen to a state worth pinning, for the snapshots and the README
screenshots (tests/app/scenarios.py); each waits for the app to be idle, never for a pause."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from tests.app.support import wait_until
from voyage_tui.app.screens.triage import TriageScreen
from voyage_tui.app.screens.triage_modals import SnoozeScreen


def idle(screen: TriageScreen) -> bool:
    """The queue on screen is the latest computed, and no action is under way."""
    # `working` counts the queue's computations as well as the actions: at 0, the newest
    # computation's queue is the one shown.
    return screen.queue is not None and screen.working == 0


async def settle(
    pilot: Pilot, screen: TriageScreen, until: Callable[[], bool] = lambda: True
) -> None:
    await wait_until(pilot, lambda: idle(screen) and until(), timeout=30)
    await pilot.app.workers.wait_for_complete()
    await wait_until(pilot, lambda: idle(screen) and until(), timeout=30)
    await pilot.pause()


async def open_triage(pilot: Pilot, git: bool = True) -> TriageScreen:
    """From the browser, `t`; then wait for the queue (with git, for the exposure report, which
    comes after the files)."""
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app, "view", None) is not None, timeout=30)
    if not isinstance(app.screen, TriageScreen):
        await pilot.press("t")
    await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen), timeout=30)
    screen: TriageScreen = app.screen  # type: ignore[assignment]

    def complete() -> bool:
        return screen.queue is not None and (not git or screen.queue.counts()["exposed"] > 0)

    await settle(pilot, screen, complete)
    return screen


async def mark_and_snooze(pilot: Pilot) -> SnoozeScreen:
    """Three items near the end marked (`G`, `k`, `space`), then `s`: the snooze choice."""
    screen = await open_triage(pilot)
    await pilot.press("G", "space", "k", "k", "space", "k", "k", "space", "s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SnoozeScreen))
    await settle(pilot, screen)
    snooze: SnoozeScreen = pilot.app.screen  # type: ignore[assignment]
    return snooze
