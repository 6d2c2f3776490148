"""The one way the engine writes into a workspace: engine/atomic.py's rules, plus git's ignores.

atomic.py refuses a symlink at any component below the root, `.git/` and Python environments.
What it cannot know is the workspace's repository: a file git ignores (`.env`, `.vscode/`,
`node_modules/.bin/`, build output) is someone's private or executable file, never the tool's,
so an existing one is not overwritten or appended to. New files are the tool's own, and so is
everything under `.voyage/` (drafts, the triage state), the folder the tool keeps for itself and
that a repository usually ignores.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from voyage_tui.engine.atomic import (
    ContentChanged,
    Expected,
    WriteRefused,
    append_lines_durably,
    write_inside,
)
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.state_files import STATE_FOLDER


def write_file(
    ws: Workspace,
    rel: str,
    data: bytes,
    *,
    expect: Expected | None = None,
    make_folders: bool = False,
    shown: str | None = None,
) -> str:
    """Write `data` to the workspace-relative `rel` (atomic.write_inside's rules); returns the
    path written. Raises WriteRefused, ContentChanged (with `expect`) or OSError."""
    shown = shown if shown is not None else rel
    refuse_ignored(ws, rel, shown)
    if make_folders and _in_state_folder(_normal(rel)):
        ensure_state_folder(ws)
    return write_inside(
        ws.root_real, rel, data, expect=expect, make_folders=make_folders, shown=shown
    )


def append_line(ws: Workspace, rel: str, line: str, *, shown: str | None = None) -> None:
    """Append one fsynced line to the workspace-relative `rel` (append_lines)."""
    append_lines(ws, rel, [line], shown=shown)


def append_lines(
    ws: Workspace, rel: str, lines: Sequence[str], *, shown: str | None = None
) -> None:
    """Append `lines` to the workspace-relative `rel` in one write and one fsync
    (atomic.append_lines_durably)."""
    shown = shown if shown is not None else rel
    refuse_ignored(ws, rel, shown)
    append_lines_durably(ws.abs(rel), lines, root=ws.root_real, shown=shown)


def ensure_state_folder(ws: Workspace) -> None:
    """Make `.voyage/` when it is not there, with a `.gitignore` of its own (`*`): what the tool
    keeps there (drafts, snoozes, locks) is one person's, and should never show in `git status`
    or be committed by accident. A `.voyage/` that exists already is left as it is."""
    if os.path.lexists(ws.abs(STATE_FOLDER)):
        return
    with contextlib.suppress(ContentChanged):  # made meanwhile by another session
        write_inside(
            ws.root_real,
            f"{STATE_FOLDER}/.gitignore",
            b"# voyage-tui's own state (drafts, snoozes, locks): never committed.\n*\n",
            expect=Expected(None),
            make_folders=True,
        )


def _normal(rel: str) -> str:
    return os.path.normpath(rel).replace(os.sep, "/")


def _in_state_folder(norm: str) -> bool:
    return norm == STATE_FOLDER or norm.startswith(STATE_FOLDER + "/")


def refuse_ignored(ws: Workspace, rel: str, shown: str) -> None:
    """Raise WriteRefused when `rel` exists, lies outside `.voyage/`, and git ignores it."""
    norm = _normal(rel)
    if _in_state_folder(norm):
        return
    if not os.path.lexists(ws.abs(norm)):
        return
    from voyage_tui.engine.workspace.layout import git_ignores_file

    if git_ignores_file(ws, norm):
        raise WriteRefused(
            shown,
            f"{shown} is a file git ignores, and voyage-tui did not make it (an ignored file is "
            "someone's own: a secret, a tool's settings, a build); nothing was written",
        )


def output_rel(ws: Workspace, path: str) -> str:
    """The workspace-relative path of a file the user named with `--output` (relative to the
    current folder). The tool writes only inside the workspace, so a path outside it raises
    WriteRefused saying to print and redirect instead (`results`, `ratings export`)."""
    full = os.path.abspath(path)
    folder_real = os.path.realpath(os.path.dirname(full))
    inside = folder_real == ws.root_real or folder_real.startswith(ws.root_real + os.sep)
    if not inside:
        raise WriteRefused(
            path,
            f"{path} is outside the workspace, and voyage-tui writes only inside it; write "
            "the file inside it, or print it and redirect (`> FILE`)",
        )
    rel = os.path.relpath(os.path.join(folder_real, os.path.basename(full)), ws.root_real)
    return rel.replace(os.sep, "/")


def write_output(ws: Workspace, path: str, data: bytes) -> str:
    """A report the user named (`results --output FILE`), inside the workspace by write_file's
    rules (atomic, never through a symlink, never over a file git ignores). Returns the path
    written. Raises WriteRefused (outside the workspace too) or OSError."""
    return write_file(ws, output_rel(ws, path), data, shown=path)
