"""The command line: `voyage-tui [PATH]` opens the app; subcommands run the engine headless.

Each subcommand module is imported only when it runs, and none of them imports Textual, so
`voyage-tui validate` starts fast (a test enforces that no Textual module is loaded).
"""

from __future__ import annotations

import sys
from importlib import import_module

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": (
        "voyage_tui.cli.validate_cmd",
        "check every fixture, trajectory, gold file and run",
    ),
    "score": ("voyage_tui.cli.score_cmd", "score a recorded run against its gold file"),
    "exposure": ("voyage_tui.cli.exposure_cmd", "report holdout fixtures a contributor has seen"),
    "schema": ("voyage_tui.cli.schema_cmd", "print the JSON Schema of a file format"),
    "diff": ("voyage_tui.cli.diff_cmd", "open the app on the gold-vs-run diff of GOLD and RUN"),
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


def main(argv: list[str] | None = None) -> int:
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # `voyage-tui validate | head`: the reader left; that is not an error of ours. Point
        # stdout at /dev/null so the interpreter's final flush does not raise again.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        return 130


def _dispatch(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if args and args[0] in ("-V", "--version"):
        from voyage_tui import __version__

        print(f"voyage-tui {__version__}")
        return 0
    if args and args[0] in COMMANDS:
        module = import_module(COMMANDS[args[0]][0])
        return int(module.run(args[1:]))
    if args and args[0].startswith("-"):
        print(_usage(), file=sys.stderr)
        return 2
    from voyage_tui.cli import open_cmd

    return int(open_cmd.run(args))
