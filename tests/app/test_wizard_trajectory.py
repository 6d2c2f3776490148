"""The wizard's trajectory steps: the journey's phases and gates as checklists, each unticked one
with its reason, the terminal state, the routing table, and the commit `final_head_sha` binds to."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox, Input, OptionList

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
from tests.authoring.conftest import git_sample  # noqa: F401  (a fixture)
from tests.git.conftest import Repo, isolated_git  # noqa: F401  (no git config of this machine)
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace

PROMPT = "Rename the retry flag in the uploader config and ship it."


async def untick(pilot, wizard: WizardScreen, widget_id: str, reason: str) -> None:
    """Tick off a checklist row with space; its reason field opens and takes the typing."""
    wizard.query_one(f"#{widget_id}", Checkbox).focus()
    await pilot.press("space")
    reason_field = wizard.query_one(f"#{widget_id}-reason", Input)
    await wait_until(pilot, lambda: pilot.app.focused is reason_field)
    await paste(pilot, reason)


async def verdict(pilot, wizard: WizardScreen, index: int, value: str) -> None:
    """Give gate `index` its verdict with the row's key (`p`, `c`, `b`)."""
    tick = wizard.query_one(f"#gate-{index}", Checkbox)
    tick.focus()
    await wait_until(pilot, lambda: tick.has_focus)
    await pilot.press(value[0])
    await wait_until(pilot, lambda: wizard.answers.gates[index].verdict == value)  # type: ignore[union-attr]


async def answer_trajectory(pilot, wizard: WizardScreen, path: str) -> None:
    await at_step(pilot, wizard, "kind")
    await choose(pilot, wizard, "trajectory")
    await at_step(pilot, wizard, "path")
    await choose(pilot, wizard, path)
    await at_step(pilot, wizard, "prompt")
    await paste(pilot, PROMPT)
    await forward(pilot, wizard, "id")
    await forward(pilot, wizard, "phases")


async def test_a_trajectory_with_a_skipped_phase_validates_with_no_new_diagnostic(
    sample_copy: Path,
) -> None:
    before = validate(sample_copy)
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_trajectory(pilot, wizard, "lightweight")
        labels = [str(c.label) for c in wizard.query(Checkbox)]
        assert labels[:3] == [
            "1: Intake and provenance",
            "2: Scoping and risk classification",
            "3: Design and planning",
        ]  # from journey.md
        await untick(pilot, wizard, "phase-2", "")
        await settled(pilot, wizard)
        rules = str(wizard.query_one("#rules").render())
        assert "✗ each unticked phase has its reason (1 without)" in rules
        await type_text(pilot, "copy fix")
        await settled(pilot, wizard)
        assert "✓ each unticked phase has its reason" in str(wizard.query_one("#rules").render())
        await forward(pilot, wizard, "gates")
        await verdict(pilot, wizard, 3, "conditional")
        for index in (0, 2, 3, 4):
            await verdict(pilot, wizard, index, "pass")
        await untick(pilot, wizard, "gate-1", "no design phase on this path")
        await forward(pilot, wizard, "terminal_state")
        await choose(pilot, wizard, "merged")
        await at_step(pilot, wizard, "final_head_sha")
        await forward(pilot, wizard, "routing")
        wizard.query_one("#routing-0", Checkbox).focus()  # security-review
        await pilot.press("space")
        wizard.query_one("#routing-1-reason", Input).focus()  # data-migration
        await paste(pilot, "no schema change")
        await forward(pilot, wizard, "visibility")
        await choose(pilot, wizard, "public")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        assert wizard.checked is not None and wizard.checked.writable, wizard.checked.blocking
        rel = wizard.checked.rel
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
    text = (sample_copy / rel).read_text()
    assert rel == "fixtures/trajectories/rename-retry-flag-uploader-config-ship/task.yaml"
    assert 'skipped_phases: "3: Design and planning: copy fix"' in text
    assert 'skipped_gates: "gate-2: no design phase on this path"' in text
    assert "routing_selected: security-review" in text
    assert 'routing_skipped: "data-migration: no schema change"' in text
    assert validate(sample_copy) == before


