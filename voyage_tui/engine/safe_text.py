"""Text from the workspace made safe to show, in the app and on the command line: one place
decides which characters could steer a terminal, and how they are shown instead.

A terminal acts on an escape character in what it is given: text from the workspace (a file or
folder name, a YAML key, a rating's note, a reviewer's name, a git author) could otherwise
change colours, retitle the window or write the clipboard (OSC 52). Control characters (C0, DEL,
C1), lone surrogates, the line and paragraph separators and the invisible bidirectional overrides
and isolates (which reorder what is shown) become visible escapes instead: `\\x1b`, `\\u202e`.

JSON is data for programs: its values stay exact, but no such character is written raw either
(`json_text`): inside a JSON string `\\u009b` is the same value as the character itself.
"""

from __future__ import annotations

import functools
import re

# Control characters (Cc), lone surrogates (Cs), the line and paragraph separators (Zl, Zp) and
# the bidi overrides and isolates; in prose, newlines and tabs stay.
_UNSAFE_IN_LINE = r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_UNSAFE_IN_PROSE = (
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
# The same set, but C0: json.dumps already writes those as `\u001b` (and its own indentation
# is made of newlines and spaces, which must stay).
_UNSAFE_IN_JSON = r"[\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"


@functools.cache
def _unsafe(chars: str) -> re.Pattern[str]:
    """The pattern of `chars`, compiled when first needed: most text is printable and never
    asks, and every command's start-up paid for the three (issue 23)."""
    return re.compile(chars)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, lines: bool = True) -> str:
    """`text` with each control character, lone surrogate and bidi override written as its
    escape (`\\x1b`, `\\u202e`). `lines`: newlines and tabs are kept (prose); otherwise they
    are escaped too (a name, a one-line note, a line of the command line's output)."""
    if text.isprintable():
        return text
    if lines:
        return _unsafe(_UNSAFE_IN_PROSE).sub(_escape, text.replace("\r\n", "\n"))
    return _unsafe(_UNSAFE_IN_LINE).sub(_escape, text)


def one_line(text: str) -> str:
    """`text` safe to print as (part of) one line: every control character escaped, a newline
    or carriage return too, so a name cannot forge or overwrite a line."""
    return printable(text, lines=False)


def json_text(text: str) -> str:
    """JSON text (from json.dumps) with DEL, the C1 controls, lone surrogates, the line
    separators and the bidi controls written as `\\uXXXX` escapes. In JSON these characters can
    only stand inside a string, where the escape is the same value: a program reads back
    exactly what was written, and a terminal shown the text sees no control character. (A lone
    surrogate could not be encoded at all.)"""
    return _unsafe(_UNSAFE_IN_JSON).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may take for the start of a formula (OWASP's CSV injection list)."""


def spreadsheet_cell(text: str) -> str:
    """A CSV cell of workspace text: one line (`one_line`: a control character is its escape,
    so `cat report.csv` steers no terminal), and a `'` in front when a spreadsheet would take
    it for a formula. Every CSV the tool writes (results, ratings export) goes through here."""
    text = one_line(text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
