"""The web server of `voyage-tui serve`: textual-serve's Server behind a secret token.

textual-serve serves its page and websocket to anyone who reaches the port. Here the page (`/`)
wants `?token=T` and the websocket lives at `/ws/T`, so another user of the machine, or a web
page the browser visits, cannot start an app that edits the workspace as the person serving it.
The token never leaves this process except in the address printed on its own stdout.

Per-rater links (`serve --rate --raters ann,ben`): one address per rater, each with its own
token, which is the rater's identity: a token's tabs run the rater session of its rater and no
other (the name is in the command the server runs, never asked of the browser). A rater has at
most one live session, and the newest tab of a token takes it: a reload resumes, and an older
tab still open is told its session was taken over (`_take_over`). The tokens live in this
process's memory only: a restarted server prints new addresses, and the old ones open nothing
(docs/trust.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from aiohttp.web_runner import GracefulExit
from rich.logging import RichHandler
from textual_serve.app_service import AppService
from textual_serve.server import Server, log, to_int

from voyage_tui.cli.render import shown
from voyage_tui.cli.serve_cmd import DEFAULT_MAX_SESSIONS, listening_url
from voyage_tui.cli.serve_doors import IDLE_SECONDS, Doors, QuietLoopErrors, SteadyHandler
from voyage_tui.cli.serve_page import (
    close_reason,
    guard,
    terminal_size,
    width_and_height,
    with_focus,
    with_title,
)
from voyage_tui.engine.wording import plural

SHUTDOWN_SECONDS = 5.0
"""How long Ctrl+C waits for the open apps to quit before the server stops anyway."""

APP_QUIT_SECONDS = 5.0
"""How long a closed connection's app may take to quit before it is killed."""

EXTRA_SOCKETS_PER_TOKEN = 4
"""Websockets of one token open at once beyond its sessions (a rater's one, the shared
address's --max-sessions): those being turned away. One more is refused before it is a
websocket (HTTP 429), so one token cannot hold the server's descriptors."""

TURN_AWAY_SECONDS = 1.0
"""How long a turned-away websocket waits for the browser to answer its closing."""

TAKE_OVER_SECONDS = 20.0
"""How long a rater's newest tab waits for the session of the older one to end (its socket
closed, its app asked to quit, then killed) before it is turned away instead."""

TURNED_AWAY = 4001
"""The close code of a websocket turned away (at the limit, or its rater's session still
ending); its reason, in words, is shown by the page."""

