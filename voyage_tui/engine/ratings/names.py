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

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.ratings.records import RATINGS_SUFFIX, parse_ratings
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import (
    FORBIDDEN_CHARS,
    MAX_NAME_BYTES,
    MAX_NAME_CHARS,
    UNPRINTABLE_CATEGORIES,
    file_owner,
    folded_name,
    name_bytes,
    rater_key,
    rater_name_problem,
    rater_slug,
)

__all__ = [
    "MAX_NAME_BYTES",
    "MAX_NAME_CHARS",
    "RaterNameError",
    "clean_rater_name",
    "git_user_name",
    "os_user_name",
    "rater_file_stem",
    "rater_key",
    "rater_name_problem",
    "rater_slug",
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
    else git's user.name, else the OS user, each cleaned. A name of the rater key of a team
    member or of an existing ratings file is that rater's spelling when it reads the same, and
    refused when it does not (`_existing_spelling`)."""
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
    """The workspace-relative ratings file of `rater` (a name rater_name_problem accepts): see
    `rater_file_stem`."""
    return _rel(ws, rater_file_stem(ws, rater))


def rater_file_stem(ws: Workspace, rater: str) -> str:
    """The name of `rater`'s ratings file, without `.jsonl`: the name's slug
    (`Firstname Lastname` -> `firstname-lastname.jsonl`: no spaces or accents for a shell or
    another system to trip on), unless a file named after the name itself is there already (a
    rater who began before slugs keeps their file) or the name slugs to nothing (`李雷`), which
    keeps its own name. The records keep the name itself (`"rater": "Firstname Lastname"`)."""
    slug = rater_slug(rater)
    if not slug or slug == rater or os.path.lexists(ws.abs(_rel(ws, rater))):
        return rater
    return slug


def _rel(ws: Workspace, stem: str) -> str:
    folder = ws.ratings_rel
    name = f"{stem}{RATINGS_SUFFIX}"
    return f"{folder}/{name}" if folder else name


def _existing_spelling(ws: Workspace, rater: str) -> str:
    """The name `rater` rates as. One rater key is one rater (workspace/rater_name.py
    `rater_key`): the team's member of `rater`'s key, and the owner of each ratings file of
    that key, are spellings already in use. `rater` itself in use stays; else a spelling in use
    that reads the same (`folded_name`: letter case and Unicode composition aside) becomes the
    rater's, so two spellings never share one file as two raters; one that reads otherwise
    (`Jose` for José, `ann-smith` for Ann Smith) is refused with RaterNameError naming both,
    since the one typing may be another person, whose ratings would supersede the other's."""
    in_use = _spellings_in_use(ws, rater_key(rater), rater)
    if any(name == rater for name, _ in in_use):
        return rater
    for name, _ in in_use:
        if folded_name(name) == folded_name(rater):
            return name
    if not in_use:
        return rater
    name, where = in_use[0]
    raise RaterNameError(
        f"{rater!r} is the same rater as {name!r} ({where}): two names of one rater key "
        f"({rater_key(rater)!r}) share one ratings file and one session lock. To rate as "
        f"{name!r}, give {name!r}; to rate as someone else, pass --rater with a name of your "
        "own (a middle initial, say)"
    )


def _spellings_in_use(ws: Workspace, key: str, rater: str) -> list[tuple[str, str]]:
    """The names of rater key `key` in use, each with where: the team's member, then the
    owner of each ratings file of that key (records.py `file_owner`; a file named after a name,
    as before slugs, or after `rater` itself, is that name's even with no record yet, while
    another empty slug file is no one's). Only files of the key are read."""
    found: list[tuple[str, str]] = []
    for member in ws.config.rating.raters:
        if rater_key(member) == key:
            found.append((member, "the team of voyage.toml, [rating] raters"))
    try:
        names = os.listdir(ws.abs(ws.ratings_rel))
    except OSError:
        return found
    for name in sorted(names):
        if not name.endswith(RATINGS_SUFFIX):
            continue
        stem = name[: -len(RATINGS_SUFFIX)]
        if rater_name_problem(stem) is not None or rater_key(stem) != key:
            continue
        rel = _rel(ws, stem)
        owner = _owner_of(ws, rel, stem)
        if owner is None and (stem == rater or rater_slug(stem) != stem):
            owner = stem
        if owner is not None:
            found.append((owner, f"{rel} holds their ratings"))
    return found


def _owner_of(ws: Workspace, rel: str, stem: str) -> str | None:
    """Whose ratings the file `rel` holds (records.py `file_owner`), None when it names no
    one or cannot be read (a session refuses such a file on its own)."""
    lines = ws.open_lines(rel)
    if isinstance(lines, Diagnostic):
        return None
    parsed = parse_ratings(lines, rel)
    return file_owner((line.rating.rater for line in parsed.lines), stem)


def outside_team(ws: Workspace, names: Iterable[str]) -> list[str]:
    """The names that are not in the team (`[rating] raters` in voyage.toml), in the order
    given; none when no team is set (everyone may rate). A name of a member's rater key is
    that member (`rater_key`). Decided by the campaign's assignment."""
    from voyage_tui.engine.ratings.assignment import workspace_assignment

    return workspace_assignment(ws).outsiders(names)
