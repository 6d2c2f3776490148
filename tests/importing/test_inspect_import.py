"""`voyage-tui import inspect` on real Inspect AI logs (.eval and .json, made by inspect-ai)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.importing.common import log_copy, runs, workspace
from voyage_tui.cli import main
from voyage_tui.engine.importing import registry
from voyage_tui.engine.importing.outcomes import to_number


@pytest.mark.parametrize("name", ["demo.eval", "demo.json"])
def test_a_real_log_becomes_run_files(
    make_workspace: MakeWorkspace, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    log = log_copy(tmp_path, name)
    assert main(["import", "inspect", str(log), str(root)]) == 1  # sample 42 matches nothing
    out = capsys.readouterr().out
    assert "4 new, 0 changed, 0 unchanged, 2 unmatched" in out
    assert "sample 42 epoch 1: no fixture with id '42'" in out
    got = runs(root, "t1")
    assert sorted(got) == ["inspect-demo-t1-e1", "inspect-demo-t1-e2"]
    run = got["inspect-demo-t1-e1"]
    assert run["run_id"] == "inspect-demo-t1-e1"
    assert run["agent"] == "mockllm/model"
    assert run["output"] == "The answer for t1: Paris"
    meta = run["metadata"]
    assert isinstance(meta, dict)
    assert meta["source"] == "inspect"
    assert meta["log"] == name
    assert meta["task"] == "demo"
    assert meta["model"] == "mockllm/model"
    assert meta["epoch"] == 1
    assert meta["eval_id"]
    assert meta["scores"] == {"match": "C", "length": 0.24}
    assert meta["outcome"] == {"match": 1.0, "length": 0.24}
    transcript = run["transcript"]
    assert isinstance(transcript, list)
    assert [m["role"] for m in transcript] == ["user", "assistant", "tool", "assistant"]
    assert transcript[1]["tool_calls"] == [{"function": "bash", "arguments": '{"cmd": "ls"}'}]
    assert sorted(runs(root, "t2")) == ["inspect-demo-t2-e1", "inspect-demo-t2-e2"]
    assert main(["validate", str(root)]) == 0


def test_the_format_is_found_from_the_content(tmp_path: Path) -> None:
    for name in ("demo.eval", "demo.json"):
        renamed = tmp_path / f"{name}.bin"
        renamed.write_bytes(log_copy(tmp_path, name).read_bytes())
        assert registry.detect(str(renamed)) == "inspect"
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}', encoding="utf-8")
    assert registry.detect(str(other)) is None


def test_no_harness_named_says_what_it_found(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    log = log_copy(tmp_path, "demo.eval")
    assert main(["import", str(log), str(root), "--dry-run"]) == 1
    assert "an Inspect AI log (inspect)" in capsys.readouterr().out
    unknown = tmp_path / "notes.txt"
    unknown.write_text("just text\n", encoding="utf-8")
    assert main(["import", str(unknown), str(root)]) == 2
    assert "in no format this tool knows" in capsys.readouterr().err


def test_dry_run_writes_nothing_and_reimport_is_idempotent(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    log = log_copy(tmp_path, "demo.eval")
    assert main(["import", "inspect", str(log), str(root), "--dry-run"]) == 1
    assert "4 new, 0 changed, 0 unchanged, 2 unmatched (dry run: nothing written)" in (
        capsys.readouterr().out
    )
    assert runs(root) == {}
    main(["import", "inspect", str(log), str(root)])
    capsys.readouterr()
    path = root / "fixtures/bug-diagnosis/t1/runs/inspect-demo-t1-e1.yaml"
    before = path.stat().st_mtime_ns
    main(["import", "inspect", str(log), str(root)])
    assert "0 new, 0 changed, 4 unchanged, 2 unmatched" in capsys.readouterr().out
    assert path.stat().st_mtime_ns == before
    path.write_text(path.read_text(encoding="utf-8").replace("Paris", "Lyon"), encoding="utf-8")
    main(["import", "inspect", str(log), str(root)])
    assert "0 new, 1 changed, 3 unchanged, 2 unmatched" in capsys.readouterr().out
    assert "Paris" in path.read_text(encoding="utf-8")


def test_map_metadata_key_and_agent_label(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace)
    log = log_copy(tmp_path, "demo.json")
    code = main(
        ["import", "inspect", str(log), str(root), "--map", "metadata:fixture", "--agent", "mine"]
    )
    out = capsys.readouterr().out
    # only sample 42 has the key: it goes to t1; t1 and t2 have none and are listed, not guessed
    assert code == 1
    assert "2 new, 0 changed, 0 unchanged, 4 unmatched" in out
    assert "sample t2 epoch 1: no metadata fixture" in out
    got = runs(root, "t1")
    assert sorted(got) == ["inspect-demo-42-e1", "inspect-demo-42-e2"]
    assert got["inspect-demo-42-e1"]["agent"] == "mine"


def test_every_sample_matched_exits_0(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(make_workspace, "t1", "t2", "42")
    log = log_copy(tmp_path, "demo.eval")
    assert main(["import", "inspect", str(log), str(root)]) == 0
    assert "6 new" in capsys.readouterr().out


def test_usage_errors_exit_2(make_workspace: MakeWorkspace, tmp_path: Path) -> None:
    root = workspace(make_workspace)
    log = log_copy(tmp_path, "demo.eval")
    with pytest.raises(SystemExit) as exc:
        main(["import", "inspect", str(log), str(root), "--map", "title"])
    assert exc.value.code == 2
    missing = tmp_path / "missing.eval"
    assert main(["import", "inspect", str(missing), str(root)]) == 2


@pytest.mark.parametrize(
    ("value", "number"),
    [("C", 1.0), ("I", 0.0), ("P", 0.5), ("N", 0.0), (True, 1.0), (0.25, 0.25), ("3", 3.0)],
)
def test_scores_as_numbers_as_inspect_reads_them(value: object, number: float) -> None:
    assert to_number(value) == number


def test_a_score_without_a_number_is_left_out() -> None:
    assert to_number("maybe") is None
    assert to_number([1, 2]) is None
