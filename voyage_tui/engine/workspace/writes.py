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
from voyage_tui.engine.loading.safe_read import is_within
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


class OutputExists(WriteRefused):
    """The file named with `--output` is there, and replacing it was not asked (`--force`)."""


def write_output(ws: Workspace, path: str, data: bytes, *, force: bool = False) -> str:
    """Write a report the user named (`results --output`, `ratings export --output`, the
    results screen's export), SPEC 3.10's last bullet. `path` is as typed: relative to the
    current folder, or absolute. Returns the path written.

    - Inside the workspace (the path as written, symlinks not resolved, lies below its root):
      write_file's rules, so no symlink at any component, nothing under `.git` or a Python
      environment, never over a file git ignores; missing folders are made.
    - Reaching into the workspace through a symlink outside it: refused (the rules inside
      would be sidestepped).
    - Elsewhere: the user's decision. The folder must exist (its symlinks are the user's);
      the file's own name is not followed if it is a link.
    - Everywhere atomic (a new file renamed into place, the old one's mode kept); an existing
      file raises OutputExists unless `force`.

    Raises WriteRefused (OutputExists) or OSError; nothing is written then."""
    full = os.path.normpath(os.path.abspath(path))
    expect = None if force else Expected(None)
    try:
        for base in (os.path.normpath(os.path.abspath(ws.root)), ws.root_real):
            if is_within(base, full):
                rel = os.path.relpath(full, base).replace(os.sep, "/")
                return write_file(ws, rel, data, expect=expect, make_folders=True, shown=path)
        folder = os.path.realpath(os.path.dirname(full))
        if is_within(ws.root_real, folder):
            raise WriteRefused(
                path,
                f"{path} leads into the workspace through a symlink, and inside the "
                "workspace voyage-tui writes through none; name the file by its path inside "
                "the workspace; nothing was written",
            )
        if not os.path.isdir(folder):
            raise WriteRefused(
                path,
                f"{path}: no folder {os.path.dirname(full)} (outside the workspace voyage-tui "
                "makes none); nothing was written",
            )
        return write_inside(
            folder, os.path.basename(full), data, expect=expect, shown=path, root_name="its folder"
        )
    except ContentChanged:
        raise OutputExists(
            path, f"{path} exists; nothing was written (--force replaces it)"
        ) from None
