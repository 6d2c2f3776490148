"""`--output FILE` writes where the user says (SPEC 3.10's last bullet, SPEC 7; issue 33 row 7,
issue 35 item 6): inside the workspace through the workspace writer (no symlinked component, so
`reports/` linked to a fixture is refused, nothing under `.git`); outside it the path named on
the command line is the user's decision and is written; everywhere atomically, and an existing
file only with `--force` (its mode kept). One helper (engine/workspace/writes.write_output) for
`results`, `ratings export` and the results screen's export."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.results.common import build
from voyage_tui.cli import main

COMMANDS = {
    "results": ["results", "--format", "md"],
    "ratings export": ["ratings", "export"],
}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return build(tmp_path / "ws", baseline="old")


def run(capsys, command: str, ws: Path, output: Path | str, *more: str) -> tuple[int, str]:
    argv = [*COMMANDS[command], str(ws), "--output", str(output), *more]
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_symlinked_folder_inside_the_workspace_is_refused(ws, capsys, command) -> None:
    fixture = next(ws.glob("fixtures/*/f1"))
    (ws / "reports").symlink_to(fixture, target_is_directory=True)
    code, err = run(capsys, command, ws, ws / "reports" / "r.md")
    assert code == 2 and "symlink" in err
    assert not (fixture / "r.md").exists()
    # named through a link from outside into the workspace: refused as well
    (ws.parent / "into").symlink_to(ws / "fixtures", target_is_directory=True)
    code, err = run(capsys, command, ws, ws.parent / "into" / "x.md")
    assert code == 2 and not (ws / "fixtures" / "x.md").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_nothing_is_written_under_git(ws, capsys, command) -> None:
    (ws / ".git").mkdir()
    code, err = run(capsys, command, ws, ws / ".git" / "hooks-post")
    assert code == 2 and ".git" in err and not (ws / ".git" / "hooks-post").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_outside_the_workspace_is_written(ws, tmp_path, capsys, command, monkeypatch) -> None:
    away = tmp_path / "home" / "reports"
    away.mkdir(parents=True)
    code, err = run(capsys, command, ws, away / "r.out")
    assert code == 0, err
    assert (away / "r.out").stat().st_size > 0
    # relative to the current folder, `..` included
    monkeypatch.chdir(away)
    code, err = run(capsys, command, ws, "../x.csv")
    assert code == 0, err
    assert (away.parent / "x.csv").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("where", ["inside", "outside"])
def test_an_existing_file_needs_force(ws, tmp_path, capsys, command, where) -> None:
    target = (ws / "out.txt") if where == "inside" else (tmp_path / "out.txt")
    target.write_text("mine\n")
    os.chmod(target, 0o640)
    code, err = run(capsys, command, ws, target)
    assert code == 2 and "exists" in err and "--force" in err
    assert target.read_text() == "mine\n"
    inode = target.stat().st_ino
    code, err = run(capsys, command, ws, target, "--force")
    assert code == 0, err
    assert target.read_text() != "mine\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the mode kept
    assert target.stat().st_ino != inode  # a new file renamed over it: atomic
    assert [p.name for p in target.parent.iterdir() if p.name.startswith(".out.txt")] == []


def test_a_symlink_at_the_name_outside_is_refused(ws, tmp_path, capsys) -> None:
    """Outside the workspace the folder is the user's; the file's own name being a link is
    still not followed (the write renames a new file into place, never writes through)."""
    (tmp_path / "elsewhere").write_text("keep\n")
    (tmp_path / "r.md").symlink_to(tmp_path / "elsewhere")
    code, _ = run(capsys, "results", ws, tmp_path / "r.md", "--force")
    assert code == 2 and (tmp_path / "elsewhere").read_text() == "keep\n"


def test_a_missing_folder_outside_is_said_and_not_made(ws, tmp_path, capsys) -> None:
    code, err = run(capsys, "results", ws, tmp_path / "nowhere" / "r.md")
    assert code == 2 and "no folder" in err and not (tmp_path / "nowhere").exists()
