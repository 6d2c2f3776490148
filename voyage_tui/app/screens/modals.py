"""Small questions the app asks before it could lose work."""

from __future__ import annotations

from typing import ClassVar

from rich.syntax import Syntax
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from voyage_tui.app.resilience import GuardedMessages


class ChoiceScreen(GuardedMessages, ModalScreen[str]):
    """A question with a few answers, each with a one-letter key; escape is the last answer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose_default", "Cancel", id="choice.cancel")
    ]

    def __init__(
        self, question: str, choices: list[tuple[str, str, str]], detail: str = ""
    ) -> None:
        """choices: (value, label, key) in button order; the last one is what escape picks."""
        super().__init__()
        self.question = question
        self.choices = choices
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            if self.detail:
                with VerticalScroll(classes="dialog-detail"):
                    yield Static(Syntax(self.detail, "diff", theme="ansi_dark", word_wrap=True))
            with Horizontal(classes="buttons"):
                for value, label, key in self.choices:
                    yield Button(
                        f"{label} ({key})",
                        id=f"choice-{value}",
                        variant="primary" if value == self.choices[0][0] else "default",
                    )

    def on_mount(self) -> None:
        self.query_one(f"#choice-{self.choices[0][0]}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        for value, _, choice_key in self.choices:
            if event.key == choice_key:
                event.stop()
                self.dismiss(value)
                return

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))

    def action_choose_default(self) -> None:
        self.dismiss(self.choices[-1][0])


def unsaved_changes(name: str) -> ChoiceScreen:
    return ChoiceScreen(
        f"{name} has unsaved changes.",
        [("save", "Save", "s"), ("discard", "Discard", "d"), ("cancel", "Cancel", "c")],
    )


def save_conflict(name: str, diff: str) -> ChoiceScreen:
    return ChoiceScreen(
        f"{name} changed on disk since you opened it; your save was refused so nothing is lost.\n"
        "Reload the file from disk (your edits are dropped), or keep yours (the disk version is "
        "overwritten)? The difference, disk → yours:",
        [
            ("reload", "Reload from disk", "r"),
            ("keep", "Keep mine", "k"),
            ("cancel", "Cancel", "c"),
        ],
        detail=diff or "(no textual difference)",
    )
