"""The wizard's steps down the side, each with its status: `✓` checked and clean, `✗n` / `!n`
its errors / warnings, `·` not visited yet. Enter (or a click) on a step opens it, whatever the
step you are on holds: nobody is trapped on a step with an error."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from voyage_tui.app.widgets.badges import status_badge
from voyage_tui.app.widgets.key_list import KeyList

NOT_VISITED = "·"


@dataclass(frozen=True, slots=True)
class StepStatus:
    name: str
    title: str
    visited: bool
    errors: int = 0
    warnings: int = 0
    optional: bool = False


def status_text(status: StepStatus, current: bool) -> Text:
    text = Text()
    if status.visited:
        badge = status_badge(status.errors, status.warnings)
    else:
        badge = Text(NOT_VISITED, style="dim")
    badge.pad_right(3 - len(badge.plain))
    text.append_text(badge)
    text.append(status.title, style="bold" if current else "")
    return text


class StepList(KeyList):
    HELP = """
## Steps

Every step of the wizard: `✓` clean, `✗n` errors, `!n` warnings, `·` not visited yet.
`enter` opens the highlighted step (always allowed, even from a step with an error).
"""

    class Chosen(Message):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.statuses: list[StepStatus] = []
        self.current = ""

    def show(self, statuses: list[StepStatus], current: str) -> None:
        if statuses == self.statuses and current == self.current:
            return
        browsing = self.has_focus and current == self.current
        kept = self.highlighted
        self.statuses = statuses
        self.current = current
        self.clear_options()
        self.add_options([Option(status_text(s, s.name == current), id=s.name) for s in statuses])
        index = next((i for i, s in enumerate(statuses) if s.name == current), None)
        if browsing and kept is not None and kept < len(statuses):
            index = kept  # a check finished while the person moves along the list: stay there
        if index is not None:
            self.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(event.option.id))
