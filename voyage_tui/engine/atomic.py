"""Every write the tool makes goes through here: inside an allowed folder, atomic, durable.

The rules, for a write of `path` inside `root` (the workspace, or a folder the person named):

- The path is taken as written below the real `root` (`..` folded lexically); a path outside it
  is refused (`WriteRefused`) and nothing is created.
- No symlink below `root` is followed, whether it leads out of `root` or stays inside: each
  folder is reached from `root` one name at a time, opened with O_NOFOLLOW, and every later step
  works relative to that open folder, so a folder swapped for a symlink after a check is caught
  (ELOOP/ENOTDIR), never followed. A symlink at the file's own name is refused too: a committed
  link could otherwise aim a rating at `.venv/bin/activate` or `.git/config`.
- Nothing is written inside a `.git` folder or a Python environment (a folder holding
  `pyvenv.cfg` or `conda-meta`): what is there runs as the user.
- The target, when it exists, must be a regular file: a folder, FIFO, device or socket is refused.
- The new bytes go to a temp file made there with O_EXCL|O_NOFOLLOW, are fsynced, get the old
  file's mode, and are renamed over the real file; the folder is fsynced so the new name survives
  a crash. The old file's inode is never written, so a hard link to it elsewhere keeps its bytes.

Whether git ignores the target is asked one layer up (engine/workspace/writes.py), where the
workspace's repository is known.

With `expect`, the write happens only if the file on disk still is what the caller read: on Linux
the two files are swapped in one step (renameat2 RENAME_EXCHANGE) and the swapped-out content is
checked, then swapped back if it differs, so a writer that lands at any moment before the swap is
seen. Elsewhere the content is hashed just before the rename (a window of a few system calls).
What no rename can catch: a program that already holds the old file open and writes into it
after the swapped-out content was checked.

The descriptor-relative calls (dir_fd) need a POSIX system (Linux, macOS, the BSDs).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import os
import secrets
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voyage_tui.engine.loading.safe_read import is_within

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_FOLDER_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
_CHECK_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC

_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2


class WriteRefused(OSError):
    """The write was not made, and will not be on a retry: the target is outside the allowed
    folder, or is not a regular file. The message names the path and what to do.

    An OSError, so that every caller already reporting a failed write reports this one too."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return self.message


class ContentChanged(Exception):
    """The file on disk is no longer what the caller expected; nothing was written."""


@dataclass(frozen=True, slots=True)
class Expected:
    """What the caller read: the sha256 of the file's bytes, or None for "no file there"."""

    sha256: str | None
    max_bytes: int = 1 << 30
    """A file on disk larger than this is taken as changed without reading it all."""


def _load_renameat2() -> Callable[[int, str, int, str, int], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        func = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int

    def renameat2(src_dir_fd: int, src: str, dst_dir_fd: int, dst: str, flags: int) -> None:
        if func(src_dir_fd, os.fsencode(src), dst_dir_fd, os.fsencode(dst), flags) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code), dst)

    return renameat2


_renameat2 = _load_renameat2()
"""renameat2(2) where the C library has it (Linux, glibc 2.28+), else None."""


# --- the public writers --------------------------------------------------------------------------


def write_inside(
    root: str | os.PathLike[str],
    path: str | os.PathLike[str],
    data: bytes,
    *,
    expect: Expected | None = None,
    make_folders: bool = False,
    shown: str | None = None,
    root_name: str = "the workspace",
) -> str:
    """Write `data` to `path` (absolute, or relative to `root`) under the rules above, and return
    the path written (below the real root). `make_folders` creates missing folders on the way (inside `root`).

    Raises WriteRefused, ContentChanged (only with `expect`), or the OSError of a failed write
    (no space, no permission); in every case the file is left as it was and no temp file stays.
    """
    shown = shown if shown is not None else os.fspath(path)
    folder_fd, name, real = _open_target_folder(root, path, make_folders, shown, root_name)
    try:
        mode, owner = _existing(folder_fd, name, shown)
        tmp, fd = _create_temp(folder_fd, name, mode)
        temp_id = _identity(os.fstat(fd))
        try:
            try:
                _fill(fd, data, owner)
            finally:
                os.close(fd)
        except BaseException:
            _unlink_if(folder_fd, tmp, temp_id)
            raise
        try:
            _put_in_place(folder_fd, tmp, name, expect, temp_id)
        except BaseException:
            _unlink_if(folder_fd, tmp, temp_id, data)
            raise
        _fsync(folder_fd)
    finally:
        os.close(folder_fd)
    return real


