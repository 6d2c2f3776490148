"""One live session per rater: a lock on `.voyage/locks/<key>.lock` in the workspace, named after
the rater's key (workspace/rater_name.py `rater_key`), so two spellings of one name (`José`,
`Jose`) are one rater with one lock, as they are one ratings file.

Two sessions of one rater append to one file, and each one's undo and redo restore what *it*
saw in force, so they silently withdraw each other's ratings. A session therefore holds its
rater's lock while it lives, and a second one is refused with who holds it (pid, host, since).

The lock is flock(2) on an open descriptor: the kernel lets it go when the process ends, however
it ends (kill -9, a crash, a closed terminal), so a lock left by a dead session never blocks
anyone, and nothing has to guess whether a pid still lives. What the file holds (the holder's
pid, host and start) is only read to say who holds the lock when it is taken.

The file is the tool's own, in its own folder `.voyage/locks/`, which it creates. It is reached
one folder at a time from the workspace root without following a symlink (`O_NOFOLLOW`), and
opened only when it is a regular file with no other name (a planted symlink or hard link could
otherwise make the holder's line land in any file); anything else refuses the session with the
reason. Locks are local to a machine and, through NFS's emulation of flock, to the machines
sharing a network file system that supports it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import socket
import stat
import unicodedata
from dataclasses import dataclass
from types import TracebackType

from voyage_tui.engine.ratings.records import parse_time, utc_now
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import rater_key, rater_name_problem
from voyage_tui.engine.workspace.state_files import STATE_FOLDER
from voyage_tui.engine.workspace.writes import ensure_state_folder

LOCKS_FOLDER = f"{STATE_FOLDER}/locks"
LOCK_SUFFIX = ".lock"
_MAX_HOLDER_BYTES = 4096

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
_FILE_FLAGS = _NOFOLLOW | _NONBLOCK | _CLOEXEC


class LockRefused(Exception):
    """No session for this rater now: another holds the lock, or the lock cannot be taken. The
    message says which, and what to do."""


class RaterBusy(LockRefused):
    """Another live session of the same rater holds the lock."""

    def __init__(self, message: str, holder: Holder | None) -> None:
        super().__init__(message)
        self.holder = holder


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lock, as its file says (each field checked; None when unknown)."""

    pid: int | None
    host: str | None
    since: str | None

    @property
    def here(self) -> bool:
        """The holder is this very process (another screen of the same app)."""
        return self.pid == os.getpid() and self.host == _hostname()

    def describe(self) -> str:
        parts = [f"pid {self.pid}" if self.pid is not None else "an unknown process"]
        if self.host is not None:
            parts.append(f"on {'this machine' if self.host == _hostname() else 'host'} {self.host}")
        if self.since is not None:
            parts.append(f"since {self.since}")
        return " ".join(parts)


def lock_rel(rater: str) -> str:
    """The workspace-relative lock file of `rater` (a name rater_name_problem accepts): its key,
    or, for a key that cannot be a file name (a folded name with no slug may hold a `/`: NFKC
    makes one of U+FF0F, the full-width solidus), a digest of the key."""
    key = rater_key(rater)
    if rater_name_problem(key) is not None:
        key = "key-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"{LOCKS_FOLDER}/{key}{LOCK_SUFFIX}"


