"""A JSON-lines file read as a stream: line by line, each line bounded, the whole file bounded.

Ratings, adjudications and imported logs grow with a campaign, and a workspace may hold one of
any size (a sparse file of many GiB costs nothing on disk). Nothing here holds more than one
line (at most `max_line` bytes) and one read buffer at a time, whatever the file holds: a line
over the bound is reported by its number and skipped unread, and the lines after it are read
as usual. The file is opened with the checks of every read (safe_read.open_regular).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import open_regular, outside_through_folder, too_large
from voyage_tui.engine.wording import plural

MAX_LINE_BYTES = 1 << 20
"""1 MiB: a record is a few hundred bytes, and one with a page-long note a few KiB. A longer
line is no record anyone wrote, and is not held in memory to find out."""

LINE_TOO_LONG = "line-too-long"
"""The code of a line over the bound, in every JSON-lines format."""

MAX_LINE_PROBLEMS = 1000
"""The problems of one file's lines listed one by one; past them, one diagnostic counts the
rest (a file of a million junk lines would otherwise be a million diagnostics in memory)."""
UNLISTED = "problems-not-listed"

_CHUNK = 1 << 16
HEAD_BYTES = 4
"""The bytes kept from the file's start: enough for any byte-order mark."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line without its "\\n". `data` is None for a line over the bound (`length` bytes,
    not kept)."""

    number: int
    data: bytes | None
    length: int


@dataclass(slots=True)
class Unlisted:
    """The problems of a file's lines past MAX_LINE_PROBLEMS: counted, not kept."""

    count: int = 0
    first_line: int | None = None
    errors: bool = False

    def add(self, problems: list[Diagnostic]) -> None:
        self.count += len(problems)
        if self.first_line is None and problems:
            self.first_line = problems[0].line
        self.errors = self.errors or any(p.severity is dg.Severity.ERROR for p in problems)

    def diagnostic(self, rel: str) -> Diagnostic:
        make = dg.error if self.errors else dg.warning
        return make(
            rel,
            (self.first_line, 1) if self.first_line is not None else None,
            UNLISTED,
            f"{plural(self.count, 'more problem')} from this line on "
            f"{'is' if self.count == 1 else 'are'} not listed (the first "
            f"{MAX_LINE_PROBLEMS:,} of the file are); fix those, and validate again",
        )


class LineStream:
    """The lines of one open file, read once by iterating. After the iteration: `head` (the
    file's first bytes), `ends_with_newline`, `line_count`, and `problem`, the diagnostic that
    stopped the read part-way (the file grew past its bound, or a read failed), else None."""

    def __init__(self, fd: int, rel: str, *, max_bytes: int, max_line: int) -> None:
        self._fd = fd
        self.rel = rel
        self.max_bytes = max_bytes
        self.max_line = max_line
        self.head = b""
        self.ends_with_newline = True
        self.line_count = 0
        self.problem: Diagnostic | None = None
        self._used = False

    def __iter__(self) -> Iterator[Line]:
        if self._used:
            raise RuntimeError("a LineStream is read once")
        self._used = True
        try:
            yield from self._lines()
        finally:
            self.close()

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _lines(self) -> Iterator[Line]:
        pending = bytearray()  # the line being read, while it is within the bound
        length = 0  # its length so far, kept or not
        kept = True
        total = 0
        number = 0
        while True:
            try:
                chunk = os.read(self._fd, _CHUNK)
            except OSError as exc:
                self.problem = dg.error(
                    self.rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}"
                )
                return
            if not chunk:
                break
            if total < HEAD_BYTES:
                self.head += chunk[: HEAD_BYTES - total]
            total += len(chunk)
            if total > self.max_bytes:
                self.problem = too_large(self.rel, total, self.max_bytes)
                return
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end == -1 else chunk[start:end]
                length += len(piece)
                if kept and length > self.max_line:
                    kept = False
                    pending = bytearray()
                elif kept:
                    pending += piece
                if end == -1:
                    break
                number += 1
                yield Line(number, bytes(pending) if kept else None, length)
                pending, length, kept = bytearray(), 0, True
                start = end + 1
        self.ends_with_newline = length == 0
        if length:
            number += 1
            yield Line(number, bytes(pending) if kept else None, length)
        self.line_count = number


class BufferLines:
    """The lines of a file's bytes already in memory (an editor's buffer), as LineStream gives
    a file's: the same line bound, the same attributes."""

    def __init__(self, data: bytes, max_line: int = MAX_LINE_BYTES) -> None:
        self.data = data
        self.max_line = max_line
        self.head = data[:HEAD_BYTES]
        # Only "\n" ends a record: JSON text may hold U+2028 or a lone "\r", which
        # str.splitlines would take for line ends.
        self.ends_with_newline = not data or data.endswith(b"\n")
        self.line_count = 0
        self.problem: Diagnostic | None = None

    def __iter__(self) -> Iterator[Line]:
        chunks = self.data.split(b"\n")
        if self.ends_with_newline:
            chunks.pop()
        self.line_count = len(chunks)
        for number, raw in enumerate(chunks, start=1):
            kept = raw if len(raw) <= self.max_line else None
            yield Line(number, kept, len(raw))


def open_lines(
    abs_path: str,
    rel: str,
    *,
    root_real: str,
    max_bytes: int,
    max_line: int = MAX_LINE_BYTES,
) -> LineStream | Diagnostic:
    """The lines of the file at `abs_path` as a stream (read when iterated), or the diagnostic
    that says why it cannot be read: a folder on the way or the file a symlink out of the
    workspace, not a regular file, or over `max_bytes` (looked at before anything is read)."""
    refused = outside_through_folder(abs_path, rel, root_real)
    if refused is not None:
        return refused
    opened = open_regular(abs_path, rel, root_real=root_real, max_bytes=max_bytes)
    if isinstance(opened, Diagnostic):
        return opened
    return LineStream(opened[0], rel, max_bytes=max_bytes, max_line=max_line)
