"""The browser: the whole suite at a glance, each item's fields and problems beside it."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, LoadingIndicator, Static, Tree

from voyage_tui.app.resilience import GuardedMessages
from voyage_tui.app.screens.editor import EditorScreen, run_external_editor
from voyage_tui.app.widgets.detail_pane import DetailPane
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.suite_header import SuiteHeader
from voyage_tui.app.widgets.suite_tree import NodeRef, SuiteTree
from voyage_tui.engine.details import Detail, load_detail
from voyage_tui.engine.validation.view import SuiteView

FILTER_DELAY = 0.15


class BrowserScreen(GuardedMessages, Screen[None]):
    HELP = """
## Browser

`/` filter by id or prompt · `n` / `N` next / previous item with an error ·
`e` edit · `E` open in $EDITOR · `d` the item's problems · `c` copy its path ·
`enter` opens a run's diff or a gold file's ranked runs (`r`) · `R` retires a holdout
(makes it public) · `ctrl+p` every action.
"""

    BINDINGS = [
        Binding("slash", "filter", "Filter", id="browser.filter"),
        Binding("n", "next_error", "Next error", id="browser.next-error"),
        Binding("N", "previous_error", "Prev error", id="browser.previous-error", show=False),
        Binding("e", "edit", "Edit", id="browser.edit"),
        Binding("E", "external_editor", "$EDITOR", id="browser.external-editor", show=False),
        Binding("d", "focus_diagnostics", "Problems", id="browser.diagnostics"),
        Binding("t", "focus_tree", "Tree", id="browser.tree", show=False),
        Binding("c", "copy_path", "Copy path", id="browser.copy-path"),
        Binding("r", "runs", "Runs", id="browser.runs", show=False),
        Binding("R", "retire", "Retire holdout", id="browser.retire", show=False),
        Binding("escape", "clear_filter", "Clear filter", id="browser.clear-filter", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: SuiteView | None = None
        self._filter_timer: Timer | None = None
        self._shown_path: str | None = None

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
        yield Footer()

    @property
    def tree(self) -> SuiteTree:
        return self.query_one(SuiteTree)

    def on_mount(self) -> None:
        self.tree.display = False
        self.query_one("#no-match").display = False
        self.query_one(SuiteHeader).show_loading(0, 0, str(self.app.ws.root.name))  # type: ignore[attr-defined]
        view = self.app.view  # type: ignore[attr-defined]
        if view is not None:
            self.suite_loaded(view)

    # --- suite updates (called by the app) ------------------------------------------------

    def load_progress(self, done: int, total: int) -> None:
        self.query_one(SuiteHeader).show_loading(done, total, str(self.app.ws.root.name))  # type: ignore[attr-defined]

    def suite_loaded(self, view: SuiteView) -> None:
        self.view = view
        self.query_one("#loading").display = False
        tree = self.tree
        tree.display = True
        self.query_one(SuiteHeader).show_view(view)
        tree.show_view(view, self.query_one("#filter", Input).value)
        if tree.cursor_node is None or tree.cursor_line < 0:
            tree.cursor_line = 0
        tree.focus()
        self._show_matches()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        self.view = view
        self.query_one(SuiteHeader).show_view(view)
        self.tree.apply_change(view, touched)
        if self._show_matches():
            return
        if self._shown_path is not None and (
            self._shown_path in touched or self._shown_path not in view.items
        ):
            self.show_item(self._shown_path, force=True)

    def _show_matches(self) -> bool:
        """Say so when the filter matches nothing, and clear the detail: nothing is selected.
        True when nothing matches."""
        tree = self.tree
        note = self.query_one("#no-match", Static)
        empty = bool(tree.needle) and tree.listing is not None and tree.listing.matched == 0
        note.display = empty
        if not empty:
            return False
        note.update(Text(f"No item matches “{tree.needle}” (escape clears the filter)"))
        self._shown_path = None
        self.query_one(DiagnosticsList).show([])
        self.run_worker(
            self.query_one(DetailPane).show_detail(None, empty="Nothing to show: no item matches."),
            exclusive=True,
            group="detail-render",
        )
        return True

    # --- selection and detail -------------------------------------------------------------

    @on(Tree.NodeHighlighted, "#suite-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        data = event.node.data
        if data is None or data.kind == "group":
            return
        self.show_item(data.key)

    @on(Tree.NodeSelected, "#suite-tree")
    def _selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        data = event.node.data
        if data is None or data.kind == "group":
            return
        self.open_item(data.key)

    def open_item(self, path: str) -> None:
        """Enter on an item: runs open their diff where one exists, everything else the editor."""
        opener = getattr(self.app, "open_item", None)
        if opener is not None and opener(path):
            return
        self.app.push_screen(EditorScreen(path))

    def show_item(self, path: str, force: bool = False) -> None:
        if path == self._shown_path and not force:
            return
        self._shown_path = path
        view = self.view
        if view is None:
            return
        self.query_one(DiagnosticsList).show(view.diagnostics_for(path))
        item = view.items.get(path)
        if item is None:
            note = (
                f"{path}: what is wrong with the workspace or the suite as a whole is listed below."
                if path in view.by_path
                else "Select an item in the tree."
            )
            self.run_worker(
                self.query_one(DetailPane).show_detail(None, empty=note),
                exclusive=True,
                group="detail-render",
            )
            return
        self.load_detail(item.path)

    @work(thread=True, exclusive=True, group="detail")
    def load_detail(self, path: str) -> None:
        view = self.view
        if view is None or path not in view.items:
            return
        detail = load_detail(view.ws, view.refs.journey.value, view.items[path])
        self.app.call_from_thread(self._render_detail, detail, view.refs.routing_table.value)

    def _render_detail(self, detail: Detail, routing_table: str) -> None:
        if detail.item.path != self._shown_path:
            return
        self.run_worker(
            self.query_one(DetailPane).show_detail(detail, routing_table),
            exclusive=True,
            group="detail-render",
        )

    # --- actions -------------------------------------------------------------------------

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        if box.value:
            box.value = ""
        self.tree.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DELAY, self._apply_filter)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self._apply_filter()
        self.tree.focus()

    def _apply_filter(self) -> None:
        if self.view is not None:
            self.tree.show_view(self.view, self.query_one("#filter", Input).value)
            if not self._show_matches():
                entry = self.tree.current_entry()
                if entry is not None:
                    self.show_item(entry)

    def _jump_to_error(self, forward: bool) -> None:
        if self.view is None:
            return
        target = self.tree.find_error(forward)
        if target is None:
            self.notify("Nothing has an error", timeout=2)
            return
        self.tree.select_path(target)
        self.tree.focus()
        self.show_item(target)

    def action_next_error(self) -> None:
        self._jump_to_error(True)

    def action_previous_error(self) -> None:
        self._jump_to_error(False)

    def _selected_path(self) -> str | None:
        node = self.tree.cursor_node
        if node is None or node.data is None or node.data.kind == "group":
            return None
        return node.data.key

    def action_edit(self) -> None:
        path = self._selected_path()
        if path is not None:
            self.app.push_screen(EditorScreen(path))

    def action_external_editor(self) -> None:
        path = self._selected_path()
        if path is not None:
            run_external_editor(self.app, self.app.ws.abs(path))  # type: ignore[attr-defined]
            self.app.revalidate_paths({path})  # type: ignore[attr-defined]

    def action_retire(self) -> None:
        path = self._selected_path()
        item = self.view.items.get(path) if self.view is not None and path else None
        if item is None or item.visibility != "holdout":
            self.notify("Select a holdout fixture to retire it", timeout=3)
            return
        self.app.retire_holdout(item.path)  # type: ignore[attr-defined]

    def action_runs(self) -> None:
        self.app.action_runs_command()  # type: ignore[attr-defined]

    def action_focus_diagnostics(self) -> None:
        self.query_one(DiagnosticsList).focus()

    def action_focus_tree(self) -> None:
        self.tree.focus()

    def action_copy_path(self) -> None:
        path = self._selected_path()
        if path is not None:
            self.app.copy_to_clipboard(path)
            self.notify(f"Copied {path}", timeout=2)

    @on(DiagnosticsList.Open, "#item-diagnostics")
    def _open_diagnostic(self, event: DiagnosticsList.Open) -> None:
        d = event.diagnostic
        self.app.push_screen(EditorScreen(d.path, d.line, d.column))
