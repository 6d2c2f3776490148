"""`voyage-tui ratings SUBCOMMAND ...`: the rating campaign's commands (SPEC 6).

- `status`: who has rated what, how fast (ratings_status_cmd.py);
- `export`: every effective rating, one row per dimension, for a notebook (ratings_export_cmd.py).

Each subcommand's module is imported only when it runs, by its name, so this dispatcher works
in a build that lacks one of them (it says so, exit 2) and a subcommand's imports cost nothing
to the others.
"""

from __future__ import annotations

import sys
from importlib import import_module

from voyage_tui.cli.render import shown
from voyage_tui.engine.suggest import hint

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "status": (
        "voyage_tui.cli.ratings_status_cmd",
        "per rater: items assigned, done, left, median seconds per item, items per hour",
    ),
    "export": (
        "voyage_tui.cli.ratings_export_cmd",
        "every effective rating, one row per dimension, as CSV or JSONL (agent shown)",
    ),
}

USAGE = """usage: voyage-tui ratings SUBCOMMAND [ARGS]

The rating campaign ([rating] in voyage.toml: raters, overlap):
{commands}

`voyage-tui ratings SUBCOMMAND --help` describes each."""


def usage() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in SUBCOMMANDS.items()]
    return USAGE.format(commands="\n".join(lines))


def run(argv: list[str]) -> int:
    if not argv:
        print(usage(), file=sys.stderr)
        return 2
    name = argv[0]
    if name in ("-h", "--help"):
        print(usage())
        return 0
    if name not in SUBCOMMANDS:
        print(
            f"voyage-tui ratings: no subcommand {shown(repr(name))}{hint(name, SUBCOMMANDS)} "
            f"(there are: {', '.join(SUBCOMMANDS)})",
            file=sys.stderr,
        )
        return 2
    module_name = SUBCOMMANDS[name][0]
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise  # the subcommand is there, and something it imports is not: a real error
        print(f"voyage-tui ratings: `{name}` is not in this build of voyage-tui", file=sys.stderr)
        return 2
    return int(module.run(argv[1:]))
