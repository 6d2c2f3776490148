"""The triage screen driven by keys alone, on a copy of the sample holding every kind of item:
open an error and fix it, snooze and undo, retire and undo (the file's bytes come back), bulk
snooze, marks, filters, repeat; every result checked on disk and on screen."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.app.support import wait_until
from tests.app.triage_steps import open_triage, settle
from tests.triage.seed import BROKEN, HOLDOUT, seeded_sample
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.triage import TriageScreen
from voyage_tui.app.screens.triage_modals import DateScreen, ExposureScreen, SnoozeScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.triage.state import STATE_REL
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    return seeded_sample(tmp_path)


def triage_app(root: Path, *, git: bool = True) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root), AppSettings(use_git=git, watch=False, keymap={}, initial_triage=True)
    )


async def ready(pilot: Pilot, git: bool = True) -> TriageScreen:
    return await open_triage(pilot, git)


def shown_keys(screen: TriageScreen) -> list[str]:
    return [i.key for i in screen.shown]


def key_of(screen: TriageScreen, kind: str) -> str:
    return next(i.key for i in screen.shown if i.kind == kind)


async def select(pilot: Pilot, screen: TriageScreen, key: str) -> None:
    screen.listing.highlighted = shown_keys(screen).index(key)
    await pilot.pause()


async def _answer(pilot: Pilot, key: str) -> None:
    """Answer the question a retire asks first (m commits too, o retires only)."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    await wait_until(pilot, lambda: bool(pilot.app.screen.query("#choice-cancel")))
    await pilot.press(key)


def header(screen: TriageScreen) -> str:
    return str(screen.query_one("#triage-header").render())


async def test_the_queue_shows_every_kind_with_counts(seeded: Path) -> None:
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        kinds = [i.kind for i in screen.shown]
        assert kinds[0] == "error" and kinds[-1] == "unrated"
        text = header(screen)
        assert "1 error · 1 exposed · 2 low-score · 1 drift · 1 warning · 2 unrated" in text
        assert "8 of 8 left" in text


async def test_open_an_error_fix_it_in_the_editor_and_it_leaves(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        error = key_of(screen, "error")
        after = shown_keys(screen)[1]
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.opened is not None
        )
        editor: EditorScreen = app.screen  # type: ignore[assignment]
        assert editor.rel == BROKEN
        assert editor.text_area.cursor_location[0] == 1  # the `class:` line (line 2)
        editor.text_area.replace("feature-change", (1, 7), (1, 20))
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.dirty)
        await pilot.press("escape")
        await settle(pilot, screen, lambda: error not in shown_keys(screen))
        assert "class: feature-change\n" in (seeded / BROKEN).read_text()
        assert screen.current is not None and screen.current.key == after
        assert "0 errors" not in header(screen) and "error" not in header(screen).split("·")[0]


async def test_snooze_then_undo_brings_it_back_and_selects_it(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        warning = key_of(screen, "warning")
        await select(pilot, screen, warning)
        nxt = shown_keys(screen)[shown_keys(screen).index(warning) + 1]
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SnoozeScreen))
        await pilot.press("f")
        await settle(pilot, screen, lambda: warning not in shown_keys(screen))
        assert screen.current is not None and screen.current.key == nxt
        state = json.loads((seeded / STATE_REL).read_text())
        assert state["snoozes"][warning]["until"] == "change"
        assert "1 snoozed" in header(screen)
        await pilot.press("u")
        await settle(pilot, screen, lambda: warning in shown_keys(screen))
        assert screen.current is not None and screen.current.key == warning
        assert json.loads((seeded / STATE_REL).read_text())["snoozes"] == {}


async def test_snooze_until_a_date_typed_in(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        first = shown_keys(screen)[0]
        await pilot.press("s", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, DateScreen))
        box = app.screen.query_one("#snooze-date")
        box.value = "2000-01-01"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DateScreen), "a day in the past is refused"
        box.value = "2999-12-31"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot, screen, lambda: first not in shown_keys(screen))
        state = json.loads((seeded / STATE_REL).read_text())
        assert state["snoozes"][first]["until"] == "2999-12-31"


async def test_retire_then_undo_leaves_the_file_byte_for_byte(seeded: Path) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        exposed = key_of(screen, "exposed")
        await pilot.press("2")  # the exposed tab
        await settle(pilot, screen)
        assert shown_keys(screen) == [exposed]
        await pilot.press("R")
        await _answer(pilot, "o")
        await settle(pilot, screen, lambda: exposed not in shown_keys(screen))
        assert path.read_bytes() == original.replace(b"visibility: holdout", b"visibility: public")
        await pilot.press("0", "u")
        await settle(pilot, screen, lambda: exposed in shown_keys(screen))
        assert path.read_bytes() == original
        assert screen.current is not None and screen.current.key == exposed


