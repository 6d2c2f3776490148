"""Other ways into the wizard: a copy of an existing fixture, a draft, context files; and the
keys every screen must have (ids for the keymap, nothing that needs ctrl+enter)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, OptionList

from tests.app.support import make_app, wait_until
from tests.app.wizard_support import (
    at_step,
    choose,
    forward,
    open_wizard,
    paste,
    settled,
    type_text,
    validate,
)
from tests.git.conftest import Repo, isolated_git  # noqa: F401  (the fixture applies here too)
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.wizard_modals import DraftPicker, FixturePicker
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.authoring import Authoring
from voyage_tui.engine.workspace.model import Workspace

SOURCE = "fixtures/bug-diagnosis/pagination-last-page-dropped"


async def test_start_from_an_existing_fixture_copies_its_answers_with_a_new_id(
    sample_copy: Path,
) -> None:
    # The fixture's context files are copied because git tracks them (issue 18).
    Repo(sample_copy).init().commit(message="the sample")
    before = validate(sample_copy)
    original = (sample_copy / SOURCE / "task.yaml").read_text()
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FixturePicker))
        await type_text(pilot, "pagination")
        picker = app.screen
        await wait_until(pilot, lambda: picker.shown == ["pagination-last-page-dropped"])  # type: ignore[attr-defined]
        await pilot.press("enter")
        await at_step(pilot, wizard, "id")
        assert wizard.answers.fixture_class == "bug-diagnosis"  # type: ignore[union-attr]
        assert wizard.answers.id not in ("", "pagination-last-page-dropped")
        assert wizard.answers.context  # copied, its files too
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "pagination-copy")
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        assert wizard.checked is not None and wizard.checked.writable, wizard.checked.blocking
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    copied = sample_copy / "fixtures/bug-diagnosis/pagination-copy"
    assert (copied / "task.yaml").read_text().startswith("id: pagination-copy\n")
    for name in (p.name for p in (sample_copy / SOURCE).iterdir() if p.name != "runs"):
        assert (copied / name).exists(), name
    assert (sample_copy / SOURCE / "task.yaml").read_text() == original
    assert validate(sample_copy) == before


async def test_a_context_file_is_copied_in_and_one_outside_the_workspace_is_refused(
    sample_copy: Path, tmp_path: Path
) -> None:
    before = validate(sample_copy)
    outside = tmp_path / "secret.txt"
    outside.write_text("not for fixtures\n")
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await choose(pilot, wizard, "task")
        await at_step(pilot, wizard, "class")
        await choose(pilot, wizard, "refactor")
        await at_step(pilot, wizard, "prompt")
        await paste(pilot, "Split the tax module.")
        await forward(pilot, wizard, "id")
        await forward(pilot, wizard, "ground_truth")
        await paste(pilot, "Behaviour unchanged; the tests still pass.")
        await forward(pilot, wizard, "expected_boundary")
        await choose(pilot, wizard, "unit")
        await at_step(pilot, wizard, "visibility")
        await choose(pilot, wizard, "public")
        await at_step(pilot, wizard, "context")
        await paste(pilot, "Python 3.11; run pytest -q.")
        await pilot.press("enter")
        wizard.query_one("#context-file", Input).focus()
        await paste(pilot, str(outside))
        await pilot.press("enter")
        await settled(pilot, wizard)
        shown = wizard.query_one("#step-diagnostics").diagnostics  # type: ignore[attr-defined]
        assert [d.code for d in shown] == ["context-source-unreadable"]
        assert "outside the workspace" in shown[0].message
        entries = wizard.query_one("#context-entries", OptionList)
        entries.focus()
        entries.highlighted = 1
        await pilot.press("delete")
        wizard.query_one("#context-file", Input).focus()
        await paste(pilot, "fixtures/rubric.md")
        await pilot.press("enter")
        await settled(pilot, wizard)
        assert wizard.query_one("#step-diagnostics").diagnostics == []  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        rel = wizard.checked.rel  # type: ignore[union-attr]
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    folder = (sample_copy / rel).parent
    assert (
        "  - Python 3.11; run pytest -q.\n  - {file: rubric.md}\n"
        in (folder / "task.yaml").read_text()
    )
    assert (folder / "rubric.md").read_bytes() == (sample_copy / "fixtures/rubric.md").read_bytes()
    assert validate(sample_copy) == before


async def test_resume_a_draft_from_the_first_step(sample_copy: Path) -> None:
    authoring = Authoring.open(sample_copy, use_git=False)
    answers = authoring.new("trajectory")
    answers.prompt = "Ship the flag rename."
    answers.path = "lightweight"
    authoring.drafts.save("trajectory-earlier", answers, "phases")
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, DraftPicker))
        await pilot.press("enter")
        await at_step(pilot, wizard, "phases")
        assert wizard.draft == "trajectory-earlier"
        assert (wizard.answers.kind, wizard.answers.prompt) == (
            "trajectory",
            "Ship the flag rename.",
        )
        assert {"kind", "path", "prompt", "id"} <= wizard.visited
        await pilot.press("pagedown")
        await at_step(pilot, wizard, "gates")
    saved = json.loads((sample_copy / ".voyage/drafts/trajectory-earlier.json").read_text())
    assert saved["step"] == "gates"


async def test_leaving_an_untouched_wizard_asks_nothing_and_keeps_no_draft(
    sample_copy: Path,
) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_wizard(pilot)
        await pilot.press("pagedown", "pagedown", "escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    assert not (sample_copy / ".voyage").exists()


def test_the_wizards_keys_come_from_the_registry_and_survive_tmux() -> None:
    from voyage_tui.app.actions import REGISTRY, of_scope

    wizard_actions = {a.id: a for a in of_scope("wizard")}
    assert wizard_actions["wizard.forward"].keys == "pagedown,f8"
    assert wizard_actions["wizard.back"].keys == "pageup,f7"
    for action in wizard_actions.values():
        assert action.keys is not None and "ctrl+enter" not in action.keys.split(",")
    assert REGISTRY["browser.add"].keys == "a"
    assert REGISTRY["app.new-fixture"].palette == "Create a fixture"


async def test_a_text_area_painted_after_its_step_was_left_does_not_stop_the_app(
    sample_copy: Path,
) -> None:
    """Textual 8.2 can paint a TextArea once more after it was removed (its component styles
    already cleared: textual#6208); leaving a step mid-paint crashed the app under load."""
    from textual.geometry import Region
    from textual.widgets import TextArea

    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await wizard.goto("prompt")
        await at_step(pilot, wizard, "prompt")
        area = wizard.query_one("#answer", TextArea)
        await wizard.goto("id")
        await at_step(pilot, wizard, "id")
        assert not area.is_attached
        # the state the crash was in: styles gone, and nothing cached from an earlier paint
        area._rich_style_cache.clear()
        lines = area.render_lines(Region(0, 0, 20, 2))
        assert len(lines) == 2


async def test_starting_from_an_exposed_holdout_warns_that_its_prompt_leaked(
    sample_copy: Path,
) -> None:
    # The canary is read from the copy, never written here: this repository is the sample's
    # workspace, and a canary in a tracked file would expose the holdout for real.
    holdout = sample_copy / "fixtures/release-verification/canary-promotion-error-budget/task.yaml"
    canary = holdout.read_text().splitlines()[0].split("canary:")[1].strip()
    (sample_copy / "notes.txt").write_text(canary + "\n")
    Repo(sample_copy).init().commit(message="the sample, and a leak")
    app = VoyageApp(Workspace.load(sample_copy), AppSettings(use_git=True, watch=False, keymap={}))
    async with app.run_test(size=(100, 30)) as pilot:
        wizard = await open_wizard(pilot)
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FixturePicker))
        await type_text(pilot, "canary-promotion")
        picker = app.screen
        await wait_until(pilot, lambda: picker.shown == ["canary-promotion-error-budget"], 30)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await at_step(pilot, wizard, "id")
        await wait_until(
            pilot, lambda: any("already leaked" in n.message for n in app._notifications), 30
        )
        [warned] = [n for n in app._notifications if "already leaked" in n.message]
        assert warned.severity == "warning" and "notes.txt" in warned.message
