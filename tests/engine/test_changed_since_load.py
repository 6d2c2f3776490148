"""Suite.changed_since_load: what a load that stamped its files can no longer vouch for (the app
arms its watcher after such a load and re-checks exactly these)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import task_yaml
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

A = "fixtures/bug-diagnosis/alpha/task.yaml"
B = "fixtures/bug-diagnosis/beta/task.yaml"
RATINGS = "ratings/ana.jsonl"


def loaded(root: Path, *, cache: bool = True) -> Suite:
    suite = Suite(Workspace.load(root), use_git=False)
    suite.validate_all(prepared=suite.prepare(fork=False, cache=cache))
    suite.save_cache()
    return suite


def workspace(make_workspace) -> Path:  # type: ignore[no-untyped-def]
    return make_workspace(
        {
            A: task_yaml("alpha", extra="context:\n  - file: notes.md\n"),
            "fixtures/bug-diagnosis/alpha/notes.md": "notes\n",
            B: task_yaml("beta"),
            RATINGS: "",
        }
    )


def test_nothing_changed_leaves_only_the_ratings_files(make_workspace) -> None:
    suite = loaded(workspace(make_workspace))
    assert suite.changed_since_load() == {RATINGS}


def test_an_edit_a_new_file_a_removed_one_and_a_dependency(make_workspace) -> None:
    root = workspace(make_workspace)
    suite = loaded(root)
    (root / B).write_text(task_yaml("beta") + "\n# edited, one byte longer\n")
    os.remove(root / "fixtures/adversarial/adv-1/task.yaml")
    new = root / "fixtures/bug-diagnosis/gamma/task.yaml"
    new.parent.mkdir()
    new.write_text(task_yaml("gamma"))
    assert suite.changed_since_load() == {
        B,
        "fixtures/adversarial/adv-1/task.yaml",
        "fixtures/bug-diagnosis/gamma/task.yaml",
        RATINGS,
    }
    suite = loaded(root)
    (root / "fixtures/bug-diagnosis/alpha/notes.md").write_text("other notes, longer\n")
    assert suite.changed_since_load() == {A, RATINGS}


def test_without_the_cache_nothing_was_stamped(make_workspace) -> None:
    suite = loaded(workspace(make_workspace), cache=False)
    assert suite.changed_since_load() is None


def test_a_new_layout_problem_means_everything(make_workspace) -> None:
    root = workspace(make_workspace)
    suite = loaded(root)
    misplaced = root / "fixtures/task.yaml"
    misplaced.write_text(task_yaml("stray"))
    assert suite.changed_since_load() is None
