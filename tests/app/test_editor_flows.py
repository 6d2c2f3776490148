"""Editor flows: diagnostics as you type, atomic save, conflicts refused, unsaved work guarded."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from tests.app.support import header_text, make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.engine.diagnostics import Diagnostic

TASK = "fixtures/bug-diagnosis/alpha/task.yaml"


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace({TASK: task_yaml("alpha")})


async def _open_editor(pilot) -> EditorScreen:
    browser = await wait_loaded(pilot)
    assert browser.suite_tree.select_path(TASK)
    await pilot.press("e")
    await wait_until(
        pilot,
        lambda: isinstance(pilot.app.screen, EditorScreen) and pilot.app.screen.opened is not None,
    )
    return pilot.app.screen  # type: ignore[return-value]


async def test_diagnostics_follow_the_keystrokes(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        assert editor.diagnostics == [] or all(
            d.severity.value != "error" for d in editor.diagnostics
        )
        area = editor.text_area
        area.move_cursor((1, len("class: bug-diagnosis")))
        await pilot.press("x")
        await wait_until(pilot, lambda: any(d.code == "invalid-class" for d in editor.diagnostics))
        bad = next(d for d in editor.diagnostics if d.code == "invalid-class")
        assert (bad.line, bad.column) == (2, 8)
        assert area.marks.get(1) is not None  # the line is marked
        await pilot.press("backspace")
        await wait_until(
            pilot, lambda: not any(d.code == "invalid-class" for d in editor.diagnostics)
        )
        assert area.marks.get(1) is None
        # nothing reached the disk while typing
        assert (root / TASK).read_text() == task_yaml("alpha")


def _underlined_rows(editor: EditorScreen) -> list[int]:
    """Rows of the text area as drawn (through its line cache), whose text is underlined."""
    area = editor.text_area
    return [
        y
        for y in range(area.document.line_count)
        if any(s.style is not None and s.style.underline for s in area.render_line(y))
    ]


async def test_the_marks_drawn_follow_the_diagnostics_when_typing_stops(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        area = editor.text_area
        area.cursor_blink = False  # nothing else redraws the lines meanwhile
        area.move_cursor((1, len("class: bug-diagnosis")))
        await pilot.press("x")
        await wait_until(pilot, lambda: area.marks.get(1) is not None)
        await pilot.pause()
        assert _underlined_rows(editor) == [1]
        area.move_cursor((0, 0))
        await pilot.press("enter")  # the error moves down a line; its mark follows the re-check
        await wait_until(pilot, lambda: area.marks.get(2) is not None and not editor.lint_pending)
        await pilot.pause()
        assert _underlined_rows(editor) == [2]


async def test_save_writes_the_buffer_atomically_and_keeps_the_mode(root: Path) -> None:
    path = root / TASK
    os.chmod(path, 0o640)
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        editor.text_area.move_cursor((2, len("prompt: ")))
        await pilot.press(*"Please ")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.dirty)
        assert path.read_text().startswith("id: alpha\nclass: bug-diagnosis\nprompt: Please Fix")
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        assert not any(p.name.endswith(".tmp") for p in path.parent.iterdir())


async def test_save_refuses_to_overwrite_a_file_changed_on_disk(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        theirs = path.read_text().replace("visibility: public", "visibility: holdout")
        path.write_text(theirs)
        editor.text_area.move_cursor((0, 0))
        await pilot.press(*"# mine", "enter")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert path.read_text() == theirs  # refused: nothing was overwritten
        await pilot.press("c")  # cancel: keep editing, nothing written
        await wait_until(pilot, lambda: app.screen is editor)
        assert path.read_text() == theirs and editor.dirty
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("k")  # keep mine: overwrite on purpose
        await wait_until(pilot, lambda: not editor.dirty)
        assert path.read_text().startswith("# mine\n")
        assert "visibility: public" in path.read_text()


async def test_conflict_reload_takes_the_disk_version(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        theirs = path.read_text() + "adversarial_intent: x\n"
        path.write_text(theirs)
        await pilot.press(*"# mine ")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: app.screen is editor and editor.text_area.text == theirs)
        assert not editor.dirty
        assert path.read_text() == theirs


async def test_leaving_with_unsaved_changes_asks_first(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        await pilot.press(*"# unsaved ")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")  # cancel: still editing
        await wait_until(pilot, lambda: app.screen is editor)
        assert editor.dirty
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")  # discard
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        assert path.read_text() == task_yaml("alpha")


async def test_unsaved_guard_save_choice_saves_then_leaves(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_editor(pilot)
        await pilot.press(*"# kept", "enter")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        assert path.read_text().startswith("# kept\n")


async def test_a_re_check_that_ends_after_the_editor_closed_is_dropped(root: Path) -> None:
    # The re-check runs in a thread; leaving the editor (escape, or save and leave) can remove
    # its widgets before the result is handed back to it.
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        await app.workers.wait_for_complete()
        late = list(editor.diagnostics)
        # A re-check as `lint` starts one, held until the editor has closed.
        gate, started = threading.Event(), threading.Event()

        def held() -> list[Diagnostic]:
            started.set()
            assert gate.wait(10)
            return late

        editor.run_in_thread(held, editor.show_diagnostics, key="lint")
        await wait_until(pilot, started.is_set)
        await pilot.press("escape")  # nothing unsaved: the editor closes at once
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        await pilot.pause()
        gate.set()  # the late result: dropped, not a crash
        await wait_until(pilot, lambda: editor.working == 0)


async def test_quitting_with_unsaved_changes_asks_first(root: Path) -> None:
    path = root / TASK
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_editor(pilot)
        await pilot.press(*"# unsaved ")
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert app.is_running
        await pilot.press("c")
        await pilot.pause()
        assert app.is_running
    assert path.read_text() == task_yaml("alpha")


async def test_fixing_an_error_in_the_editor_clears_it_from_the_header_on_save(
    make_workspace,
) -> None:
    broken = task_yaml("alpha").replace("class: bug-diagnosis", "class: bug-diagnosys")
    root = make_workspace({TASK: broken})
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _open_editor(pilot)
        assert "1 error" in header_text(app)
        await wait_until(pilot, lambda: any(d.code == "invalid-class" for d in editor.diagnostics))
        editor.text_area.move_cursor((1, len("class: bug-diagnosys")))
        await pilot.press("backspace", "backspace", "i", "s")
        await wait_until(pilot, lambda: not editor.diagnostics)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "0 errors" in header_text(app))


def _cursor_in_view(editor: EditorScreen) -> bool:
    """The cursor's row is inside the text area's visible rows (soft wrap off or on, the row
    the cursor is drawn on, from the wrapped document's offsets)."""
    area = editor.text_area
    row, column = area.cursor_location
    _, y = area.wrapped_document.location_to_offset((row, column))
    top = round(area.scroll_offset.y)
    return top <= y < top + area.scrollable_content_region.height


async def test_the_line_being_typed_stays_in_view_when_the_problems_grow(
    make_workspace,
) -> None:
    notes = "".join(f"# note {n}\n" for n in range(40))  # longer than the screen
    root = make_workspace({TASK: notes + task_yaml("alpha")})
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await _open_editor(pilot)
        area = editor.text_area
        await wait_until(pilot, lambda: not editor.lint_pending)
        await pilot.pause(0.3)
        before = len(editor.diagnostics)
        pane = editor.query_one("#editor-diagnostics")
        pane_before = pane.size.height
        # The cursor on the last row shown, as when typing at the bottom of the view.
        area.scroll_to(y=0, animate=False)
        area.move_cursor((area.scrollable_content_region.height - 1, 0))
        await pilot.pause()
        assert _cursor_in_view(editor)
        # Typed in one go (the re-check waits for a pause): the lines break the YAML, and the
        # problem's message takes more rows than "no problems" did, under the line being typed.
        await pilot.press(*[k for n in range(6) for k in (*f"zz{n}: [", "enter")])
        await wait_until(pilot, lambda: len(editor.diagnostics) > before)
        await wait_until(pilot, lambda: pane.size.height > pane_before)  # the text area shrank
        # (waited for, not asserted at once: the scroll follows the layout; on a loaded machine
        # a few frames later. Without it the cursor stays under the pane for good.)
        await wait_until(pilot, lambda: _cursor_in_view(editor))
