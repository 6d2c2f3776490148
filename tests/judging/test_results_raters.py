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


def test_a_judge_run_changes_no_figure_that_counts_people(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = workspace_files({"t1": ["run-a", "run-b"], "t2": ["run-a"]})
    files["ratings/alice.jsonl"] = jsonl(
        record("t1", "run-a", "alice", {"correctness": 2, "scope": 1}),
        record("t1", "run-b", "alice", {"correctness": 5, "scope": 3}),
    )
    files["ratings/bob.jsonl"] = jsonl(
        record("t1", "run-a", "bob", {"correctness": 5, "scope": 1}),
        record("t1", "run-b", "bob", {"correctness": 4, "scope": 5}),
    )
    ws = make_workspace(files)
    faces = [
        ["agreement", "--format", "json"],
        ["ratings", "status", "--format", "json"],
        ["adjudicate", "--list", "--format", "json"],
    ]

    def outputs() -> list[str]:
        out = []
        for argv in faces:
            main([*argv[:-2], str(ws), *argv[-2:]])
            out.append(capsys.readouterr().out)
        return out

    before = outputs()
    command = write_judge(tmp_path, "ok")
    assert main(["judge", "run", str(ws), "--name", "robo", "--command", command]) == 0
    capsys.readouterr()
    assert (ws / "ratings/robo.jsonl").exists()
    assert outputs() == before
    assert "robo" not in "".join(before)
