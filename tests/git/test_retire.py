"""Retiring a holdout: only the visibility value changes, the mode stays, one file is committed."""

from __future__ import annotations

import os
import stat

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
