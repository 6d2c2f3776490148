"""Finding the workspace: the nearest folder, walking up, that holds voyage.toml or fixtures/."""

from __future__ import annotations

import os
from pathlib import Path

from voyage_tui.engine.workspace.config import CONFIG_NAME


class NoWorkspace(Exception):
    """Raised with a message a person can act on."""


def find_workspace(start: str | os.PathLike[str] | None = None) -> Path:
    origin = Path(start if start is not None else os.getcwd()).expanduser()
    if not origin.exists():
        raise NoWorkspace(f"{origin}: no such file or folder")
    folder = origin.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        if (candidate / CONFIG_NAME).is_file() or (candidate / "fixtures").is_dir():
            return candidate
    raise NoWorkspace(
        f"no workspace found at or above {origin}: a workspace is a folder holding "
        f"{CONFIG_NAME} or a fixtures/ folder"
    )
