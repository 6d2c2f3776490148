"""Files in the user's cache dir that only this user can have written.

The cache dir has a predictable name, so another local user (or anything that can write into
`$XDG_CACHE_HOME`) may have been there first. A file is read only from a folder this user owns
and nobody else may write to, reached without following a symlink at the folder or at the file,
only when it is a regular file of this user with no other name (a hard link), mode 0600 and no
larger than a bound; anything else reads as "no cache". Writes go to a new temp file (O_EXCL, so
never through a planted link) renamed over the final name (which replaces a link rather than
writing through it). Every step is relative to one open descriptor of the folder, so a folder
swapped for a symlink half-way is not followed either.

The folder: created 0700. If it exists as a symlink, as something other than a folder, owned by
someone else, or writable by group or others, it is not used at all (and left as it is: the user
may share it on purpose). If it is ours and only readable by others (0755, as voyage-tui before
0700 left it), it is tightened to 0700 and used.

Where the platform cannot open files relative to a folder descriptor, there is no cache.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO planted at the name must not block the open
    | getattr(os, "O_CLOEXEC", 0)
)
_WRITE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_SUPPORTED = (
    hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
    and hasattr(os, "geteuid")
    and os.open in os.supports_dir_fd
    and os.rename in os.supports_dir_fd
    and os.unlink in os.supports_dir_fd
)


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is invalid (it could be the cwd)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "voyage-tui"


def _temp_name(final: str) -> str:
    return f".{final}.{os.urandom(8).hex()}.tmp"  # secrets.token_hex, without its imports


def _open_folder(folder: Path, *, create: bool) -> int | None:
    """A descriptor of `folder` if it is safe to use (see the module's docstring), else None."""
    if not _SUPPORTED:
        return None
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except FileNotFoundError:
        if not create:
            return None
        try:
            os.makedirs(folder.parent, mode=0o700, exist_ok=True)
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass  # made by a concurrent start: checked below like any other
        except OSError:
            return None
        try:
            fd = os.open(folder, _DIR_FLAGS)
        except OSError:
            return None
    except OSError:
        return None  # a symlink (ELOOP), not a folder, or not ours to open
    try:
        st = os.fstat(fd)
        if (
            not stat.S_ISDIR(st.st_mode)
            or st.st_uid != os.geteuid()
            or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            os.close(fd)
            return None
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, 0o700)
    except OSError:
        os.close(fd)
        return None
    return fd


def read_private(
    folder: Path,
    name: str,
    limit: int,
    *,
    head: Callable[[int, bytes], int | None] | None = None,
    trailer: int = 0,
    rest: Callable[[memoryview], object] | None = None,
) -> bytearray | None:
    """The bytes of `folder/name` when this user wrote it and it holds at most `limit` bytes
    (see the module's docstring), else None. Never raises for what is found on disk.

    `head`: read only the start of the file. It is given the file's size and its last
    `trailer` bytes, and says how many bytes from the start to read (None: the file is not
    what the caller wants, and None is returned). A cache file's reader that needs only its
    first section then never holds the rest in memory. `rest`, with `head`: given the rest of
    the file after the head, a piece at a time (to check its seal without keeping it)."""
    dir_fd = _open_folder(folder, create=False)
    if dir_fd is None:
        return None
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    try:
        st = os.fstat(fd)
        if (
            not stat.S_ISREG(st.st_mode)
            or st.st_uid != os.geteuid()
            or st.st_nlink != 1
            or stat.S_IMODE(st.st_mode) & 0o077
            or st.st_size > limit
        ):
            return None
        size = st.st_size + 1  # a byte more, to see growth
        if head is not None:
            if st.st_size < trailer:
                return None
            end = os.pread(fd, trailer, st.st_size - trailer) if trailer else b""
            wanted = head(st.st_size, end) if len(end) == trailer else None
            if wanted is None or not 0 <= wanted <= st.st_size:
                return None
            size = wanted
        # Read into one buffer of the size fstat gave: a cache file of a big suite is a hundred
        # megabytes, and chunks joined would hold it twice.
        buffer = bytearray(size)
        view = memoryview(buffer)
        total = 0
        while total < len(buffer):
            got = os.readv(fd, [view[total:]])
            if not got:
                break
            total += got
        del view
        if head is not None:
            # The file is replaced by a rename, never rewritten in place: a short read is damage.
            if total != size or (rest is not None and not _read_rest(fd, st.st_size - size, rest)):
                return None
            return buffer
        if total > st.st_size:
            return None  # it grew since the fstat: being written now; the next run reads it
        del buffer[total:]
        return buffer
    except OSError:
        return None
    finally:
        os.close(fd)


_PIECE = 1 << 20


def _read_rest(fd: int, left: int, rest: Callable[[memoryview], object]) -> bool:
    """Give `rest` the next `left` bytes of `fd` in pieces of one reused buffer; False when the
    file ends before."""
    piece = bytearray(min(left, _PIECE))
    view = memoryview(piece)
    while left > 0:
        got = os.readv(fd, [view[: min(left, _PIECE)]])
        if not got:
            return False
        rest(view[:got])
        left -= got
    return True


class _Refused(Exception):
    """The pieces given to write_private came to more than its limit."""


def write_private(
    folder: Path,
    name: str,
    data: bytes | Iterable[bytes | bytearray],
    *,
    durable: bool = True,
    limit: int | None = None,
    failures: tuple[type[Exception], ...] = (),
) -> bool | None:
    """Replace `folder/name` with `data` (bytes, or pieces written as they come), mode 0600,
    atomically, and durably unless `durable` is False (a file whose reader detects a torn write
    and can rebuild it). False when the folder cannot be used or the write fails; never raises
    for an OSError. None, and nothing replaced, when the pieces come to more than `limit`
    bytes or making one raises one of `failures`."""
    dir_fd = _open_folder(folder, create=True)
    if dir_fd is None:
        return False
    tmp = _temp_name(name)
    try:
        try:
            fd = os.open(tmp, _WRITE_FLAGS, 0o600, dir_fd=dir_fd)
        except OSError:
            return False
        try:
            try:
                os.fchmod(fd, 0o600)  # exact, whatever the umask
                total = 0
                for piece in [data] if isinstance(data, bytes) else data:
                    total += len(piece)
                    if limit is not None and total > limit:
                        raise _Refused
                    view = memoryview(piece)
                    while view:
                        view = view[os.write(fd, view) :]
                if durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
            if isinstance(exc, OSError):
                return False
            if isinstance(exc, (_Refused, *failures)):
                return None
            raise
        if durable:
            with contextlib.suppress(OSError):
                os.fsync(dir_fd)  # the new name survives a crash too
        return True
    finally:
        os.close(dir_fd)


def remove_private(folder: Path, name: str) -> None:
    """Remove `folder/name` if the folder is usable (unlink never follows a link)."""
    dir_fd = _open_folder(folder, create=False)
    if dir_fd is None:
        return
    try:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)


def touch_private(folder: Path, name: str) -> None:
    """Mark `folder/name` as just used (its mtime, which the size bound's eviction reads),
    without following a link; nothing happens when it is not this user's regular file."""
    dir_fd = _open_folder(folder, create=False)
    if dir_fd is None:
        return
    try:
        with contextlib.suppress(OSError, NotImplementedError):
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                os.utime(name, dir_fd=dir_fd, follow_symlinks=False)
    finally:
        os.close(dir_fd)


def list_private(folder: Path, suffix: str) -> list[tuple[str, int, int]]:
    """(name, size, mtime_ns) of each regular file of this user in `folder` whose name ends
    with `suffix`; empty when the folder cannot be used."""
    if os.listdir not in os.supports_fd or os.stat not in os.supports_dir_fd:
        return []
    dir_fd = _open_folder(folder, create=False)
    if dir_fd is None:
        return []
    found: list[tuple[str, int, int]] = []
    try:
        for name in os.listdir(dir_fd):
            if not name.endswith(suffix):
                continue
            with contextlib.suppress(OSError):
                st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                    found.append((name, st.st_size, st.st_mtime_ns))
    except OSError:
        pass
    finally:
        os.close(dir_fd)
    return found
