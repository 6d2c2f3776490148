"""voyage.toml as bytes: where it is and how it is read, without parsing it.

Kept apart from config.py (which validates the parsed file with pydantic) so that finding a
workspace and checking whether a cached validation still holds import nothing heavy.
"""

from __future__ import annotations

import os
from pathlib import Path

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import read_bytes

CONFIG_NAME = "voyage.toml"
CONFIG_MAX_BYTES = 1_048_576


def read_config_bytes(root: Path) -> bytes | Diagnostic | None:
    """The bytes of the workspace's voyage.toml, the diagnostic that says why they cannot be
    read, or None when there is no voyage.toml."""
    config_path = root / CONFIG_NAME
    try:
        present = config_path.exists()
    except OSError as exc:  # the root's mode lets no one but its owner look inside
        return dg.error(
            CONFIG_NAME, None, "file-unreadable", f"cannot read the file: {exc.strerror}"
        )
    if not present:
        return None
    return read_bytes(
        str(config_path), CONFIG_NAME, root_real=os.path.realpath(root), max_bytes=CONFIG_MAX_BYTES
    )
