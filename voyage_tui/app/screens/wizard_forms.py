"""The wizard's step forms for the fields every fixture has: choices, text, the id, the context
and the scoring notes. A form edits the answers in place as you type and says so (`Edited`);
the screen re-checks, keeps the draft and moves between steps. Each form is built afresh from
the answers whenever its step opens, so going back shows every answer as it was left."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.suggester import Suggester
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.resilience import GuardedMessages
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.app.widgets.marked_text_area import MarkedTextArea
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.authoring import (
    Answers,
    Checked,
    ContextEntry,
    Step,
    TaskAnswers,
)
from voyage_tui.engine.authoring.steps import TextField
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.layout import NEVER_SEARCHED

if TYPE_CHECKING:
    from voyage_tui.app.screens.wizard import WizardScreen

CHOSEN = "●"
NOT_CHOSEN = "○"

WIZARD_HELP = """
## Creating a fixture

{wizard.forward} next step · {wizard.back} previous step (both always work, even from a step
with an error; every answer is kept) · `tab` next field · `enter` picks a choice · in a
checklist (phases, gates, routing) {checklist.down} / {checklist.up} the next / previous row,
`space` or {checklist.toggle} ticks, and on a gate {checklist.pass} pass,
{checklist.conditional} conditional, {checklist.blocked} blocked · {wizard.steps} the list of
steps (`enter` opens one) ·
{wizard.write} the preview, and there: write · {wizard.leave} leave (the answers stay in a
draft). On the first step: {wizard.start-from} start from an existing fixture,
{wizard.resume} resume a draft; on the context step {wizard.context-remove} removes an entry.
"""
"""The wizard's help, wherever the focus is in it (F1)."""


class StepForm(GuardedMessages, Vertical):
    """One step's fields. Subclasses build them in `compose` from `self.answers`."""

    HELP = WIZARD_HELP

    needs_suite = False
    """Built from the loaded suite (the rubric, the routing table, the ids): rebuilt once it is
    there."""

    class Edited(Message):
        """The answers changed."""

    class Advance(Message):
        """A choice was made: on to the next step."""

    def __init__(self, step: Step, answers: Answers, wizard: WizardScreen) -> None:
        super().__init__(classes="step-form", id=f"form-{step.name.replace('_', '-')}")
        self.step = step
        self.answers = answers
        self.wizard = wizard

    @property
    def text_field(self) -> TextField:
        """The step's text answer (ChoiceForm and TextForm are made only for steps with one)."""
        if self.step.text is None:
            raise TypeError(f"the step {self.step.name!r} has no text answer")
        return self.step.text

    def edited(self) -> None:
        self.post_message(self.Edited())

    def focus_first(self) -> None:
        for widget in self.query("*"):
            # a scrolling container takes focus too, but nothing can be typed into it
            if widget.focusable and widget.display and not isinstance(widget, VerticalScroll):
                widget.focus()
                return

    def checked(self, checked: Checked) -> None:
        """A check of the answers finished (the screen shows its diagnostics already)."""


# --- choices ---------------------------------------------------------------------------------


def choice_text(value: str, meaning: str, chosen: bool) -> RenderableType:
    text = Text()
    text.append(f"{CHOSEN if chosen else NOT_CHOSEN} ", style="bold green" if chosen else "dim")
    text.append(value, style="bold")
    if not meaning:
        return text
    return Group(text, Padding(Text(meaning, style="dim"), (0, 0, 0, 2)))


