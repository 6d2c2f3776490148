"""Retiring a holdout: only the visibility value changes, the mode stays, one file is committed."""

from __future__ import annotations

import errno
import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.git.conftest import CANARY, CONTRIBUTOR, Repo, base_files, holdout_yaml
from voyage_tui.engine.git.exposure import Signal
from voyage_tui.engine.git.retire import RetireError, retire_holdout, retired_bytes
from voyage_tui.engine.workspace.model import Workspace

H1 = "fixtures/bug-diagnosis/h1/task.yaml"

ORIGINAL = (
    "\ufeff# canary: " + CANARY + "\r\n"
    "# Holdout: do not show this to the agent team.\r\n"
    "id: h1\r\n"
    "class: bug-diagnosis\r\n"
    "prompt: 'The exporter drops rows: fix it.'   # quoted, with a comment\r\n"
    "ground_truth: |\r\n"
    "  visibility: holdout is not a key in here\r\n"
    "  Rows with semicolons survive.\r\n"
    "expected_boundary: unit\r\n"
    'visibility:   "holdout"   # retire when seen\r\n'
    "scoring_notes:\r\n"
    "  correctness: visibility holdout\r\n"
).encode("utf-8")


def test_only_the_value_changes_every_other_byte_stays(repo: Repo) -> None:
    repo.write(base_files() | {H1: ORIGINAL})
    path = repo.root / H1
    os.chmod(path, 0o600)
    result = retire_holdout(Workspace.load(repo.root), H1)
    after = path.read_bytes()
    assert after == ORIGINAL.replace(b'"holdout"   #', b'"public"   #')
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert result.commit is None and result.id == "h1"
    assert not list(path.parent.glob(".task.yaml.*"))  # no temp file left behind


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("visibility: holdout", "visibility: public"),
        ("visibility: 'holdout'", "visibility: 'public'"),
        ("visibility:\tholdout\t# tab", "visibility:\tpublic\t# tab"),
        ('"visibility": holdout', '"visibility": public'),
    ],
)
def test_quoting_styles_are_kept(line: str, expected: str) -> None:
    text = f"id: h1\n{line}\nprompt: p\n"
    assert retired_bytes(text.encode()) == f"id: h1\n{expected}\nprompt: p\n".encode()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("id: p1\nvisibility: public\n", "not a holdout"),
        ("id: h1\nprompt: p\n", "no top-level `visibility:`"),
        (
            "id: h1\nvisibility: holdout\nprompt: p\nvisibility: holdout\n",
            "appears 2 times (lines 2, 4)",
        ),
        ("id: h1\nvisibility: !!str holdout\n", "by hand"),
        ("base: &v holdout\nvisibility: *v\n", "by hand"),
        ("- visibility: holdout\n", "not a mapping"),
        ("id: [unclosed\nvisibility: holdout\n", "fix it first"),
    ],
)
def test_refusals_leave_the_file_alone(repo: Repo, text: str, why: str) -> None:
    repo.write(base_files() | {H1: text})
    with pytest.raises(RetireError) as caught:
        retire_holdout(Workspace.load(repo.root), H1)
    assert why in str(caught.value)
    assert (repo.root / H1).read_text() == text


def test_the_commit_holds_exactly_that_file(repo: Repo) -> None:
    repo.commit(base_files() | {H1: holdout_yaml("h1")})
    repo.write({"other.txt": "staged, not part of the retire\n", "README.txt": "changed\n"})
    repo.git("add", "other.txt")
    signals = [
        Signal("co-change", "a" * 40, "Bob Builder <bob@agents.example>", "changed it with agent/x")
    ]
    result = retire_holdout(Workspace.load(repo.root), H1, commit=True, signals=signals)
    assert result.commit_error is None
    assert result.commit == repo.git("rev-parse", "HEAD")
    assert repo.git("show", "--name-only", "--format=", "HEAD").splitlines() == [H1]
    message = repo.git("log", "-1", "--format=%B")
    assert message.startswith("Retire holdout h1: exposed (co-change)")
    assert "changed it with agent/x" in message
    assert repo.git("diff", "--cached", "--name-only").splitlines() == ["other.txt"]
    assert "visibility: public" in repo.git("show", f"HEAD:{H1}")
    assert CANARY in repo.git("show", f"HEAD:{H1}")


def test_an_untracked_holdout_is_added_and_committed_alone(repo: Repo) -> None:
    repo.commit(base_files())
    repo.write({H1: holdout_yaml("h1"), "stray.txt": "untracked\n"})
    result = retire_holdout(Workspace.load(repo.root), H1, commit=True)
    assert result.commit is not None
    assert repo.git("show", "--name-only", "--format=", "HEAD").splitlines() == [H1]
    assert repo.git("status", "--porcelain", "--", "stray.txt") == "?? stray.txt"


