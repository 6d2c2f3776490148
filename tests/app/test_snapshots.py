"""Every screen at a fixed size, pinned with pytest-textual-snapshot.

After a deliberate change to a screen: `pytest tests/app/test_snapshots.py --snapshot-update`,
look at the new SVGs, and re-run `python screenshots/make_screenshots.py` for the README.

A screenshot is taken once the app is idle (tests/app/scenarios.py: `idle`), never after a
guessed pause: on a loaded machine a pause is too short, and a debounced check or a blinking
cursor changes the screen after it. The slow-machine test replays the scenarios whose screen
has such a timer, with the debounces stretched, and compares the shot with the screen long after.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import normalize_svg
from textual.pilot import Pilot

from tests.app.scenarios import SCENARIOS, TIMERS, Scenario, copy_sample, scenario_app

BLINK = 0.5
"""Seconds between two blinks of Textual's cursors."""
DEBOUNCE = 1.5
"""Seconds of the stretched debounces: longer than any scenario's steps after its typing."""

TIMED = [s for s in SCENARIOS if TIMERS in s.tags]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_screen(scenario: Scenario, snap_compare, tmp_path) -> None:
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root)
    assert snap_compare(app, terminal_size=scenario.size, run_before=scenario.steps)


async def _shot(pilot: Pilot) -> str:
    """The screen as take_svg_screenshot exports it, simplified: cells of one style merged, so
    two shots compare by what they show, not by how the strips were cut up by earlier renders."""
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    return normalize_svg(pilot.app.export_screenshot(title=pilot.app.title, simplify=True))


@pytest.mark.parametrize("scenario", TIMED, ids=[s.name for s in TIMED])
async def test_screen_is_the_same_on_a_slow_machine(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shot test_screen takes, against the same screen long after: past the debounced
    checks (stretched here, as a loaded machine stretches everything else) and three times
    half a blink apart, so that at least one late shot falls on each side of a blink."""
    from voyage_tui.app.screens import browser, editor

    monkeypatch.setattr(editor, "LINT_DELAY", DEBOUNCE)
    monkeypatch.setattr(browser, "FILTER_DELAY", DEBOUNCE)
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root)
    # as take_svg_screenshot runs the app: with notifications and tooltips
    async with app.run_test(size=scenario.size, notifications=True, tooltips=True) as pilot:
        await scenario.steps(pilot)
        await pilot.pause()
        first = await _shot(pilot)
        await pilot.pause(DEBOUNCE + BLINK / 2)
        late = []
        for _ in range(3):
            late.append(await _shot(pilot))
            await pilot.pause(BLINK / 2)
    for n, shot in enumerate(late, 1):
        if shot != first:
            (tmp_path / "first.svg").write_text(first, encoding="utf-8")
            (tmp_path / f"late-{n}.svg").write_text(shot, encoding="utf-8")
            pytest.fail(f"{scenario.name}: the screen changed after the shot; see {tmp_path}")
