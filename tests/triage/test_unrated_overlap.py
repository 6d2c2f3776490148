"""Triage's `unrated` items count ratings in force against `[rating] overlap` (the deprecated
`[triage] ratings_per_run` wins while it is written), and name who an item is still assigned
to when `[rating] raters` sets a team (SPEC 3.9)."""

from __future__ import annotations

from pathlib import Path

from tests.ratings.common import jsonl, record, workspace_files
from tests.triage.support import queue_of

RUNS = {"t1": ["run-a", "run-b"], "t2": ["run-a", "run-b"]}
RATINGS = {
    "ann": [("t1", "run-a")],
    "ben": [("t1", "run-a"), ("t2", "run-b")],
    "cat": [("t2", "run-b")],
    "zed": [("t2", "run-a")],
}


def workspace(make_workspace, config: str) -> Path:
    files = workspace_files(RUNS)
    files["voyage.toml"] = config
    for rater, pairs in RATINGS.items():
        files[f"ratings/{rater}.jsonl"] = jsonl(*(record(f, r, rater) for f, r in pairs))
    return make_workspace(files)


def unrated(root: Path) -> dict[tuple[str | None, str | None], tuple[str, str]]:
    queue = queue_of(root, git=False)
    return {
        (i.fixture_id, i.run_id): (i.title, i.detail) for i in queue.items if i.kind == "unrated"
    }


def test_with_a_team_each_item_names_who_it_still_waits_for(make_workspace) -> None:
    # Assigned by hand in tests/ratings/test_assignment.py: t1/run-a ben+ann, t1/run-b ben+ann,
    # t2/run-a cat+ben, t2/run-b ben+cat.
    root = workspace(make_workspace, '[rating]\nraters = ["ann", "ben", "cat"]\noverlap = 2\n')
    assert unrated(root) == {
        ("t1", "run-b"): (
            "t1 / run-b: 0 of 2 ratings, waiting for ben, ann",
            "not rated yet; still assigned to ben, ann; [rating] overlap asks for 2",
        ),
        ("t2", "run-a"): (
            "t2 / run-a: 1 of 2 ratings, waiting for cat, ben",
            "rated by zed; still assigned to cat, ben; [rating] overlap asks for 2",
        ),
    }


def test_overlap_counts_without_a_team_too(make_workspace) -> None:
    root = workspace(make_workspace, "[rating]\noverlap = 3\n")
    found = unrated(root)
    assert set(found) == set(RATINGS["ann"] + RATINGS["zed"] + RATINGS["cat"] + [("t1", "run-b")])
    assert found[("t1", "run-a")] == (
        "t1 / run-a: 2 of 3 ratings",
        "rated by ann, ben; [rating] overlap asks for 3",
    )


def test_the_deprecated_ratings_per_run_wins_while_it_is_written(make_workspace) -> None:
    root = workspace(make_workspace, "[rating]\noverlap = 3\n[triage]\nratings_per_run = 1\n")
    assert unrated(root) == {
        ("t1", "run-b"): (
            "t1 / run-b: 0 of 1 ratings",
            "not rated yet; [triage] ratings_per_run asks for 1",
        )
    }
    root = workspace(make_workspace, "[rating]\noverlap = 3\n[triage]\nratings_per_run = 0\n")
    assert unrated(root) == {}


def test_an_adjudicated_run_is_settled_not_unrated(make_workspace) -> None:
    """An adjudication in force gives the item its final scores (SPEC 3.9): triage does not ask
    for more ratings of it; a retraction makes it unrated again."""
    import json

    root = workspace(make_workspace, "[rating]\noverlap = 2\n")
    assert ("t1", "run-b") in unrated(root)

    def adjudicate(scores: object) -> str:
        return json.dumps(
            {
                "fixture_id": "t1",
                "run_id": "run-b",
                "adjudicator": "lead",
                "scores": scores,
                "based_on": [],
                "note": "",
                "rated_at": "2026-11-22T10:00:00Z",
            }
        )

    (root / "adjudications.jsonl").write_text(adjudicate({"correctness": 3}) + "\n")
    assert ("t1", "run-b") not in unrated(root)
    with (root / "adjudications.jsonl").open("a") as handle:
        handle.write(adjudicate(None) + "\n")
    assert ("t1", "run-b") in unrated(root)


def test_a_member_who_rated_off_their_hash_holds_the_place_and_the_item_waits_for_one_more(
    make_workspace,
) -> None:
    # Issue 36 row 3 (SPEC 3.9, amended): ann rated t2/run-b, which hashing gives ben and cat;
    # her place is taken, so t2/run-b waits for ben alone (the better-ranked of the others).
    files = workspace_files(RUNS)
    files["voyage.toml"] = '[rating]\nraters = ["ann", "ben", "cat"]\noverlap = 2\n'
    files["ratings/ann.jsonl"] = jsonl(record("t2", "run-b", "ann"))
    root = make_workspace(files)
    assert unrated(root)[("t2", "run-b")] == (
        "t2 / run-b: 1 of 2 ratings, waiting for ben",
        "rated by ann; still assigned to ben; [rating] overlap asks for 2",
    )
