"""The page and the messages of `voyage-tui serve`'s browser side: what is added to
textual-serve's page (a title, the terminal's focus, a closed socket's reason, headers), and
the bounds on what the browser asks for (the terminal's size).

textual-serve's template has no place for a script or a title of ours, and copying it would
drift from the pinned textual-serve, so each is added at a fixed place of the page it renders.
"""

from __future__ import annotations

import html
from typing import Any

from voyage_tui.cli.render import shown

COLUMNS = (10, 500)
ROWS = (5, 200)
"""The terminal sizes a browser may ask for: a larger (or smaller) one is clamped into them. A
resize to 30000x30000 took an app 37 s of CPU and 4.5 GB of memory."""


def terminal_size(width: object, height: object) -> tuple[int, int] | None:
    """The size a browser asked for, clamped into COLUMNS x ROWS; None for one that is not two
    whole numbers of at least 1 (a string, a fraction, a boolean, zero, a negative)."""
    numbers = []
    for value in (width, height):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return None
        numbers.append(value)
    (low_w, high_w), (low_h, high_h) = COLUMNS, ROWS
    return min(max(numbers[0], low_w), high_w), min(max(numbers[1], low_h), high_h)


def width_and_height(data: object) -> tuple[object, object]:
    """The two numbers of a `resize` message's data, as sent (None for a part not there)."""
    if isinstance(data, dict):
        return data.get("width"), data.get("height")
    return None, None


FOCUS_SCRIPT = """<script>
  // voyage-tui: the terminal takes the keyboard when the page loads, so keys typed before a
  // click reach the app. textual.js opens the terminal in its window.onload; this listener
  // runs after it (or waits a moment for the terminal's input to be there).
  window.addEventListener("load", function () {
    var tries = 100;
    (function focusTerminal() {
      var input = document.querySelector("#terminal .xterm-helper-textarea");
      if (input) {
        input.focus();
      } else if (tries-- > 0) {
        setTimeout(focusTerminal, 50);
      }
    })();
  });
</script>
"""
"""Added to textual-serve's page (its template has no place for a script of ours, and copying
it would drift from the pinned textual-serve): the terminal is focused on load (issue 22)."""


REASON_SCRIPT = """<script>
  // voyage-tui: when the server closes the terminal's socket with a reason (the rater's session
  // was taken over by a newer tab, the server is at its limit), the page's "Session ended"
  // dialog shows that reason. textual.js makes its socket in window.onload, after this has run.
  (function () {
    var Native = window.WebSocket;
    if (!Native) {
      return;
    }
    function Socket(url, protocols) {
      var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
      socket.addEventListener("close", function (event) {
        var message = document.querySelector(".closed-dialog .message");
        if (message && event.reason) {
          message.textContent = event.reason;
        }
      });
      return socket;
    }
    Socket.prototype = Native.prototype;
    ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) {
      Socket[name] = Native[name];
    });
    window.WebSocket = Socket;
  })();
</script>
"""
"""Added to the page too: a closed socket's reason, as text (never HTML), in place of the
dialog's bare "Session ended."."""


def with_focus(page: str) -> str:
    """textual-serve's page with FOCUS_SCRIPT and REASON_SCRIPT before its `</body>`, after the
    terminal's element (a page without one is returned as it is)."""
    at = page.rfind("</body>")
    if at < 0:
        return page
    return page[:at] + FOCUS_SCRIPT + REASON_SCRIPT + page[at:]


def with_title(page: str, title: str) -> str:
    """The page with a `<title>` (textual-serve's has none, so every tab was untitled): a rater
    with tabs of several addresses, or a lead with everyone's, tells them apart."""
    at = page.find("<head>")
    if at < 0:
        return page
    at += len("<head>")
    return f"{page[:at]}\n    <title>{html.escape(shown(title))}</title>{page[at:]}"


def close_reason(words: str) -> bytes:
    """A websocket's close reason: at most 123 bytes of UTF-8, cut at a character."""
    reason = shown(words).encode()
    return reason if len(reason) <= 123 else reason[:120].decode(errors="ignore").encode() + b"..."


def guard(headers: Any) -> None:
    """The page's address holds the token: no Referer carries it to the fonts the page loads,
    no cache keeps the page, no other site frames it."""
    headers["Referrer-Policy"] = "no-referrer"
    headers["Cache-Control"] = "no-store"
    headers["X-Frame-Options"] = "DENY"
