"""A repository that makes git wait forever: a configuration include, a `.mailmap` or an
attributes file that is a FIFO (a tar archive carries one as easily as a file). git opens it and
blocks; every git process the tool starts has a time limit, so `validate` and `exposure` finish
and say git could not be read."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.git.conftest import (
    TRAJECTORY,
    Repo,
    base_files,
    holdout_yaml,
    isolated_git,  # noqa: F401  (autouse: no machine git configuration)
)

MISSING = "deadbeef" * 5
LIMIT = "2"  # seconds, through VOYAGE_GIT_TIMEOUT
CONFIG = '[holdout]\ncustodians = ["cora@evals.example"]\n'


def workspace(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "ws").init()
    repo.commit(
        base_files(CONFIG)
        | {"fixtures/bug-diagnosis/h1/task.yaml": holdout_yaml("h1")}
        | {"fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha=MISSING)}
    )
    return repo


def voyage(*args: str) -> tuple[int, str, str, float]:
    env = dict(os.environ, VOYAGE_GIT_TIMEOUT=LIMIT)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,  # far above the limit: a hang fails the test here, not the whole run
        env=env,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started


def test_a_fifo_included_by_the_git_config_makes_git_wait(tmp_path: Path) -> None:
    repo = workspace(tmp_path)
    os.mkfifo(repo.root / ".git" / "hang")
    repo.git("config", "include.path", "hang")
    with pytest.raises(subprocess.TimeoutExpired):  # armed: plain git does wait
        subprocess.run(["git", "status"], cwd=repo.root, capture_output=True, timeout=2)


@pytest.mark.parametrize("command", ["validate", "exposure"])
def test_a_fifo_in_the_git_config_ends_in_a_git_error_not_a_hang(
    tmp_path: Path, command: str
) -> None:
    repo = workspace(tmp_path)
    os.mkfifo(repo.root / ".git" / "hang")
    repo.git("config", "include.path", "hang")
    code, out, err, took = voyage(command, str(repo.root))
    assert "Traceback" not in err
    assert took < 30
    assert "did not finish" in out + err
    if command == "validate":
        assert code == 0 and "git-check-failed" in out
    else:
        assert code == 2


def test_a_fifo_mailmap_ends_in_a_git_error_not_a_hang(tmp_path: Path) -> None:
    repo = workspace(tmp_path)
    os.mkfifo(repo.root / ".mailmap")  # read by `git log` for each author it prints
    code, out, err, took = voyage("exposure", str(repo.root))
    assert "Traceback" not in err
    assert took < 30
    assert code == 2 and "did not finish" in out + err


# --- one limit for every git call, and about one limit in all (issue 18, item 10) --------------

ONE_LIMIT = 5  # seconds: long enough that the startup of the command is well below it


def hanging_workspace(tmp_path: Path, *, with_json: bool = True) -> Repo:
    """A FIFO included by the git config; a JSON file, so the walk asks `git check-ignore`."""
    repo = workspace(tmp_path)
    if with_json:
        (repo.root / "gold").mkdir()
        (repo.root / "gold/ok.json").write_text("{}\n", encoding="utf-8")
    os.mkfifo(repo.root / ".git" / "hang")
    repo.git("config", "include.path", "hang")
    return repo


def at_most_one_limit(took: float, tmp_path: Path) -> None:
    """`took` holds one wait of the limit, not two: measured over the same command on the same
    workspace without the hang, run just now, so a loaded machine's slower start-up (4 test
    workers on 2 cores, other jobs) counts on both sides rather than against the limit."""
    calm = hanging_workspace(tmp_path / "calm")
    (calm.root / ".git" / "hang").unlink()
    calm.git("config", "--unset", "include.path")
    *_, baseline = voyage_limited(str(ONE_LIMIT), "validate", str(calm.root))
    assert took - baseline < 2 * ONE_LIMIT - 1, (took, baseline)


def voyage_limited(limit: str, *args: str) -> tuple[int, str, str, float]:
    env = dict(os.environ, VOYAGE_GIT_TIMEOUT=limit)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started


def test_check_ignore_keeps_the_limit_and_its_failure_is_a_diagnostic(tmp_path: Path) -> None:
    """`git check-ignore` had a fixed 30 s limit and its failure was silent."""
    import json

    repo = hanging_workspace(tmp_path)
    code, out, err, took = voyage_limited(
        str(ONE_LIMIT), "validate", str(repo.root), "--format", "json"
    )
    assert "Traceback" not in err
    at_most_one_limit(took, tmp_path)  # was 30 s + 2 x the limit
    report = json.loads(out)
    ignored = [
        d
        for d in report["diagnostics"]
        if d["code"] == "git-check-failed" and "check-ignore" in d["message"]
    ]
    assert len(ignored) == 1, report["diagnostics"]
    assert ignored[0]["severity"] == "warning"
    assert f"did not finish within {ONE_LIMIT} s" in ignored[0]["message"]
    assert code == 0


@pytest.mark.parametrize("with_json", [True, False], ids=["check-ignore-first", "git-checks"])
def test_a_hanging_repository_costs_validate_one_limit_not_one_per_call(
    tmp_path: Path, with_json: bool
) -> None:
    """Once a git call of the run timed out in a repository, the later ones are not started:
    each says it was not run, rather than each waiting out the limit again."""
    repo = hanging_workspace(tmp_path, with_json=with_json)
    code, out, err, took = voyage_limited(str(ONE_LIMIT), "validate", str(repo.root))
    assert "Traceback" not in err
    at_most_one_limit(took, tmp_path)
    assert out.count(f"did not finish within {ONE_LIMIT} s") == 1, out
    assert "not run" in out, out
    assert code == 0


@pytest.mark.parametrize(
    ("raw", "expected", "warned"),
    [
        ("", 120.0, False),
        ("45", 45.0, False),
        ("0.5", 0.5, False),
        ("inf", 86400.0, True),
        ("1e300", 86400.0, True),
        ("1e999", 86400.0, True),
        ("86401", 86400.0, True),
        ("nan", 120.0, True),
        ("-3", 120.0, True),
        ("0", 120.0, True),
        ("soon", 120.0, True),
        ("1_0", 120.0, True),
    ],
)
def test_voyage_git_timeout_is_parsed_and_bounded(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: float, warned: bool
) -> None:
    from voyage_tui.engine.git.repo import git_timeout, git_timeout_warning

    monkeypatch.setenv("VOYAGE_GIT_TIMEOUT", raw)
    assert git_timeout() == expected
    warning = git_timeout_warning()
    assert (warning is not None) == warned
    if warning is not None:
        assert "VOYAGE_GIT_TIMEOUT" in warning and f"{expected:g} s" in warning


@pytest.mark.parametrize("raw", ["inf", "nan", "-1", "0", "1e300", "garbage"])
def test_a_bad_voyage_git_timeout_is_one_warning_not_a_traceback(tmp_path: Path, raw: str) -> None:
    repo = workspace(tmp_path)  # a healthy repository: git answers at once
    code, out, err, _ = voyage_limited(raw, "validate", str(repo.root))
    assert "Traceback" not in err, err
    assert err.count("VOYAGE_GIT_TIMEOUT") == 1, err
    assert code == 1 and "sha-not-found" in out  # the git checks ran


def test_git_processes_started_together_take_one_limit_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit counts from a process's start: exposure starts its log and its listing
    together and waits for them in turn, and two hangs must not cost two limits."""
    from voyage_tui.engine.git.repo import forget_stalls, open_repo

    repo = workspace(tmp_path)
    os.mkfifo(repo.root / ".mailmap")  # `git log` with author names opens it and waits
    monkeypatch.setenv("VOYAGE_GIT_TIMEOUT", "2")
    forget_stalls()
    with open_repo(str(repo.root)) as git:
        started = time.monotonic()
        first = git.start(["log", "--format=%aN"])
        second = git.start(["log", "--format=%aN"])
        results = [first.wait(), second.wait()]
        took = time.monotonic() - started
        # and then no further process starts in that repository during this run
        later = git.run(["log", "--format=%aN"])
    forget_stalls()
    assert [r.ok for r in results] == [False, False]
    assert all("did not finish within 2 s" in r.err for r in results)
    assert took < 3.5, took
    assert not later.ok and "not run" in later.err
