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

import sys
from importlib import import_module

from voyage_tui.cli.render import shown
from voyage_tui.engine.suggest import hint

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
            f"voyage-tui judge: no subcommand {shown(repr(name))}{hint(name, SUBCOMMANDS)} "
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
        print(f"voyage-tui judge: `{name}` is not in this build of voyage-tui", file=sys.stderr)
        return 2
    return int(module.run(argv[1:]))