TAKEN_OVER = 4000
"""The close code of a rater's websocket whose session a newer tab took (4000-4999 are for
applications); the reason, in words, is shown by the page (serve_page.REASON_SCRIPT)."""


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(slots=True)
class Seat:
    """An address the server hands out: its token, the command each of its tabs runs, and for
    a per-rater link the rater, whose one live session it holds while a tab of it runs."""

    token: str
    command: str
    rater: str | None = None
    live: bool = False
    sockets: int = 0
    """Its websockets open now, the live one and those being turned away."""
    websocket: web.WebSocketResponse | None = None
    """A rater's live session's socket, which a newer tab of the address closes."""
    ended: asyncio.Event | None = None
    """Set once a rater's live session has ended, its app with it."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


class AppServer(Server):
    """Serves one command (the app on one workspace) to each browser connection; with
    `raters` (rater -> command), one address per rater instead, each with its own token."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        public_url: str | None,
        title: str,
        serving: str,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        raters: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(command, host=host, port=port, title=title, public_url=public_url)
        self.max_sessions = max_sessions
        self.live_sessions = 0
        """Connections with an app, from the moment one is accepted until its app has ended."""
        if raters:
            self.seats = [Seat(new_token(), each, rater) for rater, each in raters.items()]
        else:
            self.seats = [Seat(new_token(), command)]
        self.serving = serving  # what each tab opens, for the first line printed
        # None: the page's own address (the Host it was asked for) is where its websocket is,
        # which is right through an SSH tunnel to any local port.
        self.fixed_public_url = public_url.rstrip("/") if public_url else None
        self.sockets: set[web.WebSocketResponse] = set()
        self.doors: Doors | None = None
        """The connections that are not websockets, while `serve` listens."""

    @property
    def token(self) -> str:
        """The token of the one address (a server of per-rater links has one per rater)."""
        if len(self.seats) != 1:
            raise ValueError("this server has one address per rater: see `links`")
        return self.seats[0].token

    def _url(self, seat: Seat) -> str:
        base = self.fixed_public_url or listening_url(self.host, self.port)
        return f"{base}/?token={seat.token}"

    @property
    def address(self) -> str:
        """What to open in a browser (a server of per-rater links: the first rater's)."""
        return self._url(self.seats[0])

    @property
    def links(self) -> dict[str, str]:
        """Rater -> the address that opens their session (empty without per-rater links)."""
        return {seat.rater: self._url(seat) for seat in self.seats if seat.rater is not None}

    def _check_token(self, offered: str | None) -> Seat:
        """The seat whose token was offered; 403 for any other (each token is compared in
        constant time, and every one is compared)."""
        given = (offered or "").encode("utf-8", "surrogatepass")
        found = None
        for seat in self.seats:
            if hmac.compare_digest(given, seat.token.encode()) and offered:
                found = seat
        if found is None:
            raise web.HTTPForbidden(
                text="voyage-tui serve: open the address the server printed; it carries the "
                "token this page needs.\n"
            )
        return found

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as refusal:  # a 403 or 404 is answered with the same care
            guard(refusal.headers)
            raise
        guard(response.headers)
        return response

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    def _announce(self, *_: object) -> None:
        """Called once every address listens, instead of aiohttp's `Running on` line."""
        # The workspace's path and a --public-url are text from outside: printed escaped.
        print(f"voyage-tui serve: {shown(self.serving)}", flush=True)
        links = self.links
        if links:
            print(
                "One address per rater: it opens that rater's session and no other, so send "
                "each to its rater alone. A rater has one live session at a time.",
                flush=True,
            )
            width = max(len(shown(rater)) for rater in links)
            for rater, url in links.items():
                print(f"  {shown(rater):<{width}}  {shown(url)}", flush=True)
            print("The addresses end with the server. Ctrl+C stops it.", flush=True)
            return
        print(f"Open {shown(self.address)}", flush=True)
        print("Each browser tab runs its own app. Ctrl+C stops the server.", flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        # Closing a socket ends its message loop, which tells its app to quit.
        for websocket in list(self.sockets):
            with contextlib.suppress(Exception):
                await websocket.close()

    @property
    def full(self) -> bool:
        return self.live_sessions >= self.max_sessions

    def _limit_words(self) -> str:
        return (
            f"voyage-tui serve is at its limit of {plural(self.max_sessions, 'session')}: each "
            "open tab runs its own app."
        )

    def _full_page(self) -> web.Response:
        """What a tab beyond the cap gets instead of the app: a plain page that says why and what
        to do (the text is fixed: nothing of the workspace or the request is in it)."""
        body = (
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            "<title>voyage-tui serve: at its limit</title></head>\n"
            '<body style="font-family: monospace; margin: 2em">\n'
            f"<h1>{self._limit_words()}</h1>\n"
            "<p>Close a tab of this app you no longer need, then reload this page.</p>\n"
            "<p>Whoever started the server can allow more with "
            "<code>voyage-tui serve --max-sessions N</code>.</p>\n"
            "</body></html>\n"
        )
        return web.Response(status=503, text=body, content_type="text/html", charset="utf-8")

    @staticmethod
    def _elsewhere_words(seat: Seat) -> str:
        return (
            f"The rater session of {seat.rater} is still open in another tab, which did not "
            "let it go; reload in a moment."
        )

    async def _turn_away(
        self, request: web.Request, seat: Seat | None = None
    ) -> web.WebSocketResponse:
        """A page fetched just before the cap was reached (or whose rater's older session did
        not end in time) still opens its websocket: it is sent the reason and closed at once
        (no app, no process); the page shows the reason (serve_page.REASON_SCRIPT). Held
        open, 300 of them took every descriptor of the server."""
        websocket = web.WebSocketResponse(timeout=TURN_AWAY_SECONDS)
        try:
            await self._upgrade(websocket, request)
        except ConnectionError:  # gone already: nothing to tell
            return websocket
        try:
            if seat is not None:
                words = f"\r\n  {shown(self._elsewhere_words(seat))}\r\n"
            else:
                words = (
                    f"\r\n  {self._limit_words()}\r\n"
                    "  Close a tab you no longer need, then reload this page.\r\n"
                )
            with contextlib.suppress(Exception):  # a browser gone already is told nothing
                await websocket.send_bytes(words.encode())
            reason = self._elsewhere_words(seat) if seat is not None else self._limit_words()
            await websocket.close(code=TURNED_AWAY, message=close_reason(reason))
        finally:
            self.sockets.discard(websocket)
        return websocket

    async def _upgrade(self, websocket: web.WebSocketResponse, request: web.Request) -> None:
        """Take the connection up as a websocket: from then on it is no longer a waiting
        connection (serve_doors.py), and is counted against its token instead."""
        await websocket.prepare(request)
        self.sockets.add(websocket)
        if self.doors is not None:
            self.doors.admitted(request.transport)

    def _socket_cap(self, seat: Seat) -> int:
        sessions = 1 if seat.rater is not None else self.max_sessions
        return sessions + EXTRA_SOCKETS_PER_TOKEN

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        seat = self._check_token(request.query.get("token"))
        # A rater's address opens while the rater's session runs: its websocket takes the
        # session over (a reload, a newer tab), and needs no other place.
        if self.full and not seat.live:
            return self._full_page()
        base = self.fixed_public_url or f"{request.scheme}://{request.host}"
        scheme, rest = base.split(":", 1)
        websocket_path = request.app.router["websocket"].url_for(token=seat.token)
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{'wss' if scheme == 'https' else 'ws'}:{rest}{websocket_path}",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
        }
        page = aiohttp_jinja2.render_string("app_index.html", request, context)
        title = f"Rating · {seat.rater}" if seat.rater is not None else self.title
        return web.Response(
            text=with_title(with_focus(page), title), content_type="text/html", charset="utf-8"
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._check_token(request.match_info.get("token"))
        if seat.sockets >= self._socket_cap(seat):
            raise web.HTTPTooManyRequests(
                text="voyage-tui serve: too many connections of this address at once; close "
                "the tabs you no longer need, then reload.\n"
            )
        seat.sockets += 1
        try:
            return await self._connect(request, seat)
        finally:
            seat.sockets -= 1

    async def _connect(self, request: web.Request, seat: Seat) -> web.WebSocketResponse:
        if seat.live:
            # A websocket of a valid token, bounded by TAKE_OVER_SECONDS: no longer timed as a
            # waiting connection, which a long take-over could otherwise outlast.
            if self.doors is not None:
                self.doors.admitted(request.transport)
            if not await self._take_over(seat):
                return await self._turn_away(request, seat)
        if self.full:
            return await self._turn_away(request)
        # Taken before the first await, so two connections arriving together cannot both have
        # the last slot (nor a rater two sessions); given back only once the app has ended (or
        # been killed).
        self.live_sessions += 1
        if seat.rater is not None:
            seat.live = True
            seat.ended = asyncio.Event()
        self._say(
            seat, f"connected ({self.live_sessions} of {plural(self.max_sessions, 'session')})"
        )
        started: list[AppService] = []
        try:
            return await self._session(request, seat, started)
        finally:
            # Its own task, shielded: a handler cancelled as its client leaves (aiohttp can be
            # set to do so) still stops the app, and the slot is free only once it has ended.
            ending = asyncio.ensure_future(self._end_session(seat, started))
            _background.add(ending)
            ending.add_done_callback(_background.discard)
            await asyncio.shield(ending)

    async def _take_over(self, seat: Seat) -> bool:
        """The newest connection of a rater's address takes the session: the older tab's
        socket is closed with the reason (a tab reloaded has closed it already), and this one
        waits until that session has ended, its app and the rater's lock with it. False when
        it has not ended within TAKE_OVER_SECONDS."""
        try:
            async with asyncio.timeout(TAKE_OVER_SECONDS):
                while seat.live:  # a third tab may have taken it meanwhile: the newest wins
                    ended, old = seat.ended, seat.websocket
                    if old is not None and not old.closed:
                        self._say(seat, "taken over by a newer tab")
                        reason = close_reason(self._taken_over_words(seat))
                        with contextlib.suppress(Exception):
                            await old.close(code=TAKEN_OVER, message=reason)
                    if ended is not None and old is not None:
                        await ended.wait()
                    else:  # its socket is being opened: known in a moment
                        await asyncio.sleep(0.05)
        except TimeoutError:
            return False
        return True

    @staticmethod
    def _say(seat: Seat, what: str) -> None:
        """One line on the server's output per session that starts or ends: who (the rater, or
        "a tab" of the shared address), never the token."""
        who = shown(seat.rater) if seat.rater is not None else "a tab"
        with contextlib.suppress(OSError):  # an output that is gone stops no session
            print(f"voyage-tui serve: {time.strftime('%H:%M:%S')} {who} {what}", flush=True)

    @staticmethod
    def _taken_over_words(seat: Seat) -> str:
        return (
            f"Taken over: the rater session of {seat.rater} was opened in a newer tab; reload "
            "to take it back here."
        )

    async def _end_session(self, seat: Seat, started: list[AppService]) -> None:
        try:
            for service in started:
                await _stop(service)
        finally:
            self.live_sessions -= 1
            self._say(seat, "disconnected")
            if seat.rater is not None:
                seat.live = False
                seat.websocket = None
                if seat.ended is not None:
                    seat.ended.set()

    async def _session(
        self, request: web.Request, seat: Seat, started: list[AppService]
    ) -> web.WebSocketResponse:
        """One browser connection and its app, until either ends (the app is stopped by the
        caller: `started` holds it once it is made)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        asked = (
            to_int(request.query.get("width", ""), 0),
            to_int(request.query.get("height", ""), 0),
        )
        width, height = terminal_size(*asked) or (80, 24)
        try:
            try:
                await self._upgrade(websocket, request)
            except ConnectionError:  # the browser left while it waited (for a take-over)
                return websocket
            if seat.rater is not None:
                seat.websocket = websocket
            service = AppService(
                seat.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                # aiohttp's close returns a bool that textual-serve ignores; it types it None.
                close=websocket.close,  # type: ignore[arg-type]
                download_manager=self.download_manager,
                debug=self.debug,
            )
            started.append(service)
            await service.start(width, height)
            if service._task is not None:
                # An app that ends without saying so (it could not start, it crashed) closes
                # its page too, which then offers a restart instead of a blank screen.
                service._task.add_done_callback(lambda _: _close_later(websocket))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a malformed message from the browser ends this one app
            log.exception(error)
        finally:
            self.sockets.discard(websocket)
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """textual-serve's loop over the browser's messages, with the terminal's size bounded:
        a size out of serve_page.COLUMNS x ROWS is clamped into it, and one that is not two
        whole numbers of at least 1 is ignored (it used to end the session with a traceback)."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            envelope = message.json()
            assert isinstance(envelope, list)  # anything else ends this one app, as before
            kind = envelope[0]
            data = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin":
                if isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize":
                size = terminal_size(*width_and_height(data))
                if size is not None:
                    await app_service.set_terminal_size(*size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    def initialize_logging(self) -> None:
        # textual-serve's own handler prints each traceback's local variables, and a request's
        # repr holds its path: the websocket's path is the token. Steady: out of descriptors,
        # rich's handler raises (serve_doors.py).
        rich = RichHandler(show_path=False, show_time=False, console=self.console)
        logging.basicConfig(
            level="DEBUG" if self.debug else "INFO",
            format="%(message)s",
            handlers=[SteadyHandler(rich)],
        )

    def serve(self, debug: bool = False) -> None:
        """Run until Ctrl+C or SIGTERM. An address that cannot be listened on raises OSError."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(QuietLoopErrors(log))
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
                loop.add_signal_handler(signum, self.request_exit)
        main = loop.create_task(self._listen())
        try:
            loop.run_until_complete(main)
        except (GracefulExit, KeyboardInterrupt):
            pass
        finally:
            try:
                if not main.done():
                    main.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        loop.run_until_complete(main)
            finally:
                left = asyncio.all_tasks(loop)
                for task in left:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

    async def _listen(self) -> None:
        """aiohttp's `run_app`, but listening through `Doors` (serve_doors.py), with a short
        keep-alive (which aiohttp applies from a connection's start too)."""
        runner = web.AppRunner(
            await self._make_app(),
            access_log=None,  # its lines would show the token
            keepalive_timeout=IDLE_SECONDS,
            shutdown_timeout=SHUTDOWN_SECONDS,
        )
        await runner.setup()
        listening: asyncio.Server | None = None
        try:
            assert runner.server is not None
            self.doors = Doors(runner.server)
            listening = await asyncio.get_running_loop().create_server(
                self.doors, self.host, self.port, backlog=128
            )
            self._announce()
            await asyncio.Event().wait()  # until Ctrl+C or SIGTERM
        finally:
            if listening is not None:
                listening.close()
            await runner.cleanup()


_closing: set[asyncio.Task[object]] = set()
_background: set[asyncio.Future[None]] = set()
"""Sessions being ended, held until done: the loop keeps only a weak reference to a task."""


def _close_later(websocket: web.WebSocketResponse) -> None:
    task: asyncio.Task[object] = asyncio.ensure_future(websocket.close())
    _closing.add(task)  # held until done: the loop keeps only a weak reference to a task
    task.add_done_callback(_closing.discard)


async def _stop(service: AppService) -> None:
    """Ask the app to quit and wait for its process to exit; kill it when it has not after
    APP_QUIT_SECONDS, so a stuck app never outlives its connection or the server. An app that
    quit closes its output a moment before it exits, and is waited for: killed in that moment
    (asyncio's kill polls the process, which reaps it behind asyncio's back), it printed
    `WARNING Unknown child process pid N, will report returncode 255`."""
    process = service._process
    loop = asyncio.get_running_loop()
    deadline = loop.time() + APP_QUIT_SECONDS
    try:
        # wait_for, not asyncio.timeout: textual-serve's reading task swallows its cancellation,
        # so a timeout block would not end at its deadline.
        await asyncio.wait_for(service.stop(), APP_QUIT_SECONDS)
        if process is not None:
            await asyncio.wait_for(process.wait(), max(0.0, deadline - loop.time()))
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            _kill(process)
            raise
        # textual-serve's own: an app that ends at once cancels its stderr reader before it began
    except Exception:  # TimeoutError, or a pipe that broke on the way
        log.warning("the app did not quit; stopping it")
    if process is not None and process.returncode is None:
        _kill(process)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait(), APP_QUIT_SECONDS)


def _kill(process: asyncio.subprocess.Process | None) -> None:
    """SIGKILL by os.kill, not process.kill: nothing here may reap the process but asyncio's
    child watcher (process.kill polls it first, which can)."""
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
