"""`voyage-tui validate [PATH] [--format text|json|github] [--strict] [--no-git]`."""

from __future__ import annotations

import os
import sys

from voyage_tui.cli.common import Parser, no_workspace, use_color
from voyage_tui.cli.render import (
    coverage_lines,
    dumps,
    github_lines,
    summary_line,
    text_lines,
)
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.discovery import NoWorkspace


def build_parser() -> Parser:
    parser = Parser(
        prog="voyage-tui validate",
        description="Check every fixture, trajectory, gold file and run of the workspace. "
        "Exit 0 without errors (and, with --strict, without warnings), 1 with them, "
        "2 for a usage error or no workspace.",
    )
    parser.add_argument("path", nargs="?", default=None, help="the workspace or a folder in it")
    parser.add_argument("--format", choices=("text", "json", "github"), default="text")
    parser.add_argument("--strict", action="store_true", help="warnings fail the run too")
    parser.add_argument("--no-git", action="store_true", help="skip every check that needs git")
    return parser


def _github_prefix(root: os.PathLike[str] | str) -> str:
    """The workspace's folder relative to the current one (GitHub resolves annotation paths from
    the repository root, where the job runs), or "" when the workspace is not below it."""
    try:
        rel = os.path.relpath(os.path.realpath(root), os.path.realpath(os.getcwd()))
    except ValueError:  # another drive
        return ""
    if rel == "." or rel == ".." or rel.startswith(".." + os.sep):
        return ""
    return rel.replace(os.sep, "/") + "/"


def _github(suite: Suite, diagnostics: list[Diagnostic]) -> list[str]:
    ws = suite.ws

    def is_folder(rel: str) -> bool:
        return rel in ("", ".") or os.path.isdir(ws.abs(rel))

    anchor = CONFIG_NAME if os.path.isfile(ws.abs(CONFIG_NAME)) else None
    return github_lines(diagnostics, _github_prefix(ws.root), is_folder=is_folder, anchor=anchor)


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        suite = Suite.open(args.path, use_git=not args.no_git, parallel=True)
    except NoWorkspace as exc:
        return no_workspace(exc)
    diagnostics = suite.diagnostics()
    summary = suite.summary()
    coverage = suite.coverage()
    if args.format == "json":
        print(
            dumps(
                {
                    "workspace": str(suite.ws.root),
                    "summary": {
                        "files": summary.files,
                        "errors": summary.errors,
                        "warnings": summary.warnings,
                        "infos": summary.infos,
                    },
                    "coverage": coverage,
                    "diagnostics": [d.to_json() for d in diagnostics],
                }
            )
        )
    elif args.format == "github":
        for line in _github(suite, diagnostics):
            print(line)
        print(summary_line(summary.files, summary.errors, summary.warnings, summary.infos))
    else:
        out = sys.stdout
        lines = text_lines(diagnostics, color=use_color(out))
        if lines:
            print("\n".join(lines), file=out)
            print(file=out)
        print(
            summary_line(summary.files, summary.errors, summary.warnings, summary.infos), file=out
        )
        print("\n".join(coverage_lines(coverage)), file=out)
    failed = summary.errors > 0 or (args.strict and summary.warnings > 0)
    return 1 if failed else 0
