"""The last guard between what the app draws and the terminal (or the browser under `serve`).

Widgets escape workspace text themselves (`safe_text.printable`, which shows `\\x1b` as those
four characters); this module makes sure that whatever slips through cannot act:

- A line filter, applied by Textual to every line of every widget, drops control characters,
  bidi overrides and the line separators from what is sent. Editing widgets (the editor's text
  area, an input) cannot escape their text, since it is the person's document, so without this
  an ESC in a Markdown file opened in the editor would reach the terminal as a sequence. Rich
  measures each of these characters as zero cells, so dropping them keeps every line's width.
  A lone surrogate (one cell) becomes U+FFFD.
- The web driver `serve` uses encodes a frame as strict UTF-8 in Textual, so one lone
  surrogate on screen stopped the app for every connected browser; here such a character is
  written as its backslash escape, as a terminal driver does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.segment import Segment
from textual.app import App
from textual.color import Color
from textual.driver import Driver
from textual.drivers.web_driver import WebDriver
from textual.filter import LineFilter

_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_ANY = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _clean(text: str) -> str:
    return _SURROGATES.sub("\ufffd", _CONTROLS.sub("", text))


class ControlFilter(LineFilter):
    """Drops from each drawn line what a terminal would take as a command (see above)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        # One search over the joined line: Textual calls this for every line it draws.
        if _ANY.search("".join([segment.text for segment in segments])) is None:
            return segments
        return [
            Segment(_clean(text), style, control) if _ANY.search(text) else segment
            for segment in segments
            for text, style, control in (segment,)
        ]


class SafeWebDriver(WebDriver):
    def write(self, data: str) -> None:
        data_bytes = data.encode("utf-8", "backslashreplace")
        self._write(b"D%s%s" % (len(data_bytes).to_bytes(4, "big"), data_bytes))


class SafeDisplayApp(App[int]):
    _control_filter = ControlFilter()

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), self._control_filter]

    def get_driver_class(self) -> type[Driver]:
        driver_class = super().get_driver_class()
        if driver_class is WebDriver:
            return SafeWebDriver
        return driver_class
