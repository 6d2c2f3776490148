"""A warm start of the live suite (issue 23, "warm at 100k"): with the validation cache written
by an earlier run and nothing changed on disk, the load takes the cache's answer as `validate`
does (its folder stamps replayed: no walk of the workspace, no file checked); a file changed
since is still checked, and a folder changed since (a fixture added) is walked again.

What the load does is counted at the engine's own seams (the walk, `scan`, and the check of
one file, `check_job`, as suite.py calls them), never by timing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.engine.test_live_suite import FakeWatcher, Front, add_fixture, break_a_task, live_suite
from voyage_tui.engine.validation import suite_gold, suite_load, suite_revalidate
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.first_screen import first_screen_of, load_first_screen
from voyage_tui.engine.validation.live import Listed, LiveEvent, LiveStart, Loaded, Start
from voyage_tui.engine.validation.result_cache import validate
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import SuiteView, view_of
from voyage_tui.engine.workspace.model import Workspace


@dataclass
class Counts:
    walks: int = 0
    checked: list[str] = field(default_factory=list)
    listed: int = 0
    """Listed events of the last start (app_start): a listing drawn before the loaded suite."""


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    seen = Counts()
    # The suite's parts that walk or check (Suite's modules, engine/validation/suite.py).
    walk, check = suite_load.scan, suite_load.check_job

    def counted_walk(*args: Any, **kwargs: Any) -> Any:
        seen.walks += 1
        return walk(*args, **kwargs)

    def counted_check(ws: Any, refs: Any, job: Any) -> Any:
        seen.checked.append(job[1])
        return check(ws, refs, job)

    for module in (suite_load, suite_revalidate):
        monkeypatch.setattr(module, "scan", counted_walk)
    for module in (suite_gold, suite_load, suite_revalidate):
        monkeypatch.setattr(module, "check_job", counted_check)
    yield seen


def app_start(root: Path, counts: Counts | None = None) -> SuiteView:
    """One start of the app (no git) from whatever the cache holds, to its loaded suite, and its
    end (the cache written, the first screen recorded): the view it loaded. `counts` count from
    nothing."""
    if counts is not None:
        counts.walks, counts.checked = 0, []
    ws = Workspace.load(root)
    first = load_first_screen(ws, use_git=False)
    start = LiveStart() if first is None else LiveStart(Start.FROM_CACHE, first_screen=first)
    front = Front()
    live = live_suite(root, front, start, cache=True, watcher=FakeWatcher([]))
    live.begin()
    if first is not None:
        assert live.painted()
        live.after_first_screen()
    [loaded] = front.of(Loaded)
    if counts is not None:
        counts.listed = len(front.of(Listed))
    live.close()
    live.record_first_screen()
    return loaded.view


def same_suite(view: SuiteView, root: Path) -> None:
    """The view is what a full check of the workspace, without any cache, shows."""
    full = view_of(Suite.open(root, use_git=False))
    assert view.items == full.items
    assert view.summary == full.summary
    assert view.coverage == full.coverage
    assert view.workspace_diagnostics == full.workspace_diagnostics
    # The tree's groups and their counts, and the header's, as a cold start draws them.
    assert first_screen_of(view, use_git=False) == first_screen_of(full, use_git=False)


def test_a_warm_start_of_an_unchanged_workspace_neither_walks_nor_checks(
    sample_copy: Path, counts: Counts
) -> None:
    app_start(sample_copy)  # cold: walks and checks every file, writes the cache
    assert counts.walks >= 1 and counts.checked
    view = app_start(sample_copy, counts)
    assert counts.walks == 0  # the folders' stamps replayed, as validate does
    assert counts.checked == []
    assert counts.listed == 0  # nothing to check: no listing drawn before the loaded suite
    same_suite(view, sample_copy)
    # And again: a warm start leaves what the next one replays.
    view = app_start(sample_copy, counts)
    assert counts.walks == 0 and counts.checked == []
    same_suite(view, sample_copy)


def test_a_warm_start_after_validate_replays_its_listing(sample_copy: Path, counts: Counts) -> None:
    validate(sample_copy, use_git=False)
    view = app_start(sample_copy, counts)
    assert counts.walks == 0 and counts.checked == []
    same_suite(view, sample_copy)


def test_a_file_changed_since_the_cache_is_checked_again(sample_copy: Path, counts: Counts) -> None:
    app_start(sample_copy)
    app_start(sample_copy)  # a warm start (the first screen recorded)
    changed = break_a_task(sample_copy)
    view = app_start(sample_copy, counts)
    assert counts.checked == [changed]  # only it
    assert counts.listed == 1  # the listing to act on while it is checked
    assert view.summary.errors == 1
    assert [d.path for d in view.items[changed].diagnostics] == [changed]
    same_suite(view, sample_copy)


def test_a_torn_cache_is_refused_and_rebuilt(sample_copy: Path, counts: Counts) -> None:
    app_start(sample_copy, counts)
    every_file = sorted(counts.checked)
    app_start(sample_copy)
    path = ItemCache(Workspace.load(sample_copy)).path
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # a crash while it was written (no fsync)
    view = app_start(sample_copy, counts)
    assert counts.walks == 1 and sorted(counts.checked) == every_file  # nothing taken from it
    same_suite(view, sample_copy)
    view = app_start(sample_copy, counts)  # the load wrote it again
    assert counts.walks == 0 and counts.checked == []
    same_suite(view, sample_copy)


def test_a_fixture_added_since_the_cache_is_found(sample_copy: Path, counts: Counts) -> None:
    app_start(sample_copy)
    app_start(sample_copy)
    added = add_fixture(sample_copy)
    view = app_start(sample_copy, counts)
    assert counts.walks == 1  # a folder's stamp moved: the workspace is walked again
    assert counts.checked == [added]
    assert view.fixture_count == 26
    same_suite(view, sample_copy)
    app_start(sample_copy, counts)  # and the next start replays the new listing
    assert counts.walks == 0 and counts.checked == []


def test_a_warm_start_arms_the_watcher_after_the_load_and_checks_the_gap(
    sample_copy: Path, counts: Counts
) -> None:
    app_start(sample_copy)
    app_start(sample_copy)
    ws = Workspace.load(sample_copy)
    first = load_first_screen(ws, use_git=False)
    log: list[str] = []
    front = Front()
    start = LiveStart(Start.FROM_CACHE, first_screen=first)
    live = live_suite(sample_copy, front, start, cache=True, watcher=FakeWatcher(log))
    gap: list[str] = []

    def change_before_arming(event: LiveEvent) -> None:
        if isinstance(event, Loaded) and not gap:
            assert not log  # not armed, not watching while the load ran
            gap.append(break_a_task(sample_copy))  # no watcher sees this one
            gap.append(add_fixture(sample_copy))

    front.hook = change_before_arming
    live.begin()
    counts.walks, counts.checked = 0, []
    live.after_first_screen()
    assert log == ["arm", "run"]
    # What changed between the load's stamps and the arming is checked after it.
    assert live.view is not None and gap[1] in live.view.items
    assert live.view.fixture_count == 26 and live.view.summary.errors == 1
    assert sorted(counts.checked) == sorted(gap)
    same_suite(live.view, sample_copy)
