"""`[git] branches`: when set, a `final_head_sha` must be reachable from one of those branches
(local, or remote-tracking of that name); a named branch that exists nowhere is a warning naming
it. Unset, any branch, tag, remote-tracking branch or HEAD counts (tests/git/test_sha.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.conftest import Repo, base_files, build_once, copy_repo
from tests.git.test_sha import git_diags, one, trajectory
from voyage_tui.engine.git import repo as git_repo
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.config import parse_config


@pytest.fixture(scope="module")
def feature_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return build_once(tmp_path_factory, _feature)


@pytest.fixture
def feature(repo: Repo, feature_template: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """main with one commit; `feature` one commit ahead of it, merged nowhere (built once,
    copied for each test)."""
    template, shas = feature_template
    copy_repo(template, repo.root)
    return dict(shas)


def _feature(repo: Repo) -> dict[str, str]:
    base = repo.commit(base_files(), message="base")
    repo.git("checkout", "-q", "-b", "feature")
    ahead = repo.commit({"src/feature.py": "x = 1\n"}, message="feature work")
    repo.git("checkout", "-q", "main")
    return {"base": base, "ahead": ahead}


def configure(repo: Repo, branches: str) -> None:
    repo.write({"voyage.toml": f"[git]\nbranches = {branches}\n"})


def missing_branch_warnings(suite: Suite) -> list:
    return [d for d in suite.diagnostics() if d.code == "git-branch-missing"]


def test_a_commit_only_on_another_branch_is_unreachable_from_main(
    repo: Repo, feature: dict[str, str]
) -> None:
    configure(repo, '["main"]')
    repo.write(trajectory("on-main", feature["base"]) | trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    assert one(suite, "on-main") is None
    d = one(suite, "on-feature")
    assert d is not None and d.code == "sha-unreachable" and d.severity.value == "warning"
    assert "[git] branches" in d.message and "`main`" in d.message
    assert missing_branch_warnings(suite) == []


def test_listing_the_branch_makes_it_reachable(repo: Repo, feature: dict[str, str]) -> None:
    configure(repo, '["main", "feature"]')
    repo.write(trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    assert one(suite, "on-feature") is None
    assert git_diags(suite) == []


def test_unset_any_branch_counts(repo: Repo, feature: dict[str, str]) -> None:
    repo.write(trajectory("on-feature", feature["ahead"]))
    assert one(Suite.open(repo.root), "on-feature") is None


def test_a_tag_does_not_count_when_branches_are_set(repo: Repo, feature: dict[str, str]) -> None:
    repo.git("tag", "v1", feature["ahead"])
    repo.git("branch", "-D", "feature")
    configure(repo, '["main"]')
    repo.write(trajectory("tagged", feature["ahead"]))
    d = one(Suite.open(repo.root), "tagged")
    assert d is not None and d.code == "sha-unreachable"


def test_a_remote_tracking_branch_of_that_name_counts(repo: Repo, feature: dict[str, str]) -> None:
    # A CI checkout often has origin/feature and no local branch of that name.
    repo.git("update-ref", "refs/remotes/origin/feature", feature["ahead"])
    repo.git("branch", "-D", "feature")
    configure(repo, '["main", "feature"]')
    repo.write(trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    assert one(suite, "on-feature") is None
    assert missing_branch_warnings(suite) == []


def test_a_named_branch_that_exists_nowhere_is_a_warning_naming_it(
    repo: Repo, feature: dict[str, str]
) -> None:
    configure(repo, '["main", "release"]')
    repo.write(trajectory("on-main", feature["base"]) | trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    [warning] = missing_branch_warnings(suite)
    assert warning.severity.value == "warning"
    assert warning.path == "voyage.toml" and (warning.line, warning.column) == (2, 1)
    assert "`release`" in warning.message and "`main`" not in warning.message
    # the branches that exist are still used
    assert one(suite, "on-main") is None
    assert one(suite, "on-feature").code == "sha-unreachable"


def test_when_no_named_branch_exists_reachability_is_not_judged(
    repo: Repo, feature: dict[str, str]
) -> None:
    configure(repo, '["trunk"]')
    repo.write(trajectory("on-main", feature["base"]) | trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    [warning] = missing_branch_warnings(suite)
    assert "`trunk`" in warning.message and "not checked" in warning.message
    assert one(suite, "on-main") is None
    assert one(suite, "on-feature") is None


def test_a_name_is_never_an_option_to_git(repo: Repo, feature: dict[str, str]) -> None:
    """The names are compared with git's own list of refs; none is passed to git, so `--all`
    (which would make every commit reachable) is only a branch that does not exist."""
    configure(repo, '["--all", "main"]')
    repo.write(trajectory("on-feature", feature["ahead"]))
    suite = Suite.open(repo.root)
    assert one(suite, "on-feature").code == "sha-unreachable"
    [warning] = missing_branch_warnings(suite)
    assert "`--all`" in warning.message


def test_the_branches_cost_one_process_for_the_whole_batch(
    repo: Repo, feature: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(repo, '["main", "feature", "gone"]')
    files: dict[str, str] = {}
    for n in range(12):
        files |= trajectory(f"t{n}", feature["base"] if n % 2 else feature["ahead"])
    repo.write(files)
    calls: list[list[str]] = []
    original = git_repo.GitRepo.start

    def counting(self, args, stdin=None):
        calls.append(args)
        return original(self, args, stdin)

    monkeypatch.setattr(git_repo.GitRepo, "start", counting)
    suite = Suite.open(repo.root)
    assert sorted(c[0] for c in calls) == ["cat-file", "for-each-ref", "rev-list", "rev-parse"]
    assert [d.code for d in git_diags(suite)] == ["git-branch-missing"]


def test_the_default_is_any_branch() -> None:
    config, problems = parse_config("")
    assert config.git.branches == [] and problems == []
