"""The code part of the cache's key: every source and default reference of the package, by size
and mtime, so an edited rule in a development checkout invalidates what the cache holds."""

from __future__ import annotations

import os
from pathlib import Path

from voyage_tui.engine.validation import cache_key
from voyage_tui.engine.validation.cache_key import code_fingerprint, source_stamps


def _tree(tmp_path: Path) -> tuple[str, tuple[str, ...]]:
    package = tmp_path / "pkg"
    for rel, text in {
        "engine/rules/task_rules.py": "RULE = 1\n",
        "engine/__init__.py": "",
        "engine/notes.txt": "not a source\n",
        "engine/__pycache__/task_rules.cpython-311.py": "a bytecode cache's folder\n",
        "defaults/rubric.md": "# Rubric\n",
        "defaults/rule-catalogue.yaml": "- SEC-001\n",
    }.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(package), (str(package / "engine"), str(package / "defaults"))


def test_every_source_and_reference_is_stamped_by_its_relative_path(tmp_path: Path) -> None:
    package, folders = _tree(tmp_path)
    names = [line.split(":")[0] for line in source_stamps(package, folders)]
    assert names == [
        "defaults/rubric.md",
        "defaults/rule-catalogue.yaml",
        "engine/__init__.py",
        "engine/rules/task_rules.py",
    ]


def test_an_edited_source_changes_the_stamps(tmp_path: Path) -> None:
    package, folders = _tree(tmp_path)
    before = source_stamps(package, folders)
    rule = Path(package) / "engine/rules/task_rules.py"
    rule.write_text("RULE = 2\n")  # the same size: the mtime tells
    os.utime(rule, ns=(1_000_000_000, 1_000_000_000))
    assert source_stamps(package, folders) != before
    before = source_stamps(package, folders)
    (Path(package) / "engine/__pycache__/task_rules.cpython-311.py").write_text("changed\n")
    (Path(package) / "engine/notes.txt").write_text("changed too\n")
    assert source_stamps(package, folders) == before


def test_a_missing_folder_has_no_sources(tmp_path: Path) -> None:
    assert source_stamps(str(tmp_path), (str(tmp_path / "absent"),)) == []


def test_the_fingerprint_covers_the_installed_engine() -> None:
    lines = source_stamps(str(cache_key._PACKAGE), cache_key._SOURCES)
    assert "engine/validation/cache_key.py" in [line.split(":")[0] for line in lines]
    assert any(line.startswith("defaults/rubric.md:") for line in lines)
    assert len(code_fingerprint()) == 64
