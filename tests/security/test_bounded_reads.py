"""Bounded reads (issue 33, row 8): a voyage.toml that raises `[limits] max_file_bytes` to 1 TiB
and a ratings file of many GiB (sparse: it costs nothing on disk) once ended `validate`,
`ratings status`, `results` and `agreement` in a MemoryError. The bound has a ceiling (64 MiB),
and ratings and adjudications are read as streams of bounded lines, never whole.

Each command runs as a process under a wrapper that reports the command's peak memory
(`RUSAGE_CHILDREN` of the wrapper holds only it), with an address-space limit, so the old code
fails with a MemoryError instead of taking the machine's memory.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from tests.ratings.common import jsonl, load_ws, record, rubric, workspace_files
from voyage_tui.engine.formats.config_spec import MAX_FILE_BYTES_CEILING
from voyage_tui.engine.loading.line_stream import MAX_LINE_BYTES, MAX_LINE_PROBLEMS
from voyage_tui.engine.ratings.rules import check_ratings_file
from voyage_tui.engine.workspace.config import parse_config

VOYAGE = str(Path(sys.executable).with_name("voyage-tui"))
SPARSE = 6 << 30
PEAK_MB = 300
ADDRESS_SPACE = 3 << 30
"""The child's address-space limit: the old code's whole-file read of 6 GiB fails under it."""

_WRAPPER = """
import resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=cap, timeout=300)
sys.stdout.write(proc.stdout)
sys.stderr.write(proc.stderr)
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stderr.write(f"\\nPEAK_KB={peak_kb}\\n")
sys.exit(proc.returncode)
"""


def run_bounded(args: list[str], cwd: Path) -> tuple[int, str, str, int]:
    """(exit code, stdout, stderr, the command's peak resident memory in MB)."""
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, str(ADDRESS_SPACE), VOYAGE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    found = re.search(r"PEAK_KB=(\d+)", proc.stderr)
    assert found, proc.stderr[-2000:]
    return proc.returncode, proc.stdout, proc.stderr, int(found.group(1)) // 1024


def huge_ratings(sample_copy: Path) -> Path:
    """The sample with max_file_bytes at 1 TiB and a 6 GiB sparse ratings file of a rater."""
    toml = sample_copy / "voyage.toml"
    text = re.sub(
        r"max_file_bytes = \d+", "max_file_bytes = 1099511627776", toml.read_text("utf-8")
    )
    toml.write_text(text, "utf-8")
    with open(sample_copy / "fixtures/ratings/eve.jsonl", "wb") as handle:
        handle.truncate(SPARSE)
    return sample_copy


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--no-git", "--no-cache"],
        ["ratings", "status"],
        ["results"],
        ["agreement"],
    ],
    ids=lambda a: a[0] if a[0] != "ratings" else "ratings-status",
)
def test_a_sparse_file_of_gibibytes_is_a_diagnostic_in_bounded_memory(
    sample_copy: Path, args: list[str]
) -> None:
    root = huge_ratings(sample_copy)
    code, out, err, peak = run_bounded([*args, str(root)], root)
    assert "Traceback" not in err and "MemoryError" not in err, err[-3000:]
    # results prints its figures without that file, and a note naming it (exit 0)
    assert code in ((0, 1, 2) if args == ["results"] else (1, 2)), (code, err[-2000:])
    said = out + err
    assert "fixtures/ratings/eve.jsonl" in said and "file-too-large" in said, said[-3000:]
    assert peak < PEAK_MB, f"{peak} MB"


def test_the_ceiling_is_a_diagnostic_and_applies() -> None:
    config, diagnostics = parse_config("[limits]\nmax_file_bytes = 1099511627776\n")
    assert config.limits.max_file_bytes == MAX_FILE_BYTES_CEILING == 64 << 20
    [problem] = diagnostics
    assert problem.code == "config-invalid"
    assert problem.line == 2
    assert "67,108,864" in problem.message and "ceiling" in problem.message
    # at the ceiling: no diagnostic
    config, diagnostics = parse_config(f"[limits]\nmax_file_bytes = {64 << 20}\n")
    assert (config.limits.max_file_bytes, diagnostics) == (64 << 20, [])


