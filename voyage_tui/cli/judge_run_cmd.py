"""`voyage-tui judge run [PATH] --name NAME [--command CMD] [--repeat K] [--jobs N]
[--timeout S] [--pass-env VAR]... [--format text|json]`.

Gives every agent run of the suite (each repeat 1..K) to the judge's command and records its
answers in `ratings/<NAME>.jsonl` as a program's ratings (SPEC 3.11, engine/judging/). CMD is
the user's: this command line, or `[judges.NAME]` in the user's judges.toml, never anything the
workspace names (docs/trust.md). A progress bar on stderr when it is a terminal, a plain line
per tenth of the work when not.

Exit 0 when every item and repeat is judged; 1 when some failed (listed; they are tried again
next time); 2 for a usage error, no workspace, no command, the name taken by a person's file or
a live session, or a ratings file that cannot be written.
"""

from __future__ import annotations

import math
import sys
import time

from voyage_tui.cli.common import Parser, above_zero, no_workspace, unreadable_workspace
from voyage_tui.cli.render import dumps, shown
from voyage_tui.engine.workspace.discovery import NoWorkspace

FAILURES_SHOWN = 20


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui judge run",
        description="Run a judge (a program that rates as a person would) on every agent run: "
        "its answers become a program's ratings in ratings/NAME.jsonl. The command is yours "
        "(--command, or [judges.NAME] in your judges.toml), never the workspace's. Exit 1 when "
        "some items failed (they are tried again next time), 2 for a usage error.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--name", required=True, help="the judge's name (its ratings file)")
    parser.add_argument(
        "--command",
        metavar="CMD",
        help="the judge's command, split like a shell's words but run without one (default: "
        "[judges.NAME] command in judges.toml in your config dir)",
    )
    parser.add_argument("--repeat", type=_count, default=1, metavar="K", help="runs per item")
    parser.add_argument(
        "--jobs", type=_count, default=1, metavar="N", help="items judged at once (default 1)"
    )
    parser.add_argument(
        "--timeout",
        type=above_zero("number of seconds"),
        default=120.0,
        metavar="S",
        help="seconds the judge has per item before it is killed (default 120)",
    )
    parser.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="VAR",
        help="give the judge this environment variable of yours too (it gets PATH, HOME and "
        "the locale only, unless named here or in judges.toml)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def _count(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of 1 or more, not {text!r}")
    return value


class Bar:
    """Progress on stderr: a bar with rate and ETA redrawn in place on a terminal; a plain line
    at each tenth of the work otherwise (a log keeps it readable)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last_tenth = 0

    def __call__(self, done: int, total: int, failed: int) -> None:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 else math.inf
        eta_text = f"{eta:.0f} s" if math.isfinite(eta) else "?"
        tail = f"{done}/{total}  {rate:.1f}/s  ETA {eta_text}" + (
            f"  {failed} failed" if failed else ""
        )
        if self.tty:
            width = 30
            filled = int(width * done / total) if total else width
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {tail}\x1b[K")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
            return
        tenth = done * 10 // total if total else 10
        if tenth > self.last_tenth:
            self.last_tenth = tenth
            print(f"judge: {tail}", file=sys.stderr)


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from voyage_tui.engine.judging.command import JudgeConfigError, resolve_command
    from voyage_tui.engine.judging.judge import JudgeRefused, run_pass
    from voyage_tui.engine.ratings.lock import LockRefused
    from voyage_tui.engine.validation.validated import validated_suite
    from voyage_tui.engine.workspace.rater_name import rater_name_problem

    problem = rater_name_problem(args.name)
    if problem is not None:
        parser.error(f"--name {shown(repr(args.name))}: {problem}")
    try:
        command = resolve_command(args.name, args.command, tuple(args.pass_env))
    except JudgeConfigError as exc:
        print(f"voyage-tui judge run: {shown(str(exc))}", file=sys.stderr)
        return 2
    try:
        suite = validated_suite(args.path, use_git=False, git_checks=False)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    campaign = suite.campaign()
    try:
        summary = run_pass(
            campaign,
            args.name,
            command,
            repeat=args.repeat,
            jobs=args.jobs,
            timeout=args.timeout,
            progress=Bar(),
        )
    except (JudgeRefused, LockRefused, OSError) as exc:
        print(f"voyage-tui judge run: {shown(str(exc))}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(dumps(summary.to_json()))
    else:
        print("\n".join(_text(summary)))
    if summary.interrupted:
        return 130
    return 1 if summary.failures else 0


def _text(summary: object) -> list[str]:
    from voyage_tui.engine.judging.judge import Summary
    from voyage_tui.engine.wording import plural

    assert isinstance(summary, Summary)
    lines = []
    if summary.other_commands:
        lines.append(
            f"the command of {shown(summary.name)} changed (sha256 {summary.command_sha256[:12]}): "
            f"it starts afresh; {plural(summary.other_commands, 'record')} of the earlier "
            "command stay in the file and no longer count in `judge align`"
        )
    lines.append(
        f"{shown(summary.name)}: {plural(summary.total, 'item and repeat', 'items and repeats')}, "
        f"{summary.skipped} already judged, {summary.judged} judged now, "
        f"{len(summary.failures)} failed -> {shown(summary.path)}"
    )
    for failure in summary.failures[:FAILURES_SHOWN]:
        lines.append(
            f"  failed: {shown(failure.fixture_id)} / {shown(failure.run_id)} repeat "
            f"{failure.repeat}: {shown(failure.reason)}"
        )
    more = len(summary.failures) - FAILURES_SHOWN
    if more > 0:
        lines.append(f"  ... and {more} more (--format json lists every one)")
    if summary.failures:
        lines.append("a failed item is tried again by the next `judge run`")
    return lines
