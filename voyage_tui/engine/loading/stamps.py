"""A file's stamp: what changes when the file (or, for a symlink, what it points to) changes.

The caches of validation results (engine/validation/cache.py) reuse a result only while the
stamp of every file it depends on is the one recorded when it was computed. A stamp is the
lstat of the path and, for a symlink, the stat of its target as well, each with mtime, ctime,
size, inode and device: an edit through a symlinked task.yaml changes the target's stamp, and an
edit that puts size and mtime back (`os.utime`) still moves the ctime, which no user call sets.
A folder's stamp moves when an entry is added, removed or renamed in it, or its mode changes.

A file's stamp alone does not see the way to it change: a folder moved elsewhere and symlinked
back, or a link on the way re-pointed, leaves every file below it as it was (a rename moves no
inode and no time of the files in it), while what validation finds there changes (a context file
now leads out of its fixture folder, or out of the workspace). `PathStamper` therefore adds to a
file's stamp the identity of every folder from the workspace root to it, each taken by lstat
(inode, device, type; for a symlink also its own times, the real path it resolves to and what is
there), hashed into one short chain. Each folder is looked at once per PathStamper: the caches
make one per run, so a warm run stats each distinct folder once, not once per file.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from hashlib import blake2b

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
    """The stamp of the file (or folder) at `path` alone; see PathStamper for a workspace file."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    return stamp_of(path, st)


def stamp_of(path: str, st: os.stat_result) -> bytes:
    """stamp() from the lstat `st` of `path` already taken."""
    own = pack_stat(st)
    if not stat.S_ISLNK(st.st_mode):
        return own
    # A link: what it points to, and where that is (a target moved out and linked to again keeps
    # its own stamp).
    return own + _target(path)


def _target(path: str) -> bytes:
    try:
        target = pack_stat(os.stat(path))
    except (OSError, ValueError):
        target = DANGLING
    try:
        where = os.fsencode(os.path.realpath(path))
    except (OSError, ValueError):
        where = b""
    return target + b"@" + where


CHAIN_BYTES = 8


class PathStamper:
    """Stamps of workspace files (by workspace-relative path) that change when any folder on the
    way from the workspace root to the file changes identity. One per run: what a folder is, is
    asked once (a folder changed while the run goes on is seen by the next run)."""

    __slots__ = ("_prefix", "_root", "chains", "lstats")

    def __init__(self, root: str) -> None:
        self._root = root
        self._prefix = root if root.endswith(os.sep) else root + os.sep
        self.chains: dict[str, bytes | None] = {"": b""}
        """Folder -> its chain (None: it could not be looked at), as computed so far: read
        directly by a caller on a hot path (replay), chain() otherwise."""
        self.lstats: dict[str, os.stat_result] = {}
        """Folders' lstat results a caller took already this run (replay's listing): used
        instead of asking again."""

    def stamp(self, rel: str) -> Stamp:
        """The file's stamp (stamp()) and the chain of the folders above it; None when it or a
        folder on the way cannot be looked at."""
        path = self._prefix + rel if rel else self._root
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            return None
        return self.stamp_with(rel, path, st)

    def stamp_with(self, rel: str, path: str, st: os.stat_result) -> Stamp:
        """stamp() from the lstat `st` of `rel` (at `path`) already taken."""
        chain = self.chain(rel.rpartition("/")[0])
        if chain is None:
            return None
        if stat.S_ISLNK(st.st_mode):
            return pack_stat(st) + _target(path) + chain
        return pack_stat(st) + chain

    def chain(self, folder: str) -> bytes | None:
        """The identity of `folder` (workspace-relative) and of every folder above it, hashed;
        b"" for the root itself; None when one of them cannot be looked at."""
        chains = self.chains
        known = chains.get(folder, False)
        if known is not False:
            return known  # type: ignore[return-value]  # bytes or None, from the memo
        # Up to the nearest folder known (iteratively: a path may be thousands of folders deep),
        # then down again, each folder once.
        missing = [folder]
        up = folder.rpartition("/")[0]
        while up not in chains:
            missing.append(up)
            up = up.rpartition("/")[0]
        chain = chains[up]
        for rel in reversed(missing):
            chain = None if chain is None else self._link(chain, rel)
            chains[rel] = chain
        return chain

    def _link(self, parent: bytes, folder: str) -> bytes | None:
        """The chain of `folder` below its parent's chain; None when it cannot be looked at."""
        path = self._prefix + folder
        st = self.lstats.get(folder)
        if st is None:
            try:
                st = os.lstat(path)
            except (OSError, ValueError):
                return None
        return link_chain(parent, path, st)

    def seen_folder(self, rel: str, path: str, st: os.stat_result) -> None:
        """The lstat `st` of folder `rel` (at `path`), taken by the caller: its chain is made now
        when the folder above it is known (a walk's order), else kept for chain()."""
        chains = self.chains
        if rel:
            parent = rel.rpartition("/")[0]
            if parent in chains:
                above = chains[parent]
                chains[rel] = None if above is None else link_chain(above, path, st)
                return
        self.lstats[rel] = st


def link_chain(parent: bytes, path: str, st: os.stat_result) -> bytes:
    """The chain of the folder at `path` (lstat `st`) below one whose chain is `parent`.

    A plain folder's identity (inode, device, type) is folded in with Python's hash of a tuple
    of ints, which, unlike the hash of a str, is the same in every process (and the cache is
    dropped for another Python): a few hundred nanoseconds for each of a big suite's ten
    thousand folders on the warm path, where a cryptographic hash would cost several times that.
    Nothing here is chosen by a workspace's author: the inode numbers come from the file
    system. A symlink's own stamp and real path (text) go through BLAKE2b."""
    above = int.from_bytes(parent, "little", signed=True) if parent else 0
    if stat.S_ISLNK(st.st_mode):
        digest = blake2b(parent + pack_stat(st) + _target(path), digest_size=CHAIN_BYTES)
        value = hash((above, int.from_bytes(digest.digest(), "little")))
    else:
        value = hash((above, st.st_ino, st.st_dev, stat.S_IFMT(st.st_mode)))
    return value.to_bytes(CHAIN_BYTES, "little", signed=True)


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
