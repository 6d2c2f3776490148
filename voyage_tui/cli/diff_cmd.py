"""`voyage-tui diff GOLD RUN`: open the app straight on the gold-vs-run diff."""

from __future__ import annotations

import os
import stat
import sys

from voyage_tui.cli.common import (
    Parser,
    no_workspace,
    prepare_for_app,
    unreadable_workspace,
)
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace


def _not_a_file(path: str) -> str | None:
    """Why `path` cannot be shown, or None: "no such file" would be wrong for a file the user
    may not read (its folder's mode), so the OS's own reason is given."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    return None if stat.S_ISREG(st.st_mode) else "not a regular file"


def run(argv: list[str]) -> int:
    parser = Parser(
        prog="voyage-tui diff",
        description="Open the app on the diff of a recorded run against its gold file. Both files "
        "must be inside one workspace (found from GOLD's folder).",
    )
    parser.add_argument("gold", help="a voyage-eval-gold/1 file")
    parser.add_argument("run", help="a run: JSON array of reviewer payloads")
    parser.add_argument("--no-git", action="store_true", help="skip every check that needs git")
    parser.add_argument(
        "--no-watch", action="store_true", help="do not watch the workspace for changes"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="check every file, ignoring what the last run recorded",
    )
    args = parser.parse_args(argv)
    for path in (args.gold, args.run):
        problem = _not_a_file(path)
        if problem:
            print(f"voyage-tui diff: {path}: {problem}", file=sys.stderr)
            return 2
    try:
        ws = Workspace.load(os.path.dirname(os.path.abspath(args.gold)))
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    gold_rel, run_rel = ws.rel(args.gold), ws.rel(args.run)
    for rel in (gold_rel, run_rel):
        if rel.startswith(".."):
            print(f"voyage-tui diff: {rel} is outside the workspace {ws.root}", file=sys.stderr)
            return 2
    prepared = prepare_for_app(ws, use_git=not args.no_git, cache=not args.no_cache)
    from voyage_tui.app import VoyageApp

    app = VoyageApp(
        ws,
        use_git=not args.no_git,
        watch=not args.no_watch,
        initial_diff=(gold_rel, run_rel),
        prepared=prepared,
    )
    try:
        return int(app.run() or 0)
    finally:
        prepared.cancel()
