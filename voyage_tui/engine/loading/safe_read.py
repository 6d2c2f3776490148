"""Read a file's bytes only when it is a regular file of sane size inside the workspace."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.stamps import pack_stat

_KIND_NAMES = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


_recording = threading.local()


@contextmanager
def recording_stats() -> Iterator[dict[str, bytes]]:
    """While open (in this thread), each regular file read_bytes reads by its own name (no
    symlink) is kept in the dict it gives, by its `rel`, as the packed lstat the read took
    before opening it (stamps.pack_stat; the descriptor opened is checked to be that file):
    the validation cache stamps the file with it instead of an lstat of its own. The first read
    of a path is kept."""
    before = getattr(_recording, "stats", None)
    stats: dict[str, bytes] = {}
    _recording.stats = stats
    try:
        yield stats
    finally:
        _recording.stats = before


@contextmanager
def keeping_bytes() -> Iterator[dict[str, bytes]]:
    """While open (in this thread), the bytes of each file read_bytes reads whole are kept in
    the dict it gives, by its `rel` (the first read of a path): a validation hands the gold files
    and runs it checked to `results`, which scores them without opening them again (issue 34)."""
    before = getattr(_recording, "kept", None)
    kept: dict[str, bytes] = {}
    _recording.kept = kept
    try:
        yield kept
    finally:
        _recording.kept = before


def _keep(rel: str, data: bytes) -> bytes:
    kept = getattr(_recording, "kept", None)
    if kept is not None:
        kept.setdefault(rel, data)
    return data


def _kind(mode: int) -> str:
    for test, name in _KIND_NAMES:
        if test(mode):
            return name
    return "not a regular file"


def is_within(root_real: str, path_real: str) -> bool:
    return path_real == root_real or path_real.startswith(root_real.rstrip(os.sep) + os.sep)


def open_regular(
    abs_path: str,
    rel: str,
    *,
    root_real: str,
    max_bytes: int,
    check_symlink: bool = True,
) -> tuple[int, os.stat_result] | Diagnostic:
    """An open descriptor of the regular file at `abs_path` and its fstat, or the one
    diagnostic that says why it was not opened. The caller closes the descriptor.

    A FIFO or device is never opened (opening a FIFO blocks); a symlink that resolves outside
    the workspace is refused unopened; a size over `max_bytes` is refused before opening.
    """
    try:
        st = lst = os.lstat(abs_path)
    except FileNotFoundError:
        return dg.error(rel, None, "file-missing", "the file disappeared while it was being read")
    except OSError as exc:
        return dg.error(rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    if check_symlink and stat.S_ISLNK(st.st_mode):
        real = os.path.realpath(abs_path)
        if not is_within(root_real, real):
            return dg.error(
                rel,
                None,
                "symlink-outside-workspace",
                "this symlink points outside the workspace; it was not read. "
                "Replace it with the file itself",
            )
        try:
            st = os.stat(abs_path)
        except OSError:
            return dg.error(
                rel, None, "broken-symlink", "this symlink points to nothing; fix or remove it"
            )
    if not stat.S_ISREG(st.st_mode):
        return dg.error(
            rel,
            None,
            "not-a-regular-file",
            f"this is {_kind(st.st_mode)}, not a regular file; it was not opened",
        )
    if st.st_size > max_bytes:
        return too_large(rel, st.st_size, max_bytes)
    # A name that was no symlink when looked at is opened without following one: a swap to a
    # symlink since then fails here instead of being read.
    flags = _OPEN_FLAGS if stat.S_ISLNK(lst.st_mode) else _OPEN_FLAGS | _NOFOLLOW
    try:
        fd = os.open(abs_path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _swapped(rel)
        return dg.error(rel, None, "file-unreadable", f"cannot open the file: {exc.strerror}")
    try:
        # Re-check on the open descriptor: the path may have been swapped since lstat.
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):
            os.close(fd)
            return dg.error(
                rel, None, "not-a-regular-file", f"this is {_kind(fst.st_mode)}, not a regular file"
            )
        if (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
            os.close(fd)
            return _swapped(rel)
    except OSError as exc:
        os.close(fd)
        return dg.error(rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    stats = getattr(_recording, "stats", None)
    if stats is not None and st is lst:  # read by its own name, no symlink on it
        stats.setdefault(rel, pack_stat(lst))
    return fd, fst


def read_bytes(
    abs_path: str,
    rel: str,
    *,
    root_real: str,
    max_bytes: int,
    check_symlink: bool = True,
) -> bytes | Diagnostic:
    """The file's bytes, or the one diagnostic that says why it was not read (open_regular's
    checks; a file that grows past `max_bytes` while it is read is refused too)."""
    opened = open_regular(
        abs_path, rel, root_real=root_real, max_bytes=max_bytes, check_symlink=check_symlink
    )
    if isinstance(opened, Diagnostic):
        return opened
    fd, fst = opened
    try:
        chunks: list[bytes] = []
        total = 0
        while True:
            want = max(fst.st_size - total, 0) + 1 if not chunks else 1 << 16
            chunk = os.read(fd, want)
            if not chunks and len(chunk) < want and len(chunk) <= max_bytes:
                # A regular file gives less than was asked for only at its end: no second
                # read to find it (one system call less per file of a suite).
                return _keep(rel, chunk)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                return too_large(rel, total, max_bytes)
        return _keep(rel, chunks[0] if len(chunks) == 1 else b"".join(chunks))
    except OSError as exc:
        return dg.error(rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    finally:
        os.close(fd)


def outside_through_folder(abs_path: str, rel: str, root_real: str) -> Diagnostic | None:
    """The refusal of a file whose folder on the way is a symlink leading out of the
    workspace (the file's own name is open_regular's to judge), else None."""
    if not os.path.islink(abs_path) and not is_within(root_real, os.path.realpath(abs_path)):
        return dg.error(
            rel,
            None,
            "symlink-outside-workspace",
            "this file's folder leads outside the workspace through a symlink; it was not read",
        )
    return None


def read_bytes_inside(
    abs_path: str, rel: str, *, root_real: str, max_bytes: int
) -> bytes | Diagnostic:
    """read_bytes, and refused unread when any folder on the way is a symlink leading out of
    the workspace (read_bytes alone looks at the file's own name only; the folder walker has
    already refused such folders, a path typed or stored elsewhere has not)."""
    refused = outside_through_folder(abs_path, rel, root_real)
    if refused is not None:
        return refused
    return read_bytes(abs_path, rel, root_real=root_real, max_bytes=max_bytes)


def sha256_inside(abs_path: str, rel: str, *, root_real: str, max_bytes: int) -> str | Diagnostic:
    """The SHA-256 (hex) of the file's bytes, read as read_bytes_inside reads it but a block at
    a time: a file of any kind (a ratings file of 64 MiB) is hashed in bounded memory."""
    refused = outside_through_folder(abs_path, rel, root_real)
    if refused is not None:
        return refused
    opened = open_regular(abs_path, rel, root_real=root_real, max_bytes=max_bytes)
    if isinstance(opened, Diagnostic):
        return opened
    fd, _ = opened
    digest = hashlib.sha256()
    total = 0
    try:
        while chunk := os.read(fd, 1 << 16):
            total += len(chunk)
            if total > max_bytes:
                return too_large(rel, total, max_bytes)
            digest.update(chunk)
    except OSError as exc:
        return dg.error(rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    finally:
        os.close(fd)
    return digest.hexdigest()


def _swapped(rel: str) -> Diagnostic:
    return dg.error(
        rel, None, "file-unreadable", "the file was replaced while it was being read; try again"
    )


def too_large(rel: str, size: int, max_bytes: int) -> Diagnostic:
    return dg.error(
        rel,
        None,
        "file-too-large",
        f"the file has {size:,} bytes, over the limit of {max_bytes:,}; it was not parsed "
        "(raise [limits] max_file_bytes in voyage.toml if it is meant to be this big)",
    )
