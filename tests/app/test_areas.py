"""The app's areas are Textual modes, each with its own stack (app/navigation.py): what must reach
every screen still does when the screen's area is not the one on screen. The suite's events
reach a hidden area, quitting asks an editor left open in another area, and crash recovery
writes its buffer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.support import make_app, wait_loaded, wait_until
from tests.app.triage_steps import open_triage
from tests.conftest import task_yaml
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.screens.triage import TriageScreen

TASK = "fixtures/bug-diagnosis/alpha/task.yaml"


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace({TASK: task_yaml("alpha")})


async def test_a_hidden_area_hears_the_suite_and_escape_walks_back_through_the_areas(
    root: Path,
) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        assert app.current_mode == "browse"
        queue = await open_triage(pilot, git=False)
        assert app.current_mode == "triage"
        assert not any(i.kind == "error" for i in queue.shown)
        app.action_rate_session()
        await wait_until(pilot, lambda: isinstance(app.screen, RateScreen))
        assert app.current_mode == "rate"
        assert queue not in app.screen_stack and not queue.gone  # hidden, not closed
        before = queue.queue
        (root / TASK).write_text(task_yaml("alpha").replace("bug-diagnosis", "bug-diagnosys"))
        app.revalidate_paths({TASK})
        await wait_until(
            pilot,
            lambda: queue.queue is not before and any(i.kind == "error" for i in queue.shown),
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is queue)
        assert app.current_mode == "triage"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        assert app.current_mode == "browse"
        assert queue.gone
        assert [type(s).__name__ for s in app.navigation.every_screen()[1:]] == ["BrowserScreen"]


async def test_quitting_asks_the_editor_left_open_in_another_area(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path(TASK)
        await pilot.press("e")
        await wait_until(
            pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.opened is not None
        )
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        await pilot.press(*"# unsaved ")
        await wait_until(pilot, lambda: editor.dirty)
        app.action_triage()  # the palette's "Triage queue", over the editor
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen))
        # Crash recovery writes the buffer of the editor in the browser's area.
        assert app.unsaved_buffers() == [(TASK, editor.text_area.text)]
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert app.is_running
        assert app.screen_stack[-2] is editor  # the question is the editor's
        await pilot.press("c")
        await pilot.pause()
        assert app.is_running and app.screen is editor
    assert path.read_text() == task_yaml("alpha")
