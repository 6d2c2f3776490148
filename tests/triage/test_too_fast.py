"""Issue 36 row 4: a person's rating timed below `[rating] min_seconds` (default 5 s) is a triage
`warning` (code `rating-too-fast`), one per rater, at the first such rating's line of their file;
the lead reads the records and decides."""

from __future__ import annotations

from pathlib import Path

from tests.ratings.common import jsonl, record, workspace_files
from tests.triage.support import queue_of
from voyage_tui.engine.triage.keys import KINDS, WARNING

RUNS = {"t1": ["run-a", "run-b"], "t2": ["run-a", "run-b"]}


def workspace(make_workspace, config: str = "") -> Path:
    files = workspace_files(RUNS)
    files["voyage.toml"] = config
    files["ratings/ann.jsonl"] = jsonl(
        record("t1", "run-a", "ann", duration_s=60.0),
        record("t1", "run-b", "ann", duration_s=3.4),  # five dimensions in 3.4 s
        record("t2", "run-a", "ann", duration_s=1.2),
        record("t2", "run-b", "ann", duration_s=5.0),  # at the threshold: fine
    )
    files["ratings/ben.jsonl"] = jsonl(
        record("t1", "run-a", "ben", duration_s=2.0),
        record("t1", "run-a", "ben", duration_s=40.0),  # re-rated with care: in force, fine
        record("t1", "run-b", "ben"),  # no duration_s: nothing to say
    )
    return make_workspace(files)


def too_fast(root: Path):  # type: ignore[no-untyped-def]
    return [i for i in queue_of(root, git=False).items if "rating-too-fast" in i.key]


def test_each_rater_with_ratings_too_fast_is_one_warning(make_workspace) -> None:
    items = too_fast(workspace(make_workspace))
    assert [(i.kind, i.path, i.line) for i in items] == [(WARNING, "ratings/ann.jsonl", 2)]
    (item,) = items
    assert item.key == "warning:ratings/ann.jsonl:rating-too-fast:ann"
    assert item.title == "ann: 2 ratings faster than [rating] min_seconds (5 s)"
    assert item.detail.splitlines() == [
        "t1 / run-b: 3.4 s (line 2)",
        "t2 / run-a: 1.2 s (line 3)",
        "Quicker than a run can be read: look at the ratings, ask the rater, retract or re-rate.",
    ]


def test_its_place_is_among_the_warnings_before_the_unrated_runs(make_workspace) -> None:
    queue = queue_of(workspace(make_workspace), git=False)
    kinds = [i.kind for i in queue.items]
    assert KINDS.index(WARNING) < KINDS.index("unrated")
    assert kinds == sorted(kinds, key=KINDS.index)
    assert "unrated" in kinds and WARNING in kinds


def test_min_seconds_moves_the_threshold_and_zero_turns_it_off(make_workspace) -> None:
    root = workspace(make_workspace, "[rating]\nmin_seconds = 2\n")
    assert [i.title for i in too_fast(root)] == [
        "ann: 1 rating faster than [rating] min_seconds (2 s)"
    ]
    (root / "voyage.toml").write_text("[rating]\nmin_seconds = 0\n")
    assert too_fast(root) == []
