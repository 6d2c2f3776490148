"""Use the second core for bulk checks: fork one child for half the work, then merge.

Only from a single-threaded process: forking a process that runs threads can copy a lock some
other thread holds. The command line forks right away; the app forks before Textual starts (its
threads come later) and collects the child's half in its loading worker. Anything that goes
wrong in the child falls back to doing its half here, so results never depend on the fork.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 2_000
"""Below this, a fork and the pickling of results cost more than they save."""


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2 and threading.active_count() == 1


def takes_part(items: int) -> bool:
    """Whether a child computes a share of `items` items of work."""
    return items >= MIN_ITEMS


class ForkedMap(Generic[T, R]):
    """[fn(x) for x in work], half of it computed by a child process started at once."""

    def __init__(
        self,
        fn: Callable[[T], R],
        work: Sequence[T],
        fork: bool = True,
        child_share: float = 0.5,
        child_extra: Callable[[], object] | None = None,
        child: tuple[int, int] | None = None,
    ) -> None:
        """`child_share` of the work goes to the child: more than half when this process has
        something else to do first (the app starts its interface while the child works).
        `child_extra`: called in the child once its share is done; what it gives comes back
        with the results, as `from_child` (None when nothing came back). `child`: (pid, read
        end of its pipe) of a child forked earlier that computes its share by `serve`, from
        the same `work` and `child_share` (an early fork, `fork_early`): none is forked here."""
        self.fn = fn
        self.work = work
        self.child_extra = child_extra
        self.from_child: object = None
        self.pid: int | None = None
        self.read_fd: int | None = None
        self.so_far: list[R] = []
        """This process's results while `finish` computes them, in its order: a progress
        report may show them before the child's half is in (the app's batches)."""
        # Interleaved, so neighbours (which cost alike) are spread over both processes.
        self._to_child = [
            int((i + 1) * child_share) > int(i * child_share) for i in range(len(work))
        ]
        if child is not None:
            self.pid, self.read_fd = child
        elif fork and takes_part(len(work)) and can_fork():
            self._fork()

    @property
    def _theirs(self) -> list[T]:
        return [w for w, child in zip(self.work, self._to_child, strict=True) if child]

    @property
    def _mine(self) -> Sequence[T]:
        if self.pid is None:
            return self.work
        return [w for w, child in zip(self.work, self._to_child, strict=True) if not child]

    def _fork(self) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_fd)
            status = 1
            try:
                status = self.serve(write_fd)
            finally:
                os._exit(status)
        os.close(write_fd)
        self.pid, self.read_fd = pid, read_fd

    def serve(self, write_fd: int) -> int:
        """In the child: compute its share and send it, with child_extra's, into `write_fd`;
        the child's exit status."""
        import pickle  # here, not at start-up: most runs (a small suite, a warm one) never fork

        try:
            results = [self.fn(x) for x in self._theirs]
            extra = self.child_extra() if self.child_extra is not None else None
            # Pickled straight into the pipe: the whole payload is never in memory at once
            # (at 100,000 fixtures it was as big as the results themselves).
            with os.fdopen(write_fd, "wb", buffering=1 << 20, closefd=False) as out:
                pickle.dump((results, extra), out, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            return 1
        return 0

    def finish(self, progress: Callable[[int, int], None] | None = None) -> list[R]:
        """Compute this process's share, collect the child's, and return every result in order."""
        mine = self._mine
        total = len(self.work)
        step = max(total // 100, 1)
        scale = total / len(mine) if mine else 1.0
        mine_results: list[R] = []
        self.so_far = mine_results
        for index, x in enumerate(mine, start=1):
            mine_results.append(self.fn(x))
            if progress and index % step == 0:
                progress(min(int(index * scale), total), total)
        self.so_far = []
        if self.pid is None:
            return mine_results
        theirs = self._theirs
        theirs_results = self._collect()
        if theirs_results is None or len(theirs_results) != len(theirs):
            theirs_results = [self.fn(x) for x in theirs]
        mine_iter, theirs_iter = iter(mine_results), iter(theirs_results)
        return [next(theirs_iter) if child else next(mine_iter) for child in self._to_child]

    def _collect(self) -> list[R] | None:
        assert self.pid is not None and self.read_fd is not None
        import pickle

        results: list[R] | None = None
        extra: object = None
        try:
            # Unpickled as it is read: the payload is never held whole (see _fork).
            with os.fdopen(self.read_fd, "rb", buffering=1 << 20, closefd=False) as pipe:
                results, extra = pickle.load(pipe)
        except Exception:  # a child that died mid-way: its share is computed here instead
            results = None
        finally:
            os.close(self.read_fd)
            self.read_fd = None
            _, status = os.waitpid(self.pid, 0)
            self.pid = None
        if status != 0 or results is None:
            return None
        self.from_child = extra
        return results

    def cancel(self) -> None:
        """Stop the child (the work is no longer wanted, e.g. the app closed while loading)."""
        if self.pid is None:
            return
        _stop(self.pid)
        if self.read_fd is not None:
            os.close(self.read_fd)
        self.pid = self.read_fd = None


def _stop(pid: int) -> None:
    """Kill a child and reap it (gone already: nothing to do)."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


class EarlyChild:
    """A child forked before its work was known (`fork_early`): it works out the work itself,
    hands this process what it found (`received`), then computes its share of the work as a
    ForkedMap's child does, into its second pipe (for `ForkedMap(child=...)`)."""

    def __init__(self, pid: int, found_fd: int, results_fd: int, store: int | None) -> None:
        self.pid: int | None = pid
        self.found_fd: int | None = found_fd
        self.results_fd: int | None = results_fd
        self.store = store
        """The in-memory file the child writes what it found into (None: it goes through the
        pipe `found_fd`, and the child waits for this process to read it)."""

    def received(self) -> object:
        """What the child found. Raises when nothing (whole) came: the child died or failed
        first (it is then stopped and waited for, and this object is spent)."""
        import pickle

        assert self.found_fd is not None
        try:
            if self.store is None:
                fd, self.found_fd = self.found_fd, None
                with os.fdopen(fd, "rb", buffering=1 << 20) as pipe:
                    return pickle.load(pipe)
            if os.read(self.found_fd, 1) != _SENT:  # nothing: the child ended first
                raise EOFError("the early child sent nothing")
            store, self.store = self.store, None
            os.lseek(store, 0, os.SEEK_SET)
            with os.fdopen(store, "rb", buffering=1 << 20) as file:
                return pickle.load(file)
        except Exception:
            self.cancel()
            raise

    def hand_over(self, computes_share: bool) -> tuple[int, int] | None:
        """(pid, results pipe) for ForkedMap(child=...) when the child computes a share of the
        work; else None, the child waited for (it exits once it has sent what it found)."""
        assert self.pid is not None and self.results_fd is not None
        if self.found_fd is not None:
            os.close(self.found_fd)
            self.found_fd = None
        if computes_share:
            handed = (self.pid, self.results_fd)
            self.pid = self.results_fd = None
            return handed
        os.close(self.results_fd)
        os.waitpid(self.pid, 0)
        self.pid = self.results_fd = None
        return None

    def cancel(self) -> None:
        """Stop the child and close the pipes (nothing more is wanted of it)."""
        for fd in (self.found_fd, self.results_fd, self.store):
            if fd is not None:
                os.close(fd)
        self.found_fd = self.results_fd = self.store = None
        if self.pid is not None:
            _stop(self.pid)
            self.pid = None


_SENT = b"\x01"
"""Written into the pipe once what the child found is whole in the in-memory file."""

Send = Callable[[object], None]
"""The early child's way to hand over what it found (once)."""


def fork_early(child: Callable[[Send, int], None]) -> EarlyChild | None:
    """Fork a child that runs `child(send, results_fd)`: it hands over what it found by
    `send(found)`, then (if it computes a share) writes its results into `results_fd`, as
    ForkedMap.serve does. None when this process cannot fork (see can_fork).

    What it found goes into an in-memory file (memfd), with one byte into a pipe once it is
    whole: written straight into the pipe, anything over the pipe's 64 KB would hold the child
    until this process reads it (the listing of 11,000 fixtures is 2.4 MB; the app reads it once
    its interface runs), and the child would check nothing meanwhile. Where there is no memfd,
    the pipe carries it all."""
    if not can_fork():
        return None
    import pickle

    found_read, found_write = os.pipe()
    results_read, results_write = os.pipe()
    store: int | None = None
    if hasattr(os, "memfd_create"):
        with contextlib.suppress(OSError):
            store = os.memfd_create("voyage_tui listing", os.MFD_CLOEXEC)
    pid = os.fork()
    if pid == 0:  # child
        os.close(found_read)
        os.close(results_read)

        def send(found: object) -> None:
            target = found_write if store is None else store
            with os.fdopen(target, "wb", buffering=1 << 20, closefd=False) as out:
                pickle.dump(found, out, protocol=pickle.HIGHEST_PROTOCOL)
            if store is not None:
                os.write(found_write, _SENT)
                os.close(store)  # so its pages go once the parent has read it and closed it
            os.close(found_write)

        status = 1
        try:
            child(send, results_write)
            status = 0
        finally:
            os._exit(status)
    os.close(found_write)
    os.close(results_write)
    return EarlyChild(pid, found_read, results_read, store)
