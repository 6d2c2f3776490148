"""`voyage-tui exposure [PATH] [--format text|json] [--retire ID [--commit]]`.

Reports the holdout fixtures a contributor has seen (docs/cli.md, "exposure"): exit 1 when any is exposed,
0 otherwise, 2 for a usage error, no workspace, a repository whose history git cannot read (the
leaks found in the work tree are still reported), or a folder of fixtures that cannot be read (the
holdouts in it are unknown, so the report cannot say all clear). `--retire ID` makes that holdout
public (changing only its `visibility:` value) and, with `--commit`, commits that one file; exit 1
when the retire is refused or its commit fails. It retires through triage's Retirer, so the retire
is in the undo journal (`.voyage/triage.json`) and `u` on the app's triage screen takes it back;
a journal that cannot be written refuses the retire.
"""

from __future__ import annotations

import sys

from voyage_tui.cli.common import Parser, no_workspace, use_color
from voyage_tui.cli.render import dumps, shown
from voyage_tui.cli.render import text_lines as render_diagnostics
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.git.exposure import ExposureReport, HoldoutExposure, compute_exposure
from voyage_tui.engine.items import Item
from voyage_tui.engine.triage.retirer import Retirer, Target
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.validated import validated_suite
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.layout import FOLDER_UNREADABLE

_RED, _BOLD, _DIM, _RESET = "\033[31m", "\033[1m", "\033[2m", "\033[0m"
UNDO_HINT = "undo: `u` on the triage screen (`voyage-tui triage`)"


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui exposure",
        description="Report the holdout fixtures a contributor has seen: commits by non-custodians, "
        "commits that also changed the agent bundle, passages or canaries found in other tracked "
        "files. Exit 1 when any holdout is exposed, 0 otherwise, 2 for a usage error, no "
        "workspace, a repository whose history cannot be read, or a folder that cannot be read.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--retire",
        metavar="ID",
        help="make the holdout fixture ID public (only its `visibility:` value changes)",
    )
    parser.add_argument(
        "--commit",
        action="store_true",
        help="with --retire: commit that one file, naming the fixture and its exposure signals",
    )
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.commit and not args.retire:
        parser.error("--commit goes with --retire ID")
    try:
        suite = validated_suite(args.path, use_git=False)
    except NoWorkspace as exc:
        return no_workspace(exc)
    unread = _unreadable_folders(suite)
    if args.retire:
        return _retire(suite, args.retire, args.commit, args.format)
    report = compute_exposure(suite.ws, suite.items.values())
    if args.format == "json":
        print(dumps(report.to_json()))
    else:
        print("\n".join(text_lines(report, color=use_color(sys.stdout))))
    if report.history_error is not None:
        return 2  # the history could not be read: what was found is shown, but it cannot pass
    if report.exposed:
        return 1
    return 2 if unread else 0


def _unreadable_folders(suite: Suite) -> list[Diagnostic]:
    """Folders the walk could not list, told on stderr: the holdouts in them were not checked."""
    unread = [d for d in suite.layout_problems if d.code == FOLDER_UNREADABLE]
    if unread:
        print("\n".join(render_diagnostics(unread, color=use_color(sys.stderr))), file=sys.stderr)
        print(
            "voyage-tui exposure: the holdouts in these folders were not checked",
            file=sys.stderr,
        )
    return unread


# --- report --------------------------------------------------------------------------------------


def _share(report: ExposureReport) -> str:
    total = len(report.holdouts)
    if not total:
        return "no holdouts"
    return f"{report.with_canary} of {total} carry a canary ({report.canary_share:.0%})"


