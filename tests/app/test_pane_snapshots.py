"""Readable panes, pinned (issue 19 item 8): a run with a wide table at 80x24 and 120x40, scrolled
to its last column too; a maximised pane; the browser's detail of a task whose context holds
code blocks. Like tests/app/test_snapshots.py, shots are taken once the app is idle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from tests.app.scenarios import copy_sample, idle, scenario_app, select, wait_for
from voyage_tui.app.screens.rate import PaneScroll, RateScreen

TABLE_RUN = ("review-report-filter-sql", "run-a1")
CONTEXT_TASK = "fixtures/review-finding/review-report-filter-sql/task.yaml"


async def _session(pilot: Pilot) -> RateScreen:
    await select(pilot, CONTEXT_TASK)
    screen = RateScreen("me", clock=lambda: 0.0, start_at=TABLE_RUN)
    pilot.app.push_screen(screen)
    await wait_for(pilot, lambda: screen.state is not None and not screen.busy)
    await idle(pilot)
    return screen


async def _table_in_view(pilot: Pilot) -> None:
    screen = await _session(pilot)
    pane = screen.query_one("#rate-run", PaneScroll)
    pane.scroll_to_widget(pane.query_one(".table"), animate=False, top=True, immediate=True)
    await idle(pilot)


async def _table_last_column(pilot: Pilot) -> None:
    await _table_in_view(pilot)
    pane = pilot.app.screen.query_one("#rate-run", PaneScroll)
    pane.scroll_to(x=pane.max_scroll_x, animate=False, immediate=True)
    await idle(pilot)


async def _maximised(pilot: Pilot) -> None:
    await _table_in_view(pilot)
    await pilot.press("z")
    await idle(pilot)


async def _detail(pilot: Pilot) -> None:
    browser = await select(pilot, CONTEXT_TASK)
    detail = browser.query_one("#detail")
    detail.scroll_to_widget(detail.query(".code").first(), animate=False, immediate=True)
    await idle(pilot)


SHOTS: list[tuple[str, tuple[int, int], Callable[[Pilot], Awaitable[None]]]] = [
    ("wide-table-80x24", (80, 24), _table_in_view),
    ("wide-table-80x24-scrolled", (80, 24), _table_last_column),
    ("wide-table-120x40", (120, 40), _table_in_view),
    ("wide-table-120x40-scrolled", (120, 40), _table_last_column),
    ("maximised-run-80x24", (80, 24), _maximised),
    ("maximised-run-120x40", (120, 40), _maximised),
    ("detail-context-code", (120, 40), _detail),
]


@pytest.mark.parametrize(("name", "size", "steps"), SHOTS, ids=[s[0] for s in SHOTS])
def test_pane(name: str, size: tuple[int, int], steps, snap_compare, tmp_path) -> None:
    app = scenario_app(copy_sample(tmp_path))
    assert snap_compare(app, terminal_size=size, run_before=steps)
