"""Commits to bind `final_head_sha` to: the repository's recent ones, or any revision resolved
to its full SHA. Every git process goes through the engine's runner (engine/git/repo.py); the
list is one `git log` with a format string, never one process per commit."""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.git.checks import sha_repo_path
from voyage_tui.engine.git.repo import GitUnavailable, open_repo
from voyage_tui.engine.git.sha_check import is_full_sha
from voyage_tui.engine.workspace.model import Workspace

RECENT_COMMITS = 30
_FIELDS = 4  # sha, author, date, subject


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    """The full SHA (40 hex, or 64 in a SHA-256 repository): what `final_head_sha` stores."""
    subject: str
    author: str
    date: str
    """The author date, ISO 8601."""


class RevisionError(Exception):
    """A revision that names no commit; the message says why."""


def recent_commits(ws: Workspace, limit: int = RECENT_COMMITS) -> list[Commit]:
    """The newest commits reachable from HEAD, newest first; [] in a repository without commits.
    Raises GitUnavailable when there is no readable repository."""
    limit = max(1, min(limit, 10_000))
    with open_repo(sha_repo_path(ws)) as repo:
        result = repo.run(
            [
                "log",
                f"--max-count={limit}",
                "-z",
                "--no-color",
                "--no-decorate",
                "--no-show-signature",
                "--no-notes",
                "--format=%H%x00%an <%ae>%x00%aI%x00%s",
                "HEAD",
                "--",
            ]
        )
    if not result.ok:
        if _unborn(result.err):
            return []
        raise GitUnavailable("git-check-failed", f"git log failed: {result.first_error()}")
    fields = result.out.decode("utf-8", "replace").split("\x00")
    commits: list[Commit] = []
    for start in range(0, len(fields) - _FIELDS + 1, _FIELDS):
        sha, author, date, subject = fields[start : start + _FIELDS]
        sha = sha.strip()
        if is_full_sha(sha):
            commits.append(Commit(sha.lower(), subject.strip(), author.strip(), date.strip()))
    return commits


def _unborn(err: str) -> bool:
    text = err.lower()
    # git's words for a HEAD that names no commit yet (a fresh `git init`)
    return any(
        words in text
        for words in (
            "does not have any commits yet",
            "bad default revision",
            "bad revision 'head'",
        )
    )


def resolve_revision(ws: Workspace, revision: str) -> str:
    """The full SHA of the commit `revision` names (a branch, tag, `HEAD~2`, an abbreviated SHA).
    Raises RevisionError for a revision that names no commit, GitUnavailable without a
    repository."""
    rev = revision.strip()
    if not rev:
        raise RevisionError("the revision is empty; name a commit (a SHA, branch or tag)")
    if rev.startswith("-") or any(c in rev for c in "\x00\n\r"):
        # never an option to git, whatever the text says
        raise RevisionError(f"{revision!r} is not a revision")
    with open_repo(sha_repo_path(ws)) as repo:
        result = repo.run(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"])
    out = result.out.decode("ascii", "replace").strip()
    if not result.ok or not is_full_sha(out):
        raise RevisionError(
            f"{rev!r} names no commit in the repository"
            + (f" ({result.first_error()})" if result.err.strip() else "")
        )
    return out.lower()
