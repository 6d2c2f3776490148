"""`printable`: what a workspace's text may hold reaches the screen as visible escapes, and
nothing else changes."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from voyage_tui.app.widgets.safe_text import printable

BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe(char: str, lines: bool) -> bool:
    if lines and char in "\n\t":
        return False
    return unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") or char in BIDI


def reference(text: str, lines: bool) -> str:
    if lines:
        text = text.replace("\r\n", "\n")
    out = []
    for char in text:
        if unsafe(char, lines):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


@given(st.text(alphabet=st.characters(codec=None)), st.booleans())
def test_printable_escapes_exactly_the_unsafe_characters(text: str, lines: bool) -> None:
    shown = printable(text, lines=lines)
    assert shown == reference(text, lines)
    assert not any(unsafe(c, lines) for c in shown)


def test_an_osc_52_clipboard_write_is_shown_not_sent() -> None:
    assert printable("a\x1b]52;c;cHduZWQ=\x07b\n\u202e", lines=True) == (
        "a\\x1b]52;c;cHduZWQ=\\x07b\n\\u202e"
    )
    assert printable("x\ny\t\udcff", lines=False) == "x\\x0ay\\x09\\udcff"


def test_a_load_problem_is_shown_printable_with_its_place() -> None:
    from voyage_tui.app.widgets.detail_pane import printable_detail
    from voyage_tui.engine.details import Detail
    from voyage_tui.engine.diagnostics import Diagnostic, Severity
    from voyage_tui.engine.items import Item
    from voyage_tui.engine.kinds import FileKind

    rel = "fixtures/a/t1/task.yaml"
    problem = Diagnostic(rel, 2, 5, Severity.ERROR, "yaml-syntax", "bad \x1b]52;c;x\x07 here")
    shown = printable_detail(Detail(Item(rel, FileKind.TASK), load_problem=problem))
    assert shown.load_problem == Diagnostic(
        rel, 2, 5, Severity.ERROR, "yaml-syntax", "bad \\x1b]52;c;x\\x07 here"
    )
