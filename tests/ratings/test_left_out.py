"""What the agreement figures leave out (engine/ratings/left_out.py): a file that cannot be read,
each record with an error and each torn line; a retraction or a superseded rating is not left
out. (tests/app/test_rate_agreement.py checks the screen and the command name the same.)"""

from __future__ import annotations

from pathlib import Path

from tests.ratings.common import jsonl, load_ws, record, rubric, workspace_files
from voyage_tui.engine.ratings.left_out import left_out
from voyage_tui.engine.ratings.store import RatingStore


def mixed_workspace(make_workspace) -> Path:  # type: ignore[no-untyped-def]
    """alice: a rating superseded, one retracted, one off the scale, one with an unknown
    dimension, a torn last line; bob: fine; carol.jsonl: a folder, so unreadable."""
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/alice.jsonl": jsonl(
                record("t1", "run-a", "alice", {"correctness": 2, "scope": 2}),
                record("t1", "run-a", "alice", {"correctness": 5, "scope": 5}),
                record("t1", "run-b", "alice", {"correctness": 3, "scope": 3}),
                record("t1", "run-b", "alice", None),
                record("t2", "run-a", "alice", {"correctness": 9, "scope": 3}),
                record("t2", "run-b", "alice", {"correctness": 3, "speed": 3}),
            )
            + '{"fixture_id": "t1", "run_id"',
            "ratings/bob.jsonl": jsonl(
                record("t1", "run-a", "bob", {"correctness": 4, "scope": 5}),
            ),
        }
    )
    (root / "ratings" / "carol.jsonl").mkdir()
    return root


def test_unreadable_files_and_records_with_errors_are_left_out(make_workspace) -> None:  # type: ignore[no-untyped-def]
    root = mixed_workspace(make_workspace)
    store = RatingStore.load(load_ws(root), rubric())
    missing = left_out(store)
    assert [d.path for d in missing.unreadable] == ["ratings/carol.jsonl"]
    codes = sorted(d.code for d in missing.records)
    assert "rating-torn-line" in codes
    assert all(d.path == "ratings/alice.jsonl" for d in missing.records)
    lines = sorted(d.line for d in missing.records)
    assert lines == [5, 6, 7]  # off the scale, unknown dimension, torn; not 1 (superseded), 4
    assert missing.any


def test_nothing_left_out_of_clean_files(make_workspace) -> None:  # type: ignore[no-untyped-def]
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/bob.jsonl": jsonl(record("t1", "run-a", "bob", None)),
        }
    )
    missing = left_out(RatingStore.load(load_ws(root), rubric()))
    assert missing.unreadable == () and missing.records == () and not missing.any
