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


STARTUP_FORBIDDEN = (
    # third-party parsers and models: nothing of an empty workspace is parsed or validated
    "pydantic",
    "pydantic_core",
    "yaml",
    "markdown_it",
    # what only other commands use
    "numpy",
    "krippendorff",
    "scipy",
    "git",
    "textual",
    "rich",
    # what only some outputs use: JSON (--format json), did-you-mean (a misspelt key)
    "json",
    "difflib",
    # the engine's readers of files an empty workspace does not have
    "voyage_tui.engine.formats.task",
    "voyage_tui.engine.formats.gold",
    "voyage_tui.engine.formats.config",
    "voyage_tui.engine.rules",
    "voyage_tui.engine.validation.file_check",
    "voyage_tui.engine.references.rubric",
    "voyage_tui.engine.references.journey",
    "voyage_tui.engine.references.catalogue",
    "voyage_tui.engine.ratings.records",
    "voyage_tui.engine.ratings.agreement",
    "voyage_tui.engine.git.exposure",
    "voyage_tui.engine.git.repo",
    "voyage_tui.engine.scoring",
    "voyage_tui.cli.score_cmd",
    "voyage_tui.cli.open_cmd",
)


def _modules(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`python -X importtime -m voyage_tui validate ROOT ...`: the process and every module it
    imported, by its full name."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "voyage_tui", "validate", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    imported = {m.group(2) for m in map(_IMPORTED.match, proc.stderr.splitlines()) if m}
    assert imported, "no -X importtime output"
    return proc, imported


def _forbidden(imported: set[str]) -> list[str]:
    return sorted(
        name
        for name in imported
        if any(name == bad or name.startswith(bad + ".") for bad in STARTUP_FORBIDDEN)
    )


def test_the_start_up_of_validate_imports_only_what_it_uses(tmp_path: Path) -> None:
    # issue 23: `validate` of an empty workspace is its start-up alone; it reads no file of a
    # format, so it imports no parser, no model and no rule, with the cache and without.
    empty = tmp_path / "empty"
    (empty / "fixtures").mkdir(parents=True)
    for args in (("--no-git", "--no-cache"), ("--no-git",), ("--no-git",)):
        proc, imported = _modules(empty, *args)
        assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
        assert "0 files checked" in proc.stdout
        assert not _forbidden(imported), (args, _forbidden(imported))
    # the probe sees those modules where they are used
    (empty / "voyage.toml").write_text("[limits]\nmax_file_bytes = true\n")
    proc, imported = _modules(empty, "--no-git")
    assert "config-invalid" in proc.stdout
    assert {"pydantic", "voyage_tui.engine.formats.config"} <= imported
    (empty / "voyage.toml").write_text("[limits]\nmax_file_byte = 5\n")
    proc, imported = _modules(empty, "--no-git", "--format", "json")
    assert "did you mean `max_file_bytes`" in proc.stdout
    assert {"json", "difflib"} <= imported


REPLAY_FORBIDDEN = (
    # what only a check needs: the Item and its facts (the replay keeps summaries), the parsed
    # voyage.toml (the key holds its digest), the walk's classifier and layout
    "voyage_tui.engine.items",
    "voyage_tui.engine.validation.item_entry",
    "voyage_tui.engine.workspace.config",
    "tomllib",
    "voyage_tui.engine.workspace.classify",
    "voyage_tui.engine.workspace.layout",
    "voyage_tui.engine.validation.layout_replay",
    "voyage_tui.engine.validation.suite",
    # no dataclass is made (Diagnostic and ValidationResult are written out): `dataclasses`
    # imports inspect, ast and dis
    "dataclasses",
    "inspect",
    # nor typing: the modules of the replay's path import it only for mypy (TYPE_CHECKING)
    "typing",
)


def test_a_replay_imports_no_item_configuration_or_walk(sample_copy: Path, tmp_path: Path) -> None:
    # issue 23: the start-up of an answer from the cache; a first run (which checks) imports all
    # of these, so the probe sees them where they are used.
    empty = tmp_path / "empty"
    (empty / "fixtures").mkdir(parents=True)
    for root in (empty, sample_copy):
        cold, cold_imports = _modules(root, "--no-git")
        assert "Traceback" not in cold.stderr, cold.stderr[-2000:]
        assert set(REPLAY_FORBIDDEN) <= cold_imports, sorted(set(REPLAY_FORBIDDEN) - cold_imports)
        warm, warm_imports = _modules(root, "--no-git")
        assert warm.stdout == cold.stdout
        assert not warm_imports & set(REPLAY_FORBIDDEN), (
            root.name,
            sorted(warm_imports & set(REPLAY_FORBIDDEN)),
        )
