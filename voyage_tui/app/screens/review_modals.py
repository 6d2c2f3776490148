"""Dialogs of the review screens: a diff row in full, a path to write to, a choice from a list."""

from __future__ import annotations

import json

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageModal
from voyage_tui.app.widgets.diff_list import row_renderable
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.engine.review.detail import RowDetail


def _findings_text(title: str, findings: list[dict[str, object]]) -> Text:
    text = Text()
    text.append(f"{title}\n", style="bold")
    if not findings:
        text.append("  (none)\n", style="dim")
    for finding in findings:
        for key, value in finding.items():
            text.append(f"  {key}: ", style="cyan")
            text.append(
                f"{json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value}\n"
            )
        text.append("\n")
    return text


class RowDetailScreen(VoyageModal[None]):
    BINDINGS = bindings("dialog", only=["dialog.cancel", "dialog.close"])

    def __init__(self, detail: RowDetail) -> None:
        super().__init__()
        self.detail = detail

    def compose(self) -> ComposeResult:
        d = self.detail
        with Vertical(classes="dialog wide"):
            yield Static(row_renderable(d.row))
            with VerticalScroll(classes="dialog-detail tall"):
                yield Static(_findings_text("Gold", list(d.gold_findings)))
                yield Static(
                    _findings_text(
                        "Run (merged; every reviewer that reported it)",
                        [f.to_json() for f in d.run_findings],
                    )
                )
                if d.source is not None:
                    src = d.source
                    title = Text(f"{src.path}", style="bold")
                    if not src.focus:
                        title.append("  (file-scoped finding: the top of the file)", style="dim")
                    yield Static(title)
                    yield Static(
                        Syntax(
                            "\n".join(src.lines),
                            lexer=Syntax.guess_lexer(src.path, "\n".join(src.lines)),
                            line_numbers=True,
                            start_line=src.first_line,
                            highlight_lines={src.focus} if src.focus else set(),
                            theme="ansi_dark",
                            word_wrap=True,
                        )
                    )
                else:
                    yield Static(
                        Text(
                            "No copy of the reviewed file in the workspace (repo/ beside the gold file, or in the fixture its `source` names).",
                            style="dim",
                        )
                    )
            yield Static(Text(f"{self.app.key_text('dialog.cancel')}: close", style="dim"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathScreen(VoyageModal[str | None]):
    """Ask for a workspace-relative path; escape cancels."""

    BINDINGS = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, question: str, default: str) -> None:
        super().__init__()
        self.question = question
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Input(value=self.default, id="path-input")
            cancel = self.app.key_names("dialog.cancel")[0]
            yield Static(Text(f"enter: write · {cancel}: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PickScreen(VoyageModal[str | None]):
    """Pick one of several values; escape cancels."""

    BINDINGS = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, question: str, choices: list[tuple[str, str]]) -> None:
        """choices: (value, label)."""
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield KeyList(
                *[Option(label, id=str(i)) for i, (_, label) in enumerate(self.choices)],
                id="pick-list",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index][0])

    def action_cancel(self) -> None:
        self.dismiss(None)
