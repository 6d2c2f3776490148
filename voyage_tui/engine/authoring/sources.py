"""Context files to copy into a new fixture: what may be copied, and the list of files to copy.

A source is a file or folder inside the workspace (a draft names its sources, and a draft is
workspace content, so a source outside it, or reached through a symlink out of it, is refused,
never read), and not inside `.git` or tool state (`.voyage`, `.venv`, ...): a draft naming
`.git/config`, which may hold a token in a remote URL, must not smuggle it into a fixture. Only
regular files are copied, each within `[limits] max_file_bytes`; a folder that
holds a symlink or a special file, or more than MAX_COPY_FILES files, is refused as a whole.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.workspace.layout import NEVER_SEARCHED
from voyage_tui.engine.workspace.model import Workspace

MAX_COPY_FILES = 1000


@dataclass(frozen=True, slots=True)
class SourceFile:
    rel: str
    """Workspace-relative path of the file to read."""
    sub: str
    """Its path below the source ("" when the source is this file itself)."""
    executable: bool


class SourceRefused(Exception):
    """The source cannot be copied; the message says why, in words a person can act on."""


def source_problem(ws: Workspace, source: str) -> str | None:
    try:
        source_files(ws, source)
    except SourceRefused as exc:
        return str(exc)
    return None


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
