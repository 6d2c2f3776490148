"""A rater-only session (`voyage-tui rate`, `serve --rate`): every key of every binding the
session can reach, and every command of its palette, keeps the rater in the rating views, and
no agent label nor run id ever shows while blind; `escape` asks to end the session."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.command import CommandList, CommandPalette
from textual.screen import Screen

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from tests.fast_textual import screen_text
from voyage_tui.app import rater_only
from voyage_tui.app.actions import REGISTRY, split_keys
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.commands import VoyageCommands, palette_entries
from voyage_tui.app.navigation import RATING_VIEWS
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace

QUITTING = {"ctrl+q"}
"""Keys that end the app on the session (tested on their own below)."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def session_app(root: Path, rater: str = "me") -> VoyageApp:
    settings = AppSettings(
        use_git=False, watch=False, keymap={}, initial_rate=(rater, True), rater_only=True
    )
    return VoyageApp(Workspace.load(root), settings)


def secrets_of(root: Path) -> set[str]:
    """What a blind rater must never see: each run's agent label (and the model its metadata
    names) and its run id, read from the sample's run files."""
    found: set[str] = set()
    runs = sorted(root.glob("fixtures/*/*/runs/*.yaml"))
    assert runs
    for path in runs:
        data = yaml.safe_load(path.read_text())
        found |= {str(data["agent"]), str(data["run_id"])}
        model = (data.get("metadata") or {}).get("model")
        if model:
            found.add(str(model))
    assert {"agent-a", "agent-b", "run-a1", "run-b1"} <= found
    return found


async def opened(pilot) -> RateScreen:
    app = pilot.app
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, RateScreen)
            and app.screen.state is not None
            and not app.screen.busy
        ),
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def only_rating_views(app: VoyageApp) -> list[str]:
    """The screens on any area's stack that are not rating views (Textual's empty default
    screen aside)."""
    return [
        type(s).__name__
        for s in app.navigation.every_screen()
        if not isinstance(s, RATING_VIEWS) and not (type(s) is Screen and s.id == "_default")
    ]


def check(app: VoyageApp, secrets: set[str], after: str) -> None:
    assert app.is_running, f"the app ended after {after}"
    assert only_rating_views(app) == [], after
    shown = "\n".join(
        [screen_text(app), app.title, app.sub_title, app.screen.title or ""]
        + [n.message for n in app._notifications]
    )
    leaked = sorted(s for s in secrets if s in shown)
    assert leaked == [], f"{leaked} on screen after {after}"


async def back_to_session(pilot, screen: RateScreen) -> None:
    """Close what a key opened over the session (the palette, a question, the note)."""
    app = pilot.app
    for _ in range(5):
        if app.screen is screen and not screen.query_one("#rate-note").display:
            break
        if app.screen is screen:
            await pilot.press("escape")  # the note: dropped
        else:
            await pilot.press("c" if isinstance(app.screen, ChoiceScreen) else "escape")
        await pilot.pause()
    await wait_until(pilot, lambda: app.screen is screen and not screen.busy)


def every_key() -> list[str]:
    """Every key any binding of the app names: the registry's (every scope, so the browser's
    and triage's keys are tried on the session too) and Textual's own."""
    keys = {k for a in REGISTRY.values() if a.keys for k in split_keys(a.keys)}
    keys |= {"ctrl+p", "ctrl+c", "tab", "shift+tab", "f1", "question_mark", "ctrl+q"}
    return sorted(keys - QUITTING)


async def test_no_key_leaves_the_rating_views_nor_shows_an_agent(root: Path) -> None:
    secrets = secrets_of(root)
    app = session_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert [type(s).__name__ for s in app.navigation.every_screen()[1:]] == ["RateScreen"]
        check(app, secrets, "opening")
        for key in every_key():
            await pilot.press(key)
            await pilot.pause()
            check(app, secrets, key)
            if isinstance(app.screen, ChoiceScreen):  # escape's question: try its keys too
                for answer in sorted(
                    {
                        k
                        for a in REGISTRY.values()
                        if a.scope == "dialog"
                        for k in split_keys(a.keys or "")
                    }
                    - {"y", "enter"}
                ):
                    if not isinstance(app.screen, ChoiceScreen):
                        await pilot.press("escape")
                        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
                    await pilot.press(answer)
                    await pilot.pause()
                    check(app, secrets, f"{key} then {answer}")
            await back_to_session(pilot, screen)
            check(app, secrets, f"{key}, closed")
        # Rate through every run: each one shown is checked as well.
        while screen.state is not None and screen.state.current is not None:
            before = screen.state
            await pilot.press(*"33333")
            await wait_until(
                pilot, lambda before=before: screen.state is not before and not screen.busy
            )
            check(app, secrets, "a rating")


