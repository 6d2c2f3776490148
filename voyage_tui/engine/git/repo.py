"""Opening a repository and running git through gitpython, without ever raising at the caller.

Every git process of the checks goes through `run`: the command's exit status, its stdout as bytes
and its stderr as text come back as data; a missing git executable, a path that is not a repository
or an unsafe-directory refusal becomes a `GitUnavailable` with a message a person can act on.
gitpython is imported here, lazily, so `validate --no-git` never pays for it.
"""

from __future__ import annotations

import os
import subprocess
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from git import Repo


class GitUnavailable(Exception):
    """The check cannot run at all. `code` is a stable diagnostic code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Result:
    status: int
    out: bytes
    err: str

    @property
    def ok(self) -> bool:
        return self.status == 0

    def first_error(self) -> str:
        """git's first `fatal:`/`error:` line, or its first line of stderr."""
        lines = [line.strip() for line in self.err.splitlines() if line.strip()]
        for line in lines:
            if line.startswith(("fatal:", "error:")):
                return line
        return lines[0] if lines else f"git exited with status {self.status}"


@dataclass(slots=True)
class RepoInfo:
    """What the checks need to know about a repository, asked in one `rev-parse`."""

    bare: bool
    shallow: bool
    object_format: str
    """`sha1` or `sha256`."""
    toplevel: str | None
    """The real path of the work tree; None for a bare repository."""

    @property
    def sha_length(self) -> int:
        return 64 if self.object_format == "sha256" else 40


class GitRepo:
    """One opened repository. Use as a context manager: gitpython keeps processes per Repo."""

    def __init__(self, repo: Repo, path: str) -> None:
        self.repo = repo
        self.path = path
        self._info: RepoInfo | None = None

    def __enter__(self) -> GitRepo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.repo.close()
        except Exception:
            pass

    # --- processes ----------------------------------------------------------------------------

    def start(self, args: list[str], stdin: bytes | None = None) -> Running:
        """Start `git ARGS` (from the work tree, or the git dir of a bare repository)."""
        from git import Git
        from git.exc import GitCommandNotFound

        command = [Git.GIT_PYTHON_GIT_EXECUTABLE or "git", *args]
        try:
            proc: Any = self.repo.git.execute(
                command,
                as_process=True,
                istream=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            )
        except GitCommandNotFound as exc:
            raise GitUnavailable(
                "git-unavailable", f"the git executable could not be run ({exc}); install git"
            ) from exc
        # The AutoInterrupt wrapper kills its process when collected: Running keeps it alive.
        return Running(proc, stdin)

    def run(self, args: list[str], stdin: bytes | None = None) -> Result:
        return self.start(args, stdin).wait()

    # --- facts --------------------------------------------------------------------------------

    def info(self) -> RepoInfo:
        if self._info is None:
            result = self.run(
                [
                    "rev-parse",
                    "--is-bare-repository",
                    "--is-shallow-repository",
                    "--show-object-format",
                ]
            )
            if not result.ok:
                raise GitUnavailable(
                    "git-check-failed",
                    f"git cannot read the repository at {self.path}: {result.first_error()}",
                )
            lines = result.out.decode("utf-8", "replace").split()
            bare = bool(lines) and lines[0] == "true"
            shallow = len(lines) > 1 and lines[1] == "true"
            object_format = lines[2] if len(lines) > 2 else "sha1"
            toplevel = None if bare else self.repo.working_tree_dir
            self._info = RepoInfo(
                bare=bare,
                shallow=shallow,
                object_format=object_format,
                toplevel=os.path.realpath(toplevel) if toplevel else None,
            )
        return self._info


class Running:
    """A started git process whose input is fed and output collected on a thread, so two git
    processes (the history log and the grep) can run at the same time."""

    def __init__(self, handle: Any, stdin: bytes | None) -> None:
        self._handle = handle
        self.proc: subprocess.Popen[bytes] = handle.proc
        self._result: Result | None = None
        self._thread = threading.Thread(target=self._collect, args=(stdin,), daemon=True)
        self._thread.start()

    def _collect(self, stdin: bytes | None) -> None:
        try:
            out, err = self.proc.communicate(stdin)
        except (OSError, ValueError) as exc:
            self._result = Result(-1, b"", str(exc))
            return
        self._result = Result(
            self.proc.returncode, out or b"", (err or b"").decode("utf-8", "replace")
        )

    def wait(self) -> Result:
        self._thread.join()
        assert self._result is not None
        return self._result


def open_repo(path: str) -> GitRepo:
    """The repository at or above `path` (as git finds it). Raises GitUnavailable."""
    try:
        from git import Repo
        from git.exc import (
            GitCommandError,
            GitCommandNotFound,
            InvalidGitRepositoryError,
            NoSuchPathError,
        )
    except ImportError as exc:  # gitpython refuses to import without a git executable
        raise GitUnavailable(
            "git-unavailable", f"git checks need gitpython and a git executable: {exc}"
        ) from exc
    if not os.path.exists(path):
        raise GitUnavailable("git-no-repository", f"{path} does not exist")
    try:
        repo = Repo(path, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        raise GitUnavailable(
            "git-no-repository", f"{path} is not inside a git repository"
        ) from None
    except GitCommandNotFound as exc:
        raise GitUnavailable(
            "git-unavailable", f"the git executable could not be run ({exc})"
        ) from exc
    except (GitCommandError, OSError, ValueError) as exc:
        raise GitUnavailable(
            "git-check-failed", f"the repository at {path} cannot be read: {exc}"
        ) from exc
    return GitRepo(repo, path)