class RaterLock:
    """The lock of one rater, held from `take` until `release` (or the process ends)."""

    def __init__(self, rater: str, rel: str, fd: int) -> None:
        self.rater = rater
        self.rel = rel
        self._fd: int | None = fd

    @classmethod
    def take(cls, ws: Workspace, rater: str) -> RaterLock:
        """Take `rater`'s lock in `ws`, or raise RaterBusy (held by a live session) or
        LockRefused (it cannot be taken here)."""
        rel = lock_rel(rater)
        fd = _open_lock_file(ws, rel)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise LockRefused(
                        f"the session lock {rel} cannot be taken ({exc.strerror or exc}); no "
                        "session was opened"
                    ) from exc
                holder = _read_holder(fd)
                raise RaterBusy(_busy_message(rater, rel, holder), holder) from exc
            _write_holder(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(rater, rel, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let the lock go (again: nothing). The file stays: removing it would let a session
        that opened it a moment before lock a name no longer in the folder."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if _writable(fd):
                os.ftruncate(fd, 0)
        os.close(fd)  # closing the last descriptor releases the flock

    def __enter__(self) -> RaterLock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def __del__(self) -> None:
        # A session dropped without close(): its lock goes with it, as it would with the process.
        with contextlib.suppress(Exception):
            self.release()


def check_free(ws: Workspace, rater: str) -> None:
    """Raise what `RaterLock.take` would, without keeping the lock (a command checks before it
    opens the app, whose session then takes it)."""
    RaterLock.take(ws, rater).release()


# --- the file -----------------------------------------------------------------------------------


def _open_lock_file(ws: Workspace, rel: str) -> int:
    """An open descriptor of the lock file, reached without a symlink; made when missing."""
    with contextlib.suppress(OSError):  # what is in the way is refused below, with its reason
        ensure_state_folder(ws)
    folder_fd = os.open(ws.root_real, _FOLDER_FLAGS)
    try:
        for part in LOCKS_FOLDER.split("/"):
            child = _folder(folder_fd, part, rel)
            os.close(folder_fd)
            folder_fd = child
        name = rel.rsplit("/", 1)[-1]
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | _FILE_FLAGS, 0o644, dir_fd=folder_fd)
        except PermissionError:
            # Another user's lock file in a shared workspace: a descriptor to read is enough
            # for flock; the holder's line is then not written.
            fd = _open_existing(folder_fd, name, rel)
        except OSError as exc:
            raise _not_a_lock_file(rel, exc) from exc
    finally:
        os.close(folder_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_a_lock_file(rel)
        if info.st_nlink != 1:
            raise LockRefused(
                f"the session lock {rel} has other hard links, so writing to it could change "
                "another file; no session was opened. Delete it (the next session makes a new one)"
            )
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_existing(folder_fd: int, name: str, rel: str) -> int:
    try:
        return os.open(name, os.O_RDONLY | _FILE_FLAGS, dir_fd=folder_fd)
    except OSError as exc:
        raise _not_a_lock_file(rel, exc) from exc


def _folder(parent_fd: int, part: str, rel: str) -> int:
    try:
        try:
            return os.open(part, _FOLDER_FLAGS, dir_fd=parent_fd)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):  # made meanwhile: opened below
                os.mkdir(part, 0o777, dir_fd=parent_fd)
            return os.open(part, _FOLDER_FLAGS, dir_fd=parent_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            reason = "is a symlink or not a folder"
        else:
            reason = f"cannot be used ({exc.strerror or exc})"
        raise LockRefused(
            f"the folder of session locks ({LOCKS_FOLDER}, for {rel}) {reason}; the tool makes "
            "it itself and never follows a symlink there. No session was opened. Remove what "
            "is in its place"
        ) from exc


def _not_a_lock_file(rel: str, exc: OSError | None = None) -> LockRefused:
    if exc is not None and exc.errno not in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
        return LockRefused(
            f"the session lock {rel} cannot be opened ({exc.strerror or exc}); no session was "
            "opened"
        )
    return LockRefused(
        f"the session lock {rel} is not a regular file (a symlink, folder or FIFO); it is never "
        "followed or opened, and no session was opened. Delete it (the next session makes a "
        "new one)"
    )


def _writable(fd: int) -> bool:
    return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE != os.O_RDONLY


def _write_holder(fd: int) -> None:
    """Say who holds the lock; best effort (a read-only descriptor, a full disk: the lock holds
    all the same, the next session just cannot say by whom)."""
    if not _writable(fd):
        return
    line = json.dumps({"pid": os.getpid(), "host": _hostname(), "since": utc_now()}) + "\n"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, line.encode("utf-8"), 0)


def _read_holder(fd: int) -> Holder | None:
    """Who holds the lock, as far as its file tells; only checked values are kept, since a
    file in the workspace may hold anything (no text of it reaches a message unchecked)."""
    try:
        data = os.pread(fd, _MAX_HOLDER_BYTES, 0)
        loaded = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(loaded, dict):
        return None
    pid = loaded.get("pid")
    host = loaded.get("host")
    since = loaded.get("since")
    return Holder(
        pid=pid if type(pid) is int and 0 < pid < 1 << 32 else None,
        host=host if isinstance(host, str) and _plain_host(host) else None,
        since=since if isinstance(since, str) and parse_time(since) is not None else None,
    )


def _plain_host(host: str) -> bool:
    return 0 < len(host) <= 255 and all(
        unicodedata.category(c)[0] in "LN" or c in "-._" for c in host
    )


def _hostname() -> str:
    try:
        return socket.gethostname()
    except OSError:
        return ""


def _busy_message(rater: str, rel: str, holder: Holder | None) -> str:
    who = holder.describe() if holder is not None else "a process that does not say which"
    if holder is not None and holder.here:
        return (
            f"a rater session of {rater} is already open in this app ({who}); close it first "
            "(one live session per rater)"
        )
    return (
        f"{rater} is already rating in another session ({who}). One live session per rater: "
        "two would withdraw each other's ratings. Finish that session first, or rate as "
        f"another name; the lock ({rel}) is let go the moment that session ends, even if it "
        "is killed"
    )
