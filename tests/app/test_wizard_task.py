"""The creation wizard, driven with keys as a person would, on a copy of the sample: each file
it writes is one `validate` accepts with no new diagnostic, and a bad answer writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.support import make_app, wait_until
from tests.app.wizard_support import (
    at_step,
    choose,
    field_text,
    forward,
    open_wizard,
    paste,
    settled,
    type_text,
    validate,
)
from tests.authoring.conftest import tree
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.app.widgets.step_list import StepList

PROMPT = "Fix the flaky retry in the uploader.\nIt fails one run in ten."
TRUTH = "The retry waits with jitter; a unit test pins the schedule."
CANARY = re.compile(
    r"^# canary: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n"
)


async def answer_task(
    pilot, wizard: WizardScreen, fixture_class: str, visibility: str = "public"
) -> None:
    """Kind, class, prompt, id (the proposal), ground truth, boundary, visibility."""
    await at_step(pilot, wizard, "kind")
    await choose(pilot, wizard, "task")
    await at_step(pilot, wizard, "class")
    await choose(pilot, wizard, fixture_class)
    await at_step(pilot, wizard, "prompt")
    await paste(pilot, PROMPT)
    await forward(pilot, wizard, "id")
    await forward(pilot, wizard, "ground_truth")
    await type_text(pilot, "The retry ")
    await paste(pilot, TRUTH.removeprefix("The retry "))
    await forward(pilot, wizard, "expected_boundary")
    await choose(pilot, wizard, "unit")
    await at_step(pilot, wizard, "visibility")
    await choose(pilot, wizard, visibility)
    await at_step(pilot, wizard, "context")


async def write(pilot, wizard: WizardScreen, root: Path) -> Path:
    """ctrl+s twice: the first opens the preview, the second writes; back in the browser after."""
    await pilot.press("ctrl+s")
    await at_step(pilot, wizard, "preview")
    await settled(pilot, wizard)
    assert wizard.checked is not None and wizard.checked.writable, wizard.checked.blocking
    rel = wizard.checked.rel
    await pilot.press("ctrl+s")
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    path = root / rel
    assert path.is_file()
    await wait_until(pilot, lambda: app.browser().suite_tree.current_path() == rel)
    return path


@pytest.fixture
def before(sample_copy: Path) -> list:
    return validate(sample_copy)


async def test_a_task_made_through_the_screens_validates_with_no_new_diagnostic(
    sample_copy: Path, before: list
) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "bug-diagnosis")
        assert wizard.answers.id == "fix-flaky-retry-uploader-fails-one"  # proposed
        path = await write(pilot, wizard, sample_copy)
    assert (
        path == sample_copy / "fixtures/bug-diagnosis/fix-flaky-retry-uploader-fails-one/task.yaml"
    )
    text = path.read_text()
    assert "prompt: |\n  Fix the flaky retry in the uploader.\n  It fails one run in ten.\n" in text
    assert "visibility: public" in text and "# canary" not in text
    assert validate(sample_copy) == before
    assert not (sample_copy / ".voyage/drafts").exists() or not list(
        (sample_copy / ".voyage/drafts").iterdir()
    )  # the draft went with the write


async def test_a_holdout_gets_its_canary_and_validates_clean(
    sample_copy: Path, before: list
) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "refactor", visibility="holdout")
        await settled(pilot, wizard)
        canary = wizard.answers.canary
        assert canary
        await pilot.press("pageup")
        await at_step(pilot, wizard, "visibility")
        assert canary in str(wizard.query_one("#canary-note").render())
        path = await write(pilot, wizard, sample_copy)
    text = path.read_text()
    assert CANARY.match(text) and text.startswith(f"# canary: {canary}\n")
    assert "visibility: holdout" in text
    assert validate(sample_copy) == before


async def test_an_adversarial_task_asks_for_its_intent_and_validates_clean(
    sample_copy: Path, before: list
) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        assert "adversarial_intent" not in [s.name for s in wizard.steps()]
        await answer_task(pilot, wizard, "adversarial")
        await forward(pilot, wizard, "adversarial_intent")
        await type_text(pilot, "reflexive retry removal")
        await forward(pilot, wizard, "scoring_notes")
        await paste(pilot, "Full marks only when the jitter is kept.")
        path = await write(pilot, wizard, sample_copy)
    text = path.read_text()
    assert "adversarial_intent: reflexive retry removal" in text
    assert "scoring_notes:\n  correctness: Full marks only when the jitter is kept." in text
    assert validate(sample_copy) == before


async def test_the_intent_step_is_only_for_the_adversarial_class(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "adversarial")
        await settled(pilot, wizard)
        statuses = {s.name: s for s in wizard.query_one(StepList).statuses}
        assert "adversarial_intent" in statuses
        # the missing intent shows once its step was left, not before
        await forward(pilot, wizard, "adversarial_intent")
        await forward(pilot, wizard, "scoring_notes")
        await settled(pilot, wizard)
        statuses = {s.name: s for s in wizard.query_one(StepList).statuses}
        assert statuses["adversarial_intent"].errors == 1
        await wizard.goto("class")
        await choose(pilot, wizard, "refactor")
        await settled(pilot, wizard)
        assert "adversarial_intent" not in {s.name for s in wizard.query_one(StepList).statuses}


async def test_back_and_forward_keep_every_answer(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "feature-change")
        for step in ("visibility", "expected_boundary", "ground_truth"):
            await pilot.press("pageup")
            await at_step(pilot, wizard, step)
        assert field_text(wizard) == TRUTH
        await pilot.press("pageup")
        await at_step(pilot, wizard, "id")
        assert field_text(wizard) == "fix-flaky-retry-uploader-fails-one"
        await pilot.press("pageup")
        await at_step(pilot, wizard, "prompt")
        assert field_text(wizard) == PROMPT
        await pilot.press("pageup")
        await at_step(pilot, wizard, "class")
        assert wizard.answers.fixture_class == "feature-change"
        for step in ("prompt", "id", "ground_truth", "expected_boundary"):
            await pilot.press("pagedown")
            await at_step(pilot, wizard, step)
        assert (wizard.answers.prompt, wizard.answers.ground_truth) == (PROMPT, TRUTH)
        assert wizard.answers.expected_boundary == "unit"


async def test_back_and_forward_work_from_a_step_with_an_error(sample_copy: Path) -> None:
    root = sample_copy
    before = tree(root)
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "bug-diagnosis")
        await wizard.goto("id")
        await at_step(pilot, wizard, "id")
        await pilot.press("ctrl+a", "ctrl+k")  # clear the proposal, then a bad id
        await type_text(pilot, "Bad Id")
        await settled(pilot, wizard)
        shown = wizard.query_one("#step-diagnostics").diagnostics  # type: ignore[attr-defined]
        assert [d.code for d in shown] == ["id-not-slug"]
        await pilot.press("pagedown")
        await at_step(pilot, wizard, "ground_truth")
        await settled(pilot, wizard)
        status = {s.name: s for s in wizard.query_one(StepList).statuses}["id"]
        assert (status.visited, status.errors) == (True, 1)
        await pilot.press("pageup")
        await at_step(pilot, wizard, "id")
        assert field_text(wizard) == "Bad Id"
        await pilot.press("pageup")
        await at_step(pilot, wizard, "prompt")
        # the preview lists it, and ctrl+s there writes nothing
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        assert not wizard.checked.writable  # type: ignore[union-attr]
        await pilot.press("ctrl+s")
        await settled(pilot, wizard)
        assert app.screen is wizard and not wizard.done
    after = tree(root)
    drafts = {p for p in after if p.startswith(".voyage")}
    assert {p: v for p, v in after.items() if p not in drafts} == before


async def test_the_same_id_as_another_fixture_is_an_error_as_you_type(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "bug-diagnosis")
        await wizard.goto("id")
        await at_step(pilot, wizard, "id")
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "pagination-last-page-dropped")
        await settled(pilot, wizard)
        shown = wizard.query_one("#step-diagnostics").diagnostics  # type: ignore[attr-defined]
        assert [d.code for d in shown] == ["duplicate-id"]
        assert "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml" in shown[0].message


async def test_the_write_button_writes(sample_copy: Path, before: list) -> None:
    """A click on Write does what ctrl+s does (it called the write without running it)."""
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_task(pilot, wizard, "refactor")
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        rel = wizard.checked.rel  # type: ignore[union-attr]
        await pilot.click("#write")
        await wait_until(pilot, lambda: (sample_copy / rel).is_file())
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    assert validate(sample_copy) == before
