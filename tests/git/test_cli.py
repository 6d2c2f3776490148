"""`voyage-tui exposure` and the git side of `voyage-tui validate`: output shapes and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.git.conftest import (
    CANARY,
    CONTRIBUTOR,
    TRAJECTORY,
    Repo,
    base_files,
    build_once,
    copy_repo,
    holdout_yaml,
)
from voyage_tui.cli import main

H1 = "fixtures/bug-diagnosis/h1/task.yaml"
H2 = "fixtures/bug-diagnosis/h2/task.yaml"
CONFIG = '[holdout]\ncustodians = ["cora@evals.example"]\nbundle_paths = ["agent/**"]\n'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def exposed_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_once(tmp_path_factory, _exposed)[0]


@pytest.fixture
def exposed(repo: Repo, exposed_template: Path) -> Repo:
    """h1 exposed three ways, h2 not (built once, copied for each test)."""
    copy_repo(exposed_template, repo.root)
    return repo


def _exposed(repo: Repo) -> None:
    repo.commit(
        base_files(CONFIG)
        | {
            H1: holdout_yaml("h1"),
            H2: holdout_yaml("h2", canary=None, prompt="Short.", truth="Short."),
        }
    )
    repo.commit({H1: holdout_yaml("h1") + "# edit\n", "agent/system.txt": "v2\n"}, who=CONTRIBUTOR)
    repo.commit({"docs/leak.txt": f"{CANARY}\n"})


def test_exposure_json_shape_and_exit_1(capsys, exposed: Repo) -> None:
    code, out, _ = run(capsys, "exposure", str(exposed.root), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["holdouts"] == 2
    assert [e["id"] for e in data["exposed"]] == ["h1"]
    entry = data["exposed"][0]
    assert set(entry) == {"id", "path", "signals"}
    assert entry["path"] == H1
    assert [s["kind"] for s in entry["signals"]] == ["foreign-author", "co-change", "canary-leak"]
    for signal in entry["signals"]:
        assert set(signal) == {"kind", "commit", "author", "detail"}
        assert len(signal["commit"]) == 40 and signal["author"] and signal["detail"]
    assert data["canary_share"] == 0.5 and data["with_canary"] == 1
    assert data["not_tracked"] == [] and data["warnings"] == []


def test_exposure_text(capsys, exposed: Repo) -> None:
    code, out, _ = run(capsys, "exposure", str(exposed.root))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "2 holdouts: 1 exposed, 0 not tracked; 1 of 2 carry a canary (50%)"
    assert f"{H1} (h1): exposed by foreign-author, co-change, canary-leak" in out
    assert "Bob Builder <bob@agents.example>" in out
    assert "docs/leak.txt:1" in out


def test_exposure_clean_exits_0(capsys, repo: Repo) -> None:
    repo.commit(base_files(CONFIG) | {H1: holdout_yaml("h1")})
    code, out, _ = run(capsys, "exposure", str(repo.root), "--format", "json")
    assert code == 0
    assert json.loads(out)["exposed"] == []


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "yaml"],
        ["--commit"],
        ["--bogus"],
    ],
)
def test_exposure_usage_errors_exit_2(capsys, exposed: Repo, args: list[str]) -> None:
    code = None
    try:
        code, _, _err = run(capsys, "exposure", str(exposed.root), *args)
    except SystemExit as exc:
        code = exc.code
    assert code == 2


def test_exposure_without_workspace_exits_2(capsys, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "exposure", str(empty))
    assert code == 2
    assert "no workspace" in err


def test_retire_from_the_command_line(capsys, exposed: Repo) -> None:
    code, out, _ = run(
        capsys, "exposure", str(exposed.root), "--retire", "h1", "--commit", "--format", "json"
    )
    assert code == 0
    retired = json.loads(out)["retired"]
    assert retired["id"] == "h1" and retired["path"] == H1
    assert retired["commit"] == exposed.git("rev-parse", "HEAD")
    assert exposed.git("show", "--name-only", "--format=", "HEAD").splitlines() == [H1]
    title = exposed.git("log", "-1", "--format=%s")
    assert title == "Retire holdout h1: exposed (foreign-author, co-change, canary-leak)"
    code, out, _ = run(capsys, "exposure", str(exposed.root), "--format", "json")
    assert code == 0 and json.loads(out)["holdouts"] == 1


def test_retire_without_commit_only_writes(capsys, exposed: Repo) -> None:
    # The retire is journaled in `.voyage/triage.json` (personal state, git-ignored as the
    # docs ask), so triage can undo it.
    exposed.commit({".gitignore": ".voyage/\n"})
    head = exposed.git("rev-parse", "HEAD")
    code, out, _ = run(capsys, "exposure", str(exposed.root), "--retire", "h2")
    assert code == 0
    assert out.startswith("retired h2:")
    assert exposed.git("rev-parse", "HEAD") == head
    assert exposed.git("status", "--porcelain") == f"M {H2}"


def test_retire_refusals(capsys, exposed: Repo) -> None:
    code, _, err = run(capsys, "exposure", str(exposed.root), "--retire", "nope")
    assert code == 2 and "no fixture has the id `nope`" in err
    code, _, err = run(capsys, "exposure", str(exposed.root), "--retire", "adv-1")
    assert code == 1 and "not a holdout" in err


def test_validate_fails_on_an_exposed_holdout_unless_no_git(capsys, exposed: Repo) -> None:
    code, out, _ = run(capsys, "validate", str(exposed.root), "--format", "json")
    data = json.loads(out)
    codes = [(d["path"], d["code"], d["severity"]) for d in data["diagnostics"]]
    assert (H1, "holdout-exposed", "error") in codes
    assert code == 1
    code, out, _ = run(capsys, "validate", str(exposed.root), "--format", "json", "--no-git")
    assert "holdout-exposed" not in out


def test_validate_github_annotates_the_sha_line(capsys, repo: Repo) -> None:
    repo.commit(base_files())
    repo.write(
        {"fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha="deadbeef" * 5)}
    )
    code, out, _ = run(capsys, "validate", str(repo.root), "--format", "github")
    assert code == 1
    assert any(
        line.startswith(
            "::error file=fixtures/trajectories/t1/task.yaml,line=10,col=17,title=sha-not-found::"
        )
        for line in out.splitlines()
    )
