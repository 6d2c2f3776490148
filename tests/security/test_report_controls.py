"""Every format of `voyage-tui results` keeps control characters from workspace text out of its
bytes (issue 33 row 6; SPEC 7): an agent label holding ESC, BEL, a C1 CSI (0x9b) and bidi
controls, printed with `cat report.csv` or shown in a browser's title bar, steers nothing. Text,
CSV, Markdown and HTML show them as visible escapes (`\\x1b`); JSON keeps the exact value as
`\\u001b` escapes. One owner decides: engine/safe_text.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.results.common import build
from voyage_tui.cli import main

# In YAML's double quotes: ESC ] 52 (the clipboard), BEL, a C1 CSI, a bidi override and isolate.
LABEL_YAML = r'"=evil\e]52;c;aGk=\a\x9b2J\u202e\u2066x"'
LABEL = "=evil\x1b]52;c;aGk=\x07\x9b2J\u202e\u2066x"
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = build(tmp_path / "ws")
    for fixture in ("f1", "f2", "f3", "f4"):
        run = next(root.glob(f"fixtures/*/{fixture}/runs/new-1.yaml"))
        run.write_text(run.read_text().replace("agent: new", f"agent: {LABEL_YAML}"))
    return root


def report(capsys, root: Path, fmt: str) -> str:
    assert main(["results", str(root), "--baseline", "old", "--format", fmt]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "csv", "md", "html"])
def test_no_control_character_reaches_a_report(root, capsys, fmt) -> None:
    out = report(capsys, root, fmt)
    assert "x1b" in out and "52;c;aGk" in out  # the label is there, its ESC as an escape
    for raw in RAW:
        assert raw not in out, (fmt, repr(raw))


def test_json_keeps_the_exact_label_and_writes_no_raw_control(root, capsys) -> None:
    out = report(capsys, root, "json")
    for raw in RAW:
        assert raw not in out
    assert LABEL in json.loads(out)["agents"]


def test_csv_cells_keep_the_formula_guard(root, capsys) -> None:
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(report(capsys, root, "csv"))))
    labels = {r["agent"] for r in rows}
    assert "'=evil\\x1b]52;c;aGk=\\x07\\x9b2J\\u202e\\u2066x" in labels


def test_html_attributes_hold_no_control_character(tmp_path, capsys) -> None:
    """A dimension name is in the charts' aria-label and title: escaped there too."""
    root = build(tmp_path / "ws")
    rubric = root / "rubric.md"
    rubric.write_text(rubric.read_text().replace("## scope", "## scope\u202e\u0085"))
    out = report(capsys, root, "html")
    for raw in (*RAW, "\x85"):
        assert raw not in out
