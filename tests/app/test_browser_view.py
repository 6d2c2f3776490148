"""The browser over the engine's view: keys on the tree, the filter's edges, next error on
suite-level errors, labels that fit, and the gold detail's table."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual import events

from tests.app.scenarios import GOLD, TRAJECTORY, copy_sample
from tests.app.support import make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from tests.fast_textual import draw_screen
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.detail_pane import DetailPane, gold_widgets
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.suite_tree import LabelParts, fit_label
from voyage_tui.engine.details import load_detail
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import EntryKind, view_of

ALPHA = "fixtures/bug-diagnosis/alpha/task.yaml"
B1 = "fixtures/bug-diagnosis/b1/task.yaml"
B2 = "fixtures/refactor/b2/task.yaml"


@pytest.fixture
def suite_root(make_workspace) -> Path:
    return make_workspace(
        {
            ALPHA: task_yaml("alpha"),
            B1: task_yaml("b1").replace("expected_boundary: unit", "expected_boundary: unitt"),
            "fixtures/refactor/rename-module/task.yaml": task_yaml(
                "rename-module", "refactor"
            ).replace(
                "Fix the off-by-one in the pagination helper.",
                "Rename the storage module without behaviour change.",
            ),
            B2: task_yaml("b2", "refactor").replace("visibility: public", "visibility: secret"),
        }
    )


def _detail_text(browser) -> str:  # type: ignore[no-untyped-def]
    pane = browser.query_one(DetailPane)
    return " ".join(str(getattr(w, "content", "")) for w in pane.children)


# --- right and left ----------------------------------------------------------------------------


async def test_right_opens_a_group_and_enters_it_left_goes_back_and_closes(
    suite_root: Path,
) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.suite_tree
        group = tree._groups["class:bug-diagnosis"]
        tree.move_cursor(group)
        await pilot.pause()
        assert not group.is_expanded
        await pilot.press("right")
        assert group.is_expanded
        await pilot.press("right")
        assert tree.current_path() == ALPHA  # the group's first row
        await pilot.press("left")
        assert tree.cursor_node is group  # back to the group
        await pilot.press("left")
        assert not group.is_expanded
        assert tree.cursor_node is group


async def test_j_k_g_shift_g_h_l_move_in_the_tree_and_the_diagnostics(suite_root: Path) -> None:
    """The keys every list of the app moves with, as triage's and lazygit's do (issue 22)."""
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.suite_tree
        tree.focus()
        group = tree._groups["class:bug-diagnosis"]
        tree.move_cursor(group)
        await pilot.pause()
        await pilot.press("l")
        assert group.is_expanded
        await pilot.press("l")
        assert tree.current_path() == ALPHA
        await pilot.press("j")
        assert tree.current_path() == B1
        await pilot.press("k")
        assert tree.current_path() == ALPHA
        await pilot.press("h")
        assert tree.cursor_node is group
        await pilot.press("h")
        assert not group.is_expanded
        await pilot.press("G")
        assert tree.cursor_line == tree.last_line
        await pilot.press("g")
        assert tree.cursor_line == 0
        tree.move_cursor(group)
        await pilot.press("l", "l", "j")  # b1, which has a diagnostic
        listing = browser.query_one(DiagnosticsList)
        await wait_until(pilot, lambda: listing.option_count > 0)
        listing.focus()
        listing.highlighted = listing.option_count - 1
        await pilot.press("g")
        assert listing.highlighted == 0
        await pilot.press("G")
        assert listing.highlighted == listing.option_count - 1
        await pilot.press("k")
        assert listing.highlighted == max(listing.option_count - 2, 0)


@pytest.mark.parametrize("opening", ["right", "space"])
async def test_a_key_typed_ahead_after_opening_a_group_lands_in_it(
    suite_root: Path, opening: str
) -> None:
    """Keys typed faster than the app draws (a terminal delivers them in one read) are taken in
    order: `down` right after the group opens goes to its first row, not past the group. The
    rows used to be added when Textual's "expanded" message came, after the queued key."""
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.suite_tree
        tree.focus()
        group = tree._groups["class:bug-diagnosis"]
        tree.move_cursor(group)
        await pilot.pause()
        for key in (opening, "down"):  # both queued before either is handled
            app.post_message(events.Key(key, " " if key == "space" else None))
        await wait_until(pilot, lambda: tree.cursor_node is not group)
        await pilot.pause()
        assert tree.current_path() == ALPHA


