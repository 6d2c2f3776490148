"""`voyage-tui judge SUBCOMMAND ...`: programs as raters (SPEC 3.11).

- `run`: give every agent run to a judge's command, its answers recorded as a program's
  ratings (judge_run_cmd.py);
- `align`: how far a judge agrees with the people, against how far they agree among themselves
  (judge_align_cmd.py).

Each subcommand's module is imported only when it runs, by its name, so this dispatcher works
in a build that lacks one of them (it says so, exit 2) and a subcommand's imports cost nothing
to the others.
"""

from __future__ import annotations

from voyage_tui.cli.common import run_subcommand

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "voyage_tui.cli.judge_run_cmd",
        "run a judge's command (yours, never the workspace's) on every agent run",
    ),
    "align": (
        "voyage_tui.cli.judge_align_cmd",
        "per dimension: the judge's kappa with the people against the people's own",
    ),
}

USAGE = """usage: voyage-tui judge SUBCOMMAND [ARGS]

Programs as raters (a judge's command is yours: --command or your judges.toml):
{commands}

`voyage-tui judge SUBCOMMAND --help` describes each."""


def run(argv: list[str]) -> int:
    return run_subcommand("judge", SUBCOMMANDS, USAGE, argv)
