"""Badges that read without colour: a symbol first, colour only as a second signal."""

from __future__ import annotations

from rich.text import Text

ERROR_MARK = "✗"
WARNING_MARK = "!"
CLEAN_MARK = "✓"


def status_badge(errors: int, warnings: int) -> Text:
    if errors:
        return Text(f"{ERROR_MARK}{errors}", style="bold red")
    if warnings:
        return Text(f"{WARNING_MARK}{warnings}", style="bold yellow")
    return Text(CLEAN_MARK, style="green")


def plural(n: int, word: str, plural_word: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (plural_word or word + 's')}"
