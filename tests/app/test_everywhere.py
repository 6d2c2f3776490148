"""What every screen offers: help, the command palette, a user keymap, $EDITOR, every binding
with an id."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import HelpPanel

from tests.app.support import make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.actions import palette_actions
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.commands import VoyageCommands
from voyage_tui.app.keymap import load_keymap
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture
def root(make_workspace) -> Path:
    broken = task_yaml("b1").replace("visibility: public", "visibility: secret")
    return make_workspace({"fixtures/bug-diagnosis/b1/task.yaml": broken})


def _all_binding_classes() -> list[type]:
    from textual.widget import Widget

    from tests.app.test_actions import _app_classes

    return [VoyageApp, *_app_classes(Widget)]


def test_every_binding_has_an_id() -> None:
    for cls in _all_binding_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding), f"{cls.__name__}: {binding!r} is not a Binding"
            assert binding.id, f"{cls.__name__}: {binding.key} has no id"


def test_no_primary_action_depends_on_ctrl_enter_alone() -> None:
    for cls in _all_binding_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            assert binding.key != "ctrl+enter", f"{binding.id} needs a key that survives tmux"


async def test_f1_and_question_mark_toggle_the_help_panel(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(app.screen.query(HelpPanel)))
        await pilot.press("f1")
        await wait_until(pilot, lambda: not app.screen.query(HelpPanel))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: bool(app.screen.query(HelpPanel)))


async def test_question_mark_in_the_filter_is_text_not_help(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("slash", "question_mark")
        await pilot.pause()
        assert not app.screen.query(HelpPanel)
        assert browser.query_one("#filter").value == "?"


def test_keymap_file_is_read_and_a_broken_one_is_reported(tmp_path: Path) -> None:
    good = tmp_path / "keymap.toml"
    good.write_text('[keymap]\n"browser.next-error" = "z"\n')
    assert load_keymap(good) == ({"browser.next-error": "z"}, None)
    bad = tmp_path / "bad.toml"
    bad.write_text("[keymap\n")
    keymap, problem = load_keymap(bad)
    assert keymap == {} and problem and "ignored" in problem
    assert load_keymap(tmp_path / "missing.toml") == ({}, None)


async def test_a_user_keymap_remaps_a_binding_by_id(
    root: Path, tmp_path: Path, monkeypatch
) -> None:
    keymap = tmp_path / "keymap.toml"
    keymap.write_text('[keymap]\n"browser.next-error" = "z"\n')
    monkeypatch.setenv("VOYAGE_TUI_KEYMAP", str(keymap))
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n")
        assert browser.suite_tree.current_path() != "fixtures/bug-diagnosis/b1/task.yaml"
        await pilot.press("z")
        assert browser.suite_tree.current_path() == "fixtures/bug-diagnosis/b1/task.yaml"


async def test_the_command_palette_lists_every_action_and_opens_items(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        provider = VoyageCommands(app.screen)
        titles = [hit.text for hit in [h async for h in provider.discover()]]
        assert titles == [a.palette for a in palette_actions("browser") + palette_actions("app")]
        assert "Compare runs" in titles
        hits = [h async for h in provider.search("b1")]
        opener = next(h for h in hits if "Open b1" in str(h.text))
        opener.command()
        await pilot.pause()
        assert browser.suite_tree.current_path() == "fixtures/bug-diagnosis/b1/task.yaml"
        next_error = next(h for h in [h async for h in provider.search("next error")])
        assert "Next error" in str(next_error.text)


async def test_external_editor_suspends_runs_editor_and_revalidates(
    root: Path, monkeypatch
) -> None:
    calls: list[list[str]] = []
    app = make_app(root)

    class FakeSuspend:
        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: object) -> None:
            return None

    def fake_run(args: list[str], check: bool) -> None:
        calls.append(args)
        path = Path(args[-1])
        path.write_text(path.read_text().replace("visibility: secret", "visibility: public"))

    monkeypatch.setenv("EDITOR", "myeditor --wait")
    monkeypatch.setattr("voyage_tui.app.screens.editor.subprocess.run", fake_run)
    monkeypatch.setattr(app, "suspend", lambda: FakeSuspend())
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await pilot.press("n", "E")
        assert calls and calls[0][:2] == ["myeditor", "--wait"]
        assert calls[0][-1].endswith("fixtures/bug-diagnosis/b1/task.yaml")
        await wait_until(pilot, lambda: app.view is not None and app.view.summary.errors == 0)
        assert browser.suite_tree.find_error() is None


async def test_retire_a_holdout_from_the_browser(make_workspace) -> None:
    from voyage_tui.app.screens.modals import ChoiceScreen

    holdout = "# canary: 3f1c2b9e-6a1d-4f4e-9d1a-0c2b7e5a9f10\n" + task_yaml("h1").replace(
        "visibility: public", "visibility: holdout"
    )
    root = make_workspace({"fixtures/bug-diagnosis/h1/task.yaml": holdout})
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path("fixtures/bug-diagnosis/h1/task.yaml")
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")  # retire only: no repository here to commit to
        path = root / "fixtures/bug-diagnosis/h1/task.yaml"
        await wait_until(pilot, lambda: "visibility: public" in path.read_text())
        assert path.read_text() == holdout.replace("visibility: holdout", "visibility: public")
        await wait_until(pilot, lambda: app.view is not None and app.view.holdout_count == 0)


async def test_loading_news_that_arrives_while_the_app_closes_is_dropped(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Quitting while the suite still loads: the loading worker keeps posting its progress
    # while the screens are being taken down, their widgets already gone.
    import threading
    import time

    from voyage_tui.app.messages import LoadProgress
    from voyage_tui.engine.validation.suite import Suite

    stop = threading.Event()
    app = make_app(root)

    def loading_until_stopped(self: Suite, *args: object, **kwargs: object) -> None:
        done = 0
        while not stop.is_set():
            done += 1
            app.post_message(LoadProgress(done, 1_000_000))
            time.sleep(0.001)

    monkeypatch.setattr(Suite, "validate_all", loading_until_stopped)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: app.browser() is not None)
            await pilot.pause()
    finally:
        stop.set()