class ChoiceForm(StepForm):
    """One of a closed set, each with a line on what it means; `enter` picks and moves on."""

    def current(self) -> str:
        if self.step.name == "kind":
            return self.answers.kind
        return self.text_field.get(self.answers).strip()

    def compose(self) -> ComposeResult:
        current = self.current()
        options = [
            Option(choice_text(c.value, c.meaning, c.value == current), id=c.value)
            for c in self.step.choices
        ]
        if current and current not in {c.value for c in self.step.choices}:
            # an answer from a flag or a copied fixture that is not one of the choices: shown, so
            # it can be seen and replaced (the diagnostics say what is wrong with it)
            shown = printable(current, lines=False)
            options.append(Option(choice_text(shown, "not one of the choices", True), id=current))
        yield KeyList(*options, id="choices")

    def on_mount(self) -> None:
        listing = self.query_one("#choices", OptionList)
        current = self.current()
        index = next((i for i, option in enumerate(listing.options) if option.id == current), 0)
        listing.highlighted = index

    @on(OptionList.OptionSelected, "#choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        value = event.option.id or ""
        if self.step.name == "kind":
            if self.wizard.choose_kind(value):
                self.post_message(self.Advance())
            return
        self.text_field.set(self.answers, value)
        listing = self.query_one("#choices", OptionList)
        for index, choice in enumerate(self.step.choices):
            listing.replace_option_prompt_at_index(
                index, choice_text(choice.value, choice.meaning, choice.value == value)
            )
        self.edited()
        self.post_message(self.Advance())


class KindForm(ChoiceForm):
    """The kind, and two other ways to begin: a copy of an existing fixture, or a draft."""

    BINDINGS = bindings("wizard", only=["wizard.start-from", "wizard.resume"])

    def compose(self) -> ComposeResult:
        yield from super().compose()
        with Horizontal(classes="form-buttons"):
            yield Button("Start from a fixture… (f)", id="start-from", compact=True)
            yield Button("Resume a draft… (r)", id="resume-draft", compact=True)

    def action_start_from(self) -> None:
        self.wizard.pick_fixture()

    def action_resume(self) -> None:
        self.wizard.pick_draft()

    @on(Button.Pressed, "#start-from")
    def _start_from(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_start_from()

    @on(Button.Pressed, "#resume-draft")
    def _resume(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_resume()


class VisibilityForm(ChoiceForm):
    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(self._note(), id="canary-note", classes="form-note")

    def _note(self) -> Text:
        if self.answers.visibility.strip() != "holdout":
            return Text("")
        canary = self.answers.canary.strip() or "(made when it is checked)"
        return Text(f"# canary: {canary}", style="bold")

    def checked(self, checked: Checked) -> None:
        self.query_one("#canary-note", Static).update(self._note())


# --- text ------------------------------------------------------------------------------------


class PaintsSafely(TextArea):
    """A TextArea that a late paint cannot stop the app with.

    Textual 8.2 may paint a TextArea once more after its step was left and it was removed: its
    component styles are cleared by then, and the paint raises KeyError ("No 'text-area--gutter'
    key in COMPONENT_CLASSES", textual#6208, #6528). Moving between steps quickly did it. Such a
    paint draws nothing; the widget is gone (or, before its styles arrive, painted again next
    frame)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        try:
            return super().render_lines(crop)
        except KeyError as exc:
            if "COMPONENT_CLASSES" not in str(exc):
                raise
            return [Strip.blank(crop.width) for _ in range(crop.height)]


def text_area(text: str, widget_id: str) -> TextArea:
    return PaintsSafely(
        text, id=widget_id, soft_wrap=True, tab_behavior="focus", classes="answer-text"
    )


class TextForm(StepForm):
    """Free text; multi-line steps get a text area (written as a `|` block)."""

    def compose(self) -> ComposeResult:
        value = self.text_field.get(self.answers)
        if self.step.multiline:
            yield text_area(value, "answer")
        else:
            yield Input(value, id="answer")

    @on(TextArea.Changed, "#answer")
    def _area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._store(event.text_area.text)

    @on(Input.Changed, "#answer")
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._store(event.value)

    def _store(self, value: str) -> None:
        if self.text_field.get(self.answers) != value:
            self.text_field.set(self.answers, value)
            self.edited()


class IdForm(StepForm):
    """The id: proposed from the prompt while it is still the proposal, checked as you type."""

    needs_suite = True

    def compose(self) -> ComposeResult:
        proposal = self.wizard.propose_id()
        yield Input(self.answers.id, id="answer", placeholder="a-plain-slug")
        note = (
            "Proposed from the prompt; change it as you like."
            if proposal and proposal == self.answers.id
            else "Lowercase a-z, 0-9 and single hyphens; it names the fixture's folder."
        )
        yield Static(Text(note, style="dim"), classes="form-note")

    @on(Input.Changed, "#answer")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != self.answers.id:
            self.answers.id = event.value
            self.edited()


# --- context ---------------------------------------------------------------------------------


class WorkspacePaths(Suggester):
    """Completes a workspace-relative path one folder level at a time (never into tool state)."""

    def __init__(self, root: str) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.root = root

    async def get_suggestion(self, value: str) -> str | None:
        folder, _, stem = value.rpartition("/")
        base = os.path.join(self.root, folder) if folder else self.root
        if os.path.isabs(value) or ".." in value.split("/"):
            return None
        try:
            with os.scandir(base) as entries:
                names = sorted(
                    e.name + ("/" if e.is_dir(follow_symlinks=False) else "")
                    for _, e in zip(range(2000), entries, strict=False)
                    if e.name.startswith(stem) and e.name not in NEVER_SEARCHED
                )
        except OSError:
            return None
        if not names or (not stem and len(names) != 1):
            return None
        return f"{folder}/{names[0]}" if folder else names[0]


def context_label(entry: ContextEntry) -> Text:
    text = Text()
    if entry.is_file:
        text.append("file ", style="bold cyan")
        text.append(printable(entry.file or "", lines=False))
        if entry.source is not None:  # always: no file is copied in unseen
            text.append(f"  ← copied from {printable(entry.source, lines=False)}", style="dim")
    else:
        first, _, rest = entry.text.strip().partition("\n")
        text.append("text ", style="bold")
        text.append(printable(first, lines=False) + (" …" if rest else ""))
    return text


class ContextForm(StepForm):
    """Inline text and files of the workspace, copied into the new fixture's folder."""

    BINDINGS = bindings("wizard", only=["wizard.context-remove"])

    def compose(self) -> ComposeResult:
        yield KeyList(id="context-entries")
        yield Input(id="context-text", placeholder="inline text; enter adds it")
        yield Input(
            id="context-file",
            placeholder="a workspace file or folder to copy in; enter adds it",
            suggester=WorkspacePaths(str(self.wizard.ws.root)),
        )
        yield Static(
            Text(
                "Paths are relative to the workspace; a file is copied into the fixture's "
                "folder under its own name. `delete` removes the highlighted entry.",
                style="dim",
            ),
            classes="form-note",
        )

    def on_mount(self) -> None:
        self._show_entries()

    @property
    def entries(self) -> list[ContextEntry]:
        assert isinstance(self.answers, TaskAnswers)
        return self.answers.context

    def _show_entries(self) -> None:
        listing = self.query_one("#context-entries", OptionList)
        listing.clear_options()
        if self.entries:
            listing.add_options([Option(context_label(e)) for e in self.entries])
        else:
            listing.add_option(
                Option(Text("no context yet (optional)", style="dim"), disabled=True)
            )
        listing.display = True

    def focus_first(self) -> None:
        self.query_one("#context-text", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # The entries taking the focus show which one `delete` removes (an option list
        # highlights nothing until it is moved in).
        listing = self.query_one("#context-entries", OptionList)
        if event.widget is listing and listing.highlighted is None and self.entries:
            listing.highlighted = 0

    @on(Input.Submitted, "#context-text")
    def _add_text(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.entries.append(ContextEntry(text=event.value))
            event.input.value = ""
            self._show_entries()
            self.edited()

    @on(Input.Submitted, "#context-file")
    def _add_file(self, event: Input.Submitted) -> None:
        event.stop()
        entry = self.file_entry(event.value)
        if entry is not None:
            self.entries.append(entry)
            event.input.value = ""
            self._show_entries()
            self.edited()

    def file_entry(self, value: str) -> ContextEntry | None:
        """A workspace file named relative to the workspace (or absolute, inside it); what is
        wrong with it (outside, missing, a symlink out) the check reports, so it stays visible."""
        value = value.strip()
        if not value:
            return None
        ws = self.wizard.ws
        if os.path.isabs(value):
            real = os.path.realpath(value)
            source = os.path.relpath(real, ws.root_real).replace(os.sep, "/")
        else:
            source = os.path.normpath(value).replace(os.sep, "/")
        name = os.path.basename(os.path.normpath(value)) or value
        # typed here, in this session: the person's own choice (copied even if git ignores it)
        return ContextEntry(file=name, source=source, named=True)

    def action_remove(self) -> None:
        listing = self.query_one("#context-entries", OptionList)
        index = listing.highlighted
        if index is None or not 0 <= index < len(self.entries):
            return
        del self.entries[index]
        self._show_entries()
        if self.entries:
            listing.highlighted = min(index, len(self.entries) - 1)
        self.edited()


# --- scoring notes -----------------------------------------------------------------------------


class NoteArea(PaintsSafely):
    """A scoring note's text, and the dimension it is for (dimension names from a copied
    fixture can be any text, so they are not widget ids)."""

    def __init__(self, text: str, dimension: str) -> None:
        super().__init__(text, soft_wrap=True, tab_behavior="focus", classes="note")
        self.dimension = dimension


def note_text(note: Any) -> str | None:
    """The note as editable text; None for a list or scores (kept as they are unless replaced)."""
    return note if isinstance(note, str) else None


class NotesForm(StepForm):
    """One note per rubric dimension (all optional); keys the rubric does not know stay listed,
    with the warning that says so, until they are emptied."""

    needs_suite = True

    def compose(self) -> ComposeResult:
        assert isinstance(self.answers, TaskAnswers)
        notes = self.answers.scoring_notes
        dimensions = self.wizard.dimensions()
        keys = [d.key for d in dimensions] + [
            k for k in notes if k not in {d.key for d in dimensions}
        ]
        described = {d.key: d.description for d in dimensions}
        with VerticalScroll(id="notes"):
            if not keys:
                yield Static(Text("The rubric names no dimensions.", style="dim"))
            for key in keys:
                note = notes.get(key)
                title = Text(printable(key, lines=False), style="bold")
                if described.get(key):
                    title.append(f"  {printable(described[key])}", style="dim")
                elif key not in described:
                    title.append("  not a rubric dimension", style="yellow")
                editable = note_text(note)
                if note is not None and editable is None:
                    title.append("  kept as copied; type to replace it", style="italic")
                yield Static(title, classes="note-title")
                yield NoteArea(editable or "", key)

    @on(TextArea.Changed, ".note")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        assert isinstance(self.answers, TaskAnswers)
        if not isinstance(event.text_area, NoteArea):
            return
        key = event.text_area.dimension
        notes = self.answers.scoring_notes
        old = notes.get(key)
        text = event.text_area.text
        if text.strip():
            if old != text:
                notes[key] = text
                self.edited()
        elif isinstance(old, str):
            del notes[key]
            self.edited()


def form_class(step: Step) -> type[StepForm]:
    from voyage_tui.app.screens.wizard_journey import JOURNEY_FORMS

    if step.name in JOURNEY_FORMS:
        return JOURNEY_FORMS[step.name]
    special: dict[str, type[StepForm]] = {
        "kind": KindForm,
        "visibility": VisibilityForm,
        "id": IdForm,
        "context": ContextForm,
        "scoring_notes": NotesForm,
        "preview": PreviewForm,
    }
    if step.name in special:
        return special[step.name]
    return ChoiceForm if step.choices else TextForm


# --- preview -----------------------------------------------------------------------------------


class PreviewText(PaintsSafely, MarkedTextArea):
    HELP = WIZARD_HELP


def copies_text(copies: tuple[tuple[str, str], ...]) -> Text:
    text = Text()
    for index, (source, target) in enumerate(copies):
        if index:
            text.append("\n")
        text.append("copies ", style="bold cyan")
        text.append(printable(source, lines=False))
        text.append(" → ", style="dim")
        text.append(printable(target, lines=False))
    return text


class PreviewForm(StepForm):
    """The file as it will be written, its lines with problems tinted; every diagnostic below."""

    def compose(self) -> ComposeResult:
        yield Static(id="preview-target")
        yield Static(id="preview-copies")
        yield PreviewText(
            "",
            language="yaml",
            read_only=True,
            soft_wrap=True,
            show_line_numbers=True,
            id="preview-text",
        )
        with Horizontal(classes="form-buttons"):
            yield Button("Write (ctrl+s)", id="write", variant="primary", compact=True)

    def on_mount(self) -> None:
        if self.wizard.checked is not None:
            self.checked(self.wizard.checked)
        else:
            self.query_one("#preview-target", Static).update(Text("checking…", style="dim"))
            self.query_one("#write", Button).disabled = True

    def focus_first(self) -> None:
        self.query_one("#preview-text").focus()

    def checked(self, checked: Checked) -> None:
        status = Text()
        if checked.writable:
            status.append("✓ ", style="bold green")
            status.append(f"ctrl+s writes {checked.rel}")
        else:
            count = len(checked.blocking)
            status.append("✗ ", style="bold red")
            if count:
                verb = "stops" if count == 1 else "stop"
                status.append(
                    f"{plural(count, 'problem')} {verb} the write; enter on one below opens "
                    "its step"
                )
            else:
                status.append("the class and the id are needed before it can be written")
        self.query_one("#preview-target", Static).update(status)
        # The YAML names only where a copy lands: every file read into the fixture is shown.
        copies = self.query_one("#preview-copies", Static)
        copies.display = bool(checked.copies)
        copies.update(copies_text(checked.copies))
        area = self.query_one("#preview-text", PreviewText)
        if area.text != checked.text:
            area.load_text(checked.text)
        area.set_marks(checked.diagnostics)
        self.query_one("#write", Button).disabled = not checked.writable

    @on(Button.Pressed, "#write")
    async def _write(self, event: Button.Pressed) -> None:
        event.stop()
        await self.wizard.action_write()
