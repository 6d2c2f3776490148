"""`results --raters people|programs|all` (SPEC 3.11): people's ratings by default; a judge's
only when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.judging.common import write_judge
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import main


def means(ws: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, float]:
    assert main(["results", str(ws), "--format", "json", *extra]) == 0
    payload = json.loads(capsys.readouterr().out)
    return {
        f"{agent}:{dim}": cell["mean"]
        for agent, row in payload["agents"].items()
        for dim, cell in row["dimensions"].items()
        if cell.get("mean") is not None
    }


def test_people_by_default_programs_when_asked(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = workspace_files({"t1": ["run-a"], "t2": ["run-a"]})
    files["ratings/alice.jsonl"] = jsonl(
        record("t1", "run-a", "alice", {"correctness": 2, "scope": 1}),
        record("t2", "run-a", "alice", {"correctness": 2, "scope": 1}),
    )
    ws = make_workspace(files)
    before = means(ws, capsys)
    assert (
        main(["judge", "run", str(ws), "--name", "robo", "--command", write_judge(tmp_path, "ok")])
        == 0
    )
    capsys.readouterr()
    assert means(ws, capsys) == before == means(ws, capsys, "--raters", "people")
    assert before["agent-0:scope"] == 1.0
    assert means(ws, capsys, "--raters", "programs")["agent-0:scope"] == 3.0  # the judge's 3s
    assert means(ws, capsys, "--raters", "all")["agent-0:scope"] == 2.0