# --- the filter ---------------------------------------------------------------------------------


async def test_a_filter_with_no_match_says_so_and_clears_the_detail(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n")  # b1: its detail and its problems show
        listing = browser.query_one(DiagnosticsList)
        await wait_until(pilot, lambda: bool(listing.diagnostics))
        await wait_until(pilot, lambda: "b1" in _detail_text(browser))
        await pilot.press("slash", *"zzz")
        await wait_until(pilot, lambda: browser.suite_tree.needle == "zzz")
        note = browser.query_one("#no-match")
        await wait_until(pilot, lambda: note.display and "zzz" in str(note.content))
        assert "No item matches" in str(note.content)
        await wait_until(pilot, lambda: "b1" not in _detail_text(browser))
        assert listing.diagnostics == []
        # and once something matches again, the note goes
        await pilot.press("escape")
        await wait_until(pilot, lambda: not note.display)


async def test_clearing_a_filter_with_no_match_from_a_group_leaves_no_stale_detail(
    suite_root: Path,
) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.current_entry() is None  # on a group: no item selected
        await pilot.press("slash", *"zzz")
        await wait_until(pilot, lambda: "no item matches" in _detail_text(browser))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not browser.query_one("#no-match").display)
        await wait_until(pilot, lambda: "Select an item" in _detail_text(browser))
        assert "no item matches" not in _detail_text(browser)


