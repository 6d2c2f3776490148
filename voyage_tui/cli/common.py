"""Shared pieces of the subcommands: argument parsing that exits 2, workspace opening."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence

from voyage_tui.cli.render import shown
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.workspace.discovery import NoWorkspace

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from voyage_tui.engine.loading.once import ReadOnce
    from voyage_tui.engine.validation.live import LiveStart
    from voyage_tui.engine.validation.suite import PendingPrepared, Prepared
    from voyage_tui.engine.watcher import WorkspaceWatcher
    from voyage_tui.engine.workspace.model import Workspace


def _terminal_columns() -> int:
    """shutil.get_terminal_size().columns, without importing shutil: $COLUMNS, else the
    terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error already; this keeps the message on stderr, short, and
    names what was not understood: `unknown option --bogus` rather than argparse's
    `unrecognized arguments`, which lumps options and stray values together."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's own asks shutil for the terminal's width, and add_argument asks for a
        # formatter: every command's start-up would import shutil (with bz2 and lzma) for it.
        # (typeshed's protocol for formatter_class names `prog` only; every HelpFormatter takes
        # `width` too)
        make: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return make(prog=self.prog, width=_terminal_columns() - 2)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        # the message may quote what was typed, or a name from the workspace
        print(f"{self.prog}: error: {shown(message)}", file=sys.stderr)
        raise SystemExit(2)

    # typeshed overloads parse_args on the namespace type; this one always returns a Namespace.
    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self._not_understood(extras))
        return parsed

    def _not_understood(self, extras: list[str]) -> str:
        options = [a for a in extras if a.startswith("-") and a != "-"]
        if options:
            name = options[0].split("=", 1)[0]
            known = [o for action in self._actions for o in action.option_strings]
            return f"unknown option {name}{hint(name, known)}"
        return f"unexpected argument {extras[0]!r}"


def no_workspace(exc: NoWorkspace) -> int:
    print(f"voyage-tui: {shown(str(exc))}", file=sys.stderr)
    return 2


def unreadable_workspace(exc: OSError) -> int:
    """A folder on the way to the workspace cannot be read (permissions): say which, exit 2."""
    where = exc.filename if exc.filename is not None else "the workspace"
    print(
        f"voyage-tui: cannot read {shown(str(where))}: {shown(str(exc.strerror or exc))}",
        file=sys.stderr,
    )
    return 2


def use_color(stream: object) -> bool:
    import os

    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ


APP_CHILD_SHARE = 0.65
"""The app's first load: the forked child checks this share of the fixtures, since the parent
first starts the interface (on a first run the child first lists the files, 0.25 s at 11,000
fixtures, while the parent imports Textual). Measured at 11,000 fixtures on a shared machine:
the checked suite on screen after 2.1-2.6 s with 0.65, 2.2-2.7 s with 0.6, 2.0-2.5 s with 0.7
(where the parent waited longest for the child)."""


def make_watcher(ws: Workspace, watch: bool) -> WorkspaceWatcher | None:
    """The app's watcher, not armed yet: the app arms it (see start_first_load for when)."""
    if not watch:
        return None
    from voyage_tui.engine.watcher import watcher_of

    return watcher_of(ws)


def arm_watcher(ws: Workspace, watch: bool) -> WorkspaceWatcher | None:
    """The app's watcher, armed now, before the first load lists the files: a change made
    while the suite loads is then seen. (It imports no Textual, and the forked child of the
    first load never touches it.) A workspace that cannot be watched is said so by the app."""
    watcher = make_watcher(ws, watch)
    if watcher is not None:
        from voyage_tui.engine.watcher import WatchUnavailable

        with contextlib.suppress(WatchUnavailable):  # the app reports it once it runs
            watcher.arm()
    return watcher


def add_app_switches(
    parser: argparse.ArgumentParser, *, git_help: str = "", prefix: str = ""
) -> None:
    """`--no-git`, `--no-watch` and `--no-cache`, as every command that opens the app has them.
    `prefix` starts the help of the two that only the app uses ("the app: ")."""
    parser.add_argument(
        "--no-git", action="store_true", help=git_help or "skip every check that needs git"
    )
    parser.add_argument(
        "--no-watch", action="store_true", help=f"{prefix}do not watch the workspace for changes"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help=f"{prefix}check every file, ignoring what the last run recorded",
    )


def add_match_option(parser: argparse.ArgumentParser) -> None:
    """`--match dual|seed`, as `score`, `diff` and `results` take it (docs/scoring.md)."""
    parser.add_argument(
        "--match",
        choices=("dual", "seed"),
        default="dual",
        help="how gold keys are matched: dual (default) also accepts the gold's dual_flaggable "
        "rule key; seed matches (file, rule_key) only, as the seed's scoreFindings does",
    )