async def test_the_palette_lists_only_the_session_and_every_command_stays_in_it(
    root: Path,
) -> None:
    secrets = secrets_of(root)
    app = session_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 0)
        await pilot.pause(0.3)
        listed = {
            str(palette.query_one(CommandList).get_option_at_index(i).prompt).split("\n")[0]
            for i in range(palette.query_one(CommandList).option_count)
        }
        for title in (
            "Triage queue",
            "Rater agreement",
            "Create a fixture",
            "Screenshot",
            "Runs of a gold file",
            "Compare runs",
            "Re-validate everything",
        ):
            assert not any(line.startswith(title) for line in listed), listed
        assert any(line.startswith("Undo the last rating") for line in listed), listed
        check(app, secrets, "the palette")
        # Searching names no item of the suite (a run's id, a file to open).
        await pilot.press(*"run")
        await pilot.pause(0.5)
        found = [
            str(palette.query_one(CommandList).get_option_at_index(i).prompt)
            for i in range(palette.query_one(CommandList).option_count)
        ]
        assert not [f for f in found if f.startswith("Open ")], found
        check(app, secrets, "a search in the palette")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)

        # Every command the palette could run, run: the session's and Textual's own.
        provider = VoyageCommands(screen)
        commands = [(title, run) for title, _, run in provider._commands()]
        commands += [(c.title, c.callback) for c in app.get_system_commands(screen)]
        titles = {title for title, _ in commands}
        assert "Screenshot" not in titles and "Quit" in titles
        for title, run in commands:
            if title in ("Quit", "Leave the rater session", "Back"):
                continue  # end the app (or ask to): below
            result = run()
            if hasattr(result, "__await__"):
                await result
            await pilot.pause()
            check(app, secrets, f"the palette's {title!r}")
            await back_to_session(pilot, screen)


def test_the_session_offers_only_its_own_actions() -> None:
    entries = palette_entries(RateScreen(), rater_session=True)
    assert entries and {a.scope for a, _ in entries} <= {"rate", "app"}
    assert {a.id for a, _ in entries if a.scope == "app"} <= rater_only.SESSION_APP_ACTIONS
    refused = rater_only.refused_app_actions()
    for name in (
        "agreement",
        "triage",
        "rate_session",
        "new_fixture",
        "runs_command",
        "compare_runs_command",
        "revalidate_all",
        "screenshot",
    ):
        assert name in refused
    assert not {"quit", "toggle_help"} & refused
    # Outside a rater-only session the palette is whole.
    assert len(palette_entries(RateScreen())) > len(entries)


async def test_the_app_refuses_every_other_area_whichever_way_it_is_asked(root: Path) -> None:
    secrets = secrets_of(root)
    app = session_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        for name in (
            "agreement",
            "triage",
            "rate_session",
            "new_fixture",
            "runs_command",
            "compare_runs_command",
            "revalidate_all",
        ):
            assert await app.run_action(name) is False, name
            await pilot.pause()
            check(app, secrets, name)
        # Asked directly (a path the actions do not guard), the navigation still refuses.
        from voyage_tui.app.screens.agreement import AgreementScreen
        from voyage_tui.app.screens.browser import BrowserScreen

        for other in (BrowserScreen(), AgreementScreen()):
            app.push_screen(other)
            await pilot.pause()
            assert app.screen is screen
        app.open_rater_on("x", "y")
        app.reveal("fixtures/rubric.md")
        app.action_triage()
        await pilot.pause()
        check(app, secrets, "direct calls")
        assert app.screen is screen


async def test_escape_asks_and_no_stays(root: Path) -> None:
    app = session_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await pilot.press("3")  # a score on screen: the question says it is not saved
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        question = app.export_screenshot()
        assert "End" in question and "not" in question and "saved" in question
        await pilot.press("c")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.session is not None  # still rating
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.session is not None


@pytest.mark.parametrize("keys", [("escape", "y"), ("escape", "enter"), ("ctrl+q",)], ids=str)
async def test_yes_or_quit_ends_the_session_and_the_app(root: Path, keys) -> None:
    from voyage_tui.engine.ratings.lock import check_free

    app = session_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        assert app.return_code == 0  # None while the app has not been told to exit
    assert screen.session is None
    check_free(Workspace.load(root), "me")  # the rater's lock is let go


async def test_outside_a_rater_only_session_escape_still_goes_to_the_browser(root: Path) -> None:
    from voyage_tui.app.screens.browser import BrowserScreen

    settings = AppSettings(use_git=False, watch=False, keymap={}, initial_rate=("me", True))
    app = VoyageApp(Workspace.load(root), settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserScreen))
