"""A task's `context` as a reader sees it (SPEC 3.1): each inline text as written (its code
blocks kept), and each file it names read through the same checks as validation, bounded.

The rater's task pane and the browser's detail pane both show it; what they show is decided
here, once, so neither reads a context file its own way.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.rules.task_rules import context_ref_problems
from voyage_tui.engine.workspace.model import Workspace

CONTEXT_FILES = 12
"""Files of one context read; the rest are counted, not read (a context may name many)."""

CONTEXT_FILE_CHARS = 20_000
"""Characters shown of one context file; the rest are counted, not drawn."""


@dataclass(frozen=True, slots=True)
class ContextPart:
    """One entry of a task's `context`."""

    text: str
    """Inline text (Markdown, as written), or the named file's text (its first characters)."""
    file: str | None = None
    """The file's path as the task names it (relative to the fixture folder); None for text."""
    path: str | None = None
    """The file's workspace-relative path, when it could be read."""
    problem: Diagnostic | None = None
    """Why the file is not shown (missing, leaves the fixture folder, not text)."""
    cut: int = 0
    """Characters of the file left out after the first CONTEXT_FILE_CHARS."""


@dataclass(frozen=True, slots=True)
class TaskContext:
    parts: tuple[ContextPart, ...] = ()
    files_left_out: int = 0
    """Files named after the first CONTEXT_FILES: not read."""


def task_context(ws: Workspace, task_rel: str, value: Any) -> TaskContext:
    """The parts of a task's `context` value (None, text, `{file: path}` or a list of them);
    an entry of another shape is left out (validation reports it)."""
    if value is None:
        return TaskContext()
    entries = value if isinstance(value, list) else [value]
    parts: list[ContextPart] = []
    files = 0
    for entry in entries:
        if isinstance(entry, str):
            parts.append(ContextPart(entry.strip("\n")))
        elif isinstance(entry, dict) and isinstance(entry.get("file"), str):
            files += 1
            if files <= CONTEXT_FILES:
                parts.append(_file_part(ws, task_rel, entry["file"]))
    return TaskContext(tuple(parts), max(files - CONTEXT_FILES, 0))


def _file_part(ws: Workspace, task_rel: str, ref: str) -> ContextPart:
    problems = context_ref_problems(ws, task_rel, ref, None)
    if problems:
        return ContextPart("", file=ref, problem=problems[0])
    folder = task_rel.rsplit("/", 1)[0] if "/" in task_rel else ""
    rel = posixpath.normpath(posixpath.join(folder, ref))
    text = ws.read_text(rel)
    if isinstance(text, Diagnostic):
        return ContextPart("", file=ref, problem=text)
    cut = max(len(text) - CONTEXT_FILE_CHARS, 0)
    return ContextPart(text[:CONTEXT_FILE_CHARS], file=ref, path=rel, cut=cut)


__all__ = ["CONTEXT_FILES", "CONTEXT_FILE_CHARS", "ContextPart", "TaskContext", "task_context"]
