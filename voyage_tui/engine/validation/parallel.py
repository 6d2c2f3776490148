"""Use the second core for bulk checks: fork one child for half the work, then merge.

Only from a single-threaded process (the command line): forking a process that runs threads
(the app) can copy a lock some other thread holds. The caller decides; anything that goes wrong
in the child falls back to doing its half here, so the result never depends on the fork.
"""

from __future__ import annotations

import os
import pickle
import threading
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 2_000
"""Below this, a fork and the pickling of results cost more than they save."""


def can_fork() -> bool:
    return (
        hasattr(os, "fork")
        and (os.cpu_count() or 1) >= 2
        and threading.active_count() == 1
    )


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def map_split(fn: Callable[[T], R], work: Sequence[T]) -> list[R]:
    """[fn(x) for x in work], computed on two cores when that pays. Order is preserved."""
    if len(work) < MIN_ITEMS or not can_fork():
        return [fn(x) for x in work]
    theirs, mine = work[1::2], work[0::2]  # interleaved: neighbours cost alike
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        status = 0
        try:
            payload = pickle.dumps([fn(x) for x in theirs], protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(payload)
            while view:
                written = os.write(write_fd, view)
                view = view[written:]
        except BaseException:  # noqa: BLE001 - the parent redoes this half
            status = 1
        finally:
            os._exit(status)
    os.close(write_fd)
    try:
        mine_results = [fn(x) for x in mine]
        payload = _read_all(read_fd)
    finally:
        os.close(read_fd)
        _, status = os.waitpid(pid, 0)
    try:
        theirs_results = pickle.loads(payload) if status == 0 else None
    except Exception:  # noqa: BLE001
        theirs_results = None
    if theirs_results is None or len(theirs_results) != len(theirs):
        theirs_results = [fn(x) for x in theirs]
    merged: list[R] = []
    for index in range(len(work)):
        merged.append(mine_results[index // 2] if index % 2 == 0 else theirs_results[index // 2])
    return merged
