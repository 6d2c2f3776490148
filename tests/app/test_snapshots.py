"""Every screen at a fixed size, pinned with pytest-textual-snapshot.

After a deliberate change to a screen: `pytest tests/app/test_snapshots.py --snapshot-update`,
look at the new SVGs, and re-run `python screenshots/make_screenshots.py` for the README.

A screenshot is taken once the app is idle (tests/app/scenarios.py: `idle`), never after a
guessed pause: on a loaded machine a pause is too short, and a debounced check or a blinking
cursor changes the screen after it; cursors do not blink. The slow-machine test replays the
scenarios whose screen has such a timer as a loaded machine would and compares with the same
snapshots.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.app.scenarios import SCENARIOS, TIMERS, Scenario, copy_sample, scenario_app
from tests.app.support import wait_until

SNAPSHOTS = Path(__file__).parent / "__snapshots__" / Path(__file__).stem

BLINK = 0.5
"""Seconds between two blinks of Textual's cursors."""
DEBOUNCE = 1.5
"""Seconds of the stretched debounces: longer than a scenario takes from its last key to its
first shot (on the helpers that did not wait for them)."""
CELL_WIDTH, CELL_HEIGHT = 12.2, 24.4
"""A cell's size in Rich's SVG export."""

TIMED = [s for s in SCENARIOS if TIMERS in s.tags]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_screen(scenario: Scenario, snap_compare, tmp_path) -> None:
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root, git=scenario.git)
    assert snap_compare(app, terminal_size=scenario.size, run_before=scenario.steps)


Cells = dict[tuple[int, int, str], tuple[str, str]]
"""(row, column, "background" or "text") -> (character, style) or ("", colour)."""

_RECT = re.compile(r'<rect fill="([^"]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"')
_TEXT = re.compile(
    r'<text class="terminal-(?:\d+-)?(r\d+)" x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"'
    r"[^>]*>(.*?)</text>",
    re.S,
)


def cells(svg: str) -> Cells:
    """What an SVG screenshot shows, cell by cell. Two exports of one screen can cut their rows
    into runs differently: the same screen reached by other steps is the same cells, not always
    the same SVG."""
    styles = dict(re.findall(r"\.terminal-(?:\d+-)?(r\d+) \{([^}]*)\}", svg))
    shown: Cells = {}
    for fill, x, y, width in _RECT.findall(svg):
        row, first = int(float(y) // CELL_HEIGHT), round(float(x) / CELL_WIDTH)
        for column in range(first, first + round(float(width) / CELL_WIDTH)):
            shown[(row, column, "background")] = ("", fill)
    for style, x, y, length, chars in _TEXT.findall(svg):
        row, first = int(float(y) // CELL_HEIGHT), round(float(x) / CELL_WIDTH)
        chars = html.unescape(chars)
        # one character a cell, unless wide characters make the run shorter than its cells
        runs = list(chars) if len(chars) == round(float(length) / CELL_WIDTH) else [chars]
        for column, char in enumerate(runs, first):
            # Rich writes no text for a run of blanks (its background is a rect), so a blank
            # is there or not by how the row was cut up: only the background tells
            if not char.isspace():
                shown[(row, column, "text")] = (char, styles.get(style, "").strip())
    return shown


def _rows_that_differ(shot: Cells, pinned: Cells) -> list[int]:
    keys = shot.keys() | pinned.keys()
    return sorted({key[0] for key in keys if shot.get(key) != pinned.get(key)})


@pytest.mark.parametrize("scenario", TIMED, ids=[s.name for s in TIMED])
async def test_screen_is_the_same_on_a_slow_machine(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pinned screen, reached as on a loaded machine: every step of the scenario late (each
    wait returns a while after its condition holds), the debounced checks later still, and the
    shot taken three times half a blink apart, so that at least one falls on each side of a
    blink. Compared cell by cell with the snapshot."""
    from tests.app import scenarios
    from voyage_tui.app.screens import browser, editor

    async def slow_wait_until(pilot: Pilot, condition: Callable[[], bool], timeout: float) -> None:
        await wait_until(pilot, condition, timeout)
        await pilot.pause(BLINK * 1.5)

    monkeypatch.setattr(scenarios, "wait_until", slow_wait_until)
    monkeypatch.setattr(editor, "LINT_DELAY", DEBOUNCE)
    monkeypatch.setattr(browser, "FILTER_DELAY", DEBOUNCE)
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root)
    shots = []
    # as take_svg_screenshot runs the app: with notifications and tooltips
    async with app.run_test(size=scenario.size, notifications=True, tooltips=True) as pilot:
        await scenario.steps(pilot)
        for _ in range(3):
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            shots.append(app.export_screenshot(title=app.title))
            await pilot.pause(BLINK / 2)
    pinned = cells((SNAPSHOTS / f"test_screen[{scenario.name}].svg").read_text(encoding="utf-8"))
    for n, shot in enumerate(shots, 1):
        rows = _rows_that_differ(cells(shot), pinned)
        if rows:
            (tmp_path / f"shot-{n}.svg").write_text(shot, encoding="utf-8")
            pytest.fail(f"{scenario.name}: shot {n} differs in rows {rows}; see {tmp_path}")
