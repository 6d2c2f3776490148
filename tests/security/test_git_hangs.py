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
