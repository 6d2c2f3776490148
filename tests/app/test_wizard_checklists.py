"""The wizard's checklists (phases, gates, routing) move as every list of the app does: `up` /
`down` and `j` / `k` go from row to row (never scroll the form under a row that keeps the
focus), `space` or `x` ticks; a gate takes its verdict with one key (`p`, `c`, `b`) and starts
as pass. The context step's entries show which one `delete` would remove."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList

from tests.app.support import make_app, wait_loaded, wait_until
from tests.app.wizard_support import at_step, paste, settled
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.engine.authoring import Authoring, TrajectoryAnswers, WizardStart


async def open_at(pilot: Pilot, step: str, kind: str = "trajectory") -> WizardScreen:
    """The wizard on fresh answers of `kind` (as `new` makes them), at `step`."""
    app = pilot.app
    await wait_loaded(pilot)
    answers = Authoring(app.view, use_git=False).new(kind)  # type: ignore[attr-defined]
    answers.prompt, answers.id = "Rename the retry flag.", "rename-retry-flag"
    if isinstance(answers, TrajectoryAnswers):
        answers.path = "lightweight"
    wizard = WizardScreen(WizardStart(str(app.ws.root), kind, answers, "", step))  # type: ignore[attr-defined]
    app.push_screen(wizard)
    await wait_until(pilot, lambda: app.screen is wizard and wizard.settled)
    await at_step(pilot, wizard, step)
    return wizard


def focused_id(pilot: Pilot) -> str:
    focused = pilot.app.focused
    return focused.id or "" if focused is not None else ""


async def test_down_moves_along_the_phases_and_space_ticks_the_row_it_reached(
    sample_copy: Path,
) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "phases")
        assert focused_id(pilot) == "phase-0"
        await pilot.press(*["down"] * 6)
        assert focused_id(pilot) == "phase-6"
        await pilot.press("space")
        phases = wizard.answers.phases  # type: ignore[union-attr]
        assert phases[0].traversed  # today: phase 1 was unticked, the form scrolled instead
        assert not phases[6].traversed
        # the unticked row's reason takes the typing; down goes on to the next row from there
        assert focused_id(pilot) == "phase-6-reason"
        await pilot.press("down")
        assert focused_id(pilot) == "phase-7"
        await pilot.press("k")  # on a tick, k moves
        assert focused_id(pilot) == "phase-6-reason"
        await pilot.press("k")  # in a text field, k is typed
        assert focused_id(pilot) == "phase-6-reason"
        assert wizard.query_one("#phase-6-reason", Input).value == "k"
        await pilot.press("up")
        assert focused_id(pilot) == "phase-6"
        await pilot.press("x")
        assert phases[6].traversed
        await pilot.press("j", "j")
        assert focused_id(pilot) == "phase-8"
        await pilot.press("down")  # the last row stays
        assert focused_id(pilot) == "phase-8"
        await pilot.press("k")
        assert focused_id(pilot) == "phase-7"


async def test_the_row_moved_to_is_scrolled_into_view(sample_copy: Path) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "gates")
        await pilot.press(*["down"] * 9)  # each gate: its tick, then its description
        assert focused_id(pilot) == "gate-4-description"
        last = wizard.query_one("#gate-4-description")
        checklist = wizard.query_one("#checklist")
        await wait_until(pilot, lambda: checklist.region.contains_region(last.region))


async def test_a_gate_takes_its_verdict_with_one_key_and_starts_as_pass(sample_copy: Path) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "gates")
        gates = wizard.answers.gates  # type: ignore[union-attr]
        assert [g.verdict for g in gates] == ["pass"] * 5
        await settled(pilot, wizard)
        assert wizard.checked is not None
        assert "gate-incomplete" not in {d.code for d in wizard.checked.diagnostics}
        assert focused_id(pilot) == "gate-0"
        await pilot.press("c")
        assert gates[0].verdict == "conditional"
        assert "conditional" in str(wizard.query_one("#gate-0-verdict").render())
        await pilot.press("down")  # the gate's description
        assert focused_id(pilot) == "gate-0-description"
        await pilot.press("down")
        assert focused_id(pilot) == "gate-1"
        await pilot.press("b")
        assert gates[1].verdict == "blocked"
        await pilot.press("p")
        assert gates[1].verdict == "pass"
        await pilot.press("space")  # skipped: its reason takes the typing
        assert not gates[1].recorded and focused_id(pilot) == "gate-1-reason"
        await paste(pilot, "no design phase")
        await pilot.press("up", "c")  # a key on a skipped gate records it with that verdict
        assert gates[1].recorded and gates[1].verdict == "conditional"
        assert gates[1].reason == "no design phase"  # kept, should it be skipped again


async def test_routing_rows_move_with_j_and_k_and_tick_with_x(sample_copy: Path) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "routing")
        await wait_until(pilot, lambda: bool(wizard.query("#routing-1")))
        wizard.query_one("#routing-0", Checkbox).focus()
        await pilot.pause()
        await pilot.press("down")  # an unticked specialist's (optional) reason comes first
        assert focused_id(pilot) == "routing-0-reason"
        await pilot.press("down")
        assert focused_id(pilot) == "routing-1"
        await pilot.press("x")
        answers = wizard.answers
        assert isinstance(answers, TrajectoryAnswers)
        assert answers.routing_selected == [wizard.query_one("#routing-1", Checkbox).label.plain]
        await pilot.press("k")
        assert focused_id(pilot) == "routing-0-reason"


async def test_the_context_entries_highlight_a_row_when_they_take_the_focus(
    sample_copy: Path,
) -> None:
    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "context", kind="task")
        await paste(pilot, "Python 3.11 service")
        await pilot.press("enter")
        await paste(pilot, "run the tests with pytest")
        await pilot.press("enter")
        entries = wizard.query_one("#context-entries", OptionList)
        assert entries.option_count == 2
        entries.highlighted = None
        await pilot.press("shift+tab")
        await wait_until(pilot, lambda: entries.has_focus)
        assert entries.highlighted == 0
        await pilot.press("j", "delete")
        assert [e.text for e in wizard.answers.context] == ["Python 3.11 service"]  # type: ignore[union-attr]
