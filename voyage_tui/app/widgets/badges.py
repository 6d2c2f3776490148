"""Badges that read without colour: a symbol first, colour only as a second signal."""

from __future__ import annotations

from rich.text import Text

from voyage_tui.engine.wording import plural as plural  # the one helper, kept importable here

ERROR_MARK = "✗"
WARNING_MARK = "!"
CLEAN_MARK = "✓"


def status_badge(errors: int, warnings: int) -> Text:
    if errors:
        return Text(f"{ERROR_MARK}{errors}", style="bold red")
    if warnings:
        return Text(f"{WARNING_MARK}{warnings}", style="bold yellow")
    return Text(CLEAN_MARK, style="green")
