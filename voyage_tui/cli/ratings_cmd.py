"""`voyage-tui ratings status|export ...`: the rating campaign's subcommands, each in its own
module, imported only when it runs (`status`: ratings_status_cmd.py, `export`:
ratings_export_cmd.py)."""

from __future__ import annotations

import sys
from importlib import import_module

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "status": (
        "voyage_tui.cli.ratings_status_cmd",
        "per rater: assigned, done, left and pace; items complete",
    ),
    "export": (
        "voyage_tui.cli.ratings_export_cmd",
        "every effective rating, one row per dimension (csv or jsonl)",
    ),
}

USAGE = """usage: voyage-tui ratings SUBCOMMAND [ARGS]

{subcommands}

`voyage-tui ratings SUBCOMMAND --help` describes each."""


def _usage() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    return USAGE.format(
        subcommands="\n".join(f"  {n.ljust(width)}  {h}" for n, (_, h) in SUBCOMMANDS.items())
    )


def run(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    name = argv[0]
    if name not in SUBCOMMANDS:
        print(f"voyage-tui ratings: unknown subcommand {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = import_module(SUBCOMMANDS[name][0])
    code: int = module.run(argv[1:])
    return code
