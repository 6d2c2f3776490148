"""A rater's or adjudicator's note is workspace text: `ratings export` writes it (issue 36 row 5)
through the CSV cell rule (`safe_text.spreadsheet_cell`: control characters escaped, a formula
guarded) and as exact JSON text, so `cat ratings.csv` steers no terminal and a spreadsheet runs
nothing."""

from __future__ import annotations

import csv
import io
import json

from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import ratings_export_cmd

HOSTILE = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J+SUM(A1)\r\nnext"


def test_a_hostile_note_is_escaped_in_csv_and_exact_in_jsonl(make_workspace, capsys) -> None:
    adjudication = {
        "fixture_id": "t1",
        "run_id": "run-a",
        "adjudicator": "lead",
        "scores": {"correctness": 3},
        "based_on": [],
        "note": '=HYPERLINK("http://x")',
        "rated_at": "2026-11-22T10:00:00Z",
    }
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/ann.jsonl": jsonl(
                record(rater="ann", scores={"correctness": 4}, note=HOSTILE)
            ),
            "adjudications.jsonl": jsonl(adjudication),
        }
    )
    assert ratings_export_cmd.run([str(root)]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\x07\r")
    table = list(csv.reader(io.StringIO(out)))
    notes = {row[3]: row[table[0].index("note")] for row in table[1:]}
    assert notes["ann"] == "\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J+SUM(A1)\\x0d\\x0anext"
    assert notes["lead"] == '\'=HYPERLINK("http://x")'
    assert ratings_export_cmd.run([str(root), "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["rater"]: r["note"] for r in rows} == {"ann": HOSTILE, "lead": adjudication["note"]}
