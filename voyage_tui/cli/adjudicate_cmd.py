"""`voyage-tui adjudicate [PATH] [--adjudicator NAME] [--list] [--format text|json]`.

Settle the disputed items (SPEC 3.9, docs/cli.md "adjudicate"): an item whose raters' scores on
some dimension differ by at least `[rating] dispute_spread`. Without `--list` the app opens on
the adjudication screen; with it the disputed items are printed (JSON `{"items": [{"fixture_id",
"run_id", "spread", "raters", "adjudicated"}]}`) and nothing opens. Which items are disputed is
the engine's (engine/ratings/disputes.py). Exit 0; 2 for a usage error, no workspace, an
adjudicator name that cannot be used, or a ratings or adjudications file that cannot be read
(the list would miss its records).
"""

from __future__ import annotations

import sys

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    no_workspace,
    run_app,
    unreadable_workspace,
)
from voyage_tui.cli.render import dumps, shown
from voyage_tui.engine.campaign.figures import dispute_report
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.disputes import DisputeReport
from voyage_tui.engine.ratings.names import RaterNameError, resolve_rater
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui adjudicate",
        description="Settle the disputed items (raters' scores on a dimension at least [rating] "
        "dispute_spread apart): the app opens on each rater's scores and notes side by side, "
        "and the final scores are appended to the adjudications file. --list prints the "
        "disputed items instead. Exit 2 for a usage error, no workspace, or an unreadable "
        "ratings or adjudications file.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument(
        "--adjudicator",
        metavar="NAME",
        help="adjudicate as NAME (default: git's user.name, else the OS user)",
    )
    parser.add_argument(
        "--list", action="store_true", help="print the disputed items; open nothing"
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default=None, help="with --list (default text)"
    )
    add_app_switches(
        parser, git_help="skip every check that needs git (and do not ask git for user.name)"
    )
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.format is not None and not args.list:
        parser.error("--format goes with --list (the screen has no format)")
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    if args.list:
        report = dispute_report(load_campaign(WorkTree(ws)))
        if args.format == "json":
            print(dumps(report.to_json()))
        else:
            print("\n".join(text_lines(report, ws.config.rating.dispute_spread)))
        return 2 if _tell_unreadable(report) else 0
    try:
        adjudicator = resolve_rater(ws, args.adjudicator, use_git=not args.no_git)
    except RaterNameError as exc:
        message = str(exc).replace("--rater", "--adjudicator")
        print(f"voyage-tui adjudicate: {shown(message)}", file=sys.stderr)
        return 2
    return run_app(ws, args, initial_adjudicate=adjudicator)


def _tell_unreadable(report: DisputeReport) -> bool:
    unreadable = report.unreadable()
    for d in unreadable:
        print(shown(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"), file=sys.stderr)
    return bool(unreadable)


def text_lines(report: DisputeReport, spread: int) -> list[str]:
    if not report.items:
        return [f"No disputed items (no dimension's scores {spread} or more apart)."]
    open_ = sum(1 for d in report.items if not d.adjudicated)
    lines = [
        f"{plural(len(report.items), 'disputed item')} (scores {spread} or more apart), "
        f"{open_} not adjudicated"
    ]
    for dispute in report.items:
        fixture_id, run_id = dispute.run_key
        state = "adjudicated" if dispute.adjudicated else "open"
        widest = ", ".join(f"{dim} {gap}" for dim, gap in dispute.spread.items())
        lines.append(
            shown(f"  {fixture_id} / {run_id}  [{state}]  spread: {widest}")
            + shown(f"  raters: {', '.join(dispute.raters)}")
        )
    return lines
