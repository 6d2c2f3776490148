"""`voyage-tui import [inspect|swebench|harbor] SOURCE... [PATH] [--agent LABEL]
[--map id|metadata:KEY] [--report REPORT] [--dry-run]`.

Runs from other harnesses as run files (SPEC 3.13, docs/import.md): Inspect AI logs (`.eval`,
`.json`), SWE-bench predictions (with `--report`, their resolved lists), Harbor job folders.
Without a harness named, each SOURCE's format is found from its content. Every source is read
and the whole plan made before anything is written; `--dry-run` prints the plan only.

Exit 0 when every sample was imported (or unchanged); 1 when some were unmatched or refused by
the run rules (the rest are written); 2 for a usage error, no workspace, a source in no known
format or that cannot be read (a hostile archive), or a run that could not be written.
"""

from __future__ import annotations

import os
import sys

from voyage_tui.cli.common import Parser, no_workspace, unreadable_workspace
from voyage_tui.cli.render import shown
from voyage_tui.engine.workspace.discovery import NoWorkspace

HARNESSES = ("inspect", "swebench", "harbor")
SHOWN_RUNS = 200


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui import",
        usage="voyage-tui import [inspect|swebench|harbor] SOURCE... [PATH] [--agent LABEL] "
        "[--map id|metadata:KEY] [--report REPORT] [--dry-run]",
        description="Turn another harness's records into run files, one per sample and epoch, "
        "in the folder of the fixture whose id is the sample's: Inspect AI logs (.eval, .json), "
        "SWE-bench predictions (JSONL), Harbor job folders. Name the harness first, or let the "
        "tool find each source's format. Exit 1 when some samples were unmatched or refused; "
        "2 for a usage error, no workspace, or a source it cannot read.",
    )
    parser.add_argument(
        "sources",
        nargs="+",
        metavar="SOURCE",
        help="optionally inspect, swebench or harbor; the logs; then optionally the workspace "
        "(a folder, last)",
    )
    parser.add_argument(
        "--agent", metavar="LABEL", help="the runs' agent label (default: the model)"
    )
    parser.add_argument(
        "--map",
        default="id",
        metavar="id|metadata:KEY",
        help="match a sample to the fixture whose id is the sample's id (default) or the "
        "value of the sample's metadata KEY",
    )
    parser.add_argument(
        "--report", metavar="REPORT", help="SWE-bench: the run report (resolved_ids etc.)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print what would be written; write nothing"
    )
    return parser


def _split(parser: Parser, positionals: list[str]) -> tuple[str | None, list[str], str | None]:
    from voyage_tui.engine.importing import registry
    from voyage_tui.engine.importing.model import ImportRefused

    fmt = positionals[0] if positionals[0] in HARNESSES else None
    rest = positionals[1:] if fmt else list(positionals)
    if not rest:
        parser.error(f"{fmt}: name at least one SOURCE")
    path = None
    if len(rest) >= 2 and os.path.isdir(rest[-1]):
        last_is_job = False
        if fmt != "harbor":
            try:
                last_is_job = registry.detect(rest[-1]) == "harbor"
            except ImportRefused:
                last_is_job = False
        if fmt == "harbor" or not last_is_job:
            path = rest.pop()
    return fmt, rest, path


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.map != "id" and not (args.map.startswith("metadata:") and len(args.map) > 9):
        parser.error(f"--map: id or metadata:KEY, not {args.map!r}")
    fmt, sources, path = _split(parser, args.sources)
    if args.report and fmt not in (None, "swebench"):
        parser.error("--report goes with swebench")
    from voyage_tui.engine.importing import registry
    from voyage_tui.engine.importing.model import ImportedSample, ImportRefused
    from voyage_tui.engine.importing.plan import apply, fixture_index, make_plan
    from voyage_tui.engine.validation.validated import validated_suite

    samples: list[ImportedSample] = []
    for source in sources:
        try:
            found = fmt or registry.detect(source)
            if found is None:
                known = ", ".join(registry.FORMATS.values())
                print(
                    f"voyage-tui import: {shown(source)}: in no format this tool knows ({known})",
                    file=sys.stderr,
                )
                return 2
            if fmt is None:
                print(f"{shown(source)}: {registry.FORMATS[found]} ({found})")
            samples += registry.load(found, source, agent=args.agent, report=args.report)
        except ImportRefused as exc:
            print(f"voyage-tui import: {shown(str(exc))}; nothing written", file=sys.stderr)
            return 2
    try:
        suite = validated_suite(path, use_git=False, git_checks=False)
    except NoWorkspace as exc:
        return no_workspace(exc)
    except OSError as exc:
        return unreadable_workspace(exc)
    ws = suite.ws
    plan = make_plan(ws, samples, fixture_index(suite.fixtures()), args.map)
    listed = [p for p in plan.runs if p.state != "unchanged"]
    for planned in listed[:SHOWN_RUNS]:
        print(f"{planned.state:9} {shown(planned.rel)}")
    if len(listed) > SHOWN_RUNS:
        print(f"... and {len(listed) - SHOWN_RUNS} more")
    for unmatched in plan.unmatched:
        s = unmatched.sample
        why = (
            f"no fixture with id {shown(repr(unmatched.key))}"
            if unmatched.key is not None
            else f"no metadata {shown(args.map.removeprefix('metadata:'))}"
        )
        print(
            f"unmatched {shown(os.path.basename(s.log))}: sample {shown(s.sample)} epoch {s.epoch}: {why}"
        )
    for dup in plan.duplicates:
        print(f"duplicate {shown(dup.rel)}: another sample of this import has the same run id")
    for refused in plan.refused:
        first = refused.diagnostics[0]
        print(
            f"refused   {shown(refused.planned.rel)}: {shown(first.code)}: {shown(first.message)}"
        )
    summary = (
        f"{plan.count('new')} new, {plan.count('changed')} changed, "
        f"{plan.count('unchanged')} unchanged, {len(plan.unmatched)} unmatched"
        + (f", {len(plan.refused)} refused" if plan.refused else "")
        + (f", {len(plan.duplicates)} duplicate" if plan.duplicates else "")
    )
    if args.dry_run:
        print(f"{summary} (dry run: nothing written)")
    else:
        try:
            apply(ws, plan)
        except OSError as exc:
            print(f"voyage-tui import: {shown(str(exc))}", file=sys.stderr)
            return 2
        print(summary)
    return 1 if plan.unmatched or plan.refused or plan.duplicates else 0
