"""Context files to copy into a new fixture: what may be copied, and the list of files to copy.

A source is a file or folder inside the workspace (a draft names its sources, and a draft is
workspace content, so a source outside it, or reached through a symlink out of it, is refused,
never read), and not inside `.git` or tool state (`.voyage`, `.venv`, ...): a draft naming
`.git/config`, which may hold a token in a remote URL, must not smuggle it into a fixture. Only
regular files are copied, each within `[limits] max_file_bytes`; a folder that
holds a symlink or a special file, or more than MAX_COPY_FILES files, is refused as a whole.

A source the person did not name in this session (one a draft names, or a copied fixture's
context file: both are workspace content, which anyone may have written) is copied only when
every file it reads is tracked by git (`TrackedFiles`): a git-ignored `.env` or a file never
added stays where it is. Without a git repository nothing tells a file of the suite from a
local secret, so such a source is refused; the person copies it by naming it
(`--context-file`, or the wizard's context step).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from voyage_tui.engine.git.repo import GitRepo, GitUnavailable, find_repository
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.workspace.layout import NEVER_SEARCHED
from voyage_tui.engine.workspace.model import Workspace

MAX_COPY_FILES = 1000
MAX_PATHSPEC_BYTES = 256 * 1024
"""Paths given to one `git ls-files` at most (far below any system's argument limit); a draft
naming more is asked in further processes."""
NAME_IT = (
    "name it in this invocation to copy it anyway (--context-file, or the wizard's context step)"
)


@dataclass(frozen=True, slots=True)
class SourceFile:
    rel: str
    """Workspace-relative path of the file to read."""
    sub: str
    """Its path below the source ("" when the source is this file itself)."""
    executable: bool


class SourceRefused(Exception):
    """The source cannot be copied; the message says why, in words a person can act on."""


def source_problems(
    ws: Workspace, sources: Sequence[tuple[str, bool]], tracked: TrackedFiles | None = None
) -> list[str | None]:
    """What stops each source from being copied, or None, for each (source, named), with one
    git process for all of them: a source not `named` by the person must be tracked by git as a
    whole (asked through `tracked`)."""
    found: list[list[SourceFile] | str] = []
    for source, _ in sources:
        try:
            found.append(source_files(ws, source))
        except SourceRefused as exc:
            found.append(str(exc))
    unnamed = [
        f.rel
        for (_, named), files in zip(sources, found, strict=True)
        if not named and not isinstance(files, str)
        for f in files
    ]
    tracked = tracked or TrackedFiles(ws)
    if unnamed:
        tracked.ask(unnamed)
    out: list[str | None] = []
    for (source, named), files in zip(sources, found, strict=True):
        if isinstance(files, str):
            out.append(files)
        elif named:
            out.append(None)
        else:
            out.append(tracked.problem(source or ".", [f.rel for f in files]))
    return out


class TrackedFiles:
    """Which workspace files git tracks, asked of the repository holding the workspace through
    the hardened runner (engine/git/repo.py: it runs nothing the repository names), one
    `git ls-files` for a batch of paths. Answers are kept for the object's life: the wizard
    makes one per check, the write its own."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._known: dict[str, bool] = {}
        self._unknown: str | None = None
        """Why git cannot tell (no repository, git missing or failing); None while it can."""

    def ask(self, rels: Iterable[str]) -> None:
        """Find out about `rels` (real workspace-relative paths), in as few processes as fit."""
        wanted = [rel for rel in dict.fromkeys(rels) if rel not in self._known]
        if not wanted or self._unknown is not None:
            return
        location = find_repository(self.ws.root_real)
        if location is None or location.work_tree is None:
            self._unknown = (
                "there is no git repository here to show it is a file of the suite (a draft or "
                "a copied fixture may name any file)"
            )
            return
        top = os.path.realpath(location.work_tree)
        by_spec = {_literal(top, self.ws.root_real, rel): rel for rel in wanted}
        repo = GitRepo(location, self.ws.root_real)
        try:
            for chunk in _chunks(list(by_spec)):
                result = repo.run(["ls-files", "-z", "--full-name", "--", *chunk])
                if not result.ok:
                    raise GitUnavailable("git-check-failed", result.first_error())
                listed = {os.fsdecode(p) for p in result.out.split(b"\0") if p}
                for spec in chunk:
                    self._known[by_spec[spec]] = spec.removeprefix(_LITERAL) in listed
        except GitUnavailable as exc:
            self._unknown = f"git cannot tell whether it is tracked ({exc})"

    def problem(self, shown: str, rels: list[str]) -> str | None:
        """Why the source `shown`, which reads `rels`, may not be copied unnamed; None if it may."""
        self.ask(rels)
        if self._unknown is not None:
            return (
                f"{shown} is named by a draft or a copied fixture, and {self._unknown}; {NAME_IT}"
            )
        untracked = [rel for rel in rels if not self._known.get(rel, False)]
        if not untracked:
            return None
        which = ", ".join(untracked[:3]) + (
            f" and {len(untracked) - 3} more" if len(untracked) > 3 else ""
        )
        return (
            f"{shown} is named by a draft or a copied fixture, and {which} is not a file git "
            f"tracks (git-ignored, or never added): it may be a local secret; {NAME_IT}"
        )


_LITERAL = ":(literal)"


def _literal(top: str, root_real: str, rel: str) -> str:
    """The pathspec of workspace file `rel` from the top of the work tree, matched as it is
    (no glob), as `ls-files --full-name` prints it."""
    path = os.path.relpath(os.path.join(root_real, rel), top).replace(os.sep, "/")
    return _LITERAL + path


def _chunks(specs: list[str]) -> list[list[str]]:
    chunks: list[list[str]] = [[]]
    size = 0
    for spec in specs:
        if chunks[-1] and size + len(spec) > MAX_PATHSPEC_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(spec)
        size += len(spec) + 1
    return chunks


def source_files(ws: Workspace, source: str) -> list[SourceFile]:
    """Every file a copy of `source` (workspace-relative) reads. Raises SourceRefused."""
    shown = source or "."
    rel = os.path.normpath(source.replace("\\", "/")).replace(os.sep, "/")
    if not source.strip() or os.path.isabs(rel) or rel == ".." or rel.startswith("../"):
        raise SourceRefused(f"{shown} is outside the workspace; copy it into the workspace first")
    full = ws.abs(rel)
    real = os.path.realpath(full)
    if not is_within(ws.root_real, real) or real == ws.root_real:
        raise SourceRefused(
            f"{shown} leads outside the workspace (through a symlink); name the file itself"
        )
    hidden = _private_part(rel) or _private_part(_ws_rel(ws, real))
    if hidden:
        raise SourceRefused(f"{shown} is inside {hidden}, which is never copied into a fixture")
    try:
        info = os.stat(real)
    except FileNotFoundError:
        raise SourceRefused(f"{shown} does not exist") from None
    except OSError as exc:
        raise SourceRefused(f"{shown} cannot be read ({exc.strerror})") from None
    if stat.S_ISREG(info.st_mode):
        _check_size(ws, shown, info.st_size)
        return [SourceFile(_ws_rel(ws, real), "", bool(info.st_mode & 0o111))]
    if not stat.S_ISDIR(info.st_mode):
        raise SourceRefused(f"{shown} is not a regular file or a folder")
    return _folder_files(ws, shown, real)


def _folder_files(ws: Workspace, shown: str, real: str) -> list[SourceFile]:
    files: list[SourceFile] = []

    def refuse_unreadable(exc: OSError) -> None:
        raise SourceRefused(f"a folder in {shown} cannot be read ({exc.strerror})")

    for folder, dirs, names in os.walk(real, onerror=refuse_unreadable):
        dirs.sort()
        for name in sorted(dirs):
            if name in NEVER_SEARCHED:
                raise SourceRefused(
                    f"{shown} holds {_below(real, folder, name)}, which is never copied into a "
                    "fixture; name the files the task needs instead"
                )
            if os.path.islink(os.path.join(folder, name)):
                raise SourceRefused(
                    f"{shown} holds a symlink ({_below(real, folder, name)}); only regular files "
                    "and folders are copied"
                )
        for name in sorted(names):
            path = os.path.join(folder, name)
            sub = _below(real, folder, name)
            try:
                info = os.lstat(path)
            except OSError as exc:
                raise SourceRefused(f"{shown}/{sub} cannot be read ({exc.strerror})") from None
            if not stat.S_ISREG(info.st_mode):
                raise SourceRefused(
                    f"{shown} holds {sub}, which is not a regular file (a symlink, FIFO or "
                    "device); only regular files and folders are copied"
                )
            _check_size(ws, f"{shown}/{sub}", info.st_size)
            files.append(SourceFile(_ws_rel(ws, path), sub, bool(info.st_mode & 0o111)))
            if len(files) > MAX_COPY_FILES:
                raise SourceRefused(
                    f"{shown} holds more than {MAX_COPY_FILES} files; name the files the task "
                    "needs instead of the whole folder"
                )
    return files


def _private_part(rel: str) -> str | None:
    return next((part for part in rel.split("/") if part in NEVER_SEARCHED), None)


def _ws_rel(ws: Workspace, real: str) -> str:
    return os.path.relpath(real, ws.root_real).replace(os.sep, "/")


def _below(root: str, folder: str, name: str) -> str:
    return os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def _check_size(ws: Workspace, shown: str, size: int) -> None:
    if size > ws.max_file_bytes:
        raise SourceRefused(
            f"{shown} has {size:,} bytes, over the limit of {ws.max_file_bytes:,} "
            "([limits] max_file_bytes)"
        )
