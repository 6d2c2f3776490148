"""`voyage-tui ratings SUBCOMMAND ...`: the rating campaign's commands (SPEC 6).

- `status`: who has rated what, how fast (ratings_status_cmd.py);
- `export`: every effective rating, one row per dimension, for a notebook (ratings_export_cmd.py).

Each subcommand's module is imported only when it runs, by its name, so this dispatcher works
in a build that lacks one of them (it says so, exit 2) and a subcommand's imports cost nothing
to the others.
"""

from __future__ import annotations

from voyage_tui.cli.common import run_subcommand

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


def run(argv: list[str]) -> int:
    return run_subcommand("ratings", SUBCOMMANDS, USAGE, argv)
