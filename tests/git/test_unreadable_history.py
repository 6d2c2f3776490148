"""Histories that prove less than they seem: a shallow clone's cut, and a repository git cannot
read. Neither may pass as "0 exposed"; both still report what the work tree proves."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

import pytest

from tests.git.conftest import (
    CANARY,
    CONTRIBUTOR,
    Repo,
    base_files,
    build_once,
    copy_repo,
    holdout_yaml,
)
from voyage_tui.cli import main
from voyage_tui.engine.git.exposure import ExposureReport, compute_exposure
from voyage_tui.engine.validation.suite import Suite

H1 = "fixtures/bug-diagnosis/h1/task.yaml"
LEAK = "docs/leak.txt"
CONFIG = '[holdout]\ncustodians = ["cora@evals.example"]\nbundle_paths = ["agent/**"]\n'


def exposure(root: Path) -> ExposureReport:
    suite = Suite.open(root, use_git=False)
    return compute_exposure(suite.ws, suite.items.values())


def kinds(report: ExposureReport, path: str = H1) -> list[str]:
    return [s.kind for s in report.by_path()[path].signals]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- shallow clones -----------------------------------------------------------------------------


def _upstream(repo: Repo) -> None:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1"), "agent/prompt.txt": "v1\n"})
    repo.commit({LEAK: f"notes\n{CANARY}\n"})
    repo.commit({"src/a.txt": "a\n"}, who=CONTRIBUTOR)


@pytest.fixture(scope="module")
def upstream_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, _upstream)[0]


@pytest.fixture
def upstream(repo: Repo, upstream_template: Path) -> Repo:
    """h1 committed by a custodian alone, then a leak of its canary, then unrelated commits
    (built once, copied for each test)."""
    copy_repo(upstream_template, repo.root)
    return repo


def clone(upstream: Repo, tmp_path: Path, depth: int) -> Repo:
    copy = Repo(tmp_path / f"clone-{depth}")
    upstream.git(
        "clone",
        "-q",
        "--depth",
        str(depth),
        f"file://{upstream.root}",
        str(copy.root),
        cwd=tmp_path,
    )
    return copy


def test_a_depth_1_clone_blames_nothing_on_its_cut(upstream: Repo, tmp_path: Path) -> None:
    # The one commit of the clone shows every file as added, by the last author (a
    # non-custodian, together with the bundle): that proves nothing about who changed h1.
    report = exposure(clone(upstream, tmp_path, 1).root)
    assert kinds(report) == ["canary-leak"]  # what the work tree proves
    leak = report.by_path()[H1].signals[0]
    assert leak.commit is None and leak.author is None
    assert "shallow" in leak.detail and f"{LEAK}:2" in leak.detail
    warnings = dict(report.warnings)
    assert "exposure-shallow" in warnings and "prove nothing" in warnings["exposure-shallow"]


def test_commits_after_the_cut_still_count(upstream: Repo, tmp_path: Path) -> None:
    sha = upstream.commit(
        {H1: holdout_yaml("h1") + "# edit\n", "agent/prompt.txt": "v2\n"}, who=CONTRIBUTOR
    )
    report = exposure(clone(upstream, tmp_path, 2).root)
    history = [(s.kind, s.commit) for s in report.by_path()[H1].signals if s.commit]
    assert history == [("foreign-author", sha), ("co-change", sha)]
    assert "canary-leak" in kinds(report)


def test_validate_in_a_depth_1_clone(
    upstream: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "validate", str(clone(upstream, tmp_path, 1).root), "--format", "json"
    )
    assert "Traceback" not in err and code == 1
    found = json.loads(out)["diagnostics"]
    exposed = [d for d in found if d["code"] == "holdout-exposed"]
    assert len(exposed) == 1 and "canary-leak" in exposed[0]["message"]
    assert (
        "foreign-author" not in exposed[0]["message"] and "co-change" not in exposed[0]["message"]
    )
    assert "exposure-shallow" in [d["code"] for d in found]


# --- repositories git cannot read -----------------------------------------------------------------


def _leaky(repo: Repo) -> None:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    repo.commit({LEAK: f"notes\n{CANARY}\n"})
    repo.commit({"src/a.txt": "a\n"})
    repo.git("tag", "v1")
    repo.git("pack-refs", "--all")


@pytest.fixture(scope="module")
def leaky_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, _leaky)[0]


@pytest.fixture
def leaky(repo: Repo, leaky_template: Path) -> Repo:
    """Three commits, the canary leaked in the second, refs packed (built once, copied for each
    test: each damages its own copy)."""
    copy_repo(leaky_template, repo.root)
    return repo


def loose_object(repo: Repo, rev: str) -> Path:
    sha = repo.git("rev-parse", rev)
    path = repo.root / ".git" / "objects" / sha[:2] / sha[2:]
    assert path.exists()
    path.chmod(0o644)
    return path


def bad_head(repo: Repo) -> None:
    (repo.root / ".git" / "HEAD").write_text("garbage\n")


def missing_commit(repo: Repo) -> None:
    loose_object(repo, "HEAD~1").unlink()


def corrupt_commit(repo: Repo) -> None:
    loose_object(repo, "HEAD~1").write_bytes(b"not zlib at all")


def corrupt_tree(repo: Repo) -> None:
    loose_object(repo, "HEAD~1^{tree}").write_bytes(zlib.compress(b"tree 9\0garbage!!"))


def broken_packed_refs(repo: Repo) -> None:
    with open(repo.root / ".git" / "packed-refs", "a") as handle:
        handle.write("this is not a ref line\n")


def corrupt_index(repo: Repo) -> None:
    (repo.root / ".git" / "index").write_bytes(b"DIRC garbage")


DAMAGE = [bad_head, missing_commit, corrupt_commit, corrupt_tree, broken_packed_refs, corrupt_index]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_exposure_does_not_pass_when_the_repository_cannot_be_read(
    leaky: Repo, damage, capsys: pytest.CaptureFixture[str]
) -> None:
    damage(leaky)
    code, out, err = run(capsys, "exposure", str(leaky.root), "--format", "json")
    assert "Traceback" not in err
    assert code == 2, out
    data = json.loads(out)
    assert data["history_error"]
    assert "exposure-history-unreadable" in [w["code"] for w in data["warnings"]]
    # the leak the work tree shows is still reported
    [entry] = data["exposed"]
    assert [s["kind"] for s in entry["signals"]] == ["canary-leak"]
    assert f"{LEAK}:2" in entry["signals"][0]["detail"]
    code, out, _ = run(capsys, "exposure", str(leaky.root))
    assert code == 2 and "warning exposure-history-unreadable" in out


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_validate_warns_when_the_repository_cannot_be_read(
    leaky: Repo, damage, capsys: pytest.CaptureFixture[str]
) -> None:
    (leaky.root / "fixtures/trajectories").mkdir(parents=True)
    damage(leaky)
    code, out, err = run(capsys, "validate", str(leaky.root), "--format", "json")
    assert "Traceback" not in err
    found = json.loads(out)["diagnostics"]
    codes = [d["code"] for d in found]
    assert "exposure-history-unreadable" in codes
    warning = next(d for d in found if d["code"] == "exposure-history-unreadable")
    assert warning["severity"] == "warning"
    assert code == 1  # the canary leak found in the work tree is an error


def test_a_repository_without_git_installed_does_not_pass(
    leaky: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from git import Git

    monkeypatch.setattr(Git, "GIT_PYTHON_GIT_EXECUTABLE", str(leaky.root / "no-such-git"))
    code, out, _ = run(capsys, "exposure", str(leaky.root))
    assert code == 2 and "canary-leak" in out
    assert os.path.exists(leaky.root / ".git")


def _clean(repo: Repo) -> None:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    repo.commit({"src/a.txt": "a\n"})
    repo.commit({"src/b.txt": "b\n"})


@pytest.fixture(scope="module")
def clean_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, _clean)[0]


@pytest.fixture
def clean(repo: Repo, clean_template: Path) -> Repo:
    """A holdout nobody leaked: only the history could prove otherwise (built once, copied for
    each test)."""
    copy_repo(clean_template, repo.root)
    return repo


@pytest.mark.parametrize("damage", [missing_commit, corrupt_commit], ids=lambda f: f.__name__)
def test_triage_does_not_pass_when_the_history_cannot_be_read(
    clean: Repo, damage, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "triage", str(clean.root), "--format", "json", "--kind", "exposed")
    assert code in (0, 1) and json.loads(out)["counts"]["exposed"] == 0
    damage(clean)
    code, out, err = run(capsys, "triage", str(clean.root), "--format", "json", "--kind", "exposed")
    assert "Traceback" not in err
    assert code == 2, (out, err)
    assert "history" in err and "cannot pass" in err
    json.loads(out)  # the queue is still printed
