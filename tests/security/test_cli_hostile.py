"""The command line against hostile inputs and a hostile environment: lone surrogates in a run or
a gold file, folders the user cannot read, a NUL in voyage.toml, and an stdout that fails.

Every case must end in a message and an exit code, never a traceback.

CI runs as root, and root reads any folder whatever its mode, so a folder is made unreadable by
making the OS calls refuse it (`deny`), as they refuse a user without permission: listing the
folder and reaching anything inside it fail with EACCES, while the folder itself can be stat'ed.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO, task_yaml
from tests.scoring.common import SAMPLE_GOLD, SAMPLE_RUNS, dump, finding, gold_finding, payload
from voyage_tui.cli import main

VOYAGE = str(Path(sys.executable).with_name("voyage-tui"))
NO_SPACE = "voyage-tui: cannot write the output: No space left on device"
T1 = "fixtures/bug-diagnosis/t1/task.yaml"
T2 = "fixtures/bug-diagnosis/t2/task.yaml"


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command line in-process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def run_cli(
    args: list[str], *, cwd: Path = REPO, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [VOYAGE, *args],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="strict",
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )


# --- stdout that fails -------------------------------------------------------------------------

RUN = str(SAMPLE_RUNS / "run-perfect.json")

OUTPUT_COMMANDS = {
    "validate": ["validate", "fixtures", "--no-git"],
    "validate-json": ["validate", "fixtures", "--no-git", "--format", "json"],
    "validate-github": ["validate", "fixtures", "--no-git", "--format", "github"],
    "score": ["score", "--gold", str(SAMPLE_GOLD), "--run", RUN],
    "score-json": ["score", "--gold", str(SAMPLE_GOLD), "--run", RUN, "--format", "json"],
    "exposure": ["exposure", "fixtures"],
    "exposure-json": ["exposure", "fixtures", "--format", "json"],
    "schema": ["schema", "task"],
    "version": ["--version"],
    "help": ["--help"],
    # argparse prints its help and raises SystemExit(0): the output is flushed at exit
    "validate-help": ["validate", "--help"],
    "score-help": ["score", "--help"],
    "exposure-help": ["exposure", "--help"],
    "schema-help": ["schema", "--help"],
    "diff-help": ["diff", "--help"],
    "open-help": [".", "--help"],
}


@pytest.mark.parametrize("args", OUTPUT_COMMANDS.values(), ids=OUTPUT_COMMANDS.keys())
def test_stdout_on_a_full_disk_is_one_line_and_exit_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = run_cli(args, stdout=full.fileno())
    assert "Traceback" not in proc.stderr
    assert "Exception ignored" not in proc.stderr
    assert proc.stderr.splitlines()[-1:] == [NO_SPACE], proc.stderr
    # gold warnings or diagnostics may come before it on stderr; the failure itself is one line
    assert proc.stderr.count("cannot write") == 1
    assert proc.returncode == 2


def test_stdout_failure_on_a_clean_run_is_the_only_line_on_stderr() -> None:
    with open("/dev/full", "w") as full:
        proc = run_cli(["schema", "gold"], stdout=full.fileno())
    assert (proc.returncode, proc.stderr) == (2, NO_SPACE + "\n")


def test_a_reader_that_leaves_early_is_not_an_error() -> None:
    """A guard of what main did already, kept now that main handles every failing output:
    `voyage-tui schema task | head -1`: the closed pipe ends the command quietly (exit 141,
    as a shell reports a process ended by SIGPIPE). The reader is gone before the first write,
    so the test does not depend on how much fits in the pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = run_cli(["schema", "task"], stdout=write_end)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (141, "")


def test_a_failing_stdout_in_process_is_reported_not_raised(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sys, "stdout", Full())
    assert main(["schema", "task"]) == 2
    assert capsys.readouterr().err == NO_SPACE + "\n"


