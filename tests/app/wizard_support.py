"""Driving the creation wizard in tests: open it, answer a step with keys, wait for its checks."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, TextArea

from tests.app.support import wait_loaded, wait_until
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace


async def open_wizard(pilot: Pilot) -> WizardScreen:
    """From the browser, as a person does: `a`."""
    await wait_loaded(pilot)
    await pilot.press("a")
    return await wizard_ready(pilot)


async def wizard_ready(pilot: Pilot) -> WizardScreen:
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, WizardScreen) and app.screen.settled)
    wizard: WizardScreen = app.screen  # type: ignore[assignment]
    return wizard


async def settled(pilot: Pilot, wizard: WizardScreen) -> None:
    """Every edit so far is checked and shown (the messages an edit sends are let through
    first, so a check from before the edit does not count)."""
    await pilot.pause()
    await wait_until(pilot, lambda: wizard.settled)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await wait_until(pilot, lambda: wizard.settled)


async def at_step(pilot: Pilot, wizard: WizardScreen, name: str) -> None:
    await wait_until(pilot, lambda: wizard.step_name == name and wizard.form is not None)
    await pilot.pause()


async def choose(pilot: Pilot, wizard: WizardScreen, value: str) -> None:
    """On a choice step: arrow down to `value` and press enter (which moves on)."""
    listing = wizard.query_one("#choices", OptionList)
    target = next(i for i, o in enumerate(listing.options) if o.id == value)
    start = listing.highlighted or 0
    keys = ["down"] * (target - start) if target >= start else ["up"] * (start - target)
    await pilot.press(*keys, "enter")
    await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    """Type into the focused field; a newline is the enter key."""
    keys: list[str] = []
    for char in text:
        keys.append("enter" if char == "\n" else char)
    await pilot.press(*keys)


async def paste(pilot: Pilot, text: str) -> None:
    """Paste into the focused field (typing long text key by key is slow under the pilot)."""
    assert pilot.app.focused is not None
    pilot.app.post_message(events.Paste(text))  # as a terminal's paste arrives: to the app
    await pilot.pause()


def field_text(wizard: WizardScreen, selector: str = "#answer") -> str:
    widget = wizard.query_one(selector)
    if isinstance(widget, TextArea):
        return widget.text
    assert isinstance(widget, Input)
    return widget.value


async def forward(pilot: Pilot, wizard: WizardScreen, to: str) -> None:
    await pilot.press("pagedown")
    await at_step(pilot, wizard, to)


def validate(root: Path) -> list[Diagnostic]:
    """Every diagnostic `voyage-tui validate --no-git` gives on the workspace."""
    suite = Suite(Workspace.load(root), use_git=False)
    suite.validate_all(git=False)
    return suite.diagnostics()
