"""Writing a new fixture: its own new folder, the context files copied in, task.yaml last.

The fixture's folder is claimed with one mkdir (made from an open descriptor of its parent, each
folder on the way opened without following a symlink), so a folder that already exists, or
appears meanwhile, refuses the write. Every file goes through workspace/writes.py (atomic, fsynced,
inside the workspace). A write that fails part-way removes what it made: the files it wrote and
the folders it created (only while they are empty, so nothing someone else put there is lost).
"""

from __future__ import annotations

import contextlib
import errno
import os
from dataclasses import dataclass

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.atomic import ContentChanged, Expected, WriteRefused
from voyage_tui.engine.authoring.answers import Answers, TaskAnswers
from voyage_tui.engine.authoring.check import (
    CONTEXT_REF_CLASH,
    CONTEXT_SOURCE_UNREADABLE,
    FIXTURE_EXISTS,
    Checked,
)
from voyage_tui.engine.authoring.sources import (
    SourceFile,
    SourceRefused,
    TrackedFiles,
    source_files,
)
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

_FOLDER_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class NotWritten(Exception):
    """Nothing was written; `problems` says why (the blocking diagnostics of the answers)."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        super().__init__("; ".join(p.message for p in problems) or "nothing was written")
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Written:
    path: str
    """The new task.yaml, workspace-relative."""
    id: str
    files: tuple[str, ...]
    """Every file written (task.yaml last), workspace-relative."""


def write_fixture(
    ws: Workspace, checked: Checked, answers: Answers, tracked: TrackedFiles | None = None
) -> Written:
    """Write the checked document and copy the context files in. Raises NotWritten (nothing was
    written: a blocking diagnostic, a source the person did not name that git does not track, a
    folder that exists) or the OSError of a failed write (what was made is removed again)."""
    if not checked.writable:
        problems = checked.blocking or [
            dg.error(checked.rel, None, "missing-field", "The class and the id are needed first.")
        ]
        raise NotWritten(problems)
    folder = checked.rel.rsplit("/", 1)[0]
    copies = _copies(ws, checked, answers, folder, tracked or TrackedFiles(ws))
    try:
        created = claim_folder(ws, folder)
    except FileExistsError:
        raise NotWritten(
            [
                dg.error(
                    checked.rel,
                    None,
                    FIXTURE_EXISTS,
                    f"{folder} already exists; nothing was written. Choose another id",
                )
            ]
        ) from None
    written: list[str] = []
    try:
        for target, source in copies:
            data = read_bytes_inside(
                ws.abs(source.rel), source.rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes
            )
            if isinstance(data, Diagnostic):
                raise NotWritten([data])
            try:
                real = write_file(ws, target, data, expect=Expected(None), make_folders=True)
            except ContentChanged:
                # something is there already (two copies meet): never replaced
                raise NotWritten(
                    [
                        dg.error(
                            checked.rel,
                            None,
                            CONTEXT_REF_CLASH,
                            f"{target} would be written twice by the context copies; "
                            "nothing was written",
                        )
                    ]
                ) from None
            written.append(real)
            if source.executable:
                os.chmod(real, os.stat(real).st_mode | 0o111)
        text = checked.text.encode("utf-8")
        written.append(write_file(ws, checked.rel, text, expect=Expected(None)))
    except BaseException:
        _undo(written, created)
        raise
    files = tuple(os.path.relpath(p, ws.root_real).replace(os.sep, "/") for p in written)
    return Written(checked.rel, answers.id.strip(), files)


def _copies(
    ws: Workspace, checked: Checked, answers: Answers, folder: str, tracked: TrackedFiles
) -> list[tuple[str, SourceFile]]:
    """(workspace-relative target, source file) for every file the context copies in. Asked
    again here, whatever `checked` said: what a source reads, and whether git tracks it, is
    decided at the write."""
    if not isinstance(answers, TaskAnswers):
        return []
    out: list[tuple[str, SourceFile]] = []
    for entry in answers.context:
        if entry.file is None or entry.source is None:
            continue
        ref = os.path.normpath(entry.file.strip()).replace(os.sep, "/")
        try:
            files = source_files(ws, entry.source)
        except SourceRefused as exc:
            problem = dg.error(checked.rel, None, CONTEXT_SOURCE_UNREADABLE, str(exc))
            raise NotWritten([problem]) from None
        untracked = None if entry.named else tracked.problem(entry.source, [f.rel for f in files])
        if untracked:
            problem = dg.error(checked.rel, None, CONTEXT_SOURCE_UNREADABLE, untracked)
            raise NotWritten([problem])
        for source in files:
            target = f"{folder}/{ref}/{source.sub}" if source.sub else f"{folder}/{ref}"
            target = os.path.normpath(target).replace(os.sep, "/")
            if not target.startswith(folder + "/"):
                raise WriteRefused(target, f"{entry.file!r} leaves the fixture folder")
            out.append((target, source))
    return out


def claim_folder(ws: Workspace, rel: str) -> list[str]:
    """Create the folder `rel` (and any missing folder above it) inside the workspace; its
    real path and those of the folders made above it come back, deepest last. Raises
    FileExistsError when `rel` exists, WriteRefused when the way leads out of the workspace."""
    full = ws.abs(rel)
    if os.path.lexists(full):
        raise FileExistsError(errno.EEXIST, "the folder exists", rel)
    # The path as written: no folder on the way may be a symlink, even one inside the workspace.
    norm = os.path.normpath(rel)
    if os.path.isabs(norm) or norm == "." or norm.split(os.sep)[0] == "..":
        raise WriteRefused(rel, f"{rel} is outside the workspace; nothing was written")
    parts = norm.split(os.sep)
    created: list[str] = []
    here = ws.root_real
    fd = os.open(ws.root_real, _FOLDER_FLAGS)
    try:
        for index, part in enumerate(parts):
            here = os.path.join(here, part)
            if index == len(parts) - 1:
                os.mkdir(part, 0o777, dir_fd=fd)  # FileExistsError: someone was faster
                created.append(here)
                break
            try:
                child = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                    created.append(here)
                child = _open_folder(part, fd, rel)
            except OSError as exc:
                raise _refused(rel, exc) from exc
            os.close(fd)
            fd = child
    except BaseException:
        _undo([], created)
        raise
    finally:
        os.close(fd)
    return created


def _open_folder(part: str, parent_fd: int, rel: str) -> int:
    try:
        return os.open(part, _FOLDER_FLAGS, dir_fd=parent_fd)
    except OSError as exc:
        raise _refused(rel, exc) from exc


def _refused(rel: str, exc: OSError) -> OSError:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return WriteRefused(
            rel,
            f"a folder on the way to {rel} is a file or a symlink; voyage-tui never writes "
            "through a symlink, even one that stays inside the workspace, so nothing was written",
        )
    return exc


def _undo(files: list[str], folders: list[str]) -> None:
    for path in reversed(files):
        with contextlib.suppress(OSError):
            os.unlink(path)
    if folders:
        _remove_empty_tree(folders[-1])
    for folder in reversed(folders):
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def _remove_empty_tree(folder: str) -> None:
    """Remove the empty folders below `folder` (the copies' subfolders); a folder still holding
    anything stays."""
    for here, _, _ in os.walk(folder, topdown=False):
        if here != folder:
            with contextlib.suppress(OSError):
                os.rmdir(here)
