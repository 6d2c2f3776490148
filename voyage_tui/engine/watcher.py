"""Watching the workspace for changes made outside the app (another editor, git, a script).

inotify through watchfiles' Rust notifier; where inotify is unavailable or out of watches,
polling. Changes are batched (a save often touches a file several times) and handed on as
workspace-relative paths.

Arming and watching are two steps. `WorkspaceWatcher.arm()` starts the notifier: from then on
every change is recorded, whether or not anyone asks yet. The app (or the command line, before
it lists the files) arms first and scans after, so a change made while the suite loads is seen
by the load or reported afterwards, never lost between the two. `run()` then hands the recorded
changes on, batch by batch, until told to stop.

A workspace may hold names that are not UTF-8 (or folders it cannot read): the notifier then
raises instead of naming the change, and the batch is lost. The watcher arms again and asks for
everything to be checked (`on_change(None)`): a hostile name costs a re-check, never the
watching.

The engine's (no Textual): the live suite runs it through its `Watcher` protocol
(validation/live.py), and the command line arms it before Textual is imported. The notifier is
watchfiles' private `_rust_notify`, the one private name of a library outside the app's Textual
ones: it is named in `PRIVATE_NAMES` and used in `open_notifier` alone, and
tests/engine/test_watcher_private.py looks it up and starts it on the pinned watchfiles, so an
upgrade that renames it fails there, by name.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from voyage_tui.engine.workspace.layout import NEVER_SEARCHED, watched
from voyage_tui.engine.workspace.model import Workspace

PRIVATE_NAMES: tuple[tuple[str, str], ...] = (("watchfiles._rust_notify", "RustNotify"),)
"""(module, name) of each private name of watchfiles used here: the test looks each up."""


class WatchUnavailable(Exception):
    """The workspace cannot be watched; the message says why, for the person."""


SETUP_FAILURES_BEFORE_GIVING_UP = 3
"""Polling that cannot even start this many times in a row: the workspace cannot be watched."""

STEADY_SECONDS = 5.0
"""A watcher that ran this long before failing was working: its restart waits the least."""

MAX_BACKOFF = 10.0
"""Seconds between restarts when the watcher keeps failing (at most one re-check this often)."""

WAKE_MS = 500
"""The notifier returns at least this often, so `stop` is noticed."""


class Notifier(Protocol):
    def watch(
        self, debounce_ms: int, step_ms: int, timeout_ms: int, stop_event: Any
    ) -> set[tuple[int, str]] | str: ...

    def close(self) -> None: ...


def open_notifier(paths: list[str], force_polling: bool) -> Notifier:
    """The Rust notifier of watchfiles, recording changes under `paths` (folders, watched
    whole, and files) from this call on. Private to watchfiles (PRIVATE_NAMES): its public
    `watch()` owns the loop, and the watcher needs arming apart from watching."""
    from watchfiles._rust_notify import RustNotify

    return RustNotify(paths, False, force_polling, 500, True, True)


def _wanted(root: str) -> Callable[[str], bool]:
    def keep(path: str) -> bool:
        rel = os.path.relpath(path, root)
        parts = rel.split(os.sep)
        if any(part in NEVER_SEARCHED for part in parts):
            return False
        name = parts[-1]
        # Editors' swap and backup files, and our own atomic-write temporaries.
        return not (name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith(".#"))

    return keep


class WorkspaceWatcher:
    """One watcher of one workspace: armed once, then run (in one thread) until stopped."""

    def __init__(
        self,
        root: Path,
        debounce_ms: int = 150,
        *,
        folders: list[str] | None = None,
        files: list[str] | tuple[str, ...] = (),
    ) -> None:
        """`folders` (workspace-relative, watched whole) and `files` (at the root, watched
        one by one): what to watch (engine/workspace/layout.py `watched`); None watches the
        whole workspace. Arming puts a watch on every folder below a watched one, holding the
        interpreter lock: a `.venv` or `.git` beside the configured folders costs nothing."""
        self.root = str(root)
        self.debounce_ms = debounce_ms
        self.folders = folders
        self.files = tuple(files)
        self._rearm: set[str] = set()
        """Paths whose change means arming again: the files watched one by one (a file
        replaced by a rename is a new file, which the old watch does not see) and the
        watched folders themselves."""
        self.armed = threading.Event()
        """Set once the notifier records changes (or arming failed: see `problem`)."""
        self.problem: WatchUnavailable | None = None
        self._notifier: Notifier | None = None
        self._force_polling = False
        self._lock = threading.Lock()

    def arm(self) -> None:
        """Start recording changes now. Raises WatchUnavailable when the workspace cannot be
        watched (and remembers why, for `run`). Arming an armed watcher does nothing."""
        with self._lock:
            try:
                if self._notifier is None:
                    self._notifier = self._open()
                    self.problem = None
            except WatchUnavailable as exc:
                self.problem = exc
                raise
            finally:
                self.armed.set()

    def _open(self) -> Notifier:
        try:
            self.root.encode("utf-8")
        except UnicodeEncodeError:
            # The notifier takes paths as UTF-8 strings; this one has none.
            raise WatchUnavailable(
                "its path is not valid UTF-8, which the file watcher cannot follow"
            ) from None
        paths = self._paths()
        try:
            return open_notifier(paths, self._force_polling)
        except Exception as exc:
            if self._force_polling:
                raise WatchUnavailable(f"the file watcher cannot start: {exc}") from exc
        # inotify could not start (out of watches, a folder it cannot name): poll.
        self._force_polling = True
        try:
            return open_notifier(paths, True)
        except Exception as exc:
            raise WatchUnavailable(f"the file watcher cannot start: {exc}") from exc

    def _paths(self) -> list[str]:
        """The absolute paths to watch now: each configured folder (or, while it does not
        exist, its nearest folder that does, below the root), each root file that exists."""
        if self.folders is None:
            self._rearm = set()
            return [self.root]
        paths: list[str] = []
        rearm: set[str] = set()
        folders = self.folders
        if "" in folders:
            # The root's folders, those the walk never searches left out; one made later is
            # watched from the next arming on.
            with contextlib.suppress(OSError), os.scandir(self.root) as entries:
                folders = [
                    e.name
                    for e in entries
                    if e.name not in NEVER_SEARCHED and e.is_dir(follow_symlinks=False)
                ]
        for rel in folders:
            while rel and not os.path.isdir(os.path.join(self.root, rel)):
                rel = rel.rsplit("/", 1)[0] if "/" in rel else ""
            if rel:  # (one not made yet whose parent is the root: from the next arming on)
                paths.append(os.path.join(self.root, rel))
                rearm.add(rel)
        for name in self.files:
            path = os.path.join(self.root, name)
            if os.path.isfile(path):
                paths.append(path)
            rearm.add(name)
        self._rearm = rearm | set(folders)
        # Nested folders (a missing folder's parent can hold another) are watched once.
        paths = sorted(set(paths))
        return [p for p in paths if not any(p.startswith(q + os.sep) for q in paths)] or [self.root]

    def close(self) -> None:
        with self._lock:
            notifier, self._notifier = self._notifier, None
        if notifier is not None:
            with contextlib.suppress(Exception):  # already broken: nothing left to stop
                notifier.close()

    def run(self, on_change: Callable[[set[str] | None], None], stop: threading.Event) -> None:
        """Blocks until `stop` is set, calling `on_change(rel paths)` for each batch, or
        `on_change(None)` when changes were lost and everything needs checking. Arms first if
        not armed yet. Raises WatchUnavailable when the workspace cannot be watched at all."""
        keep = _wanted(self.root)
        lost = False  # a batch was lost: ask for everything once the notifier runs again
        failures = 0  # in a row: each restart waits longer, up to MAX_BACKOFF
        try:
            while not stop.is_set():
                if self._notifier is None and not self._arm_again(stop, first=not lost):
                    return
                if lost:
                    # Only now: a change made before this notifier began is in the re-check,
                    # one made after it, in a batch.
                    lost = False
                    on_change(None)
                notifier = self._notifier
                assert notifier is not None
                started_at = time.monotonic()
                try:
                    raw = notifier.watch(self.debounce_ms, 50, WAKE_MS, stop)
                except Exception:
                    if time.monotonic() - started_at > STEADY_SECONDS:
                        failures = 0
                    failures += 1
                    lost = True
                    self.close()
                    stop.wait(min(0.1 * 2**failures, MAX_BACKOFF))
                    continue
                if raw == "stop" or stop.is_set():
                    return
                if not isinstance(raw, set):
                    continue  # a timeout (or a signal, which the app handles itself)
                paths = {
                    os.path.relpath(path, self.root).replace(os.sep, "/")
                    for _, path in raw
                    if keep(path)
                }
                if paths:
                    on_change(paths)
                if paths & self._rearm:
                    # A watched file or folder was replaced or made: its watch is on what
                    # was there before. Armed again; whatever happens meanwhile is checked.
                    self.close()
                    lost = True
        finally:
            self.close()

    def _arm_again(self, stop: threading.Event, first: bool) -> bool:
        """Arm for `run`: the first time, a failure is final (the workspace cannot be watched);
        after a lost batch, arming is retried a few times with a growing wait. False: stopped."""
        if first and self.problem is not None:
            raise self.problem
        attempts = 0
        while not stop.is_set():
            try:
                self.arm()
                return True
            except WatchUnavailable:
                attempts += 1
                if first or attempts >= SETUP_FAILURES_BEFORE_GIVING_UP:
                    raise
            stop.wait(min(0.1 * 2**attempts, MAX_BACKOFF))
        return False


def watcher_of(ws: Workspace) -> WorkspaceWatcher:
    """The watcher of `ws`: its configured folders and root files only (layout.watched)."""
    folders, files = watched(ws)
    return WorkspaceWatcher(ws.root, folders=folders, files=files)
