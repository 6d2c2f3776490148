"""The collector pause around bulk loads, and the freeze of a big loaded suite."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import freeze_what_is_alive, task_yaml
from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.loading.stamps import Stamp
from voyage_tui.engine.validation import cache as cache_module
from voyage_tui.engine.validation import item_entry as item_entry_module
from voyage_tui.engine.validation import suite_load as load_module
from voyage_tui.engine.validation.layout_replay import listing_parts
from voyage_tui.engine.validation.suite import Prepared, Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """Each test starts with nothing frozen; after it, the session's freeze is made again
    (tests/conftest.py freezes what the collection imported: left unfrozen, the rest of the
    worker's tests paid for it)."""
    session_froze = gc.get_freeze_count() > 0
    gc.unfreeze()
    yield
    gc.unfreeze()  # what a test froze goes back to the collector
    if session_froze:
        freeze_what_is_alive()


def test_the_pause_restores_the_collector_and_freezes_only_when_asked() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with gc_paused(keep=lambda: False):
        pass
    assert gc.get_freeze_count() == 0
    with gc_paused(keep=True):
        kept = [[i] for i in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)


def _workspace(root: Path, fixtures: int) -> Path:
    for n in range(fixtures):
        task = root / f"fixtures/bug-diagnosis/t{n}/task.yaml"
        task.parent.mkdir(parents=True)
        task.write_text(task_yaml(f"t{n}"))
    (root / "voyage.toml").write_text("")
    return root


def test_only_a_big_load_is_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small suite would gain nothing, and whatever else is alive then (an app's widgets)
    would never be collected if it later formed garbage cycles."""
    ws = Workspace.load(str(_workspace(tmp_path, 3)))
    Suite(ws, use_git=False).validate_all(git=False)
    assert gc.get_freeze_count() == 0
    monkeypatch.setattr(load_module, "FREEZE_MIN_ITEMS", 3)
    Suite(ws, use_git=False).validate_all(git=False)
    assert gc.get_freeze_count() > 0


def _warm_prepare(ws: Workspace, between: Callable[[], object] = list) -> Prepared:
    """A load that writes the cache (items and listing, as the app's), then (after `between`)
    the next one's prepare: every item from the cache."""
    first = Suite(ws, use_git=False)
    prepared = first.prepare(fork=False, cache=True)
    first.validate_all(prepared=prepared, git=False)
    view = view_of(first)
    ratings: dict[str, Stamp] = {}
    first.save_cache(
        None,
        listing_parts(
            prepared.layout, first.items, ratings, [], first.layout_problems, [], view.coverage
        ),
    )
    gc.unfreeze()
    between()
    return Suite(ws, use_git=False).prepare(fork=False, cache=True)


def test_a_warm_load_decodes_the_cache_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm start at 100,000 fixtures makes millions of containers (the cache's entries, the
    listing, the items) that all stay: each collection in between scanned all of them again
    (0.6 s of a 4 s load, issue 23). The replay and every decode run paused, the join of the
    cache's two sections too (one pause over the whole load), and what a big load made is frozen once it is made."""
    ws = Workspace.load(str(_workspace(tmp_path, 4)))
    seen: list[tuple[str, bool]] = []
    decode, replay, entries = (
        item_entry_module.decode_item,
        load_module.replay_layout,
        cache_module.CacheFile.entries,
    )

    def decode_seen(rel: str, raw: list[Any]) -> Any:
        seen.append(("decode", gc.isenabled()))
        return decode(rel, raw)

    def replay_seen(*args: Any) -> Any:
        seen.append(("replay", gc.isenabled()))
        return replay(*args)

    def entries_seen(self: Any) -> Any:
        seen.append(("entries", gc.isenabled()))
        return entries(self)

    monkeypatch.setattr(item_entry_module, "decode_item", decode_seen)
    monkeypatch.setattr(load_module, "replay_layout", replay_seen)
    monkeypatch.setattr(cache_module.CacheFile, "entries", entries_seen)
    monkeypatch.setattr(load_module, "FREEZE_MIN_ITEMS", 4)
    prepared = _warm_prepare(ws, between=seen.clear)
    assert len(prepared.reused) == 4 and prepared.listing_current
    assert sorted(set(seen)) == [("decode", False), ("entries", False), ("replay", False)]
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


def test_a_small_warm_load_is_not_frozen(tmp_path: Path) -> None:
    ws = Workspace.load(str(_workspace(tmp_path, 3)))
    prepared = _warm_prepare(ws)
    assert len(prepared.reused) == 3
    assert gc.isenabled() and gc.get_freeze_count() == 0
