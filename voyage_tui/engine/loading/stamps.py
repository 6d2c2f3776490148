"""A file's stamp: what changes when the file (or, for a symlink, what it points to) changes.

The caches of validation results (engine/validation/cache.py) reuse a result only while the
stamp of every file it depends on is the one recorded when it was computed. A stamp is the
lstat of the path and, for a symlink, the stat of its target as well, each with mtime, ctime,
size, inode and device: an edit through a symlinked task.yaml changes the target's stamp, and an
edit that puts size and mtime back (`os.utime`) still moves the ctime, which no user call sets.
A folder's stamp moves when an entry is added, removed or renamed in it, or its mode changes.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct

from voyage_tui.engine.diagnostics import Diagnostic

Stamp = bytes | None
"""The lstat (mtime_ns, ctime_ns, size, ino, dev) packed by STAMP, and for a symlink the same
five of its target (or DANGLING when it points nowhere); None when the path does not exist (or
cannot be looked at). Bytes: one object per file in a cache file of a hundred thousand, and
compared as a whole."""

STAMP = struct.Struct("<qqqQQ")
DANGLING = b"-"


def pack_stat(st: os.stat_result) -> bytes:
    try:
        return STAMP.pack(st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)
    except struct.error:  # a number out of range (a file system from the future): exact anyway
        fields = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)
        return repr(fields).encode()


def stamp(path: str) -> Stamp:
    try:
        st = os.lstat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    own = pack_stat(st)
    if not stat.S_ISLNK(st.st_mode):
        return own
    try:
        return own + pack_stat(os.stat(path))
    except OSError:
        return own + DANGLING


def same_stamp(recorded: object, current: Stamp) -> bool:
    """Whether a stamp read back from a cache file (bytes, or None) is `current`."""
    return recorded == current and (recorded is None or type(recorded) is bytes)


def content_digest(read: bytes | Diagnostic | None) -> str:
    """What a read of a file gave, as a short string that changes with it: the SHA-256 of the
    bytes, the diagnostic that said why they were not read, or "absent"."""
    if read is None:
        return "absent"
    if isinstance(read, Diagnostic):
        return f"unread:{read.code}:{read.message}"
    return hashlib.sha256(read).hexdigest()
