"""How `voyage-tui serve` keeps its descriptors through a flood of connections (issue 33).

Anyone who can reach the port can connect, with a token or without. A process has a bounded
number of open files (1,024 by default), and every connection holds one: 1,100 idle connections
used to take them all, and the log line asyncio writes when `accept()` fails then failed too
(rich imports a module lazily, which needs a file), which ended the server. So:

- every connection that is not (yet) a websocket is a *waiting* one: at most WAITING_CAP of
  them are open at once, and the oldest is closed to make room for a new one, so a flood
  pushes out its own connections, not a browser's request of a moment ago;
- a waiting connection sends its request within IDLE_SECONDS and is idle between requests at
  most as long (aiohttp's keep-alive limit, which it applies from the connection's start), and
  is closed WAITING_SECONDS after it opened whatever it does (a slow reader, a trickled body);
- a connection taken up as a websocket leaves the waiting ones (serve_web.py caps the
  websockets of each token), and
- when descriptors run out all the same, asyncio stops accepting for a second and goes on;
  the line it logs is written by a handler that cannot fail (`steady_handler`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import Any

WAITING_CAP = 64
"""Connections open at once that are not websockets: a page load takes a handful."""

IDLE_SECONDS = 10.0
"""How long a connection may wait for its first request, or idle between two."""

WAITING_SECONDS = 30.0
"""How long a connection may stay open without becoming a websocket."""


class Doors:
    """The protocol factory the server listens with: each connection's protocol is aiohttp's
    own (`make`), behind a `Door` that tells this object when the connection opens and ends."""

    def __init__(
        self,
        make: Callable[[], asyncio.Protocol],
        *,
        cap: int | None = None,
        lifetime: float | None = None,
    ) -> None:
        self._make = make
        self.cap = WAITING_CAP if cap is None else cap
        self.lifetime = WAITING_SECONDS if lifetime is None else lifetime
        self.waiting: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}
        """Open connections that are not websockets, oldest first, each with its deadline."""
        self.closed_for_room = 0
        """Connections closed to make room (the flood tests read it)."""

    def __call__(self) -> asyncio.Protocol:
        return Door(self, self._make())

    def opened(self, transport: asyncio.BaseTransport) -> None:
        while len(self.waiting) >= self.cap:
            oldest = next(iter(self.waiting))
            self.closed_for_room += 1
            self._shut(oldest)
        loop = asyncio.get_running_loop()
        self.waiting[transport] = loop.call_later(self.lifetime, self._shut, transport)

    def admitted(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection is a websocket now: no longer waiting (nor timed)."""
        if transport is not None and (deadline := self.waiting.pop(transport, None)):
            deadline.cancel()

    def ended(self, transport: asyncio.BaseTransport) -> None:
        if deadline := self.waiting.pop(transport, None):
            deadline.cancel()

    def _shut(self, transport: asyncio.BaseTransport) -> None:
        """Close at once: abort, not close, so nothing queued to a reader that does not read
        keeps the descriptor."""
        self.ended(transport)
        abort = getattr(transport, "abort", None)
        with contextlib.suppress(Exception):
            abort() if abort is not None else transport.close()


class Door(asyncio.Protocol):
    """aiohttp's protocol for one connection, each call passed on unchanged."""

    def __init__(self, doors: Doors, inner: asyncio.Protocol) -> None:
        self._doors = doors
        self._inner = inner
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        self._doors.opened(transport)
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._doors.ended(self._transport)
        self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class SteadyHandler(logging.Handler):
    """Passes each record on to `inner`, and never raises: out of descriptors, a handler that
    needs a file (rich imports modules as it renders) would end the loop it logs for. What it
    could not write goes to stderr as one plain line, if even that can be written."""

    def __init__(self, inner: logging.Handler) -> None:
        super().__init__(inner.level)
        self.inner = inner

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.inner.handle(record)
        except Exception:
            with contextlib.suppress(Exception):
                os.write(sys.stderr.fileno(), f"{record.getMessage()}\n".encode(errors="replace"))


class QuietLoopErrors:
    """The event loop's exception handler: each error logged in one line (no traceback, which
    reads source files), an `accept()` that failed for want of descriptors at most once every
    few seconds (asyncio retries it every second), and never an exception out of it."""

    REPEAT_SECONDS = 10.0

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger
        self._last: dict[str, float] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        try:
            message = str(context.get("message", "error in the event loop"))
            error = context.get("exception")
            now = time.monotonic()
            if now - self._last.get(message, -self.REPEAT_SECONDS) < self.REPEAT_SECONDS:
                return
            self._last[message] = now
            detail = f": {type(error).__name__}: {error}" if error is not None else ""
            self.logger.warning("%s%s", message, detail)
        except Exception:
            pass  # an error handler that fails would stop the loop