def prepare_for_app(
    ws: Workspace, *, use_git: bool, cache: bool, reads: ReadOnce | None = None
) -> Prepared | PendingPrepared:
    """Start the app's first load before Textual is imported: no thread runs yet, so half the
    suite (a little more) can be checked by a forked process while the interface starts. On a
    first run that child lists the files too, while this process imports the interface (the
    walk of 11,000 fixtures is 0.25-0.5 s): the app's load takes the listing up."""
    from voyage_tui.engine.validation.suite import Suite

    suite = Suite(ws, use_git=use_git, reads=reads)
    return suite.prepare_early(cache=cache, child_share=APP_CHILD_SHARE)


def start_first_load(ws: Workspace, *, use_git: bool, watch: bool, cache: bool) -> LiveStart:
    """How the app's first load starts (engine/validation/live.py Start): from the first screen
    the last run recorded (drawn at once; the files are checked after it is on screen), or,
    without one, checked before the first screen by this process and a forked child (its
    `close()` after the app). Before Textual is imported. Arming the watcher walks every folder (0.17 s at 11,000
    fixtures, 4 s at 100,000, holding the interpreter lock), so the app arms it after the loaded
    suite is on screen (with a recorded first screen or without), after a load that stamped
    every file it checked, then re-checks what changed since (LiveSuite _watch_after_load). Only without the cache (no stamps) is it armed here, before the files
    are listed."""
    from voyage_tui.engine.loading.once import ReadOnce
    from voyage_tui.engine.validation.first_screen import load_first_screen
    from voyage_tui.engine.validation.live import LiveStart, Start

    # One read of each reference for the whole start: the record's key, the prepared load and
    # the live suite's first load take the same bytes (issue 34).
    reads = ReadOnce(str(ws.root), ws.root_real)
    first = load_first_screen(ws, use_git=use_git, reads=reads) if cache else None
    if first is not None:
        watcher = make_watcher(ws, watch)
        return LiveStart(Start.FROM_CACHE, first_screen=first, watcher=watcher, reads=reads)
    watcher = make_watcher(ws, watch) if cache else arm_watcher(ws, watch)
    prepared = prepare_for_app(ws, use_git=use_git, cache=cache, reads=reads)
    return LiveStart(Start.PREPARED, prepared=prepared, watcher=watcher, reads=reads)


def run_app(ws: Workspace, args: argparse.Namespace, **screens: Any) -> int:
    """Open the app on `ws` with the switches of add_app_switches in `args`, and `screens` (the
    settings' initial_* fields) on top of the browser; its exit code."""
    use_git, watch, cache = not args.no_git, not args.no_watch, not args.no_cache
    start = start_first_load(ws, use_git=use_git, watch=watch, cache=cache)
    from voyage_tui.app import VoyageApp
    from voyage_tui.app.settings import AppSettings

    settings = AppSettings(use_git=use_git, watch=watch, cache=cache, **screens)
    app = VoyageApp(ws, settings, start)
    try:
        return int(app.run() or 0)
    finally:
        start.close()


def say_outside_team(ws: Workspace, rater: str, command: str) -> None:
    """A rater outside the team (`[rating] raters`) still rates: said once, on stderr (the
    session's header says it again)."""
    from voyage_tui.engine.ratings.assignment import outside_the_team, workspace_assignment

    outsider = outside_the_team(workspace_assignment(ws), rater)
    if outsider is not None:
        print(f"voyage-tui {command}: note: {shown(outsider)}", file=sys.stderr)


def run_subcommand(
    command: str, subcommands: dict[str, tuple[str, str]], usage_template: str, argv: list[str]
) -> int:
    """A command of subcommands (`ratings`, `judge`): each subcommand's module, named in
    `subcommands` (name -> (module, one-line help)), is imported only when it runs, so a build
    that lacks one says so (exit 2) and its imports cost the others nothing. `usage_template`
    has a `{commands}` slot for the list."""
    from importlib import import_module

    width = max(len(name) for name in subcommands)
    lines = [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in subcommands.items()]
    usage = usage_template.format(commands="\n".join(lines))
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    name = argv[0]
    if name in ("-h", "--help"):
        print(usage)
        return 0
    if name not in subcommands:
        print(
            f"voyage-tui {command}: no subcommand {shown(repr(name))}{hint(name, subcommands)} "
            f"(there are: {', '.join(subcommands)})",
            file=sys.stderr,
        )
        return 2
    module_name = subcommands[name][0]
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise  # the subcommand is there, and something it imports is not: a real error
        print(f"voyage-tui {command}: `{name}` is not in this build of voyage-tui", file=sys.stderr)
        return 2
    return int(module.run(argv[1:]))


def above_zero(noun: str = "number") -> Callable[[str], float]:
    """An argparse `type` for a finite number above 0 (`--timeout S`, `--detect D`); the
    refusal names `noun` ("a number of seconds above 0, not 'x'")."""

    def parse(text: str) -> float:
        import math

        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (value > 0 and math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"a {noun} above 0, not {text!r}")
        return value

    return parse
