"""Shared pieces of the subcommands: argument parsing that exits 2, workspace opening."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from voyage_tui.engine.workspace.discovery import NoWorkspace


class Parser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error already; this keeps the message on stderr, short."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def no_workspace(exc: NoWorkspace) -> int:
    print(f"voyage-tui: {exc}", file=sys.stderr)
    return 2


def use_color(stream: object) -> bool:
    import os

    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ
