"""No write follows a symlink below the workspace root, even one that stays inside it, and
nothing is written under `.git/`, a Python environment or an existing git-ignored file.

Written against issue 18's attack: a branch replaced `ratings/carol.jsonl` with a link to
`../.venv/bin/activate`, so carol's next rating appended a shell command to her venv's activate
script (and the same link to `.git/config` broke git), with `git status` clean.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from tests.git.conftest import isolated_git  # noqa: F401  (autouse: no machine git configuration)
from tests.gitconfig import add_settings
from tests.ratings.common import rating
from voyage_tui.engine.atomic import WriteRefused, append_line_durably, write_inside
from voyage_tui.engine.editing import open_file, save_file
from voyage_tui.engine.ratings.store import append_rating
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import append_line, write_file

ACTIVATE = "# activate this environment\nexport VIRTUAL_ENV=here\n"


@pytest.fixture
def ws_root(tmp_path: Path) -> Path:
    root = copy_sample(tmp_path)
    venv = root / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "bin/activate").write_text(ACTIVATE)
    return root


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _repo(root: Path) -> None:
    _git(root, "init", "-q", "-b", "main")
    add_settings(
        root / ".git" / "config", [("user.name", "t"), ("user.email", "t@example.invalid")]
    )


# --- the attack of the issue ------------------------------------------------------------------


def test_a_rating_is_not_appended_through_a_committed_link_to_the_venv(ws_root: Path) -> None:
    carol = ws_root / "fixtures/ratings/carol.jsonl"
    carol.unlink()
    carol.symlink_to("../../.venv/bin/activate")
    assert carol.read_text() == ACTIVATE  # the link is live
    attack = rating(rater="carol", run_id="run-z9 $(touch /tmp/x)")
    with pytest.raises(WriteRefused) as refused:
        append_rating(Workspace.load(ws_root), attack)
    assert (ws_root / ".venv/bin/activate").read_text() == ACTIVATE
    assert carol.is_symlink()
    message = str(refused.value)
    assert "carol.jsonl" in message and "symlink" in message and "nothing was written" in message


def test_a_rating_is_not_appended_through_a_link_to_git_config(ws_root: Path) -> None:
    _repo(ws_root)
    config = (ws_root / ".git/config").read_bytes()
    carol = ws_root / "fixtures/ratings/carol.jsonl"
    carol.unlink()
    carol.symlink_to("../../.git/config")
    with pytest.raises(WriteRefused, match="symlink"):
        append_rating(Workspace.load(ws_root), rating(rater="carol"))
    assert (ws_root / ".git/config").read_bytes() == config


# --- the writer: every component, inside or out -------------------------------------------------


def test_a_symlinked_file_inside_the_workspace_is_refused_not_followed(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "real").mkdir(parents=True)
    (ws / "real/file.md").write_text("keep\n")
    (ws / "link.md").symlink_to("real/file.md")
    with pytest.raises(WriteRefused, match=r"link\.md is a symlink \(to real/file\.md\)"):
        write_inside(ws, "link.md", b"new\n")
    with pytest.raises(WriteRefused, match="symlink"):
        append_line_durably(ws / "link.md", "new", root=ws)
    assert (ws / "real/file.md").read_text() == "keep\n"
    assert (ws / "link.md").is_symlink()


def test_a_symlinked_folder_inside_the_workspace_is_refused_not_followed(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "real").mkdir(parents=True)
    (ws / "real/file.md").write_text("keep\n")
    (ws / "alias").symlink_to("real")
    for rel in ("alias/file.md", "alias/new.md", "alias/deeper/new.md"):
        with pytest.raises(WriteRefused, match=r"alias, a folder on the way .* is a symlink"):
            write_inside(ws, rel, b"new\n", make_folders=True)
    with pytest.raises(WriteRefused, match="symlink"):
        append_line_durably(ws / "alias/file.md", "new", root=ws)
    assert sorted(p.name for p in (ws / "real").iterdir()) == ["file.md"]
    assert (ws / "real/file.md").read_text() == "keep\n"


def test_an_absolute_path_through_a_link_is_taken_as_written(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "real").mkdir(parents=True)
    (ws / "alias").symlink_to("real")
    with pytest.raises(WriteRefused, match="symlink"):
        write_inside(ws, str(ws / "alias/x.md"), b"new\n")
    assert not (ws / "real/x.md").exists()


def test_a_workspace_reached_through_a_link_is_still_written(tmp_path: Path) -> None:
    """The root itself is the person's choice: only what lies below it must not be a link."""
    (tmp_path / "real-ws/fixtures").mkdir(parents=True)
    (tmp_path / "ws").symlink_to("real-ws")
    write_inside(tmp_path / "ws", str(tmp_path / "ws/fixtures/a.md"), b"new\n")
    write_inside(tmp_path / "ws", "fixtures/b.md", b"new\n")
    assert (tmp_path / "real-ws/fixtures/a.md").read_text() == "new\n"
    assert (tmp_path / "real-ws/fixtures/b.md").read_text() == "new\n"


