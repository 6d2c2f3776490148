"""What a rating write costs (issue 34, item 5): no git process per rating (the git-ignored
answer is kept while the files that decide it are unchanged), and a batch of records in one
write with one fsync, so a judge writing thousands pays for one. A batch cut off by a kill
loses at most itself: its last line is torn, the reader says so, and the records before it
(and the next one appended) count."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.ratings.common import jsonl, load_ws, rating, record, rubric, workspace_files
from voyage_tui.engine import atomic
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.records import TORN_LINE
from voyage_tui.engine.ratings.session import RaterSession
from voyage_tui.engine.ratings.store import RatingStore
from voyage_tui.engine.validation.suite import Suite

ALICE = "ratings/alice.jsonl"
GOOD = {"correctness": 4, "scope": 3}


def git_repo(root: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, capture_output=True)


class Spawned:
    """Every process started in this test process (subprocess.Popen, which run() uses)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.argv: list[list[str]] = []
        real = subprocess.Popen
        seen = self.argv

        class Counting(real):  # type: ignore[misc, valid-type]
            def __init__(self, args: Any, *rest: Any, **kwargs: Any) -> None:
                seen.append([str(a) for a in args] if isinstance(args, list) else [str(args)])
                super().__init__(args, *rest, **kwargs)

        monkeypatch.setattr(subprocess, "Popen", Counting)

    def git(self) -> list[list[str]]:
        return [argv for argv in self.argv if argv and os.path.basename(argv[0]) == "git"]


def test_a_rating_spawns_no_git_process(make_workspace, monkeypatch) -> None:
    root = make_workspace({**workspace_files(), ALICE: jsonl(record(run_id="run-b"))})
    git_repo(root)
    suite = Suite.open(root, use_git=False)
    spawned = Spawned(monkeypatch)
    session = RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        "alice",
        use_git=False,
        read=WorkTree(suite.ws).rater_store,
    )
    # the writer's question, asked once, when the session opens
    assert [argv[3:4] for argv in spawned.git()] == [["check-ignore"]]
    opened = len(spawned.git())
    try:
        session.submit(GOOD)
        session.submit(GOOD)
        session.undo()
        session.redo()
    finally:
        session.close()
    assert spawned.git()[opened:] == [], "a rating started git"
    assert len((root / ALICE).read_text().splitlines()) == 5


def count_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    synced: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_a_batch_of_records_is_one_write_and_one_fsync(make_workspace, monkeypatch) -> None:
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    ws = load_ws(root)
    store = RatingStore.load(ws, rubric())
    batch = [rating(run_id="run-b", note=f"n{i}") for i in range(500)]
    synced = count_fsyncs(monkeypatch)
    stored = store.append_many(ws, batch)
    assert len(synced) == 1
    assert [r.line for r in stored] == list(range(2, 502))
    assert {r.path for r in stored} == {ALICE}
    lines = (root / ALICE).read_text().splitlines()
    assert len(lines) == 501 and json.loads(lines[-1])["note"] == "n499"
    assert store.of_rater("alice")[("t1", "run-b")].note == "n499"
    # one record is a batch of one: one fsync too
    synced.clear()
    store.append(ws, rating(run_id="run-a"))
    assert len(synced) == 1


def test_a_new_file_is_made_durable_once(make_workspace, monkeypatch) -> None:
    root = make_workspace(workspace_files())
    ws = load_ws(root)
    store = RatingStore.load(ws, rubric())
    synced = count_fsyncs(monkeypatch)
    store.append_many(ws, [rating(), rating(run_id="run-b")])
    # the new (empty) file and its folder entry, then the batch
    assert len(synced) <= 3
    assert len((root / ALICE).read_text().splitlines()) == 2


def test_a_batch_cut_off_by_a_kill_loses_at_most_itself(make_workspace, monkeypatch) -> None:
    root = make_workspace({**workspace_files(), ALICE: jsonl(record())})
    ws = load_ws(root)
    store = RatingStore.load(ws, rubric())
    real_write = os.write

    def killed_part_way(fd: int, data: Any) -> int:
        # the first 2.5 records of the batch reach the file, then the process is gone
        cut = len(bytes(data)) * 5 // 8
        real_write(fd, bytes(data)[:cut])
        raise SystemExit("killed")

    monkeypatch.setattr(atomic.os, "write", killed_part_way)
    with pytest.raises(SystemExit):
        store.append_many(ws, [rating(run_id="run-b", note=f"n{i}") for i in range(4)])
    monkeypatch.undo()
    reread = RatingStore.load(load_ws(root), rubric())
    [checked] = reread.files.values()
    assert checked.readable
    torn = [d for d in checked.diagnostics if d.code == TORN_LINE]
    assert [d.line for d in torn] == [4], checked.diagnostics
    assert [r.note for r in checked.ratings] == ["", "n0", "n1"]
    # the next append starts a line of its own, and counts
    reread.append(load_ws(root), rating(run_id="run-a", note="after"))
    again = RatingStore.load(load_ws(root), rubric())
    assert [r.note for r in again.ratings()] == ["", "n0", "n1", "after"]
