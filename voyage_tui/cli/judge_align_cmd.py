"""`voyage-tui judge align [PATH] [--judge NAME] [--format text|json|md] [--min-kappa X]`.

How far to trust a judge (SPEC 3.11, engine/judging/align.py): per rubric dimension, its
kappa with the people against the people's kappa among themselves, each with a 95% bootstrap
interval, its bias, exact agreement, confusion matrix and self-agreement across repeats.

Exit 0; 1 with `--min-kappa X` when a dimension's judge_kappa_ci lower bound is below X; 2 for
a usage error, no workspace, no judge (or several and no --judge), or a ratings file that
cannot be read.
"""

from __future__ import annotations

import math
import sys

from voyage_tui.cli.common import Parser, no_workspace
from voyage_tui.cli.render import dumps, shown
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui judge align",
        description="How far a judge agrees with the people (quadratic-weighted kappa, mean "
        "over people) against how far they agree among themselves (mean over pairs), per "
        "rubric dimension, with 95%% bootstrap intervals; bias, exact agreement, confusion and "
        "self-agreement. Exit 1 when --min-kappa is given and a dimension's interval reaches "
        "below it, 2 for a usage error.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--judge", metavar="NAME", help="the judge (needed when there are several)")
    parser.add_argument("--format", choices=("text", "json", "md"), default="text")
    parser.add_argument(
        "--min-kappa",
        type=float,
        metavar="X",
        help="exit 1 when any dimension's judge_kappa interval has its lower bound below X",
    )
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.min_kappa is not None and not math.isfinite(args.min_kappa):
        parser.error(f"--min-kappa must be a number, not {args.min_kappa}")
    from voyage_tui.engine.campaign.snapshot import load_campaign
    from voyage_tui.engine.campaign.source import WorkTree
    from voyage_tui.engine.judging.align import align, judge_names
    from voyage_tui.engine.workspace.model import Workspace

    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    campaign = load_campaign(WorkTree(ws))
    names = judge_names(campaign)
    unreadable = campaign.left_out().unreadable
    for d in unreadable:
        print(shown(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"), file=sys.stderr)
    if args.judge is None:
        if len(names) != 1:
            which = f"there are {len(names)}: {', '.join(names)}" if names else "there is none"
            print(
                f"voyage-tui judge align: name a judge with --judge ({shown(which)}; "
                "`voyage-tui judge run` makes one)",
                file=sys.stderr,
            )
            return 2
        name = names[0]
    elif args.judge not in names:
        print(
            f"voyage-tui judge align: no judge {shown(repr(args.judge))} in the ratings "
            f"(judges: {shown(', '.join(names) or 'none')})",
            file=sys.stderr,
        )
        return 2
    else:
        name = args.judge
    report = align(campaign, name)
    if args.format == "json":
        print(dumps(report.to_json()))
    elif args.format == "md":
        print("\n".join(md_lines(report)))
    else:
        print("\n".join(text_lines(report)))
    if unreadable:
        return 2
    if args.min_kappa is not None:
        below = report.below(args.min_kappa)
        undefined = [d.dimension for d in report.dimensions.values() if d.judge_kappa_ci is None]
        if undefined:
            print(
                f"voyage-tui judge align: no judge_kappa interval for {shown(', '.join(undefined))}"
                " (not counted as below --min-kappa)",
                file=sys.stderr,
            )
        if below:
            listed = ", ".join(
                f"{d.dimension} ({d.judge_kappa_ci[0]:.3f})" for d in below if d.judge_kappa_ci
            )
            print(
                f"voyage-tui judge align: judge_kappa interval below {args.min_kappa:g}: "
                f"{shown(listed)}",
                file=sys.stderr,
            )
            return 1
    return 0


def _num(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]"


def text_lines(report: object) -> list[str]:
    from voyage_tui.engine.judging.align import Alignment

    assert isinstance(report, Alignment)
    sha = (report.command_sha256 or "?")[:12]
    lines = [
        f"judge {shown(report.judge)} (command {sha}, "
        f"up to {plural(report.repeats, 'repeat')} per item)",
        "",
    ]
    for d in report.dimensions.values():
        lines.append(
            f"{shown(d.dimension)}: {plural(d.items, 'item')} rated by the judge and a person"
        )
        lines.append(
            f"  judge kappa  {_num(d.judge_kappa)}{_ci(d.judge_kappa_ci)}   vs people "
            f"{_num(d.human_kappa)}{_ci(d.human_kappa_ci)}"
            + ("   BELOW THE CEILING" if d.below_ceiling else "")
        )
        lines.append(
            f"  bias {_num(d.bias, 2)}   exact {_num(None if d.exact is None else d.exact * 100, 0)}%"
            f"   self-agreement (alpha) {_num(d.self_kappa)}"
        )
        if d.items:
            lines.append("  confusion (rows: judge, columns: people's rounded mean)")
            lines.append("       " + " ".join(f"{v:>4}" for v in d.scale))
            for value, row in zip(d.scale, d.confusion, strict=True):
                lines.append(f"  {value:>4} " + " ".join(f"{c:>4}" for c in row))
        for figure, reason in d.reasons.items():
            lines.append(f"  {figure}: {reason}")
        lines.append("")
    return lines


def md_lines(report: object) -> list[str]:
    from voyage_tui.engine.judging.align import Alignment

    assert isinstance(report, Alignment)
    lines = [
        f"# Judge `{shown(report.judge)}`",
        "",
        "| dimension | items | judge kappa | 95% CI | people's kappa | 95% CI | bias | exact | "
        "self alpha |",
        "|---|---:|---:|---|---:|---|---:|---:|---:|",
    ]
    for d in report.dimensions.values():
        lines.append(
            f"| {shown(d.dimension)} | {d.items} | {_num(d.judge_kappa)} | {_ci(d.judge_kappa_ci)} "
            f"| {_num(d.human_kappa)} | {_ci(d.human_kappa_ci)} | {_num(d.bias)} | "
            f"{_num(None if d.exact is None else d.exact * 100, 0)}% | {_num(d.self_kappa)} |"
        )
    notes = [(d.dimension, f, r) for d in report.dimensions.values() for f, r in d.reasons.items()]
    if notes:
        lines.append("")
        lines += [f"- {shown(dim)} `{f}`: {r}" for dim, f, r in notes]
    return lines
