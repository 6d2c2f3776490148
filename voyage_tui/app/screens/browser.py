"""The browser: the whole suite at a glance, each item's fields and problems beside it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input, LoadingIndicator, Static, Tree
from textual.worker import Worker

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.editor import EditorScreen, run_external_editor
from voyage_tui.app.widgets.detail_pane import DetailPane
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.app.widgets.suite_header import SuiteHeader
from voyage_tui.app.widgets.suite_tree import NodeRef, SuiteTree
from voyage_tui.engine.details import Detail, load_detail
from voyage_tui.engine.validation.first_screen import FirstScreen
from voyage_tui.engine.validation.view import EntryKind, SuiteView

FILTER_DELAY = 0.15


class BrowserScreen(VoyageScreen[None]):
    SCOPE = "browser"
    BINDINGS = bindings("browser")
    HELP = """
## Browser

{browser.filter} filter by id or prompt · {browser.next-error} / {browser.previous-error}
next / previous item with an error · {browser.edit} edit · {browser.external-editor} open in
$EDITOR · {browser.diagnostics} the item's problems · {browser.copy-path} copy its path ·
`enter` opens a run's diff or a gold file's ranked runs ({browser.runs}) · {browser.retire}
retires a holdout (makes it public) · {browser.rate} rates agent runs (the rater
session) · {browser.triage} the triage queue · {browser.add} adds a fixture (the creation
wizard) · `ctrl+p` every action.
"""

    def __init__(self) -> None:
        super().__init__()
        self.view: SuiteView | None = None
        self._filter_timer: Timer | None = None
        self._shown_path: str | None = None
        self._no_match_shown = False
        """The detail says the filter matches nothing (to be cleared once something does)."""
        self._note: str | None = None
        """What the detail says instead of an item's fields (None while it shows an item)."""

    def compose(self) -> ComposeResult:
        yield SuiteHeader(id="suite-header")
        with Horizontal(id="browser-body"):
            with Vertical(id="browser-left"):
                yield Input(placeholder="/ filter by id or prompt", id="filter")
                yield Static("", id="no-match")
                yield LoadingIndicator(id="loading")
                yield SuiteTree(id="suite-tree")
            with Vertical(id="browser-right"):
                yield DetailPane(id="detail")
                yield DiagnosticsList(id="item-diagnostics")
        yield KeyFooter()

    @property
    def suite_tree(self) -> SuiteTree:
        # Not `tree`: that name is Textual's DOMNode.tree (a debug view of the DOM).
        return self.query_one(SuiteTree)

    def on_mount(self) -> None:
        self.suite_tree.display = False
        self.query_one("#no-match").display = False
        self.query_one(SuiteHeader).show_loading(0, 0, str(self.app.ws.root.name))
        view = self.app.view
        if view is not None:
            self.suite_loaded(view)
        elif self.app.live.listed is not None:
            self.suite_listed(self.app.live.listed, *self.app.load_done)
        elif self.app.first_screen is not None:
            self.show_first_screen(self.app.first_screen)

    # --- suite updates (called by the app) ------------------------------------------------

    def load_progress(self, done: int, total: int) -> None:
        if self.view is not None and self.view.checking:
            self.query_one(SuiteHeader).show_checking(self.view, done, total)
            return
        if self.view is None and self.suite_tree.display:
            return  # the recorded first screen stays, "checking…", until the suite is loaded
        self.query_one(SuiteHeader).show_loading(done, total, str(self.app.ws.root.name))

    @property
    def checking(self) -> bool:
        """The tree shows the listing while the files are checked (or nothing yet)."""
        return self.view is None or self.view.checking

    def _needs_results(self) -> bool:
        """True (and the person told "checking") when an action needs every file checked."""
        return self.checking and self.app.checking()

    def suite_listed(self, view: SuiteView, done: int, total: int) -> None:
        """The listing, then each batch of checked files, while the first load runs: the tree
        to move in, filter and open files from; counts and badges fill in as files are
        checked. A loaded suite shown already is never replaced by it."""
        if self.view is not None and not self.view.checking:
            return
        first = self.view is None
        self.view = view
        self.query_one("#loading").display = False
        tree = self.suite_tree
        tree.display = True
        self.query_one(SuiteHeader).show_checking(view, done, total)
        if first:
            tree.show_view(view, self.query_one("#filter", Input).value)
            if tree.cursor_node is None or tree.cursor_line < 0:
                tree.cursor_line = 0
            box = self.query_one("#filter", Input)
            if not (box.has_focus and box.value):  # (not away from a filter being typed)
                tree.focus()
        else:
            tree.apply_change(view, set())
        self._show_matches()

    def load_failed(self) -> None:
        first = self.app.first_screen
        if self.view is None and first is not None:
            # The record stays on screen, but it will not be checked: say so, not "checking…".
            self.query_one(SuiteHeader).show_first_screen(
                first, str(self.app.ws.root.name), note="not checked: loading failed"
            )

    def show_first_screen(self, first: FirstScreen) -> None:
        """The header and the tree's groups as the last run recorded them, until the suite is
        loaded (suite_loaded); the groups open once their items are there."""
        self.query_one("#loading").display = False
        tree = self.suite_tree
        tree.display = True
        self.query_one(SuiteHeader).show_first_screen(first, str(self.app.ws.root.name))
        tree.show_first_screen(first)
        tree.focus()

    def suite_loaded(self, view: SuiteView) -> None:
        listing = self.view is not None and self.view.checking
        self.view = view
        self.query_one("#loading").display = False
        tree = self.suite_tree
        tree.display = True
        self.query_one(SuiteHeader).show_view(view)
        tree.show_view(view, self.query_one("#filter", Input).value)
        if tree.cursor_node is None or tree.cursor_line < 0:
            tree.cursor_line = 0
        if not (listing and self.query_one("#filter", Input).has_focus):
            tree.focus()  # (not away from a filter typed while the files were checked)
        if not self._show_matches():
            if listing and self._shown_path is not None:
                self.show_item(self._shown_path, force=True)  # its problems, now checked
            elif tree.current_entry() is None:
                self._show_select_note()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        self.view = view
        self.query_one(SuiteHeader).show_view(view)
        self.suite_tree.apply_change(view, touched)
        if self._show_matches():
            return
        if self._shown_path is not None and (
            self._shown_path in touched or self._shown_path not in view.items
        ):
            self.show_item(self._shown_path, force=True)

    def _show_matches(self) -> bool:
        """Say so when the filter matches nothing, and clear the detail: nothing is selected.
        True when nothing matches."""
        tree = self.suite_tree
        note = self.query_one("#no-match", Static)
        empty = bool(tree.needle) and tree.listing is not None and tree.listing.matched == 0
        note.display = empty
        if not empty:
            return False
        clear = self.app.key_text("browser.clear-filter") or "escape"  # as the keymap has it
        note.update(Text(f"No item matches “{tree.needle}” ({clear} clears the filter)"))
        self._show_nothing("Nothing to show: no item matches.")
        self._no_match_shown = True
        return True

    def select_note(self) -> str:
        """What the detail says with no item selected: how to select one, with the keys as the
        keymap has them."""
        down = (self.app.key_names("tree.down") or ["down"])[0]
        up = (self.app.key_names("tree.up") or ["up"])[0]
        return f"Select an item with {down}/{up}, enter to open it."

    def _show_select_note(self) -> None:
        note = self.select_note()
        if self._note != note:
            self._show_nothing(note)

    def _show_nothing(self, note: str) -> None:
        """No item selected: the detail says `note`, the problems list is empty."""
        self._shown_path = None
        self._no_match_shown = False
        self._note = note
        self.query_one(DiagnosticsList).show([])
        self._render_in_worker(None, empty=note)

    def _render_in_worker(
        self, detail: Detail | None, routing_table: str = "", *, empty: str = ""
    ) -> None:
        """`empty`: the line shown when `detail` is None (every such caller gives its own)."""
        pane = self.query_one(DetailPane)

        async def render() -> None:
            await pane.show_detail(detail, routing_table, empty=empty)

        # A coroutine function, not a coroutine: a render superseded before it starts
        # (exclusive) is then never created, rather than left as a coroutine never awaited.
        worker: Worker[None] = self.run_worker(render, exclusive=True, group="detail-render")
        del worker  # typed, so mypy binds the worker's result to None

    # --- selection and detail -------------------------------------------------------------

    @on(Tree.NodeHighlighted, "#suite-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        data = event.node.data
        if data is None or self.view is None:
            return
        if data.kind is EntryKind.GROUP:
            if not self._no_match_shown:
                self._show_select_note()  # not the fields of the item the cursor left
            return
        self.show_item(data.key)

    @on(Tree.NodeSelected, "#suite-tree")
    def _selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        data = event.node.data
        if data is None or data.kind is EntryKind.GROUP or self.view is None:
            return
        self.open_item(data.key)

    def open_item(self, path: str) -> None:
        """Enter on an item: runs open their diff where one exists, everything else the editor."""
        if self.app.open_item(path):
            return
        self.app.push_screen(EditorScreen(path))

    def show_item(self, path: str, force: bool = False) -> None:
        if path == self._shown_path and not force:
            return
        self._shown_path = path
        self._no_match_shown = False
        self._note = None
        view = self.view
        if view is None:
            return
        self.query_one(DiagnosticsList).show(view.diagnostics_for(path))
        item = view.items.get(path)
        if item is None:
            note = (
                f"{path}: what is wrong with the workspace or the suite as a whole is listed below."
                if path in view.by_path
                else self.select_note()
            )
            self._note = note
            self._render_in_worker(None, empty=note)
            return
        self.load_detail(item.path)

    def load_detail(self, path: str) -> None:
        """Read the item's detail; shown only if it is the newest asked for and the cursor is
        still on that item."""
        view = self.view
        if view is None or path not in view.items:
            return
        item = view.items[path]

        self.run_in_thread(
            lambda: load_detail(view.ws, view.refs.journey.value, item),
            lambda detail: self._render_detail(detail, view.refs.routing_table.value),
            key="detail",
            stale=lambda: path != self._shown_path,
        )

    def _render_detail(self, detail: Detail, routing_table: str) -> None:
        self._render_in_worker(detail, routing_table)

    # --- actions -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`/` typed in the filter is a character of the filter, not the filter key again."""
        if action == "filter":
            return not self.query_one("#filter", Input).has_focus
        return True

    def action_filter(self) -> None:
        # Focus now, not with widget.focus() (a later callback): the keys of a burst after `/`
        # are already queued in the app, and each goes to whatever has focus when its turn
        # comes. The binding is a priority one so this runs in that same order.
        self.set_focus(self.query_one("#filter", Input))

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        if box.value:
            box.value = ""
        self.suite_tree.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DELAY, self._apply_filter)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self._apply_filter()
        self.suite_tree.focus()

    def _apply_filter(self) -> None:
        if self.view is not None:
            self.suite_tree.show_view(self.view, self.query_one("#filter", Input).value)
            if not self._show_matches():
                entry = self.suite_tree.current_entry()
                if entry is not None:
                    self.show_item(entry)
                elif self._no_match_shown:
                    # On a group, after a filter that matched nothing: its note goes too.
                    self._show_nothing(self.select_note())

    def _jump_to_error(self, forward: bool) -> None:
        if self.view is None or self._needs_results():
            return
        target = self.suite_tree.find_error(forward)
        if target is None:
            self.notify("Nothing has an error", timeout=2)
            return
        self.suite_tree.select_path(target)
        self.suite_tree.focus()
        self.show_item(target)

    def action_next_error(self) -> None:
        self._jump_to_error(True)

    def action_previous_error(self) -> None:
        self._jump_to_error(False)

    def _selected_path(self) -> str | None:
        node = self.suite_tree.cursor_node
        if node is None or node.data is None or node.data.kind is EntryKind.GROUP:
            return None
        return node.data.key

    def action_edit(self) -> None:
        path = self._selected_path()
        if path is not None:
            self.app.push_screen(EditorScreen(path))

    def action_external_editor(self) -> None:
        path = self._selected_path()
        if path is not None:
            run_external_editor(self.app, self.app.ws.abs(path))
            self.app.revalidate_paths({path})

    def action_retire(self) -> None:
        if self._needs_results():
            return
        path = self._selected_path()
        item = self.view.items.get(path) if self.view is not None and path else None
        if item is None or item.visibility != "holdout":
            self.notify("Select a holdout fixture to retire it", timeout=3)
            return
        self.app.retire_holdout(item.path)

    def action_triage(self) -> None:
        if self._needs_results():
            return
        self.app.action_triage()

    def action_add_fixture(self) -> None:
        if self._needs_results():
            return
        self.app.action_new_fixture()

    def action_runs(self) -> None:
        if self._needs_results():
            return
        self.app.action_runs_command()

    def action_rate(self) -> None:
        if self._needs_results():
            return
        self.app.action_rate_session()

    def action_results(self) -> None:
        """The results (unblinded: the lead's view; only the browser and its palette open it)."""
        if self._needs_results():
            return
        self.app.navigation.results()

    def action_focus_diagnostics(self) -> None:
        if self._needs_results():
            return
        self.query_one(DiagnosticsList).focus()

    def action_focus_tree(self) -> None:
        self.suite_tree.focus()

    def action_copy_path(self) -> None:
        path = self._selected_path()
        if path is not None:
            # The name was chosen by whoever wrote the branch: a line break pasted into a
            # terminal runs what follows it. Copied as the screen shows it, on one line.
            shown = printable(path, lines=False)
            self.app.copy_to_clipboard(shown)
            self.notify(f"Copied {shown}", timeout=2, markup=False)

    @on(DiagnosticsList.Open, "#item-diagnostics")
    def _open_diagnostic(self, event: DiagnosticsList.Open) -> None:
        d = event.diagnostic
        self.app.push_screen(EditorScreen(d.path, d.line, d.column))
