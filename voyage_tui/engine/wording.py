"""Counts in words, one way everywhere: "1 run", "2 runs", "1,204 files"."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and `word` in the form the count takes; `many` for a plural that is not word + "s"
    ("1 SHA", "2 SHAs" needs none; "1 summary", "2 summaries" does)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"