async def test_the_full_path_rules_show_while_you_tick(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_trajectory(pilot, wizard, "full")
        rules = str(wizard.query_one("#rules").render())
        assert "✓ full path: all 9 phases traversed" in rules
        await untick(pilot, wizard, "phase-6", "no security-relevant change")
        await settled(pilot, wizard)
        rules = str(wizard.query_one("#rules").render())
        assert "✗ full path: all 9 phases traversed (1 unticked)" in rules
        codes = [d.code for d in wizard.query_one("#step-diagnostics").diagnostics]  # type: ignore[attr-defined]
        assert "full-path-missing-phases" in codes


def _app(root: Path) -> VoyageApp:
    return VoyageApp(Workspace.load(root), AppSettings(use_git=True, watch=False, keymap={}))


async def test_final_head_sha_is_picked_from_recent_commits_and_stored_in_full(
    git_sample: Repo,  # noqa: F811
) -> None:
    root = git_sample.root
    first = git_sample.git("rev-parse", "HEAD")
    (root / "notes.txt").write_text("a second commit\n")
    git_sample.commit(message="Second commit: notes")
    second = git_sample.git("rev-parse", "HEAD")
    app = _app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_trajectory(pilot, wizard, "full")
        await wizard.goto("final_head_sha")
        await at_step(pilot, wizard, "final_head_sha")
        commits = wizard.query_one("#commits", OptionList)
        await wait_until(pilot, lambda: commits.option_count >= 3)
        prompts = [str(commits.get_option_at_index(i).prompt) for i in range(3)]
        assert second[:10] in prompts[1] and "Second commit: notes" in prompts[1]
        assert first[:10] in prompts[2]
        commits.focus()
        await pilot.press("down", "down", "enter")  # (none), second, first
        await at_step(pilot, wizard, "routing")
        assert wizard.answers.final_head_sha == first
        await pilot.press("pageup")
        await at_step(pilot, wizard, "final_head_sha")
        wizard.query_one("#revision", Input).focus()
        await type_text(pilot, "HEAD\n")
        await wait_until(pilot, lambda: wizard.answers.final_head_sha == second)
        await settled(pilot, wizard)
        shown = wizard.query_one("#step-diagnostics").diagnostics  # type: ignore[attr-defined]
        assert [d for d in shown if d.severity.value == "error"] == []


async def test_names_from_the_workspace_are_shown_as_text_never_as_markup(
    sample_copy: Path,
) -> None:
    """journey.md and the routing table come from whoever wrote the workspace: a name holding
    `[` must show as typed (Textual would read a plain string label as markup, and fail)."""
    journey = sample_copy / "fixtures/references/journey.md"
    journey.write_text(
        journey.read_text().replace("3. Design and planning", "3. Design [and planning")
    )
    table = sample_copy / "fixtures/references/routing-table.md"
    table.write_text(table.read_text().replace("| security-review |", "| [b]security-review |"))
    app = make_app(sample_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_trajectory(pilot, wizard, "lightweight")
        assert str(wizard.query_one("#phase-2", Checkbox).label) == "3: Design [and planning"
        await wizard.goto("routing")
        await at_step(pilot, wizard, "routing")
        assert str(wizard.query_one("#routing-0", Checkbox).label) == "[b]security-review"


async def test_with_git_off_a_full_sha_is_typed_and_anything_else_refused(
    sample_copy: Path,
) -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    app = make_app(sample_copy)  # use_git=False, as `--no-git`
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(pilot)
        await answer_trajectory(pilot, wizard, "full")
        await wizard.goto("final_head_sha")
        await at_step(pilot, wizard, "final_head_sha")
        assert "git is off" in str(
            wizard.query_one("#commits", OptionList).get_option_at_index(1).prompt
        )
        wizard.query_one("#revision", Input).focus()
        await type_text(pilot, "HEAD\n")
        assert wizard.answers.final_head_sha == ""
        assert wizard.query_one("#revision", Input).value == "HEAD"  # kept, to be corrected
        await pilot.press("ctrl+a", "ctrl+k")
        await paste(pilot, sha.upper())
        await pilot.press("enter")
        assert wizard.answers.final_head_sha == sha
        assert sha in str(wizard.query_one("#head-current").render())


def test_a_commit_keeps_its_date_when_the_author_line_is_long() -> None:
    from rich.console import Console

    from voyage_tui.app.screens.wizard_journey import commit_text
    from voyage_tui.engine.authoring.commits import Commit

    commit = Commit(
        "a" * 40,
        "Fix the thing",
        "Firstname " * 12 + "<someone@example.com>",
        "2026-11-30T10:00:00+00:00",
    )
    console = Console(width=60, record=True)
    console.print(commit_text(commit, False), no_wrap=True, overflow="ellipsis")
    second = console.export_text().splitlines()[1]
    assert "2026-11-30" in second, second
