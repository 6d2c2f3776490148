"""`results` reports the imported runs' harness scores: `outcomes` per agent (Wilson for
pass/fail, bootstrap otherwise) and `pass_all_k` across epochs, in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.importing.common import log_copy, workspace
from voyage_tui.cli import main
from voyage_tui.engine.results.outcomes import wilson_interval


@pytest.fixture
def imported(make_workspace: MakeWorkspace, tmp_path: Path) -> Path:
    root = workspace(make_workspace, "t1", "t2", "42")
    assert main(["import", "inspect", str(log_copy(tmp_path, "demo.eval")), str(root)]) == 0
    return root


def test_results_json_has_outcomes_and_pass_all_k(
    imported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["results", str(imported), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    match = report["outcomes"]["mockllm/model"]["match"]
    # t1 and 42 answer Paris (C, both epochs), t2 does not (I): 4 of 6
    assert match["n"] == 6
    assert match["mean"] == pytest.approx(4 / 6)
    from scipy import stats  # a reference, imported by its test only

    wilson = stats.binomtest(4, 6).proportion_ci(method="wilson")
    assert match["ci"] == pytest.approx([wilson.low, wilson.high])
    length = report["outcomes"]["mockllm/model"]["length"]
    assert length["n"] == 6
    assert length["ci"] is not None  # bootstrapped: the values are not 0/1
    # every epoch passed on t1 and 42, none on t2
    assert report["pass_all_k"] == {"mockllm/model": {"match": pytest.approx(2 / 3)}}


@pytest.mark.parametrize("fmt", ["text", "md", "html", "csv"])
def test_every_format_shows_them(
    imported: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    capsys.readouterr()
    assert main(["results", str(imported), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "mockllm/model" in out
    if fmt == "csv":
        assert "outcome:match" in out and "pass_all_k:match" in out
    else:
        assert "Harness scores" in out and "67%" in out


def test_a_suite_without_imports_has_no_outcomes_key(
    make_workspace: MakeWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    assert main(["results", str(root), "--format", "json"]) == 0
    assert "outcomes" not in json.loads(capsys.readouterr().out)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) is None
    low, high = wilson_interval(0, 5).as_list()  # type: ignore[union-attr]
    assert low == 0.0 and 0 < high < 1
    low, high = wilson_interval(5, 5).as_list()  # type: ignore[union-attr]
    assert 0 < low < 1 and high == 1.0


def test_the_results_screen_has_a_section_for_them(imported: Path) -> None:
    from rich.console import Console

    from voyage_tui.app.screens.results import outcomes_table
    from voyage_tui.engine.results.compute import compute_results
    from voyage_tui.engine.results.inputs import gather_inputs
    from voyage_tui.engine.validation.validated import validated_suite

    suite = validated_suite(imported, use_git=False)
    report = compute_results(gather_inputs(suite.campaign(), suite.items))
    console = Console(width=120, record=True, color_system=None)
    console.print(outcomes_table(report))
    shown = console.export_text()
    assert "Harness scores" in shown
    assert "mockllm/model" in shown and "match" in shown and "67%" in shown
    assert "Wilson" in shown and "bootstrap" in shown


def test_outcomes_are_the_same_from_the_checks_bytes_and_from_the_files(
    imported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first `results` reads the harness scores from the bytes its check kept (no run file
    opened twice), a warm one from the files (the cache holds the items, not the bytes): both
    say the same."""
    reports = []
    for argv in (["results", str(imported)], ["results", str(imported)]):
        capsys.readouterr()
        assert main([*argv, "--format", "json"]) == 0
        reports.append(json.loads(capsys.readouterr().out)["outcomes"])
    assert reports[0] == reports[1] and reports[0]["mockllm/model"]["match"]["n"] == 6
