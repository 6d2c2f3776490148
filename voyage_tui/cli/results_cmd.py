"""`voyage-tui results [PATH] [--baseline AGENT] [--by class|boundary] [--match dual|seed]
[--format text|json|csv|md|html] [--output FILE [--force]] [--alpha A] [--raters
people|programs|all] [--fail-if-worse]
[--require-better AGENT]`.

Which agent is better, by how much and how sure (SPEC 3.10, docs/cli.md "results"): per agent and
rubric dimension the mean of its items' effective scores with a 95% bootstrap interval; against
the baseline (`--baseline`, else `[results] baseline` in voyage.toml, else none) a paired
comparison over shared fixtures with its interval, permutation p and verdict; gold runs by
review agent. Validates the suite first (without git) to know the runs and gold files.

Exit 0; 1 with `--fail-if-worse` when a comparison is `worse`, or with `--require-better AGENT`
unless AGENT is `better` on every dimension; 2 for a usage error, no
workspace, an unknown baseline (the agents are listed), or an output that cannot be written.
"""

from __future__ import annotations

import sys

from voyage_tui.cli.common import (
    Parser,
    above_zero,
    add_match_option,
    no_workspace,
    unreadable_workspace,
)
from voyage_tui.cli.render import shown
from voyage_tui.engine.reports.render import FORMATS
from voyage_tui.engine.workspace.discovery import NoWorkspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui results",
        description="Which agent is better, by how much, and how sure: per agent and rubric "
        "dimension the mean rating with a 95% bootstrap interval, paired comparisons against a "
        "baseline agent over shared fixtures (interval, permutation p, verdict), and gold "
        "scores by review agent. Exit 1 with --fail-if-worse when a comparison is worse; 2 for "
        "a usage error, no workspace or an unknown baseline.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument(
        "--baseline",
        metavar="AGENT",
        help="compare every agent with AGENT (default: [results] baseline in voyage.toml; "
        "without either, no comparisons)",
    )
    parser.add_argument(
        "--by", choices=("class", "boundary"), help="also break the figures down by this"
    )
    add_match_option(parser)
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the report to FILE instead of printing it (inside the workspace by its "
        "write rules; anywhere else where you say); an existing file is refused unless --force",
    )
    parser.add_argument(
        "--force", action="store_true", help="with --output: replace an existing file"
    )
    parser.add_argument(
        "--alpha",
        type=_alpha,
        default=0.05,
        metavar="A",
        help="the significance level of every verdict, after Holm's adjustment (default 0.05)",
    )
    parser.add_argument(
        "--plan",
        action="store_true",
        help="add a plan: per comparison, the shared fixtures that would detect a difference of "
        "--detect D with 80%% power at --alpha (from the sd of today's paired differences)",
    )
    parser.add_argument(
        "--detect",
        type=above_zero(),
        metavar="D",
        help="with --plan: the true difference to detect, in points of the rubric",
    )
    parser.add_argument(
        "--raters",
        choices=("people", "programs", "all"),
        default="people",
        help="whose ratings count: people's (the default), programs' (judges, SPEC 3.11) or all",
    )
    parser.add_argument(
        "--fail-if-worse",
        action="store_true",
        help="exit 1 when an agent is worse than the baseline on a dimension (a CI gate)",
    )
    parser.add_argument(
        "--require-better",
        metavar="AGENT",
        help="exit 1 unless AGENT is better than the baseline on every dimension (a release gate)",
    )
    return parser


def _alpha(text: str) -> float:
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a number between 0 and 1, not {text!r}")
    return value


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.force and not args.output:
        parser.error("--force goes with --output")
    if args.plan != (args.detect is not None):
        parser.error("--plan and --detect D go together")
    from voyage_tui.engine.results.compute import UnknownBaseline, compute_results
    from voyage_tui.engine.results.inputs import gather_inputs
    from voyage_tui.engine.validation.validated import validated_suite
    from voyage_tui.engine.workspace.writes import write_output

    try:
        suite = validated_suite(args.path, use_git=False, keep_gold=True)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    ws = suite.ws
    snapshot = suite.campaign()
    from voyage_tui.engine.campaign.counting import Raters

    inputs = gather_inputs(
        snapshot,
        suite.items,
        args.match,
        Raters(args.raters),
        review=suite.review_inputs(args.match),
    )
    baseline = args.baseline if args.baseline is not None else ws.config.results.baseline
    try:
        report = compute_results(inputs, baseline, args.by, args.alpha)
    except UnknownBaseline as exc:
        where = "--baseline" if args.baseline is not None else "[results] baseline"
        print(f"voyage-tui results: {where}: {shown(str(exc))}", file=sys.stderr)
        return 2
    from voyage_tui.engine.reports.context import report_context
    from voyage_tui.engine.reports.model import Report
    from voyage_tui.engine.reports.render import render
    from voyage_tui.engine.results.plan import plan_of

    plan = plan_of(report, args.detect) if args.plan else None
    context = report_context(snapshot, inputs.agents())
    text = render(Report(report, plan=plan, campaign=context), args.format)
    if args.output:
        try:
            write_output(ws, args.output, text.encode("utf-8", "surrogatepass"), force=args.force)
        except OSError as exc:
            print(f"voyage-tui results: {shown(str(exc))}", file=sys.stderr)
            return 2
        print(f"wrote {shown(args.output)}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    for notice in report.notices if args.format != "text" else ():
        print(f"voyage-tui results: {shown(notice)}", file=sys.stderr)
    code = 0
    if args.fail_if_worse and report.worse:
        listed = ", ".join(f"{c.agent} on {c.dimension}" for c in report.worse)
        print(f"voyage-tui results: worse than the baseline: {shown(listed)}", file=sys.stderr)
        code = 1
    if args.require_better is not None:
        code = max(code, _require_better(report, args.require_better))
    return code


def _require_better(report: object, agent: str) -> int:
    """0 when `agent` is `better` on every dimension of the whole suite, else 1 (said why)."""
    from voyage_tui.engine.results.model import ResultsReport

    assert isinstance(report, ResultsReport)
    mine = [c for c in report.comparisons if c.agent == agent]
    if not mine:
        why = (
            "there is no baseline to compare it with"
            if report.baseline is None
            else "it is the baseline"
            if agent == report.baseline
            else "no agent run is labelled with it"
        )
        print(f"voyage-tui results: --require-better {shown(agent)}: {why}", file=sys.stderr)
        return 1
    short = [c for c in mine if c.verdict != "better"]
    if not short:
        return 0
    listed = ", ".join(
        f"{c.dimension} {c.verdict}" + (f" ({c.reason})" if c.reason else "") for c in short
    )
    print(
        f"voyage-tui results: {shown(agent)} is not better on every dimension: {shown(listed)}",
        file=sys.stderr,
    )
    return 1
