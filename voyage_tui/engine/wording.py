"""Words, one way everywhere: counts ("1 run", "2 runs", "1,204 files") and sentences."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and `word` in the form the count takes; `many` for a plural that is not word + "s"
    ("1 SHA", "2 SHAs" needs none; "1 summary", "2 summaries" does)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def sentence(text: str) -> str:
    """`text` as a whole sentence: a capital letter when it starts with a plain word (never a
    name: `gate-2`, a path, a quoted value keep their case), and a full stop at the end."""
    text = text.strip()
    if not text:
        return text
    first = text.split(" ", 1)[0]
    if first.isascii() and first.isalpha() and first.islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."
