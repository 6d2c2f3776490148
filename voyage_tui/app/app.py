"""The Textual app: loads the suite in a worker, watches the workspace, routes results to screens."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.widgets import HelpPanel

from voyage_tui.app.commands import VoyageCommands
from voyage_tui.app.keymap import load_keymap
from voyage_tui.app.messages import LoadFailed, LoadProgress, SuiteChanged, SuiteLoaded
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import SuiteView, view_of
from voyage_tui.engine.workspace.model import Workspace

STYLES = Path(__file__).parent / "styles"


class VoyageApp(App[int]):
    TITLE = "voyage-tui"
    CSS_PATH = [STYLES / "app.tcss", STYLES / "browser.tcss", STYLES / "editor.tcss"]
    COMMANDS = App.COMMANDS | {VoyageCommands}
    BINDINGS = [
        Binding("f1", "toggle_help", "Help", id="app.help"),
        Binding("question_mark", "toggle_help", "Help", show=False, id="app.help-alt"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(
        self,
        ws: Workspace,
        *,
        use_git: bool = True,
        watch: bool = True,
        keymap: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.ws = ws
        self.use_git = use_git
        self.watch_files = watch
        self.view: SuiteView | None = None
        self._suite: Suite | None = None
        self._suite_lock = threading.Lock()
        self._stop_watching = threading.Event()
        self._keymap = keymap

    # --- start-up ------------------------------------------------------------------------

    def on_mount(self) -> None:
        keymap, problem = (self._keymap, None) if self._keymap is not None else load_keymap()
        if keymap:
            self.set_keymap(keymap)
        if problem:
            self.notify(problem, severity="warning")
        self.push_screen(BrowserScreen())
        self.load_suite()

    @work(thread=True, exclusive=True, group="suite")
    def load_suite(self) -> None:
        try:
            suite = Suite(self.ws, use_git=self.use_git)
            suite.validate_all(progress=lambda done, total: self.post_message(LoadProgress(done, total)))
            with self._suite_lock:
                self._suite = suite
                view = view_of(suite)
        except Exception as exc:  # noqa: BLE001 - shown, never a crash of the UI
            self.post_message(LoadFailed(repr(exc)))
            return
        self.post_message(SuiteLoaded(view))
        if self.watch_files:
            self.watch_workspace()

    @work(thread=True, group="watch")
    def watch_workspace(self) -> None:
        from voyage_tui.app.watcher import watch_workspace

        watch_workspace(self.ws.root, self._files_changed, self._stop_watching)

    def _files_changed(self, paths: set[str]) -> None:
        self.call_from_thread(self.revalidate_paths, paths)

    def on_unmount(self) -> None:
        self._stop_watching.set()

    # --- re-validation -------------------------------------------------------------------

    def revalidate_paths(self, paths: set[str]) -> None:
        if self._suite is not None and paths:
            self._revalidate(frozenset(paths))

    @work(thread=True, group="revalidate")
    def _revalidate(self, paths: frozenset[str]) -> None:
        with self._suite_lock:
            suite = self._suite
            if suite is None:
                return
            touched = suite.revalidate(paths)
            view = view_of(suite)
        self.post_message(SuiteChanged(view, touched))

    def action_revalidate_all(self) -> None:
        self.load_suite()

    # --- messages to screens -------------------------------------------------------------

    def _screens(self) -> list[Any]:
        return [s for s in self.screen_stack]

    def on_load_progress(self, message: LoadProgress) -> None:
        for screen in self._screens():
            if hasattr(screen, "load_progress"):
                screen.load_progress(message.done, message.total)

    def on_suite_loaded(self, message: SuiteLoaded) -> None:
        self.view = message.view
        for screen in self._screens():
            if hasattr(screen, "suite_loaded"):
                screen.suite_loaded(message.view)

    def on_suite_changed(self, message: SuiteChanged) -> None:
        self.view = message.view
        for screen in self._screens():
            if hasattr(screen, "suite_changed"):
                screen.suite_changed(message.view, message.touched)

    def on_load_failed(self, message: LoadFailed) -> None:
        self.notify(f"Loading the workspace failed: {message.error}", severity="error", timeout=30)

    # --- actions shared by screens and the command palette --------------------------------

    def browser(self) -> BrowserScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, BrowserScreen):
                return screen
        return None

    def action_browser_action(self, name: str) -> None:
        browser = self.browser()
        if browser is None:
            return
        while self.screen is not browser:
            self.pop_screen()
        getattr(browser, f"action_{name}")()

    def reveal(self, path: str) -> None:
        browser = self.browser()
        if browser is None:
            return
        while self.screen is not browser:
            self.pop_screen()
        if browser.tree.select_path(path):
            browser.tree.focus()
            browser.show_item(path)

    def open_item(self, path: str) -> bool:
        """Open an item in its own screen when it has one (diffs, later); False: use the editor."""
        return False

    def extra_actions(self) -> list[tuple[str, str, str]]:
        return []

    def action_toggle_help(self) -> None:
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    async def action_quit(self) -> None:
        editors = [s for s in self.screen_stack if isinstance(s, EditorScreen) and s.dirty]
        if not editors:
            self.exit(0)
            return
        editor = editors[-1]
        while self.screen is not editor:
            self.pop_screen()
        editor.leave(then=self.action_quit_after_leave)

    def action_quit_after_leave(self) -> None:
        self.run_worker(self.action_quit(), exclusive=True, group="quit")
