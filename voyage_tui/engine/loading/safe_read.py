"""Read a file's bytes only when it is a regular file of sane size inside the workspace."""

from __future__ import annotations

import os
import stat

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic

_KIND_NAMES = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _kind(mode: int) -> str:
    for test, name in _KIND_NAMES:
        if test(mode):
            return name
    return "not a regular file"


def is_within(root_real: str, path_real: str) -> bool:
    return path_real == root_real or path_real.startswith(root_real.rstrip(os.sep) + os.sep)


def read_bytes(
    abs_path: str,
    rel: str,
    *,
    root_real: str,
    max_bytes: int,
    check_symlink: bool = True,
) -> bytes | Diagnostic:
    """The file's bytes, or the one diagnostic that says why it was not read.

    A FIFO or device is never opened for reading (opening a FIFO blocks); a symlink that
    resolves outside the workspace is refused unread; the size is checked before reading.
    """
    try:
        st = os.lstat(abs_path)
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
        return _too_large(rel, st.st_size, max_bytes)
    try:
        fd = os.open(abs_path, _OPEN_FLAGS)
    except OSError as exc:
        return dg.error(rel, None, "file-unreadable", f"cannot open the file: {exc.strerror}")
    try:
        # Re-check on the open descriptor: the path may have been swapped since lstat.
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):
            return dg.error(
                rel, None, "not-a-regular-file", f"this is {_kind(fst.st_mode)}, not a regular file"
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, max(fst.st_size - total, 0) + 1 if not chunks else 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                return _too_large(rel, total, max_bytes)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        return dg.error(rel, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    finally:
        os.close(fd)


def _too_large(rel: str, size: int, max_bytes: int) -> Diagnostic:
    return dg.error(
        rel,
        None,
        "file-too-large",
        f"the file has {size:,} bytes, over the limit of {max_bytes:,}; it was not parsed "
        "(raise [limits] max_file_bytes in voyage.toml if it is meant to be this big)",
    )
