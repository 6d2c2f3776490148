"""Ratings files in `validate`: an item each (counted as files), checked after the agent runs,
re-checked live when they or the runs they name change, and without numpy or krippendorff."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.ratings.common import jsonl, record, workspace_files
from tests.sample import SAMPLE_ROOT
from voyage_tui.cli import main
from voyage_tui.engine.items import RatingsFacts
from voyage_tui.engine.validation.suite import Suite

A = "ratings/alice.jsonl"
RUN_B = "fixtures/bug-diagnosis/t1/runs/run-b.yaml"


def codes(suite: Suite, path: str = A) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in suite.diagnostics() if d.path == path]


def test_each_ratings_file_is_an_item_and_counts_as_a_file(make_workspace, capsys):
    root = make_workspace(
        {
            **workspace_files(),
            A: jsonl(record(), record(run_id="run-zz")),
            "ratings/bob.jsonl": jsonl(record(rater="bob")),
            "ratings/notes.txt": "not a ratings file\n",
        }
    )
    suite = Suite.open(root, use_git=False)
    assert suite.items[A].kind == "rating" and suite.items[A].id == "alice"
    assert suite.items[A].facts == RatingsFacts(records=1)
    assert "ratings/notes.txt" not in suite.items
    assert codes(suite) == [("rating-unknown-run", 2)]
    assert main(["validate", str(root), "--no-git", "--format", "json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["summary"]["files"] == len(suite.items)
    assert [d["code"] for d in payload["diagnostics"] if d["path"] == A] == ["rating-unknown-run"]


def test_the_sample_ratings_validate_clean():
    suite = Suite.open(SAMPLE_ROOT, use_git=False)
    ratings = [i for i in suite.items.values() if i.kind == "rating"]
    assert sorted(i.id for i in ratings) == ["alice", "bob", "carol"]
    for item in ratings:
        assert item.diagnostics == (), item.diagnostics


def test_a_ratings_file_edited_live_is_checked_again(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    suite = Suite.open(root, use_git=False)
    assert codes(suite) == []
    (root / A).write_text(jsonl(record(), record(scores={"correctness": 6, "scope": 3})))
    assert A in suite.revalidate([A])
    assert codes(suite) == [("rating-score-out-of-scale", 2)]


def test_a_ratings_file_created_and_deleted_live(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    suite = Suite.open(root, use_git=False)
    bob = root / "ratings/bob.jsonl"
    bob.write_text(jsonl(record(rater="bob", fixture_id="t7")))
    suite.revalidate(["ratings/bob.jsonl"])
    assert codes(suite, "ratings/bob.jsonl") == [("rating-unknown-run", 1)]
    bob.unlink()
    suite.revalidate(["ratings/bob.jsonl"])
    assert "ratings/bob.jsonl" not in suite.items
    assert codes(suite, "ratings/bob.jsonl") == []


def test_deleting_a_run_makes_its_ratings_name_no_run(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record(run_id="run-b"))})
    suite = Suite.open(root, use_git=False)
    assert codes(suite) == []
    os.unlink(root / RUN_B)
    touched = suite.revalidate([RUN_B])
    assert A in touched
    assert codes(suite) == [("rating-unknown-run", 1)]
    (root / RUN_B).write_text("run_id: run-b\nagent: a\noutput: back\n")
    suite.revalidate([RUN_B])
    assert codes(suite) == []


def test_an_edit_that_keeps_the_runs_leaves_the_ratings_alone(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    suite = Suite.open(root, use_git=False)
    (root / RUN_B).write_text("run_id: run-b\nagent: a\noutput: a better answer\n")
    assert A not in suite.revalidate([RUN_B])


def test_a_rubric_change_checks_the_ratings_again(make_workspace):
    root = make_workspace(
        {**workspace_files(), A: jsonl(record(scores={"correctness": 4, "scope": 4}))}
    )
    suite = Suite.open(root, use_git=False)
    assert codes(suite) == []
    (root / "rubric.md").write_text("## correctness\n\n- 1: a\n- 5: b\n")
    suite.revalidate(["rubric.md"])
    assert codes(suite) == [("rating-unknown-dimension", 1)]


def test_the_live_result_equals_a_full_validation(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record(), record(run_id="run-b"))})
    suite = Suite.open(root, use_git=False)
    os.unlink(root / RUN_B)
    (root / "ratings/carol.jsonl").write_text(jsonl(record(rater="carol", scores=None)))
    suite.revalidate([RUN_B, "ratings/carol.jsonl"])
    fresh = Suite.open(root, use_git=False)
    assert sorted(map(str, suite.diagnostics())) == sorted(map(str, fresh.diagnostics()))
    assert set(suite.items) == set(fresh.items)


PROBE = textwrap.dedent(
    """\
    import contextlib, io, json, sys
    from voyage_tui.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(json.loads(sys.argv[1]))
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "krippendorff"))
    print(json.dumps({"code": code, "heavy": heavy}))
    """
)


def test_validate_loads_neither_numpy_nor_krippendorff(make_workspace):
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(["validate", str(root), "--no-git"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result == {"code": 0, "heavy": []}


def test_the_probe_would_see_numpy(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            A: jsonl(record()),
            "ratings/bob.jsonl": jsonl(record(rater="bob", scores={"correctness": 1, "scope": 5})),
        }
    )
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(["agreement", str(root)])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "numpy" in json.loads(proc.stdout.strip().splitlines()[-1])["heavy"]


def test_a_fifo_and_a_folder_named_like_ratings_files_are_errors_and_never_opened(
    make_workspace, capsys
):
    """A FIFO opened for reading blocks until a writer comes: it is reported unopened (the test
    would hang otherwise), as is a folder named `<rater>.jsonl`."""
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    os.mkfifo(root / "ratings/pipe.jsonl")
    (root / "ratings/folder.jsonl").mkdir()
    suite = Suite.open(root, use_git=False)
    assert codes(suite, "ratings/pipe.jsonl") == [("not-a-regular-file", None)]
    assert codes(suite, "ratings/folder.jsonl") == [("not-a-regular-file", None)]
    assert codes(suite) == []
    for _ in range(2):  # the second run from the validation cache says the same
        assert main(["validate", str(root), "--no-git", "--format", "json"]) == 1
        payload = json.loads(capsys.readouterr().out)
        found = {(d["path"], d["severity"]) for d in payload["diagnostics"]}
        assert ("ratings/pipe.jsonl", "error") in found
        assert ("ratings/folder.jsonl", "error") in found


def test_a_fifo_and_a_folder_named_like_ratings_files_made_live_are_what_a_walk_finds(
    make_workspace,
):
    root = make_workspace({**workspace_files(), A: jsonl(record())})
    suite = Suite.open(root, use_git=False)
    os.mkfifo(root / "ratings/pipe.jsonl")
    (root / "ratings/folder.jsonl").mkdir()
    suite.revalidate(["ratings/pipe.jsonl", "ratings/folder.jsonl"])
    fresh = Suite.open(root, use_git=False)
    assert sorted(map(str, suite.diagnostics())) == sorted(map(str, fresh.diagnostics()))
    assert codes(fresh, "ratings/folder.jsonl") == [("not-a-regular-file", None)]
