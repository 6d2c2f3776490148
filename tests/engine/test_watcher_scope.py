"""The app's watcher watches the configured folders and the root's own files only: arming it
never walks `.venv`, `.git` or any other folder beside them (issue 23: at 11,000 fixtures the
walk held the interpreter lock the first screen needed)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from voyage_tui.engine import watcher as watcher_module
from voyage_tui.engine.watcher import watcher_of
from voyage_tui.engine.workspace.layout import watched
from voyage_tui.engine.workspace.model import Workspace


def test_what_is_watched_is_what_the_configuration_names(sample_copy: Path, tmp_path: Path) -> None:
    # The sample keeps everything under fixtures/.
    assert watched(Workspace.load(sample_copy)) == (["fixtures"], ["voyage.toml", ".gitignore"])
    # Gold files named beside the fixtures, the rubric at the root.
    root = tmp_path / "plain"
    (root / "fixtures").mkdir(parents=True)
    (root / "voyage.toml").write_text('[paths]\ngold = ["gold"]\n')
    folders, files = watched(Workspace.load(root))
    assert folders == ["fixtures", "gold", "ratings", "references"], folders
    assert files[:2] == ["voyage.toml", ".gitignore"] and "rubric.md" in files
    # The defaults search the whole workspace for gold files: every folder at the root, as
    # the walk goes (the watcher lists them when it arms: never .venv or .git).
    (root / "voyage.toml").write_text("")
    assert watched(Workspace.load(root))[0] == [""]


def _changes_seen(root: Path, make_changes: Any) -> set[str]:
    """Arm the workspace's watcher, run it, make the changes, and collect what it hands on
    (until a change in fixtures/, made last, comes through)."""
    watcher = watcher_of(Workspace.load(root))
    watcher.arm()
    seen: set[str] = set()
    done = threading.Event()
    stop = threading.Event()

    def on_change(paths: set[str] | None) -> None:
        if paths is None:
            return
        seen.update(paths)
        if any(p.endswith("last.yaml") for p in paths):
            done.set()

    thread = threading.Thread(target=watcher.run, args=(on_change, stop), daemon=True)
    thread.start()
    try:
        make_changes()
        time.sleep(0.3)  # a change outside would have come in the same batch or before
        (root / "fixtures/refactor/last.yaml").write_text("x: 1\n")
        assert done.wait(15), seen
    finally:
        stop.set()
        thread.join(10)
    return seen


def _record_opened(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The paths each notifier the watcher opens is given, in order."""
    opened: list[list[str]] = []
    real_open = watcher_module.open_notifier

    def open_notifier(paths: list[str], force_polling: bool) -> Any:
        opened.append(list(paths))
        return real_open(paths, force_polling)

    monkeypatch.setattr(watcher_module, "open_notifier", open_notifier)
    return opened


def test_a_change_in_venv_git_or_another_folder_is_not_seen(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = sample_copy / "voyage.toml"  # gold files under fixtures/ only, as the sample has
    assert 'gold = ["fixtures"]' in config.read_text()
    for folder in (".venv/lib/site", ".git/refs", "notes"):
        (sample_copy / folder).mkdir(parents=True)
    opened = _record_opened(monkeypatch)

    def changes() -> None:
        (sample_copy / ".venv/lib/site/mod.py").write_text("x = 1\n")
        (sample_copy / ".git/refs/head").write_text("abc\n")
        (sample_copy / "notes/plan.yaml").write_text("a: 1\n")

    seen = _changes_seen(sample_copy, changes)
    assert "fixtures/refactor/last.yaml" in seen
    assert not any(p.startswith((".venv", ".git", "notes")) for p in seen), seen
    root = str(sample_copy)
    assert opened and root not in opened[0]  # the workspace is not watched whole
    assert all(p.startswith(root + "/fixtures") or p == root + "/voyage.toml" for p in opened[0])


def test_a_change_in_a_configured_folder_or_voyage_toml_is_seen(sample_copy: Path) -> None:
    def changes() -> None:
        (sample_copy / "fixtures/ratings/dana.jsonl").write_text("")
        config = sample_copy / "voyage.toml"
        config.write_text(config.read_text() + "\n")

    seen = _changes_seen(sample_copy, changes)
    assert {"fixtures/ratings/dana.jsonl", "voyage.toml"} <= seen, seen


def test_with_the_default_gold_folder_the_root_folders_are_watched_but_venv_and_git(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = sample_copy / "voyage.toml"
    config.write_text(config.read_text().replace('gold = ["fixtures"]', 'gold = ["."]'))
    for folder in (".venv/lib", ".git/refs", "notes"):
        (sample_copy / folder).mkdir(parents=True)
    opened = _record_opened(monkeypatch)

    def changes() -> None:
        (sample_copy / ".venv/lib/mod.py").write_text("x = 1\n")
        (sample_copy / "notes/gold.json").write_text("{}\n")

    seen = _changes_seen(sample_copy, changes)
    assert "notes/gold.json" in seen and not any(p.startswith(".venv") for p in seen)
    root = str(sample_copy)
    assert sorted(opened[0]) == [f"{root}/fixtures", f"{root}/notes", f"{root}/voyage.toml"]