async def test_enter_on_an_exposed_holdout_shows_its_signals_and_retires_from_there(
    seeded: Path,
) -> None:
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, key_of(screen, "exposed"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ExposureScreen))
        shown = str(app.screen.query_one("#exposure-signals").render())
        assert "canary-leak" in shown and "Seed Maintainer" in shown
        assert "notes/agent-notes.md" in shown
        await pilot.press("R")
        await _answer(pilot, "o")  # the same question as everywhere, after the signals
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        assert b"visibility: public" in (seeded / HOLDOUT).read_bytes()


async def test_bulk_snooze_of_more_than_five_asks_and_is_one_undo(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        everything = shown_keys(screen)
        assert len(everything) > 5
        await pilot.press("asterisk")
        assert screen.marked == set(everything)
        await pilot.press("s", "f")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("y")
        await settle(pilot, screen, lambda: shown_keys(screen) == [])
        assert "nothing to triage" in header(screen)
        state = json.loads((seeded / STATE_REL).read_text())
        assert set(state["snoozes"]) == set(everything)
        assert len(state["journal"]) == 1
        await pilot.press("u")
        await settle(pilot, screen, lambda: shown_keys(screen) == everything)


async def test_a_bulk_action_of_five_or_fewer_does_not_ask(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        keys = shown_keys(screen)
        await pilot.press("space", "space", "v", "j", "v")  # marks 1, 2, then 3..4 as a range
        assert screen.marked == set(keys[:4])
        await pilot.press("s", "w")
        await settle(pilot, screen, lambda: shown_keys(screen) == keys[4:])
        assert not isinstance(app.screen, ChoiceScreen)
        state = json.loads((seeded / STATE_REL).read_text())
        assert {s["until"] for s in state["snoozes"].values()} == {
            next(iter(state["snoozes"].values()))["until"]
        }
        assert screen.marked == set()


async def test_repeat_applies_the_last_action_to_the_current_item(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        keys = shown_keys(screen)
        await pilot.press("s", "d")
        await settle(pilot, screen, lambda: shown_keys(screen) == keys[1:])
        await pilot.press("full_stop")
        await settle(pilot, screen, lambda: shown_keys(screen) == keys[2:])
        state = json.loads((seeded / STATE_REL).read_text())
        assert state["snoozes"][keys[0]]["until"] == state["snoozes"][keys[1]]["until"]
        await pilot.press("u", "u")
        await settle(pilot, screen, lambda: shown_keys(screen) == keys)


async def test_moving_filtering_by_kind_and_by_text(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        keys = shown_keys(screen)
        await pilot.press("G")
        assert screen.current.key == keys[-1]  # type: ignore[union-attr]
        await pilot.press("g", "j", "j", "k")
        assert screen.current.key == keys[1]  # type: ignore[union-attr]
        await pilot.press("3")
        assert {i.kind for i in screen.shown} == {"low-score"}
        await pilot.press("tab")
        assert {i.kind for i in screen.shown} == {"drift"}
        await pilot.press("0", "slash", *"grond")
        await pilot.press("enter")
        assert [i.kind for i in screen.shown] == ["warning"]
        await pilot.press("escape")  # first escape: the text filter goes
        assert shown_keys(screen) == keys
        assert isinstance(app.screen, TriageScreen)


async def test_enter_opens_a_low_score_in_the_diff_and_an_unrated_run(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        await select(pilot, screen, key_of(screen, "low-score"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        assert app.screen.run_rel.endswith("run-empty.json")  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        unrated = next(i for i in screen.shown if i.kind == "unrated")
        await select(pilot, screen, unrated.key)
        await pilot.press("enter")
        # The rater session, opened on that very run (not the next unrated one in its order).
        from voyage_tui.app.screens.rate import RateScreen

        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, RateScreen)
                and app.screen.session is not None
                and app.screen.session.current is not None
            ),
        )
        current = app.screen.session.current  # type: ignore[attr-defined]
        assert (current.fixture_id, current.run_id) == (unrated.fixture_id, unrated.run_id)


async def test_e_opens_the_editor_at_the_line(seeded: Path, monkeypatch) -> None:
    calls: list[list[str]] = []

    class FakeSuspend:
        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: object) -> None:
            return None

    monkeypatch.setenv("EDITOR", "vim")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setattr(
        "voyage_tui.app.screens.editor.subprocess.run", lambda args, check: calls.append(args)
    )
    app = triage_app(seeded, git=False)
    monkeypatch.setattr(app, "suspend", lambda: FakeSuspend())
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, git=False)
        await pilot.press("e")
        assert calls == [["vim", "+2", str(seeded / BROKEN)]]


async def test_the_queue_follows_changes_on_disk_and_keeps_the_selection(seeded: Path) -> None:
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        warning = key_of(screen, "warning")
        await select(pilot, screen, warning)
        # Another program fixes the error above the selected item.
        path = seeded / BROKEN
        path.write_text(
            path.read_text().replace("class: feature-chang\n", "class: feature-change\n")
        )
        app.revalidate_paths({BROKEN})
        await settle(pilot, screen, lambda: screen.queue.counts()["error"] == 0)  # type: ignore[union-attr]
        assert screen.current is not None and screen.current.key == warning
        assert "6 of 7 left" in header(screen)  # without git, no exposed holdout


async def test_t_in_the_browser_and_the_palette_open_triage(seeded: Path) -> None:
    from voyage_tui.app.actions import palette_actions

    assert any(a.action == "triage" for a in palette_actions("app"))
    app = VoyageApp(Workspace.load(seeded), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.view is not None)
        await pilot.press("t")
        screen = await ready(pilot, git=False)
        await pilot.press("escape")
        assert app.screen is not screen
        await app.run_action("triage")
        await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen))