def append_line_durably(
    path: str | os.PathLike[str],
    line: str,
    *,
    root: str | os.PathLike[str] | None = None,
    shown: str | None = None,
) -> None:
    """Append one line and fsync it (append_lines_durably of one line)."""
    append_lines_durably(path, [line], root=root, shown=shown)


def append_lines_durably(
    path: str | os.PathLike[str],
    lines: Sequence[str],
    *,
    root: str | os.PathLike[str] | None = None,
    shown: str | None = None,
) -> None:
    """Append `lines` in one write and one fsync: a killed process loses at most these lines
    (the last one reaching the file may be cut off; readers take a cut-off last line for
    what it is, and the next append starts a line of its own). A batch of a thousand records
    costs what one does.

    The same rules as write_inside (root: `root`, else the file's own folder), and the real file
    is opened with O_NOFOLLOW. A file with other hard links is refused: its bytes may be shared
    with a file outside. The folder is fsynced only when the append made the file (its name is
    new); an existing file's name is already on disk."""
    data = "".join(line.rstrip("\n") + "\n" for line in lines).encode("utf-8")
    if not data:
        return
    full = os.path.abspath(path)
    shown = shown if shown is not None else os.fspath(path)
    allowed = root if root is not None else os.path.dirname(full)
    where = "the workspace" if root is not None else "its folder"
    folder_fd, name, _ = _open_target_folder(allowed, full, False, shown, where)
    try:
        fd, made = _open_for_append(folder_fd, name, shown)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise _not_regular(shown)
            if info.st_nlink > 1:
                raise WriteRefused(
                    shown,
                    f"{shown} has other hard links, which may be outside {where}; "
                    "nothing was appended. Replace it with a copy of its own",
                )
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if made:
            _fsync(folder_fd)
    finally:
        os.close(folder_fd)


def _open_for_append(folder_fd: int, name: str, shown: str) -> tuple[int, bool]:
    """(a descriptor appending to `name` in the folder, whether this made the file)."""
    try:
        try:
            return os.open(name, _APPEND_FLAGS & ~os.O_CREAT, dir_fd=folder_fd), False
        except FileNotFoundError:
            pass
        try:
            return os.open(name, _APPEND_FLAGS | os.O_EXCL, 0o644, dir_fd=folder_fd), True
        except FileExistsError:  # made meanwhile by another session: append to it
            return os.open(name, _APPEND_FLAGS & ~os.O_CREAT, dir_fd=folder_fd), False
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
            raise _not_regular(shown) from exc
        raise


# --- steps ---------------------------------------------------------------------------------------


def _open_target_folder(
    root: str | os.PathLike[str],
    path: str | os.PathLike[str],
    make_folders: bool,
    shown: str,
    root_name: str,
) -> tuple[int, str, str]:
    """(an open descriptor of the folder, the file's name in it, the path written).

    The path is taken as written, relative to the real `root`: no symlink below the root is
    resolved or followed, each folder is opened with O_NOFOLLOW from the one above it, and the
    final name is checked with lstat."""
    root_real = os.path.realpath(root)
    parts = _parts_below(root, root_real, path, shown, root_name)
    for part in parts:
        if _is_git_folder_name(part):
            raise WriteRefused(
                shown,
                f"{shown} is inside a `.git` folder, which voyage-tui never writes (git's own "
                "files: hooks and config run programs); nothing was written",
            )
    fd = os.open(root_real, _FOLDER_FLAGS)
    try:
        for index, part in enumerate(parts[:-1]):
            child = _step_into(fd, part, make_folders, shown, "/".join(parts[: index + 1]))
            os.close(fd)
            fd = child
            _refuse_environment(fd, shown, "/".join(parts[: index + 1]))
        _refuse_symlink(fd, parts[-1], shown)
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1], os.path.join(root_real, *parts)


