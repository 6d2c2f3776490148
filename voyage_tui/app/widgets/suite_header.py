"""The suite's counts as words, always current: `412 fixtures · 3 errors · 12 warnings · 9 holdouts`."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural


def header_text(view: SuiteView) -> Text:
    summary = view.summary
    text = Text()
    text.append(plural(view.fixture_count, "fixture"), style="bold")
    text.append(" · ")
    text.append(plural(summary.errors, "error"), style="bold red" if summary.errors else "")
    text.append(" · ")
    text.append(
        plural(summary.warnings, "warning"), style="bold yellow" if summary.warnings else ""
    )
    text.append(" · ")
    text.append(plural(view.holdout_count, "holdout"))
    exposed = len(view.exposed)
    if exposed:
        text.append(" · ")
        text.append(f"{exposed} exposed", style="bold red")
    return text


class SuiteHeader(Static):
    DEFAULT_CSS = """
    SuiteHeader { height: 1; padding: 0 1; background: $panel; }
    """

    def show_loading(self, done: int, total: int, root: str) -> None:
        # The folder's name is the workspace's own text: no markup, no control characters.
        name = printable(root, lines=False)
        if total:
            self.update(Text(f"{name} · loading {done:,} of {plural(total, 'file')}…"))
        else:
            self.update(Text(f"{name} · loading…"))

    def show_view(self, view: SuiteView) -> None:
        text = Text(f"{printable(view.root.name, lines=False)} · ", style="dim")
        text.append_text(header_text(view))
        self.update(text)
