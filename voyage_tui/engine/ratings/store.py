"""The ratings of a workspace: every `<ratings>/<rater>.jsonl` read and checked, the rating in
force per (fixture_id, run_id, rater), and the durable append of one record.

The files are append-only. The rating in force for a key is its latest record that counts (file
order, not `rated_at`: clocks differ, the order of writes does not); a record whose `scores` is
null is a retraction, so the key is unrated again. A record with an error does not count, as if
its line were absent (see rules.py).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.atomic import ContentChanged, Expected, WriteRefused
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.ratings.names import ratings_file_rel
from voyage_tui.engine.ratings.records import (
    RATINGS_SUFFIX,
    Foreign,
    Rating,
    RatingsFile,
    parse_ratings,
)
from voyage_tui.engine.ratings.rules import DeletedRuns, check_ratings_file
from voyage_tui.engine.ratings.runs import RunIndex, RunKey
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import append_lines, write_file

Key = tuple[str, str, str]
"""(fixture_id, run_id, rater)"""

_READ_LAST = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def list_ratings_files(ws: Workspace) -> tuple[list[str], list[Diagnostic]]:
    """The `*.jsonl` files directly in the ratings folder (sorted), and why the folder could not
    be listed, if so. A ratings folder that leads out of the workspace is refused unread."""
    folder = ws.ratings_rel
    folder_abs = ws.abs(folder)
    if not os.path.isdir(folder_abs):
        return [], []
    if not is_within(ws.root_real, os.path.realpath(folder_abs)):
        return [], [
            dg.error(
                folder or ".",
                None,
                "symlink-outside-workspace",
                "the ratings folder leads outside the workspace through a symlink; nothing in it "
                "was read",
            )
        ]
    try:
        names = os.listdir(folder_abs)
    except OSError as exc:
        return [], [
            dg.error(
                folder or ".",
                None,
                "folder-unreadable",
                f"this folder cannot be read ({exc.strerror or exc}); no rating in it was checked",
            )
        ]
    rels = [
        f"{folder}/{name}" if folder else name
        for name in sorted(names)
        if name.endswith(RATINGS_SUFFIX) and len(name) > len(RATINGS_SUFFIX)
    ]
    return rels, []


class RatingStore:
    """Checked ratings files by path, and the views a rater session and agreement need."""

    def __init__(self, files: Iterable[RatingsFile] = (), problems: Iterable[Diagnostic] = ()):
        self.files: dict[str, RatingsFile] = {f.path: f for f in files}
        self.problems: list[Diagnostic] = list(problems)
        """Problems of the ratings folder itself (unreadable, a symlink out)."""
        self._latest: dict[Key, Rating] | None = None
        self._stamps: dict[str, _Stamp] = {}
        """Each file as this store last wrote it: its lines are counted again from disk when
        the file is not (a failed append may have left part of a line, or all of it)."""

    @classmethod
    def load(
        cls,
        ws: Workspace,
        rubric: Rubric,
        runs: RunIndex | None = None,
        deleted_runs: DeletedRuns | None = None,
        *,
        paths: Iterable[str] | None = None,
    ) -> RatingStore:
        """Read and check the ratings files (`paths`, else every one in the ratings folder).
        Without `runs`, the runs the records name are not checked."""
        problems: list[Diagnostic] = []
        if paths is None:
            listed, problems = list_ratings_files(ws)
            paths = listed
        # Stamped before reading: a change landing in between makes the stamp stale, and the
        # first append then counts the file again (never the other way round).
        stamps = {rel: _stamp_of(ws.abs(rel)) for rel in paths}
        files = [check_ratings_file(ws, rubric, rel, runs, deleted_runs) for rel in stamps]
        store = cls(files, problems)
        store._stamps = {rel: stamp for rel, stamp in stamps.items() if store.files[rel].readable}
        return store

    # --- views ---------------------------------------------------------------------------------

    def diagnostics(self) -> list[Diagnostic]:
        out = list(self.problems)
        for checked in self.files.values():
            out.extend(checked.diagnostics)
        return out

    def ratings(self) -> Iterator[Rating]:
        """Every record that counts, file by file, in file order."""
        for checked in self.files.values():
            yield from checked.ratings

    def latest(self) -> dict[Key, Rating]:
        """The last record per key, retractions included."""
        if self._latest is None:
            latest: dict[Key, Rating] = {}
            for rating in self.ratings():
                latest[rating.key] = rating
            self._latest = latest
        return self._latest

    def effective(self) -> dict[Key, Rating]:
        """The rating in force per key: the last record, unless it is a retraction."""
        return {key: r for key, r in self.latest().items() if r.scores is not None}

    def of_rater(self, rater: str) -> dict[RunKey, Rating]:
        """`rater`'s ratings in force, by (fixture_id, run_id)."""
        return {
            rating.run_key: rating
            for key, rating in self.latest().items()
            if key[2] == rater and rating.scores is not None
        }

    def history(self, key: Key) -> list[Rating]:
        """Every record of `key` that counts, oldest first."""
        return [r for r in self.ratings() if r.key == key]

    def raters(self) -> list[str]:
        return sorted({r.rater for r in self.ratings()})

    def file_of(self, ws: Workspace, rater: str) -> RatingsFile | None:
        return self.files.get(ratings_file_rel(ws, rater))

    # --- writing -------------------------------------------------------------------------------

    def append(self, ws: Workspace, rating: Rating) -> Rating:
        """Write `rating` durably to its rater's file (see append_ratings) and count it. Returns
        the record as stored, with its path and line."""
        return self.append_many(ws, [rating])[0]

    def append_many(self, ws: Workspace, ratings: Sequence[Rating]) -> list[Rating]:
        """Write `ratings` durably and count them: each rater's records in one write and one
        fsync to their file (append_ratings), so a program rating thousands of items pays for
        one. Returns the records as stored (with their paths and lines), in the order given.
        A file refused (WriteRefused) gets none of its records; the files before it keep
        theirs."""
        by_file: dict[str, list[int]] = {}
        for index, rating in enumerate(ratings):
            by_file.setdefault(ratings_file_rel(ws, rating.rater), []).append(index)
        stored: dict[int, Rating] = {}
        for rel, indexes in by_file.items():
            checked = self.files.get(rel)
            if checked is None:
                checked = self.files[rel] = RatingsFile(rel)
            # As this store last saw it: its line count and last byte are known without a read.
            unchanged = rel in self._stamps and self._stamps[rel] == _stamp_of(ws.abs(rel))
            if not unchanged:
                _count_lines(ws, checked)
            refusal = checked.foreign.refusal(rel)
            if refusal is not None:
                raise WriteRefused(rel, refusal)
            # The stamp is dropped first: a failed append leaves the file to be counted again.
            self._stamps.pop(rel, None)
            group = [ratings[i] for i in indexes]
            append_ratings(
                ws, rel, group, ends_with_newline=checked.ends_with_newline if unchanged else None
            )
            self._stamps[rel] = _stamp_of(ws.abs(rel))
            for index, rating in zip(indexes, group, strict=True):
                checked.line_count += 1
                stored[index] = replace(rating, path=rel, line=checked.line_count)
                checked.ratings.append(stored[index])
            checked.ends_with_newline = True
            self._latest = None
        return [stored[i] for i in range(len(ratings))]


