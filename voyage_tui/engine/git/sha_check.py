"""`final_head_sha` against the repository: does it name a commit, and can a branch or tag reach it?

The shape (full hex SHA, no abbreviation) is rules/sha.py's job, done without git; this module
checks only what needs the repository, for all the SHAs of a suite at once:
- one `git cat-file --batch-check` answers, for every SHA, whether the object exists and its type;
- one `git rev-list --stdin --not --branches --tags --remotes HEAD` lists which of the commits no
  branch, tag, remote-tracking branch or HEAD reaches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from voyage_tui.engine.git.repo import GitRepo, GitUnavailable, RepoInfo

_FULL = re.compile(r"^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$")
_OBJECT_NAME = re.compile(r"\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b")

# outcomes
COMMIT = "commit"
MISSING = "missing"
WRONG_LENGTH = "wrong-length"
UNREADABLE = "unreadable"
SHALLOW_MISSING = "shallow-missing"
NOT_FETCHED = "not-fetched"
UNCHECKED = "unchecked"


@dataclass(frozen=True, slots=True)
class ShaOutcome:
    kind: str
    """`commit`, an object type (`tree`, `blob`, `tag`), or one of the outcomes above."""
    reachable: bool | None = None
    """For a commit: whether a branch or tag reaches it; None when that could not be asked."""
    note: str = ""
    """git's own words, where it gave a reason."""


def is_full_sha(value: str | None) -> TypeGuard[str]:
    return bool(value) and _FULL.match(value or "") is not None


def check_shas(repo: GitRepo, shas: Iterable[str]) -> tuple[dict[str, ShaOutcome], str | None]:
    """The outcome per SHA, and a note when reachability could not be asked (else None).
    Raises GitUnavailable when the repository cannot be read at all."""
    info: RepoInfo = repo.info()
    wanted = list(dict.fromkeys(s for s in shas if is_full_sha(s)))
    outcomes: dict[str, ShaOutcome] = {}
    ask: list[str] = []
    for sha in wanted:
        if len(sha) != info.sha_length:
            outcomes[sha] = ShaOutcome(WRONG_LENGTH, note=info.object_format)
        else:
            ask.append(sha)
    if not ask:
        return outcomes, None
    answers, err, problem = _batch_check(repo, ask)
    corrupt = set(_OBJECT_NAME.findall(err.lower()))
    commits: list[str] = []
    for sha in ask:
        if sha not in answers:
            outcomes[sha] = ShaOutcome(UNCHECKED, note=problem)
            continue
        kind = answers[sha]
        if kind == MISSING:
            if sha.lower() in corrupt:
                outcomes[sha] = ShaOutcome(UNREADABLE, note=_mentioning(err, sha.lower()))
            elif info.shallow:
                outcomes[sha] = ShaOutcome(SHALLOW_MISSING)
            elif repo.partial_clone:
                outcomes[sha] = ShaOutcome(NOT_FETCHED)
            else:
                outcomes[sha] = ShaOutcome(MISSING)
        elif kind == COMMIT:
            commits.append(sha)
        else:
            outcomes[sha] = ShaOutcome(kind)
    reach_problem = None
    if commits:
        unreachable, reach_problem = _unreachable(repo, commits)
        for sha in commits:
            reachable = None if unreachable is None else sha.lower() not in unreachable
            outcomes[sha] = ShaOutcome(COMMIT, reachable)
    return outcomes, reach_problem


def _batch_check(repo: GitRepo, ask: list[str]) -> tuple[dict[str, str], str, str]:
    """sha -> object type or MISSING, from `git cat-file --batch-check`; git's stderr; and why
    the SHAs without an answer have none.

    In a partial clone, git tries to fetch an object it lacks; with no transport allowed the
    fetch fails and cat-file may die on that object (a write to the dead fetch process). That
    object is then missing here, and cat-file is asked again about the ones after it."""
    answers: dict[str, str] = {}
    errors: list[str] = []
    pending = ask
    while pending:
        result = repo.run(
            ["cat-file", "--batch-check"], stdin="".join(f"{s}\n" for s in pending).encode()
        )
        errors.append(result.err)
        lines = result.out.decode("utf-8", "replace").splitlines()
        for sha, line in zip(pending, lines, strict=False):
            fields = line.split()
            answers[sha] = fields[1] if len(fields) > 1 else MISSING
        if len(lines) >= len(pending):
            break
        if not repo.partial_clone:
            return answers, "".join(errors), result.first_error()
        answers[pending[len(lines)]] = MISSING
        pending = pending[len(lines) + 1 :]
    return answers, "".join(errors), ""


def _mentioning(err: str, sha: str) -> str:
    for line in err.splitlines():
        if sha in line.lower():
            return line.strip()
    return err.strip().splitlines()[0] if err.strip() else ""


def _unreachable(repo: GitRepo, commits: list[str]) -> tuple[set[str] | None, str | None]:
    """The commits of `commits` that no branch, tag, remote-tracking branch or HEAD reaches."""
    result = repo.run(
        [
            "rev-list",
            "--stdin",
            "--ignore-missing",
            "--not",
            "--branches",
            "--tags",
            "--remotes",
            "HEAD",
        ],
        stdin="".join(f"{c}\n" for c in commits).encode(),
    )
    if not result.ok:
        return None, result.first_error()
    listed = set(result.out.decode("ascii", "replace").split())
    return {c.lower() for c in commits if c.lower() in listed}, None


__all__ = ["GitUnavailable", "ShaOutcome", "check_shas", "is_full_sha"]
