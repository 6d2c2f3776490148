"""`voyage-tui [PATH]`: open the app on the workspace found from PATH."""

from __future__ import annotations

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    no_workspace,
    run_app,
    unreadable_workspace,
)
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace


def run(argv: list[str]) -> int:
    parser = Parser(
        prog="voyage-tui",
        description="Open the app on the workspace at PATH. Options go before or after PATH.",
        epilog="`voyage-tui --help` lists the commands (validate, score, exposure, ...).",
    )
    parser.add_argument(
        "path", nargs="?", default=None, help="the workspace or a folder in it (default: here)"
    )
    add_app_switches(parser)
    args = parser.parse_args(argv)
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    return run_app(ws, args)
