"""Shared facts about the file being checked."""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.workspace.model import Workspace


@dataclass(slots=True)
class FileContext:
    ws: Workspace
    refs: References
    rel: str
    text: str
