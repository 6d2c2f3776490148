"""`final_head_sha` against real repositories: every case of docs/git-checks.md."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.git.conftest import TRAJECTORY, Repo, base_files, build_once, copy_repo
from voyage_tui.engine.git import repo as git_repo
from voyage_tui.engine.git.checks import GIT_CODES
from voyage_tui.engine.validation.suite import Suite

SHA_POS = (10, 17)  # `final_head_sha: <sha>` is line 10 of TRAJECTORY; the value starts at 17
MISSING = "deadbeef" * 5


def trajectory(fixture_id: str, sha: str) -> dict[str, str]:
    return {
        f"fixtures/trajectories/{fixture_id}/task.yaml": TRAJECTORY.format(id=fixture_id, sha=sha)
    }


def git_diags(suite: Suite, path: str | None = None):
    return [
        d
        for d in suite.diagnostics()
        if (d.code in GIT_CODES or d.code.startswith("git-") or d.code.startswith("sha-"))
        and (path is None or d.path == path)
    ]


def one(suite: Suite, fixture_id: str):
    found = git_diags(suite, f"fixtures/trajectories/{fixture_id}/task.yaml")
    assert len(found) <= 1, found
    return found[0] if found else None


@pytest.fixture(scope="module")
def history_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return build_once(tmp_path_factory, _history)


@pytest.fixture
def history(repo: Repo, history_template: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """A repository with two commits on main, a tag, a dangling commit and the SHAs of a tree and
    a blob (built once, copied for each test)."""
    template, shas = history_template
    copy_repo(template, repo.root)
    return dict(shas)


def _history(repo: Repo) -> dict[str, str]:
    first = repo.commit(base_files(), message="first")
    second = repo.commit({"src/app.py": "print('hi')\n"}, message="second")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    blob = repo.git("rev-parse", "HEAD:src/app.py")
    dangling = repo.git("commit-tree", tree, "-p", second, "-m", "dangling")
    repo.git("tag", "-a", "v1", "-m", "release", first)
    tag_object = repo.git("rev-parse", "v1")
    return {
        "first": first,
        "second": second,
        "tree": tree,
        "blob": blob,
        "dangling": dangling,
        "tag": tag_object,
    }


def test_a_reachable_full_sha_is_clean(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("ok", history["second"]) | trajectory("old", history["first"]))
    suite = Suite.open(repo.root)
    assert git_diags(suite) == []


def test_an_abbreviation_is_only_the_format_error(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("short", history["second"][:12]))
    suite = Suite.open(repo.root)
    codes = [d.code for d in suite.diagnostics_for("fixtures/trajectories/short/task.yaml")]
    assert "sha-abbreviated" in codes
    assert [d for d in git_diags(suite) if d.code != "sha-abbreviated"] == []


def test_a_sha_naming_nothing_is_an_error_at_the_value(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("gone", MISSING))
    d = one(Suite.open(repo.root), "gone")
    assert d is not None and d.code == "sha-not-found" and d.severity.value == "error"
    assert (d.line, d.column) == SHA_POS
    assert MISSING in d.message


@pytest.mark.parametrize("kind", ["tree", "blob", "tag"])
def test_a_sha_naming_a_non_commit_is_an_error(
    repo: Repo, history: dict[str, str], kind: str
) -> None:
    repo.write(trajectory("wrong", history[kind]))
    d = one(Suite.open(repo.root), "wrong")
    assert d is not None and d.code == "sha-not-commit" and d.severity.value == "error"
    assert f"names a {kind}" in d.message
    assert (d.line, d.column) == SHA_POS


def test_an_unreachable_commit_is_a_warning(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("lost", history["dangling"]))
    d = one(Suite.open(repo.root), "lost")
    assert d is not None and d.code == "sha-unreachable" and d.severity.value == "warning"
    assert (d.line, d.column) == SHA_POS


def test_a_commit_reachable_only_from_a_tag_or_a_detached_head_is_fine(
    repo: Repo, history: dict[str, str]
) -> None:
    repo.git("tag", "keep", history["dangling"])
    repo.write(trajectory("tagged", history["dangling"]))
    assert one(Suite.open(repo.root), "tagged") is None
    repo.git("tag", "-d", "keep")
    repo.git("checkout", "-q", "--detach", history["dangling"])
    assert one(Suite.open(repo.root), "tagged") is None


def test_uppercase_hex_is_the_same_commit(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("upper", history["second"].upper()))
    assert one(Suite.open(repo.root), "upper") is None


def test_no_repository_is_one_clear_warning(tmp_path: Path) -> None:
    plain = Repo(tmp_path / "plain")
    plain.write(base_files() | trajectory("a", MISSING) | trajectory("b", "ab" * 20))
    suite = Suite.open(plain.root)
    found = git_diags(suite)
    assert [d.code for d in found] == ["git-no-repository"]
    assert found[0].severity.value == "warning"
    assert "2 trajectory SHAs unchecked" in found[0].message
    assert "--no-git" in found[0].message


def test_a_configured_repo_that_does_not_exist(tmp_path: Path) -> None:
    plain = Repo(tmp_path / "plain")
    plain.write(base_files('[git]\nrepo = "../nowhere"\n') | trajectory("a", MISSING))
    found = git_diags(Suite.open(plain.root))
    assert [d.code for d in found] == ["git-no-repository"]
    assert found[0].path == "voyage.toml"
    assert "[git] repo" in found[0].message


def test_no_git_skips_every_git_check(repo: Repo, history: dict[str, str]) -> None:
    repo.write(trajectory("gone", MISSING))
    assert git_diags(Suite.open(repo.root, use_git=False)) == []


def test_a_shallow_clone_lacking_the_commit_warns(
    tmp_path: Path, repo: Repo, history: dict[str, str]
) -> None:
    clone = Repo(tmp_path / "clone")
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone.root), cwd=tmp_path)
    clone.write(
        trajectory("old", history["first"])
        | trajectory("new", history["second"])
        | trajectory("gone", MISSING)
    )
    suite = Suite.open(clone.root)
    old = one(suite, "old")
    assert old is not None and old.code == "sha-shallow-missing" and old.severity.value == "warning"
    assert "--unshallow" in old.message
    assert one(suite, "new") is None
    gone = one(suite, "gone")  # in a shallow clone, missing cannot be told from beyond the depth
    assert gone is not None and gone.code == "sha-shallow-missing"


def test_a_bare_repository_as_git_repo_answers(
    tmp_path: Path, repo: Repo, history: dict[str, str]
) -> None:
    bare = tmp_path / "project.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(bare), cwd=tmp_path)
    ws = Repo(tmp_path / "evals")
    ws.write(
        base_files('[git]\nrepo = "../project.git"\n')
        | trajectory("ok", history["second"])
        | trajectory("gone", MISSING)
    )
    suite = Suite.open(ws.root)
    assert one(suite, "ok") is None
    gone = one(suite, "gone")
    assert gone is not None and gone.code == "sha-not-found"
    assert "`../project.git`" in gone.message


def test_a_corrupt_object_is_a_warning_not_a_crash(repo: Repo, history: dict[str, str]) -> None:
    sha = history["dangling"]
    loose = repo.root / ".git" / "objects" / sha[:2] / sha[2:]
    assert loose.exists()
    loose.chmod(0o644)
    loose.write_bytes(b"this is not zlib data")
    repo.write(trajectory("broken", sha) | trajectory("fine", history["second"]))
    suite = Suite.open(repo.root)
    d = one(suite, "broken")
    assert d is not None and d.code == "sha-unreadable" and d.severity.value == "warning"
    assert one(suite, "fine") is None


def test_sha256_repositories_take_64_digits(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "ws256")
    repo.root.mkdir()
    if subprocess.run(
        ["git", "init", "-q", "--object-format=sha256", "-b", "main"], cwd=repo.root
    ).returncode:
        pytest.skip("this git cannot create SHA-256 repositories")
    repo.git("config", "user.name", "Fixed Tester")
    repo.git("config", "user.email", "tester@example.invalid")
    head = repo.commit(base_files())
    assert len(head) == 64
    repo.write(trajectory("long", head) | trajectory("forty", "ab" * 20))
    suite = Suite.open(repo.root)
    assert one(suite, "long") is None
    d = one(suite, "forty")
    assert d is not None and d.code == "sha-wrong-algorithm"
    assert "SHA-256" in d.message


def test_all_shas_are_checked_in_one_batch(
    repo: Repo, history: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files: dict[str, str] = {}
    for n in range(25):
        files |= trajectory(
            f"t{n}", [history["first"], history["second"], MISSING, history["dangling"]][n % 4]
        )
    repo.write(files)
    calls: list[list[str]] = []
    original = git_repo.GitRepo.start

    def counting(self, args, stdin=None):
        calls.append(args)
        return original(self, args, stdin)

    monkeypatch.setattr(git_repo.GitRepo, "start", counting)
    suite = Suite.open(repo.root)
    commands = [c[0] for c in calls]
    assert commands == ["rev-parse", "cat-file", "rev-list"]
    assert sum(1 for d in git_diags(suite) if d.code == "sha-not-found") == 6
    assert sum(1 for d in git_diags(suite) if d.code == "sha-unreachable") == 6


def test_revalidate_asks_git_only_about_new_shas(
    repo: Repo, history: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write(trajectory("a", history["second"]) | trajectory("b", MISSING))
    suite = Suite.open(repo.root)
    assert one(suite, "b").code == "sha-not-found"
    calls: list[list[str]] = []
    original = git_repo.GitRepo.start
    monkeypatch.setattr(
        git_repo.GitRepo,
        "start",
        lambda self, a, stdin=None: calls.append(a) or original(self, a, stdin),
    )
    # an untouched item keeps its result; a touched one is re-annotated from the cache
    suite.revalidate(["fixtures/trajectories/a/task.yaml"])
    assert calls == []
    assert one(suite, "b").code == "sha-not-found"
    repo.write(trajectory("a", history["dangling"]))
    suite.revalidate(["fixtures/trajectories/a/task.yaml"])
    assert [c[0] for c in calls] == ["rev-parse", "cat-file", "rev-list"]
    assert one(suite, "a").code == "sha-unreachable"
    repo.write(trajectory("b", history["second"]))
    suite.revalidate(["fixtures/trajectories/b/task.yaml"])
    assert one(suite, "b") is None
    # a journey change re-checks every trajectory: results come back without asking git
    calls.clear()
    suite.revalidate(["references/journey.md"])
    assert one(suite, "a").code == "sha-unreachable"
    assert calls == []


def test_git_missing_from_path_is_a_warning(
    repo: Repo, history: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from git import Git

    repo.write(trajectory("a", history["second"]))
    monkeypatch.setattr(Git, "GIT_PYTHON_GIT_EXECUTABLE", str(repo.root / "no-such-git"))
    found = git_diags(Suite.open(repo.root))
    assert [d.code for d in found] == ["git-unavailable"]
    assert shutil.which("git")  # the real one is still there for the other tests


def test_a_partial_clone_fetches_nothing_and_answers_every_sha(
    repo: Repo, history: dict[str, str], tmp_path: Path
) -> None:
    # A missing object makes git try its promisor remote; nothing may be fetched, and cat-file
    # may die on that object: the SHAs after it are still answered, the same way every time.
    upstream = Repo(tmp_path / "upstream").init()
    upstream.commit({"x.txt": "x\n"})
    repo.git("config", "core.repositoryFormatVersion", "1")
    repo.git("config", "extensions.partialClone", "origin")
    repo.git("remote", "add", "origin", f"file://{upstream.root}")
    repo.git("config", "remote.origin.promisor", "true")
    other = "feedface" * 5
    repo.write(
        trajectory("gone", MISSING)
        | trajectory("ok", history["second"])
        | trajectory("other", other)
        | trajectory("blob", history["blob"])
    )
    for _ in range(5):
        suite = Suite.open(repo.root)
        assert one(suite, "gone").code == "sha-not-fetched"
        assert one(suite, "other").code == "sha-not-fetched"
        assert "partial clone" in one(suite, "gone").message
        assert one(suite, "ok") is None
        assert one(suite, "blob").code == "sha-not-commit"
    assert repo.git("cat-file", "-t", history["second"]) == "commit"
    assert not (repo.root / ".git" / "FETCH_HEAD").exists()
