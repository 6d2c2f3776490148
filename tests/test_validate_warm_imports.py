"""The warm path imports little: when the cache answers, `voyage-tui validate` loads neither
pydantic nor PyYAML (nor markdown-it). Each run is a fresh interpreter started with
`-X importtime`, which lists every module the process imported, in the order it did."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

HEAVY = ("pydantic", "pydantic_core", "yaml", "markdown_it")
_IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|(\s+)(\S+)$")


def _run(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`python -X importtime -m voyage_tui validate ROOT ...`: the process and the top-level
    packages it imported."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "voyage_tui", "validate", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    imported = set()
    for line in proc.stderr.splitlines():
        match = _IMPORTED.match(line)
        if match:
            imported.add(match.group(2).split(".")[0])
    assert imported, "no -X importtime output"
    return proc, imported


def test_a_warm_validate_imports_neither_pydantic_nor_yaml(sample_copy: Path) -> None:
    cold, cold_imports = _run(sample_copy, "--no-git")
    assert cold.returncode == 0, cold.stderr[-2000:]
    assert {"pydantic", "yaml"} <= cold_imports  # the cold run parses: the probe sees it
    warm, warm_imports = _run(sample_copy, "--no-git")
    assert warm.returncode == 0
    assert warm.stdout == cold.stdout
    assert not warm_imports & set(HEAVY), sorted(warm_imports & set(HEAVY))


def test_a_changed_file_brings_the_parsers_back(sample_copy: Path) -> None:
    _run(sample_copy, "--no-git")
    task = sample_copy / "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"
    task.write_text(task.read_text() + "# edited\n")
    proc, imported = _run(sample_copy, "--no-git")
    assert proc.returncode == 0
    assert "yaml" in imported


def test_validate_imports_no_statistics_git_or_textual(sample_copy: Path, tmp_path: Path) -> None:
    # What only other commands need stays out of validate's start-up: numpy and krippendorff
    # (agreement, results), GitPython (the git checks), Textual (the app).
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "voyage.toml").write_text("")
    for root in (empty, sample_copy):
        proc, imported = _run(root, "--no-git")
        assert "Traceback" not in proc.stderr
        unwanted = imported & {"numpy", "krippendorff", "git", "textual", "rich", "scipy"}
        assert not unwanted, (root.name, sorted(unwanted))
