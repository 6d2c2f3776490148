"""`voyage-tui judge run` (SPEC 3.11): a judge's answers become a program's records; failures
are counted and shown, never written, and tried again; a pass resumes; a changed command
starts afresh; the judge reads a blind document."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.judging.common import records, write_judge
from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import main
from voyage_tui.engine.judging.command import command_sha256, split_command

RUNS = {"t1": ["run-a", "run-b"], "t2": ["run-a"]}


@pytest.fixture
def ws(make_workspace: MakeWorkspace) -> Path:
    return make_workspace(workspace_files(RUNS))


def judge(ws: Path, command: str, *extra: str) -> int:
    return main(["judge", "run", str(ws), "--name", "robo", "--command", command, *extra])


def test_a_judge_that_answers_writes_a_program_record_per_item(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = write_judge(tmp_path, "ok")
    assert judge(ws, command) == 0
    got = records(ws / "ratings/robo.jsonl")
    assert sorted((r["fixture_id"], r["run_id"]) for r in got) == [
        ("t1", "run-a"),
        ("t1", "run-b"),
        ("t2", "run-a"),
    ]
    sha = command_sha256(split_command(command))
    for r in got:
        assert r["rater"] == "robo"
        assert r["rater_kind"] == "program"
        assert r["judge"] == {"command_sha256": sha, "repeat": 1}
        assert r["blind"] is True
        assert r["note"] == "fine"
        assert r["duration_s"] >= 0
        assert r["scores"]["scope"] == 3
    assert "3 judged now, 0 failed" in capsys.readouterr().out


def test_repeats_and_a_second_pass_skip_what_is_judged(ws: Path, tmp_path: Path) -> None:
    command = write_judge(tmp_path, "ok")
    assert judge(ws, command, "--repeat", "2", "--jobs", "2") == 0
    got = records(ws / "ratings/robo.jsonl")
    assert sorted(r["judge"]["repeat"] for r in got) == [1, 1, 1, 2, 2, 2]
    assert judge(ws, command, "--repeat", "3") == 0
    again = records(ws / "ratings/robo.jsonl")
    assert len(again) == 9  # only repeat 3 of each item was new
    assert sorted(r["judge"]["repeat"] for r in again[6:]) == [3, 3, 3]


def test_a_changed_command_starts_afresh_and_says_so(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert judge(ws, write_judge(tmp_path, "ok")) == 0
    capsys.readouterr()
    changed = write_judge(tmp_path, "ok") + " --v2"
    assert judge(ws, changed) == 0
    out = capsys.readouterr().out
    assert "changed" in out and "starts afresh" in out
    got = records(ws / "ratings/robo.jsonl")
    assert len(got) == 6
    assert len({r["judge"]["command_sha256"] for r in got}) == 2


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("exit", "exit status 3: model unavailable"),
        ("garbage", "not a JSON document"),
        ("off_scale", "off its scale"),
    ],
)
def test_a_failure_is_shown_never_written_and_tried_again(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, reason: str
) -> None:
    assert judge(ws, write_judge(tmp_path, kind)) == 1
    out = capsys.readouterr().out
    assert "0 judged now, 3 failed" in out
    assert reason in out
    assert "t1 / run-a repeat 1" in out
    assert records(ws / "ratings/robo.jsonl") == []
    # the same failing command again: every item is tried again, not skipped
    assert judge(ws, write_judge(tmp_path, kind), "--format", "json") == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["skipped"] == 0 and payload["failed"] == 3


def test_a_judge_that_hangs_is_killed_at_its_timeout(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert judge(ws, write_judge(tmp_path, "slow"), "--timeout", "0.5", "--jobs", "3") == 1
    out = capsys.readouterr().out
    assert "no answer within 0.5 s (killed)" in out
    assert records(ws / "ratings/robo.jsonl") == []


def test_the_judge_reads_a_blind_document(ws: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    seen.mkdir()
    command = write_judge(
        tmp_path,
        "ok",
        "open(os.path.join(sys.argv[1], doc['run']['run_id'] + doc['fixture']['id']), 'w')"
        ".write(json.dumps(doc))\n",
    )
    assert judge(ws, f"{command} {seen}") == 0
    docs = {p.name: json.loads(p.read_text()) for p in seen.iterdir()}
    assert set(docs) == {"run-at1", "run-bt1", "run-at2"}
    doc = docs["run-bt1"]
    assert set(doc) == {"fixture", "run", "rubric", "repeat"}
    assert set(doc["fixture"]) == {"id", "prompt", "ground_truth", "scoring_notes", "context"}
    assert set(doc["run"]) == {"run_id", "output", "patch"}
    assert doc["run"]["run_id"] == "run-b" and doc["repeat"] == 1
    assert doc["rubric"]["correctness"]["scale"] == [1, 2, 3, 4, 5]
    assert doc["rubric"]["scope"]["anchors"]["3"] == "roughly right"
    text = json.dumps(doc)
    # the agent's label (agent-0 / agent-1 in the run files) and the other run's id are absent
    assert "agent-" not in text
    assert "run-a" not in text


def test_a_persons_file_under_the_name_is_refused(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = workspace_files(RUNS)
    files["ratings/robo.jsonl"] = jsonl(record("t1", "run-a", "robo"))
    ws = make_workspace(files)
    assert judge(ws, write_judge(tmp_path, "ok")) == 2
    assert "a person's ratings" in capsys.readouterr().err
    assert len(records(ws / "ratings/robo.jsonl")) == 1


def test_judges_records_are_valid_ratings(ws: Path, tmp_path: Path) -> None:
    assert judge(ws, write_judge(tmp_path, "ok"), "--repeat", "2") == 0
    assert main(["validate", str(ws), "--format", "json"]) == 0


def test_more_than_a_mebibyte_on_stdout_is_a_failure(
    ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flood = tmp_path / "flood.py"
    flood.write_text("import sys\nsys.stdout.write('x' * (3 << 20))\n", encoding="utf-8")
    assert judge(ws, f"{sys.executable} {flood}") == 1
    assert "more than 1048576 bytes on stdout" in capsys.readouterr().out
    assert records(ws / "ratings/robo.jsonl") == []


def test_a_large_document_and_a_child_left_behind(
    make_workspace: MakeWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = workspace_files({"t1": ["run-a"]})
    files["fixtures/bug-diagnosis/t1/runs/run-a.yaml"] = (
        "run_id: run-a\nagent: x\noutput: |\n" + "  long line of output\n" * 20_000
    )
    ws = make_workspace(files)
    # reads the whole document (400 kB: far past a pipe's buffer), answers, and leaves a child
    # holding its pipes: the answer counts, and the child is killed with the group
    command = write_judge(
        tmp_path,
        "ok",
        "import subprocess\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n",
    )
    started = time.monotonic()
    assert judge(ws, command, "--timeout", "20") == 0
    assert time.monotonic() - started < 15
    assert len(records(ws / "ratings/robo.jsonl")) == 1


def test_the_progress_bar_on_a_terminal_and_plain_lines_off_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from voyage_tui.cli.judge_run_cmd import Bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    bar = Bar()
    for done in range(1, 5):
        bar(done, 4, 1)
    drawn = terminal.getvalue()
    assert drawn.startswith("\r[") and "4/4" in drawn and "/s" in drawn and "ETA" in drawn
    assert "1 failed" in drawn and drawn.endswith("\n")
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    bar = Bar()
    for done in range(1, 101):
        bar(done, 100, 0)
    lines = log.getvalue().splitlines()
    assert len(lines) == 10 and all(line.startswith("judge: ") for line in lines)
    assert "\r" not in log.getvalue()