def _parts_below(
    root: str | os.PathLike[str],
    root_real: str,
    path: str | os.PathLike[str],
    shown: str,
    root_name: str,
) -> list[str]:
    """The names from the root down to the file, as written (`..` and `.` folded lexically)."""
    text = os.fspath(path)
    if os.path.isabs(text):
        norm = os.path.normpath(text)
        for base in (os.path.normpath(os.path.abspath(root)), root_real):
            if is_within(base, norm) and norm != base:
                text = os.path.relpath(norm, base)
                break
        else:
            raise WriteRefused(shown, f"{shown} is outside {root_name}; nothing was written")
    rel = os.path.normpath(text) if text else "."
    if rel == "." or rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        raise WriteRefused(shown, f"{shown} is outside {root_name}; nothing was written")
    return rel.split(os.sep)


def _is_git_folder_name(part: str) -> bool:
    # Case-insensitive file systems (macOS, Windows shares) open `.GIT` as `.git`.
    return part.casefold() == ".git"


_ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")
"""What marks a folder as a Python environment (PEP 405's pyvenv.cfg; conda's conda-meta/):
its scripts (bin/activate, console scripts) run with the user's rights."""


def _refuse_environment(folder_fd: int, shown: str, folder: str) -> None:
    for marker in _ENVIRONMENT_MARKERS:
        try:
            os.stat(marker, dir_fd=folder_fd, follow_symlinks=False)
        except OSError:
            continue
        raise WriteRefused(
            shown,
            f"{shown} is inside {folder}, a Python environment (it holds {marker}), which "
            "voyage-tui never writes: its scripts run as you; nothing was written",
        )


def _refuse_symlink(folder_fd: int, name: str, shown: str) -> None:
    try:
        info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except OSError:
        return  # a new file, or one _existing reports
    if not stat.S_ISLNK(info.st_mode):
        return
    try:
        target = os.readlink(name, dir_fd=folder_fd)
    except OSError:
        target = "?"
    try:
        os.stat(name, dir_fd=folder_fd)
        what = f"a symlink (to {target})"
    except OSError:
        what = f"a symlink to nothing ({target})"
    raise WriteRefused(
        shown,
        f"{shown} is {what}; voyage-tui never writes through a symlink, even one that stays "
        "inside the workspace, so nothing was written. Replace the link with a regular file "
        "(a branch may have committed it: check what it points to)",
    )


def _step_into(parent_fd: int, part: str, make_folders: bool, shown: str, folder: str) -> int:
    """Open the folder `part` inside the open folder `parent_fd`, never through a symlink."""
    try:
        try:
            return os.open(part, _FOLDER_FLAGS, dir_fd=parent_fd)
        except FileNotFoundError:
            if not make_folders:
                raise
            with contextlib.suppress(FileExistsError):  # made meanwhile: opened (and checked) below
                os.mkdir(part, 0o777, dir_fd=parent_fd)
            return os.open(part, _FOLDER_FLAGS, dir_fd=parent_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            try:
                is_link = stat.S_ISLNK(
                    os.stat(part, dir_fd=parent_fd, follow_symlinks=False).st_mode
                )
            except OSError:
                is_link = False
            if is_link:
                why = (
                    f"{folder}, a folder on the way to {shown}, is a symlink; voyage-tui never "
                    "writes through a symlink, even one that stays inside the workspace, so "
                    "nothing was written"
                )
            else:
                why = f"{folder}, on the way to {shown}, is not a folder; nothing was written"
            raise WriteRefused(shown, why) from exc
        raise


def _existing(folder_fd: int, name: str, shown: str) -> tuple[int | None, tuple[int, int] | None]:
    """The mode and owner to keep, or (None, None) for a new file."""
    try:
        info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None, None
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(shown)
    return stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid)


def _not_regular(shown: str) -> WriteRefused:
    return WriteRefused(
        shown,
        f"{shown} is not a regular file (a folder, symlink, FIFO or device); nothing was written",
    )


