"""Text from the workspace made safe to draw: Textual passes an escape character in a widget's
text straight to the terminal, so a prompt, an agent's output or a rater's note could steer it
(colours, the title, OSC 52 writes to the clipboard). Control characters and the invisible
bidirectional overrides (which reorder what is shown) become visible escapes instead."""

from __future__ import annotations

import re

# Control characters (Cc), lone surrogates (Cs), the line and paragraph separators (Zl, Zp) and
# the bidi overrides and isolates; in prose, newlines and tabs stay.
_UNSAFE_IN_LINE = re.compile(
    r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_UNSAFE_IN_PROSE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, lines: bool = True) -> str:
    """`text` with each control character, lone surrogate and bidi override written as its
    escape (`\\x1b`, `\\u202e`). `lines`: newlines and tabs are kept (prose); otherwise they
    are escaped too (a name, a one-line note)."""
    if text.isprintable():
        return text
    if lines:
        return _UNSAFE_IN_PROSE.sub(_escape, text.replace("\r\n", "\n"))
    return _UNSAFE_IN_LINE.sub(_escape, text)
