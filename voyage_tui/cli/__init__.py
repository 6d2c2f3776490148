"""The command line: `voyage-tui [PATH]` opens the app; subcommands run the engine headless.

Each subcommand module is imported only when it runs, and none of them imports Textual, so
`voyage-tui validate` starts fast (a test enforces that no Textual module is loaded).
"""

from __future__ import annotations

import contextlib
import os
import sys
from importlib import import_module

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from typing import Any, TextIO

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": (
        "voyage_tui.cli.validate_cmd",
        "check every fixture, trajectory, gold file and run",
    ),
    "score": ("voyage_tui.cli.score_cmd", "score a recorded run against its gold file"),
    "exposure": ("voyage_tui.cli.exposure_cmd", "report holdout fixtures a contributor has seen"),
    "schema": ("voyage_tui.cli.schema_cmd", "print the JSON Schema of a file format"),
    "agreement": ("voyage_tui.cli.agreement_cmd", "how far the raters agree, per rubric dimension"),
    "diff": ("voyage_tui.cli.diff_cmd", "open the app on the gold-vs-run diff of GOLD and RUN"),
    "rate": ("voyage_tui.cli.rate_cmd", "open the app on the rater session: score agent runs"),
    "new": ("voyage_tui.cli.new_cmd", "create a fixture or trajectory (task|trajectory)"),
    "serve": (
        "voyage_tui.cli.serve_cmd",
        "serve the app in a browser (localhost, token in the URL)",
    ),
    "triage": ("voyage_tui.cli.triage_cmd", "everything that needs a person, worst first"),
    "ratings": (
        "voyage_tui.cli.ratings_cmd",
        "the rating campaign: status (progress, pace) and export (csv, jsonl)",
    ),
    "adjudicate": (
        "voyage_tui.cli.adjudicate_cmd",
        "settle the disputed items' final scores (--list prints them)",
    ),
    "results": (
        "voyage_tui.cli.results_cmd",
        "which agent is better, by how much, how sure (ratings and gold)",
    ),
    "import": (
        "voyage_tui.cli.import_cmd",
        "runs from Inspect AI, SWE-bench or Harbor logs as run files",
    ),
    "judge": (
        "voyage_tui.cli.judge_cmd",
        "a program as a rater: run a judge, and how far it agrees with the people (run|align)",
    ),
}

USAGE = """usage: voyage-tui [PATH]
       voyage-tui COMMAND [ARGS]

Open the app on the workspace at PATH (default: the current folder), or run a command:
{commands}

`voyage-tui COMMAND --help` describes each command."""


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    return USAGE.format(commands="\n".join(lines))


class OutputFailed(Exception):
    """stdout refused a write: a full disk, a closed pipe, a device error."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _GuardedOutput:
    """sys.stdout while a command runs: a write or flush that fails raises OutputFailed, so main
    tells a failing output apart from any other OSError (a bug that must still be seen)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, reconfigure, encoding...
        return getattr(self._stream, name)


def _tolerant(stream: object) -> None:
    """Text may quote what no encoding can write (a lone surrogate from a JSON `\\udc00` escape,
    a file name that is not UTF-8): write it as that backslash escape instead of dying."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        # a stream that cannot change its error handler is left as it is
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="backslashreplace")


def _silence(stream: TextIO) -> None:
    """Point a failed stdout at /dev/null: the interpreter flushes it once more at exit, and a
    second failure there would print `Exception ignored ...` after our message."""
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a file (a test's capture): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _say_setting_problems() -> None:
    """A VOYAGE_GIT_TIMEOUT that is no usable limit is said once, before the command runs (the
    engine clamps it: engine/git/repo.py). Read only when set, so a plain run imports nothing."""
    if os.environ.get("VOYAGE_GIT_TIMEOUT"):
        from voyage_tui.engine.git.repo import git_timeout_warning

        warning = git_timeout_warning()
        if warning is not None:
            print(f"voyage-tui: {warning}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    _say_setting_problems()
    stdout = sys.stdout
    _tolerant(stdout)
    guarded = _GuardedOutput(stdout)
    sys.stdout = guarded
    try:
        try:
            code = _dispatch(list(sys.argv[1:] if argv is None else argv))
        except SystemExit:
            guarded.flush()  # argparse printed its help or usage: that output must arrive too
            raise
        guarded.flush()  # a full disk shows here, not in the interpreter's final flush
        return code
    except (OutputFailed, BrokenPipeError) as exc:
        error = exc.error if isinstance(exc, OutputFailed) else exc
        _silence(stdout)
        if isinstance(error, BrokenPipeError):
            # `voyage-tui validate | head`: the reader left; that is not an error of ours.
            return 141
        print(f"voyage-tui: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if sys.stdout is guarded:
            sys.stdout = stdout


def _command_at(args: list[str]) -> int | None:
    """Where the subcommand's name stands: the first argument that is not an option, when it
    names a command. Options may come before it (`voyage-tui --no-git validate`); anything else
    (`voyage-tui --no-git fixtures`) is the app's PATH and options, in any order."""
    for index, arg in enumerate(args):
        if arg == "--":
            return None
        if not arg.startswith("-") or arg == "-":
            return index if arg in COMMANDS else None
    return None


def _dispatch(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if args and args[0] in ("-V", "--version"):
        from voyage_tui import __version__

        print(f"voyage-tui {__version__}")
        return 0
    at = _command_at(args)
    if at is not None:
        module = import_module(COMMANDS[args[at]][0])
        return int(module.run(args[:at] + args[at + 1 :]))
    from voyage_tui.cli import open_cmd

    return int(open_cmd.run(args))
