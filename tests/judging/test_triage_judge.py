"""Triage lists a judge below the ceiling (SPEC 3.11, docs/judges.md): its judge_kappa interval
wholly under the people's human_kappa interval on a dimension."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import main

FIXTURES = [f"t{i}" for i in range(12)]
RUNS = {f: ["run-a", "run-b"] for f in FIXTURES}
ITEMS = [(f, r) for f in FIXTURES for r in RUNS[f]]


def workspace(make_workspace: MakeWorkspace, judge_agrees: bool) -> Path:
    files = workspace_files(RUNS)
    scores = {item: 1 + i % 5 for i, item in enumerate(ITEMS)}
    for person in ("alice", "bob"):  # the people agree with each other throughout
        files[f"ratings/{person}.jsonl"] = jsonl(
            *(record(f, r, person, {"correctness": s, "scope": 3}) for (f, r), s in scores.items())
        )
    program = {"rater_kind": "program", "judge": {"command_sha256": "ab" * 32, "repeat": 1}}
    files["ratings/robo.jsonl"] = jsonl(
        *(
            record(
                f, r, "robo", {"correctness": s if judge_agrees else 6 - s, "scope": 3}, **program
            )
            for (f, r), s in scores.items()
        )
    )
    return make_workspace(files)


@pytest.mark.parametrize("agrees", [False, True])
def test_a_judge_below_the_ceiling_is_a_triage_item(
    make_workspace: MakeWorkspace, capsys: pytest.CaptureFixture[str], agrees: bool
) -> None:
    ws = workspace(make_workspace, agrees)
    main(["triage", str(ws), "--format", "json"])
    out = capsys.readouterr().out
    assert ("judge robo below the ceiling on correctness" in out) is not agrees
    assert "below the ceiling on scope" not in out  # undefined there: every score the same
