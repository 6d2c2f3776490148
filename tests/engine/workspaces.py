"""Turning a case folder of tests/data into a throwaway workspace the engine can validate."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import task_yaml
from voyage_tui.engine.diagnostics import Diagnostic, Severity

DATA = Path(__file__).resolve().parent.parent / "data"
RULES = DATA / "rules"

COVERAGE_FIXTURES = {
    "fixtures/adversarial/adv-1/task.yaml": task_yaml("adv-1", "adversarial"),
    "fixtures/no-change-needed/ncn-1/task.yaml": task_yaml("ncn-1", "no-change-needed"),
}


def _outside(root: Path) -> Path:
    """A folder beside the workspace, so outside it."""
    folder = root.parent / "outside"
    folder.mkdir(exist_ok=True)
    return folder


def symlink_task_outside(root: Path) -> None:
    target = _outside(root) / "task.yaml"
    target.write_text(task_yaml("t1"), encoding="utf-8")
    os.symlink(target, root / "fixtures/bug-diagnosis/t1/task.yaml")


def symlink_folder_outside(root: Path) -> None:
    folder = _outside(root) / "t1"
    folder.mkdir()
    (folder / "task.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    os.symlink(folder, root / "fixtures/bug-diagnosis/t1", target_is_directory=True)


def dangling_task_symlink(root: Path) -> None:
    os.symlink("no-such-file.yaml", root / "fixtures/bug-diagnosis/t1/task.yaml")


def symlink_context_outside(root: Path) -> None:
    target = _outside(root) / "notes.md"
    target.write_text("secret notes\n", encoding="utf-8")
    os.symlink(target, root / "fixtures/bug-diagnosis/t1/notes.md")


def symlink_references_outside(root: Path) -> None:
    folder = _outside(root) / "references"
    folder.mkdir()
    (folder / "journey.md").write_text("## Phases\n\n1. Intake and provenance\n", encoding="utf-8")
    os.symlink(folder, root / "references", target_is_directory=True)


def symlink_fixtures_folder_outside(root: Path) -> None:
    folder = _outside(root) / "suite"
    (folder / "bug-diagnosis/t1").mkdir(parents=True)
    (folder / "bug-diagnosis/t1/task.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    os.symlink(folder, root / "suite", target_is_directory=True)


def colon_file_name(root: Path) -> None:
    # Not stored in git: a colon in a file name cannot be checked out on Windows.
    (root / "fixtures/bug-diagnosis/t1/a:notes.md").write_text("notes\n", encoding="utf-8")


SETUPS: dict[tuple[str, str], Callable[[Path], None]] = {
    ("context-path-escapes", "windows-drive"): colon_file_name,
    ("symlink-outside-workspace", "references-folder-symlink"): symlink_references_outside,
    ("symlink-outside-workspace", "fixtures-folder-symlink"): symlink_fixtures_folder_outside,
    ("symlink-outside-workspace", "task-symlink"): symlink_task_outside,
    ("symlink-outside-workspace", "folder-symlink"): symlink_folder_outside,
    ("broken-symlink", "dangling"): dangling_task_symlink,
    ("context-path-escapes", "symlink"): symlink_context_outside,
}
"""Cases whose point cannot be stored in git (a symlink out of the workspace), built at run time."""


def materialize(code: str, case: str, dest: Path, *, coverage: bool = True) -> Path:
    """Copy tests/data/rules/<code>/<case>/ to `dest/ws`, add the two fixtures the suite-level
    coverage rule wants (unless the case is about that rule), and run the case's setup."""
    source = RULES / code / case
    root = dest / "ws"
    shutil.copytree(source, root, symlinks=True)
    (root / "fixtures").mkdir(exist_ok=True)
    if coverage:
        for rel, text in COVERAGE_FIXTURES.items():
            path = root / rel
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    setup = SETUPS.get((code, case))
    if setup is not None:
        setup(root)
    return root


# --- what a case must produce, and the check that it does (every rule-case test uses it) ----------


@dataclass(frozen=True)
class Expect:
    code: str
    severity: str
    path: str
    line: int | None
    column: int | None
    contains: tuple[str, ...] = ()


def e(code: str, path: str, line: int | None, column: int | None, *contains: str) -> Expect:
    return Expect(code, "error", path, line, column, contains)


def w(code: str, path: str, line: int | None, column: int | None, *contains: str) -> Expect:
    return Expect(code, "warning", path, line, column, contains)


def i(code: str, path: str, line: int | None, column: int | None, *contains: str) -> Expect:
    return Expect(code, "info", path, line, column, contains)


def assert_case(diagnostics: list[Diagnostic], expected: list[Expect]) -> None:
    """Each expected diagnostic is there, at its place, with its severity and words; and the
    case has no other error or warning (infos beyond the expected ones are allowed)."""
    for want in expected:
        matches = [
            d
            for d in diagnostics
            if d.code == want.code
            and d.path == want.path
            and (d.line, d.column) == (want.line, want.column)
        ]
        assert matches, f"no {want.code} at {want.path}:{want.line}:{want.column}; got " + repr(
            [(d.code, d.path, d.line, d.column) for d in diagnostics]
        )
        d = matches[0]
        assert d.severity.value == want.severity, d
        for text in want.contains:
            assert text in d.message, (text, d.message)
    loud = sorted(
        (d.code, d.path, d.line, d.column) for d in diagnostics if d.severity is not Severity.INFO
    )
    wanted = sorted((x.code, x.path, x.line, x.column) for x in expected if x.severity != "info")
    assert loud == wanted
