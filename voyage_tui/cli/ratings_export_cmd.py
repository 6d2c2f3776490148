"""`voyage-tui ratings export [PATH] [--format csv|jsonl] [--output FILE] [--force]`.

Every effective rating, one row per dimension, ready for a notebook (SPEC 6, docs/cli.md
"ratings export"): `fixture_id, run_id, agent, rater, dimension, score, rated_at, blind,
duration_s, source, note`. Which rows is the engine's (engine/ratings/export.py); this module only
formats them. The agent is shown: an export is for analysis, not for raters.

- CSV: a header row, then the rows; an empty cell for a missing value, `true`/`false`. A text
  cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a
  spreadsheet opening the file shows the text instead of running it as a formula (a fixture id
  or a rater's name is the workspace's text, not the exporter's). Control characters in text
  are written as escapes (`\\x1b`), as everywhere the command line prints workspace text.
- JSONL: one JSON object per line, the columns as keys; the text exactly (JSON escapes).

`--output FILE` writes the file where the user says (engine/workspace/writes.write_output:
inside the workspace by the workspace writer's rules, no symlink, never a file git ignores;
outside it where named; atomic everywhere) and asks nothing: an existing file is refused unless
`--force` replaces it. Without `--output` the rows go to stdout. Exit 0; 2 for a usage error, no
workspace, a ratings or adjudications file that cannot be read (rows would be missing), or an
output refused.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable

from voyage_tui.cli.common import Parser, no_workspace, unreadable_workspace
from voyage_tui.cli.render import json_safe, shown
from voyage_tui.engine.campaign.figures import export
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.items import Item
from voyage_tui.engine.ratings.export import COLUMNS, ExportRow
from voyage_tui.engine.safe_text import spreadsheet_cell
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.discovery import NoWorkspace
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_output


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui ratings export",
        description="Every effective rating, one row per dimension, with the agent shown: "
        "fixture_id, run_id, agent, rater, dimension, score, rated_at, blind, duration_s, "
        "source (rater, or adjudicated for an adjudication's final scores). Exit 2 for a usage "
        "error, no workspace, an unreadable ratings or adjudications file, or an output refused.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("csv", "jsonl"), default="csv")
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write FILE instead of printing (inside the workspace by its write rules; "
        "anywhere else where you say); an existing file is refused unless --force",
    )
    parser.add_argument(
        "--force", action="store_true", help="with --output: replace an existing file"
    )
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.force and args.output is None:
        parser.error("--force goes with --output")
    try:
        ws = Workspace.load(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    target: str | None = args.output
    campaign = load_campaign(WorkTree(ws, _items(ws)))
    store, adjudications = campaign.store, campaign.adjudications
    rows = export(campaign)
    text = csv_text(rows) if args.format == "csv" else jsonl_text(rows)
    unreadable = [*store.problems]
    unreadable += [d for f in store.files.values() if not f.readable for d in f.diagnostics]
    if not adjudications.readable:
        unreadable += adjudications.diagnostics
    for d in unreadable:
        print(shown(f"{d.location()}: {d.severity.value} {d.code}: {d.message}"), file=sys.stderr)
    if target is None:
        sys.stdout.write(text)
    else:
        try:
            write_output(ws, target, text.encode("utf-8", "surrogatepass"), force=args.force)
        except OSError as exc:  # WriteRefused, OutputExists included
            print(f"voyage-tui ratings export: {shown(str(exc))}", file=sys.stderr)
            return 2
        print(
            shown(f"{plural(len(rows), 'row')} written to {target}"),
            file=sys.stderr,
        )
    return 2 if unreadable else 0


def _items(ws: Workspace) -> dict[str, Item]:
    """The suite's items, for the runs' labels (validated as `validate --no-git` would)."""
    from voyage_tui.engine.validation.validated import validated_suite

    suite = validated_suite(ws, use_git=False)
    return suite.items


# --- formats ---------------------------------------------------------------------------------


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return spreadsheet_cell(value)
    return str(value)


def csv_text(rows: Iterable[ExportRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(getattr(row, name)) for name in COLUMNS])
    return out.getvalue()


def jsonl_text(rows: Iterable[ExportRow]) -> str:
    return "".join(json_safe(json.dumps(row.to_json(), ensure_ascii=False)) + "\n" for row in rows)