async def test_commit_is_its_own_key_after_a_retire(seeded: Path) -> None:
    from tests.triage.seed import git

    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, key_of(screen, "exposed"))
        await pilot.press("R")
        await _answer(pilot, "o")
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        assert git(seeded, "status", "--porcelain") == f"M {HOLDOUT}"
        await pilot.press("C")
        await settle(pilot, screen)
        assert git(seeded, "status", "--porcelain") == ""
        assert git(seeded, "log", "-1", "--format=%s").startswith("Retire holdout")


async def test_the_screen_and_the_command_line_list_the_same_queue(seeded: Path, capsys) -> None:
    from voyage_tui.cli import main

    assert main(["triage", str(seeded), "--format", "json"]) == 1
    listed = [i["key"] for i in json.loads(capsys.readouterr().out)["items"]]
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert shown_keys(screen) == listed


async def test_enter_on_a_suite_level_item_says_so_instead_of_editing_a_folder(
    make_workspace,
) -> None:
    from tests.conftest import task_yaml

    root = make_workspace(
        {"fixtures/refactor/r1/task.yaml": task_yaml("r1", "refactor")}, coverage=False
    )
    app = triage_app(root, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        assert screen.current is not None and screen.current.path == "fixtures"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen


# --- a retire made anywhere is undone here ---------------------------------------------------------


def _journal_paths(root: Path) -> list[list[str]]:
    from voyage_tui.engine.triage.state import StateStore

    journal = StateStore(Workspace.load(root)).load().state.journal
    return [[r.path for r in action.retired] for action in journal]


async def _undo_in_triage(pilot: Pilot, path: Path, original: bytes) -> TriageScreen:
    """`u` on the triage screen (its queue shown without waiting for exposure: the holdout is
    public until the undo) brings the file back byte for byte."""
    screen = await ready(pilot, git=False)
    await pilot.press("u")
    await settle(pilot, screen, lambda: path.read_bytes() == original)
    return screen


async def test_a_retire_from_the_browser_is_journaled_and_undone_in_triage(seeded: Path) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    app = VoyageApp(Workspace.load(seeded), AppSettings(use_git=True, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.view is not None, timeout=30)
        exposed = await open_triage(pilot)  # the exposure report is in, with the signals
        key = key_of(exposed, "exposed")
        await pilot.press("escape")
        browser = app.browser()
        assert browser is not None and browser.suite_tree.select_path(HOLDOUT)
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")
        await wait_until(pilot, lambda: path.read_bytes() != original, timeout=30)
        assert path.read_bytes() == original.replace(b"visibility: holdout", b"visibility: public")
        await wait_until(pilot, lambda: _journal_paths(seeded) == [[HOLDOUT]])
        screen = await _undo_in_triage(pilot, path, original)
        assert _journal_paths(seeded) == []
        # The holdout is back in the queue, under the key triage gives it, and selected.
        await settle(pilot, screen, lambda: key in shown_keys(screen))
        assert screen.current is not None and screen.current.key == key


async def test_a_retire_from_the_command_line_is_undone_in_triage(seeded: Path, capsys) -> None:
    from voyage_tui.cli import main

    path = seeded / HOLDOUT
    original = path.read_bytes()
    assert main(["exposure", str(seeded), "--retire", "discount-stacking-order"]) == 0
    capsys.readouterr()
    assert _journal_paths(seeded) == [[HOLDOUT]]
    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _undo_in_triage(pilot, path, original)
        assert _journal_paths(seeded) == []


async def test_a_retire_from_triage_is_journaled(seeded: Path) -> None:
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, key_of(screen, "exposed"))
        await pilot.press("R")
        await _answer(pilot, "o")
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        assert _journal_paths(seeded) == [[HOLDOUT]]


async def test_a_browser_retire_whose_journal_cannot_be_written_is_refused(
    seeded: Path, tmp_path: Path
) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    (seeded / ".voyage").mkdir()
    (seeded / STATE_REL).symlink_to(tmp_path / "elsewhere.json")
    app = VoyageApp(Workspace.load(seeded), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.view is not None, timeout=30)
        browser = app.browser()
        assert browser is not None and browser.suite_tree.select_path(HOLDOUT)
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")

        def refused() -> list[str]:
            return [str(n.message) for n in app._notifications if "Not retired" in str(n.message)]

        await wait_until(pilot, lambda: bool(refused()), timeout=30)
        [note] = refused()
        assert "the undo journal could not be written" in note and "symlink" in note
        assert path.read_bytes() == original
        assert not (tmp_path / "elsewhere.json").exists()


# --- a retire from triage asks first, as the browser's does ----------------------------------


async def _ask_retire(pilot: Pilot, screen: TriageScreen) -> ChoiceScreen:
    await select(pilot, screen, key_of(screen, "exposed"))
    await pilot.press("R")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    await wait_until(pilot, lambda: bool(pilot.app.screen.query("#choice-cancel")))
    return pilot.app.screen  # type: ignore[return-value]


@pytest.mark.parametrize("key", ["c", "escape"])
async def test_triage_retire_cancelled_retires_nothing(seeded: Path, key: str) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        dialog = await _ask_retire(pilot, screen)
        labels = [str(b.label) for b in dialog.query("Button")]
        assert labels == ["Retire and commit (m)", "Retire only (o)", "Cancel (esc/c)"]
        await pilot.press(key)
        await wait_until(pilot, lambda: app.screen is screen)
        await settle(pilot, screen)
        assert path.read_bytes() == original
        assert screen.queue is not None and screen.queue.counts()["exposed"] == 1
        assert _journal_paths(seeded) == []


async def test_triage_retire_only_changes_the_visibility_line(seeded: Path) -> None:
    from tests.triage.seed import git

    path = seeded / HOLDOUT
    original = path.read_bytes()
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await _ask_retire(pilot, screen)
        await pilot.press("o")
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        assert path.read_bytes() == original.replace(b"visibility: holdout", b"visibility: public")
        assert git(seeded, "status", "--porcelain") == f"M {HOLDOUT}"  # not committed


async def test_triage_retire_and_commit_commits_the_one_file(seeded: Path) -> None:
    from tests.triage.seed import git

    path = seeded / HOLDOUT
    original = path.read_bytes()
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await _ask_retire(pilot, screen)
        await pilot.press("m")
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        await wait_until(pilot, lambda: git(seeded, "status", "--porcelain") == "")
        assert path.read_bytes() == original.replace(b"visibility: holdout", b"visibility: public")
        assert git(seeded, "log", "-1", "--format=%s").startswith("Retire holdout")
        assert git(seeded, "show", "--name-only", "--format=", "HEAD") == HOLDOUT
        assert "canary-leak" in git(seeded, "log", "-1", "--format=%B")  # the signals named


async def test_a_bulk_retire_from_triage_asks_once_for_all(seeded: Path) -> None:
    app = triage_app(seeded)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        asked: list[str] = []
        push = app.push_screen

        def counting(screen_, *args, **kwargs):  # type: ignore[no-untyped-def]
            if isinstance(screen_, ChoiceScreen):
                asked.append(screen_.question)
            return push(screen_, *args, **kwargs)

        app.push_screen = counting  # type: ignore[method-assign]
        await pilot.press("asterisk")  # every item marked; R acts on the exposed ones
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")
        await settle(pilot, screen, lambda: screen.queue.counts()["exposed"] == 0)  # type: ignore[union-attr]
        assert len(asked) == 1
        assert b"visibility: public" in (seeded / HOLDOUT).read_bytes()


async def test_keys_typed_in_one_burst_after_slash_all_go_to_the_filter(seeded: Path) -> None:
    from textual import events
    from textual.widgets import Input

    app = triage_app(seeded, git=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot, git=False)
        everything = len(screen.shown)
        driver = app._driver
        assert driver is not None
        for key in ["slash", *"grond"]:  # queued at once, as a paste arrives (g is a key here)
            event = events.Key(key, "/" if key == "slash" else key)
            event.set_sender(app)
            driver.send_message(event)
        box = screen.query_one("#triage-filter", Input)
        await wait_until(pilot, lambda: box.value == "grond")
        await settle(pilot, screen)
        assert app.screen is screen
        assert [i.kind for i in screen.shown] == ["warning"] and everything > 1  # filtered
