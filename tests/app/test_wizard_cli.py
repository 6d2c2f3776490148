"""`voyage-tui new` on a terminal: the flags pre-fill the screens, the screens write the file, and
the command ends as `--no-input` would (the path on stdout), or names the draft that was kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app.support import wait_until
from tests.app.wizard_support import at_step, paste, settled, type_text, validate, wizard_ready
from tests.authoring.conftest import tree
from voyage_tui.app import wizard_launch
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import main, new_cmd
from voyage_tui.engine.authoring import WizardStart

FLAGS = [
    "--class",
    "bug-diagnosis",
    "--prompt",
    "The login page times out after 30 s on a cold cache.",
    "--ground-truth",
    "The cache warms lazily on the first request; warm it at start-up.",
    "--boundary",
    "integration",
]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[WizardStart]:
    """`voyage-tui new` as on a terminal, with the wizard's start kept instead of run."""
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    starts: list[WizardStart] = []

    def run_wizard(start: WizardStart) -> int:
        starts.append(start)
        return 0

    monkeypatch.setattr(wizard_launch, "run_wizard", run_wizard)
    return starts


def start_of(root: Path, started: list[WizardStart], *argv: str) -> WizardStart:
    assert main(["new", *argv[:1], str(root), *argv[1:]]) == 0
    return started.pop()


def test_open_wizard_runs_the_screens(sample_copy: Path, started: list[WizardStart]) -> None:
    start = start_of(sample_copy, started, "task", *FLAGS)
    assert new_cmd.open_wizard(start) == 0
    assert started == [start]


async def test_the_flags_pre_fill_the_screens_and_the_path_is_printed(
    sample_copy: Path, started: list[WizardStart], capsys: pytest.CaptureFixture[str]
) -> None:
    before = validate(sample_copy)
    start = start_of(sample_copy, started, "task", *FLAGS)
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await wizard_ready(pilot)
        assert wizard.standalone
        await at_step(pilot, wizard, "id")  # the first step the flags left open
        assert wizard.answers.id == "login-page-times-out-after-30"
        assert {"kind", "class", "prompt", "ground_truth", "expected_boundary"} <= wizard.visited
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.return_code is not None)
    capsys.readouterr()
    assert wizard_launch.report(app, start, app.return_code) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("fixtures/bug-diagnosis/login-page-times-out-after-30/task.yaml\n", "")
    assert validate(sample_copy) == before
    assert not (sample_copy / ".voyage/drafts" / f"{start.draft}.json").exists()


