"""The live suite without Textual: its jobs run at once (a synchronous executor), its events are
collected, and the test plays the front end (shows each view, says when it is painted)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine.validation import live as live_module
from voyage_tui.engine.validation.first_screen import (
    first_screen_of,
    load_first_screen,
    save_first_screen,
)
from voyage_tui.engine.validation.live import (
    CHECK_EVERYTHING,
    Changed,
    Failed,
    Listed,
    LiveEvent,
    LiveStart,
    LiveSuite,
    Loaded,
    Progressed,
    Start,
    WatchFailed,
)
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.watcher import WatchUnavailable
from voyage_tui.engine.workspace.model import Workspace

Hook = Callable[[LiveEvent], None]


class FakeWatcher:
    """Records when it was armed and run; the test hands changes on through `on_change`."""

    def __init__(self, log: list[str], unavailable: bool = False) -> None:
        self.log = log
        self.unavailable = unavailable
        self.on_change: Callable[[set[str] | None], None] | None = None

    def arm(self) -> None:
        self.log.append("arm")
        if self.unavailable:
            raise WatchUnavailable("no watching here")

    def run(self, on_change: Callable[[set[str] | None], None], stop: threading.Event) -> None:
        self.log.append("run")
        if self.unavailable:
            raise WatchUnavailable("no watching here")
        self.on_change = on_change  # returns at once: the synchronous executor would block

    def close(self) -> None:
        self.log.append("close")


class Front:
    """The front end: runs jobs at once, shows Loaded/Changed views as they come, says each
    loaded suite is painted (so the load writes its cache without waiting), and calls `hook`
    on every event first (a test acting in the middle of a load)."""

    def __init__(self) -> None:
        self.events: list[LiveEvent] = []
        self.groups: list[str] = []
        self.hook: Hook | None = None
        self.live: LiveSuite | None = None
        self.showing = True

    def run(self, group: str, job: Callable[[], None]) -> None:
        self.groups.append(group)
        job()

    def publish(self, event: LiveEvent) -> None:
        self.events.append(event)
        if self.hook is not None:
            self.hook(event)
        if not self.showing:
            return
        assert self.live is not None
        if isinstance(event, Listed) and self.live.show_listed(event.view):
            self.live.listing_painted()
        elif isinstance(event, Loaded) and self.live.show(event.view):
            self.live.loaded_painted()
        elif isinstance(event, Changed):
            self.live.show_change(event.view, event.touched)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def live_suite(
    root: Path,
    front: Front,
    start: LiveStart | None = None,
    *,
    cache: bool = False,
    watcher: FakeWatcher | None = None,
) -> LiveSuite:
    live = LiveSuite(
        Workspace.load(root),
        use_git=False,
        cache=cache,
        start=start or LiveStart(),
        run=front.run,
        publish=front.publish,
        watcher=watcher,
    )
    front.live = live
    return live


def break_a_task(root: Path) -> str:
    """An error in one task (its boundary names no folder); its path."""
    task = next((root / "fixtures/refactor").glob("*/task.yaml"))
    text = re.sub(r"(?m)^expected_boundary: .*$", "expected_boundary: nowhere", task.read_text())
    task.write_text(text)
    return task.relative_to(root).as_posix()


def add_fixture(root: Path) -> str:
    new = root / "fixtures/refactor/brand-new/task.yaml"
    new.parent.mkdir()
    new.write_text(task_yaml("brand-new", "refactor"))
    return new.relative_to(root).as_posix()


def test_a_fresh_start_arms_the_watcher_before_the_files_are_listed(sample_copy: Path) -> None:
    log: list[str] = []
    front = Front()
    live = live_suite(sample_copy, front, watcher=FakeWatcher(log))
    real = Suite.prepare

    def prepare(self: Suite, *args: Any, **kwargs: Any) -> Any:
        log.append("list")
        return real(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Suite, "prepare", prepare)
        live.begin()
    assert log.index("arm") < log.index("list") and "run" in log
    [loaded] = front.of(Loaded)
    assert live.view is loaded.view and loaded.view.fixture_count == 25
    last = front.of(Progressed)[-1]
    assert last.done == last.total
    assert not front.of(Changed)  # nothing changed meanwhile; no git checks


def test_a_change_during_a_load_is_in_the_loaded_suite(sample_copy: Path) -> None:
    front = Front()
    live = live_suite(sample_copy, front)
    changed: list[str] = []

    def change_once(event: LiveEvent) -> None:
        if isinstance(event, Progressed) and not changed:
            # The files are listed: a new fixture is seen only through the change.
            changed.append(add_fixture(sample_copy))
            live.revalidate({changed[0]})

    front.hook = change_once
    live.begin()
    assert changed
    [loaded] = front.of(Loaded)
    assert changed[0] in loaded.view.items and loaded.view.fixture_count == 26
    assert not front.of(Changed)  # it waited for the load, and was shown with it


def test_a_late_view_is_dropped(sample_copy: Path) -> None:
    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    front.showing = False  # the test shows the views itself, in the order it chooses
    live.revalidate({break_a_task(sample_copy)})
    live.revalidate({add_fixture(sample_copy)})
    first, second = front.of(Changed)
    assert first.view.generation < second.view.generation
    touched = live.show_change(second.view, second.touched)
    assert touched is not None and second.touched <= touched
    assert live.show_change(first.view, first.touched) is None  # made earlier, came later
    assert live.view is second.view and live.view.fixture_count == 26
    assert not live.show(first.view)


def test_a_superseded_load_is_dropped(sample_copy: Path) -> None:
    front = Front()
    live = live_suite(sample_copy, front)
    again: list[bool] = []

    def reload_once(event: LiveEvent) -> None:
        if isinstance(event, Progressed) and not again:
            again.append(True)
            break_a_task(sample_copy)
            live.load()  # "re-validate everything" while the first load runs

    front.hook = reload_once
    live.begin()
    [loaded] = front.of(Loaded)  # only the second load's suite is shown
    assert loaded.view.summary.errors == 1
    assert live.view is loaded.view and live.suite is not None
    assert front.groups.count("suite") == 2


def test_a_failed_load_keeps_the_suite_shown_and_checks_what_waited(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    [before] = front.of(Loaded)

    def prepare(self: Suite, *args: Any, **kwargs: Any) -> Any:
        live.revalidate({break_a_task(sample_copy)})  # waits for this load
        raise RuntimeError("disk gone")

    monkeypatch.setattr(Suite, "prepare", prepare)
    live.load()
    [failed] = front.of(Failed)
    assert "disk gone" in failed.error
    assert front.of(Loaded) == [before]
    [changed] = front.of(Changed)  # checked on the suite shown before
    assert live.view is changed.view and changed.view.summary.errors == 1


def test_a_failed_first_load_shows_nothing(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def prepare(self: Suite, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(Suite, "prepare", prepare)
    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    assert [type(e) for e in front.events] == [Failed]
    live.revalidate({"voyage.toml"})  # no suite to check it on
    assert live.view is None and live.suite is None and len(front.events) == 1


def test_a_start_from_the_recorded_screen_loads_only_once_it_is_painted(
    sample_copy: Path,
) -> None:
    ws = Workspace.load(sample_copy)
    record = first_screen_of(view_of(Suite.open(sample_copy, use_git=False)), use_git=False)
    save_first_screen(ws, record)
    first = load_first_screen(ws, use_git=False)
    assert first == record
    log: list[str] = []
    front = Front()
    start = LiveStart(Start.FROM_CACHE, first_screen=first)
    live = live_suite(sample_copy, front, start, cache=True, watcher=FakeWatcher(log))
    live.begin()
    assert not front.events and not log and live.first_screen == record  # the record only
    assert live.painted() and not live.painted()  # the first full screen, once
    live.after_first_screen()
    # Armed once the loaded suite is on screen (arming holds the interpreter lock the load
    # needs), then the changes since the load stamped the files are checked (test_live_warm).
    assert log[:2] == ["arm", "run"]
    [loaded] = front.of(Loaded)
    assert loaded.view.fixture_count == 25
    # A change the watcher hands on is checked.
    watcher_change = live._watcher
    assert isinstance(watcher_change, FakeWatcher) and watcher_change.on_change is not None
    watcher_change.on_change({break_a_task(sample_copy)})
    assert front.of(Changed)[-1].view.summary.errors == 1
    live.close()
    live.record_first_screen()
    again = load_first_screen(ws, use_git=False)
    assert again is not None and again.errors == 1


def test_a_prepared_load_with_the_cache_arms_the_watcher_after_it_and_checks_the_gap(
    sample_copy: Path,
) -> None:
    ws = Workspace.load(sample_copy)
    prepared = Suite(ws, use_git=False).prepare(fork=False, cache=True)
    log: list[str] = []
    front = Front()
    start = LiveStart(Start.PREPARED, prepared=prepared)
    live = live_suite(sample_copy, front, start, cache=True, watcher=FakeWatcher(log))
    gap: list[str] = []

    def change_before_arming(event: LiveEvent) -> None:
        if isinstance(event, Loaded):
            assert not log  # not armed, not watching while the load ran
            gap.append(add_fixture(sample_copy))  # no watcher sees this one

    front.hook = change_before_arming
    live.begin()
    assert log == ["arm", "run"]
    # What changed between the load's stamps and the arming is checked after it.
    assert live.view is not None and gap[0] in live.view.items
    assert live.view.fixture_count == 26


def test_losing_changes_checks_everything_and_an_unwatchable_workspace_says_so(
    sample_copy: Path,
) -> None:
    log: list[str] = []
    front = Front()
    watcher = FakeWatcher(log)
    live = live_suite(sample_copy, front, watcher=watcher)
    live.begin()
    assert watcher.on_change is not None
    add_fixture(sample_copy)
    watcher.on_change(None)  # the watcher lost a batch
    assert front.of(Changed)[-1].view.fixture_count == 26
    assert {"voyage.toml"} == CHECK_EVERYTHING
    live.close()
    watcher.on_change({"voyage.toml"})  # closed: nothing more is checked
    assert len(front.of(Changed)) == 1

    front = Front()
    live = live_suite(sample_copy, front, watcher=FakeWatcher([], unavailable=True))
    live.begin()
    [failed] = front.of(WatchFailed)
    assert failed.reason == "no watching here" and front.of(Loaded)


def test_a_start_names_what_it_starts_from() -> None:
    with pytest.raises(ValueError):
        LiveStart(Start.PREPARED)
    with pytest.raises(ValueError):
        LiveStart(Start.FRESH, first_screen=object())  # type: ignore[arg-type]


def test_a_first_load_lists_the_files_before_it_checks_them(sample_copy: Path) -> None:
    broken = break_a_task(sample_copy)
    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    first = front.events[0]
    assert isinstance(first, Listed)  # before any file is checked
    view = first.view
    assert view.checking and first.done == 0 and first.total > 25
    assert view.fixture_count == 25 and view.summary.errors == 0  # nothing checked yet
    task = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"
    assert view.items[task].id == "pagination-last-page-dropped"
    assert [c.path.rsplit("/", 1)[-1] for c in view.children_of(task)] == [
        "run-a1.yaml",
        "run-b1.yaml",
        "run-base1.yaml",
    ]
    rows = view.listing("pagination")
    assert rows.entries[0] == task  # the filter by id works on the listing
    groups = [g.key for g in view.listing().groups() if g.items]
    assert "path:(checking)" in groups  # trajectories: their path is in the file
    assert "gold" in groups and "ratings" in groups
    [loaded] = front.of(Loaded)
    assert not loaded.view.checking and loaded.view.summary.errors == 1
    assert front.events.index(loaded) > front.events.index(first)
    assert live.show_listed(first.view) is False  # a loaded suite is shown: dropped
    assert live.listed is not None and live.listed.checking
    assert broken in loaded.view.items


def test_the_first_load_fills_the_listing_in_batches(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = break_a_task(sample_copy)
    monkeypatch.setattr(live_module, "BATCH_EVERY", 0.0)  # a batch at every report
    front = Front()
    live = live_suite(sample_copy, front)
    live.begin()
    listed = front.of(Listed)
    assert len(listed) > 2
    unchecked = [len(e.view.unchecked) for e in listed]
    assert unchecked == sorted(unchecked, reverse=True) and unchecked[0] > unchecked[-1]
    # The broken task's error shows in a batch, before the loaded suite.
    with_error = [e for e in listed if e.view.severity_counts(broken)[0]]
    assert with_error and with_error[0].done < with_error[0].total
    [loaded] = front.of(Loaded)
    assert front.events.index(loaded) > front.events.index(listed[-1])
    # A second load (re-validate everything) keeps the loaded suite on screen: no listing.
    live.load()
    assert len(front.of(Listed)) == len(listed) and len(front.of(Loaded)) == 2


def test_the_first_load_checks_once_the_listing_is_painted(sample_copy: Path) -> None:
    front = Front()
    front.showing = False  # the test says when the listing is on the terminal
    live = live_suite(sample_copy, front)
    loading = threading.Thread(target=live.begin)
    loading.start()
    try:
        pause = threading.Event()  # never set: a sleep
        for _ in range(1000):
            if front.of(Listed):
                break
            pause.wait(0.01)
        pause.wait(0.3)
        assert [type(e) for e in front.events] == [Listed]  # waiting for the paint
    finally:
        live.listing_painted()
        loading.join(10)
    assert front.of(Progressed) and front.of(Loaded)
