"""`voyage-tui ratings export` (SPEC 6): one row per effective rating and dimension, the agent
shown, adjudications beside the raters' rows, spreadsheet formulas neutralised."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.ratings.common import jsonl, record, workspace_files
from tests.ratings.test_adjudications import adjudication
from voyage_tui.cli import main, ratings_export_cmd

ADJ = "adjudications.jsonl"
COLUMNS = [
    "fixture_id",
    "run_id",
    "agent",
    "rater",
    "dimension",
    "score",
    "rated_at",
    "blind",
    "duration_s",
    "source",
    "note",
]


def campaign(make_workspace) -> Path:
    """ann rates t1/run-a twice (the second in force); bob rates it then withdraws; cat rates
    t1/run-b. t1/run-a is adjudicated (correctness 3); t1/run-b was adjudicated, then that was
    withdrawn. Agents: run-a is agent-0, run-b agent-1."""
    return make_workspace(
        {
            **workspace_files(),
            "ratings/ann.jsonl": jsonl(
                record(rater="ann", scores={"correctness": 1}),
                record(
                    rater="ann",
                    scores={"scope": 3, "correctness": 2},
                    rated_at="2026-11-21T09:00:00Z",
                    duration_s=42.5,
                    note="fix misses the\nnull case",
                ),
            ),
            "ratings/bob.jsonl": jsonl(
                record(rater="bob", scores={"correctness": 5}),
                record(rater="bob", scores=None),
            ),
            "ratings/cat.jsonl": jsonl(
                record(rater="cat", run_id="run-b", scores={"correctness": 4}, blind=False)
            ),
            ADJ: jsonl(
                adjudication(scores={"correctness": 3}, note="=ann read the log"),
                adjudication(run_id="run-b", scores={"correctness": 5}),
                adjudication(run_id="run-b") | {"scores": None},
            ),
        }
    )


def export(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = ratings_export_cmd.run([str(root), *extra])
    return code, capsys.readouterr().out


def test_jsonl_has_the_effective_rows_and_the_adjudication_beside_them(make_workspace, capsys):
    root = campaign(make_workspace)
    code, out = export(root, capsys, "--format", "jsonl")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(list(row) == COLUMNS for row in rows)
    assert [
        (r["run_id"], r["rater"], r["dimension"], r["score"], r["source"], r["agent"]) for r in rows
    ] == [
        ("run-a", "ann", "correctness", 2, "rater", "agent-0"),  # in the rubric's order
        ("run-a", "ann", "scope", 3, "rater", "agent-0"),
        ("run-a", "lead", "correctness", 3, "adjudicated", "agent-0"),
        ("run-b", "cat", "correctness", 4, "rater", "agent-1"),
    ]
    ann = rows[0]
    assert ann["rated_at"] == "2026-11-21T09:00:00Z" and ann["duration_s"] == 42.5
    assert ann["blind"] is True and rows[3]["blind"] is False
    lead = rows[2]
    assert lead["blind"] is False and lead["duration_s"] is None
    assert lead["rated_at"] == "2026-11-22T10:00:00Z"


def test_csv_has_the_header_and_the_same_rows(make_workspace, capsys):
    root = campaign(make_workspace)
    code, out = export(root, capsys)
    assert code == 0
    table = list(csv.reader(io.StringIO(out)))
    assert table[0] == COLUMNS
    assert table[1] == [
        "t1",
        "run-a",
        "agent-0",
        "ann",
        "correctness",
        "2",
        "2026-11-21T09:00:00Z",
        "true",
        "42.5",
        "rater",
        # the note of the rating the row comes from, one line (SPEC 6, issue 36 row 5)
        "fix misses the\\x0anull case",
    ]
    assert table[3][3:] == [
        "lead",
        "correctness",
        "3",
        "2026-11-22T10:00:00Z",
        "false",
        "",
        "adjudicated",
        "'=ann read the log",  # the adjudication's note, the CSV cell rule as every cell
    ]
    assert len(table) == 5
    # through the `ratings` dispatcher too
    capsys.readouterr()
    assert main(["ratings", "export", str(root)]) == 0
    assert capsys.readouterr().out == out


def test_jsonl_rows_carry_the_note_exactly(make_workspace, capsys):
    code, out = export(campaign(make_workspace), capsys, "--format", "jsonl")
    assert code == 0
    notes = [(r["rater"], r["dimension"], r["note"]) for r in map(json.loads, out.splitlines())]
    assert notes == [
        ("ann", "correctness", "fix misses the\nnull case"),
        ("ann", "scope", "fix misses the\nnull case"),
        ("lead", "correctness", "=ann read the log"),
        ("cat", "correctness", ""),
    ]


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(make_workspace, capsys):
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/=cmd.jsonl": jsonl(record(rater="=cmd", scores={"correctness": 4})),
            "ratings/@sum.jsonl": jsonl(record(rater="@sum", scores={"correctness": 4})),
        }
    )
    _, out = export(root, capsys)
    raters = [row[3] for row in csv.reader(io.StringIO(out))][1:]
    assert raters == ["'=cmd", "'@sum"]
    _, out = export(root, capsys, "--format", "jsonl")
    assert [json.loads(line)["rater"] for line in out.splitlines()] == ["=cmd", "@sum"]


def test_output_writes_the_file_and_refuses_to_overwrite_without_force(make_workspace, capsys):
    root = campaign(make_workspace)
    _, printed = export(root, capsys, "--format", "jsonl")
    target = root / "out" / "ratings.jsonl"
    code, out = export(root, capsys, "--format", "jsonl", "--output", str(target))
    assert code == 0 and out == ""
    assert target.read_text() == printed
    target.write_text("keep me")
    code, _ = export(root, capsys, "--output", str(target))
    assert code == 2 and target.read_text() == "keep me"
    code, _ = export(root, capsys, "--output", str(target), "--force")
    assert code == 0 and target.read_text().startswith("fixture_id,run_id,agent,")


def test_output_outside_the_workspace_is_written_and_force_alone_refused(
    make_workspace, capsys, tmp_path
):
    # SPEC 3.10: a path named on the command line is the user's decision (tests/security/
    # test_report_output.py has the rules in full)
    root = campaign(make_workspace)
    outside = tmp_path / "elsewhere.csv"
    capsys.readouterr()
    assert ratings_export_cmd.run([str(root), "--output", str(outside)]) == 0
    assert outside.read_text().startswith(",".join(COLUMNS))
    with pytest.raises(SystemExit) as info:
        ratings_export_cmd.run([str(root), "--force"])
    assert info.value.code == 2


def test_an_empty_workspace_exports_only_the_header(make_workspace, capsys):
    root = make_workspace(workspace_files())
    _, out = export(root, capsys)
    assert out == ",".join(COLUMNS) + "\n"
    _, out = export(root, capsys, "--format", "jsonl")
    assert out == ""


def test_the_rows_are_the_engines(make_workspace) -> None:
    """The engine alone decides: retracted and superseded ratings give no row."""
    from tests.ratings.common import rating
    from voyage_tui.engine.ratings.export import export_rows

    rows = export_rows(
        [rating(rater="ann"), rating(rater="bob", scores=None)],
        [],
        {("t1", "run-a"): "agent-x"},
        ["scope", "correctness"],
    )
    got: list[Any] = [(r.rater, r.dimension, r.agent) for r in rows]
    assert got == [("ann", "scope", "agent-x"), ("ann", "correctness", "agent-x")]
