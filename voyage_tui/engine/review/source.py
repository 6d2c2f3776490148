"""The source lines around a finding, where the reviewed repository is in the workspace.

A gold corpus may keep the reviewed files in `repo/` beside the gold file; or its `source` may
name a fixture folder (or a file in one) whose `repo/` holds them. The first that has the file wins.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.workspace.model import Workspace, normalize_rel

CONTEXT_LINES = 3


@dataclass(frozen=True, slots=True)
class SourceExcerpt:
    path: str
    """Workspace-relative path of the file shown."""
    first_line: int
    lines: tuple[str, ...]
    focus: int
    """The finding's line (1-based), or 0 for a file-scoped finding."""


def _candidates(gold_rel: str, gold: dict[str, Any], file: str) -> list[str]:
    folder = gold_rel.rsplit("/", 1)[0] if "/" in gold_rel else ""
    out = [normalize_rel(f"{folder}/repo/{file}" if folder else f"repo/{file}")]
    source = gold.get("source")
    if isinstance(source, str) and source and not os.path.isabs(source):
        base = normalize_rel(source)
        parts = base.split("/")
        for cut in range(len(parts), 0, -1):
            out.append(normalize_rel("/".join(parts[:cut]) + f"/repo/{file}"))
    return [c for c in dict.fromkeys(out) if c and not c.startswith("..")]


def excerpt(
    ws: Workspace, gold_rel: str, gold: dict[str, Any], file: str, line: int | None
) -> SourceExcerpt | None:
    for rel in _candidates(gold_rel, gold, file):
        if not os.path.isfile(ws.abs(rel)):
            continue
        text = ws.read_text(rel)
        if isinstance(text, Diagnostic):
            continue
        lines = text.splitlines()
        focus = line or 0
        if focus <= 0 or focus > len(lines):
            start, end = 0, min(len(lines), 2 * CONTEXT_LINES + 1)
        else:
            start = max(focus - 1 - CONTEXT_LINES, 0)
            end = min(focus + CONTEXT_LINES, len(lines))
        return SourceExcerpt(rel, start + 1, tuple(lines[start:end]), focus)
    return None
