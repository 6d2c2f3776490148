"""Which repository is opened: the one a `.git` entry names (folder or gitfile), or `[git] repo`;
never one the environment or a look-alike folder would make git pick."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.conftest import CANARY, CONTRIBUTOR, TRAJECTORY, Repo, base_files, holdout_yaml
from voyage_tui.cli import main
from voyage_tui.engine.git.repo import GitUnavailable, find_repository, locate

H1 = "fixtures/bug-diagnosis/h1/task.yaml"
CONFIG = '[holdout]\ncustodians = ["cora@evals.example"]\n'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def exposed(repo: Repo) -> Repo:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    repo.commit({H1: holdout_yaml("h1") + "# x\n"}, who=CONTRIBUTOR)
    return repo


def test_a_linked_worktree_is_found_through_its_gitfile(
    exposed: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    linked = tmp_path / "linked"
    exposed.git("worktree", "add", "-q", str(linked), "-b", "side")
    found = find_repository(str(linked / "fixtures"))
    assert found is not None and found.work_tree == str(linked.resolve())
    assert Path(found.git_dir).resolve() == (exposed.root / ".git/worktrees/linked").resolve()
    code, out, _ = run(capsys, "exposure", str(linked))
    assert code == 1 and "foreign-author" in out


def test_git_dir_in_the_environment_does_not_change_the_repository(
    exposed: Repo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    other = Repo(tmp_path / "other").init()
    other.commit({"x.txt": "x\n"})
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other.root))
    code, out, _ = run(capsys, "exposure", str(exposed.root))
    assert code == 1 and "foreign-author" in out


def test_a_broken_gitfile_is_an_unreadable_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "ws"
    Repo(root).write(base_files(CONFIG) | {H1: holdout_yaml("h1"), "docs/n.txt": CANARY + "\n"})
    (root / ".git").write_text("gitdir: nowhere\n")
    code, out, _ = run(capsys, "exposure", str(root))
    assert code == 2
    assert "canary-leak" in out and "exposure-history-unreadable" in out


def test_a_bare_repository_outside_the_workspace_may_be_named(repo: Repo, tmp_path: Path) -> None:
    repo.commit(base_files())
    bare = tmp_path / "project.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(bare), cwd=tmp_path)
    found = locate(str(bare), bare_ok=True, workspace=str(repo.root))
    assert found.work_tree is None
    with pytest.raises(GitUnavailable) as refused:
        locate(str(bare))  # only [git] repo, set by hand, opens a bare repository
    assert refused.value.code == "git-no-repository"
    assert "looks like a bare repository" in refused.value.message


def test_a_bare_repository_inside_another_work_tree_is_refused(
    repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sha = repo.commit(base_files())
    checkout = Repo(tmp_path / "checkout").init()
    checkout.commit({"README": "x\n"})
    repo.git("clone", "-q", "--bare", str(repo.root), str(checkout.root / "vendored.git"))
    with pytest.raises(GitUnavailable) as refused:
        locate(str(checkout.root / "vendored.git"), bare_ok=True, workspace=str(repo.root))
    assert refused.value.code == "git-embedded-repository"
    # the `.git` folder of a repository is not such a folder
    assert locate(str(repo.root / ".git"), bare_ok=True).git_dir == str(
        (repo.root / ".git").resolve()
    )
    repo.write(
        {
            "voyage.toml": f'[git]\nrepo = "{repo.root / ".git"}"\n',
            "fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha=sha),
        }
    )
    _, out, _ = run(capsys, "validate", str(repo.root), "--format", "json")
    assert '"sha-' not in out and '"git-' not in out, out
