"""The editor: the file in a TextArea, diagnostics as you type, atomic save that refuses to
overwrite a file changed behind it, and a guard before unsaved work is dropped."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from typing import Any

from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Static, TextArea

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.modals import save_conflict, unsaved_changes
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.marked_text_area import MarkedTextArea
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.editing import (
    FileConflict,
    OpenedFile,
    OpenError,
    open_file,
    save_file,
    unified_diff,
)
from voyage_tui.engine.validation.buffer import check_buffer
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.workspace.model import Workspace

LINT_DELAY = 0.25
"""Seconds of quiet typing before the buffer is re-checked."""


EDITOR_LANGUAGES = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".md": "markdown",
    ".toml": "toml",
}
"""Highlighting by file suffix; a test checks each of these highlights without crashing."""


def _language(rel: str) -> str | None:
    return EDITOR_LANGUAGES.get(os.path.splitext(rel)[1])


class EditorScreen(VoyageScreen[None]):
    SCOPE = "editor"
    BINDINGS = bindings("editor")
    HELP = """
## Editor

{editor.save} save (atomic; refused if the file changed on disk) ·
{editor.next-diagnostic} / {editor.previous-diagnostic} next / previous diagnostic ·
{editor.external} open in $EDITOR · {editor.close} back.
"""

    def __init__(self, rel: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__()
        self.rel = rel
        self.start = (max((line or 1) - 1, 0), max((column or 1) - 1, 0))
        self.opened: OpenedFile | None = None
        self.diagnostics: list[Diagnostic] = []
        self._lint_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(self.rel, id="editor-title")
        with Vertical(id="editor-body"):
            yield MarkedTextArea.code_editor(
                "", language=_language(self.rel), id="editor-text", soft_wrap=True
            )
            yield DiagnosticsList(id="editor-diagnostics")
        yield KeyFooter()

    @property
    def text_area(self) -> MarkedTextArea:
        return self.query_one("#editor-text", MarkedTextArea)

    @property
    def dirty(self) -> bool:
        return self.opened is not None and self.text_area.text != self.opened.text

    def on_mount(self) -> None:
        self.text_area.read_only = True
        self.load()

    # --- loading -------------------------------------------------------------------------

    def load(self) -> None:
        ws = self.app.ws
        self.run_in_thread(lambda: self._open(ws), self._show_loaded)

    def _open(self, ws: Workspace) -> OpenedFile | Diagnostic:
        try:
            return open_file(ws, self.rel)
        except OpenError as exc:
            return exc.diagnostic

    def _show_loaded(self, loaded: OpenedFile | Diagnostic) -> None:
        # (dropped by run_in_thread when the editor was left before the file was read)
        if isinstance(loaded, Diagnostic):
            self._show_open_error(loaded)
        else:
            self._show_opened(loaded)

    def _show_open_error(self, diagnostic: Diagnostic) -> None:
        self.query_one("#editor-title", Static).update(
            f"{self.rel}: cannot edit: {diagnostic.message}"
        )
        self.query_one(DiagnosticsList).show([diagnostic])

    def _show_opened(self, opened: OpenedFile) -> None:
        self.opened = opened
        area = self.text_area
        area.read_only = False
        area.load_text(opened.text)
        line = min(self.start[0], max(area.document.line_count - 1, 0))
        area.move_cursor((line, self.start[1]), center=True)
        area.focus()
        self._update_title()
        self.lint()

    def _update_title(self) -> None:
        mark = " ●  unsaved" if self.dirty else ""
        self.query_one("#editor-title", Static).update(f"{self.rel}{mark}")

    # --- live diagnostics ----------------------------------------------------------------

    @on(TextArea.Changed, "#editor-text")
    def _changed(self) -> None:
        self._update_title()
        if self._lint_timer is not None:
            self._lint_timer.stop()
        self._lint_timer = self.set_timer(LINT_DELAY, self._lint_due)

    def _lint_due(self) -> None:
        self._lint_timer = None
        self.lint()

    @property
    def lint_pending(self) -> bool:
        """A re-check is waiting for the typing to pause: the diagnostics shown are stale."""
        return self._lint_timer is not None

    def suite_loaded(self, view: SuiteView) -> None:
        if self.opened is not None and not self.diagnostics:
            self.lint()  # opened while the files were checked: checked now

    def lint(self) -> None:
        """Re-check the text as it is now; only the newest re-check's diagnostics are shown
        (and none once the editor is left)."""
        view = self.app.view
        if view is None or self.gone:
            return
        text = self.text_area.text
        self.run_in_thread(
            lambda: check_buffer(view.ws, view.refs, view.items, self.rel, text),
            self.show_diagnostics,
            key="lint",
        )

    def show_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        self.query_one(DiagnosticsList).show(diagnostics)
        self.text_area.set_marks(diagnostics)

    # --- saving --------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.opened is None:
            return
        self.save(force=False)

    @work(thread=True, exclusive=True, group="editor-io")
    def save(self, force: bool, after: Callable[[], None] | None = None) -> None:
        opened = self.opened
        if opened is None:
            return
        text = self.app.call_from_thread(lambda: self.text_area.text)
        try:
            saved = save_file(self.app.ws, opened, text, force=force)
        except FileConflict as exc:
            self.app.call_from_thread(self._conflict, exc.disk_text, text)
            return
        except Exception as exc:
            # Whatever the reason (the file became unreadable, too large or a symlink out, the
            # disk is full, the writer refused), the buffer stays as typed and says so.
            self.app.call_from_thread(self._not_saved, exc)
            return
        self.app.call_from_thread(self._saved, saved, after)

    def _not_saved(self, error: Exception) -> None:
        self.app.notify(
            f"Not saved: {error}. Your changes are still here, unsaved.",
            title=self.rel,
            severity="error",
            timeout=15,
            markup=False,
        )

    def _saved(self, saved: OpenedFile, after: Callable[[], None] | None = None) -> None:
        self.opened = saved
        self._update_title()
        self.app.notify(f"Saved {self.rel}", timeout=2)
        self.app.revalidate_paths({self.rel})
        if after is not None:
            after()

    def _conflict(self, disk: str | None, mine: str) -> None:
        diff = unified_diff(disk or "", mine, f"{self.rel} (disk)", f"{self.rel} (yours)")

        def decided(choice: str | None) -> None:
            if choice == "reload":
                self.load()
            elif choice == "keep":
                self.save(force=True)

        self.app.push_screen(save_conflict(self.rel, diff), decided)

    # --- leaving -------------------------------------------------------------------------

    def action_close(self) -> None:
        self.leave(then=lambda: None)

    def leave(self, then: Callable[[], None]) -> None:
        """Pop this screen, asking first when there is unsaved work."""

        def go() -> None:
            self.app.navigation.back(self)  # to the screen that opened this one
            then()

        if not self.dirty:
            go()
            return

        def decided(choice: str | None) -> None:
            if choice == "discard":
                go()
            elif choice == "save":
                self.save(force=False, after=go)

        self.app.push_screen(unsaved_changes(self.rel), decided)

    # --- navigation ----------------------------------------------------------------------

    def _jump(self, forward: bool) -> None:
        lines = sorted({d.line for d in self.diagnostics if d.line is not None})
        if not lines:
            return
        here = self.text_area.cursor_location[0] + 1
        if forward:
            target = next((n for n in lines if n > here), lines[0])
        else:
            target = next((n for n in reversed(lines) if n < here), lines[-1])
        column = next((d.column or 1 for d in self.diagnostics if d.line == target), 1)
        self.text_area.move_cursor((target - 1, column - 1), center=True)
        self.text_area.focus()

    def action_next_diagnostic(self) -> None:
        self._jump(True)

    def action_previous_diagnostic(self) -> None:
        self._jump(False)

    def action_focus_diagnostics(self) -> None:
        self.query_one(DiagnosticsList).focus()

    @on(DiagnosticsList.Open)
    def _open_diagnostic(self, event: DiagnosticsList.Open) -> None:
        d = event.diagnostic
        if d.line is not None:
            self.text_area.move_cursor((d.line - 1, (d.column or 1) - 1), center=True)
        self.text_area.focus()

    # --- outside editor ------------------------------------------------------------------

    def action_external_editor(self) -> None:
        if self.dirty:
            self.app.notify(
                "Save or discard your changes before opening $EDITOR", severity="warning"
            )
            return
        run_external_editor(self.app, self.app.ws.abs(self.rel))
        self.load()


LINE_PLUS = frozenset(
    {
        "vi",
        "vim",
        "nvim",
        "gvim",
        "view",
        "nano",
        "emacs",
        "emacsclient",
        "micro",
        "kak",
        "joe",
        "mg",
        "ne",
        "pico",
    }
)
"""Editors that open a file at a line given as `+LINE` before it."""
LINE_COLON = frozenset({"hx", "helix", "subl", "sublime_text", "zed"})
"""Editors that open `FILE:LINE`."""
LINE_GOTO = frozenset({"code", "codium", "code-insiders", "cursor"})
"""Editors that open `--goto FILE:LINE`."""


def editor_command(editor: str, path: str, line: int | None = None) -> list[str]:
    """The command that opens `path` in `editor` (a $EDITOR value, with its own arguments),
    at `line` when the editor is one known to take a line; others get the file alone."""
    words = shlex.split(editor) or ["vi"]
    name = os.path.basename(words[0])
    if line is None or line < 1:
        return [*words, path]
    if name in LINE_PLUS:
        return [*words, f"+{line}", path]
    if name in LINE_COLON:
        return [*words, f"{path}:{line}"]
    if name in LINE_GOTO:
        return [*words, "--goto", f"{path}:{line}"]
    return [*words, path]


def run_external_editor(app: App[Any], path: str, line: int | None = None) -> None:
    """Suspend the app, run $VISUAL/$EDITOR on the file (at `line`, where the editor takes
    one: see editor_command), come back."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        with app.suspend():
            subprocess.run(editor_command(editor, path, line), check=False)
    except Exception as exc:
        app.notify(f"Could not run {editor}: {exc}", severity="error")
