"""The rater reads the run on a laptop (issue 36 row 12): at 80x24, and at the cells a browser
gives `serve --rate` at 820x560 (measured in Chromium, docs/app.md: a cell of 9x18 pixels, so
91x31 for a page of 820x560 and 91x23 for a window of 820x560, its page 820x417), the run pane
shows at least half the height, and what a step says takes one line, its whole text in the
line's tooltip."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from tests.app.support import make_app, wait_loaded, wait_until
from tests.fast_textual import screen_text
from voyage_tui.app.screens.rate import RateScreen

SIZES = [(80, 24), (91, 23), (91, 31), (100, 30)]


def bar(height: int) -> int:
    """The rows the run must show: more than the rubric, the header and the footer take
    together, less its border (10 at 24 rows, 9 at 23, 13 at 31)."""
    return (height - 4) // 2


async def open_session(pilot) -> RateScreen:  # type: ignore[no-untyped-def]
    await wait_loaded(pilot)
    screen = RateScreen("me", clock=lambda: 0.0)
    pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: screen.state is not None and not screen.busy)
    await wait_until(pilot, lambda: bool(screen.query_one("#rate-run").children))
    await pilot.pause()
    return screen


def assert_rubric_whole(rows: list[str]) -> None:
    """Every dimension named, and every value of the scale the next key scores shown."""
    shown = "\n".join(rows)
    for name in ("correctness", "verification", "scope", "evidence", "communication"):
        assert name in shown
    for value in "12345":
        assert any(row.lstrip().startswith(f"{value} ") for row in rows), (value, shown)


def run_rows(screen: RateScreen) -> int:
    return screen.query_one("#rate-run").scrollable_content_region.height


@pytest.mark.parametrize("size", SIZES)
async def test_the_run_pane_takes_most_of_the_height(tmp_path: Path, size) -> None:  # type: ignore[no-untyped-def]
    app = make_app(copy_sample(tmp_path))
    async with app.run_test(size=size) as pilot:
        screen = await open_session(pilot)
        assert run_rows(screen) >= bar(size[1])
        # every anchor of the dimension the next key scores is on screen, and every dimension
        top = screen.query_one("#rate-rubric").region.y
        assert_rubric_whole(screen_text(app).splitlines()[top:])
        # mid-item, with a note: still so
        await pilot.press("4", "3", "n", *"thin tests", "enter")
        await pilot.pause()
        assert run_rows(screen) >= bar(size[1])
        top = screen.query_one("#rate-rubric").region.y
        assert_rubric_whole(screen_text(app).splitlines()[top:])
        assert "thin tests" in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_what_a_step_says_takes_one_line_and_its_tooltip_the_whole(
    tmp_path: Path, size
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(copy_sample(tmp_path))
    async with app.run_test(size=size) as pilot:
        screen = await open_session(pilot)
        await pilot.press(*"43434")
        await wait_until(pilot, lambda: not screen.busy and screen.status.startswith("Saved"))
        await pilot.pause()
        status = screen.query_one("#rate-status")
        assert status.outer_size.height == 1
        assert status.tooltip == screen.status
        assert "line 1 of fixtures/ratings/me.jsonl" in screen.status
        assert run_rows(screen) >= bar(size[1]) - 1


async def test_on_one_line_the_dimension_being_scored_is_never_cut(tmp_path: Path) -> None:
    """The last dimension highlighted at 80 columns: the others give way (names shortened), not
    the one the next key scores."""
    app = make_app(copy_sample(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_session(pilot)
        await pilot.press(*"4343")
        await pilot.pause()
        shown = screen_text(app)
        assert "▶ communication " in shown or shown.count("▶ communication\n")
        assert "✓ corr" in shown and " 4 " in shown
