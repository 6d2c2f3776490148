"""Whole numbers written in a file's text: a phase `3: Design`, a gate `gate-2`, a rubric anchor
`5: Fully correct`. Each is bounded before it is converted: Python's int() refuses more than
4,300 digits with a ValueError, and a number nothing in the suite can mean (no journey has a
billion phases) should be a diagnostic on its line, not a traceback or a huge loop later on.
"""

from __future__ import annotations

from voyage_tui.engine.wording import plural

MAX_DIGITS = 9
"""The longest number read from text: CommonMark's own bound for an ordered list's number, so a
`1.` list item and a `1:` anchor are read alike."""

NUMBER_TOO_LONG = "number-too-long"


def small_int(digits: str) -> int | None:
    """The number `digits` spells (what a `\\d+` group matched), or None when it has more than
    MAX_DIGITS digits or is not all decimal digits (`²` is a digit to str.isdigit(), not to
    int())."""
    if not digits or len(digits) > MAX_DIGITS or not digits.isdecimal():
        return None
    return int(digits)


def too_long(digits: str, what: str) -> str:
    """The start of a message about `digits`: counted, never repeated (it may be megabytes)."""
    return (
        f"{what} has {plural(len(digits), 'digit')}; a number here has at most {MAX_DIGITS}, "
        "so it is not read"
    )
