"""The app keeps running, and keeps unsaved work, whatever a workspace or a failing part throws
at it: names that are not UTF-8, files that cannot be saved, export text Textual cannot encode,
a worker or an action that raises. When it must stop, unsaved buffers go to recovery files."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.app.scenarios import GOLD, copy_sample
from tests.app.support import header_text, make_app, wait_loaded, wait_until, watching
from tests.conftest import task_yaml
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.editor import EDITOR_LANGUAGES, EditorScreen
from voyage_tui.app.screens.review_modals import PathScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.marked_text_area import MarkedTextArea
from voyage_tui.cli import main
from voyage_tui.engine.workspace.model import Workspace

TASK = "fixtures/bug-diagnosis/alpha/task.yaml"
RUNS = "fixtures/gold/jwt-auth/runs"


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace({TASK: task_yaml("alpha")})


def notes(app: VoyageApp) -> list[str]:
    return [n.message for n in app._notifications]


def noted(app: VoyageApp, words: str) -> bool:
    return any(words in note for note in notes(app))


async def open_editor(pilot, rel: str) -> EditorScreen:
    browser = await wait_loaded(pilot)
    assert browser.suite_tree.select_path(rel)
    await pilot.press("e")
    await wait_until(
        pilot,
        lambda: isinstance(pilot.app.screen, EditorScreen) and pilot.app.screen.opened is not None,
    )
    return pilot.app.screen  # type: ignore[return-value]


def state_dir() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "voyage-tui"


# --- the watcher -------------------------------------------------------------------------


async def _still_follows_the_disk(pilot, root: Path) -> None:
    app = pilot.app
    path = root / TASK
    path.write_text(path.read_text().replace("class: bug-diagnosis", "class: bug-diagnosys"))
    await wait_until(pilot, lambda: "1 error" in header_text(app), timeout=15)
    assert app.is_running


async def test_a_file_named_in_bytes_that_are_not_utf8_does_not_stop_the_watcher(
    root: Path,
) -> None:
    app = make_app(root, watch=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await wait_until(pilot, lambda: watching(app))
        name = os.fsencode(root / "fixtures" / "bug-diagnosis") + b"/\xffname.yaml"
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644))
        await pilot.pause(0.5)
        assert app.is_running
        await _still_follows_the_disk(pilot, root)


async def test_a_folder_named_in_bytes_that_are_not_utf8_does_not_stop_the_watcher(
    root: Path,
) -> None:
    folder = os.fsencode(root / "fixtures" / "bug-diagnosis") + b"/\xffdir"
    os.mkdir(folder)
    with open(folder + b"/notes.txt", "w") as handle:
        handle.write("x")
    app = make_app(root, watch=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await pilot.pause(0.5)
        assert app.is_running
        await _still_follows_the_disk(pilot, root)


class FakeNotifier:
    """Stands for watchfiles' Rust notifier: hands out the batches it is given, in turn; an
    exception in the list is raised where the real one fails (a name that is not UTF-8)."""

    def __init__(self, batches: list[object], stop: threading.Event) -> None:
        self.batches = batches
        self.stop = stop
        self.closed = False

    def watch(self, debounce_ms: int, step_ms: int, timeout_ms: int, stop_event: object):  # type: ignore[no-untyped-def]
        if not self.batches:
            self.stop.set()
            return "stop"
        batch = self.batches.pop(0)
        if isinstance(batch, Exception):
            raise batch
        return batch

    def close(self) -> None:
        self.closed = True


def test_a_lost_batch_asks_for_everything_and_the_watcher_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.engine import watcher

    stop = threading.Event()
    calls: list[set[str] | None] = []
    added = os.path.join(str(tmp_path), "fixtures", "a.yaml")
    sessions = [
        FakeNotifier(["timeout", RuntimeError('Unable to decode path "\\xFF" to string')], stop),
        FakeNotifier([{(1, added)}], stop),
    ]
    opened: list[FakeNotifier] = []

    def fake_open(root: str, force_polling: bool) -> FakeNotifier:
        opened.append(sessions.pop(0))
        return opened[-1]

    monkeypatch.setattr(watcher, "open_notifier", fake_open)
    watcher.WorkspaceWatcher(tmp_path).run(calls.append, stop)
    assert calls == [None, {"fixtures/a.yaml"}]
    assert len(opened) == 2 and all(n.closed for n in opened)


def test_a_workspace_that_cannot_be_watched_at_all_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.engine import watcher

    def never(root: str, force_polling: bool) -> FakeNotifier:
        raise RuntimeError("no watcher here")

    monkeypatch.setattr(watcher, "open_notifier", never)
    monkeypatch.setattr(watcher, "MAX_BACKOFF", 0.01)
    with pytest.raises(watcher.WatchUnavailable, match="no watcher here"):
        watcher.WorkspaceWatcher(tmp_path).run(lambda paths: None, threading.Event())
    with pytest.raises(watcher.WatchUnavailable, match="UTF-8"):
        watcher.WorkspaceWatcher(Path(os.fsdecode(os.fsencode(tmp_path) + b"/\xff"))).run(
            print, threading.Event()
        )


def test_changes_made_after_arming_and_before_running_are_handed_on(tmp_path: Path) -> None:
    """Arming is what counts: a change between arm() and run() (while the suite loads) comes
    out in the first batch."""
    from voyage_tui.engine.watcher import WorkspaceWatcher

    watcher = WorkspaceWatcher(tmp_path)
    watcher.arm()
    (tmp_path / "early.yaml").write_text("x")
    stop = threading.Event()
    calls: list[set[str] | None] = []

    def on_change(paths: set[str] | None) -> None:
        calls.append(paths)
        stop.set()

    timer = threading.Timer(10, stop.set)  # never hang the suite if nothing comes
    timer.start()
    try:
        watcher.run(on_change, stop)
    finally:
        timer.cancel()
    assert calls and calls[0] is not None and "early.yaml" in calls[0]


# --- saving --------------------------------------------------------------------------------


class WriteRefused(Exception):
    """Stands for any refusal a hardened writer may raise, whatever its type."""


def _deny_open(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """os.open of `target` fails as for a file without read permission (root reads anything,
    so chmod 000 would prove nothing)."""
    real_open = os.open
    denied = os.fsencode(target)

    def fake_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(path, int) and os.fsencode(path) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)


@pytest.mark.parametrize("spoil", ["symlink-out", "too-large", "unreadable", "refused"])
async def test_a_save_that_cannot_happen_is_reported_and_the_buffer_kept(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    path = root / TASK
    outside = tmp_path / "outside.yaml"
    outside.write_text("not yours\n")
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, TASK)
        editor.text_area.move_cursor((0, 0))
        await pilot.press(*"# mine", "enter")
        typed = editor.text_area.text
        if spoil == "symlink-out":
            path.unlink()
            path.symlink_to(outside)
        elif spoil == "too-large":
            path.write_text("# " + "x" * 2_000_000 + "\n")
        elif spoil == "unreadable":
            _deny_open(monkeypatch, path)
        else:
            import voyage_tui.app.screens.editor as editor_module

            def refuse(*args: object, **kwargs: object) -> None:
                raise WriteRefused("the writer refused: not a regular file")

            monkeypatch.setattr(editor_module, "save_file", refuse)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: noted(app, "Not saved"))
        assert app.is_running
        assert app.screen is editor
        assert editor.dirty and editor.text_area.text == typed
        assert outside.read_text() == "not yours\n"
        if spoil == "refused":
            assert noted(app, "the writer refused")


# --- the diff's export ---------------------------------------------------------------------


def _diff_app(root: Path, run: str) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(
            use_git=False, watch=False, keymap={}, initial_diff=(GOLD, f"{RUNS}/{run}.json")
        ),
    )


async def _diff(pilot) -> DiffScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen.scored is not None
    )
    return app.screen  # type: ignore[return-value]


async def test_export_text_textual_cannot_encode_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample(tmp_path)
    monkeypatch.setattr(DiffScreen, "markdown", lambda self: "| a lone \udc00 surrogate |\n")
    app = _diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: noted(app, "Not copied"))
        assert app.is_running and app.screen is screen
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        await pilot.press("enter")
        # The engine's writer escapes what UTF-8 cannot hold, so the export is written.
        await wait_until(pilot, lambda: noted(app, "Wrote"))
        assert app.is_running
        written = (root / RUNS / "run-misses-diff.md").read_text(encoding="utf-8")
        assert "\\udc00" in written


async def test_a_run_holding_a_lone_surrogate_survives_copy_and_write(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    run = root / RUNS / "run-misses.json"
    payload = json.loads(run.read_text())
    payload[0]["findings"][0]["rule_key"] = "jwt-weak-secret\udc00"
    run.write_text(json.dumps(payload))  # ascii: the file holds the escape \udc00
    app = _diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        await _diff(pilot)
        await pilot.press("y")
        await pilot.pause(0.2)
        assert app.is_running
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        await pilot.press("enter")
        target = root / RUNS / "run-misses-diff.md"
        await wait_until(pilot, lambda: target.exists() or noted(app, "Not written"))
        assert app.is_running


# --- the central mechanism -----------------------------------------------------------------


async def test_a_failing_worker_is_reported_with_its_log_and_the_app_keeps_running(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import voyage_tui.app.screens.editor as editor_module

    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, TASK)

        def explode(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the checker exploded")

        monkeypatch.setattr(editor_module, "check_buffer", explode)
        await pilot.press(*"# typed ")
        await wait_until(pilot, lambda: noted(app, "the checker exploded"))
        assert app.is_running and app.screen is editor and editor.dirty
        log = state_dir() / "errors.log"
        assert noted(app, str(log))
        text = log.read_text()
        assert "Traceback" in text and "RuntimeError: the checker exploded" in text
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        assert len(app.reported_errors) >= 1
        app.reported_errors.clear()
        await pilot.press("ctrl+q")  # quitting still asks about the unsaved buffer
        await wait_until(pilot, lambda: app.screen is not editor)
        assert app.is_running
    app.reported_errors.clear()


async def test_a_failing_action_is_reported_and_the_app_keeps_running(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path(TASK)

        def broken(text: str) -> None:
            raise ValueError("no clipboard today")

        monkeypatch.setattr(app, "copy_to_clipboard", broken)
        await pilot.press("c")
        await wait_until(pilot, lambda: noted(app, "no clipboard today"))
        assert app.is_running
        browser.suite_tree.focus()
        await pilot.press("e")  # keys still work
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
        app.reported_errors.clear()


def test_a_crash_saves_unsaved_buffers_to_recovery_files_and_exits_non_zero(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed: list[str] = []

    async def crash_while_editing(pilot) -> None:  # type: ignore[no-untyped-def]
        editor = await open_editor(pilot, TASK)
        editor.text_area.move_cursor((0, 0))
        await pilot.press(*"# precious", "enter")
        typed.append(editor.text_area.text)

        async def key_breaks(self: MarkedTextArea, event: object) -> None:
            raise RuntimeError("a widget broke for good")

        # A widget's own handler raising stops that widget: the app cannot carry on.
        monkeypatch.setattr(MarkedTextArea, "_on_key", key_breaks)
        await pilot.press("x")
        await pilot.pause(5)  # the app stops before this is over

    app = make_app(root)
    assert app.run(headless=True, size=(120, 40), auto_pilot=crash_while_editing) == 1
    recovered = list((state_dir() / "recovery").iterdir())
    assert len(recovered) == 1
    assert recovered[0].read_text() == typed[0]
    assert typed[0].startswith("# precious\n")
    assert recovered[0].name.endswith("task.yaml")
    assert stat.S_IMODE(recovered[0].stat().st_mode) == 0o600
    assert "a widget broke for good" in app.crash_report
    assert str(recovered[0]) in app.crash_report
    assert str(state_dir() / "errors.log") in app.crash_report
    assert (root / TASK).read_text() == task_yaml("alpha")  # the workspace is untouched


async def test_an_error_while_a_screen_starts_is_reported_and_the_app_keeps_running(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_mount(self: DiffScreen) -> None:
        raise RuntimeError("the diff could not start")

    monkeypatch.setattr(DiffScreen, "on_mount", broken_mount)
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(DiffScreen(GOLD, f"{RUNS}/run-misses.json"))
        await wait_until(pilot, lambda: noted(app, "the diff could not start"))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.browser())
        app.reported_errors.clear()


async def test_a_dialog_answer_that_fails_is_reported_and_the_app_keeps_running(
    root: Path,
) -> None:
    from voyage_tui.app.screens.modals import ChoiceScreen

    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)

        def answered(choice: str | None) -> None:
            raise LookupError(f"nothing to do for {choice}")

        app.push_screen(ChoiceScreen("Go?", ["save"]), answered)
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")
        await wait_until(pilot, lambda: noted(app, "nothing to do for save"))
        assert app.is_running and app.screen is app.browser()
        app.reported_errors.clear()


async def test_errors_that_keep_coming_stop_the_app_as_a_crash(root: Path) -> None:
    from voyage_tui.app.resilience import ERROR_BURST, AppCrashed

    app = make_app(root)
    with pytest.raises(AppCrashed):
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_loaded(pilot)
            for _ in range(ERROR_BURST[0]):
                app.report_error(RuntimeError("again"), "A repaint")
            await wait_until(pilot, lambda: not app.is_running, timeout=5)
    assert app.return_code == 1
    assert "failing over and over" in (state_dir() / "errors.log").read_text()
    app.reported_errors.clear()


# --- JSON in the editor (tree-sitter) ------------------------------------------------------


async def test_a_json_file_opens_edits_and_saves_in_the_editor(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, GOLD)
        assert editor.text_area.language == "json"
        editor.text_area.move_cursor((0, 1))
        await pilot.press("enter")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.dirty)
        on_disk = (root / GOLD).read_text()
        assert on_disk == editor.text_area.text and on_disk.startswith("{\n")
        json.loads(on_disk)


HIGHLIGHT = textwrap.dedent(
    """
    import asyncio, sys
    from textual.app import App
    from textual.widgets import TextArea

    language, text = sys.argv[1], sys.argv[2]

    class Probe(App):
        def compose(self):
            yield TextArea.code_editor(text, language=language)

    async def main():
        app = Probe()
        async with app.run_test(size=(80, 20)) as pilot:
            await pilot.pause()
            area = app.query_one(TextArea)
            assert area.language == language, area.language
            await pilot.press("x", "enter", "backspace")
            await pilot.pause()
            area.get_line(0)
        print("highlighted", language)

    asyncio.run(main())
    """
)

SAMPLES = {
    "yaml": "id: t1\nclass: bug-diagnosis\nlist:\n  - a\n",
    "json": '{"a": [1, 2, {"b": "c"}], "d": null}\n',
    "markdown": "# Title\n\nSome *text* and `code`.\n",
    "toml": '[paths]\nfixtures = "fixtures"\n',
}


@pytest.mark.parametrize("language", sorted(set(EDITOR_LANGUAGES.values())))
def test_every_editor_language_highlights_without_crashing(language: str) -> None:
    # A child process: a crash in the highlighter's native code is a segfault, which would
    # take pytest down with it rather than fail this test.
    done = subprocess.run(
        [sys.executable, "-c", HIGHLIGHT, language, SAMPLES[language]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert f"highlighted {language}" in done.stdout


# --- the command line on hostile workspace paths --------------------------------------------


@contextmanager
def _unreadable_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Iterator[None]:
    """The folder behaves as chmod 000 does for anyone but root: it can be stat'ed, but not
    listed, and nothing inside it can be reached."""
    inside = os.fsencode(folder) + b"/"
    whole = os.fsencode(folder)

    def denied(path: object) -> bool:
        if isinstance(path, int):
            return False
        return os.fsencode(os.path.abspath(path)).startswith(inside)  # type: ignore[arg-type]

    def listing(path: object) -> bool:
        if isinstance(path, int):
            return False
        return denied(path) or os.fsencode(os.path.abspath(path)) == whole  # type: ignore[arg-type]

    def guard(real, test):  # type: ignore[no-untyped-def]
        def wrapper(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if test(path):
                raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
            return real(path, *args, **kwargs)

        return wrapper

    for name in ("stat", "lstat", "open"):
        monkeypatch.setattr(os, name, guard(getattr(os, name), denied))
    for name in ("scandir", "listdir"):
        monkeypatch.setattr(os, name, guard(getattr(os, name), listing))
    yield


def _small_workspace(root: Path) -> Path:
    (root / "fixtures" / "bug-diagnosis" / "alpha").mkdir(parents=True)
    (root / TASK).write_text(task_yaml("alpha"))
    (root / "voyage.toml").write_text("")
    return root


def test_the_app_on_an_unreadable_workspace_folder_says_so_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = _small_workspace(tmp_path / "locked")
    ran: list[VoyageApp] = []
    monkeypatch.setattr(VoyageApp, "run", lambda self, **kwargs: ran.append(self) or 0)
    with _unreadable_folder(monkeypatch, folder):
        code = main([str(folder), "--no-git"])
    err = capsys.readouterr().err
    assert code == 2 and not ran
    assert "Traceback" not in err
    assert str(folder) in err and "permission denied" in err.lower()


def _drive_headless(outcome: dict[str, object]):  # type: ignore[no-untyped-def]
    """VoyageApp.run for a test: load, let the watcher start, note what shows, quit."""

    def run(self: VoyageApp, **kwargs: object) -> int:
        async def go() -> int:
            async with self.run_test(size=(120, 40)) as pilot:
                await wait_loaded(pilot)
                await pilot.pause(0.5)
                outcome["header"] = header_text(self)
                outcome["notes"] = notes(self)
                outcome["running"] = self.is_running
                self.exit(0)
            return int(self.return_code or 0)

        return asyncio.run(go())

    return run


def test_the_app_on_a_workspace_path_with_a_non_utf8_byte_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/ws-\xff"))
    folder.mkdir()
    _small_workspace(folder)
    outcome: dict[str, object] = {}
    monkeypatch.setattr(VoyageApp, "run", _drive_headless(outcome))
    assert main([str(folder), "--no-git"]) == 0
    assert outcome["running"] is True
    assert "1 fixture" in str(outcome["header"])
    assert any("Not watching" in note for note in outcome["notes"])  # type: ignore[attr-defined]