def test_a_line_over_the_bound_is_a_diagnostic_and_the_lines_after_it_count(
    make_workspace,
) -> None:
    huge = MAX_LINE_BYTES * 40  # 40 MiB of one line, under the file's bound
    root = make_workspace(
        {
            **workspace_files(),
            "voyage.toml": f"[limits]\nmax_file_bytes = {64 << 20}\n",
        }
    )
    path = root / "ratings" / "alice.jsonl"
    path.parent.mkdir(exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(jsonl(record()).encode())
        handle.write(b'{"note": "')
        handle.truncate(handle.tell() + huge)  # NUL bytes, free on disk
        handle.seek(0, os.SEEK_END)
        handle.write(b'"}\n' + jsonl(record(run_id="run-b")).encode())
    ws = load_ws(root)
    scale = rubric()
    tracemalloc.start()
    try:
        checked = check_ratings_file(ws, scale, "ratings/alice.jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"{peak:,} bytes held at once"
    assert [r.run_id for r in checked.ratings] == ["run-a", "run-b"]
    [too_long] = [d for d in checked.diagnostics if d.code == "line-too-long"]
    assert too_long.line == 2
    assert f"{huge + 12:,} bytes" in too_long.message
    assert checked.readable and checked.line_count == 3


def test_a_file_of_junk_lines_lists_its_first_problems(make_workspace) -> None:
    # 1 MiB of `x` lines was half a million diagnostics (630 MB and 23 s for `validate`); each
    # junk line is 300 bytes of diagnostic, so 10,000 of them would be 3 MB held
    junk = 10_000
    root = make_workspace(
        {
            **workspace_files(),
            "ratings/alice.jsonl": jsonl(record()) + "x\n" * junk + jsonl(record(run_id="run-b")),
        }
    )
    tracemalloc.start()
    try:
        checked = check_ratings_file(load_ws(root), rubric(), "ratings/alice.jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_500_000, f"{peak:,} bytes held at once"
    assert [r.run_id for r in checked.ratings] == ["run-a", "run-b"]
    assert len(checked.diagnostics) == MAX_LINE_PROBLEMS + 1
    last = checked.diagnostics[-1]
    assert (last.code, last.line, last.severity) == ("problems-not-listed", 1002, "error")
    assert f"{junk - MAX_LINE_PROBLEMS:,} more problems" in last.message
    assert checked.foreign.count == junk  # still counted: no session appends to this file


def test_a_snooze_fingerprint_hashes_a_large_file_a_block_at_a_time(make_workspace) -> None:
    # a snooze "until the file changes" hashes the item's files, a rater's ratings file too
    from voyage_tui.engine.triage.queue import fingerprint

    root = make_workspace(
        {**workspace_files(), "voyage.toml": f"[limits]\nmax_file_bytes = {64 << 20}\n"}
    )
    path = root / "ratings" / "alice.jsonl"
    path.parent.mkdir(exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(jsonl(record()).encode())
        handle.truncate(60 << 20)
    ws = load_ws(root)
    tracemalloc.start()
    try:
        got = fingerprint(ws, ["ratings/alice.jsonl"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"{peak:,} bytes held at once"
    whole = hashlib.sha256(path.read_bytes()).hexdigest()  # as it was computed: the same digest
    expected = hashlib.sha256(b"ratings/alice.jsonl\0" + whole.encode() + b"\n").hexdigest()
    assert got == expected


def test_kept_bytes_are_not_served_through_a_folder_now_leading_out(
    sample_copy: Path, tmp_path: Path
) -> None:
    """The bytes a validation kept for results (Suite.review_inputs) stand for the file only
    while its folder still lies inside the workspace: a folder swapped for a symlink out of it
    after the check gets the refusal every read gets, not the bytes."""
    from voyage_tui.engine.validation.validated import validated_suite

    run = "fixtures/gold/jwt-auth/runs/run-perfect.json"
    suite = validated_suite(sample_copy, use_git=False, keep_gold=True)
    assert run in (suite.review_inputs().kept or {})
    folder = sample_copy / "fixtures/gold/jwt-auth/runs"
    outside = tmp_path / "outside"
    folder.rename(outside)
    folder.symlink_to(outside, target_is_directory=True)
    read = suite.review_inputs().read(run)
    assert not isinstance(read, str)
    assert read.code == "symlink-outside-workspace"
