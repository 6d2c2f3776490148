"""`voyage-tui triage [PATH] [--format text|json] [--kind K]... [--all] [--snooze KEY [--until
DATE]] [--unsnooze KEY]`: the triage queue, headless (SPEC 5 and 6).

On a terminal, with none of these options, it opens the app on the triage screen. Otherwise it
prints the queue (in the app's order) and exits 1 when the workspace has an `error` or
`exposed` item, snoozed or not (a snooze hides an item from the list, it never passes the gate:
engine/triage/queue.py Queue.gating decides), else 0, so it can gate CI; 2 for a usage error, no
workspace, or a git history that cannot be read (as `exposure`: no holdout is proven unexposed).
`--snooze` and `--unsnooze` act first (recorded in `.voyage/triage.json`, undoable in the app),
then the queue is printed.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import TYPE_CHECKING

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    no_workspace,
    run_app,
    unreadable_workspace,
    use_color,
)
from voyage_tui.cli.render import dumps, shown
from voyage_tui.engine.triage.keys import ERROR, EXPOSED, KINDS, count_label
from voyage_tui.engine.workspace.discovery import NoWorkspace

if TYPE_CHECKING:
    from voyage_tui.engine.git.exposure import ExposureReport
    from voyage_tui.engine.triage.actions import Actions
    from voyage_tui.engine.triage.queue import Queue, TriageItem
    from voyage_tui.engine.triage.state import Snooze
    from voyage_tui.engine.validation.view import SuiteView

_COLORS = {ERROR: "\033[31m", EXPOSED: "\033[35m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui triage",
        description="Everything in the workspace that needs a person, worst first: validation "
        "errors, exposed holdouts, low-scoring runs, README drift, warnings, agent runs short of "
        "ratings. On a terminal, without options, it opens the app's triage screen; otherwise it "
        "prints the queue and exits 1 when there is an error or an exposed holdout, snoozed "
        "or not.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("text", "json"), default=None)
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        metavar="KIND",
        help=f"list only this kind (repeatable): {', '.join(KINDS)}",
    )
    parser.add_argument("--all", action="store_true", help="list snoozed items too")
    parser.add_argument(
        "--snooze",
        action="append",
        metavar="KEY",
        help="snooze the item with this key (repeatable): until its file changes, or --until",
    )
    parser.add_argument(
        "--until", metavar="DATE", help="with --snooze: until this day (YYYY-MM-DD, after today)"
    )
    parser.add_argument(
        "--unsnooze", action="append", metavar="KEY", help="wake a snoozed item (repeatable)"
    )
    add_app_switches(parser, prefix="the app: ")
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    until: date | None = None
    if args.until is not None:
        if not args.snooze:
            parser.error("--until goes with --snooze KEY")
        try:
            until = date.fromisoformat(args.until)
        except ValueError:
            parser.error(f"--until {args.until!r} is not a date (YYYY-MM-DD)")
        if until <= date.today():
            parser.error(f"--until {args.until} is not after today")
    headless = (
        args.format is not None
        or args.kind
        or args.all
        or args.snooze
        or args.unsnooze
        or not sys.stdout.isatty()
    )
    if not headless:
        return _open_app(args)
    return _headless(args, until)


def _open_app(args: argparse.Namespace) -> int:
    from voyage_tui.engine.workspace.model import Workspace

    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    return run_app(ws, args, initial_triage=True)


def _headless(args: argparse.Namespace, until: date | None) -> int:
    from voyage_tui.engine.triage.actions import Actions
    from voyage_tui.engine.triage.state import UNTIL_CHANGE, StateError
    from voyage_tui.engine.validation.validated import validated_suite
    from voyage_tui.engine.validation.view import view_of

    try:
        suite = validated_suite(args.path, use_git=not args.no_git)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    view = view_of(suite)
    exposure = suite.git.exposure
    actions = Actions(suite.ws)
    queue = _queue(view, exposure, actions)
    snooze: list[str] = args.snooze or []
    unsnooze: list[str] = args.unsnooze or []
    try:
        if snooze:
            items = []
            for key in snooze:
                item = queue.find(key)
                if item is None:
                    print(
                        f"voyage-tui triage: no item in the queue has the key {shown(repr(key))} "
                        "(`voyage-tui triage --all` lists the keys)",
                        file=sys.stderr,
                    )
                    return 2
                items.append(item)
            actions.snooze(items, until or UNTIL_CHANGE, queue.expired)
            when = until.isoformat() if until else "its file changes"
            for item in items:
                print(f"snoozed {shown(item.key)} until {when}", file=sys.stderr)
        if unsnooze:
            try:
                actions.unsnooze(unsnooze)
            except KeyError as exc:
                print(
                    f"voyage-tui triage: {shown(repr(exc.args[0]))} is not snoozed", file=sys.stderr
                )
                return 2
            for key in unsnooze:
                print(f"woke {shown(key)}", file=sys.stderr)
    except StateError as exc:
        print(f"voyage-tui triage: {shown(str(exc))}", file=sys.stderr)
        return 2
    if snooze or unsnooze:
        queue = _queue(view, exposure, actions)
    for problem in queue.state_diagnostics:
        print(
            f"voyage-tui triage: {shown(problem.path)}: {shown(problem.message)}", file=sys.stderr
        )
    kinds = set(args.kind or KINDS)
    listed = queue.everything() if args.all else [(i, None) for i in queue.items]
    rows = [(item, s) for item, s in listed if item.kind in kinds]
    if args.format == "json":
        print(dumps(to_json(rows)))
    else:
        print("\n".join(text_lines(queue, rows, color=use_color(sys.stdout))))
    if exposure is not None and exposure.history_error is not None:
        # As `exposure` does: what the work tree shows is listed, but "0 exposed" is unproven.
        print(
            f"voyage-tui triage: the git history could not be read "
            f"({shown(exposure.history_error)}); holdout exposure is unproven, so the queue "
            "cannot pass (exit 2)",
            file=sys.stderr,
        )
        return 2
    return 1 if queue.gates else 0


def _queue(view: SuiteView, exposure: ExposureReport | None, actions: Actions) -> Queue:
    from voyage_tui.engine.triage.queue import build_queue

    loaded = actions.store.load()
    return build_queue(
        view,
        loaded.state,
        actions.today(),
        exposure=exposure,
        state_diagnostics=loaded.diagnostics,
    )


def to_json(rows: list[tuple[TriageItem, Snooze | None]]) -> dict[str, object]:
    """SPEC 6: `{"counts": {kind: n}, "items": [...]}`, the counts those of the items listed."""
    counts = dict.fromkeys(KINDS, 0)
    for item, _ in rows:
        counts[item.kind] += 1
    return {"counts": counts, "items": [item.to_json(snooze) for item, snooze in rows]}


def counts_line(counts: dict[str, int]) -> str:
    shown = [count_label(kind, n) for kind, n in counts.items() if n]
    return " · ".join(shown) if shown else "nothing to triage"


def text_lines(
    queue: Queue, rows: list[tuple[TriageItem, Snooze | None]], color: bool = False
) -> list[str]:
    snoozed = len(queue.snoozed)
    head = counts_line(queue.counts())
    head += f"   ({len(queue.items)} in the queue, {snoozed} snoozed)"
    lines = [f"{_BOLD}{head}{_RESET}" if color else head]
    width = max((len(item.kind) for item, _ in rows), default=0)
    for item, snooze in rows:
        lines.append("")
        kind = item.kind.ljust(width)
        if color and item.kind in _COLORS:
            kind = f"{_COLORS[item.kind]}{kind}{_RESET}"
        # paths, titles and keys quote the workspace (names, YAML keys): escaped, then coloured
        location = shown(item.location())
        where = f"{_BOLD}{location}{_RESET}" if color else location
        note = ""
        if snooze is not None:
            note = "  (snoozed until " + (
                "the file changes)" if snooze.until_change else f"{snooze.until})"
            )
        lines.append(f"{kind}  {where}{note}")
        pad = " " * (width + 2)
        lines.append(f"{pad}{shown(item.title)}")
        key = f"key {shown(item.key)}"
        lines.append(f"{pad}{_DIM}{key}{_RESET}" if color else f"{pad}{key}")
    still = still_count_line(queue)
    if still:
        lines += ["", still]
    return lines


def still_count_line(queue: Queue) -> str:
    """Why the exit code is 1 when the list shows nothing that fails: the snoozed errors and
    exposed holdouts, which still count. Empty when no snooze hides one."""
    hidden = queue.snoozed_gating()
    if not hidden:
        return ""
    per_kind = []
    for kind in KINDS:
        n = sum(1 for i in hidden if i.kind == kind)
        if n:
            number, noun = count_label(kind, n).split(" ", 1)
            per_kind.append(f"{number} snoozed {noun}")
    return (
        f"exit 1: {' and '.join(per_kind)} still count "
        "(a snooze hides an item, it does not pass the gate)"
    )
