"""An item's diagnostics; Enter opens the editor at the diagnostic's line."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.widgets.badges import ERROR_MARK, WARNING_MARK
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.diagnostics import Diagnostic, Severity

_MARK = {
    Severity.ERROR: (ERROR_MARK, "bold red"),
    Severity.WARNING: (WARNING_MARK, "bold yellow"),
    Severity.INFO: ("i", "cyan"),
}


def diagnostic_text(d: Diagnostic) -> Text:
    mark, style = _MARK[d.severity]
    text = Text()
    text.append(f"{mark} ", style=style)
    where = (
        f"{d.line}:{d.column}"
        if d.line is not None and d.column is not None
        else (str(d.line) if d.line else "-")
    )
    text.append(f"{where:>7} ", style="dim")
    text.append(f"{d.severity.value} ", style=style)
    text.append(f"{d.code}: ", style="bold")
    text.append(d.message)
    return text


def diagnostic_line(d: Diagnostic) -> str:
    return f"{d.location()}: {d.severity.value} {d.code}: {d.message}"


class DiagnosticsList(KeyList):
    HELP = """
## Diagnostics

Every problem of the selected file. `enter` opens the editor at its line; {diagnostics.copy}
copies it.
"""

    BINDINGS = bindings("diagnostics")

    class Open(Message):
        def __init__(self, source: DiagnosticsList, diagnostic: Diagnostic) -> None:
            super().__init__()
            self.source = source
            self.diagnostic = diagnostic

        @property
        def control(self) -> DiagnosticsList:
            return self.source

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.diagnostics: list[Diagnostic] = []

    def show(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        self.clear_options()
        if diagnostics:
            self.add_options([Option(diagnostic_text(d)) for d in diagnostics])
            self.highlighted = 0
        else:
            self.add_option(Option(Text("✓ no problems", style="green"), disabled=True))

    def current(self) -> Diagnostic | None:
        index = self.highlighted
        if index is None or not self.diagnostics or index >= len(self.diagnostics):
            return None
        return self.diagnostics[index]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.diagnostics):
            self.post_message(self.Open(self, self.diagnostics[event.option_index]))

    def action_copy_diagnostic(self) -> None:
        diagnostic = self.current()
        if diagnostic is not None:
            # Paths and messages quote the workspace: copied on one line, as they are shown.
            self.app.copy_to_clipboard(printable(diagnostic_line(diagnostic), lines=False))
            self.app.notify("Diagnostic copied", timeout=2)
