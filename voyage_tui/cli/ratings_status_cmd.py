"""`voyage-tui ratings status [PATH] [--format text|json]`: the rating campaign's progress and
pace (SPEC 6; docs/cli.md, "ratings status").

Per rater: items assigned, done, left, the median seconds per item, items per hour (3600 over
that median) and the ratings faster than `[rating] min_seconds` (from `duration_s`); over the campaign: the items (the workspace's agent runs) and those complete.
The engine computes it all (engine/ratings/status.py, which the app's status view asks too);
this prints it. Exit 0; 2 for a usage error, no workspace, or a ratings file or folder that
cannot be read (its ratings are missing from the figures).
"""

from __future__ import annotations

import sys

from voyage_tui.cli.common import Parser, no_workspace, unreadable_workspace
from voyage_tui.cli.render import dumps
from voyage_tui.engine.campaign.figures import status as campaign_status
from voyage_tui.engine.campaign.snapshot import Campaign, load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.status import CampaignStatus, RaterStatus
from voyage_tui.engine.safe_text import one_line
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace

PROG = "voyage-tui ratings status"


def build_parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="The rating campaign's progress and pace: per rater the items assigned "
        "([rating] raters and overlap in voyage.toml), done and left, the median seconds per "
        "item and the items per hour; and how many items have their overlap of ratings. Exit "
        "2 for a usage error, no workspace, or an unreadable ratings file.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from voyage_tui.engine.validation.validated import validated_suite

    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    # The items are the suite's agent runs, each with its fixture's id; git's history checks
    # tell nothing here, so they are not run.
    suite = validated_suite(ws, use_git=True, git_checks=False)
    campaign = load_campaign(WorkTree(ws, suite.items, suite.refs.rubric))
    status = campaign_status(campaign)
    if args.format == "json":
        print(dumps(status.to_json()))
    else:
        print("\n".join(text_lines(status, ws.ratings_rel or ".")))
    return 2 if _tell_problems(campaign) else 0


def _tell_problems(campaign: Campaign) -> bool:
    """Say on stderr what could not count (ratings/left_out.py decides, as for agreement);
    True when a file or the folder could not be read at all."""
    missing = campaign.left_out()
    for d in missing.unreadable:
        print(
            one_line(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"),
            file=sys.stderr,
        )
    if missing.records:
        print(
            f"{PROG}: {plural(len(missing.records), 'problem')} in the ratings files left "
            "records out; `voyage-tui validate` lists them",
            file=sys.stderr,
        )
    return bool(missing.unreadable)


# --- text -------------------------------------------------------------------------------------


def figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


HEADINGS = ("assigned", "done", "left", "median s", "per hour", "too fast")


def text_lines(status: CampaignStatus, ratings_folder: str) -> list[str]:
    if status.team:
        team = one_line(", ".join(status.team))
        lines = [
            f"Rating campaign: a team of {len(status.team)} ({team}), overlap {status.overlap}"
        ]
    else:
        lines = [
            f"Rating campaign: no team ([rating] raters is empty), so every item is assigned "
            f"to every rater with a ratings file; overlap {status.overlap}"
        ]
    lines.append(
        f"Items: {plural(status.total, 'agent run')}, {status.complete} complete "
        f"(rated by at least {plural(status.overlap, 'rater')})"
    )
    if not status.raters:
        lines += ["", f"No ratings yet (in {ratings_folder}/) and no team: nobody to list."]
        return lines
    names = {name: one_line(name) for name in status.raters}
    width = max([len(n) for n in names.values()] + [len("rater")])
    lines += ["", "  " + "rater".ljust(width) + "".join(f"  {h:>8}" for h in HEADINGS)]
    for name, rater in status.raters.items():
        row = "  " + names[name].ljust(width) + "".join(f"  {c:>8}" for c in _cells(rater))
        if not rater.in_team:
            row += "  (not in the team)"
        lines.append(row)
    if status.too_fast:
        lines += [
            "",
            f"{plural(status.too_fast, 'rating')} faster than [rating] min_seconds "
            f"({status.min_seconds:g} s): `voyage-tui triage` lists them by rater.",
        ]
    if status.outsiders:
        lines += [
            "",
            f"{plural(len(status.outsiders), 'rater')} not in [rating] raters: their ratings "
            "count towards `complete`, and nothing is assigned to them.",
        ]
    return lines


def _cells(rater: RaterStatus) -> tuple[str, ...]:
    return (
        str(rater.assigned),
        str(rater.done),
        str(rater.left),
        figure(rater.median_s),
        figure(rater.per_hour),
        str(rater.too_fast),
    )
