"""Browser flows driven with the pilot: filter, next error, live reload from disk."""

from __future__ import annotations

import gc
import warnings
from pathlib import Path

import pytest
from textual.app import App

from tests.app.support import header_text, make_app, wait_loaded, wait_until, watching
from tests.conftest import task_yaml
from voyage_tui.app.widgets.suite_tree import SuiteTree


def _paths_listed(tree: SuiteTree) -> list[str]:
    out = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if node.data is not None and node.data.kind == "item":
            out.append(node.data.key)
        stack.extend(reversed(list(node.children)))
    return out


@pytest.fixture
def suite_root(make_workspace) -> Path:
    broken = task_yaml("b1").replace("expected_boundary: unit", "expected_boundary: unitt")
    return make_workspace(
        {
            "fixtures/bug-diagnosis/alpha/task.yaml": task_yaml("alpha"),
            "fixtures/bug-diagnosis/b1/task.yaml": broken,
            "fixtures/refactor/rename-module/task.yaml": task_yaml(
                "rename-module", "refactor"
            ).replace(
                "Fix the off-by-one in the pagination helper.",
                "Rename the storage module without behaviour change.",
            ),
            "fixtures/refactor/b2/task.yaml": task_yaml("b2", "refactor").replace(
                "visibility: public", "visibility: secret"
            ),
        }
    )


async def test_header_counts_the_suite_in_words(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        text = header_text(app)
        assert "6 fixtures" in text
        assert "2 errors" in text
        assert "0 holdouts" in text


async def test_filter_by_prompt_text_shows_only_matches(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("slash")
        await pilot.press(*"storage")
        await wait_until(pilot, lambda: browser.suite_tree.needle == "storage")
        assert _paths_listed(browser.suite_tree) == ["fixtures/refactor/rename-module/task.yaml"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: browser.suite_tree.needle == "")
        assert browser.suite_tree.has_focus


async def test_next_error_walks_the_items_with_errors_and_wraps(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n")
        assert browser.suite_tree.current_path() == "fixtures/bug-diagnosis/b1/task.yaml"
        await pilot.press("n")
        assert browser.suite_tree.current_path() == "fixtures/refactor/b2/task.yaml"
        await pilot.press("n")
        assert browser.suite_tree.current_path() == "fixtures/bug-diagnosis/b1/task.yaml"
        await pilot.press("N")
        assert browser.suite_tree.current_path() == "fixtures/refactor/b2/task.yaml"


async def test_selecting_an_item_lists_its_diagnostics(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n")
        from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList

        listing = browser.query_one("#item-diagnostics", DiagnosticsList)
        await wait_until(
            pilot, lambda: any(d.code == "invalid-boundary" for d in listing.diagnostics)
        )


async def test_a_file_broken_on_disk_updates_tree_and_header_without_a_key(
    suite_root: Path,
) -> None:
    app = make_app(suite_root, watch=True)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert "2 errors" in header_text(app)
        await wait_until(pilot, lambda: watching(app))
        path = suite_root / "fixtures/bug-diagnosis/alpha/task.yaml"
        path.write_text(path.read_text().replace("class: bug-diagnosis", "class: bug-diagnosys"))
        await wait_until(pilot, lambda: "3 errors" in header_text(app), timeout=10)
        assert browser.suite_tree.select_path("fixtures/bug-diagnosis/alpha/task.yaml")
        label = str(browser.suite_tree.cursor_node.label)
        assert label.startswith("✗")
        # and fixing it clears it again
        path.write_text(path.read_text().replace("class: bug-diagnosys", "class: bug-diagnosis"))
        await wait_until(pilot, lambda: "2 errors" in header_text(app), timeout=10)


async def test_copy_path_puts_the_selected_path_on_the_clipboard(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await pilot.press("n", "c")
        assert app.clipboard == "fixtures/bug-diagnosis/b1/task.yaml"


async def test_enter_on_a_diagnostic_opens_the_editor_at_its_line(suite_root: Path) -> None:
    from voyage_tui.app.screens.editor import EditorScreen
    from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList

    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n")  # fixtures/bug-diagnosis/b1: invalid-boundary on line 5
        listing = browser.query_one("#item-diagnostics", DiagnosticsList)
        await wait_until(
            pilot, lambda: any(d.code == "invalid-boundary" for d in listing.diagnostics)
        )
        await pilot.press("d", "enter")
        await wait_until(
            pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.opened is not None
        )
        editor = app.screen
        assert editor.rel == "fixtures/bug-diagnosis/b1/task.yaml"
        assert editor.text_area.cursor_location == (4, len("expected_boundary: "))


def test_opening_a_path_without_a_workspace_exits_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "voyage_tui", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "no workspace found" in out.stderr


async def test_a_detail_render_replaced_before_it_starts_leaves_no_coroutine_behind(
    suite_root: Path,
) -> None:
    # Each render runs in an exclusive worker: one replaced before it started was a coroutine
    # never awaited (a RuntimeWarning in CI's log), now it is never created.
    app = make_app(suite_root)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test(size=(120, 40)) as pilot:
            browser = await wait_loaded(pilot)
            for path in ("not-an-item-1", "not-an-item-2", "not-an-item-3"):
                browser.show_item(path)
            await pilot.pause()
            gc.collect()
        gc.collect()
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []


async def test_keys_typed_in_one_burst_after_slash_all_go_to_the_filter(
    suite_root: Path,
) -> None:
    """A paste or a fast typist: the keys after `/` are queued before the filter has focus;
    every one of them goes into the filter, none to the tree (`e` would open the editor)."""
    from textual.widgets import Input

    from voyage_tui.app.screens.editor import EditorScreen

    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        _burst(app, ["slash", *"storage"])
        await wait_until(pilot, lambda: browser.suite_tree.needle == "storage")
        assert browser.query_one("#filter", Input).value == "storage"
        assert not any(isinstance(s, EditorScreen) for s in app.screen_stack)
        assert _paths_listed(browser.suite_tree) == ["fixtures/refactor/rename-module/task.yaml"]


def _burst(app: App[object], keys: list[str]) -> None:
    """Send keys as a terminal delivers a paste: all queued at once, with no wait for the app
    to handle one before the next (pilot.press waits for idle after each key)."""
    from textual import events

    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, "/" if key == "slash" else key)
        event.set_sender(app)
        driver.send_message(event)


async def test_a_slash_typed_in_the_filter_is_part_of_the_filter(suite_root: Path) -> None:
    from textual.widgets import Input

    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("slash", *"refactor", "slash")
        assert browser.query_one("#filter", Input).value == "refactor/"
