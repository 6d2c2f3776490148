"""The suite's counts as words, always current: `412 fixtures · 3 errors · 12 warnings · 9 holdouts`."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.validation.first_screen import FirstScreen
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural


def counts_text(fixtures: int, errors: int, warnings: int, holdouts: int, exposed: int) -> Text:
    text = Text()
    text.append(plural(fixtures, "fixture"), style="bold")
    text.append(" · ")
    text.append(plural(errors, "error"), style="bold red" if errors else "")
    text.append(" · ")
    text.append(plural(warnings, "warning"), style="bold yellow" if warnings else "")
    text.append(" · ")
    text.append(plural(holdouts, "holdout"))
    if exposed:
        text.append(" · ")
        text.append(f"{exposed} exposed", style="bold red")
    return text


def header_text(view: SuiteView) -> Text:
    summary = view.summary
    return counts_text(
        view.fixture_count,
        summary.errors,
        summary.warnings,
        view.holdout_count,
        len(view.exposed),
    )


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

    def show_first_screen(self, first: FirstScreen, root: str, note: str = "checking…") -> None:
        """The counts the last run recorded, said to be under check until the suite is loaded."""
        text = Text(f"{printable(root, lines=False)} · ", style="dim")
        text.append_text(
            counts_text(first.fixtures, first.errors, first.warnings, first.holdouts, first.exposed)
        )
        text.append(f" · {note}", style="dim italic")
        self.update(text)

    def show_checking(self, view: SuiteView, done: int, total: int) -> None:
        """The listing's fixture count, what the files checked so far found, and how far the
        check is: `412 fixtures · 2 errors so far · checking 4,200 / 12,100`."""
        text = Text(f"{printable(view.root.name, lines=False)} · ", style="dim")
        text.append(plural(view.fixture_count, "fixture"), style="bold")
        errors, warnings = view.summary.errors, view.summary.warnings
        if errors or warnings:
            text.append(" · ")
            if errors:
                text.append(plural(errors, "error"), style="bold red")
                text.append(" " if not warnings else ", ")
            if warnings:
                text.append(plural(warnings, "warning"), style="bold yellow")
                text.append(" ")
            text.append("so far")
        text.append(f" · checking {min(done, total):,} / {total:,}", style="dim italic")
        self.update(text)

    def show_view(self, view: SuiteView) -> None:
        text = Text(f"{printable(view.root.name, lines=False)} · ", style="dim")
        text.append_text(header_text(view))
        self.update(text)
