"""Reading a log the user named: a regular file, no larger than a cap, read once."""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from voyage_tui.engine.importing.model import ImportRefused


def read_source(path: str, max_bytes: int) -> bytes:
    """The file's bytes; ImportRefused when it is not a regular file or is over `max_bytes`
    (checked before reading, and again on what was read, for a file that grows)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ImportRefused(f"{path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ImportRefused(f"{path}: not a regular file")
        if st.st_size > max_bytes:
            raise ImportRefused(f"{path}: {st.st_size} bytes, more than the {max_bytes} allowed")
        chunks: list[bytes] = []
        got = 0
        while got <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            raise ImportRefused(f"{path}: more than the {max_bytes} bytes allowed")
        return b"".join(chunks)
    except OSError as exc:
        raise ImportRefused(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def open_source(path: str, max_bytes: int) -> BinaryIO:
    """The regular file at `path` open for reading (the caller closes it); ImportRefused when
    it is not a regular file or is over `max_bytes`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ImportRefused(f"{path}: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
        os.close(fd)
        why = (
            "not a regular file"
            if not stat.S_ISREG(st.st_mode)
            else (f"{st.st_size} bytes, more than the {max_bytes} allowed")
        )
        raise ImportRefused(f"{path}: {why}")
    return os.fdopen(fd, "rb")