def test_a_failed_commit_is_reported_after_the_write(tmp_path) -> None:
    plain = Repo(tmp_path / "plain")
    plain.write(base_files() | {H1: holdout_yaml("h1")})
    result = retire_holdout(Workspace.load(plain.root), H1, commit=True)
    assert result.commit is None and result.commit_error
    assert "visibility: public" in (plain.root / H1).read_text()


def test_the_message_names_fixture_and_signals_by_commit(repo: Repo) -> None:
    repo.commit(base_files() | {H1: holdout_yaml("h1")})
    foreign = repo.commit({H1: holdout_yaml("h1") + "# edit\n"}, who=CONTRIBUTOR)
    repo.write({"voyage.toml": '[holdout]\ncustodians = ["cora@evals.example"]\n'})
    from voyage_tui.engine.git.exposure import compute_exposure
    from voyage_tui.engine.validation.suite import Suite

    suite = Suite.open(repo.root, use_git=False)
    report = compute_exposure(suite.ws, suite.items.values())
    signals = report.by_path()[H1].signals
    result = retire_holdout(suite.ws, H1, commit=True, signals=signals)
    assert result.message is not None
    assert "foreign-author" in result.message.splitlines()[0]
    assert foreign[:12] in result.message


# --- writes and reads that stay inside the workspace ---------------------------------------------


def _retire_cli(capsys: pytest.CaptureFixture[str], root: Path, fixture_id: str) -> tuple[int, str]:
    from voyage_tui.cli import main

    code = main(["exposure", str(root), "--retire", fixture_id])
    _, err = capsys.readouterr()
    return code, err


def test_retire_refuses_a_task_yaml_symlinked_out_of_the_workspace(
    repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(base_files())
    outside = tmp_path / "elsewhere" / "task.yaml"
    outside.parent.mkdir()
    outside.write_text(holdout_yaml("h1"))
    link = repo.root / H1
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    code, err = _retire_cli(capsys, repo.root, "h1")
    assert code == 1
    assert "was not changed" in err and "outside the workspace" in err
    assert outside.read_text() == holdout_yaml("h1")
    assert link.is_symlink() and os.readlink(link) == str(outside)


def test_retire_refuses_a_task_yaml_in_a_folder_symlinked_out(
    repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(base_files())
    outside = tmp_path / "elsewhere" / "h1"
    outside.mkdir(parents=True)
    (outside / "task.yaml").write_text(holdout_yaml("h1"))
    (repo.root / "fixtures/bug-diagnosis").mkdir(parents=True)
    (repo.root / "fixtures/bug-diagnosis/h1").symlink_to(outside)
    with pytest.raises(RetireError, match="outside the workspace"):
        retire_holdout(Workspace.load(repo.root), H1)
    assert (outside / "task.yaml").read_text() == holdout_yaml("h1")


def test_retire_of_a_task_yaml_linked_to_dev_zero_is_refused_quickly(repo: Repo) -> None:
    repo.write(base_files())
    link = repo.root / H1
    link.parent.mkdir(parents=True)
    link.symlink_to("/dev/zero")

    def limit_memory() -> None:  # an unbounded read fails here instead of filling the machine
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", "exposure", str(repo.root), "--retire", "h1"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit_memory,
        check=False,
    )
    assert time.monotonic() - started < 30
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "was not changed" in proc.stderr and "outside the workspace" in proc.stderr


def test_retire_into_a_read_only_folder_is_a_clean_refusal(
    repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(base_files() | {H1: holdout_yaml("h1")})
    folder = repo.root / H1.rsplit("/", 1)[0]
    real_open = os.open

    # Root writes into a 0555 folder anyway, so the refusal the OS would give is made here.
    def refusing_open(path, flags, mode=0o777, *, dir_fd=None):  # type: ignore[no-untyped-def]
        where = os.path.dirname(os.fsdecode(path))
        if dir_fd is not None:
            where = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), where)
        if flags & os.O_CREAT and os.path.realpath(where) == str(folder.resolve()):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", refusing_open)
    os.chmod(folder, 0o555)
    try:
        code, err = _retire_cli(capsys, repo.root, "h1")
    finally:
        os.chmod(folder, 0o755)
    assert code == 1
    assert f"{H1} was not changed" in err and "permission denied" in err.lower()
    assert (repo.root / H1).read_text() == holdout_yaml("h1")
    assert sorted(p.name for p in folder.iterdir()) == ["task.yaml"]
