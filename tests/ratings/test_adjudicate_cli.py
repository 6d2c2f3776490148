"""`voyage-tui adjudicate --list`: the disputed items (SPEC 6), exactly the SPEC's JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.ratings.common import jsonl, record, workspace_files
from tests.ratings.test_adjudications import adjudication
from voyage_tui.cli import main

ADJ = "adjudications.jsonl"


def listed(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Any:
    capsys.readouterr()
    code = main(["adjudicate", str(root), "--list", "--format", "json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)


def team(make_workspace, **extra_files: str) -> Path:
    """t1/run-a: ann 1 and cat 4 on correctness (spread 3), scope 3 and 3; bob re-rated and then
    withdrew his. t1/run-b: ann 4, bob 5 (spread 1, not disputed). t2/run-a: ann alone."""
    files = {
        **workspace_files(),
        "ratings/ann.jsonl": jsonl(
            record(rater="ann", scores={"correctness": 1, "scope": 3}),
            record(rater="ann", run_id="run-b", scores={"correctness": 4}),
            record(rater="ann", fixture_id="t2", scores={"correctness": 1}),
        ),
        "ratings/bob.jsonl": jsonl(
            record(rater="bob", scores={"correctness": 5}),
            record(rater="bob", scores=None),
            record(rater="bob", run_id="run-b", scores={"correctness": 5}),
        ),
        "ratings/cat.jsonl": jsonl(
            record(rater="cat", scores={"correctness": 2}),
            record(rater="cat", scores={"correctness": 4, "scope": 3}),  # supersedes
        ),
    }
    files.update(extra_files)
    return make_workspace(files)


def test_the_list_is_the_disputed_items_with_their_spread_and_raters(make_workspace, capsys):
    root = team(make_workspace)
    code, payload = listed(root, capsys)
    assert code == 0
    assert payload == {
        "items": [
            {
                "fixture_id": "t1",
                "run_id": "run-a",
                "spread": {"correctness": 3, "scope": 0},
                "raters": ["ann", "cat"],
                "adjudicated": False,
            }
        ]
    }


def test_dispute_spread_decides_and_an_adjudication_marks_the_item(make_workspace, capsys):
    root = team(
        make_workspace,
        **{
            "voyage.toml": '[paths]\nrubric = "rubric.md"\n[rating]\ndispute_spread = 1\n',
            ADJ: jsonl(adjudication(run_id="run-b", scores={"correctness": 4})),
        },
    )
    _, payload = listed(root, capsys)
    assert [(i["run_id"], i["adjudicated"]) for i in payload["items"]] == [
        ("run-a", False),
        ("run-b", True),
    ]
    assert payload["items"][1]["spread"] == {"correctness": 1}
    # a retraction (undo) makes it open again
    with open(root / ADJ, "a", encoding="utf-8") as handle:
        handle.write(jsonl(adjudication(run_id="run-b") | {"scores": None}))
    _, payload = listed(root, capsys)
    assert [i["adjudicated"] for i in payload["items"]] == [False, False]


def test_the_text_list_and_an_empty_one(make_workspace, capsys):
    root = team(make_workspace)
    assert main(["adjudicate", str(root), "--list"]) == 0
    out = capsys.readouterr().out
    assert "1 disputed item" in out and "t1 / run-a  [open]" in out and "ann, cat" in out
    shutil.rmtree(root / "ratings")
    empty = root
    assert main(["adjudicate", str(empty), "--list"]) == 0
    assert "No disputed items" in capsys.readouterr().out
    _, payload = listed(empty, capsys)
    assert payload == {"items": []}


def test_usage_errors_and_an_unreadable_adjudications_file(make_workspace, capsys, tmp_path):
    root = team(make_workspace)
    with pytest.raises(SystemExit) as info:
        main(["adjudicate", str(root), "--format", "json"])
    assert info.value.code == 2
    (root / ADJ).write_bytes(b"\xff\xfe" + "{}".encode("utf-16-le"))
    code, payload = listed(root, capsys)
    assert code == 2 and len(payload["items"]) == 1
    assert main(["adjudicate", str(tmp_path / "nowhere"), "--list"]) == 2


def test_without_list_the_app_opens_on_the_screen_as_the_adjudicator(
    make_workspace, monkeypatch, capsys
):
    from voyage_tui.cli import adjudicate_cmd

    root = team(make_workspace)
    opened: list[dict[str, Any]] = []
    monkeypatch.setattr(
        adjudicate_cmd, "run_app", lambda ws, args, **screens: opened.append(screens) or 0
    )
    assert main(["adjudicate", str(root), "--adjudicator", "dana", "--no-git"]) == 0
    assert opened == [{"initial_adjudicate": "dana"}]
    assert main(["adjudicate", str(root), "--adjudicator", "a/b"]) == 2
    assert "--adjudicator 'a/b' cannot be used" in capsys.readouterr().err
    assert len(opened) == 1
