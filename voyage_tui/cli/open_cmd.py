"""`voyage-tui [PATH]`: until the app lands, print the validation summary of the workspace."""

from __future__ import annotations

from voyage_tui.cli import validate_cmd


def run(argv: list[str]) -> int:
    return validate_cmd.run(argv)
