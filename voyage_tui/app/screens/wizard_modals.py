"""The wizard's dialogs: a fixture to start from (filtered as you type: a suite may hold
thousands), and a draft to resume."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageModal
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.authoring import Draft
from voyage_tui.engine.diagnostics import Diagnostic

SHOWN = 100
"""Matches listed at once; typing narrows the rest."""


class FixturePicker(VoyageModal[str | None]):
    """Type to filter the fixtures by id or path; `up` / `down` move along the matches and
    `enter` starts from the highlighted one."""

    BINDINGS = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, fixtures: dict[str, str]) -> None:
        """fixtures: id -> its task.yaml."""
        super().__init__()
        self.fixtures = sorted(fixtures.items())
        self.shown: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                "Start from which fixture? Every answer is copied (its context files too); "
                "the new fixture gets its own id.",
                classes="question",
            )
            yield Input(placeholder="filter by id or path", id="fixture-filter", compact=True)
            yield KeyList(id="fixture-list")
            yield Static(Text("enter: start from it · escape: cancel", style="dim"))

    def on_mount(self) -> None:
        self._filter("")
        self.query_one("#fixture-filter", Input).focus()

    @on(Input.Changed, "#fixture-filter")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._filter(event.value)

    def _filter(self, needle: str) -> None:
        needle = needle.strip().lower()
        matches = [(i, p) for i, p in self.fixtures if needle in i.lower() or needle in p.lower()]
        self.shown = [i for i, _ in matches[:SHOWN]]
        listing = self.query_one("#fixture-list", OptionList)
        listing.clear_options()
        options = [Option(self._fixture_label(i, p)) for i, p in matches[:SHOWN]]
        if len(matches) > SHOWN:
            options.append(
                Option(
                    Text(f"… {len(matches) - SHOWN} more: type to narrow", style="dim"),
                    disabled=True,
                )
            )
        if not matches:
            options.append(Option(Text("no fixture matches", style="dim"), disabled=True))
        listing.add_options(options)
        if self.shown:
            listing.highlighted = 0

    @staticmethod
    def _fixture_label(fixture_id: str, path: str) -> Text:
        text = Text(printable(fixture_id, lines=False), style="bold")
        folder = path.rsplit("/", 2)[0]
        text.append(f"  {printable(folder, lines=False)}", style="dim")
        return text

    @on(Input.Submitted, "#fixture-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        listing = self.query_one("#fixture-list", OptionList)
        index = listing.highlighted
        if index is not None and index < len(self.shown):
            self.dismiss(self.shown[index])

    @on(OptionList.OptionSelected, "#fixture-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.shown):
            self.dismiss(self.shown[event.option_index])

    def on_key(self, event: events.Key) -> None:
        # The filter keeps the focus (typing goes on narrowing); the arrows move the highlight.
        if event.key not in ("up", "down"):
            return
        listing = self.query_one("#fixture-list", OptionList)
        if listing.has_focus:
            return
        event.stop()
        if event.key == "down":
            listing.action_cursor_down()
        else:
            listing.action_cursor_up()

    def action_cancel(self) -> None:
        self.dismiss(None)


def draft_label(draft: Draft) -> Text:
    answers = draft.answers
    text = Text(draft.name, style="bold")
    what = answers.id.strip() or answers.prompt.strip().split("\n", 1)[0][:40] or "(no answers)"
    said = f"{draft.kind} · {what} · at step {draft.step or '-'} · {draft.saved_at}"
    text.append(f"\n  {printable(said, lines=False)}")
    return text


class DraftPicker(VoyageModal[str | None]):
    """The drafts in `.voyage/drafts/`, newest first; those that cannot be resumed say why."""

    BINDINGS = bindings("dialog", only=["dialog.cancel"])

    def __init__(self, drafts: list[Draft], problems: list[Diagnostic]) -> None:
        super().__init__()
        self.drafts = drafts
        self.problems = problems

    def compose(self) -> ComposeResult:
        options = [Option(draft_label(d)) for d in self.drafts]
        options += [
            Option(Text(printable(f"{p.path}: {p.message}"), style="dim red"), disabled=True)
            for p in self.problems
        ]
        if not options:
            options.append(Option(Text("no drafts", style="dim"), disabled=True))
        with Vertical(classes="dialog"):
            yield Static("Resume which draft?", classes="question")
            yield KeyList(*options, id="draft-list")
            yield Static(Text("enter: resume it · escape: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#draft-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#draft-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.drafts):
            self.dismiss(self.drafts[event.option_index].name)

    def action_cancel(self) -> None:
        self.dismiss(None)
