"""Live validation in the app: one watcher for its lifetime, armed before the first scan, and
results applied in the order they were computed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.worker import WorkerState

from tests.app.support import header_text, make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from tests.fake_app import record_openings
from voyage_tui.app.messages import SuiteChanged, SuiteLoaded
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.validation.suite import Suite

ALPHA = "fixtures/bug-diagnosis/alpha/task.yaml"
B1 = "fixtures/bug-diagnosis/b1/task.yaml"


@pytest.fixture
def root(make_workspace) -> Path:
    return make_workspace(
        {
            ALPHA: task_yaml("alpha"),
            B1: task_yaml("b1").replace("expected_boundary: unit", "expected_boundary: unitt"),
        }
    )


def _break(root: Path, rel: str, *fields: str) -> None:
    """Misspell the given fields' values (one error each)."""
    text = task_yaml(rel.split("/")[-2])
    for name in fields:
        value = {"class": "bug-diagnosis", "expected_boundary": "unit"}[name]
        text = text.replace(f"{name}: {value}", f"{name}: {value}x")
    (root / rel).write_text(text)


def _running(app, group: str) -> list[object]:  # type: ignore[no-untyped-def]
    return [w for w in app.workers if w.group == group and w.state == WorkerState.RUNNING]


async def test_one_watcher_after_revalidating_everything_twice_and_one_check_per_save(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[set[str]] = []
    real_revalidate = Suite.revalidate
    real_load = Suite.validate_all

    def counting(self: Suite, paths):  # type: ignore[no-untyped-def]
        checks.append(set(paths))
        return real_revalidate(self, paths)

    # The first re-check waits until the second request has come (as a suite large enough to
    # press the key twice meanwhile would), whatever the machine's load.
    gate = {"on": False}
    entered: list[int] = []
    released = threading.Event()

    def slow_load(self: Suite, *args, **kwargs):  # type: ignore[no-untyped-def]
        gated, gate["on"] = gate["on"], False
        entered.append(1)
        real_load(self, *args, **kwargs)
        if gated:
            released.wait(15)

    monkeypatch.setattr(Suite, "revalidate", counting)
    monkeypatch.setattr(Suite, "validate_all", slow_load)
    loaded: list[int] = []
    app = make_app(root, watch=True)
    real_post = app.post_message

    def post(message):  # type: ignore[no-untyped-def]
        if isinstance(message, SuiteLoaded):
            loaded.append(1)
        return real_post(message)

    monkeypatch.setattr(app, "post_message", post)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        entered.clear()
        gate["on"] = True
        app.action_revalidate_all()
        await wait_until(pilot, lambda: len(entered) == 1)  # under way when the second comes
        app.action_revalidate_all()
        await wait_until(pilot, lambda: len(entered) == 2)  # the second is checking too
        released.set()
        await pilot.pause(0.1)
        await wait_until(pilot, lambda: not _running(app, "suite"))
        await pilot.pause(0.3)
        assert len(_running(app, "watch")) == 1
        # the first load, and the one the second request started; not the one it replaced
        assert len(loaded) == 2
        checks.clear()
        _break(root, ALPHA, "class")
        await wait_until(pilot, lambda: "2 errors" in header_text(app), timeout=10)
        await pilot.pause(0.8)  # time for any second watcher to report the same save
        assert [c for c in checks if ALPHA in c] == [{ALPHA}]


async def test_a_file_broken_while_the_suite_loads_is_noticed(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Suite.validate_all
    broke = threading.Event()

    def slow_load(self: Suite, *args, **kwargs):  # type: ignore[no-untyped-def]
        real(self, *args, **kwargs)
        if not broke.is_set():
            # The first screen is up, the files have been read: now someone breaks one.
            broke.set()
            _break(root, ALPHA, "class")
            threading.Event().wait(0.5)

    monkeypatch.setattr(Suite, "validate_all", slow_load)
    app = make_app(root, watch=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        assert broke.is_set()
        await wait_until(pilot, lambda: "2 errors" in header_text(app), timeout=10)


async def test_a_file_broken_while_the_git_checks_run_is_noticed(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.app.app import VoyageApp
    from voyage_tui.engine.workspace.model import Workspace

    real = Suite.run_git_checks

    def slow_git(self: Suite) -> None:
        _break(root, ALPHA, "class")
        threading.Event().wait(0.5)
        real(self)

    monkeypatch.setattr(Suite, "run_git_checks", slow_git)
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=True, watch=True, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await wait_until(
            pilot,
            lambda: app.view is not None and app.view.summary.errors == 2,
            timeout=10,
        )


async def test_a_result_computed_earlier_but_delivered_later_is_dropped(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(root)
    held: list[SuiteChanged] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        assert "1 error" in header_text(app)
        real_post = app.post_message

        def post(message):  # type: ignore[no-untyped-def]
            if isinstance(message, SuiteChanged) and not held:
                held.append(message)  # the first re-validation is slow to deliver
                return True
            return real_post(message)

        monkeypatch.setattr(app, "post_message", post)
        _break(root, ALPHA, "class")  # 2 errors on disk
        app.revalidate_paths({ALPHA})
        await wait_until(pilot, lambda: bool(held))
        _break(root, ALPHA, "class", "expected_boundary")  # 3 errors on disk
        app.revalidate_paths({ALPHA})
        await wait_until(pilot, lambda: "3 errors" in header_text(app))
        real_post(held[0])  # the older result arrives last
        await pilot.pause(0.3)
        assert "3 errors" in header_text(app)
        assert app.view is not None and app.view.summary.errors == 3


@pytest.mark.parametrize(
    ("command", "module"),
    [([], "open_cmd"), (["rate", "--rater", "ana"], "rate_cmd"), (["triage"], "triage_cmd")],
)
def test_without_the_cache_the_command_line_arms_the_watcher_before_the_first_load_lists_files(
    root: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], module: str
) -> None:
    import importlib
    import sys

    from voyage_tui.cli import main
    from voyage_tui.engine.watcher import WorkspaceWatcher

    importlib.import_module("voyage_tui.cli.common")
    importlib.import_module(f"voyage_tui.cli.{module}")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # `triage` opens the app on a tty

    order: list[str] = []
    real_arm = WorkspaceWatcher.arm

    def arm(self: WorkspaceWatcher) -> None:
        order.append("arm")
        real_arm(self)

    monkeypatch.setattr(WorkspaceWatcher, "arm", arm)
    # Every command starts the app through cli/common.py's start_first_load.
    openings = record_openings(
        monkeypatch,
        on_prepare=lambda: order.append("scan"),
        on_cancel=lambda: order.append("cancel"),
    )
    assert main([*command, str(root), "--no-git", "--no-cache"]) == 0
    assert order[:2] == ["arm", "scan"]
    watcher = openings[0]["watcher"]
    assert isinstance(watcher, WorkspaceWatcher) and watcher.armed.is_set()
    assert watcher._notifier is None  # closed when the app ends
    openings.clear()
    assert main([*command, str(root), "--no-git", "--no-watch"]) == 0
    assert [o["watcher"] for o in openings] == [None]
    # With the cache, the load stamps every file it checks: the app arms the watcher after its
    # first screen and then checks what changed (test_a_change_before_the_watcher_is_armed...).
    order.clear()
    openings.clear()
    assert main([*command, str(root), "--no-git"]) == 0
    assert order[:1] == ["scan"] and "arm" not in order
    watcher = openings[0]["watcher"]
    assert isinstance(watcher, WorkspaceWatcher) and not watcher.armed.is_set()


def test_an_app_that_ends_without_unmounting_still_stops_its_watcher(root: Path) -> None:
    # Textual's shutdown can fail before the app's Unmount (a widget's task cancelled under
    # it); the watching thread must stop all the same: asyncio.run waits for every worker
    # thread before it returns, so one left running hangs the exit for good.
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        f"""
        import asyncio
        from voyage_tui.app.app import VoyageApp
        from voyage_tui.app.settings import AppSettings
        from voyage_tui.engine.workspace.model import Workspace

        class NeverUnmounted(VoyageApp):
            def on_unmount(self, event):
                event.prevent_default()  # VoyageApp's on_unmount does not run

        app = NeverUnmounted(
            Workspace.load({str(root)!r}), AppSettings(use_git=False, watch=True, keymap={{}})
        )

        async def pilot(pilot):
            while app.view is None or not any(w.group == "watch" for w in app.workers):
                await pilot.pause(0.05)
            app.exit()

        asyncio.run(app.run_async(headless=True, size=(80, 24), auto_pilot=pilot))
        print("ended")
        """
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=30
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the app's exit waited for its watcher forever")
    assert "ended" in done.stdout, done.stderr
