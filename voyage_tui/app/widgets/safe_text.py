"""Text from the workspace made safe to draw: Textual passes an escape character in a widget's
text straight to the terminal, so a prompt, an agent's output or a rater's note could steer it
(colours, the title, OSC 52 writes to the clipboard). Control characters and the invisible
bidirectional overrides (which reorder what is shown) become visible escapes instead."""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str, *, lines: bool = True) -> str:
    """`text` with each control character, lone surrogate and bidi override written as its
    escape (`\\x1b`, `\\u202e`). `lines`: newlines and tabs are kept (prose); otherwise they
    are escaped too (a name, a one-line note)."""
    if text.isprintable():
        return text
    if lines:
        text = text.replace("\r\n", "\n")
    out = []
    for char in text:
        if lines and char in "\n\t":
            out.append(char)
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cs", "Zl", "Zp") or char in _BIDI:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)
