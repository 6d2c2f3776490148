"""Finding the workspace: the nearest folder, walking up, that holds voyage.toml or fixtures/."""

from __future__ import annotations

import os
from pathlib import Path

from voyage_tui.engine.workspace.config_file import CONFIG_NAME


class NoWorkspace(Exception):
    """Raised with a message a person can act on."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def find_workspace(start: str | os.PathLike[str] | None = None) -> Path:
    if start is None:
        try:
            start = os.getcwd()
        except OSError as exc:  # the current folder was deleted, or cannot be reached
            raise NoWorkspace(f"the current folder cannot be read: {_reason(exc)}") from None
    origin = Path(start)
    try:
        origin = origin.expanduser()
    except RuntimeError:  # `~someone` for a user this machine does not know
        raise NoWorkspace(f"{origin}: no such file or folder") from None
    # A folder the user may not read answers every question below with EACCES; that is a
    # message, and it ends the search: a workspace further up is not the one that was asked for.
    try:
        if not origin.exists():
            raise NoWorkspace(f"{origin}: no such file or folder")
        folder = origin.resolve()
        if not folder.is_dir():
            folder = folder.parent
    except OSError as exc:
        raise NoWorkspace(f"{origin}: cannot read it: {_reason(exc)}") from None
    for candidate in (folder, *folder.parents):
        try:
            if (candidate / CONFIG_NAME).is_file() or (candidate / "fixtures").is_dir():
                return candidate
        except OSError as exc:
            raise NoWorkspace(f"{candidate}: cannot read this folder: {_reason(exc)}") from None
    raise NoWorkspace(
        f"no workspace found at or above {origin}: a workspace is a folder holding "
        f"{CONFIG_NAME} or a fixtures/ folder"
    )
