"""Who is rating: `--rater`, else git's `user.name`, else the OS user; and which file is theirs.

A rater's name is also a file name (`<ratings>/<rater>.jsonl`), so it must be one on every system
the workspace may be checked out on: no folder separators, none of the characters Windows
forbids, no control characters, not hidden, not `.` or `..`, and short enough in bytes (file
systems count a name's bytes, not its characters). A name typed with `--rater` that
breaks these is refused; one taken from git or the OS is cleaned (each such character becomes
`-`), since the person did not choose it for this tool. What a name may be is decided in
workspace/rater_name.py (voyage.toml's `[rating] raters` is checked with it as it is read).
"""

from __future__ import annotations

import getpass
import os
import re
import subprocess
import unicodedata
from collections.abc import Iterable

from voyage_tui.engine.ratings.records import RATINGS_SUFFIX
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import (
    FORBIDDEN_CHARS,
    MAX_NAME_BYTES,
    MAX_NAME_CHARS,
    UNPRINTABLE_CATEGORIES,
    name_bytes,
    rater_name_problem,
)

__all__ = [
    "MAX_NAME_BYTES",
    "MAX_NAME_CHARS",
    "RaterNameError",
    "clean_rater_name",
    "git_user_name",
    "os_user_name",
    "rater_name_problem",
    "ratings_file_rel",
    "resolve_rater",
]

_RUNS_OF_DASHES = re.compile(r"-{2,}")


_OUTSIDE_A_REPOSITORY = ("git", "--no-pager", "-c", "safe.bareRepository=explicit")


class RaterNameError(ValueError):
    """No usable rater name: the message says why and what to do."""


def clean_rater_name(name: str) -> str:
    """A name from git or the OS made usable: each character a file name cannot hold becomes
    `-`; leading dots and dashes and surrounding spaces go. May return "" (nothing usable)."""
    chars = []
    for char in name:
        bad = char in FORBIDDEN_CHARS or unicodedata.category(char) in UNPRINTABLE_CATEGORIES
        chars.append("-" if bad else char)
    cleaned = _RUNS_OF_DASHES.sub("-", "".join(chars))
    cleaned = _fit(cleaned.strip().lstrip(".-").strip()[:MAX_NAME_CHARS]).rstrip(". ")
    return cleaned if rater_name_problem(cleaned) is None else ""


def _fit(name: str) -> str:
    """`name` cut, at a character, to MAX_NAME_BYTES."""
    while name_bytes(name) > MAX_NAME_BYTES:
        name = name[:-1]
    return name


def git_user_name(ws: Workspace) -> str | None:
    """git's `user.name` as a commit in the workspace would take it (the repository's own
    setting first, then the user's and the system's), or None. Inside a repository git runs as
    every git process of the tool does (engine/git/repo.py); outside one, a folder that only
    looks like a repository is not taken for one. Reading a setting runs nothing."""
    from voyage_tui.engine.git.repo import find_repository, run_plain

    location = find_repository(str(ws.root))
    if location is not None:
        proc = run_plain(location, ["config", "--get", "user.name"], b"", 10)
    else:
        try:
            proc = subprocess.run(
                [*_OUTSIDE_A_REPOSITORY, "config", "--get", "user.name"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=10,
                check=False,
                cwd=str(ws.root),
            )
        except (OSError, subprocess.SubprocessError):
            proc = None
    if proc is None or proc.returncode != 0:
        return None
    name = proc.stdout.decode("utf-8", "replace").strip()
    return name or None


def os_user_name() -> str | None:
    try:
        return getpass.getuser() or None
    except (OSError, KeyError, ImportError):  # no login name and no passwd entry
        return None


def resolve_rater(ws: Workspace, explicit: str | None = None, *, use_git: bool = True) -> str:
    """The rater's name: `explicit` (refused with RaterNameError when it cannot be a file name),
    else git's user.name, else the OS user, each cleaned. A name equal to an existing rater's
    but for letter case becomes that rater's (so a case-insensitive file system never mixes
    two spellings in one file)."""
    if explicit is not None:
        problem = rater_name_problem(explicit)
        if problem is not None:
            raise RaterNameError(f"--rater {explicit!r} cannot be used: {problem}")
        return _existing_spelling(ws, explicit)
    for source in (git_user_name(ws) if use_git else None, os_user_name()):
        if source:
            cleaned = clean_rater_name(source)
            if cleaned:
                return _existing_spelling(ws, cleaned)
    raise RaterNameError(
        "no rater name: git has no user.name here and the OS user is unknown; pass --rater NAME"
    )


def ratings_file_rel(ws: Workspace, rater: str) -> str:
    """The workspace-relative ratings file of `rater` (a name rater_name_problem accepts)."""
    folder = ws.ratings_rel
    name = f"{rater}{RATINGS_SUFFIX}"
    return f"{folder}/{name}" if folder else name


def _existing_spelling(ws: Workspace, rater: str) -> str:
    folder = ws.abs(ws.ratings_rel)
    try:
        names = os.listdir(folder)
    except OSError:
        return rater
    if f"{rater}{RATINGS_SUFFIX}" in names:
        return rater
    wanted = rater.casefold()
    for name in sorted(names):
        if name.endswith(RATINGS_SUFFIX):
            stem = name[: -len(RATINGS_SUFFIX)]
            if stem.casefold() == wanted and rater_name_problem(stem) is None:
                return stem
    return rater


def outside_team(ws: Workspace, names: Iterable[str]) -> list[str]:
    """The names that are not in the team (`[rating] raters` in voyage.toml), in the order
    given; none when no team is set (everyone may rate). Letter case aside, as a rater's file
    name is matched (`_existing_spelling`). Decided by the campaign's assignment."""
    from voyage_tui.engine.ratings.assignment import workspace_assignment

    return workspace_assignment(ws).outsiders(names)
