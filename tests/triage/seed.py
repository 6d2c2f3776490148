"""A copy of the sample workspace in which every kind of triage item appears at least once.

The sample (fixtures/) already has low scores (run-empty, run-downgraded) and agent runs short of
ratings; the copy adds an error and a warning (a typo in a class, an unknown field), README drift
(a row dropped from the gold file's findings table) and an exposed holdout (its canary committed
in a notes file outside the fixtures), in a git repository of its own whose commits are the same
on every run (fixed names and dates), so the screen's snapshots can show the signals.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.gitconfig import add_settings
from tests.sample import copy_sample_into

REPO = Path(__file__).resolve().parents[2]

BROKEN = "fixtures/feature-change/retry-after-on-429/task.yaml"
GOLD = "fixtures/gold/jwt-auth/gold.json"
README = "fixtures/gold/jwt-auth/README.md"
HOLDOUT = "fixtures/spec-ambiguity/discount-stacking-order/task.yaml"
TRAJECTORY = "fixtures/trajectories/access-token-expiry-and-refresh/task.yaml"
LEAK = "notes/agent-notes.md"
DROPPED_ROW = "| 1 | `package.json` | 14 | `dependency-unpinned` | SUGGESTION | conformance | |\n"
SAMPLE_SHA = "7a0b2699a253b233fa268c0558af1ebb1af135ff"
# The holdout's canary and prompt are read from the copy, never written here: this file is
# tracked in voyage-tui's own repository, where it would expose the sample's holdout itself.

SEED_WHO = ("Seed Maintainer", "seed@voyage.example")
SEED_DATE = "2026-01-05T09:00:00+00:00"


def copy_sample(target: Path) -> Path:
    """voyage.toml and fixtures/ into `target/sample` (the name the screens' headers show)."""
    root = target / "sample"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    copy_sample_into(root)
    return root


def git(root: Path, *args: str) -> str:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") and key not in ("HOME", "XDG_CONFIG_HOME")
    }
    env.update(
        HOME=str(root.parent),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME=SEED_WHO[0],
        GIT_AUTHOR_EMAIL=SEED_WHO[1],
        GIT_COMMITTER_NAME=SEED_WHO[0],
        GIT_COMMITTER_EMAIL=SEED_WHO[1],
        GIT_AUTHOR_DATE=SEED_DATE,
        GIT_COMMITTER_DATE=SEED_DATE,
    )
    proc = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout.strip()


def break_fixture(root: Path) -> None:
    """An error (`class: feature-chang`) and a warning (the unknown field `grond_truth`)."""
    path = root / BROKEN
    text = path.read_text()
    text = text.replace("class: feature-change", "class: feature-chang", 1)
    text = text.replace("visibility: public", "visibility: public\ngrond_truth: typo", 1)
    path.write_text(text)


def add_drift(root: Path) -> None:
    path = root / README
    text = path.read_text()
    assert DROPPED_ROW in text
    path.write_text(text.replace(DROPPED_ROW, "", 1))


def canary_of(task: Path) -> str:
    for line in task.read_text().splitlines():
        if line.startswith("# canary:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{task} has no canary")


def prompt_line_of(task: Path) -> str:
    """The first line of the holdout's prompt (a whole sentence, long enough to be
    distinctive)."""
    lines = task.read_text().splitlines()
    start = lines.index("prompt: |")
    return lines[start + 1].strip()


def seed_every_kind(root: Path) -> Path:
    """Make the copy at `root` a repository whose triage queue holds every kind of item."""
    break_fixture(root)
    add_drift(root)
    (root / ".gitignore").write_text(
        "# personal state of voyage-tui (triage snoozes, drafts)\n.voyage/\n"
    )
    git(root, "init", "-q", "-b", "main")
    add_settings(
        root / ".git" / "config",
        [("user.name", SEED_WHO[0]), ("user.email", SEED_WHO[1]), ("commit.gpgsign", "false")],
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "The sample, seeded")
    # The trajectory binds to a commit of voyage-tui's own history; here, to this one.
    head = git(root, "rev-parse", "HEAD")
    trajectory = root / TRAJECTORY
    trajectory.write_text(trajectory.read_text().replace(SAMPLE_SHA, head))
    (root / LEAK).parent.mkdir(parents=True, exist_ok=True)
    (root / LEAK).write_text(
        "# Notes for the agent team\n\nDo not lose this one: " + canary_of(root / HOLDOUT) + "\n"
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Notes for the agent team")
    return root


def seeded_sample(target: Path) -> Path:
    return seed_every_kind(copy_sample(target))
