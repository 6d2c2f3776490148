"""A code editor that tints the lines holding diagnostics, so errors show while typing."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import TextArea

from voyage_tui.engine.diagnostics import Diagnostic, Severity

_TINT = {
    Severity.ERROR: Style(bgcolor="#5f0000", underline=True),
    Severity.WARNING: Style(bgcolor="#5f5f00"),
    Severity.INFO: Style(bgcolor="#00303f"),
}


class MarkedTextArea(TextArea):
    HELP = """
## The text

Diagnostics update as you type; marked lines hold them (red: error, yellow: warning).
"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.marks: dict[int, Severity] = {}

    async def _on_key(self, event: events.Key) -> None:
        # TextArea's code-editor mode spends escape on moving focus; here escape leaves the
        # editor (the screen's binding), so skip TextArea's own handling of it.
        if event.key == "escape":
            event.prevent_default()

    def on_resize(self) -> None:
        # The problems pane below grows as diagnostics come in and takes rows from the text;
        # TextArea keeps its scroll offset on a resize, which would leave the line being typed
        # under the pane. While the person works here (focus), the cursor line stays in view.
        # (TextArea's own _on_resize re-wraps first; this runs after the refresh it causes.)
        if self.has_focus:
            self.call_after_refresh(self.scroll_cursor_visible)

    def set_marks(self, diagnostics: list[Diagnostic]) -> None:
        marks: dict[int, Severity] = {}
        for d in diagnostics:
            if d.line is None:
                continue
            index = d.line - 1
            if index not in marks or d.severity.rank < marks[index].rank:
                marks[index] = d.severity
        if marks != self.marks:
            self.marks = marks
            # TextArea keeps drawn lines in a cache keyed on cursor, selection, scroll and
            # theme, not on these marks: without emptying it, lines keep the old tints until an
            # edit, so a re-check arriving after the typing stops would not show.
            self.notify_style_update()
            self.refresh()

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        severity = self.marks.get(line_index)
        if severity is not None:
            line.stylize(_TINT[severity], 0, max(len(line), 1))
        return line
