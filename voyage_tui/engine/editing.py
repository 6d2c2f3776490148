"""Opening and saving workspace files for an editor without ever losing work.

A save is refused when the file changed on disk since it was opened (someone else, or another
tool, wrote it): the caller shows the difference and lets the person reload or keep theirs.
The check is made twice: once up front (cheap, and it shows the difference before anything is
written), and again at the rename itself, by the writer (see engine/atomic.py), so a change that
lands while the new content is being written is caught too, not overwritten.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from enum import StrEnum

from voyage_tui.engine.atomic import ContentChanged, Expected
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

_BOM = b"\xef\xbb\xbf"


class OpenError(Exception):
    """The file cannot be edited as text (binary, too large, not a regular file, ...)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class FileConflict(Exception):
    """The file on disk is no longer what was opened."""

    def __init__(self, disk_text: str | None) -> None:
        super().__init__("the file changed on disk since it was opened")
        self.disk_text = disk_text
        """What is on disk now; None when the file was deleted."""


@dataclass(frozen=True, slots=True)
class OpenedFile:
    rel: str
    text: str
    digest: str | None
    """sha256 of the bytes as read; None for a file that did not exist yet."""
    bom: bool = False


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(ws: Workspace, rel: str) -> bytes | None:
    data = read_bytes_inside(ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes)
    if isinstance(data, Diagnostic):
        if data.code == "file-missing":
            return None
        raise OpenError(data)
    return data


def open_file(ws: Workspace, rel: str) -> OpenedFile:
    data = _read(ws, rel)
    if data is None:
        return OpenedFile(rel, "", None)
    text = decode(data, rel)
    if isinstance(text, Diagnostic):
        raise OpenError(text)
    return OpenedFile(rel, text, _digest(data), bom=data.startswith(_BOM))


def disk_text(ws: Workspace, rel: str) -> str | None:
    data = _read(ws, rel)
    if data is None:
        return None
    text = decode(data, rel)
    return text if isinstance(text, str) else data.decode("utf-8", "replace")


def save_file(ws: Workspace, opened: OpenedFile, text: str, *, force: bool = False) -> OpenedFile:
    """Write `text` atomically (mode kept). Raises FileConflict unless the file on disk is still
    what `opened` read, up to the instant the new content replaces it, or `force` is set (the
    person chose to keep their version). Raises WriteRefused (an OSError) for a path that leads
    outside the workspace or is not a regular file, and OSError when the write fails."""
    if not force:
        # Unreadable, too large or a symlink out now: OpenError says why, and nothing is written.
        current = _read(ws, opened.rel)
        current_digest = None if current is None else _digest(current)
        if current_digest != opened.digest:
            raise _conflict(ws, opened.rel)
    data = (_BOM if opened.bom else b"") + text.encode("utf-8")
    expect = None if force else Expected(opened.digest, ws.max_file_bytes)
    try:
        write_file(ws, opened.rel, data, expect=expect, shown=opened.rel)
    except ContentChanged:
        raise _conflict(ws, opened.rel) from None
    return OpenedFile(opened.rel, text, _digest(data), opened.bom)


def _conflict(ws: Workspace, rel: str) -> FileConflict:
    try:
        return FileConflict(disk_text(ws, rel))
    except OpenError as exc:
        return FileConflict(f"(what is on disk now cannot be shown: {exc})\n")


def unified_diff(before: str, after: str, before_name: str, after_name: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=before_name,
        tofile=after_name,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# --- what opening an item does ----------------------------------------------------------------


class Opening(StrEnum):
    """What Enter on an item of the browser opens."""

    EDITOR = "editor"
    """The editor, on the file."""
    RUNS = "runs"
    """The gold file's runs, ranked (the editor stays one key away)."""
    RUN_DIFF = "diff"
    """The run against its gold file; the editor for a run that belongs to none."""
    NOTHING = "nothing"
    """Never an item."""


OPENING: dict[FileKind, Opening] = {
    FileKind.TASK: Opening.EDITOR,
    FileKind.TRAJECTORY: Opening.EDITOR,
    FileKind.AGENT_RUN: Opening.EDITOR,
    FileKind.GOLD: Opening.RUNS,
    FileKind.GOLD_RUN: Opening.RUN_DIFF,
    FileKind.RATING: Opening.EDITOR,
    FileKind.ADJUDICATION: Opening.EDITOR,
    FileKind.REFERENCE: Opening.NOTHING,
    FileKind.CONFIG: Opening.NOTHING,
    FileKind.MISPLACED_TASK: Opening.NOTHING,
    FileKind.OTHER: Opening.NOTHING,
}
"""The open concern of each file kind (see engine/kinds.py)."""
