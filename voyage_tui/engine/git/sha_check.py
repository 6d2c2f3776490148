"""`final_head_sha` against the repository: does it name a commit, and can a branch or tag reach it?

The shape (full hex SHA, no abbreviation) is rules/sha.py's job, done without git; this module
checks only what needs the repository, for all the SHAs of a suite at once:
- one `git cat-file --batch-check` answers, for every SHA, whether the object exists and its type;
- one `git rev-list --stdin --not --branches --tags --remotes HEAD` lists which of the commits no
  branch, tag, remote-tracking branch or HEAD reaches; with `[git] branches` set, the tips are
  those branches instead (docs/git-checks.md), found by one `git for-each-ref`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
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
    """For a commit: whether a branch or tag (or one of `[git] branches`, when set) reaches it;
    None when that could not be asked."""
    note: str = ""
    """git's own words, where it gave a reason."""


def is_full_sha(value: str | None) -> TypeGuard[str]:
    return bool(value) and _FULL.match(value or "") is not None


@dataclass(frozen=True, slots=True)
class Branches:
    """`[git] branches` as the repository has them."""

    refs: list[str]
    """The full ref names to measure reachability from: `refs/heads/NAME` and every
    `refs/remotes/REMOTE/NAME` of the configured names."""
    missing: list[str]
    """The configured names with neither a local nor a remote-tracking branch."""
    problem: str | None = None
    """Why the refs could not be listed (then `refs` is empty and `missing` too)."""


def resolve_branches(repo: GitRepo, names: Sequence[str]) -> Branches:
    """The refs of the configured branch names, from one `git for-each-ref`. The names are only
    compared with git's own list, never passed to git: a workspace's `--all` is no option."""
    result = repo.run(["for-each-ref", "--format=%(refname)", "refs/heads/", "refs/remotes/"])
    if not result.ok:
        return Branches([], [], result.first_error() or "git for-each-ref failed")
    wanted = dict.fromkeys(names)
    refs: list[str] = []
    present: set[str] = set()
    for ref in result.out.decode("utf-8", "surrogateescape").splitlines():
        if ref.startswith("refs/heads/"):
            name = ref[len("refs/heads/") :]
        elif ref.startswith("refs/remotes/"):
            # refs/remotes/<remote>/<branch>; <remote>/HEAD is a pointer, not a branch
            _, slash, name = ref[len("refs/remotes/") :].partition("/")
            if not slash or name == "HEAD":
                continue
        else:
            continue
        if name in wanted:
            refs.append(ref)
            present.add(name)
    return Branches(refs, [n for n in wanted if n not in present])


def check_shas(
    repo: GitRepo, shas: Iterable[str], reach_from: Sequence[str] | None = None
) -> tuple[dict[str, ShaOutcome], str | None]:
    """The outcome per SHA, and a note when reachability could not be asked (else None).
    Reachability is from `reach_from` (full ref names, as `resolve_branches` gives) or, when it
    is None, from every branch, tag, remote-tracking branch and HEAD; an empty `reach_from`
    leaves it unasked. Raises GitUnavailable when the repository cannot be read at all."""
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
    if commits and (reach_from is None or reach_from):
        unreachable, reach_problem = _unreachable(repo, commits, reach_from)
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


def _unreachable(
    repo: GitRepo, commits: list[str], tips: Sequence[str] | None
) -> tuple[set[str] | None, str | None]:
    """The commits of `commits` that no tip reaches: `tips` (full ref names from git's own
    listing, given on stdin as `^ref`: older git takes no options there), or every branch, tag,
    remote-tracking branch and HEAD."""
    wanted = "".join(f"{c}\n" for c in commits)
    if tips is None:
        args = ["rev-list", "--stdin", "--ignore-missing", "--not"]
        args += ["--branches", "--tags", "--remotes", "HEAD"]
        stdin = wanted
    else:
        args = ["rev-list", "--stdin", "--ignore-missing"]
        stdin = wanted + "".join(f"^{ref}\n" for ref in tips)
    result = repo.run(args, stdin=stdin.encode("utf-8", "surrogateescape"))
    if not result.ok:
        return None, result.first_error()
    listed = set(result.out.decode("ascii", "replace").split())
    return {c.lower() for c in commits if c.lower() in listed}, None


__all__ = [
    "Branches",
    "GitUnavailable",
    "ShaOutcome",
    "check_shas",
    "is_full_sha",
    "resolve_branches",
]
