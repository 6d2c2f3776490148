"""The questions the triage screen asks: how long to snooze, until which day, and why a holdout
counts as exposed (its signals)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageModal
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.engine.triage.queue import TriageItem

SNOOZE_CHOICES = [
    ("change", "Until the file changes", "f"),
    ("day", "For 1 day", "d"),
    ("week", "For 1 week", "w"),
    ("date", "Until a date…", "t"),
]
"""(value, label, key), in the order shown; escape cancels."""

SNOOZE_DAYS = {"day": 1, "week": 7}


def signals_text(item: TriageItem) -> Text:
    text = Text()
    text.append(item.title + "\n", style="bold")
    text.append(item.location() + "\n\n", style="dim")
    if not item.signals:
        text.append(item.detail)
        return text
    for signal in item.signals:
        text.append(f"{signal.kind}", style="bold magenta")
        if signal.commit:
            text.append(f"  {signal.commit[:12]}", style="yellow")
        if signal.author:
            text.append(f"  {signal.author}")
        if signal.date:
            text.append(f"  {signal.date}", style="dim")
        text.append(f"\n  {signal.detail}\n")
    return text


class SnoozeScreen(VoyageModal[str | None]):
    """How long to snooze: a letter picks at once, or arrows and enter; escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="snooze-dialog"):
            yield Static(self.question, classes="question", markup=False)
            yield KeyList(
                *[Option(f"{key}  {label}", id=value) for value, label, key in SNOOZE_CHOICES],
                id="snooze-choices",
            )
            yield Static("escape cancels", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        for value, _, choice_key in SNOOZE_CHOICES:
            if key == choice_key:
                getattr(event, "stop", lambda: None)()
                self.dismiss(value)
                return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExposureScreen(VoyageModal[str]):
    """Why a holdout counts as exposed: each signal with its commit and author. `R` retires it
    (dismissed with "retire"), `e` opens it at its `visibility:` line ("edit")."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "dialog", only=["dialog.cancel", "dialog.retire-exposed", "dialog.edit"]
    )
    answers = ("retire", "edit")

    def __init__(self, item: TriageItem) -> None:
        super().__init__()
        self.item = item

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="exposure-dialog"):
            yield Static("Exposure signals", classes="question")
            with VerticalScroll(classes="dialog-detail"):
                yield Static(signals_text(self.item), id="exposure-signals", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Retire (R)", id="exposure-retire", variant="warning")
                yield Button("Edit (e)", id="exposure-edit")
                yield Button("Close (esc)", id="exposure-close", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#exposure-close", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("exposure-"))

    def action_choose(self, value: str) -> None:
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss("close")


class DateScreen(VoyageModal[date | None]):
    """Ask for the day a snoozed item comes back (YYYY-MM-DD, after today); escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, today: date) -> None:
        super().__init__()
        self.today = today

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Snooze until which day? (YYYY-MM-DD)", classes="question")
            yield Input(
                value=(self.today + timedelta(days=14)).isoformat(),
                placeholder="YYYY-MM-DD",
                id="snooze-date",
            )
            yield Static("", id="snooze-date-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.query_one("#snooze-date-problem", Static)
        try:
            chosen = date.fromisoformat(event.value.strip())
        except ValueError:
            problem.update(f"{event.value.strip()!r} is not a date: write it as YYYY-MM-DD")
            return
        if chosen <= self.today:
            problem.update(f"{chosen.isoformat()} is not after today ({self.today.isoformat()})")
            return
        self.dismiss(chosen)

    def action_cancel(self) -> None:
        self.dismiss(None)
