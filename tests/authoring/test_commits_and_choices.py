"""What the wizard offers: recent commits (one git process), revisions resolved to full SHAs,
the classes with a line each, the routing table's specialists."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.conftest import CONTRIBUTOR, Repo
from voyage_tui.engine.authoring import (
    CLASS_CHOICES,
    Authoring,
    RevisionError,
)
from voyage_tui.engine.authoring.choices import routing_specialists
from voyage_tui.engine.formats.vocabulary import CLASSES
from voyage_tui.engine.git import repo as repo_module
from voyage_tui.engine.git.repo import GitUnavailable


def test_recent_commits_come_from_one_git_log(
    git_sample: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = git_sample.commit(
        {"notes.txt": "x"}, who=CONTRIBUTOR, message="Add notes: a subject\u00e9 with | pipes"
    )
    runs: list[list[str]] = []
    real_run = repo_module.GitRepo.run

    def counted(self: repo_module.GitRepo, args: list[str], stdin: bytes | None = None) -> object:
        runs.append(args)
        return real_run(self, args, stdin)

    monkeypatch.setattr(repo_module.GitRepo, "run", counted)
    authoring = Authoring.open(git_sample.root, use_git=False)
    commits = authoring.recent_commits()
    assert len(runs) == 1 and runs[0][0] == "log"
    assert [c.sha for c in commits] == [second, git_sample.git("rev-parse", "HEAD~1")]
    newest = commits[0]
    assert newest.subject == "Add notes: a subject\u00e9 with | pipes"
    assert newest.author == "Bob Builder <bob@agents.example>"
    assert newest.date[:4].isdigit() and "T" in newest.date
    assert len(authoring.recent_commits(limit=1)) == 1


def test_a_revision_resolves_to_the_full_sha(git_sample: Repo) -> None:
    git_sample.git("tag", "v1")
    head = git_sample.git("rev-parse", "HEAD")
    authoring = Authoring.open(git_sample.root, use_git=False)
    assert authoring.resolve_revision("HEAD") == head
    assert authoring.resolve_revision("v1") == head
    assert authoring.resolve_revision(head[:7]) == head
    tree = git_sample.git("rev-parse", "HEAD^{tree}")
    with pytest.raises(RevisionError):
        authoring.resolve_revision(tree)  # a tree is no commit
    for bad in ("nope", "", "--output=/tmp/x", "-h"):
        with pytest.raises(RevisionError):
            authoring.resolve_revision(bad)


def test_without_a_repository_git_is_unavailable_not_a_crash(sample_copy: Path) -> None:
    authoring = Authoring.open(sample_copy, use_git=False)
    with pytest.raises(GitUnavailable):
        authoring.recent_commits()
    with pytest.raises(GitUnavailable):
        authoring.resolve_revision("HEAD")


def test_a_repository_without_commits_has_no_recent_commits(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "ws").init()
    (repo.root / "fixtures").mkdir()
    assert Authoring.open(repo.root, use_git=False).recent_commits() == []


def test_a_full_sha_is_checked_against_the_repository_as_validate_does(git_sample: Repo) -> None:
    authoring = Authoring.open(git_sample.root, use_git=True)
    answers = authoring.new("trajectory")
    answers.id, answers.path, answers.prompt = "warm", "full", "Warm the cache."
    answers.terminal_state = "released"
    for gate in answers.gates:  # type: ignore[union-attr]
        gate.verdict = "pass"
    answers.final_head_sha = git_sample.git("rev-parse", "HEAD")  # type: ignore[union-attr]
    assert authoring.check(answers).diagnostics == []
    answers.final_head_sha = "0" * 40  # type: ignore[union-attr]
    assert [d.code for d in authoring.check(answers).diagnostics] == ["sha-not-found"]


def test_every_class_has_a_line_on_what_it_means() -> None:
    assert [c.value for c in CLASS_CHOICES] == list(CLASSES)
    assert all(c.meaning and "\n" not in c.meaning for c in CLASS_CHOICES)


def test_the_routing_tables_specialists_are_offered() -> None:
    text = (Path(__file__).parents[2] / "fixtures/references/routing-table.md").read_text()
    specialists = routing_specialists(text)
    assert [s.name for s in specialists][:3] == ["security-review", "data-migration", "api-compat"]
    assert len(specialists) == 10
    assert specialists[0].signal == "Authentication, sessions, tokens"
    assert specialists[0].skip_when == "the change touches no auth path"
    assert routing_specialists("# no table here\n") == []
    assert routing_specialists("| a | b |\n|---|---|\n| 1 | 2 |\n") == []