async def test_the_no_match_note_names_the_key_as_the_keymap_has_it(suite_root: Path) -> None:
    from voyage_tui.app.app import VoyageApp
    from voyage_tui.engine.workspace.model import Workspace

    keymap = {"browser.clear-filter": "f4"}
    app = VoyageApp(
        Workspace.load(suite_root), AppSettings(use_git=False, watch=False, keymap=keymap)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("slash", *"zzz")
        note = browser.query_one("#no-match")
        await wait_until(pilot, lambda: note.display and "zzz" in str(note.content))
        assert "(f4 clears the filter)" in str(note.content)
        await pilot.press("f4")
        await wait_until(pilot, lambda: not note.display)


async def test_escape_leaves_the_cursor_where_it_was(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n", "n")
        assert browser.suite_tree.current_path() == B2
        for needle in ("zzz", "storage"):  # nothing listed; b2 not listed
            await pilot.press("slash", *needle)
            await wait_until(pilot, lambda n=needle: browser.suite_tree.needle == n)
            await pilot.press("escape")
            await wait_until(pilot, lambda: browser.suite_tree.needle == "")
            assert browser.suite_tree.current_path() == B2, needle
            assert browser.suite_tree.has_focus


async def test_escape_keeps_an_item_picked_in_the_filtered_list(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n", "n")
        await pilot.press("slash", *"rename")
        await wait_until(pilot, lambda: browser.suite_tree.needle == "rename")
        await pilot.press("enter")  # to the tree
        assert browser.suite_tree.select_path("fixtures/refactor/rename-module/task.yaml")
        await pilot.press("escape")
        await wait_until(pilot, lambda: browser.suite_tree.needle == "")
        assert browser.suite_tree.current_path() == "fixtures/refactor/rename-module/task.yaml"


# --- next error ------------------------------------------------------------------------------------


async def test_next_error_stops_on_a_suite_level_error(make_workspace) -> None:
    broken = task_yaml("b1").replace("expected_boundary: unit", "expected_boundary: unitt")
    root = make_workspace({B1: broken}, coverage=False)
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        listing = browser.query_one(DiagnosticsList)
        await pilot.press("n")
        assert browser.suite_tree.current_path() == B1
        await pilot.press("n")
        assert browser.suite_tree.current_entry() == "fixtures"  # no adversarial fixture: the suite
        await wait_until(
            pilot, lambda: any(d.code == "adversarial-coverage" for d in listing.diagnostics)
        )
        await pilot.press("n")
        assert browser.suite_tree.current_path() == B1  # and round again
        await pilot.press("N")
        assert browser.suite_tree.current_entry() == "fixtures"


async def test_a_detail_replaced_while_it_is_being_cleared_leaves_the_app_running(
    suite_root: Path,
) -> None:
    # Filtering and moving the cursor replace the detail render (an exclusive worker): one
    # cancelled while it waits for the old widgets to go must not cancel their removal, which
    # the app awaits too (a CancelledError there ends the app silently and hangs its exit).
    import asyncio

    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        pane = browser.query_one(DetailPane)
        await pane.show_detail(None, empty="first")
        render = asyncio.create_task(pane.show_detail(None, empty="second"))
        await asyncio.sleep(0)  # the render is now waiting for the old widgets to be removed
        render.cancel()
        await pilot.pause()
        await pilot.pause()
        assert app.is_running
        await pane.show_detail(None, empty="third")
        await wait_until(pilot, lambda: "third" in _detail_text(browser))


# --- labels that fit -------------------------------------------------------------------------------


def test_a_long_name_is_cut_with_an_ellipsis_and_the_marks_stay() -> None:
    from rich.text import Text

    parts = LabelParts(Text("✓ "), Text("canary-promotion-error-budget"), Text("  holdout"))
    label = fit_label(parts, 24)
    assert str(label) == "✓ canary-promo…  holdout"
    assert label.cell_len == 24
    assert str(fit_label(parts, 80)) == "✓ canary-promotion-error-budget  holdout"


async def test_a_label_fits_beside_the_tree_scrollbar_at_80x24(tmp_path: Path) -> None:
    # The sample's tree (a Ratings group included) is taller than 24 lines: the scrollbar takes
    # cells from the labels, and a cut name still ends in the ellipsis rather than under it.
    root = copy_sample(tmp_path)
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.suite_tree
        assert tree.select_path(TRAJECTORY)
        await wait_until(pilot, lambda: tree.show_vertical_scrollbar)
        await pilot.pause()
        visible = tree.scrollable_content_region.width
        assert visible < tree.size.width
        draw_screen(app)  # the tests skip the frames a headless app throws away
        line = tree.render_line(tree.cursor_line - tree.scroll_offset.y).text
        assert line[:visible].rstrip().endswith("…"), line


# --- the gold detail's tables ----------------------------------------------------------------------


@pytest.mark.parametrize("width", [46, 75, 120])
def test_the_gold_tables_use_the_width_they_have(tmp_path: Path, width: int) -> None:
    root = copy_sample(tmp_path)
    suite = Suite.open(root, use_git=False)
    view = view_of(suite)
    detail = load_detail(view.ws, view.refs.journey.value, view.items[GOLD])
    console = Console(width=width, record=True, color_system=None)
    for widget in gold_widgets(detail):
        console.print(getattr(widget, "content", ""))
    text = console.export_text()
    assert "…" not in text  # nothing cut: a long value folds onto another line instead
    assert max(len(line.rstrip()) for line in text.splitlines()) <= width
    table = [line for line in text.splitlines() if "│" in line]
    if table:  # laid out as a table: as wide as the pane, not narrower
        assert {len(line) for line in table} == {width}
    else:  # too narrow for six columns: one finding per entry, each path whole
        for path in ("package.json", "src/middleware/require-auth.ts", "src/routes/login.ts"):
            assert path in text, path


# --- nothing selected, and a filter's empty groups (issue 22 item 8) ---------------------------


async def test_with_no_item_selected_the_detail_says_how_to_select_one(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.current_entry() is None  # on the Fixtures group
        await wait_until(pilot, lambda: "Select an item with j/k" in _detail_text(browser))
        assert "enter" in _detail_text(browser)
        await pilot.press("n")  # b1
        await wait_until(pilot, lambda: "b1" in _detail_text(browser))
        await pilot.press("h")  # back to its group: nothing selected again
        await wait_until(pilot, lambda: browser.suite_tree.current_entry() is None)
        await wait_until(pilot, lambda: "Select an item with j/k" in _detail_text(browser))
        assert "b1" not in _detail_text(browser)


async def test_a_filter_shows_no_group_with_nothing_in_it(suite_root: Path) -> None:
    app = make_app(suite_root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("slash", *"storage")  # rename-module only
        tree = browser.suite_tree
        await wait_until(pilot, lambda: tree.needle == "storage")
        await pilot.pause()
        shown = [str(node.label) for node in tree.root.children]
        # no open Trajectories with nothing in it, no "Gold corpora 0"; the workspace's own
        # problems are listed whatever the filter
        assert shown == ["Fixtures", "Workspace"], shown

        def walk(node):  # type: ignore[no-untyped-def]
            for child in node.children:
                yield child
                yield from walk(child)

        for node in walk(tree.root):
            if node.data is not None and node.data.kind is EntryKind.GROUP:
                assert node.children and node.allow_expand, f"{node.label}: empty"