@pytest.mark.parametrize("rel", [".git/config", ".git/hooks/pre-commit", "sub/.GIT/config", ".git"])
def test_nothing_is_written_under_a_git_folder(tmp_path: Path, rel: str) -> None:
    ws = tmp_path / "ws"
    (ws / ".git/hooks").mkdir(parents=True)
    (ws / ".git/config").write_text("[core]\n")
    with pytest.raises(WriteRefused, match=r"inside a `\.git` folder"):
        write_inside(ws, rel, b"[core]\n\thooksPath = /tmp\n", make_folders=True)
    assert (ws / ".git/config").read_text() == "[core]\n"
    assert not (ws / "sub").exists()


def test_nothing_is_written_inside_a_python_environment(ws_root: Path) -> None:
    for rel in (".venv/bin/activate", ".venv/bin/new-script"):
        with pytest.raises(WriteRefused, match=r"\.venv, a Python environment"):
            write_inside(ws_root, rel, b"touch /tmp/x\n")
        with pytest.raises(WriteRefused, match="Python environment"):
            append_line_durably(ws_root / rel, "touch /tmp/x", root=ws_root)
    (ws_root / "conda/conda-meta").mkdir(parents=True)
    with pytest.raises(WriteRefused, match="Python environment"):
        write_inside(ws_root, "conda/bin/python", b"x", make_folders=True)
    assert (ws_root / ".venv/bin/activate").read_text() == ACTIVATE
    assert not (ws_root / ".venv/bin/new-script").exists()


# --- git-ignored files ----------------------------------------------------------------------------


def test_an_existing_git_ignored_file_is_never_written(ws_root: Path) -> None:
    _repo(ws_root)
    (ws_root / ".gitignore").write_text(".env\nbuild/\n.voyage/\n")
    (ws_root / ".env").write_text("TOKEN=secret\n")
    ws = Workspace.load(ws_root)
    with pytest.raises(WriteRefused, match="git ignores"):
        write_file(ws, ".env", b"TOKEN=stolen\n")
    with pytest.raises(WriteRefused, match="git ignores"):
        append_line(ws, ".env", "EXTRA=1")
    assert (ws_root / ".env").read_text() == "TOKEN=secret\n"
    # What the tool makes itself is fine: a new file, and its own folder.
    write_file(ws, "build/diff.md", b"new\n", make_folders=True)
    # Once there, it is an ignored file like any other: the tool keeps no list of what it made
    # (a list a branch could plant), so it asks to have it removed first.
    with pytest.raises(WriteRefused, match="git ignores"):
        write_file(ws, "build/diff.md", b"again\n")
    write_file(ws, ".voyage/triage.json", b"{}\n", make_folders=True)
    write_file(ws, ".voyage/triage.json", b"{}\n")
    assert (ws_root / ".voyage/triage.json").read_text() == "{}\n"


# --- every writer of the engine goes through the workspace writer --------------------------------


def test_the_editor_does_not_save_through_a_symlink_inside(ws_root: Path) -> None:
    real = ws_root / "fixtures/notes-real.md"
    real.write_text("keep\n")
    (ws_root / "fixtures/notes.md").symlink_to("notes-real.md")
    ws = Workspace.load(ws_root)
    opened = open_file(ws, "fixtures/notes.md")
    assert not isinstance(opened, str)
    with pytest.raises(WriteRefused, match="symlink"):
        save_file(ws, opened, "changed\n")
    assert real.read_text() == "keep\n"


ATOMIC_WRITERS = ("write_inside", "append_line_durably", "append_lines_durably")


def test_only_the_workspace_writer_calls_the_atomic_writers() -> None:
    """One place decides what may be written (workspace/writes.py); a new writer elsewhere would
    skip git's ignores."""
    package = Path(__file__).resolve().parents[2] / "voyage_tui"
    allowed = {"engine/atomic.py", "engine/workspace/writes.py"}
    offenders = []
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).as_posix()
        if rel in allowed:
            continue
        text = path.read_text()
        if any(f"{name}(" in text for name in ATOMIC_WRITERS):
            offenders.append(rel)
    assert offenders == []


# --- recovery files: outside the workspace, never lost to a long name ----------------------------


def test_a_recovery_file_is_written_for_a_path_of_any_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.app.resilience import write_recovery

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    long_rel = "/".join(["f" * 200] * 10) + "/task.yaml"
    [(rel, path)] = write_recovery([(long_rel, "typed text\n")])
    assert rel == long_rel
    assert path.read_text() == "typed text\n"
    assert len(path.name.encode()) <= 255


# --- the tool's own folder ------------------------------------------------------------------------


def test_the_state_folder_the_tool_makes_is_ignored_by_git(ws_root: Path) -> None:
    from voyage_tui.engine.ratings.lock import RaterLock

    _repo(ws_root)
    ws = Workspace.load(ws_root)
    write_file(ws, ".voyage/drafts/d.json", b"{}\n", make_folders=True)
    with RaterLock.take(ws, "carol"):
        pass
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", ".voyage"],
        cwd=ws_root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert status == ""
    assert (ws_root / ".voyage/drafts/d.json").is_file()


def test_a_state_folder_made_by_someone_else_is_left_as_it_is(ws_root: Path) -> None:
    (ws_root / ".voyage").mkdir()
    write_file(Workspace.load(ws_root), ".voyage/triage.json", b"{}\n", make_folders=True)
    assert not (ws_root / ".voyage/.gitignore").exists()
