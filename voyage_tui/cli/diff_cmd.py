"""`voyage-tui diff GOLD RUN [--catalogue PATH]`: open the app straight on the gold-vs-run diff.

Inside a workspace (both files in it), the whole app opens on the diff; `escape` goes back to
the browser. Files no workspace holds, or a `--catalogue` to check them against, open the diff
screen on its own. Either way the files are loaded and checked as `voyage-tui score` does it.
"""

from __future__ import annotations

import os
import stat
import sys

from voyage_tui.cli.common import (
    Parser,
    add_app_switches,
    add_match_option,
    run_app,
    unreadable_workspace,
)
from voyage_tui.cli.render import shown, text_lines
from voyage_tui.engine.rules.gold_run_files import choose_catalogue
from voyage_tui.engine.scoring.scorer import MatchMode
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
        description="Open the app on the diff of a recorded run against its gold file: in the "
        "workspace holding both (found from GOLD's folder), or on its own for files outside one.",
    )
    parser.add_argument("gold", help="a voyage-eval-gold/1 file")
    parser.add_argument("run", help="a run: JSON array of reviewer payloads")
    parser.add_argument(
        "--catalogue",
        metavar="PATH",
        help="check rule keys against this RULE_CATALOGUE file instead of the workspace's; "
        "without either, rule keys are not checked",
    )
    add_match_option(parser)
    add_app_switches(parser)
    args = parser.parse_args(argv)
    for path in (args.gold, args.run):
        problem = _not_a_file(path)
        if problem:
            print(f"voyage-tui diff: {shown(path)}: {shown(problem)}", file=sys.stderr)
            return 2
    try:
        ws = _workspace_of(args.gold, args.run) if args.catalogue is None else None
    except OSError as exc:
        return unreadable_workspace(exc)
    if ws is None:
        return _loose(args.gold, args.run, args.catalogue, args.match)
    gold_rel, run_rel = ws.rel(args.gold), ws.rel(args.run)
    return run_app(ws, args, initial_diff=(gold_rel, run_rel), match=args.match)


def _workspace_of(gold: str, run: str) -> Workspace | None:
    """The workspace holding both files, or None."""
    try:
        ws = Workspace.load(os.path.dirname(os.path.abspath(gold)))
    except NoWorkspace:
        return None
    for path in (gold, run):
        rel = ws.rel(path)
        if rel == ".." or rel.startswith("../"):
            return None
    return ws


def _loose(gold: str, run: str, catalogue: str | None, match: MatchMode) -> int:
    choice = choose_catalogue(gold, catalogue)
    if choice.problems:
        print("\n".join(text_lines(list(choice.problems))), file=sys.stderr)
        print(
            f"voyage-tui diff: the catalogue {shown(str(catalogue))} cannot be used",
            file=sys.stderr,
        )
        return 2
    from voyage_tui.app.loose_diff import LooseDiffApp
    from voyage_tui.engine.review.inputs import ReviewInputs

    app = LooseDiffApp(ReviewInputs.named(choice, match), gold, run)
    return int(app.run() or 0)
