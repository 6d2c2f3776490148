"""Every format shows, per comparison, its fixtures, diff, interval, p, p_holm, mde and the
reason when unclear (issue 35 item 3); Markdown holds what text holds (the fixtures furthest
below the baseline too), heads no two columns alike, never prints `-0.00`; `--help` says 95%."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from tests.results.common import build
from voyage_tui.cli import main


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return build(tmp_path / "ws", baseline="old")


def out_of(capsys, ws: Path, fmt: str) -> str:
    assert main(["results", str(ws), "--format", fmt]) == 0
    return capsys.readouterr().out


# new · scope: 8 fixtures, diff 0, unclear (not-significant); mde 0.75
@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_each_comparison_shows_every_figure(ws, capsys, fmt) -> None:
    out = out_of(capsys, ws, fmt)
    for head in ("fixtures", "p_holm", "mde"):
        assert head in out
    assert "not-significant" in out and "no-data" in out
    assert "0.023" in out  # correctness' p_holm: 3 x 2/256
    assert "0.75" in out  # scope's mde
    assert "-0.00" not in out


def test_csv_has_every_figure(ws, capsys) -> None:
    rows = list(csv.DictReader(io.StringIO(out_of(capsys, ws, "csv"))))
    scope = next(r for r in rows if r["agent"] == "new" and r["dimension"] == "scope")
    assert scope["shared_fixtures"] == "8" and scope["verdict"] == "unclear"
    assert scope["comparison_reason"] == "not-significant"
    assert float(scope["p_holm"]) == 1.0 and float(scope["mde"]) == pytest.approx(0.75, abs=0.01)
    assert scope["alpha"] == "0.05"
    anon = next(r for r in rows if r["agent"] == "(unlabelled)")
    assert anon["comparison_reason"] == "no-data" and anon["mde_reason"] == "fewer than 2 fixtures"


def test_markdown_holds_what_the_text_holds(ws, capsys) -> None:
    text = out_of(capsys, ws, "text")
    md = out_of(capsys, ws, "md")
    # the fixtures furthest below the baseline, every one the text lists
    listed = re.findall(r"(f\d) (\d\.\d\d) vs (\d\.\d\d)", text)
    assert listed
    for fixture, mine, theirs in listed:
        assert f"{fixture} {mine} vs {theirs}" in md
    headers = [line for line in md.splitlines() if line.startswith("| dimension") or line.startswith("| agent")]  # fmt: skip
    for header in headers:
        cells = [h.strip() for h in header.strip("|").split("|")]
        assert len(cells) == len(set(cells)), header


def test_no_negative_zero(tmp_path, capsys) -> None:
    from voyage_tui.engine.reports.figures import figure, interval, signed

    assert signed(-0.001) == "0.00" and figure(-0.004) == "0.00"
    assert interval([-0.001, 0.5]) == "[0.00, 0.50]"
    assert signed(-0.25) == "-0.25" and signed(0.5) == "+0.50"


def test_help_says_95_percent(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["results", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "95%%" not in out
    for flag in ("--alpha", "--require-better", "--force"):
        assert flag in out
