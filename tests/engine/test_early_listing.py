"""The app's first load on a first run (issue 23): the forked child lists the files while the
app imports its interface (Suite.prepare_early), hands the listing back, then checks its share;
what the load finds is what a load in one process finds."""

from __future__ import annotations

import os
import select
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace, task_yaml
from voyage_tui.engine.kinds import AFTER_RUNS_KINDS
from voyage_tui.engine.validation import parallel
from voyage_tui.engine.validation.suite import PendingPrepared, Prepared, Suite
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child takes a share of the sample's files too (it has fewer than MIN_ITEMS)."""
    if not parallel.can_fork():
        pytest.skip("this process cannot fork (one core, or a thread running)")
    monkeypatch.setattr(parallel, "MIN_ITEMS", 10)


def _items_in_one_process(root: Path) -> dict[str, object]:
    return dict(Suite.open(root, use_git=False).items)


@pytest.mark.parametrize("cache", [True, False])
def test_a_first_run_is_listed_by_the_child_and_checked_alike(
    sample_copy: Path, forking: None, cache: bool
) -> None:
    ws = Workspace.load(sample_copy)
    suite = Suite(ws, use_git=False)
    early = suite.prepare_early(cache=cache, child_share=0.6)
    assert isinstance(early, PendingPrepared)
    prepared = early.resolve()
    assert early.resolve() is prepared
    reference = Suite(ws, use_git=False).prepare(fork=False, cache=cache)
    assert prepared.layout.tasks == reference.layout.tasks
    assert prepared.layout.json_candidates == reference.layout.json_candidates
    assert prepared.tasks.work == reference.tasks.work
    assert prepared.tasks.pid is not None  # the child checks a share
    suite.validate_all(prepared=prepared, git=False)
    assert prepared.tasks.pid is None
    if cache:
        # Its reads' stamps came back with its share.
        assert isinstance(prepared.tasks.from_child, dict) and prepared.tasks.from_child
    assert suite.items == _items_in_one_process(sample_copy)


def test_the_walk_s_folder_stamps_come_back_for_the_next_start(
    sample_copy: Path, forking: None
) -> None:
    """The cache written after an early load holds a listing the next start replays: the
    folders' identities the child's walk took reached this process's stamper."""
    ws = Workspace.load(sample_copy)
    suite = Suite(ws, use_git=False)
    early = suite.prepare_early(cache=True, child_share=0.6)
    assert isinstance(early, PendingPrepared)
    prepared = early.resolve()
    assert prepared.cache is not None
    fixture_folder = prepared.layout.tasks[0].rpartition("/")[0]
    assert prepared.cache.stamper.chains.get(fixture_folder)
    suite.validate_all(prepared=prepared, git=False)
    suite.save_cache()
    again = Suite(ws, use_git=False).prepare(fork=False, cache=True)
    # Every item but the ratings (checked afresh each time) from the cache.
    assert set(again.reused) == {
        rel for rel, item in suite.items.items() if item.kind not in AFTER_RUNS_KINDS
    }


def test_a_child_that_dies_before_the_listing_leaves_the_load_to_this_process(
    sample_copy: Path, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(self: Suite, *args: object) -> None:
        os._exit(3)

    monkeypatch.setattr(Suite, "_early_child", dies)
    ws = Workspace.load(sample_copy)
    suite = Suite(ws, use_git=False)
    early = suite.prepare_early(cache=True, child_share=0.6)
    assert isinstance(early, PendingPrepared)
    prepared = early.resolve()
    assert prepared.tasks.pid is None  # no child: every file is checked here
    suite.validate_all(prepared=prepared, git=False)
    assert suite.items == _items_in_one_process(sample_copy)


def test_a_child_that_dies_after_the_listing_has_its_share_checked_here(
    sample_copy: Path, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(self: parallel.ForkedMap[object, object], write_fd: int) -> int:
        os._exit(3)

    monkeypatch.setattr(parallel.ForkedMap, "serve", dies)
    ws = Workspace.load(sample_copy)
    suite = Suite(ws, use_git=False)
    early = suite.prepare_early(cache=True, child_share=0.6)
    assert isinstance(early, PendingPrepared)
    suite.validate_all(prepared=early.resolve(), git=False)
    assert suite.items == _items_in_one_process(sample_copy)


def test_cancelling_before_the_listing_is_taken_stops_the_child(
    sample_copy: Path, forking: None
) -> None:
    early = Suite(Workspace.load(sample_copy), use_git=False).prepare_early(
        cache=True, child_share=0.6
    )
    assert isinstance(early, PendingPrepared)
    early.cancel()
    with pytest.raises(RuntimeError):
        early.resolve()


def test_a_start_the_cache_answers_for_is_prepared_here(sample_copy: Path, forking: None) -> None:
    """With items in the cache (or a listing to replay) nothing is walked: the child is forked
    on the planned work, as prepare() does."""
    ws = Workspace.load(sample_copy)
    first = Suite(ws, use_git=False)
    first.validate_all(prepared=first.prepare(fork=False, cache=True), git=False)
    first.save_cache()
    again = Suite(ws, use_git=False).prepare_early(cache=True, child_share=0.6)
    assert isinstance(again, Prepared)
    assert again.resolve() is again
    again.cancel()


def test_the_child_checks_its_share_before_the_listing_is_taken_up(
    make_workspace: MakeWorkspace, forking: None
) -> None:
    """The listing of 1,500 fixtures is far over a pipe's 64 KB: the child must not wait for
    this process (the app, importing its interface) to read it before it checks its share."""
    root = make_workspace(
        {
            f"fixtures/bug-diagnosis/fixture-{n:04}/task.yaml": task_yaml(f"fixture-{n:04}")
            for n in range(1500)
        }
    )
    suite = Suite(Workspace.load(root), use_git=False)
    early = suite.prepare_early(cache=True, child_share=0.5)
    assert isinstance(early, PendingPrepared)
    child = early._early
    assert child is not None and child.results_fd is not None
    # Its share's results arrive while the listing is still not taken up.
    readable, _, _ = select.select([child.results_fd], [], [], 30)
    assert readable, "the child sent no results before its listing was read"
    suite.validate_all(prepared=early.resolve(), git=False)
    assert suite.items == _items_in_one_process(root)