async def test_leaving_keeps_the_draft_and_says_how_to_resume_it(
    sample_copy: Path, started: list[WizardStart], capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(sample_copy / "fixtures")
    start = start_of(sample_copy, started, "task", *FLAGS)
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await wizard_ready(pilot)
        await at_step(pilot, wizard, "id")
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "cold-cache-login")
        await pilot.press("pagedown")  # leaving the step saves the draft
        await at_step(pilot, wizard, "ground_truth")
        draft = sample_copy / ".voyage/drafts" / f"{start.draft}.json"
        await wait_until(pilot, lambda: draft.is_file())
        assert json.loads(draft.read_text())["answers"]["id"] == "cold-cache-login"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("k")
        await wait_until(pilot, lambda: app.return_code is not None)
    capsys.readouterr()
    assert wizard_launch.report(app, start, app.return_code) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"nothing was written; your answers are in the draft {start.draft}" in err
    assert f"voyage-tui new task {sample_copy} --resume={start.draft}" in err  # run from elsewhere
    assert tree(sample_copy / "fixtures") == before
    saved = json.loads(draft.read_text())
    assert (saved["step"], saved["answers"]["id"]) == ("ground_truth", "cold-cache-login")

    resumed = start_of(sample_copy, started, "task", f"--resume={start.draft}")
    app = wizard_launch.wizard_app(resumed, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await wizard_ready(pilot)
        await at_step(pilot, wizard, "ground_truth")
        assert wizard.answers.id == "cold-cache-login"
        assert wizard.draft == start.draft


async def test_leaving_and_deleting_the_draft_leaves_nothing(
    sample_copy: Path, started: list[WizardStart], capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(sample_copy)
    start = start_of(sample_copy, started, "task", *FLAGS)
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await wizard_ready(pilot)
        await at_step(pilot, wizard, "id")
        await type_text(pilot, "-x")
        await pilot.press("pagedown")
        draft = sample_copy / ".voyage/drafts" / f"{start.draft}.json"
        await wait_until(pilot, lambda: draft.is_file())
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")
        await wait_until(pilot, lambda: app.return_code is not None)
    capsys.readouterr()
    assert wizard_launch.report(app, start, app.return_code) == 1
    assert capsys.readouterr().err == "voyage-tui new: nothing was written\n"
    after = tree(sample_copy)
    assert {p: v for p, v in after.items() if not p.startswith(".voyage")} == before
    assert not draft.exists()


async def test_quitting_mid_step_keeps_what_was_typed_in_the_draft(
    sample_copy: Path, started: list[WizardStart], capsys: pytest.CaptureFixture[str]
) -> None:
    start = start_of(sample_copy, started, "task", *FLAGS[:2])
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await wizard_ready(pilot)
        await at_step(pilot, wizard, "prompt")
        await paste(pilot, "Typed, and the terminal closed before the step was left.")
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: app.return_code is not None)
    capsys.readouterr()
    assert wizard_launch.report(app, start, app.return_code) == 1
    assert start.draft in capsys.readouterr().err
    saved = json.loads((sample_copy / ".voyage/drafts" / f"{start.draft}.json").read_text())
    assert saved["answers"]["prompt"] == "Typed, and the terminal closed before the step was left."
    assert saved["step"] == "prompt"


def test_the_resume_hint_names_the_workspace_when_run_from_elsewhere(
    sample_copy: Path,
    started: list[WizardStart],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from voyage_tui.app.screens.wizard import WizardOutcome

    start = start_of(sample_copy, started, "task")
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    app.wizard_outcome = WizardOutcome("task", None, "task-abc")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert wizard_launch.report(app, start, 1) == 1
    assert f"voyage-tui new task {sample_copy} --resume=task-abc" in capsys.readouterr().err
    monkeypatch.chdir(sample_copy / "fixtures")
    assert wizard_launch.report(app, start, 1) == 1
    assert "voyage-tui new task --resume=task-abc" in capsys.readouterr().err


async def test_a_head_that_does_not_resolve_is_said_in_the_wizard_not_dropped(
    sample_copy: Path, started: list[WizardStart]
) -> None:
    start = start_of(sample_copy, started, "trajectory", "--head", "no-such-revision")
    assert [n for n in start.notices if n.startswith("--head:")], start.notices
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(100, 30)) as pilot:
        await wizard_ready(pilot)
        await wait_until(
            pilot,
            lambda: any("--head:" in str(n.message) for n in app._notifications),
        )


async def test_a_drafts_source_is_shown_and_not_copied_until_named_here(
    sample_copy: Path, started: list[WizardStart]
) -> None:
    """A draft names `.env` (no git repository here to vouch for it): the context step and the
    preview show the source and why it is refused; typed again in the context step, it is the
    person's own choice and is copied."""
    from textual.widgets import Input, OptionList, Static

    from tests.authoring.test_check import complete_task
    from voyage_tui.engine.authoring import ContextEntry
    from voyage_tui.engine.authoring.drafts import DraftStore
    from voyage_tui.engine.workspace.model import Workspace

    (sample_copy / ".env").write_text("SECRET=1\n")
    answers = complete_task(context=[ContextEntry(file="repo/config.sample", source=".env")])
    DraftStore(Workspace.load(sample_copy)).save("task-planted", answers, "context")
    start = start_of(sample_copy, started, "task", "--resume=task-planted")
    app = wizard_launch.wizard_app(start, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(100, 30)) as pilot:
        wizard = await wizard_ready(pilot)
        await at_step(pilot, wizard, "context")
        await settled(pilot, wizard)
        shown = wizard.query_one("#step-diagnostics").diagnostics  # type: ignore[attr-defined]
        assert [d.code for d in shown] == ["context-source-unreadable"]
        assert ".env" in shown[0].message and "no git repository" in shown[0].message
        entries = wizard.query_one("#context-entries", OptionList)
        assert "copied from .env" in str(entries.get_option_at_index(0).prompt)
        await pilot.press("ctrl+s")
        await at_step(pilot, wizard, "preview")
        await settled(pilot, wizard)
        assert wizard.checked is not None and not wizard.checked.writable
        copies = str(wizard.query_one("#preview-copies", Static).render())
        assert (
            ".env" in copies and "fixtures/bug-diagnosis/login-timeout/repo/config.sample" in copies
        )
        await pilot.press("ctrl+s")  # refused: nothing is written
        await pilot.pause()
        assert not (sample_copy / "fixtures/bug-diagnosis/login-timeout").exists()
        await wizard.goto("context")
        await at_step(pilot, wizard, "context")
        entries = wizard.query_one("#context-entries", OptionList)
        entries.focus()
        entries.highlighted = 0
        await pilot.press("delete")
        wizard.query_one("#context-file", Input).focus()
        await paste(pilot, ".env")
        await pilot.press("enter")
        await settled(pilot, wizard)
        assert wizard.query_one("#step-diagnostics").diagnostics == []  # type: ignore[attr-defined]
    assert not (sample_copy / "fixtures/bug-diagnosis/login-timeout").exists()
