"""The review engine on the sample gold corpus: rows, ranking, row detail, Markdown export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sample import SAMPLE_ROOT, copy_sample_into
from voyage_tui.engine.review.detail import row_detail
from voyage_tui.engine.review.export import markdown_table
from voyage_tui.engine.review.inputs import ReviewError, rank_runs, score_pair
from voyage_tui.engine.review.rows import (
    MATCHED,
    MISSED,
    SPURIOUS,
    diff_rows,
    only,
)
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUNS = sorted(
    str(p.relative_to(SAMPLE_ROOT))
    for p in (SAMPLE_ROOT / "fixtures/gold/jwt-auth/runs").glob("*.json")
)


@pytest.fixture(scope="module")
def ws() -> Workspace:
    return Workspace.load(SAMPLE_ROOT)


@pytest.mark.parametrize("run", RUNS, ids=[Path(r).stem for r in RUNS])
def test_rows_agree_with_the_score_command(ws: Workspace, run: str) -> None:
    scored = score_pair(ws, GOLD, run)
    rows = diff_rows(scored.score)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "voyage_tui",
            "score",
            "--gold",
            str(SAMPLE_ROOT / GOLD),
            "--run",
            str(SAMPLE_ROOT / run),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(out.stdout)
    assert sum(r.state == MATCHED for r in rows) == report["tp"]
    assert sum(r.state == SPURIOUS for r in rows) == report["fp"]
    assert sum(r.state == MISSED for r in rows) == report["fn"]
    assert {(r.file, r.rule_key) for r in rows if r.state == MISSED} == {
        (m["file"], m["rule_key"]) for m in report["missed"]
    }
    assert {(r.file, r.rule_key) for r in rows if r.state == SPURIOUS} == {
        (m["file"], m["rule_key"]) for m in report["spurious"]
    }
    assert scored.score.f1 == pytest.approx(report["f1"])
    assert scored.score.run_verdict == report["run_verdict"]


def test_rows_are_sorted_by_key_and_filter(ws: Workspace) -> None:
    rows = diff_rows(score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-invents.json").score)
    assert [(r.file, r.rule_key) for r in rows] == sorted((r.file, r.rule_key) for r in rows)
    assert {r.state for r in only(rows, [SPURIOUS])} == {SPURIOUS}


def test_dual_flaggable_matches_read_as_their_own_symbol(ws: Workspace) -> None:
    rows = diff_rows(
        score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-dual-flaggable.json").score
    )
    dual = [r for r in rows if r.symbol == "~"]
    assert dual and all(r.state == MATCHED and r.run_rule_key != r.rule_key for r in dual)
    assert all(r.is_difference for r in dual)


def test_runs_rank_best_f1_first_within_a_verdict(ws: Workspace) -> None:
    ranked = rank_runs(ws, GOLD, RUNS)
    for match in (True, False):
        f1s = [
            r.scored.score.f1 for r in ranked if r.scored and r.scored.score.verdict_match is match
        ]
        assert f1s == sorted(f1s, reverse=True)
    assert ranked[-1].name == "run-empty"
    assert [r.rank for r in ranked] == list(range(1, len(RUNS) + 1))


def test_a_wrong_verdict_ranks_below_every_right_one_even_on_an_f1_tie(ws: Workspace) -> None:
    ranked = rank_runs(ws, GOLD, RUNS)
    by_name = {r.name: r for r in ranked}
    perfect, downgraded = by_name["run-perfect"].scored, by_name["run-downgraded"].scored
    assert perfect is not None and downgraded is not None
    # the tie the ranking has to break: same F1 and recall, and the wrong verdict's name sorts first
    assert (downgraded.score.f1, downgraded.score.recall) == (
        perfect.score.f1,
        perfect.score.recall,
    )
    assert downgraded.score.run_verdict == "ALLOW" and not downgraded.score.verdict_match
    assert perfect.score.verdict_match and downgraded.run_name < perfect.run_name
    assert by_name["run-perfect"].rank < by_name["run-downgraded"].rank
    verdicts = [r.scored.score.verdict_match for r in ranked if r.scored]
    assert verdicts == sorted(verdicts, reverse=True), "a mismatch above a matching verdict"
    # below every matching run, the worst F1 among them included
    worst_matching = max(r.rank for r in ranked if r.scored and r.scored.score.verdict_match)
    assert by_name["run-downgraded"].rank > worst_matching


def test_an_unscorable_run_ranks_last_with_its_reason(ws: Workspace, tmp_path: Path) -> None:

    root = tmp_path / "ws"
    copy_sample_into(root)
    (root / "fixtures/gold/jwt-auth/runs/run-broken.json").write_text('{"not": "a list"}')
    local = Workspace.load(root)
    ranked = rank_runs(local, GOLD, [*RUNS, "fixtures/gold/jwt-auth/runs/run-broken.json"])
    assert ranked[-1].name == "run-broken" and ranked[-1].scored is None
    assert "not a run" in (ranked[-1].problem or "")
    with pytest.raises(ReviewError):
        score_pair(local, GOLD, "fixtures/gold/jwt-auth/runs/run-broken.json")


def test_row_detail_has_both_sides_in_full(ws: Workspace) -> None:
    scored = score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-two-reviewers.json")
    row = next(r for r in diff_rows(scored.score) if r.rule_key == "jwt-weak-secret")
    detail = row_detail(ws, scored, row)
    assert detail.gold_findings and detail.gold_findings[0]["note"]
    assert detail.run_findings and len(detail.run_findings[0].reviewers) == 2


def test_markdown_export_is_a_table_with_the_figures(ws: Workspace) -> None:
    scored = score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-misses.json")
    rows = diff_rows(scored.score)
    text = markdown_table(scored.gold_name, scored.run_name, scored.score, rows)
    lines = text.splitlines()
    assert lines[0] == "### run-misses vs jwt-auth"
    assert f"F1 {scored.score.f1:.3f}" in text
    table = [line for line in lines if line.startswith("| ")]
    assert len(table) == 1 + len(rows)  # header + one line per row
    assert sum("- missed" in line for line in table) == scored.score.fn


def test_row_detail_shows_the_source_lines_around_the_finding(ws: Workspace) -> None:
    scored = score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-perfect.json")
    row = next(r for r in diff_rows(scored.score) if r.rule_key == "jwt-weak-secret")
    source = row_detail(ws, scored, row).source
    assert source is not None and source.path == "fixtures/gold/jwt-auth/repo/src/auth/jwt.ts"
    assert source.focus == 12
    focus_text = source.lines[source.focus - source.first_line]
    assert "dev-secret" in focus_text
    assert source.first_line <= 12 <= source.first_line + len(source.lines) - 1


def test_a_file_the_workspace_lacks_has_no_excerpt(ws: Workspace) -> None:
    scored = score_pair(ws, GOLD, "fixtures/gold/jwt-auth/runs/run-invents.json")
    row = next(r for r in diff_rows(scored.score) if r.file == "README.md")
    assert row_detail(ws, scored, row).source is None


def test_markdown_export_writes_a_file_scoped_line_as_the_screen_does(make_workspace) -> None:
    # Line 0 means "the whole file": the diff screen shows `(file)`, and so does the export.
    finding = {"file": "README.md", "line": 0, "rule_key": "hardcoded-secret", "severity": "MAJOR"}
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "reviews/pr-1.md",
        "description": "A file-scoped finding.",
        "expected_verdict": "WARN",
        "findings": [finding | {"owner_reviewer": "correctness"}],
    }
    invalid = {"file": "a.py", "line": "7", "rule_key": "hardcoded-secret", "severity": "MAJOR"}
    run = [{"reviewer": "correctness", "findings": [finding, invalid]}]
    root = make_workspace(
        {"gold/pr-1/gold.json": json.dumps(gold), "gold/pr-1/runs/run-1.json": json.dumps(run)}
    )
    scored = score_pair(Workspace.load(root), "gold/pr-1/gold.json", "gold/pr-1/runs/run-1.json")
    text = markdown_table(scored.gold_name, scored.run_name, scored.score, diff_rows(scored.score))
    assert "| = matched | `README.md` | `hardcoded-secret` | MAJOR (file) | MAJOR (file) |" in text
    assert "line 0" not in text
    assert "\n1 invalid finding left out of the score:\n" in text