_Stamp = tuple[int, int, int, int] | None
"""(device, inode, size, mtime in ns) of a file, None when there is none."""


def _stamp_of(full: str) -> _Stamp:
    try:
        info = os.lstat(full)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _count_lines(ws: Workspace, checked: RatingsFile) -> None:
    """Look at `checked`'s file on disk again: its lines counted, so the next record is
    numbered at the line it lands on, and whether they are still ratings (a checkout may have
    put something else there). A file that cannot be read is left to the append, which refuses
    or fails as it must."""
    full = ws.abs(checked.path)
    if not os.path.lexists(full):
        checked.line_count, checked.ends_with_newline = 0, True
        checked.foreign = Foreign()
        return
    lines = ws.open_lines(checked.path)
    if isinstance(lines, Diagnostic):
        return
    parsed = parse_ratings(lines, checked.path)
    checked.line_count, checked.ends_with_newline = parsed.line_count, parsed.ends_with_newline
    checked.foreign = parsed.foreign


def append_rating(ws: Workspace, rating: Rating) -> None:
    """Append one record to `<ratings>/<rater>.jsonl` (append_ratings)."""
    append_ratings(ws, ratings_file_rel(ws, rating.rater), [rating])


def append_ratings(
    ws: Workspace,
    rel: str,
    ratings: Sequence[Rating],
    *,
    ends_with_newline: bool | None = None,
) -> None:
    """Append records to the ratings file `rel` in one write and one fsync, so a killed
    session loses at most these records (the last one may be left cut off: a torn line, which
    readers report and step over). A last line left without its newline by an earlier crash is
    ended first, so the new records start a line of their own; `ends_with_newline` is what the
    caller already knows of that, else the file's last byte is read. The ratings folder is
    made when missing. Raises OSError (WriteRefused for a symlink out of the workspace, a FIFO,
    a file with other hard links)."""
    full = ws.abs(rel)
    lines = [rating.to_line() for rating in ratings]
    if not lines:
        return
    if not os.path.lexists(full):
        # Made meanwhile by another session (ContentChanged): append to it all the same.
        with contextlib.suppress(ContentChanged):
            write_file(ws, rel, b"", expect=Expected(None), make_folders=True)
        ends_with_newline = None
    if not (_ends_with_newline(ws, full) if ends_with_newline is None else ends_with_newline):
        lines[0] = "\n" + lines[0]
    append_lines(ws, rel, lines)


def _ends_with_newline(ws: Workspace, full: str) -> bool:
    """Whether the file's last byte is a newline (an empty file counts as ending with one). A
    file this cannot look at is left to append_line_durably, which refuses what it must."""
    real = os.path.realpath(full)
    if not is_within(ws.root_real, real):
        return True
    try:
        fd = os.open(real, _READ_LAST)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ELOOP, errno.ENXIO):
            return True
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
            return True
        return os.pread(fd, 1, info.st_size - 1) == b"\n"
    finally:
        os.close(fd)