def text_lines(report: ExposureReport, color: bool = False) -> list[str]:
    total = len(report.holdouts)
    lines = [
        f"{plural(total, 'holdout')}: {len(report.exposed)} exposed, "
        f"{len(report.not_tracked)} not tracked; {_share(report)}"
    ]
    for holdout in report.exposed:
        lines.append("")
        lines.extend(_holdout_lines(holdout, color))
    if report.not_tracked:
        lines.append("")
        lines.append("not tracked (exposure unknown):")
        lines.extend(f"  {shown(h.path)} ({shown(h.id)})" for h in report.not_tracked)
    for code, message in report.warnings:
        lines.append("")
        lines.append(f"warning {shown(code)}: {shown(message)}")
    return lines


def _holdout_lines(holdout: HoldoutExposure, color: bool) -> list[str]:
    """Paths, ids, git authors and the details that quote them are the workspace's text: each is
    escaped (`shown`) before a colour is added around it."""
    path, holdout_id, kinds = shown(holdout.path), shown(holdout.id), ", ".join(holdout.kinds())
    head = f"{path} ({holdout_id}): exposed by {kinds}"
    if color:
        head = f"{_BOLD}{path}{_RESET} ({holdout_id}): {_RED}exposed{_RESET} by {kinds}"
    out = [head]
    signals = [s for s in holdout.signals if s.kind != "not-tracked"]
    width = max(len(s.kind) for s in signals)
    for s in signals:
        commit = shown((s.commit or "-")[:10])
        author = shown(s.author or "-")
        out.append(f"  {s.kind.ljust(width)}  {commit.ljust(10)}  {author}")
        detail = f"      {shown(s.detail)}"
        out.append(f"{_DIM}{detail}{_RESET}" if color else detail)
    return out


# --- retire --------------------------------------------------------------------------------------


def _find(suite: Suite, fixture_id: str) -> list[Item]:
    return sorted(
        (
            i
            for i in suite.fixtures()
            if i.id == fixture_id or i.folder.rsplit("/", 1)[-1] == fixture_id
        ),
        key=lambda i: i.path,
    )


def _retire(suite: Suite, fixture_id: str, commit: bool, fmt: str) -> int:
    found = _find(suite, fixture_id)
    if not found:
        print(f"voyage-tui exposure: no fixture has the id `{shown(fixture_id)}`", file=sys.stderr)
        return 2
    if len(found) > 1:
        places = shown(", ".join(i.path for i in found))
        print(
            f"voyage-tui exposure: the id `{shown(fixture_id)}` is ambiguous ({places}); "
            "make ids unique first",
            file=sys.stderr,
        )
        return 2
    item = found[0]
    signals = []
    if commit:
        report = compute_exposure(suite.ws, suite.items.values())
        exposure = report.by_path().get(item.path)
        signals = exposure.signals if exposure else []
    # Journaled like a retire made in the app, so `u` on the triage screen takes it back.
    done = Retirer(suite.ws).retire(
        [Target(item.path, fixture_id=item.id or fixture_id, signals=tuple(signals))],
        commit=commit,
    )
    if done.action is None:
        why = "; ".join(why for _, why in done.problems)
        what = "" if done.unrecorded else " was not changed"
        print(f"voyage-tui exposure: {shown(item.path)}{what}: {shown(why)}", file=sys.stderr)
        return 1
    result = done.results[0]
    if fmt == "json":
        print(
            dumps(
                {
                    "retired": {
                        "id": result.id,
                        "path": result.path,
                        "commit": result.commit,
                        "commit_error": result.commit_error,
                    }
                }
            )
        )
    else:
        print(f"retired {shown(result.id)}: {shown(result.path)} is now `visibility: public`")
        if result.commit:
            title = ((result.message or "").splitlines() or [""])[0]
            print(f"committed {shown(result.commit[:12])}: {shown(title)}")
        print(UNDO_HINT)
    for _, why in done.problems:  # retired, with a problem after it (the journal's commit note)
        print(f"voyage-tui exposure: {shown(why)}", file=sys.stderr)
    if result.commit_error:
        print(f"voyage-tui exposure: {shown(result.commit_error)}", file=sys.stderr)
        return 1
    return 0
