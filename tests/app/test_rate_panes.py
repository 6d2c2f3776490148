"""Readable panes (issue 19 item 8): a wide table in a run's output keeps its cells whole and the
pane scrolls sideways to its last column; `z` maximises the focused pane and restores it; the
task pane shows the fixture's context; the browser's detail pane keeps a context's code blocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Markdown

from tests.app.scenarios import copy_sample
from tests.app.support import make_app, wait_loaded, wait_until
from tests.fast_textual import screen_text
from voyage_tui.app.screens.rate import PaneScroll, RateScreen
from voyage_tui.app.widgets.detail_pane import DetailPane
from voyage_tui.app.widgets.readable import Wide, markdown_widgets

TABLE_RUN = ("review-report-filter-sql", "run-a1")
"""Its output is a Markdown table of five columns: #, Location, Rule, Severity, Finding."""
FILES_RUN = ("pagination-last-page-dropped", "run-a1")
"""Its task's context names three files."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def lines_of(widget: Widget) -> str:
    """What the widget draws, all of it, whatever part of it its pane shows."""
    width, height = widget.size
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, width, height)))


async def open_session(pilot, start_at: tuple[str, str]) -> RateScreen:
    await wait_loaded(pilot)
    screen = RateScreen("me", clock=lambda: 0.0, start_at=start_at)
    pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: screen.state is not None and not screen.busy)
    await wait_until(pilot, lambda: bool(screen.query_one("#rate-run").children))
    # Laid out: every table and code block has its size (drawn lines are read from them).
    await wait_until(pilot, lambda: all(w.size.height for w in screen.query(".code, .table")))
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_wide_table_keeps_its_cells_and_the_pane_scrolls_to_its_last_column(
    root: Path, size: tuple[int, int]
) -> None:
    app = make_app(root)
    async with app.run_test(size=size) as pilot:
        screen = await open_session(pilot, TABLE_RUN)
        pane = screen.query_one("#rate-run", PaneScroll)
        table = pane.query_one(".table")
        whole = lines_of(table)
        for cell in ("Location", "Rule", "Severity", "Finding", "sql-injection", "BLOCKER"):
            assert cell in whole
        assert "sql-injection" in whole and "…" not in whole  # no cell is cut
        assert "reports/queries.py:43" in whole
        # Wider than the pane: the pane scrolls sideways, it does not squeeze the table.
        assert table.outer_size.width > pane.scrollable_content_region.width
        assert pane.virtual_size.width >= table.outer_size.width
        assert pane.max_scroll_x > 0
        pane.scroll_to_widget(table, animate=False, immediate=True)
        await pilot.pause()
        # The last column's text is off to the right, then scrolled to.
        assert "password hashes" not in screen_text(app)
        pane.scroll_to(x=pane.max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        assert table.region.right <= pane.scrollable_content_region.right
        assert "password hashes" in screen_text(app)


async def test_the_panes_scroll_sideways_by_key(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_session(pilot, TABLE_RUN)
        pane = screen.query_one("#rate-run", PaneScroll)
        assert screen.focused is pane and pane.scroll_x == 0
        await pilot.press("greater_than_sign")
        await wait_until(pilot, lambda: pane.scroll_x > 0)
        await pilot.press("less_than_sign")
        await wait_until(pilot, lambda: pane.scroll_x == 0)


async def test_z_maximises_the_focused_pane_and_restores_it(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_session(pilot, TABLE_RUN)
        task = screen.query_one("#rate-task", PaneScroll)
        run = screen.query_one("#rate-run", PaneScroll)
        narrow = run.size.width
        assert "Prompt" in screen_text(app)
        await pilot.press("z")
        await wait_until(pilot, lambda: screen.maximized is run)
        await pilot.pause()
        assert run.size.width > narrow and run.outer_size.width == 80
        shown = screen_text(app)
        assert "Prompt" not in shown and "correctness" not in shown  # the task, the rubric
        assert "Output" in shown
        await pilot.press("z")
        await wait_until(pilot, lambda: screen.maximized is None)
        await pilot.pause()
        assert run.size.width == narrow and "Prompt" in screen_text(app)
        # The other pane, and escape restores it without leaving the session.
        await pilot.press("o")
        assert screen.focused is task
        await pilot.press("z")
        await wait_until(pilot, lambda: screen.maximized is task)
        await pilot.pause()
        assert "Prompt" in screen_text(app) and "Output" not in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: screen.maximized is None)
        assert app.screen is screen


async def test_a_maximised_pane_stays_so_for_the_next_pair(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_session(pilot, TABLE_RUN)
        run = screen.query_one("#rate-run", PaneScroll)
        await pilot.press("z")
        await wait_until(pilot, lambda: screen.maximized is run)
        first = screen.state.current if screen.state else None
        await pilot.press("s")
        await wait_until(
            pilot,
            lambda: not screen.busy and screen.state is not None and screen.state.current != first,
        )
        await pilot.pause()
        assert screen.maximized is run and screen.focused is run


async def test_the_task_pane_shows_the_context_with_its_code(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_session(pilot, TABLE_RUN)
        task = screen.query_one("#rate-task", PaneScroll)
        codes = [lines_of(w) for w in task.query(".code")]
        assert any(
            'def customer_report(db, name_filter: str | None, sort: str = "created_at", '
            "page: int = 1):" in c
            for c in codes
        )
        assert any('\n43          sql += f" WHERE name ILIKE' in c for c in codes)
        assert "review the diff below" in screen.state.content.task.prompt.lower()  # type: ignore[union-attr]


async def test_the_task_pane_shows_the_files_the_context_names(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_session(pilot, FILES_RUN)
        task = screen.query_one("#rate-task", PaneScroll)
        names = [lines_of(w) for w in task.query(".context-file")]
        assert [n.strip() for n in names] == [
            "file repo/src/catalog/pagination.py",
            "file repo/src/catalog/api.py",
            "file repo/tests/test_pagination.py",
        ]
        source = (
            root / "fixtures/bug-diagnosis/pagination-last-page-dropped/repo/src/catalog/"
            "pagination.py"
        ).read_text()
        first_line = next(line for line in source.splitlines() if line.strip())
        assert first_line.strip() in lines_of(task.query(".code").first())


async def test_the_browser_detail_keeps_a_contexts_code_block(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        path = "fixtures/review-finding/review-report-filter-sql/task.yaml"
        app.reveal(path)
        pane = app.screen.query_one(DetailPane)
        await wait_until(
            pilot,
            lambda: (
                len(pane.query(".code")) == 2 and all(w.size.height for w in pane.query(".code"))
            ),
        )
        codes = [lines_of(w) for w in pane.query(".code")]  # the two diffs, each its own block
        assert "40  def customer_report(db" in codes[0]
        assert "46      return db.execute(sql).fetchall()" in codes[0]
        assert '12  @require_role("analyst")' in codes[1]


def test_top_level_tables_and_code_come_out_of_the_markdown_in_order() -> None:
    text = (
        "Intro\n\n| a | b |\n|---|---|\n| `1` | 2 |\n\nMiddle\n\n```python\nx = 1\n```\n\n"
        "    indented = True\n\n- a list\n\n  | nested |\n  |---|\n  | stays |\n"
    )
    widgets = markdown_widgets(text)
    shape = [
        "table" if w.has_class("table") else "code" if w.has_class("code") else "md"
        for w in widgets
    ]
    assert shape == ["md", "table", "md", "code", "code", "md"]
    assert all(isinstance(widgets[i], Markdown) for i in (0, 2, 5))
    assert isinstance(widgets[1], Wide)
    assert markdown_widgets("  \n") == []
    assert len(markdown_widgets("", empty="*(no output)*")) == 1
