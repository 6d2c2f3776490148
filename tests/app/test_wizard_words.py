"""The wizard's words: the rules box is "Rules", the leave dialog keeps "the draft", a missing
answer shows no `1:1`, and what the wizard says is a whole sentence."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button

from tests.app.support import make_app, wait_until
from tests.app.test_wizard_checklists import open_at
from tests.app.wizard_support import at_step, forward, open_wizard, paste, settled
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList, diagnostic_text


async def test_the_rules_box_is_titled_rules(sample_copy: Path) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "phases")
        assert wizard.query_one("#rules").border_title == "Rules"
        await forward(pilot, wizard, "gates")
        assert wizard.query_one("#rules").border_title == "Rules"


async def test_the_leave_dialog_keeps_the_draft(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await pilot.press("enter")  # a task
        await at_step(pilot, wizard, "class")
        await pilot.press("enter")
        await at_step(pilot, wizard, "prompt")
        await paste(pilot, "Fix the flaky login test.")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        keep = app.screen.query_one("#choice-keep", Button)
        assert str(keep.label) == "Keep the draft (k)"
        await pilot.press("escape")


async def test_a_missing_answer_shows_no_place_and_reads_as_a_sentence(sample_copy: Path) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await wizard.goto("preview")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        listing = wizard.query_one("#step-diagnostics", DiagnosticsList)
        missing = [d for d in listing.diagnostics if d.code == "missing-field"]
        assert missing
        for diagnostic in missing:
            shown = diagnostic_text(diagnostic).plain
            assert "1:1" not in shown, shown
            assert "Required field" in shown and shown.endswith("."), shown


async def test_the_wizards_notes_are_sentences(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await wizard.goto("preview")
        await at_step(pilot, wizard, "preview")
        await pilot.press("pagedown")  # the last step says how to write
        await wait_until(pilot, lambda: bool(app._notifications))
        await settled(pilot, wizard)
        await pilot.press("ctrl+s")  # not writable: says why
        await wait_until(pilot, lambda: len(app._notifications) >= 2)
        for note in app._notifications:
            assert note.message[0].isupper() and note.message.endswith("."), note.message
