"""Real, throwaway git repositories for the git checks. Nothing here reads this machine's git
configuration: the global and system files are switched off, and every commit's author and
committer come from the environment of that one commit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from tests.conftest import task_yaml
from tests.gitconfig import add_settings

T = TypeVar("T")
FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")

INIT_SETTINGS = [
    ("user.name", "Fixed Tester"),
    ("user.email", "tester@example.invalid"),
    ("commit.gpgsign", "false"),
]
"""What every test repository's own config sets (written as text: tests.gitconfig)."""

CUSTODIAN = ("Cora Custodian", "cora@evals.example")
CONTRIBUTOR = ("Bob Builder", "bob@agents.example")

CANARY = "5d1b6a4e-2f0c-4c7e-9a61-0e3b8f2d7c19"
LEAKY_PROMPT = (
    "The quarterly invoice exporter silently drops every row whose customer name contains a "
    "semicolon, and the finance team only notices at month end."
)
LEAKY_TRUTH = (
    "Quote the customer field in the exporter so semicolons survive, and add a regression test "
    "that round-trips a name with a semicolon through the CSV writer."
)


def holdout_yaml(
    fixture_id: str,
    cls: str = "bug-diagnosis",
    canary: str | None = CANARY,
    prompt: str = LEAKY_PROMPT,
    truth: str = LEAKY_TRUTH,
    visibility: str = "holdout",
) -> str:
    lines = []
    if canary:
        lines.append(f"# canary: {canary}")
    lines += [
        f"id: {fixture_id}",
        f"class: {cls}",
        f"prompt: {prompt}",
        f"ground_truth: {truth}",
        "expected_boundary: unit",
        f"visibility: {visibility}",
    ]
    if cls == "adversarial":
        lines.append("adversarial_intent: reflexive deletion")
    return "\n".join(lines) + "\n"


TRAJECTORY = textwrap.dedent(
    """\
    kind: trajectory
    id: {id}
    path: lightweight
    prompt: Rename the config flag and ship it.
    phases: "1: Intake and provenance | 4: Implementation | 5: Review | 9: Merge and release"
    skipped_phases: "2: Scoping and risk classification: trivial | 3: Design and planning: trivial | 6: Verification: covered by review | 7: Security and compliance: no surface | 8: Release preparation: none"
    gates: "gate-1: intake: pass"
    terminal_state: merged
    visibility: public
    final_head_sha: {sha}
    """
)


class Repo:
    """A workspace that is (or will be) a git repository, driven by the git command line."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def git(
        self,
        *args: str,
        who: tuple[str, str] = CUSTODIAN,
        cwd: Path | None = None,
        check: bool = True,
        input: bytes | None = None,
    ) -> str:
        env = dict(os.environ)
        env.update(
            GIT_AUTHOR_NAME=who[0],
            GIT_AUTHOR_EMAIL=who[1],
            GIT_COMMITTER_NAME=who[0],
            GIT_COMMITTER_EMAIL=who[1],
        )
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd or self.root,
            env=env,
            capture_output=True,
            input=input,
            check=False,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr.decode()}")
        return proc.stdout.decode().strip()

    def init(self) -> Repo:
        self.root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        add_settings(self.root / ".git" / "config", INIT_SETTINGS)
        return self

    def write(self, files: dict[str, str | bytes]) -> None:
        for rel, content in files.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")

    def commit(
        self,
        files: dict[str, str | bytes] | None = None,
        who: tuple[str, str] = CUSTODIAN,
        message: str = "change",
    ) -> str:
        if files:
            self.write(files)
            self.git("add", "--", *files)
        else:
            self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, who=who)
        return self.head_as_written() or self.git("rev-parse", "HEAD")

    def head_as_written(self) -> str | None:
        """HEAD's commit read from .git, or None wherever that is not certain (then `git rev-parse
        HEAD` answers, one process more). A commit writes its branch's loose ref (or, detached,
        HEAD itself), and a loose ref outranks packed-refs; a packed branch, a symbolic ref to a
        symbolic ref, a `.git` file (a linked worktree) or another ref storage is left to git."""
        if any(name in os.environ for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")):
            return None
        git_dir = self.root / ".git"
        try:
            head = (git_dir / "HEAD").read_text(encoding="ascii").strip()
            if head.startswith("ref: refs/heads/"):
                head = (git_dir / head.removeprefix("ref: ")).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return head if FULL_SHA.fullmatch(head) else None


def base_files(config: str = "") -> dict[str, str]:
    """voyage.toml plus the two fixtures the coverage rule wants."""
    return {
        "voyage.toml": config or "",
        "fixtures/adversarial/adv-1/task.yaml": task_yaml("adv-1", "adversarial"),
        "fixtures/no-change-needed/ncn-1/task.yaml": task_yaml("ncn-1", "no-change-needed"),
    }


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def isolate_git(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in (
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "ws").init()


def build_once(factory: pytest.TempPathFactory, build: Callable[[Repo], T]) -> tuple[Path, T]:
    """A repository `build` makes from a fresh `Repo.init`, for a module- or session-scoped
    fixture: it runs before the autouse isolated_git, so git is isolated here the same way."""
    base = factory.mktemp("built-once")
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_git(monkeypatch, base / "home")
        repo = Repo(base / "ws").init()
        made = build(repo)
    return repo.root, made


def copy_repo(template: Path, target: Path) -> Path:
    """A test's own copy of a repository built once (cheaper than the git processes that built
    it): the same bytes in .git and the work tree, modification times kept. Only the index's
    cached inodes and change times no longer match, so git re-reads those files once to find
    them unchanged, as it does after any copy or checkout elsewhere."""
    if target.exists():
        shutil.rmtree(target)  # a fresh `Repo.init` the copy stands in for
    shutil.copytree(template, target, symlinks=True)
    return target
