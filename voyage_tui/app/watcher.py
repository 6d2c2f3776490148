"""Watching the workspace for changes made outside the app (another editor, git, a script).

inotify through watchfiles; where inotify is unavailable or out of watches, polling. Changes are
batched (a save often touches a file several times) and handed on as workspace-relative paths.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from voyage_tui.engine.workspace.layout import NEVER_SEARCHED


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
    on_change: Callable[[set[str]], None],
    stop: threading.Event,
    debounce_ms: int = 150,
) -> None:
    """Blocks until `stop` is set, calling `on_change(rel paths)` for each batch."""
    from watchfiles import watch

    root_str = str(root)
    keep = _wanted(root_str)
    for force_polling in (False, True):
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
            ):
                if stop.is_set():
                    return
                if changes:
                    paths = {os.path.relpath(p, root_str).replace(os.sep, "/") for _, p in changes}
                    on_change(paths)
            return
        except OSError:
            continue  # out of inotify watches: poll instead
