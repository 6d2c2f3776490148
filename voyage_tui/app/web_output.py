"""The web driver `serve` uses, made unable to fail on what it is asked to draw.

Textual's `WebDriver.write` encodes each frame as strict UTF-8; one lone surrogate anywhere on
screen (a file name that is not UTF-8, a run's JSON escape) raises inside the display, and the
app stops for every browser connected to it. In a terminal the same text is written with
Python's `backslashreplace`, so here it is too: the frame goes out and the character shows as its
escape. Widgets still escape workspace text themselves (`safe_text.printable`); this is the last
guard, not the first."""

from __future__ import annotations

from textual.app import App
from textual.driver import Driver
from textual.drivers.web_driver import WebDriver


class SafeWebDriver(WebDriver):
    def write(self, data: str) -> None:
        data_bytes = data.encode("utf-8", "backslashreplace")
        self._write(b"D%s%s" % (len(data_bytes).to_bytes(4, "big"), data_bytes))


class SafeDisplayApp(App[int]):
    def get_driver_class(self) -> type[Driver]:
        driver_class = super().get_driver_class()
        if driver_class is WebDriver:
            return SafeWebDriver
        return driver_class
