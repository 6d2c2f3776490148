"""`voyage-tui rate [PATH] [--rater NAME] [--no-blind]`: open the app on the rater session.

The rater's name is settled here, before the app starts, as the session would settle it
(`--rater`, else git's user.name, else the OS user), so a name that cannot be a file name is a
usage error with the reason, not a screen. So is a session that could not start (the rater is
rating in another session, their file is no ratings file or a symlink): exit 2 with the reason.
Under `serve --rate` (the hidden `--in-browser`) the app opens all the same and its screen says
why, since a tab has no stderr. A rater who is not one of a set `[rating] raters` is told so
once (stderr) and rates all the same.

The app opens as a rater-only session (app/rater_only.py): the rating views and nothing else,
no agent label or run id while blind; `escape` asks to end the session.
"""

from __future__ import annotations

import argparse
import sys

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    no_workspace,
    run_app,
    say_outside_team,
    unreadable_workspace,
)
from voyage_tui.cli.render import shown
from voyage_tui.engine.ratings.names import RaterNameError, resolve_rater
from voyage_tui.engine.ratings.session import why_no_session
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui rate",
        description="Rate agent runs on the rubric, one key per dimension: the app opens on the "
        "first run you have not rated. Blind by default (the agent is hidden and the order is "
        "shuffled for you). Every rating is appended to <ratings>/<rater>.jsonl and flushed to "
        "disk before the next run shows.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument(
        "--rater",
        metavar="NAME",
        help="rate as NAME (default: git's user.name, else the OS user); also the file's name",
    )
    parser.add_argument(
        "--no-blind",
        action="store_true",
        help="show the agent's label and the run's metadata; each rating records blind: false",
    )
    add_app_switches(
        parser, git_help="skip every check that needs git (and do not ask git for user.name)"
    )
    # `serve --rate` runs each tab as `rate --in-browser`: a refusal is shown in the page.
    parser.add_argument("--in-browser", action="store_true", help=argparse.SUPPRESS)
    return parser


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    try:
        rater = resolve_rater(ws, args.rater, use_git=not args.no_git)
    except RaterNameError as exc:
        print(f"voyage-tui rate: {shown(str(exc))}", file=sys.stderr)
        return 2
    if not args.in_browser:  # (under `serve`, the server said it once, not every tab)
        say_outside_team(ws, rater, "rate")
        refusal = why_no_session(ws, rater)
        if refusal is not None:
            print(f"voyage-tui rate: {shown(refusal)}", file=sys.stderr)
            return 2
    return run_app(ws, args, initial_rate=(rater, not args.no_blind), rater_only=True)