def test_an_error_that_is_not_the_output_s_still_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard of the design: only a failing stdout becomes the one-line message; another
    OSError is a bug, and its traceback must still be seen."""
    from voyage_tui.cli import schema_cmd

    def broken(kind: str) -> dict[str, object]:
        raise OSError(errno.EIO, "not about the output")

    monkeypatch.setattr(schema_cmd, "schema_for", broken)
    with pytest.raises(OSError, match="not about the output"):
        main(["schema", "task"])


# --- lone surrogates in a run or a gold file ---------------------------------------------------

S = "\udc00"


def _score_corpus(tmp_path: Path, field: str) -> tuple[Path, Path]:
    """A gold file and a run whose `field` holds a lone surrogate (a JSON `\\udc00` escape)."""
    file = f"a{S}.py" if field == "file" else "a.py"
    gold = {
        "schema": "voyage-eval-gold/1",
        "source": "tests",
        "description": "a gold record built by a test",
        "expected_verdict": "BLOCK",
        "findings": [gold_finding(file, 3, "jwt-alg-none", "BLOCKER")],
    }
    rule_key = f"jwt-alg-none{S}" if field == "rule_key" else "jwt-alg-none"
    reviewer = f"correctness{S}" if field == "reviewer" else "correctness"
    run = [
        payload(reviewer, finding(file, 3, "jwt-alg-none", "BLOCKER")),
        payload(
            "conformance", finding(f"b{S}.py" if field == "file" else "b.py", 1, rule_key, "MINOR")
        ),
    ]
    # json.dumps writes a lone surrogate as the escape `\udc00`: the files are plain ASCII
    gold_path, run_path = tmp_path / "gold.json", tmp_path / "run.json"
    gold_path.write_text(dump(gold), encoding="ascii")
    run_path.write_text(dump(run), encoding="ascii")
    assert "\\udc00" in run_path.read_text(encoding="ascii")
    return gold_path, run_path


@pytest.mark.parametrize("field", ["file", "rule_key", "reviewer"])
def test_score_text_shows_a_lone_surrogate_escaped(tmp_path: Path, field: str) -> None:
    gold, run = _score_corpus(tmp_path, field)
    proc = run_cli(["score", "--gold", str(gold), "--run", str(run)], cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert "\\udc00" in proc.stdout  # visible, as the escape that wrote it
    assert "result: pass" in proc.stdout


@pytest.mark.parametrize("field", ["file", "rule_key", "reviewer"])
def test_score_json_keeps_a_lone_surrogate_as_a_json_escape(tmp_path: Path, field: str) -> None:
    gold, run = _score_corpus(tmp_path, field)
    proc = run_cli(
        ["score", "--gold", str(gold), "--run", str(run), "--format", "json"], cwd=tmp_path
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # valid JSON, and the value survives the round trip
    assert S in json.dumps(report, ensure_ascii=False)
    if field == "file":
        assert report["matched"][0]["file"] == f"a{S}.py"
    if field == "reviewer":
        assert f"correctness{S}" in report["matched"][0]["reviewers"]


def test_score_in_process_with_a_surrogate_reviewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, run = _score_corpus(tmp_path, "reviewer")
    code, out, _ = cli(["score", "--gold", str(gold), "--run", str(run)], capsys)
    assert code == 0
    assert "correctness\\udc00" in out


def test_validate_json_keeps_a_lone_surrogate_valid(
    make_workspace: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard, not a defect: validate already wrote this escaped; the handling moved to main.
    A folder name that is not UTF-8 reaches Python as a lone surrogate (`\\udcff`)."""
    root = make_workspace({T1: task_yaml("t1")})
    folder = os.path.join(os.fsencode(root / "fixtures/bug-diagnosis"), b"t\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"task.yaml"), "w", encoding="utf-8") as f:
        f.write(task_yaml("t2"))
    code, out, _ = cli(["validate", str(root), "--no-git", "--format", "json"], capsys)
    paths = {d["path"] for d in json.loads(out)["diagnostics"]}
    assert "fixtures/bug-diagnosis/t\udcff/task.yaml" in paths
    assert code == 1
