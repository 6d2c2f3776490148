"""Watching the workspace for changes made outside the app (another editor, git, a script).

inotify through watchfiles; where inotify is unavailable or out of watches, polling. Changes are
batched (a save often touches a file several times) and handed on as workspace-relative paths.

A workspace may hold names that are not UTF-8 (or folders it cannot read): watchfiles then
raises instead of naming the change, and the batch is lost. The watcher starts again and, once
it runs, asks for everything to be checked (`on_change(None)`): a hostile name costs a re-check,
never the watching.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from voyage_tui.engine.workspace.layout import NEVER_SEARCHED

SETUP_FAILURES_BEFORE_GIVING_UP = 3
"""Polling that cannot even start this many times in a row: the workspace cannot be watched."""

STEADY_SECONDS = 5.0
"""A watcher that ran this long before failing was working: its restart waits the least."""

MAX_BACKOFF = 10.0
"""Seconds between restarts when the watcher keeps failing (at most one re-check this often)."""


class WatchUnavailable(Exception):
    """The workspace cannot be watched; the message says why, for the person."""


def _wanted(root: str) -> Callable[[object, str], bool]:
    def keep(change: object, path: str) -> bool:
        rel = os.path.relpath(path, root)
        parts = rel.split(os.sep)
        if any(part in NEVER_SEARCHED for part in parts):
            return False
        name = parts[-1]
        # Editors' swap and backup files, and our own atomic-write temporaries.
        return not (name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith(".#"))

    return keep


def watch_workspace(
    root: Path,
    on_change: Callable[[set[str] | None], None],
    stop: threading.Event,
    debounce_ms: int = 150,
) -> None:
    """Blocks until `stop` is set, calling `on_change(rel paths)` for each batch, or
    `on_change(None)` when changes were lost and everything needs checking. Raises
    WatchUnavailable when the workspace cannot be watched at all."""
    from watchfiles import watch

    root_str = str(root)
    try:
        root_str.encode("utf-8")
    except UnicodeEncodeError:
        # watchfiles hands paths to Rust as UTF-8 strings; this one has none.
        raise WatchUnavailable(
            "its path is not valid UTF-8, which the file watcher cannot follow"
        ) from None
    keep = _wanted(root_str)
    force_polling = False
    failures = 0  # in a row: each restart waits longer, up to MAX_BACKOFF
    lost = False  # a failed session lost changes: ask for everything once the next one runs
    while not stop.is_set():
        started_at = time.monotonic()
        yielded = False
        try:
            for changes in watch(
                root_str,
                watch_filter=keep,
                stop_event=stop,
                debounce=debounce_ms,
                step=50,
                rust_timeout=500,
                yield_on_timeout=True,
                force_polling=force_polling,
                poll_delay_ms=500,
                raise_interrupt=False,
                ignore_permission_denied=True,
            ):
                yielded = True
                if stop.is_set():
                    return
                if lost:
                    # Only now: a change made before this session began is in the re-check,
                    # one made after it, in a batch.
                    lost = False
                    on_change(None)
                if changes:
                    paths = {os.path.relpath(p, root_str).replace(os.sep, "/") for _, p in changes}
                    on_change(paths)
            return
        except Exception as exc:
            if time.monotonic() - started_at > STEADY_SECONDS:
                failures = 0
            failures += 1
            lost = True
            if not yielded:
                if not force_polling:
                    # inotify could not start (out of watches, a folder it cannot name): poll.
                    force_polling = True
                elif failures >= SETUP_FAILURES_BEFORE_GIVING_UP:
                    raise WatchUnavailable(f"the file watcher cannot start: {exc}") from exc
        stop.wait(min(0.1 * 2**failures, MAX_BACKOFF))
