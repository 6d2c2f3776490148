"""The writer's git-ignored answer is kept between appends (a rating starts no git process,
tests/ratings/test_append_batch.py), so it must never outlive what it was decided by: an
ignore rule that appears while a session runs (a `.gitignore` at the root or in the ratings
folder, `.git/info/exclude`) refuses the next append, as an ask of git each time did."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ratings.common import jsonl, load_ws, rating, record, rubric, workspace_files
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.ratings.store import RatingStore

ALICE = "ratings/alice.jsonl"


def _ignore_at_root(root: Path) -> None:
    (root / ".gitignore").write_text("ratings/alice.jsonl\n")


def _ignore_in_folder(root: Path) -> None:
    (root / "ratings/.gitignore").write_text("*.jsonl\n")


def _ignore_in_exclude(root: Path) -> None:
    exclude = root / ".git/info/exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with open(exclude, "a", encoding="utf-8") as handle:
        handle.write("alice.jsonl\n")


@pytest.mark.parametrize(
    "ignore",
    [_ignore_at_root, _ignore_in_folder, _ignore_in_exclude],
    ids=["root-gitignore", "folder-gitignore", "info-exclude"],
)
def test_an_ignore_rule_made_during_a_session_refuses_the_next_append(
    make_workspace, ignore: Callable[[Path], None]
) -> None:
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)
    ws = load_ws(root)
    store = RatingStore.load(ws, rubric())
    store.append(ws, rating(run_id="run-b"))
    store.append(ws, rating(run_id="run-b"))  # answered from what was kept
    assert ws.ignore_answers, "the answer is kept"
    ignore(root)
    before = (root / ALICE).read_bytes()
    with pytest.raises(WriteRefused, match="git ignores"):
        store.append(ws, rating(fixture_id="t2"))
    assert (root / ALICE).read_bytes() == before


def test_a_rule_removed_during_a_session_lets_the_next_append_through(make_workspace) -> None:
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)
    (root / ".gitignore").write_text("ratings/\n")
    ws = load_ws(root)
    store = RatingStore.load(ws, rubric())
    with pytest.raises(WriteRefused, match="git ignores"):
        store.append(ws, rating(run_id="run-b"))
    (root / ".gitignore").write_text("# nothing ignored\n")
    store.append(ws, rating(run_id="run-b"))
    assert len((root / ALICE).read_text().splitlines()) == 2
