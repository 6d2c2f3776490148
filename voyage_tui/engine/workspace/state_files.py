"""Reading the tool's own files under `.voyage/` (wizard drafts, the triage state).

They live in a workspace that may come from anyone, so each is reached from the workspace's
real root one folder at a time without following a symlink, opened without blocking (a FIFO
planted at the name), and read only while it is a regular file within its size limit."""

from __future__ import annotations

import errno
import os
import stat

STATE_FOLDER = ".voyage"
"""The tool's own folder in a workspace: drafts, the triage state, rater locks."""

FOLDER_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
FILE_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class StateUnreadable(Exception):
    """Why a state file or its folder could not be read, as words for a message."""


def why(exc: OSError, what: str) -> str:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return f"{what} is a symlink or not a folder"
    return exc.strerror or str(exc)


def open_folder(root_real: str, folder: str) -> int | None:
    """A descriptor of `folder` (workspace-relative, `/`-separated); None when a part of it
    does not exist. Raises StateUnreadable for a symlink or anything else in the way."""
    try:
        fd = os.open(root_real, FOLDER_FLAGS)
    except OSError as exc:
        raise StateUnreadable(exc.strerror or str(exc)) from None
    for part in folder.split("/"):
        try:
            child = os.open(part, FOLDER_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            os.close(fd)
            return None
        except OSError as exc:
            os.close(fd)
            raise StateUnreadable(why(exc, folder)) from None
        os.close(fd)
        fd = child
    return fd


def read_file(folder_fd: int, name: str, max_bytes: int) -> bytes | None:
    """The bytes of `name` in the folder; None when it does not exist. Raises StateUnreadable:
    a symlink, not a regular file, over `max_bytes`, or unreadable."""
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=folder_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StateUnreadable(
            "it is a symlink" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StateUnreadable("it is not a regular file")
        if info.st_size > max_bytes:
            raise StateUnreadable(f"it has {info.st_size:,} bytes, over the limit of {max_bytes:,}")
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, 1 << 16):
            total += len(chunk)
            if total > max_bytes:  # it grew while read
                raise StateUnreadable(f"it is larger than {max_bytes:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise StateUnreadable(f"it cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