def _create_temp(folder_fd: int, name: str, mode: int | None) -> tuple[str, int]:
    # A new file gets 0666 less the umask, applied by the kernel (reading the umask is not
    # thread-safe); an existing file's mode is set once the temp file is private to us.
    stem = os.fsdecode(os.fsencode(name)[:64])  # NAME_MAX counts bytes, not characters
    for _ in range(100):
        tmp = f".{stem}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, _TEMP_FLAGS, 0o600 if mode is not None else 0o666, dir_fd=folder_fd)
        except FileExistsError:
            continue
        if mode is not None:
            try:
                os.fchmod(fd, mode)
            except BaseException:
                os.close(fd)
                os.unlink(tmp, dir_fd=folder_fd)
                raise
        return tmp, fd
    raise FileExistsError(errno.EEXIST, "no free temp file name", name)


def _fill(fd: int, data: bytes, owner: tuple[int, int] | None) -> None:
    try:
        if owner is not None and owner != (os.geteuid(), os.getegid()):
            os.fchown(fd, *owner)
    except (OSError, AttributeError):
        pass  # not permitted: the file becomes the writer's, as with any editor
    _write_all(fd, data)
    os.fsync(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _put_in_place(
    folder_fd: int, tmp: str, name: str, expect: Expected | None, temp_id: tuple[int, int]
) -> None:
    if expect is None:
        os.replace(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        return
    if _renameat2 is not None:
        try:
            if expect.sha256 is None:
                _put_new(folder_fd, tmp, name)
            else:
                _swap_and_check(folder_fd, tmp, name, expect, temp_id)
            return
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            # This file system cannot swap: check, then rename.
    if _digest_at(folder_fd, name, expect.max_bytes) != expect.sha256:
        raise ContentChanged
    os.replace(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)


def _put_new(folder_fd: int, tmp: str, name: str) -> None:
    assert _renameat2 is not None
    try:
        _renameat2(folder_fd, tmp, folder_fd, name, _RENAME_NOREPLACE)
    except FileExistsError as exc:
        raise ContentChanged from exc


def _swap_and_check(
    folder_fd: int, tmp: str, name: str, expect: Expected, temp_id: tuple[int, int]
) -> None:
    assert _renameat2 is not None
    try:
        _renameat2(folder_fd, tmp, folder_fd, name, _RENAME_EXCHANGE)
    except FileNotFoundError as exc:
        raise ContentChanged from exc  # the file was deleted meanwhile
    # `tmp` now names what was on disk at the instant of the swap.
    if _digest_at(folder_fd, tmp, expect.max_bytes) == expect.sha256:
        os.unlink(tmp, dir_fd=folder_fd)
        return
    # Swap back, unless yet another writer replaced our file meanwhile: theirs is then the newest
    # and stays; what we swapped out stays under the temp name rather than being deleted.
    if _identity(os.stat(name, dir_fd=folder_fd, follow_symlinks=False)) == temp_id:
        _renameat2(folder_fd, tmp, folder_fd, name, _RENAME_EXCHANGE)
    raise ContentChanged


def _digest_at(folder_fd: int, name: str, max_bytes: int) -> str | None:
    """sha256 of the regular file `name`; None when missing; "" (matches nothing) when it is not
    a regular file, cannot be read, or is over `max_bytes`."""
    try:
        fd = os.open(name, _CHECK_FLAGS, dir_fd=folder_fd)
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            return ""
        digest = hashlib.sha256()
        total = 0
        while chunk := os.read(fd, 1 << 16):
            total += len(chunk)
            if total > max_bytes:
                return ""
            digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return ""
    finally:
        os.close(fd)


def _unlink_if(
    folder_fd: int, name: str, identity: tuple[int, int], data: bytes | None = None
) -> None:
    """Remove our temp file. Anything else under that name (what a swap moved there), or, when
    `data` is given (the file was in place for a moment), our file once someone wrote into it,
    is left alone: it may be the only copy of their work."""
    try:
        if _identity(os.stat(name, dir_fd=folder_fd, follow_symlinks=False)) != identity:
            return
        if data is None or _digest_at(folder_fd, name, len(data)) == _sha256(data):
            os.unlink(name, dir_fd=folder_fd)
    except OSError:
        pass


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fsync(fd: int) -> None:
    # Some file systems cannot fsync a folder; the rename itself is done.
    with contextlib.suppress(OSError):
        os.fsync(fd)
