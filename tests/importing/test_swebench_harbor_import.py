"""`voyage-tui import swebench` and `import harbor` on files laid out as the harnesses write
them (tests/data/importing: SWE-bench's predictions JSONL and run report, a Harbor job)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.importing.common import DATA, log_copy, runs, workspace
from voyage_tui.cli import main
from voyage_tui.engine.importing import registry

JOB = "job-2026-01-01__10-00-00"


def _job(tmp_path: Path) -> Path:
    target = tmp_path / "jobs" / JOB
    shutil.copytree(DATA / "harbor" / JOB, target)
    return target


def _swebench(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "swebench").mkdir()
    preds = tmp_path / "swebench" / "predictions.jsonl"
    report = tmp_path / "swebench" / "report.json"
    shutil.copy(DATA / "swebench" / "predictions.jsonl", preds)
    shutil.copy(DATA / "swebench" / "report.json", report)
    return preds, report


def test_swebench_predictions_with_their_report(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    preds, report = _swebench(tmp_path)
    code = main(["import", "swebench", str(preds), str(root), "--report", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    assert "2 new, 0 changed, 0 unchanged, 1 unmatched" in out
    assert "sample django__django-11099 epoch 1" in out
    t1 = runs(root, "t1")["swebench-predictions-t1-e1"]
    assert t1["agent"] == "claude-sonnet-agent"
    assert isinstance(t1["patch"], str) and t1["patch"].startswith("diff --git a/src/app.py")
    meta = t1["metadata"]
    assert isinstance(meta, dict)
    assert meta["source"] == "swebench"
    assert meta["outcome"] == {"resolved": 1.0}
    t2 = runs(root, "t2")["swebench-predictions-t2-e1"]["metadata"]
    assert isinstance(t2, dict)
    assert t2["outcome"] == {"resolved": 0.0}
    assert main(["validate", str(root)]) == 0


def test_swebench_without_a_report_has_no_outcome(
    make_workspace: MakeWorkspace, tmp_path: Path
) -> None:
    root = workspace(make_workspace)
    preds, _ = _swebench(tmp_path)
    main(["import", "swebench", str(preds), str(root)])
    meta = runs(root, "t1")["swebench-predictions-t1-e1"]["metadata"]
    assert isinstance(meta, dict)
    assert "outcome" not in meta


def test_a_jsonl_of_something_else_is_refused(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"instance_id": "t1", "model_patch": "d"}\n{"other": 1}\n', encoding="utf-8")
    assert main(["import", "swebench", str(bad), str(root)]) == 2
    assert "x.jsonl:2: not a prediction" in capsys.readouterr().err
    assert runs(root) == {}


def test_a_harbor_job(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    job = _job(tmp_path)
    assert main(["import", "harbor", str(job), str(root)]) == 1
    out = capsys.readouterr().out
    assert "3 new, 0 changed, 0 unchanged, 1 unmatched" in out
    assert "sample t9 epoch 1" in out
    t1 = runs(root, "t1")
    assert sorted(t1) == [f"harbor-{JOB}-t1-e1", f"harbor-{JOB}-t1-e2"]
    first = t1[f"harbor-{JOB}-t1-e1"]
    assert first["agent"] == "terminus-2/claude-sonnet-4"
    meta = first["metadata"]
    assert isinstance(meta, dict)
    assert meta["trial"] == "t1__Xk3pQ2a"
    assert meta["outcome"] == {"reward": 1.0}
    assert t1[f"harbor-{JOB}-t1-e2"]["metadata"]["outcome"] == {"reward": 0.0}  # type: ignore[index]
    failed = runs(root, "t2")[f"harbor-{JOB}-t2-e1"]
    assert "AgentTimeoutError" in str(failed["output"])
    assert failed["metadata"]["exception"]["type"] == "AgentTimeoutError"  # type: ignore[index]
    assert main(["validate", str(root)]) == 0


def test_formats_found_by_content(tmp_path: Path) -> None:
    preds, report = _swebench(tmp_path)
    assert registry.detect(str(preds)) == "swebench"
    assert registry.detect(str(report)) is None
    job = _job(tmp_path)
    assert registry.detect(str(job)) == "harbor"
    assert registry.detect(str(job / "t1__Xk3pQ2a")) == "harbor"
    assert registry.detect(str(log_copy(tmp_path, "demo.json"))) == "inspect"


def test_a_job_and_a_workspace_without_the_harness_named(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    job = _job(tmp_path)
    assert main(["import", str(job), str(root), "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "a Harbor job (harbor)" in out
    assert "(dry run: nothing written)" in out
    assert runs(root) == {}
