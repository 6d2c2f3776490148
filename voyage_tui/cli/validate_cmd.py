"""`voyage-tui validate [PATH] [--format text|json|github] [--strict] [--no-git] [--no-cache]`.

An unchanged suite is answered from the validation cache (engine/validation/result_cache.py)
without importing the parsers: this module imports the engine's validation only when it runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from voyage_tui.cli.common import Parser, no_workspace, use_color
from voyage_tui.cli.render import (
    coverage_lines,
    dumps,
    github_lines,
    summary_line,
    text_lines,
)
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.validation.result_cache import validate
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
from voyage_tui.engine.workspace.discovery import NoWorkspace, find_workspace


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
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="check every file without reading the validation cache; what it finds is written "
        "to the cache for the next run",
    )
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


def _github(root: Path, diagnostics: list[Diagnostic]) -> list[str]:
    def is_folder(rel: str) -> bool:
        return rel in ("", ".") or os.path.isdir(os.path.join(root, rel))

    anchor = CONFIG_NAME if os.path.isfile(os.path.join(root, CONFIG_NAME)) else None
    return github_lines(diagnostics, _github_prefix(root), is_folder=is_folder, anchor=anchor)


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        root = find_workspace(args.path)
    except NoWorkspace as exc:
        return no_workspace(exc)
    result = validate(root, use_git=not args.no_git, use_cache=not args.no_cache, defer_write=True)
    diagnostics = result.diagnostics
    coverage = result.coverage
    if args.format == "json":
        print(
            dumps(
                {
                    "workspace": str(result.root),
                    "summary": {
                        "files": result.files,
                        "errors": result.errors,
                        "warnings": result.warnings,
                        "infos": result.infos,
                    },
                    "coverage": coverage,
                    "diagnostics": [d.to_json() for d in diagnostics],
                }
            )
        )
    elif args.format == "github":
        for line in _github(result.root, diagnostics):
            print(line)
        print(summary_line(result.files, result.errors, result.warnings, result.infos))
    else:
        out = sys.stdout
        lines = text_lines(diagnostics, color=use_color(out))
        if lines:
            print("\n".join(lines), file=out)
            print(file=out)
        print(summary_line(result.files, result.errors, result.warnings, result.infos), file=out)
        print("\n".join(coverage_lines(coverage)), file=out)
    # The answer first, then the cache for the next run (a reader of a pipe is not kept
    # waiting for it).
    sys.stdout.flush()
    result.finish()
    failed = result.errors > 0 or (args.strict and result.warnings > 0)
    return 1 if failed else 0
